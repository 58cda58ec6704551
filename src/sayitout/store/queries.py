"""Reading many attempts at once: listings, counts, statistics, sessions.

Every function takes the :class:`~sayitout.store.filters.AttemptFilter` that says
which attempts it covers.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from sayitout.errors import UsageError
from sayitout.store.attempts import SUMMARY_COLUMNS, summary_of
from sayitout.store.db import Database
from sayitout.store.filters import AttemptFilter, SqlValue
from sayitout.store.recordings import RecordingPaths
from sayitout.store.records import AttemptSummary, KeyPointMiss, QuestionStats, SessionRecord
from sayitout.store.session_score import SESSION_SCORE_SQL
from sayitout.store.timefmt import from_db, to_db


# ----------------------------------------------------------------------- attempts
def attempts(
    db: Database,
    paths: RecordingPaths,
    where: AttemptFilter,
    *,
    limit: int | None,
    offset: int,
    oldest_first: bool,
) -> list[AttemptSummary]:
    clause, params = where.where()
    order = "ASC" if oldest_first else "DESC"
    sql = f"SELECT {SUMMARY_COLUMNS} FROM attempts {clause} ORDER BY created_at {order}, id {order}"
    if limit is not None or offset:
        sql += " LIMIT ? OFFSET ?"
        params += [-1 if limit is None else int(limit), int(offset)]
    return [summary_of(r, paths) for r in db.read("read the history", sql, params)]


def count_attempts(db: Database, where: AttemptFilter) -> int:
    clause, params = where.where()
    return _int(db.scalar("count attempts", f"SELECT COUNT(*) FROM attempts {clause}", params))


def last_attempt_id(db: Database, question_id: str) -> int | None:
    value = db.scalar(
        "read the last attempt",
        "SELECT id FROM attempts WHERE question_id = ? ORDER BY created_at DESC, id DESC LIMIT 1",
        (question_id,),
    )
    return None if value is None else _int(value)


def previous_attempts(
    db: Database, paths: RecordingPaths, summary: AttemptSummary
) -> list[AttemptSummary]:
    """Attempts at the same question made before ``summary``, newest first."""
    when = to_db(summary.created_at)
    rows = db.read(
        "read earlier attempts",
        f"SELECT {SUMMARY_COLUMNS} FROM attempts WHERE question_id = ? AND "
        "(created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC",
        (summary.question_id, when, when, summary.id),
    )
    return [summary_of(r, paths) for r in rows]


def question_stats(db: Database, where: AttemptFilter) -> dict[str, QuestionStats]:
    """Per question: attempts, last / best / mean score, first and last time."""
    clause, params = where.where("a")
    rows = db.read(
        "read question statistics",
        "SELECT question_id, COUNT(*) AS n, MAX(score) AS best, AVG(score) AS mean, "
        "MIN(created_at) AS first_at, MAX(created_at) AS last_at, "
        "(SELECT b.score FROM attempts b WHERE b.question_id = a.question_id "
        " ORDER BY b.created_at DESC, b.id DESC LIMIT 1) AS last_score, "
        "(SELECT b.id FROM attempts b WHERE b.question_id = a.question_id "
        " ORDER BY b.created_at DESC, b.id DESC LIMIT 1) AS last_id "
        f"FROM attempts a {clause} GROUP BY question_id",
        params,
    )
    return {
        r["question_id"]: QuestionStats(
            question_id=r["question_id"],
            attempts=int(r["n"]),
            best_score=int(r["best"]),
            mean_score=float(r["mean"]),
            first_at=from_db(r["first_at"]),
            last_at=from_db(r["last_at"]),
            last_score=int(r["last_score"]),
            last_attempt_id=int(r["last_id"]),
        )
        for r in rows
    }


def score_timeline(db: Database) -> list[tuple[str, datetime, int]]:
    """``(question_id, created_at, score)`` for every attempt, oldest first (for FSRS)."""
    rows = db.read(
        "read the history",
        "SELECT question_id, created_at, score FROM attempts ORDER BY created_at, id",
    )
    return [(r["question_id"], from_db(r["created_at"]), int(r["score"])) for r in rows]


def key_point_rows(db: Database, attempt_id: int) -> list[sqlite3.Row]:
    return db.read(
        "read key points",
        "SELECT key_point_id, text, status FROM attempt_key_points WHERE attempt_id = ?",
        (attempt_id,),
    )


def key_point_misses(db: Database, where: AttemptFilter, limit: int) -> list[KeyPointMiss]:
    """Key points missed most often (count of ``missed`` status), most missed first."""
    clause, params = where.where("a")
    rows = db.read(
        "read missed key points",
        "SELECT a.question_id, k.key_point_id, MAX(k.text) AS text, "
        "SUM(k.status = 'missed') AS missed, COUNT(*) AS seen FROM attempt_key_points k "
        f"JOIN attempts a ON a.id = k.attempt_id {clause} "
        "GROUP BY a.question_id, k.key_point_id HAVING SUM(k.status = 'missed') > 0 "
        "ORDER BY 4 DESC, 4.0 / COUNT(*) DESC, a.question_id, k.key_point_id LIMIT ?",
        [*params, int(limit)],
    )
    return [
        KeyPointMiss(
            question_id=r["question_id"],
            key_point_id=r["key_point_id"],
            text=r["text"],
            missed=int(r["missed"]),
            seen=int(r["seen"]),
        )
        for r in rows
    ]


def key_point_statuses(db: Database, where: AttemptFilter) -> dict[int, list[tuple[str, str]]]:
    """``attempt id -> [(key point id, status)]`` for every attempt matching ``where``."""
    clause, params = where.where("a")
    rows = db.read(
        "read key points",
        "SELECT k.attempt_id, k.key_point_id, k.status FROM attempt_key_points k "
        f"JOIN attempts a ON a.id = k.attempt_id {clause}",
        params,
    )
    out: dict[int, list[tuple[str, str]]] = {}
    for r in rows:
        out.setdefault(r["attempt_id"], []).append((r["key_point_id"], r["status"]))
    return out


def answer_texts(db: Database, where: AttemptFilter) -> dict[int, str]:
    """``attempt id -> answer text`` (the correction if any, else what was heard)."""
    clause, params = where.where()
    rows = db.read(
        "read answers",
        f"SELECT id, COALESCE(transcript_corrected, answer_text) AS text FROM attempts {clause}",
        params,
    )
    return {r["id"]: r["text"] or "" for r in rows}


def recording_paths(db: Database) -> list[str]:
    rows = db.read(
        "read recording paths",
        "SELECT recording_path FROM attempts WHERE recording_path IS NOT NULL "
        "UNION ALL SELECT json_extract(f.value, '$.recording') FROM attempts a, "
        "json_each(a.score_json, '$.follow_ups') f "
        "WHERE json_extract(f.value, '$.recording') IS NOT NULL",
    )  # a follow-up reply's recording (in its attempt's score) belongs to the attempt too
    return [r["recording_path"] for r in rows]


# ----------------------------------------------------------------------- sessions
def session(db: Database, session_id: int) -> SessionRecord:
    rows = _sessions(db, "WHERE s.id = ?", [session_id])
    if not rows:
        raise UsageError(f"No session with id {session_id}", "run 'sayitout history'")
    return rows[0]


def sessions(
    db: Database,
    *,
    deck: str | None,
    since: datetime | None,
    limit: int | None,
    offset: int,
    include_cli: bool,
) -> list[SessionRecord]:
    """Sessions newest first, with their attempt counts and session scores.

    Attempts made from the command line have no session; with ``include_cli`` they
    appear as one pseudo-session with ``id=None``, placed by its latest attempt.
    """
    where: list[str] = []
    params: list[SqlValue] = []
    if deck:
        where.append("s.deck = ?")
        params.append(deck)
    if since:
        where.append("s.started_at >= ?")
        params.append(to_db(since))
    out = _sessions(db, ("WHERE " + " AND ".join(where)) if where else "", params)
    if include_cli:
        cli = _cli_pseudo_session(db, deck, since)
        if cli is not None:
            out.append(cli)
            out.sort(key=lambda s: s.started_at, reverse=True)
    end = None if limit is None else offset + limit
    return out[offset:end]


def _sessions(db: Database, clause: str, params: list[SqlValue]) -> list[SessionRecord]:
    rows = db.read(
        "read the sessions",
        "SELECT s.id, s.deck, s.started_at, s.finished_at, s.settings, "
        "COALESCE(b.n, 0) AS n, b.session_score FROM sessions s "
        f"LEFT JOIN ({SESSION_SCORE_SQL}) b ON b.session_id = s.id "
        f"{clause} ORDER BY s.started_at DESC, s.id DESC",
        params,
    )
    return [
        SessionRecord(
            id=r["id"],
            deck=r["deck"],
            started_at=from_db(r["started_at"]),
            finished_at=from_db(r["finished_at"]) if r["finished_at"] else None,
            settings=_settings(r["settings"]),
            attempt_count=int(r["n"]),
            session_score=None if r["session_score"] is None else float(r["session_score"]),
        )
        for r in rows
    ]


def _cli_pseudo_session(
    db: Database, deck: str | None, since: datetime | None
) -> SessionRecord | None:
    clause, params = AttemptFilter(deck=deck, since=since, cli_only=True).where()
    row = db.read(
        "read the history",
        "SELECT SUM(n) AS n, AVG(best) AS session_score, MAX(last_at) AS last_at FROM "
        "(SELECT COUNT(*) AS n, MAX(score) AS best, MAX(created_at) AS last_at "
        f" FROM attempts {clause} GROUP BY question_id)",
        params,
    )[0]
    if not row["n"]:
        return None
    last = from_db(row["last_at"])
    return SessionRecord(
        id=None,
        deck=deck or "",
        started_at=last,
        finished_at=last,
        settings={"source": "command line"},
        attempt_count=int(row["n"]),
        session_score=float(row["session_score"]),
    )


def _settings(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _int(value: object) -> int:
    return int(str(value))
