"""Build :class:`SessionServices` from ``Settings`` with the real packages.

Nothing heavy is imported here at import time or while building: the speech model,
the embedding model, the voice and the sound library load when first needed, or in
the background through :meth:`SessionServices.warm_up`.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sayitout.config import AudioSettings, Settings
from sayitout.errors import AudioError, ModelError, SayitoutError, UsageError
from sayitout.session.events import StopReason
from sayitout.session.ports import Recording
from sayitout.session.services import SessionServices

_ENDED_BY = {
    "key": StopReason.KEY,
    "silence": StopReason.SILENCE,
    "max": StopReason.TIME_LIMIT,
    "eof": StopReason.END_OF_INPUT,
    "cancel": StopReason.CANCELLED,
    "device-lost": StopReason.END_OF_INPUT,
}


def level_from_dbfs(dbfs: float) -> float:
    """Map -60..0 dBFS onto 0..1 for the meter (speech sits around -30..-10)."""
    if not math.isfinite(dbfs):
        return 0.0
    return max(0.0, min(1.0, (dbfs + 60.0) / 60.0))


# --- audio ------------------------------------------------------------------------------


class RecorderSource:
    """One answer's audio through the speech-io ``AnswerRecorder``."""

    def __init__(self, source: Any, audio: AudioSettings, name: str) -> None:
        self._source = source
        self._audio = audio
        self.name = name

    def record(
        self, path: Path, *, limit_s, stop, cancel, on_level, on_segment, on_start=None
    ) -> Recording:
        from sayitout.speech.audio import AnswerRecorder

        started = time.monotonic()
        recorder = AnswerRecorder(
            self._source,
            self._audio,
            recordings_dir=path.parent,
            on_level=lambda dbfs: on_level(level_from_dbfs(dbfs), time.monotonic() - started),
            on_segment=lambda start_s, audio: on_segment(audio, start_s),
            on_start=on_start,
        )
        started = time.monotonic()
        result = recorder.record(stop, cancel, path=path, max_answer_s=limit_s)
        return Recording(
            path=result.path,
            duration_s=result.duration,
            reason=_ENDED_BY.get(result.ended_by, StopReason.KEY),
            note=result.error,
            raw=result,
        )


class FileMicrophones:
    """``--mic-file A.wav B.wav``: one file per answer turn, played in real time."""

    def __init__(self, paths: Sequence[Path], audio: AudioSettings, speed: float = 1.0) -> None:
        for path in paths:
            if not Path(path).is_file():
                raise UsageError(
                    f"--mic-file {path}: no such file",
                    "give the path of a WAV, FLAC, MP3 or OGG recording",
                )
        self._paths = [Path(p) for p in paths]
        self._audio = audio
        self._speed = speed
        self._lock = threading.Lock()

    def unavailable(self) -> tuple[str, str | None] | None:
        return None

    def next_source(self) -> RecorderSource | None:
        from sayitout.speech.audio import FileMicrophone

        with self._lock:
            if not self._paths:
                return None
            path = self._paths.pop(0)
        return RecorderSource(FileMicrophone(path, speed=self._speed), self._audio, path.name)

    @property
    def remaining(self) -> int:
        return len(self._paths)


class LiveMicrophones:
    """The real microphone (sounddevice), checked once, on first need."""

    def __init__(self, audio: AudioSettings) -> None:
        self._audio = audio
        self._checked = False
        self._problem: tuple[str, str | None] | None = None
        self._lock = threading.Lock()
        self._device_name = "microphone"
        self._early: _EarlyMicrophone | None = None

    @property
    def checked(self) -> bool:
        """Whether :meth:`unavailable` has looked at the sound system yet."""
        return self._checked

    def unavailable(self) -> tuple[str, str | None] | None:
        with self._lock:
            if not self._checked:
                self._problem = self._check()
                self._checked = True
            return self._problem

    def _check(self) -> tuple[str, str | None] | None:
        try:
            from sayitout.speech.audio.devices import resolve_device

            device = resolve_device(self._audio.input_device, "input")
        except SayitoutError as exc:
            return (exc.message, exc.hint)
        except Exception as exc:  # PortAudio failing in a way nobody foresaw
            return (f"the sound system cannot be used: {exc}", "run `sayitout doctor`")
        self._device_name = device.name
        return None

    def _new_source(self) -> Any:
        from sayitout.speech.audio import MicrophoneSource

        return MicrophoneSource(self._audio.input_device, pre_roll_s=self._audio.pre_roll_s)

    def prepare(self) -> None:
        """Open the microphone for the next answer now, in the background.

        An input device can take 0.1 to 2 s before audio flows; opened while the question
        is read, it is ready when recording starts, and the recorder keeps only the last
        ``pre_roll_s`` of what came before, so the first word is never cut.
        """
        if self.unavailable() is not None:
            return
        with self._lock:
            if self._early is not None:
                return
            self._early = _EarlyMicrophone(self._new_source())

    def release(self) -> None:
        """Close a microphone opened by :meth:`prepare` and not used."""
        with self._lock:
            early, self._early = self._early, None
        if early is not None:
            early.stop()

    def next_source(self) -> RecorderSource | None:
        if self.unavailable() is not None:
            return None
        with self._lock:
            source, self._early = self._early, None
        return RecorderSource(source or self._new_source(), self._audio, self._device_name)


