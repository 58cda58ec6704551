"""What the session engine tells its front ends.

Every event is a small frozen dataclass. The engine calls its listener with them
from its own threads; a front end turns them into its own messages (the TUI posts
them to the session screen). Nothing here imports a UI toolkit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sayitout.speech.recording import StopReason as StopReason  # named with the events

if TYPE_CHECKING:
    from sayitout.bank.models import Question
    from sayitout.errors import SayitoutError
    from sayitout.scoring.result import AnswerScore, FollowUpResult
    from sayitout.session.interview_report import InterviewReport
    from sayitout.session.summary import SessionSummary
    from sayitout.speech.transcript import Transcript


class Phase(StrEnum):
    """Where the session is; front ends show different keys in each phase."""

    STARTING = "starting"
    ASKING = "asking"
    THINKING = "thinking"
    RECORDING = "recording"
    AWAITING_ANSWER = "awaiting_answer"
    PROCESSING = "processing"
    FEEDBACK = "feedback"
    NO_SPEECH = "no_speech"
    FINISHED = "finished"


@dataclass(frozen=True)
class Event:
    """Base class of everything the engine emits."""


# --- models and capabilities -------------------------------------------------


@dataclass(frozen=True)
class ModelLoading(Event):
    name: str
    """``speech`` (recogniser), ``scoring`` (embeddings) or ``voice`` (text to speech)."""
    detail: str = ""


@dataclass(frozen=True)
class ModelReady(Event):
    name: str
    detail: str = ""
    seconds: float = 0.0


@dataclass(frozen=True)
class ModelFailed(Event):
    name: str
    message: str
    hint: str | None = None


@dataclass(frozen=True)
class Notice(Event):
    """Something the candidate should know that does not stop the session."""

    message: str
    hint: str | None = None
    severity: str = "warning"


@dataclass(frozen=True)
class SpokenAnswersUnavailable(Event):
    """No microphone (or no speech model): answers are typed. ``reason`` says why."""

    reason: str
    hint: str | None = None


# --- session flow --------------------------------------------------------------


@dataclass(frozen=True)
class PhaseChanged(Event):
    phase: Phase


@dataclass(frozen=True)
class SessionStarted(Event):
    session_id: int | None
    deck: str
    questions: tuple[Question, ...]
    can_speak_answers: bool


@dataclass(frozen=True)
class QuestionShown(Event):
    index: int
    """0-based position in the session."""
    total: int
    question: Question
    deck: str
    answer_limit_s: float


@dataclass(frozen=True)
class SpeakingStarted(Event):
    what: str
    """``question`` or ``model_answer``."""


@dataclass(frozen=True)
class SpeakingFinished(Event):
    what: str
    skipped: bool = False


@dataclass(frozen=True)
class ThinkingTick(Event):
    remaining_s: float
    total_s: float


@dataclass(frozen=True)
class RecordingStarted(Event):
    limit_s: float
    source: str
    """Where the audio comes from (the microphone's name or the file played)."""


@dataclass(frozen=True)
class Listening(Event):
    """The first audio of the answer arrived: the microphone is really listening now.

    Follows :class:`RecordingStarted` (a microphone can take a second or two to open;
    until this event the candidate should not start talking)."""

    source: str


@dataclass(frozen=True)
class RecordingProgress(Event):
    """Sent several times a second while recording."""

    level: float
    """Input level 0..1 (RMS scaled for display)."""
    elapsed_s: float
    limit_s: float

    @property
    def remaining_s(self) -> float:
        return max(0.0, self.limit_s - self.elapsed_s)


@dataclass(frozen=True)
class PartialTranscript(Event):
    """The words heard so far, updated as they are said: each closed stretch of speech
    when it is decoded, and the stretch still being spoken every second or two when the
    computer keeps up."""

    text: str
    """Everything heard so far (ending with ``tentative``)."""
    tentative: str = ""
    """The end of ``text`` that may still change (the stretch still being spoken)."""
    behind: bool = False
    """The computer is too busy to show words before a pause: they come at each pause."""


@dataclass(frozen=True)
class RecordingStopped(Event):
    reason: StopReason
    path: Path | None
    """The recording on disk (None when cancelled before anything was kept)."""
    duration_s: float


@dataclass(frozen=True)
class Processing(Event):
    step: str
    """``transcribing``, ``scoring`` or ``saving``."""


@dataclass(frozen=True)
class PreviousAttempt:
    """What happened last time this question was answered (before this session's answer)."""

    score: int
    when: datetime | None
    missed: tuple[str, ...]
    """Texts of the key points missed (or only partly covered) last time."""


@dataclass(frozen=True)
class AnswerScored(Event):
    index: int
    question: Question
    transcript: Transcript
    score: AnswerScore
    attempt_id: int | None
    """The stored attempt (None when there is no store)."""
    attempt_number: int
    """1 for the first answer to this question in this session, 2 after one retry..."""
    previous: PreviousAttempt | None = None
    rescored: bool = False
    """True when this replaces the score of an edited transcript."""
    recording_path: Path | None = None
    passed: bool = False
    """The candidate passed ("I don't know"): stored as a fail for scheduling."""


@dataclass(frozen=True)
class FollowUpAsked(Event):
    """The interviewer asks about a key point the answer missed; the next answer (spoken,
    typed, or the next ``--mic-file``) replies to it."""

    index: int
    question: Question
    key_point_id: str
    text: str
    number: int
    """1 for the first follow-up on this answer."""
    limit: int
    """Follow-ups allowed per question (the setting)."""


@dataclass(frozen=True)
class FollowUpScored(Event):
    index: int
    result: FollowUpResult


@dataclass(frozen=True)
class AnswerTimeWarning(Event):
    """Mock interview: the answer time is nearly up (shown, not spoken: the app never
    talks over an answer it is recording)."""

    remaining_s: float


@dataclass(frozen=True)
class InterviewAnswerTaken(Event):
    """Mock interview: an answer was saved (no score is shown until the end)."""

    index: int
    total: int
    passed: bool = False
    follow_ups: int = 0


@dataclass(frozen=True)
class InterviewFinished(Event):
    report: InterviewReport
    incomplete: bool = False


@dataclass(frozen=True)
class AnswerNotScored(Event):
    """Scoring this answer failed; it was saved (``attempt_id``) with its transcript and
    recording, its score marked failed with ``reason``, and the session goes on."""

    index: int
    question: Question
    transcript: Transcript
    reason: str
    attempt_id: int | None


@dataclass(frozen=True)
class AnswerTooShort(Event):
    """A spoken answer with almost nothing in it: shown, not scored or saved. The
    candidate tries again, types it, or keeps it (``SessionEngine.keep_answer``)."""

    index: int
    heard: str
    """What was heard."""
    words: int
    echo: bool
    """True when every word heard is from the end of the question (the app's own voice)."""


@dataclass(frozen=True)
class NoSpeechHeard(Event):
    index: int
    recording_path: Path | None


@dataclass(frozen=True)
class ModelAnswerShown(Event):
    question_id: str
    text: str


@dataclass(frozen=True)
class SessionFailed(Event):
    """A step failed; the session stays usable (message and hint say what to do)."""

    message: str
    hint: str | None = None
    title: str = "Error"

    @classmethod
    def of(cls, exc: SayitoutError, title: str | None = None) -> SessionFailed:
        """The failure ``exc`` reports (``title`` replaces the error's own)."""
        return cls(exc.message, exc.hint, title or exc.title)


@dataclass(frozen=True)
class SessionFinished(Event):
    summary: SessionSummary
    quit_early: bool = False


@dataclass(frozen=True)
class Attempted:
    """One scored attempt, as kept for the summary."""

    question: Question
    score: AnswerScore
    attempt_id: int | None
    typed: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
