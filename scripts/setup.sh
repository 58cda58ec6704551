#!/usr/bin/env bash
# Sets up everything sayitout needs, on a fresh Debian/Ubuntu machine or an old checkout.
# Idempotent and fast when nothing changed, so `make run` and `make test` call it every time.
#   1. Debian packages (audio libraries, a system voice, a virtual sound server for the tests)
#   2. .venv with PyTorch: the CPU build unless an NVIDIA GPU is present
#   3. every other Python package from the lock, checked against its pinned hash:
#      requirements.lock (the app) or, with --dev, requirements-dev.lock (the app and the
#      test tools, for `make test`)
# Supported: Linux on x86-64 or aarch64 with CPython 3.11-3.13 (what the lock covers and
# scripts/check_lock.py proves); the system packages step needs Debian or Ubuntu.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${VENV:-.venv}
PYTHON=${PYTHON:-python3}
TORCH_VERSION=2.13.0
STAMP="$VENV/.sayitout-setup"
MODE=run
LOCK=requirements.lock
case "${1:-}" in
    --dev) MODE=dev; LOCK=requirements-dev.lock ;;
    "") ;;
    *) echo "usage: scripts/setup.sh [--dev]" >&2; exit 2 ;;
esac
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

check_platform() {
    local system machine
    system=$(uname -s) machine=$(uname -m)
    case "$system/$machine" in
        Linux/x86_64 | Linux/aarch64) return 0 ;;
        Darwin/*)
            say "macOS is not supported by this set-up yet: the lock files pin Linux wheels only,"
            say "and the audio and model stack has not been run on macOS by our CI."
            say "Nothing was installed. See 'Platforms' in README.md."
            exit 1 ;;
        *)
            say "unsupported platform $system/$machine: sayitout's set-up supports Linux on"
            say "x86-64 and aarch64 (see 'Platforms' in README.md). Nothing was installed."
            exit 1 ;;
    esac
}

check_python() {
    if ! "$PYTHON" -c 'import sys; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 13))' 2>/dev/null; then
        say "sayitout needs Python 3.11, 3.12 or 3.13; '$PYTHON' is $("$PYTHON" --version 2>&1 || echo missing)"
        say "install one of them and run again with PYTHON=python3.12 (for example)"
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

fingerprint() { cat scripts/setup.sh requirements.lock requirements-dev.lock pyproject.toml | sha256sum | cut -d' ' -f1; }

# Up to date: the stamp names the same inputs, and a dev set-up also serves `make run`.
up_to_date() {
    [ -f "$STAMP" ] && [ -x "$VENV/bin/sayitout" ] || return 1
    local stamp
    stamp=$(cat "$STAMP")
    [ "$stamp" = "$(fingerprint) dev" ] || [ "$stamp" = "$(fingerprint) $MODE" ]
}

check_platform
install_system_packages
up_to_date && exit 0
check_python
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV" || {
    say "could not create a virtual environment: run 'apt-get install -y python3-venv' and try again"; exit 1; }
install_torch
say "installing Python packages from $LOCK (hash-checked)"
# torch is installed above for this machine (CPU or CUDA build), so it is not in the lock;
# --no-deps keeps pip from resolving it again, and `pip check` confirms the set is whole.
"$VENV/bin/python" -m pip install -q --require-hashes --no-deps -r "$LOCK"
"$VENV/bin/python" -m pip install -q --no-deps -e .
"$VENV/bin/python" -m pip check >/dev/null || { "$VENV/bin/python" -m pip check; exit 1; }
echo "$(fingerprint) $MODE" > "$STAMP"
say "ready"
