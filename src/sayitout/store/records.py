"""Typed rows the store hands out. Plain frozen dataclasses: no database handles inside."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sayitout.scoring.result import AnswerScore
from sayitout.speech.transcript import Transcript

PASSED = "passed"
"""``ended_by`` of an attempt where the candidate passed ("I don't know")."""


@dataclass(frozen=True)
class SessionRecord:
    id: int | None
    """``None`` for the pseudo-session that groups command-line attempts."""
    deck: str
    started_at: datetime
    finished_at: datetime | None
    settings: dict[str, Any] = field(default_factory=dict)
    attempt_count: int = 0
    session_score: float | None = None
    """The mean of each question's best attempt in the session
    (:mod:`sayitout.store.session_score`); ``None`` with no attempt."""

    @property
    def kind(self) -> str:
        """``practice`` or ``interview`` (a mock interview), as the session recorded it."""
        return str(self.settings.get("kind") or "practice")

    @property
    def mean_score(self) -> float | None:
        """The old name of :attr:`session_score`, kept while branches written before the
        rename are merged; new code says ``session_score``."""
        return self.session_score


@dataclass(frozen=True)
class AttemptSummary:
    """One attempt without its transcript and score details: cheap to list by the thousand."""

    id: int
    session_id: int | None
    question_id: str
    deck: str
    created_at: datetime
    score: int
    coverage: float | None
    wpm: float | None
    fillers_per_min: float | None
    duration_s: float | None
    ended_by: str | None
    rubric_version: int
    asr_model: str
    embedding_model: str
    recording_path: Path | None
    """Absolute path of the recording, or ``None`` for a typed answer."""
    corrected: bool = False
    """Whether the transcript was corrected by hand."""
    scorer_version: str = ""
    """The scorer that produced the current score (``""``: before versions were recorded)."""


@dataclass(frozen=True)
class ScoreEntry:
    """One score in an attempt's history."""

    created_at: datetime
    reason: str
    """``initial``, ``rescore`` or ``correction``."""
    score: int
    rubric_version: int
    embedding_model: str
    scorer_version: str = ""


@dataclass(frozen=True)
class AttemptRecord:
    """An attempt in full: what was heard, how it scored, and every earlier score."""

    summary: AttemptSummary
    transcript: Transcript
    """The transcript as recognised (words and timestamps)."""
    transcript_corrected: str | None
    answer_score: AnswerScore
    """The current score (after any rescore)."""
    score_history: tuple[ScoreEntry, ...] = ()

    # Convenience pass-throughs for the most used fields.
    @property
    def id(self) -> int:
        return self.summary.id

    @property
    def question_id(self) -> str:
        return self.summary.question_id

    @property
    def score(self) -> int:
        return self.summary.score

    @property
    def created_at(self) -> datetime:
        return self.summary.created_at

    @property
    def recording_path(self) -> Path | None:
        return self.summary.recording_path

    @property
    def text(self) -> str:
        """The answer as it stands: the correction if there is one, else what was heard."""
        if self.transcript_corrected is not None:
            return self.transcript_corrected
        return self.transcript.text

    @property
    def recording_exists(self) -> bool:
        path = self.summary.recording_path
        return path is not None and path.is_file()


@dataclass(frozen=True)
class QuestionStats:
    question_id: str
    attempts: int
    last_score: int
    best_score: int
    mean_score: float
    first_at: datetime
    last_at: datetime
    last_attempt_id: int


@dataclass(frozen=True)
class KeyPointMiss:
    """How often a key point was missed across attempts."""

    question_id: str
    key_point_id: str
    text: str
    missed: int
    seen: int

    @property
    def miss_rate(self) -> float:
        return self.missed / self.seen if self.seen else 0.0


@dataclass(frozen=True)
class OrphanRecording:
    """A recording on disk that no attempt refers to (e.g. after a crash)."""

    path: Path
    size: int
    modified: datetime
    question_id: str | None
    """Read from the file name when it follows :func:`recording_name`."""
