"""One flat row per attempt: the shape of ``history --json`` and of CSV/JSON exports."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sayitout.store import AttemptFilter, AttemptSummary, Store

COLUMNS = (
    "attempt_id", "created_at", "session_id", "deck", "question_id", "question", "topics",
    "score", "coverage", "words_per_minute", "fillers_per_minute", "duration_s", "ended_by",
    "key_points_covered", "key_points_partial", "key_points_missed", "corrected", "answer",
    "rubric_version", "asr_model", "embedding_model", "recording_path", "recording_exists",
)  # fmt: skip


Filters = AttemptFilter
"""What a history listing or a report covers (the store's one filter type)."""


QuestionInfo = Callable[[str], tuple[str, Sequence[str]]]
"""``question id -> (question text, topics)``; ``("", ())`` when unknown."""


def no_info(_: str) -> tuple[str, Sequence[str]]:
    return "", ()


def bank_info(bank: object | None) -> QuestionInfo:
    """Question text and topics from a loaded bank (questions no longer in it give blanks)."""
    if bank is None:
        return no_info
    cache: dict[str, tuple[str, Sequence[str]]] = {}

    def info(qid: str) -> tuple[str, Sequence[str]]:
        if qid not in cache:
            try:
                q = bank.question(qid)  # type: ignore[attr-defined]
                cache[qid] = (q.text, tuple(q.topics))
            except Exception:
                cache[qid] = ("", ())
        return cache[qid]

    return info


def attempt_rows(
    store: Store,
    filters: Filters,
    info: QuestionInfo = no_info,
    *,
    limit: int | None = None,
    oldest_first: bool = True,
    with_answers: bool = True,
) -> list[dict[str, Any]]:
    """Rows for every attempt matching ``filters`` (``COLUMNS`` order, JSON-ready values)."""
    summaries = store.attempts(filters, limit=limit, oldest_first=oldest_first)
    statuses = store.key_point_statuses(filters)
    answers = store.answer_texts(filters) if with_answers else {}
    return [row_of(s, statuses.get(s.id, []), answers.get(s.id), info) for s in summaries]


def row_of(
    s: AttemptSummary,
    statuses: Sequence[tuple[str, str]],
    answer: str | None,
    info: QuestionInfo = no_info,
) -> dict[str, Any]:
    text, topics = info(s.question_id)
    by = {"covered": [], "partial": [], "missed": []}  # type: dict[str, list[str]]
    for kp, status in statuses:
        by.setdefault(status, []).append(kp)
    return {
        "attempt_id": s.id,
        "created_at": s.created_at.isoformat(timespec="seconds"),
        "session_id": s.session_id,
        "deck": s.deck,
        "question_id": s.question_id,
        "question": text,
        "topics": list(topics),
        "score": s.score,
        "coverage": s.coverage,
        "words_per_minute": None if s.wpm is None else round(s.wpm, 1),
        "fillers_per_minute": None if s.fillers_per_min is None else round(s.fillers_per_min, 2),
        "duration_s": None if s.duration_s is None else round(s.duration_s, 1),
        "ended_by": s.ended_by,
        "key_points_covered": sorted(by["covered"]),
        "key_points_partial": sorted(by["partial"]),
        "key_points_missed": sorted(by["missed"]),
        "corrected": s.corrected,
        "answer": answer,
        "rubric_version": s.rubric_version,
        "asr_model": s.asr_model,
        "embedding_model": s.embedding_model,
        "recording_path": str(s.recording_path) if s.recording_path else None,
        "recording_exists": bool(s.recording_path and s.recording_path.is_file()),
    }
