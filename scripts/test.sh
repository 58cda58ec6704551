#!/usr/bin/env bash
# The whole test suite: lint, architecture contracts, then every test (unit, pilot and
# snapshot, end-to-end with the real models on real audio, and the real audio loop through
# a virtual sound card). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}

# Fully offline: a test that tries to download a model fails instead of hiding a network need.
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1

echo "== ruff"
"$VENV/bin/ruff" check src tests bench
"$VENV/bin/ruff" format --check src tests bench
echo "== import contracts"
"$VENV/bin/lint-imports" --no-cache
echo "== types (mypy; strict on session, scoring, store, bank, schedule, coach)"
"$VENV/bin/mypy"
echo "== lock files cover CPython 3.11-3.13 on Linux x86-64 and aarch64"
# Asks PyPI. Offline, a developer's run goes on with a warning; CI (CI=true) must check.
status=0
"$VENV/bin/python" scripts/check_lock.py requirements.lock requirements-dev.lock || status=$?
if [ "$status" -eq 3 ] && [ "${CI:-}" != "true" ]; then
    echo "warning: PyPI unreachable, lock files not checked" >&2
elif [ "$status" -ne 0 ]; then
    exit "$status"
fi

# The virtual sound card (PulseAudio with a null sink) that the audio tests record through.
if [ -x scripts/audio-loop.sh ]; then
    eval "$(scripts/audio-loop.sh start)"
fi

echo "== pytest"
"$VENV/bin/python" -m pytest -q -ra --durations=15 "$@"
