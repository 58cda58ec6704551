"""One recorded answer, and why its recording ended.

Light on purpose (no numpy at import): the session engine's events name
:class:`StopReason`, and front ends import those events at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

SILENCE_DBFS = -100.0


class StopReason(StrEnum):
    """Why a recording ended; the value is what an attempt stores as ``ended_by``."""

    KEY = "key"
    """The candidate pressed the key (or the engine's ``stop`` event was set)."""
    SILENCE = "silence"
    """Speech was heard, then the silence timeout passed (or nobody spoke at all)."""
    TIME_LIMIT = "time_limit"
    """The answer reached its time limit."""
    END_OF_INPUT = "end_of_input"
    """A file microphone ran out (treated like a key press)."""
    CANCELLED = "cancelled"
    """The caller abandoned the answer; nothing is handed on."""
    DEVICE_LOST = "device_lost"
    """The microphone stopped sending audio; what came before is kept."""


@dataclass(frozen=True)
class SpeechSegment:
    """A stretch of speech, in seconds from the start of the recording."""

    start_s: float
    end_s: float
    final: bool = False

    @property
    def duration_s(self) -> float:
        return self.end_s - self.start_s


@dataclass(frozen=True)
class Recording:
    """One recorded answer, already written to ``path`` when this is returned."""

    path: Path | None
    """The answer's audio on disk (None when cancelled before anything was kept)."""
    duration_s: float
    ended_by: StopReason
    audio: np.ndarray | None = None
    """16 kHz mono float32, the whole answer from the start of recording."""
    segments: tuple[SpeechSegment, ...] = ()
    speech_s: float = 0.0
    """Seconds the voice-activity detector judged to be speech."""
    source: str = ""
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    peak_dbfs: float = SILENCE_DBFS
    error: str | None = None
    """A fault worth telling the candidate (the microphone vanished mid-answer, the
    disk filled up); what was recorded is kept."""
    sample_rate: int = 16_000

    @property
    def has_speech(self) -> bool:
        return bool(self.segments)

    @property
    def first_speech_s(self) -> float | None:
        return self.segments[0].start_s if self.segments else None
