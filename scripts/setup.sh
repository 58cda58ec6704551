#!/usr/bin/env bash
# Sets up everything sayitout needs, on a fresh Debian/Ubuntu machine or an old checkout.
# Idempotent and fast when nothing changed, so `make run` and `make test` call it every time.
#   1. Debian packages (audio libraries, a system voice, a virtual sound server for the tests)
#   2. .venv with PyTorch: the CPU build unless an NVIDIA GPU is present
#   3. every other Python package from requirements.lock, checked against its pinned hash
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${VENV:-.venv}
PYTHON=${PYTHON:-python3}
TORCH_VERSION=2.13.0
STAMP="$VENV/.sayitout-setup"
# libportaudio2: microphone and speakers; espeak-ng: the pyttsx3 voice; pulseaudio,
# pulseaudio-utils and libasound2-plugins: the virtual sound card the tests record through;
# sox: test audio.
APT_PACKAGES=(libportaudio2 espeak-ng pulseaudio pulseaudio-utils libasound2-plugins sox)

say() { printf 'setup: %s\n' "$*" >&2; }

install_system_packages() {
    command -v dpkg-query >/dev/null || { say "not a Debian system: install ${APT_PACKAGES[*]} (or their equivalents) yourself"; return 0; }
    local missing=() p
    for p in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo"; else
            say "missing system packages: ${missing[*]}"
            say "run this once, then try again:"
            say "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}"
            exit 1
        fi
    fi
    say "installing system packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

check_python() {
    if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        say "sayitout needs Python 3.11 or newer; '$PYTHON' is $("$PYTHON" --version 2>&1 || echo missing)"
        say "install python3.11 (or newer) and run again with PYTHON=python3.11"
        exit 1
    fi
}

have_nvidia_gpu() { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }

install_torch() {
    local pip=("$VENV/bin/python" -m pip install -q)
    if "$VENV/bin/python" -c "import torch, sys; sys.exit(not torch.__version__.startswith('$TORCH_VERSION'))" 2>/dev/null; then
        return 0
    fi
    if have_nvidia_gpu; then
        say "NVIDIA GPU found: installing the CUDA build of torch $TORCH_VERSION"
        "${pip[@]}" "torch==$TORCH_VERSION"
    elif compgen -G "${PIP_FIND_LINKS:-/opt/wheels}/torch-$TORCH_VERSION+cpu-*.whl" >/dev/null; then
        say "no NVIDIA GPU: installing the CPU build of torch $TORCH_VERSION from ${PIP_FIND_LINKS:-/opt/wheels}"
        "${pip[@]}" --find-links "${PIP_FIND_LINKS:-/opt/wheels}" "torch==$TORCH_VERSION+cpu"
    else
        say "no NVIDIA GPU: installing the CPU build of torch $TORCH_VERSION"
        "${pip[@]}" --index-url https://download.pytorch.org/whl/cpu "torch==$TORCH_VERSION+cpu"
    fi
}

fingerprint() { cat scripts/setup.sh requirements.lock pyproject.toml | sha256sum | cut -d' ' -f1; }

install_system_packages
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$(fingerprint)" ] && [ -x "$VENV/bin/sayitout" ]; then
    exit 0
fi
check_python
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV" || {
    say "could not create a virtual environment: run 'apt-get install -y python3-venv' and try again"; exit 1; }
install_torch
say "installing Python packages from requirements.lock (hash-checked)"
# torch is installed above for this machine (CPU or CUDA build), so it is not in the lock;
# --no-deps keeps pip from resolving it again, and `pip check` confirms the set is whole.
"$VENV/bin/python" -m pip install -q --require-hashes --no-deps -r requirements.lock
"$VENV/bin/python" -m pip install -q --no-deps -e .
"$VENV/bin/python" -m pip check >/dev/null || { "$VENV/bin/python" -m pip check; exit 1; }
fingerprint > "$STAMP"
say "ready"
