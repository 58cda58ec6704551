"""The shape of a graded answer: what every front end, the store and reports read.

``AnswerScore.to_dict()`` is the JSON contract of ``sayitout score --json``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["covered", "partial", "missed"]


def status_credit(status: str) -> float:
    """The fixed credit of a key point status, from before credit was graded."""
    return {"covered": 1.0, "partial": 0.3}.get(status, 0.0)


@dataclass(frozen=True)
class KeyPointResult:
    id: str
    text: str
    weight: float
    status: Status
    similarity: float
    """How closely the answer's best stretch states the key point, 0..1: the match
    (embedding similarity blended with shared content words) that ``credit`` is read
    from. Scores stored before graded credit hold the plain cosine here."""
    evidence: str | None
    """The stretch of the answer that earned the credit (None when missed)."""
    evidence_span: tuple[int, int] | None = None
    """Character offsets of ``evidence`` in the answer text, for highlighting."""
    credit: float | None = None
    """Share of the key point earned, 0..1: 1 when covered, 0 when missed, between for
    a partial statement. None in scores stored before graded credit (see ``earned``)."""
    reason: str | None = None
    """Why it earned nothing though the answer talked about it, for the candidate ("You
    call the optimizer step after each micro-batch; this point needs it once, after the
    last one."; ``scoring.reasons``). None when missed plainly, earned, or scored before
    reasons were given."""
    penalty: float = 0.0
    """What the score lost because the answer said the point the other way round
    (``Params.reversal_penalty``); 0 otherwise, and in scores stored before it cost."""

    @property
    def earned(self) -> float:
        """``credit``, or for older scores the fixed credit of their status."""
        if self.credit is not None:
            return self.credit
        return status_credit(self.status)


@dataclass(frozen=True)
class NumericResult:
    expected: float
    tolerance: float
    unit: str
    heard: float | None
    """The candidate's final stated answer, normalised to a number (None if none was heard)."""
    heard_unit: str | None
    heard_text: str | None
    """The words it was read from (e.g. "about forty one point seven minutes")."""
    correct: bool
    reason: str
    """Why it is right or wrong, in one sentence for the candidate."""
    close: bool = False
    """Not right, but within ``numbers.judge.NEAR_MISS`` of the answer (relative): a near
    miss earns part of the number's share of the score (``Params.near_miss_credit``).
    False in scores stored before near misses counted."""


@dataclass(frozen=True)
class MisconceptionResult:
    id: str
    text: str
    correction: str
    similarity: float
    evidence: str
    evidence_span: tuple[int, int] | None
    penalty: float


@dataclass(frozen=True)
class Pause:
    start: float
    duration: float


@dataclass(frozen=True)
class DeliveryMetrics:
    duration_s: float
    words: int
    words_per_minute: float
    fillers: dict[str, int]
    filler_count: int
    fillers_per_minute: float
    long_pauses: tuple[Pause, ...]
    """Silences between words longer than 1.5 s."""
    hedges: dict[str, int]
    time_to_first_word_s: float | None


@dataclass(frozen=True)
class FollowUpResult:
    """An interviewer's follow-up on a missed key point, and how the reply did."""

    key_point_id: str
    question: str
    """The follow-up question as asked."""
    answer: str
    """The reply (transcript or typed text); empty when the candidate passed."""
    status: Status
    """The key point's status judged on the reply alone."""
    similarity: float
    evidence: str | None
    credit: float
    """Points (0..100 scale) the reply added to the answer's score: prompted credit, worth
    ``PROMPTED_WORTH`` of the same point said unprompted."""
    recording: str | None = None
    """The reply's recording file name (None when typed, and on a volunteered point: the
    asked point's turn holds it)."""
    duration_s: float | None = None
    volunteered: bool = False
    """The reply made this point in full without being asked about it (the follow-up was
    about another point): it earns the same prompted credit."""


@dataclass(frozen=True)
class AnswerScore:
    question_id: str
    score: int
    """0..100, deterministic for the same rubric and answer."""
    verdict: str
    """One line for the candidate."""
    key_points: tuple[KeyPointResult, ...]
    numeric: NumericResult | None
    misconceptions: tuple[MisconceptionResult, ...]
    delivery: DeliveryMetrics | None
    answer: str
    rubric_version: int = 1
    embedding_model: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)
    """Caveats worth showing (e.g. "answer truncated to 2,000 words")."""
    follow_ups: tuple[FollowUpResult, ...] = ()
    """Follow-up turns (mock interview and practice): ``score`` includes their credit."""

    failed: str | None = None
    """Why the answer could not be scored (the attempt is kept; a rescore replaces this)."""

    answers_other: str | None = None
    """The question of the deck this answer answers instead (its text): no key point of
    this one was credited, and the verdict says so first."""

    @property
    def prompted_points(self) -> frozenset[str]:
        """The ids of the key points the answer missed or only partly made and a
        follow-up reply then made in full."""
        return frozenset(f.key_point_id for f in self.follow_ups if f.status == "covered")

    @property
    def unprompted_score(self) -> int:
        """The score the first answer earned on its own, before any follow-up credit."""
        return max(0, round(self.score - sum(f.credit for f in self.follow_ups)))

    @classmethod
    def not_scored(
        cls, question_id: str, answer: str, reason: str, rubric_version: int = 1
    ) -> AnswerScore:
        """The placeholder saved with an answer whose scoring failed."""
        return cls(
            question_id=question_id,
            score=0,
            verdict=f"Not scored: {reason}",
            key_points=(),
            numeric=None,
            misconceptions=(),
            delivery=None,
            answer=answer,
            rubric_version=rubric_version,
            notes=(f"scoring failed: {reason}",),
            failed=reason,
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> AnswerScore:
        def span(v: list[int] | tuple[int, int] | None) -> tuple[int, ...] | None:
            # JSON turns tuples into lists
            return tuple(v) if v is not None else None

        kps = tuple(
            KeyPointResult(**{**k, "evidence_span": span(k.get("evidence_span"))})
            for k in d.get("key_points", ())
        )
        mis = tuple(
            MisconceptionResult(**{**m, "evidence_span": span(m.get("evidence_span"))})
            for m in d.get("misconceptions", ())
        )
        num = NumericResult(**d["numeric"]) if d.get("numeric") else None
        dl = d.get("delivery")
        delivery = None
        if dl:
            delivery = DeliveryMetrics(
                **{**dl, "long_pauses": tuple(Pause(**p) for p in dl.get("long_pauses", ()))}
            )
        return cls(
            question_id=d["question_id"],
            score=int(d["score"]),
            verdict=d["verdict"],
            key_points=kps,
            numeric=num,
            misconceptions=mis,
            delivery=delivery,
            answer=d.get("answer", ""),
            rubric_version=int(d.get("rubric_version", 1)),
            embedding_model=d.get("embedding_model", ""),
            notes=tuple(d.get("notes", ())),
            follow_ups=tuple(FollowUpResult(**f) for f in d.get("follow_ups", ())),
            failed=d.get("failed"),
            answers_other=d.get("answers_other"),
        )
