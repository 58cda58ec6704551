"""Writing and reading single sessions and attempts, and their score history."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from sayitout.errors import UsageError
from sayitout.scoring.result import AnswerScore
from sayitout.speech.transcript import Transcript
from sayitout.store.db import Database
from sayitout.store.recordings import RecordingPaths
from sayitout.store.records import AttemptRecord, AttemptSummary, ScoreEntry
from sayitout.store.timefmt import from_db, now_utc, to_db

ScoreReason = Literal["initial", "rescore", "correction"]

SUMMARY_COLUMNS = (
    "id, session_id, question_id, deck, created_at, score, coverage, wpm, fillers_per_min, "
    "duration_s, ended_by, rubric_version, asr_model, embedding_model, recording_path, "
    "transcript_corrected IS NOT NULL AS corrected, scorer_version"
)
"""The columns :func:`summary_of` reads (no transcript or score JSON: cheap to list)."""


def coverage_of(score: AnswerScore) -> float | None:
    """Weighted share of the key points covered (a partial counts half), 0..1."""
    total = sum(kp.weight for kp in score.key_points)
    if total <= 0:
        return None
    got = sum(
        kp.weight * (1.0 if kp.status == "covered" else 0.5 if kp.status == "partial" else 0.0)
        for kp in score.key_points
    )
    return round(got / total, 4)


def summary_of(row: sqlite3.Row, paths: RecordingPaths) -> AttemptSummary:
    return AttemptSummary(
        id=row["id"],
        session_id=row["session_id"],
        question_id=row["question_id"],
        deck=row["deck"],
        created_at=from_db(row["created_at"]),
        score=int(row["score"]),
        coverage=row["coverage"],
        wpm=row["wpm"],
        fillers_per_min=row["fillers_per_min"],
        duration_s=row["duration_s"],
        ended_by=row["ended_by"],
        rubric_version=int(row["rubric_version"]),
        asr_model=row["asr_model"],
        embedding_model=row["embedding_model"],
        recording_path=paths.absolute(row["recording_path"]),
        corrected=bool(row["corrected"]),
        scorer_version=row["scorer_version"],
    )


def no_attempt(attempt_id: int) -> UsageError:
    return UsageError(
        f"No attempt with id {attempt_id}", "run 'sayitout history' to see attempt ids"
    )


# ----------------------------------------------------------------------- sessions
def start_session(
    db: Database, deck: str, settings: dict[str, Any] | None, started_at: datetime | None
) -> int:
    with db.write("start a session") as conn:
        cur = conn.execute(
            "INSERT INTO sessions (deck, started_at, settings) VALUES (?, ?, ?)",
            (deck, to_db(started_at or now_utc()), json.dumps(settings or {}, default=str)),
        )
        return int(cur.lastrowid or 0)


def finish_session(db: Database, session_id: int, finished_at: datetime | None) -> None:
    with db.write("finish the session") as conn:
        conn.execute(
            "UPDATE sessions SET finished_at = ? WHERE id = ? AND finished_at IS NULL",
            (to_db(finished_at or now_utc()), session_id),
        )


# ----------------------------------------------------------------------- attempts
def require_attempt(db: Database, paths: RecordingPaths, attempt_id: int) -> AttemptSummary:
    rows = db.read(
        "read the attempt", f"SELECT {SUMMARY_COLUMNS} FROM attempts WHERE id = ?", (attempt_id,)
    )
    if not rows:
        raise no_attempt(attempt_id)
    return summary_of(rows[0], paths)


def read_attempt(db: Database, paths: RecordingPaths, attempt_id: int) -> AttemptRecord:
    rows = db.read(
        "read the attempt",
        f"SELECT {SUMMARY_COLUMNS}, transcript_raw, transcript_corrected, score_json "
        "FROM attempts WHERE id = ?",
        (attempt_id,),
    )
    if not rows:
        raise no_attempt(attempt_id)
    row = rows[0]
    history = db.read(
        "read the score history",
        "SELECT created_at, reason, score, rubric_version, embedding_model, scorer_version "
        "FROM scores "
        "WHERE attempt_id = ? ORDER BY id",
        (attempt_id,),
    )
    return AttemptRecord(
        summary=summary_of(row, paths),
        transcript=Transcript.from_dict(_loads(row["transcript_raw"], {"text": ""})),
        transcript_corrected=row["transcript_corrected"],
        answer_score=AnswerScore.from_dict(json.loads(row["score_json"])),
        score_history=tuple(
            ScoreEntry(
                created_at=from_db(h["created_at"]),
                reason=h["reason"],
                score=int(h["score"]),
                rubric_version=int(h["rubric_version"]),
                embedding_model=h["embedding_model"],
                scorer_version=h["scorer_version"],
            )
            for h in history
        ),
    )


def save_attempt(
    db: Database,
    paths: RecordingPaths,
    *,
    session_id: int | None,
    question_id: str,
    deck: str,
    transcript: Transcript,
    score: AnswerScore,
    recording_path: Path | str | None,
    asr_model: str | None,
    embedding_model: str | None,
    rubric_version: int | None,
    ended_by: str | None,
    transcript_corrected: str | None,
    created_at: datetime | None,
    scorer_version: str,
) -> int:
    """Store one attempt and its first score in one transaction; durable on return."""
    created = to_db(created_at or now_utc())
    asr = transcript.model if asr_model is None else asr_model
    emb = score.embedding_model if embedding_model is None else embedding_model
    version = score.rubric_version if rubric_version is None else rubric_version
    score_json = _score_json(score)
    dl = score.delivery
    with db.write("save the attempt") as conn:
        cur = conn.execute(
            "INSERT INTO attempts (session_id, question_id, deck, rubric_version, created_at, "
            "recording_path, transcript_raw, transcript_corrected, asr_model, embedding_model, "
            "score, score_json, coverage, wpm, fillers_per_min, duration_s, ended_by, "
            "answer_text, scorer_version) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                session_id,
                question_id,
                deck,
                version,
                created,
                paths.relative(recording_path),
                json.dumps(transcript.to_dict(), separators=(",", ":")),
                transcript_corrected,
                asr,
                emb,
                clamp(score.score),
                score_json,
                coverage_of(score),
                dl.words_per_minute if dl else None,
                dl.fillers_per_minute if dl else None,
                dl.duration_s if dl else transcript.duration,
                ended_by,
                transcript.text,
                scorer_version,
            ),
        )
        attempt_id = int(cur.lastrowid or 0)
        _insert_score(
            conn, attempt_id, created, "initial", score, version, emb, score_json, scorer_version
        )
        _replace_key_points(conn, attempt_id, score)
    return attempt_id


def rescore(
    db: Database,
    paths: RecordingPaths,
    attempt_id: int,
    score: AnswerScore,
    corrected_text: str | None,
    scorer_version: str,
) -> None:
    """Make ``score`` the attempt's current score, keeping every earlier one."""
    require_attempt(db, paths, attempt_id)
    reason: ScoreReason = "correction" if corrected_text is not None else "rescore"
    when = to_db(now_utc())
    score_json = _score_json(score)
    dl = score.delivery
    with db.write("save the new score") as conn:
        conn.execute(
            "UPDATE attempts SET score = ?, score_json = ?, coverage = ?, rubric_version = ?, "
            "embedding_model = ?, scorer_version = ?, wpm = COALESCE(?, wpm), "
            "fillers_per_min = COALESCE(?, fillers_per_min), "
            "transcript_corrected = COALESCE(?, transcript_corrected) WHERE id = ?",
            (
                clamp(score.score),
                score_json,
                coverage_of(score),
                score.rubric_version,
                score.embedding_model,
                scorer_version,
                dl.words_per_minute if dl else None,
                dl.fillers_per_minute if dl else None,
                corrected_text,
                attempt_id,
            ),
        )
        _insert_score(
            conn,
            attempt_id,
            when,
            reason,
            score,
            score.rubric_version,
            score.embedding_model,
            score_json,
            scorer_version,
        )
        _replace_key_points(conn, attempt_id, score)


