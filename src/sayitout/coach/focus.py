"""Next-session focus: one to three concrete drills from the ledger and the review schedule.

Each drill is a short list of question ids that starts a session on its own ("Three
questions where your final number was wrong"). Content mistakes come first (a stated
misconception, a key point said the other way round, a key point left out again and
again, a wrong number, a pass), then delivery habits, then the questions FSRS says are
due; two drills never ask the same questions.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from sayitout.coach.ledger import Ledger, LedgerEntry, _n, build_ledger

if TYPE_CHECKING:
    from sayitout.bank.loader import Bank
    from sayitout.store import Store

MAX_DRILLS = 3
MAX_QUESTIONS = 5
"""Questions in one drill: a short, focused session."""


@dataclass(frozen=True)
class Drill:
    title: str
    """What to practise, in one line ("Three questions where you skipped a key point")."""
    reason: str
    """Why: the evidence from the ledger or the schedule."""
    question_ids: tuple[str, ...]
    source: str
    """The ledger entry kind it came from, or ``due``."""


def next_focus(
    ledger: Ledger,
    due: Sequence[str] = (),
    *,
    known: Container[str] | None = None,
    max_drills: int = MAX_DRILLS,
    max_questions: int = MAX_QUESTIONS,
) -> list[Drill]:
    """Up to ``max_drills`` drills. ``due``: question ids due for review, most overdue first;
    ``known``: the question ids that can still be asked (others are dropped)."""

    def usable(ids: Sequence[str]) -> tuple[str, ...]:
        return tuple(q for q in dict.fromkeys(ids) if known is None or q in known)[:max_questions]

    candidates: list[tuple[int, Drill]] = []

    def add(
        rank: int, entries: Sequence[LedgerEntry], title: Callable[[int], str], reason: str
    ) -> None:
        ids = usable([q for e in entries for q in e.question_ids])
        if ids:
            candidates.append((rank, Drill(title(len(ids)), reason, ids, entries[0].kind)))

    # a stated misconception ("Stop saying ..."), then a point said the other way round
    for kind, said, instead, many in (
        ("misconception", "You said", "Stop saying", "where you repeat a misconception"),
        (
            "reversed_point",
            "You say it the other way round",
            "Say it the right way round",
            "where you say a point the other way round",
        ),
    ):
        entries = ledger.of_kind(kind)
        if entries:
            titled = partial(_turned_title, entries[0], said, instead, many)
            add(0, entries, titled, entries[0].detail)
    missed = ledger.of_kind("missed_point")
    if missed:
        times = sum(e.count for e in missed)
        add(
            1,
            missed,
            lambda n: f"{_cap(_n(n, 'question'))} where you keep leaving out a key point",
            f"{_short(missed[0].title)} (and {times - missed[0].count} more misses)"
            if len(missed) > 1
            else f"{missed[0].title} ({missed[0].count} times)",
        )
    for kind, rank, title in (
        ("wrong_number", 2, "{} where your final number was wrong"),
        ("passed", 3, "{} you passed on"),
    ):
        entries = ledger.of_kind(kind)
        if entries:
            add(rank, entries, partial(_count_title, title), entries[0].detail)
    for entry in ledger.delivery:
        add(4, [entry], partial(_delivery_title, entry), entry.detail)
    if due:
        ids = usable(due)
        if ids:
            candidates.append(
                (
                    5,
                    Drill(
                        f"{_cap(_n(len(ids), 'question'))} due for review",
                        "spaced repetition: these are the ones you are about to forget",
                        ids,
                        "due",
                    ),
                )
            )
    drills: list[Drill] = []
    seen: set[frozenset[str]] = set()
    for _, drill in sorted(candidates, key=lambda c: c[0]):
        if frozenset(drill.question_ids) in seen:
            continue
        seen.add(frozenset(drill.question_ids))
        drills.append(drill)
        if len(drills) == max_drills:
            break
    return drills


def focus_for(
    store: Store, bank: Bank, *, deck: str | None = None, now: datetime | None = None
) -> tuple[Ledger, list[Drill]]:
    """The ledger and the drills for ``deck`` (or every deck), from the store and the bank."""
    from sayitout.schedule import schedule

    ledger = build_ledger(store, deck=deck)
    questions = bank.questions(deck=deck)
    due = [e.question_id for e in schedule(store, questions, now) if e.status == "due"]
    return ledger, next_focus(ledger, due, known={q.id for q in questions})


def _turned_title(first: LedgerEntry, said: str, instead: str, many: str, n: int) -> str:
    """The drill title for one question ("You said X" -> "Stop saying X"), else how many
    questions repeat the mistake."""
    if n == 1:
        return first.title.replace(said, instead, 1)
    return f"{_cap(_n(n, 'question'))} {many}"


def _count_title(template: str, n: int) -> str:
    return template.format(_cap(_n(n, "question")))


def _delivery_title(entry: LedgerEntry, n: int) -> str:
    questions = _n(n, "question")
    return {
        "fillers": f"Say it without fillers: {questions}",
        "pace_fast": f"Slow down: {questions} at an even pace",
        "pace_slow": f"Pick up the pace: {questions}",
        "slow_start": f"Start talking sooner: {questions}",
        "long_answers": f"Answer in under two minutes: {questions}",
    }.get(entry.kind, f"{entry.title}: {questions}")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
