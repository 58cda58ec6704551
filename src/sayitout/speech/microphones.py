"""Where each answer's audio comes from: the live microphone or ``--mic-file``.

:class:`LiveMicrophones` and :class:`FileMicrophones` implement the session engine's
:class:`~sayitout.session.ports.Microphones`; each hands out one
:class:`MicrophoneAnswer` (an :class:`~sayitout.session.ports.AnswerSource`) per answer
turn, which records through the :class:`~sayitout.speech.audio.recorder.AnswerRecorder`.

Nothing heavy is imported here at import time: the sound library is opened on first
need (the check, or the first answer).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sayitout.errors import SayitoutError, UsageError
from sayitout.speech.callbacks import LevelCallback, SegmentCallback, StartCallback

if TYPE_CHECKING:
    import numpy as np

    from sayitout.config import AudioSettings
    from sayitout.speech.audio.sources import AudioSource, MicrophoneSource
    from sayitout.speech.recording import Recording


def level_from_dbfs(dbfs: float) -> float:
    """Map -60..0 dBFS onto 0..1 for the meter (speech sits around -30..-10)."""
    if not math.isfinite(dbfs):
        return 0.0
    return max(0.0, min(1.0, (dbfs + 60.0) / 60.0))


class MicrophoneAnswer:
    """One answer's audio from an :class:`AudioSource`, through the answer recorder."""

    def __init__(self, source: AudioSource, audio: AudioSettings, name: str) -> None:
        self._source = source
        self._audio = audio
        self.name = name

    def record(
        self,
        path: Path,
        *,
        limit_s: float,
        stop: threading.Event,
        cancel: threading.Event,
        on_level: LevelCallback,
        on_segment: SegmentCallback,
        on_start: StartCallback,
        on_open: SegmentCallback,
    ) -> Recording:
        from sayitout.speech.audio.recorder import AnswerRecorder

        started = time.monotonic()

        def level(dbfs: float) -> None:
            on_level(level_from_dbfs(dbfs), time.monotonic() - started)

        recorder = AnswerRecorder(
            self._source,
            self._audio,
            on_level=level,
            on_segment=on_segment,
            on_start=on_start,
            on_open=on_open,
        )
        started = time.monotonic()
        return recorder.record(stop, cancel, path=path, max_answer_s=limit_s)


class FileMicrophones:
    """``--mic-file A.wav B.wav``: one file per answer turn, played in real time."""

    checked = True

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

    def next_source(self) -> MicrophoneAnswer | None:
        from sayitout.speech.audio.sources import FileMicrophone

        with self._lock:
            if not self._paths:
                return None
            path = self._paths.pop(0)
        return MicrophoneAnswer(FileMicrophone(path, speed=self._speed), self._audio, path.name)

    @property
    def remaining(self) -> int | None:
        return len(self._paths)

    def prepare(self) -> None:
        return None

    def release(self) -> None:
        return None


class LiveMicrophones:
    """The real microphone (sounddevice), checked once, on first need."""

    remaining = None

    def __init__(self, audio: AudioSettings) -> None:
        self._audio = audio
        self._checked = False
        self._problem: tuple[str, str | None] | None = None
        self._lock = threading.Lock()
        self._device_name = "microphone"
        self._early: EarlyMicrophone | None = None

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

    def _new_source(self) -> MicrophoneSource:
        from sayitout.speech.audio.sources import MicrophoneSource

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
            self._early = EarlyMicrophone(self._new_source())

    def release(self) -> None:
        """Close a microphone opened by :meth:`prepare` and not used."""
        with self._lock:
            early, self._early = self._early, None
        if early is not None:
            early.stop()

    def next_source(self) -> MicrophoneAnswer | None:
        if self.unavailable() is not None:
            return None
        with self._lock:
            early, self._early = self._early, None
        if early is not None:
            return MicrophoneAnswer(early, self._audio, self._device_name)
        return MicrophoneAnswer(self._new_source(), self._audio, self._device_name)


class EarlyMicrophone:
    """A microphone source started in a background thread ahead of its recording.

    The recorder's own ``start()`` waits for that early start, then (the stream being
    open) keeps only the pre-roll of what was captured meanwhile. An early start that
    fails is simply retried by the recorder, which reports the error properly.
    """

    def __init__(self, source: MicrophoneSource) -> None:
        self._source = source
        self._stopped = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._start_early, name="mic-early", daemon=True)
        self._thread.start()

    @property
    def name(self) -> str:
        return self._source.name

    @property
    def sample_rate(self) -> int:
        return self._source.sample_rate

    def _start_early(self) -> None:
        with self._lock:
            if self._stopped:
                return
            try:
                self._source.start()
            except Exception:  # reported by the recorder's start, if it happens again
                return

    def start(self) -> None:
        self._thread.join()
        with self._lock:
            self._stopped = False
            self._source.start()

    def read(self, timeout: float) -> np.ndarray:
        return self._source.read(timeout)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            self._source.stop()
