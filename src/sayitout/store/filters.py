"""Which attempts a listing, a count, a report or a rescore covers: one frozen type."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime

from sayitout.store.timefmt import to_db

SqlValue = str | int | float | None
"""A value bound to a ``?`` placeholder."""


@dataclass(frozen=True)
class AttemptFilter:
    """Attempts matching every field that is set; the default matches every attempt."""

    deck: str | None = None
    question_id: str | None = None
    question_ids: tuple[str, ...] | None = field(default=None)
    """Only these questions: how a topic filter is applied (the bank knows which
    questions carry a topic). An empty tuple matches nothing."""
    session_id: int | None = None
    cli_only: bool = False
    """Only the attempts made from the command line (no session)."""
    min_score: int | None = None
    max_score: int | None = None
    since: datetime | None = None
    until: datetime | None = None
    """Before this moment (exclusive)."""

    def __post_init__(self) -> None:
        # Callers often have a list or a generator of ids; keep the filter hashable.
        if self.question_ids is not None and not isinstance(self.question_ids, tuple):
            object.__setattr__(self, "question_ids", tuple(self.question_ids))

    def with_questions(self, ids: Iterable[str] | None) -> AttemptFilter:
        return replace(self, question_ids=None if ids is None else tuple(ids))

    def question_scope(self) -> tuple[str, ...] | None:
        """The questions this filter allows, or ``None`` for any."""
        if self.question_id:
            return (self.question_id,)
        return self.question_ids

    def where(self, table: str = "") -> tuple[str, list[SqlValue]]:
        """``WHERE ...`` (or ``""``) and its parameters; ``table`` qualifies the columns."""
        t = f"{table}." if table else ""
        where: list[str] = []
        params: list[SqlValue] = []
        if self.deck:
            where.append(f"{t}deck = ?")
            params.append(self.deck)
        if self.question_id:
            where.append(f"{t}question_id = ?")
            params.append(self.question_id)
        if self.question_ids is not None:
            if not self.question_ids:
                where.append("0")
            else:
                where.append(f"{t}question_id IN (SELECT value FROM json_each(?))")
                params.append(json.dumps(list(self.question_ids)))
        if self.session_id is not None:
            where.append(f"{t}session_id = ?")
            params.append(self.session_id)
        if self.cli_only:
            where.append(f"{t}session_id IS NULL")
        if self.min_score is not None:
            where.append(f"{t}score >= ?")
            params.append(int(self.min_score))
        if self.max_score is not None:
            where.append(f"{t}score <= ?")
            params.append(int(self.max_score))
        if self.since is not None:
            where.append(f"{t}created_at >= ?")
            params.append(to_db(self.since))
        if self.until is not None:
            where.append(f"{t}created_at < ?")
            params.append(to_db(self.until))
        return ("WHERE " + " AND ".join(where)) if where else "", params


EVERY_ATTEMPT = AttemptFilter()
