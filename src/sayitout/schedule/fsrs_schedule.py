"""Spaced repetition with FSRS (the ``fsrs`` library, v6), one card per question.

Rating mapping (score 0..100 -> FSRS rating):

==========  =======  ====================================================================
score       rating   why
==========  =======  ====================================================================
0-39        Again    most key points missed: the answer was not recalled; relearn soon
40-64       Hard     the gist is there but important points are missing: a pass, short gap
65-84       Good     most key points covered: a normal pass
85-100      Easy     near-complete answer: push the next review further out
==========  =======  ====================================================================

FSRS counts Hard as a successful recall, so a half-right answer grows the interval a
little instead of resetting it; only an answer that misses most of the rubric is a lapse.

Card state is rebuilt by replaying every attempt's *current* score in time order, not
stored: a rescore (after a rubric change or a transcript correction) changes the schedule
consistently, and there is no second copy of the truth to drift. Replaying 10,000
attempts takes well under a second. Fuzzing is off so the order is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, TypeVar

from fsrs import Card, Rating, Scheduler, State

from sayitout.store import AttemptFilter, DerivedKey, Store

RATING_BANDS: tuple[tuple[int, Rating], ...] = (
    (85, Rating.Easy),
    (65, Rating.Good),
    (40, Rating.Hard),
    (0, Rating.Again),
)
"""``(lowest score, rating)``, highest band first."""

Status = Literal["due", "new", "later"]
Q = TypeVar("Q")


def rating_for(score: float) -> Rating:
    """The FSRS rating an answer's score (0..100) counts as."""
    for lowest, rating in RATING_BANDS:
        if score >= lowest:
            return rating
    return Rating.Again


def _scheduler() -> Scheduler:
    return Scheduler(enable_fuzzing=False)


def build_cards(timeline: Iterable[tuple[str, datetime, int]]) -> dict[str, Card]:
    """Replay ``(question_id, when, score)`` reviews (oldest first) into one card per question."""
    scheduler = _scheduler()
    cards: dict[str, Card] = {}
    for qid, when, score in timeline:
        card = cards.get(qid)
        if card is None:
            card = Card()
        if card.last_review is not None and when < card.last_review:
            when = card.last_review  # clock moved backwards: keep the replay monotonic
        cards[qid], _ = scheduler.review_card(card, rating_for(score), when.astimezone(UTC))
    return cards


FSRS_CARDS: DerivedKey[dict[str, Card]] = DerivedKey("fsrs cards")
"""The cards of every attempted question, kept by the store until its data changes."""


def all_cards(store: Store) -> dict[str, Card]:
    """Cards of every attempted question, replayed once and kept until the data changes
    (a save, a rescore, or a commit by another sayitout process)."""
    return store.derived(FSRS_CARDS, lambda: build_cards(store.score_timeline()))


@dataclass(frozen=True)
class ScheduleEntry:
    question_id: str
    status: Status
    """``due`` (review now), ``new`` (never attempted) or ``later`` (not due yet)."""
    due: datetime | None
    """When the next review is due (``None`` for a new question)."""
    overdue_s: float
    """Seconds past due (negative: seconds until due; 0 for a new question)."""
    stability: float | None
    state: str
    """FSRS state: ``new``, ``learning``, ``review`` or ``relearning``."""


@dataclass(frozen=True)
class ScheduleCounts:
    due: int
    new: int
    learned: int
    """Attempted and not due yet."""

    @property
    def total(self) -> int:
        return self.due + self.new + self.learned


@dataclass(frozen=True)
class MissedPoint:
    id: str
    text: str
    status: str
    """``missed`` or ``partial``."""


def _ids(questions: Sequence[object]) -> list[str]:
    return [q if isinstance(q, str) else q.id for q in questions]  # type: ignore[attr-defined]


def schedule(
    store: Store, questions: Sequence[object], now: datetime | None = None
) -> list[ScheduleEntry]:
    """One entry per question (``Question`` objects or ids), in practice order:

    due first (most overdue first), then new questions (in the order given), then the
    rest (soonest due first).
    """
    now = (now or datetime.now(UTC)).astimezone(UTC)
    ids = _ids(questions)
    cards = all_cards(store)
    entries: list[ScheduleEntry] = []
    for qid in ids:
        card = cards.get(qid)
        if card is None:
            entries.append(ScheduleEntry(qid, "new", None, 0.0, None, "new"))
            continue
        overdue = (now - card.due).total_seconds()
        entries.append(
            ScheduleEntry(
                qid,
                "due" if overdue >= 0 else "later",
                card.due,
                overdue,
                card.stability,
                State(card.state).name.lower(),
            )
        )
    rank = {"due": 0, "new": 1, "later": 2}
    order = {qid: i for i, qid in enumerate(ids)}
    return sorted(
        entries,
        key=lambda e: (
            rank[e.status],
            -e.overdue_s if e.status != "new" else order[e.question_id],
        ),
    )


def due_questions(store: Store, questions: Sequence[Q], now: datetime | None = None) -> list[Q]:
    """``questions`` reordered for practice: due (most overdue first), new, then not yet due."""
    by_id = {qid: q for qid, q in zip(_ids(questions), questions, strict=True)}
    return [by_id[e.question_id] for e in schedule(store, questions, now)]


def counts(
    store: Store, questions: Sequence[object], now: datetime | None = None
) -> ScheduleCounts:
    """How many questions are due, new, and learned (attempted, not due): for the home screen."""
    entries = schedule(store, questions, now)
    return ScheduleCounts(
        due=sum(e.status == "due" for e in entries),
        new=sum(e.status == "new" for e in entries),
        learned=sum(e.status == "later" for e in entries),
    )


def missed_last_time(
    store: Store, question_id: str, *, include_partial: bool = False, before: int | None = None
) -> list[MissedPoint]:
    """Key points the last attempt at ``question_id`` missed (in rubric order).

    ``before``: look at the last attempt made before this attempt id (so a session can
    show, after the candidate answers, what they missed the time before).
    """
    if before is not None:
        earlier = store.previous_attempts(before)
        attempt_id = earlier[0].id if earlier else None
    else:
        last = store.attempts(AttemptFilter(question_id=question_id), limit=1)
        attempt_id = last[0].id if last else None
    if attempt_id is None:
        return []
    wanted = {"missed", "partial"} if include_partial else {"missed"}
    return [
        MissedPoint(kp_id, text, status)
        for kp_id, text, status in store.key_points(attempt_id)
        if status in wanted
    ]
