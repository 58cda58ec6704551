"""The end-of-session summary: scores, the key points most often missed, delivery."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import mean
from typing import TYPE_CHECKING

from sayitout.store.session_score import session_score

if TYPE_CHECKING:
    from sayitout.bank.models import Question
    from sayitout.session.events import Attempted


@dataclass(frozen=True)
class QuestionOutcome:
    question_id: str
    text: str
    score: int | None
    """The last attempt's score; None when the question was skipped."""
    attempts: int
    best: int | None
    verdict: str = ""


@dataclass(frozen=True)
class MissedPoint:
    question_id: str
    text: str
    times: int
    reversed_times: int = 0
    """How many of ``times`` said the point the other way round (it cost the score)."""


@dataclass(frozen=True)
class DeliveryAverages:
    words_per_minute: float | None
    fillers_per_minute: float | None
    long_pauses: float | None
    """Average number of long pauses per spoken answer."""
    time_to_first_word_s: float | None
    spoken_answers: int


@dataclass(frozen=True)
class SessionSummary:
    session_id: int | None
    deck: str
    outcomes: tuple[QuestionOutcome, ...]
    most_missed: tuple[MissedPoint, ...]
    delivery: DeliveryAverages
    mean_score: float | None
    """The session score: the mean of each answered question's best attempt
    (:func:`sayitout.store.session_score`, the figure Home, History and reports show)."""
    previous_mean: float | None = None
    """The previous session's session score, when there is one."""
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def answered(self) -> int:
        return sum(1 for o in self.outcomes if o.score is not None)

    @property
    def change(self) -> float | None:
        if self.mean_score is None or self.previous_mean is None:
            return None
        return self.mean_score - self.previous_mean


def _avg(values: Sequence[float]) -> float | None:
    return round(mean(values), 2) if values else None


def summarise(
    session_id: int | None,
    deck: str,
    questions: Sequence[Question],
    attempts: Sequence[Attempted],
    previous_mean: float | None = None,
    asked: int | None = None,
) -> SessionSummary:
    """Build the summary from the attempts made, in question order.

    ``asked`` is how many of ``questions`` were reached (the rest are left out when
    the session was quit early).
    """
    by_q: dict[str, list[Attempted]] = {}
    for a in attempts:
        by_q.setdefault(a.question.id, []).append(a)
    outcomes = []
    for q in list(questions)[: asked if asked is not None else len(questions)]:
        tries = by_q.get(q.id, [])
        last = tries[-1].score if tries else None
        outcomes.append(
            QuestionOutcome(
                question_id=q.id,
                text=q.text,
                score=last.score if last else None,
                attempts=len(tries),
                best=max(t.score.score for t in tries) if tries else None,
                verdict=last.verdict if last else "skipped",
            )
        )
    missed: Counter[tuple[str, str]] = Counter()
    turned: Counter[tuple[str, str]] = Counter()
    for a in attempts:
        for kp in a.score.key_points:
            if kp.status == "missed":
                missed[(a.question.id, kp.text)] += 1
                if kp.penalty > 0:
                    turned[(a.question.id, kp.text)] += 1
    most_missed = tuple(
        MissedPoint(qid, text, n, turned[(qid, text)])
        for (qid, text), n in sorted(
            missed.items(), key=lambda item: (-item[1], -turned[item[0]], item[0])
        )[:5]
    )
    spoken = [a.score.delivery for a in attempts if a.score.delivery is not None]
    delivery = DeliveryAverages(
        words_per_minute=_avg([d.words_per_minute for d in spoken if d.words]),
        fillers_per_minute=_avg([d.fillers_per_minute for d in spoken if d.words]),
        long_pauses=_avg([float(len(d.long_pauses)) for d in spoken]),
        time_to_first_word_s=_avg(
            [d.time_to_first_word_s for d in spoken if d.time_to_first_word_s is not None]
        ),
        spoken_answers=len(spoken),
    )
    best = session_score((a.question.id, a.score.score) for a in attempts)
    return SessionSummary(
        session_id=session_id,
        deck=deck,
        outcomes=tuple(outcomes),
        most_missed=most_missed,
        delivery=delivery,
        mean_score=None if best is None else round(best, 2),
        previous_mean=previous_mean,
    )
