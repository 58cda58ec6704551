"""The database schema and its migrations.

The schema version lives in ``PRAGMA user_version``. ``MIGRATIONS[i]`` takes a
database from version ``i`` to ``i + 1``; each step runs in its own transaction,
so a failed step leaves the database at the previous version. To change the
schema: append one step here, and add ``tests/store/fixtures/schema_v<N>.sql``
(a dump of a database at the version before it) so the migration is tested.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

Step = Callable[[sqlite3.Connection], None]


def run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run SQL statements one by one inside the caller's transaction.

    (``executescript`` would COMMIT first, breaking the one-transaction-per-step rule.)
    """
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            conn.execute(statement)
            statement = ""
    if statement.strip():
        raise ValueError(f"incomplete SQL statement in migration: {statement.strip()[:60]}")


def _v0_to_v1(conn: sqlite3.Connection) -> None:
    run_script(
        conn,
        """
        CREATE TABLE sessions (
            id          INTEGER PRIMARY KEY,
            deck        TEXT NOT NULL,
            started_at  TEXT NOT NULL,          -- ISO 8601, UTC
            finished_at TEXT,
            settings    TEXT NOT NULL DEFAULT '{}'  -- JSON
        );
        CREATE INDEX sessions_started ON sessions(started_at);

        -- Small columns first, the big JSON last: SQLite reads a row from its start, so
        -- list queries never walk the overflow pages of the transcript and score JSON.
        CREATE TABLE attempts (
            id                   INTEGER PRIMARY KEY,
            session_id           INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
            question_id          TEXT NOT NULL,
            deck                 TEXT NOT NULL,
            rubric_version       INTEGER NOT NULL DEFAULT 1,
            created_at           TEXT NOT NULL,  -- ISO 8601, UTC
            score                INTEGER NOT NULL CHECK (score BETWEEN 0 AND 100),
            coverage             REAL,           -- weighted share of key points covered, 0..1
            wpm                  REAL,
            fillers_per_min      REAL,
            duration_s           REAL,
            ended_by             TEXT,
            asr_model            TEXT NOT NULL DEFAULT '',
            embedding_model      TEXT NOT NULL DEFAULT '',
            recording_path       TEXT,           -- relative to the recordings dir when inside it
            transcript_corrected TEXT,
            answer_text          TEXT NOT NULL DEFAULT '',  -- as heard, for exports and search
            transcript_raw       TEXT NOT NULL,  -- JSON of Transcript.to_dict()
            score_json           TEXT NOT NULL   -- JSON of AnswerScore.to_dict(), current
        );
        CREATE INDEX attempts_created ON attempts(created_at);
        CREATE INDEX attempts_question ON attempts(question_id, created_at);
        CREATE INDEX attempts_deck ON attempts(deck, created_at);
        CREATE INDEX attempts_session ON attempts(session_id);
        CREATE INDEX attempts_recording ON attempts(recording_path);

        -- Every score an attempt ever had: the first, and each rescore or correction.
        CREATE TABLE scores (
            id              INTEGER PRIMARY KEY,
            attempt_id      INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
            created_at      TEXT NOT NULL,
            reason          TEXT NOT NULL CHECK (reason IN ('initial', 'rescore', 'correction')),
            score           INTEGER NOT NULL,
            rubric_version  INTEGER NOT NULL DEFAULT 1,
            embedding_model TEXT NOT NULL DEFAULT '',
            score_json      TEXT NOT NULL
        );
        CREATE INDEX scores_attempt ON scores(attempt_id, id);

        -- The current score's key points, one row each, for fast "most often missed" queries.
        CREATE TABLE attempt_key_points (
            attempt_id   INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
            key_point_id TEXT NOT NULL,
            text         TEXT NOT NULL,
            weight       REAL NOT NULL,
            status       TEXT NOT NULL,
            similarity   REAL NOT NULL,
            PRIMARY KEY (attempt_id, key_point_id)
        ) WITHOUT ROWID;
        CREATE INDEX akp_status ON attempt_key_points(status, key_point_id);
        """,
    )


def _v1_to_v2(conn: sqlite3.Connection) -> None:
    """Which scorer produced each score ('' for scores made before this was recorded),
    and an index that computes every session's score in one pass."""
    run_script(
        conn,
        """
        ALTER TABLE attempts ADD COLUMN scorer_version TEXT NOT NULL DEFAULT '';
        ALTER TABLE scores ADD COLUMN scorer_version TEXT NOT NULL DEFAULT '';
        CREATE INDEX attempts_session_best ON attempts(session_id, question_id, score);
        """,
    )


# MIGRATIONS[i] takes the schema from version i to i + 1.
MIGRATIONS: list[Step] = [_v0_to_v1, _v1_to_v2]


def schema_version() -> int:
    """The version this code writes."""
    return len(MIGRATIONS)