def delete_attempt(
    db: Database, paths: RecordingPaths, attempt_id: int, delete_recording: bool
) -> None:
    summary = require_attempt(db, paths, attempt_id)
    with db.write("delete the attempt") as conn:
        conn.execute("DELETE FROM attempts WHERE id = ?", (attempt_id,))
    if delete_recording and summary.recording_path is not None:
        summary.recording_path.unlink(missing_ok=True)


# ------------------------------------------------------------------------ helpers
def clamp(score: int | float) -> int:
    return max(0, min(100, round(score)))


def _score_json(score: AnswerScore) -> str:
    return json.dumps(score.to_dict(), separators=(",", ":"))


def _insert_score(
    conn: sqlite3.Connection,
    attempt_id: int,
    when: str,
    reason: ScoreReason,
    score: AnswerScore,
    version: int,
    emb: str,
    score_json: str,
    scorer_version: str,
) -> None:
    conn.execute(
        "INSERT INTO scores (attempt_id, created_at, reason, score, rubric_version, "
        "embedding_model, score_json, scorer_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (attempt_id, when, reason, clamp(score.score), version, emb, score_json, scorer_version),
    )


def _replace_key_points(conn: sqlite3.Connection, attempt_id: int, score: AnswerScore) -> None:
    conn.execute("DELETE FROM attempt_key_points WHERE attempt_id = ?", (attempt_id,))
    conn.executemany(
        "INSERT OR REPLACE INTO attempt_key_points "
        "(attempt_id, key_point_id, text, weight, status, similarity) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [
            (attempt_id, kp.id, kp.text, kp.weight, kp.status, float(kp.similarity))
            for kp in score.key_points
        ],
    )


def _loads(text: str | None, default: Any) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default
