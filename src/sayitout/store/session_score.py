"""The session score: one definition for the summary, Home, History and the reports.

A session's score is the mean, over the questions answered in it, of each question's
best attempt. Retrying a question can only raise it, and a question answered five
times weighs no more than one answered once.
"""

from __future__ import annotations

from collections.abc import Iterable

SESSION_SCORE_LABEL = "Session score"
SESSION_SCORE_MEANING = "the mean of each question's best attempt in the session"

SESSION_SCORE_SQL = (
    "SELECT session_id, SUM(n) AS n, AVG(best) AS session_score FROM "
    "(SELECT session_id, question_id, COUNT(*) AS n, MAX(score) AS best FROM attempts "
    " WHERE session_id IS NOT NULL GROUP BY session_id, question_id) GROUP BY session_id"
)
"""The same definition in SQL: ``session_id, n`` (attempts) ``, session_score`` for every
session; one pass over the ``attempts_session_best`` index."""


def session_score(attempts: Iterable[tuple[str, float]]) -> float | None:
    """The session score of ``(question id, score)`` pairs; ``None`` with no attempt."""
    best: dict[str, float] = {}
    for question_id, score in attempts:
        if question_id not in best or score > best[question_id]:
            best[question_id] = score
    if not best:
        return None
    return sum(best.values()) / len(best)
