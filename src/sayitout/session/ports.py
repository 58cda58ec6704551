"""The interfaces the engine drives, implemented directly by the speech and scoring
packages (no adapters) and by the tests' stand-ins.

One name per concept, the same on both sides of the boundary:

- :class:`Speaker` reads text aloud (``sayitout.speech.tts``: piper, pyttsx3, silent);
- :class:`Microphones` hands out one :class:`AnswerSource` per answer turn
  (``sayitout.speech.microphones``: the live microphone or ``--mic-file``);
- :class:`Transcriber` turns speech into a :class:`~sayitout.speech.transcript.Transcript`,
  and :class:`IncrementalTranscriber` does it for one answer while it is recorded
  (``sayitout.speech.asr``);
- :class:`AnswerScorer` grades an answer against its rubric (``sayitout.scoring``).

Methods with a body are optional: a class that subclasses the Protocol inherits the
no-op, so the engine calls them without asking first. Nothing here is heavy to import.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from sayitout.speech.callbacks import (
    LevelCallback,
    PartialCallback,
    SegmentCallback,
    StartCallback,
)

if TYPE_CHECKING:
    import numpy as np

    from sayitout.bank.models import Rubric
    from sayitout.scoring.result import AnswerScore
    from sayitout.speech.recording import Recording
    from sayitout.speech.transcript import Transcript


class Speaker(Protocol):
    """Reads text aloud. ``speak`` blocks until done or stopped; ``stop`` works from any
    thread."""

    backend: str
    """``piper``, ``pyttsx3`` or ``none``."""
    notice: str | None
    """Why this backend is in use when another was asked for (a fallback), else None."""

    def speak(self, text: str, cancel: threading.Event | None = None) -> bool:
        """Say it; True if it was said to the end, False if stopped or cancelled."""
        ...

    def stop(self) -> None:
        """Stop speaking at once."""
        ...

    def prepare(self) -> None:
        """Start loading the voice in the background (returns at once)."""
        return None

    def warm_up(self) -> None:
        """Load the voice now, so a broken one is reported before the first question."""
        return None

    def warm(self, texts: list[str]) -> None:
        """Synthesise these texts ahead, in the background, so speaking starts at once."""
        return None

    def close(self) -> None:
        """Stop speaking and end background work."""
        return None


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
        on_start: StartCallback,
        on_open: SegmentCallback,
    ) -> Recording:
        """Record one answer into ``path`` (on disk before this returns).

        ``on_segment`` gets each stretch of speech closed by a pause; ``on_open`` the
        stretch still being spoken, every second or so; ``on_start()`` comes when the
        answer's first audio is kept: the moment to say "listening"."""
        ...


class Microphones(Protocol):
    """Hands out one :class:`AnswerSource` per answer turn."""

    def unavailable(self) -> tuple[str, str | None] | None:
        """``(reason, hint)`` when spoken answers cannot work at all, else None."""
        ...

    def next_source(self) -> AnswerSource | None:
        """The source for the next answer, or None when there is none left."""
        ...

    @property
    def checked(self) -> bool:
        """Whether :meth:`unavailable` can answer without opening the sound system."""
        return True

    @property
    def remaining(self) -> int | None:
        """How many answers are left to play (files), None when there is no end."""
        return None

    def prepare(self) -> None:
        """Open the microphone for the next answer now (while the question is read)."""
        return None

    def release(self) -> None:
        """Close a microphone opened by :meth:`prepare` and not used."""
        return None


class IncrementalTranscriber(Protocol):
    """Transcribes one answer while it is being recorded."""

    def add_segment(self, start_s: float, audio: np.ndarray) -> None:
        """A closed stretch of speech (a :data:`SegmentCallback`)."""
        ...

    def preview(self, start_s: float, audio: np.ndarray) -> None:
        """The stretch still being spoken, for words shown as they are said."""
        return None

    def finish(self, *, duration: float | None = None) -> Transcript:
        """Wait for the last stretch and return the whole answer's transcript."""
        ...

    def cancel(self) -> None:
        """Stop at once; nothing is returned."""
        ...


class Transcriber(Protocol):
    """Speech recognition, one model."""

    @property
    def model_name(self) -> str: ...

    def warm_up(self) -> None:
        """Load the model (and run it once), so the first answer is not slower."""
        ...

    def live(
        self, terms: Sequence[str], on_partial: PartialCallback | None = None
    ) -> IncrementalTranscriber:
        """Start transcribing one answer (``terms``: the rubric's words to listen for)."""
        ...

    def transcribe(self, audio: np.ndarray, *, terms: Iterable[str] = ()) -> Transcript:
        """Transcribe a whole recording at once (crash recovery, rescoring a file)."""
        ...


class AnswerScorer(Protocol):
    """Grades answers against rubrics."""

    @property
    def model_name(self) -> str: ...

    def warm_up(self) -> None:
        """Load the model (and run it once)."""
        ...

    def score(self, rubric: Rubric, answer: Transcript | str) -> AnswerScore: ...
