"""Fixtures for the speech-io tests: synthesised speech, and the virtual sound server."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
AUDIO_LOOP = REPO_ROOT / "scripts" / "audio-loop.sh"
SR = 16_000


@functools.lru_cache(maxsize=1)
def _piper():
    from sayitout.speech.tts.piper_backend import PiperSpeaker

    speaker = PiperSpeaker(cache=None)
    speaker.load()
    return speaker


@functools.lru_cache(maxsize=64)
def _say(text: str) -> np.ndarray:
    from sayitout.speech.audio import resample

    audio, sr = _piper()._synth_sentence(text)
    return resample(audio, sr, SR)


def silence(seconds: float) -> np.ndarray:
    return np.zeros(round(seconds * SR), dtype=np.float32)


def noise(seconds: float, dbfs: float = -60.0, seed: int = 0) -> np.ndarray:
    """Quiet room noise (white, at ``dbfs`` RMS)."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(round(seconds * SR)) * 10 ** (dbfs / 20)).astype(np.float32)


@pytest.fixture(scope="session")
def say():
    """``say(text) -> 16 kHz float32`` with the bundled piper voice (cached per text)."""
    return _say


@pytest.fixture(scope="session")
def quiet():
    """``quiet(seconds)``: digital silence at 16 kHz."""
    return silence


@pytest.fixture(scope="session")
def room():
    """``room(seconds, dbfs=-60, seed=0)``: quiet room noise at 16 kHz."""
    return noise


@pytest.fixture(scope="session")
def piper_speaker():
    return _piper()


# -- the virtual sound server -----------------------------------------------------------


@pytest.fixture(scope="session")
def audio_loop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A private PulseAudio daemon with a null sink whose monitor is the default source.

    Started with ``scripts/audio-loop.sh``; stopped at the end of the session. Tests
    that use it are marked ``audio``.
    """
    if shutil.which("pulseaudio") is None or shutil.which("pactl") is None:
        pytest.skip(
            "pulseaudio is not installed (apt-get install pulseaudio pulseaudio-utils "
            "libasound2-plugins); the real audio path cannot be tested"
        )
    try:
        import sounddevice  # noqa: F401
    except OSError as exc:
        pytest.skip(f"PortAudio is missing ({exc}): apt-get install libportaudio2")
    runtime = tmp_path_factory.mktemp("pulse")
    env = {**os.environ, "SAYITOUT_PULSE_DIR": str(runtime)}
    proc = subprocess.run(
        [str(AUDIO_LOOP), "start"], env=env, capture_output=True, text=True, timeout=60
    )
    if proc.returncode != 0:
        pytest.fail(f"audio-loop.sh start failed: {proc.stdout}\n{proc.stderr}")
    exported = {}
    for line in proc.stdout.splitlines():
        if line.startswith("export "):
            key, _, value = line[len("export ") :].partition("=")
            exported[key] = value
    saved = {k: os.environ.get(k) for k in exported}
    os.environ.update(exported)
    # PortAudio reads the device list once: restart it so the pulse devices appear.
    import sounddevice as sd

    sd._terminate()
    sd._initialize()
    try:
        yield exported
    finally:
        subprocess.run([str(AUDIO_LOOP), "stop"], env=env, capture_output=True, timeout=60)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        sd._terminate()
        sd._initialize()
