"""The system's voices through pyttsx3: espeak-ng on Linux, SAPI5 on Windows, NSSpeech on macOS.

pyttsx3 speaks through its own audio path; we want the audio (to cache it and to stop
it at once), so each sentence is saved to a temporary file and played by our Player.

pyttsx3 2.99's espeak driver has been seen not to write the file on the first
``save_to_file`` after ``init()``; :meth:`Pyttsx3Speaker._synth_sentence` checks the file
and repeats the call once when it is missing or empty. The driver also prints a line
for every file; that is swallowed.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import tempfile
import threading
from pathlib import Path

import numpy as np

from sayitout.errors import AudioError, ModelError
from sayitout.speech.tts.base import SynthSpeaker
from sayitout.speech.tts.cache import SynthCache

PYTTSX3_FIX = (
    "pip install pyttsx3; on Linux also apt-get install espeak-ng; or set speech.tts to piper "
    "or none"
)

_engine_lock = threading.Lock()
_engine = None


def _get_engine():
    global _engine
    if _engine is None:
        try:
            import pyttsx3
        except ImportError as exc:
            raise ModelError("The pyttsx3 package is not installed", PYTTSX3_FIX) from exc
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                _engine = pyttsx3.init()
        except Exception as exc:  # no espeak-ng library, no SAPI...
            raise ModelError(
                f"The system speech engine could not start: {exc}", PYTTSX3_FIX
            ) from exc
    return _engine


@atexit.register
def _drop_engine() -> None:
    """Free the engine while modules still exist (pyttsx3's ``__del__`` fails later)."""
    global _engine
    _engine = None


def pyttsx3_unavailable() -> str | None:
    """Why pyttsx3 cannot be used, or None if it can."""
    try:
        with _engine_lock:
            _get_engine()
    except ModelError as exc:
        return f"{exc.message} ({exc.hint})"
    return None


def list_voices() -> list[tuple[str, str]]:
    """(id, name) of each system voice."""
    with _engine_lock:
        engine = _get_engine()
        return [(v.id, v.name) for v in engine.getProperty("voices")]


class Pyttsx3Speaker(SynthSpeaker):
    backend = "pyttsx3"

    def __init__(
        self,
        voice: str | None = None,
        rate: float = 1.0,
        player=None,
        cache: SynthCache | None = None,
    ) -> None:
        super().__init__(rate=rate, player=player, cache=cache)
        with _engine_lock:
            engine = _get_engine()
            self._base_rate = 200
            with contextlib.suppress(Exception):
                self._base_rate = int(engine.getProperty("rate")) or 200
            if voice:
                ids = {v.id for v in engine.getProperty("voices")}
                names = {v.name: v.id for v in engine.getProperty("voices")}
                if voice not in ids and voice not in names:
                    raise ModelError(
                        f"The system voice {voice!r} does not exist",
                        "list voices with `sayitout doctor`, or leave speech.voice empty",
                    )
                voice = names.get(voice, voice)
        self.voice = voice
        self.voice_id = voice or "default"
        self._tmpdir = Path(tempfile.mkdtemp(prefix="sayitout-tts-"))
        self._n = 0

    def _save(self, engine, text: str, path: Path) -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            engine.save_to_file(text, str(path))
            engine.runAndWait()

    def _synth_sentence(self, text: str) -> tuple[np.ndarray, int]:
        import soundfile as sf

        self._n += 1
        path = self._tmpdir / f"s{self._n}.wav"
        with _engine_lock:
            engine = _get_engine()
            if self.voice:
                engine.setProperty("voice", self.voice)
            engine.setProperty("rate", round(self._base_rate * self.rate))
            for _attempt in range(3):  # the first save after init() may write nothing
                path.unlink(missing_ok=True)
                try:
                    self._save(engine, text, path)
                except Exception as exc:
                    raise AudioError(
                        f"The system speech engine failed: {exc}", PYTTSX3_FIX
                    ) from exc
                if path.is_file() and path.stat().st_size > 44:
                    break
            else:
                raise AudioError("The system speech engine wrote no audio", PYTTSX3_FIX)
        try:
            audio, sr = sf.read(str(path), dtype="float32", always_2d=True)
        finally:
            path.unlink(missing_ok=True)
        return audio.mean(axis=1).astype(np.float32), int(sr)

    def close(self) -> None:
        super().close()
        with contextlib.suppress(OSError):
            for p in self._tmpdir.iterdir():
                p.unlink()
            self._tmpdir.rmdir()
