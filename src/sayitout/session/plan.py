"""What a session will ask: the deck, how many questions, which topics, in what order."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from sayitout.errors import UsageError

if TYPE_CHECKING:
    from sayitout.bank.loader import Bank
    from sayitout.bank.models import Question
    from sayitout.store import Store

Order = Literal["due", "random", "in-order"]
ORDERS: tuple[Order, ...] = ("due", "random", "in-order")


@dataclass(frozen=True)
class SessionPlan:
    deck: str | None = None
    """The deck to draw from; None means every deck."""
    count: int = 5
    topics: tuple[str, ...] = ()
    """Only questions tagged with one of these topics (empty: all)."""
    order: Order = "due"
    answer_limit_s: float | None = None
    """None: each question's suggested time."""
    thinking_s: float = 0.0
    question_ids: tuple[str, ...] = field(default=())
    """Ask exactly these questions (overrides deck, topics and order)."""
    seed: int | None = None
    """Seed for ``random`` order (tests)."""
    follow_ups: int = 0
    """Follow-up questions on missed key points, per question (0-2). Front ends pass the
    ``practice.follow_ups`` setting; a plan built without it asks none."""

    def __post_init__(self) -> None:
        if self.count < 1:
            raise UsageError(f"--count must be at least 1, not {self.count}")
        if self.order not in ORDERS:
            raise UsageError(f"unknown order {self.order!r}", f"use one of: {', '.join(ORDERS)}")
        if self.answer_limit_s is not None and self.answer_limit_s < 5:
            raise UsageError("the answer time limit must be at least 5 seconds")
        if self.thinking_s < 0:
            raise UsageError("thinking time cannot be negative")
        if not 0 <= self.follow_ups <= 2:
            raise UsageError(f"follow-ups per question must be 0, 1 or 2, not {self.follow_ups}")

    def limit_for(self, question: Question, max_answer_s: float) -> float:
        limit = self.answer_limit_s or float(question.answer_seconds)
        return float(min(limit, max_answer_s))


def pick_questions(
    bank: Bank, plan: SessionPlan, store: Store | None = None, now: datetime | None = None
) -> list[Question]:
    """Choose the session's questions from ``bank`` following ``plan``.

    ``due`` order uses the spaced-repetition schedule when a store is there
    (questions never attempted count as new and come after overdue ones);
    without a store it falls back to bank order.
    """
    if plan.question_ids:
        return [bank.question(qid) for qid in plan.question_ids][: plan.count]
    if plan.deck is not None and plan.deck not in bank.decks:
        known = ", ".join(sorted(bank.decks)) or "none"
        raise UsageError(f"no deck called {plan.deck!r}", f"decks available: {known}")
    pool: Sequence[Question] = bank.questions(deck=plan.deck, topics=list(plan.topics) or None)
    if not pool:
        topics = ", ".join(plan.topics)
        raise UsageError(
            f"no questions match the topics {topics!r}" if topics else "the deck has no questions",
            "run `sayitout bank topics` to list the topics, or leave --topic out",
        )
    chosen = list(pool)
    if plan.order == "random":
        random.Random(plan.seed).shuffle(chosen)
    elif plan.order == "due" and store is not None:
        chosen = _due_order(store, chosen, now or datetime.now(UTC))
    return chosen[: plan.count]


def _due_order(store: Store, questions: list[Question], now: datetime) -> list[Question]:
    from sayitout.schedule import due_questions

    result = due_questions(store, questions, now)
    seen = {q.id for q in result}
    return result + [q for q in questions if q.id not in seen]
