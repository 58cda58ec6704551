"""The narrow interfaces the engine drives.

The engine depends on these shapes only; :mod:`sayitout.session.wiring` adapts the
real speech, scoring and storage packages to them, and tests can pass simple
stand-ins. Keeping them small keeps the engine readable and testable.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from sayitout.session.events import StopReason

if TYPE_CHECKING:
    import numpy as np

    from sayitout.bank.models import Rubric
    from sayitout.scoring.result import AnswerScore
    from sayitout.speech.transcript import Transcript


class Voice(Protocol):
    """Reads text aloud; ``speak`` blocks until done or until ``cancel`` is set."""

    def speak(self, text: str, cancel: threading.Event) -> None: ...

    def stop(self) -> None: ...


@dataclass(frozen=True)
class Recording:
    path: Path | None
    """The answer's audio on disk (written before this is returned)."""
    duration_s: float
    reason: StopReason
    note: str | None = None
    """A fault worth telling the candidate (the microphone vanished mid-answer)."""
    raw: object = None
    """The recorder's own result (its audio and speech segments), for the transcriber."""


LevelCallback = Callable[[float, float], None]
"""``(level 0..1, elapsed seconds)``."""
SegmentCallback = Callable[["np.ndarray", float], None]
"""``(16 kHz mono float32 speech, start offset in seconds)``: a stretch of speech just closed."""


class AnswerSource(Protocol):
    """Audio for one answer: a microphone or a file played as one."""

    name: str

    def record(
        self,
        path: Path,
        *,
        limit_s: float,
        stop: threading.Event,
        cancel: threading.Event,
        on_level: LevelCallback,
        on_segment: SegmentCallback,
        on_start: Callable[[], None] | None = None,
    ) -> Recording:
        """Record one answer; ``on_start()`` when its first audio arrives (optional:
        a source whose ``record`` has no ``on_start`` is taken to listen at once)."""
        ...


class Microphones(Protocol):
    """Hands out one :class:`AnswerSource` per answer turn."""

    def unavailable(self) -> tuple[str, str | None] | None:
        """``(reason, hint)`` when spoken answers cannot work at all, else None."""
        ...

    def next_source(self) -> AnswerSource | None:
        """The source for the next answer, or None when there is none left."""
        ...


class LiveTranscription(Protocol):
    """Transcribes an answer while it is being recorded."""

    def add_segment(self, audio: np.ndarray, start_s: float) -> None: ...

    def finish(self, recording: Recording) -> Transcript: ...

    def cancel(self) -> None: ...


class Recognizer(Protocol):
    model_name: str

    def load(self) -> None: ...

    def start(
        self, terms: Sequence[str], on_partial: Callable[[str], None]
    ) -> LiveTranscription: ...


class AnswerScorer(Protocol):
    model_name: str

    def load(self) -> None: ...

    def score(self, rubric: Rubric, answer: Transcript | str) -> AnswerScore: ...
