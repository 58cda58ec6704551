"""The report card at the end of a mock interview.

A grade from the session score (:mod:`sayitout.store.session_score`: the same figure
History, Home and the reports show for this session), each question's score with its
key points (and the follow-up turns),
delivery across the whole interview (pace, fillers, the longest monologue, time to the
first word), the top three things to fix, and how it compares with the previous mock
interview on the same deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from statistics import mean
from typing import TYPE_CHECKING

from sayitout.store.session_score import session_score

if TYPE_CHECKING:
    from sayitout.bank.models import Question
    from sayitout.scoring.result import FollowUpResult
    from sayitout.session.events import Attempted
    from sayitout.store import Store

GRADES: tuple[tuple[int, str], ...] = ((85, "A"), (70, "B"), (55, "C"), (40, "D"), (0, "F"))
"""``(lowest overall score, grade)``, best first."""
PACE_RANGE = (110.0, 180.0)
FILLERS_PER_MINUTE_HIGH = 6.0
SLOW_START_S = 4.0
LONG_MONOLOGUE_S = 120.0


def grade_for(overall: float) -> str:
    for lowest, grade in GRADES:
        if overall >= lowest:
            return grade
    return "F"


@dataclass(frozen=True)
class QuestionResult:
    index: int
    question_id: str
    text: str
    score: int | None
    """None when the question was reached but not answered."""
    unprompted: int | None
    """The score before follow-up credit."""
    passed: bool
    key_points: tuple[tuple[str, str], ...]
    """``(key point text, status)`` of the answer."""
    follow_ups: tuple[FollowUpResult, ...]
    attempt_id: int | None
    duration_s: float | None


@dataclass(frozen=True)
class InterviewDelivery:
    words_per_minute: float | None
    fillers_per_minute: float | None
    filler_count: int
    longest_monologue_s: float | None
    """The longest single spoken answer."""
    time_to_first_word_s: float | None
    """Average across spoken answers."""
    spoken_answers: int


@dataclass(frozen=True)
class PreviousInterview:
    session_id: int
    when: datetime
    overall: float
    grade: str


@dataclass(frozen=True)
class InterviewReport:
    session_id: int | None
    deck: str
    questions: tuple[QuestionResult, ...]
    """The questions reached, in order (answered, passed or left unanswered)."""
    planned: int
    overall: float
    """The session score (the mean of each answered question's best attempt; a pass
    counts 0), 0 with no answer. A question left unanswered has no attempt, so it is
    not in it, as in History: :attr:`unanswered` says how many, and the card says so."""
    grade: str
    delivery: InterviewDelivery
    fixes: tuple[str, ...]
    """The top three things to fix, most important first."""
    previous: PreviousInterview | None
    incomplete: bool
    """Ended before every planned question was asked (quit, or time ran out)."""
    time_up: bool = False
    elapsed_s: float | None = None

    @property
    def change(self) -> float | None:
        return None if self.previous is None else self.overall - self.previous.overall

    @property
    def answered(self) -> int:
        return sum(1 for q in self.questions if q.score is not None and not q.passed)

    @property
    def unanswered(self) -> int:
        """Questions reached but left without an answer or a pass (not in the score)."""
        return sum(1 for q in self.questions if q.score is None)


def build_report(
    session_id: int | None,
    deck: str,
    questions: Sequence[Question],
    attempts: Sequence[Attempted],
    *,
    reached: int,
    planned: int,
    incomplete: bool,
    previous: PreviousInterview | None = None,
    time_up: bool = False,
    elapsed_s: float | None = None,
) -> InterviewReport:
    last = {a.question.id: a for a in attempts}
    results = []
    for i, q in enumerate(list(questions)[:reached]):
        a = last.get(q.id)
        s = a.score if a else None
        passed = bool(a and a.extra.get("passed"))
        results.append(
            QuestionResult(
                index=i,
                question_id=q.id,
                text=q.text,
                score=s.score if s else None,
                unprompted=s.unprompted_score if s else None,
                passed=passed,
                key_points=tuple((k.text, k.status) for k in s.key_points) if s else (),
                follow_ups=s.follow_ups if s else (),
                attempt_id=a.attempt_id if a else None,
                duration_s=s.delivery.duration_s if s and s.delivery else None,
            )
        )
    reached_ids = {r.question_id for r in results}
    score = session_score(
        (a.question.id, a.score.score) for a in attempts if a.question.id in reached_ids
    )
    overall = 0.0 if score is None else round(score, 1)
    delivery = _delivery([a for a in attempts if a.question.id in {r.question_id for r in results}])
    return InterviewReport(
        session_id=session_id,
        deck=deck,
        questions=tuple(results),
        planned=planned,
        overall=overall,
        grade=grade_for(overall),
        delivery=delivery,
        fixes=tuple(_fixes(attempts, results, delivery)[:3]),
        previous=previous,
        incomplete=incomplete,
        time_up=time_up,
        elapsed_s=elapsed_s,
    )


def _delivery(attempts: Sequence[Attempted]) -> InterviewDelivery:
    spoken = [a.score.delivery for a in attempts if a.score.delivery and a.score.delivery.words]
    if not spoken:
        return InterviewDelivery(None, None, 0, None, None, 0)
    minutes = sum(d.words / d.words_per_minute for d in spoken if d.words_per_minute) or 0.0
    words = sum(d.words for d in spoken)
    fillers = sum(d.filler_count for d in spoken)
    firsts = [d.time_to_first_word_s for d in spoken if d.time_to_first_word_s is not None]
    return InterviewDelivery(
        words_per_minute=round(words / minutes, 1) if minutes else None,
        fillers_per_minute=round(fillers / minutes, 2) if minutes else None,
        filler_count=fillers,
        longest_monologue_s=round(max(d.duration_s for d in spoken), 1),
        time_to_first_word_s=round(mean(firsts), 2) if firsts else None,
        spoken_answers=len(spoken),
    )


def _fixes(
    attempts: Sequence[Attempted], results: Sequence[QuestionResult], d: InterviewDelivery
) -> list[str]:
    """Candidate fixes, most important first: stated misconceptions, passes, the heaviest
    key points missed even after a follow-up, wrong numbers, then delivery."""
    out: list[str] = []
    reached = {r.question_id for r in results}
    last = {a.question.id: a for a in attempts if a.question.id in reached}
    for a in last.values():
        for m in a.score.misconceptions:
            out.append(
                f'Drop the claim "{_short(m.evidence or m.text)}": {m.correction}'.rstrip(": ")
            )
    for r in results:
        if r.passed or r.score is None:
            out.append(f"Learn an answer to: {_short(r.text)}")
    missed: list[tuple[float, str]] = []
    for a in last.values():
        prompted = a.score.prompted_points
        for k in a.score.key_points:
            if k.status == "missed" and not a.extra.get("passed"):
                when = "only when asked" if k.id in prompted else "missing"
                missed.append(
                    (k.weight + (0 if k.id in prompted else 0.5), f"{_short(k.text)} ({when})")
                )
    out.extend(text for _, text in sorted(missed, key=lambda m: -m[0]))
    for a in last.values():
        n = a.score.numeric
        if n is not None and not n.correct:
            out.append(f"Check the final number: {n.reason}")
    if d.words_per_minute and d.words_per_minute > PACE_RANGE[1]:
        out.append(f"Slow down: {d.words_per_minute:.0f} words a minute (aim for 110-180)")
    if d.words_per_minute and d.words_per_minute < PACE_RANGE[0]:
        out.append(f"Pick up the pace: {d.words_per_minute:.0f} words a minute (aim for 110-180)")
    if d.fillers_per_minute and d.fillers_per_minute >= FILLERS_PER_MINUTE_HIGH:
        out.append(f"Cut the fillers: {d.fillers_per_minute:.1f} a minute; pause silently instead")
    if d.time_to_first_word_s and d.time_to_first_word_s >= SLOW_START_S:
        out.append(f"Start sooner: {d.time_to_first_word_s:.1f} s before your first word")
    if d.longest_monologue_s and d.longest_monologue_s > LONG_MONOLOGUE_S:
        out.append(f"Keep answers under two minutes (longest: {d.longest_monologue_s:.0f} s)")
    return list(dict.fromkeys(out))


def previous_interview(store: Store, deck: str, session_id: int | None) -> PreviousInterview | None:
    """The latest earlier mock interview on ``deck`` with answers, scored like this one."""
    try:
        sessions = store.sessions(deck=deck, include_cli=False)
    except Exception:  # the comparison is a nicety: never fail the report over it
        return None
    earlier = sorted(
        (
            (s.id, s)
            for s in sessions
            if s.kind == "interview"
            and s.id is not None
            and (session_id is None or s.id < session_id)
        ),
        key=lambda pair: pair[0],
        reverse=True,
    )
    for record_id, record in earlier:
        if record.session_score is None:  # no answer was kept
            continue
        overall = round(record.session_score, 1)  # what History shows for it
        return PreviousInterview(record_id, record.started_at, overall, grade_for(overall))
    return None


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split()).rstrip(".")
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