class _EarlyMicrophone:
    """A microphone source started in a background thread ahead of its recording.

    The recorder's own ``start()`` waits for that early start, then (the stream being
    open) keeps only the pre-roll of what was captured meanwhile. An early start that
    fails is simply retried by the recorder, which reports the error properly.
    """

    def __init__(self, source: Any) -> None:
        self._source = source
        self._stopped = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._start_early, name="mic-early", daemon=True)
        self._thread.start()

    def _start_early(self) -> None:
        with self._lock:
            if self._stopped:
                return
            try:
                self._source.start()
            except Exception:  # reported by the recorder's start, if it happens again
                return

    def __getattr__(self, name: str) -> Any:
        return getattr(self._source, name)

    def start(self) -> None:
        self._thread.join()
        with self._lock:
            self._stopped = False
            self._source.start()

    def read(self, timeout: float):
        return self._source.read(timeout)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            self._source.stop()


# --- text to speech ---------------------------------------------------------------------


class LazyVoice:
    """The configured speaker, built on first use (piper loads in the background)."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._speaker: Any = None
        self._lock = threading.Lock()
        self.notice: str | None = None

    def _built(self) -> Any:
        with self._lock:
            if self._speaker is None:
                from sayitout.speech.tts import make_speaker

                speaker = make_speaker(self._settings.speech)
                if getattr(speaker, "backend", "none") != "none":
                    # No speakers: say so now, not after synthesising the first question.
                    from sayitout.speech.audio.devices import resolve_device

                    resolve_device(self._settings.audio.output_device, "output")
                self._speaker = speaker
                self.notice = getattr(speaker, "notice", None)
            return self._speaker

    def prepare(self) -> None:
        """Start loading the voice in the background (the engine's own thread)."""
        prepare = getattr(self._built(), "prepare", None)
        if prepare is not None:
            prepare()

    def load(self) -> Any:
        """The speaker, its voice loaded (so a broken voice is reported before a question)."""
        speaker = self._built()
        load = getattr(speaker, "load", None)
        if load is not None:
            load()
        return speaker

    @property
    def model_name(self) -> str:
        return self._settings.speech.tts

    def speak(self, text: str, cancel: threading.Event) -> None:
        self.load().speak(text, cancel)

    def stop(self) -> None:
        if self._speaker is not None:
            self._speaker.stop()

    def warm(self, texts: list[str]) -> None:
        speaker = self.load()
        if hasattr(speaker, "warm"):
            speaker.warm(texts)

    def close(self) -> None:
        if self._speaker is not None and hasattr(self._speaker, "close"):
            self._speaker.close()


# --- speech recognition -----------------------------------------------------------------


class _Reporting:
    """Wraps the transcriber an ``IncrementalTranscriber`` drives, so each decoded
    stretch of speech is reported at once (the words appearing while the candidate
    is still talking)."""

    def __init__(self, transcriber: Any, on_partial: Callable[[str], None]) -> None:
        self._inner = transcriber
        self._on_partial = on_partial
        self._pieces: list[tuple[float, str]] = []
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def transcribe(self, audio, *args, **kwargs):
        transcript = self._inner.transcribe(audio, *args, **kwargs)
        if transcript.text.strip():
            with self._lock:
                self._pieces.append((float(kwargs.get("offset", 0.0)), transcript.text.strip()))
                self._pieces.sort()
                text = " ".join(t for _, t in self._pieces)
            self._on_partial(text)
        return transcript


class _Live:
    def __init__(self, incremental: Any) -> None:
        self._inc = incremental

    def add_segment(self, audio, start_s: float) -> None:
        self._inc.add_segment(start_s, audio)

    def finish(self, recording: Recording):
        return self._inc.finish(duration=recording.duration_s)

    def cancel(self) -> None:
        self._inc.cancel()


class WhisperRecognizer:
    """faster-whisper through :mod:`sayitout.speech.asr`, transcribing while recording."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._transcriber: Any = None
        self._lock = threading.Lock()

    @property
    def model_name(self) -> str:
        return self._settings.asr.model

    def _get(self) -> Any:
        with self._lock:
            if self._transcriber is None:
                try:
                    from sayitout.speech.asr import Transcriber
                except ImportError as exc:
                    raise ModelError(
                        "speech recognition (sayitout.speech.asr) is not installed",
                        "reinstall sayitout; answers can be typed meanwhile",
                    ) from exc
                self._transcriber = Transcriber(self._settings.asr)
            return self._transcriber

    def load(self) -> None:
        transcriber = self._get()
        warm = getattr(transcriber, "warm_up", None)
        (warm or transcriber.load)()

    def start(self, terms: Sequence[str], on_partial: Callable[[str], None]) -> _Live:
        from sayitout.speech.asr import IncrementalTranscriber

        transcriber = self._get()
        transcriber.load()
        incremental = IncrementalTranscriber(_Reporting(transcriber, on_partial), list(terms))
        return _Live(incremental)


# --- scoring ----------------------------------------------------------------------------


class LazyScorer:
    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._scorer: Any = None
        self._lock = threading.Lock()

    @property
    def model_name(self) -> str:
        return getattr(self._scorer, "model_name", "all-MiniLM-L6-v2")

    def _get(self) -> Any:
        with self._lock:
            if self._scorer is None:
                try:
                    from sayitout.scoring import Scorer
                except ImportError as exc:
                    raise ModelError(
                        "the scoring engine (sayitout.scoring) is not installed",
                        "reinstall sayitout",
                    ) from exc
                self._scorer = Scorer(device=self._settings.scoring.device)
            return self._scorer

    def load(self) -> None:
        self._get().warm_up()

    def score(self, rubric, answer):
        return self._get().score(rubric, answer)


# --- the factory ------------------------------------------------------------------------


def build_services(
    settings: Settings,
    *,
    mic_files: Sequence[Path | str] = (),
    tts: str | None = None,
    bank_dirs: Sequence[Path | str] = (),
    database: Path | None = None,
    mic_speed: float = 1.0,
) -> SessionServices:
    """The real services for ``settings``; cheap (no model loads, no heavy imports).

    ``mic_files`` replace the microphone (one per answer turn); ``tts`` overrides the
    configured voice backend (``none`` for silence); ``bank_dirs`` add question banks.
    """
    if tts is not None:
        if tts not in ("piper", "pyttsx3", "none"):
            raise UsageError(f"unknown --tts {tts!r}", "use piper, pyttsx3 or none")
        settings = settings.model_copy(
            update={"speech": settings.speech.model_copy(update={"tts": tts})}
        )
    audio = settings.audio
    microphones: Any = (
        FileMicrophones([Path(p) for p in mic_files], audio, mic_speed)
        if mic_files
        else LiveMicrophones(audio)
    )
    dirs = [Path(d) for d in bank_dirs]
    for d in dirs:
        if not d.is_dir():
            raise UsageError(
                f"--bank {d}: no such directory",
                "give a folder holding question_bank/ and rubrics/",
            )

    def load_bank():
        from sayitout.bank.loader import load_bank as _load

        return _load(dirs or None)

    def open_store():
        from sayitout.store import Store

        return Store.open(database)

    return SessionServices(
        settings=settings,
        bank_loader=load_bank,
        scorer=LazyScorer(settings),
        recognizer=WhisperRecognizer(settings),
        microphones=microphones,
        voice=None if settings.speech.tts == "none" else LazyVoice(settings),
        store_opener=open_store,
    )


__all__ = ["AudioError", "build_services"]
