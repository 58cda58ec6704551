"""The attempt store: one SQLite database plus the recordings beside it.

Durability: the database runs in WAL mode with ``synchronous=FULL``. In WAL mode
``NORMAL`` already survives a killed process (the log is in the OS page cache)
but can lose the last commits on a power cut or kernel crash; ``FULL`` syncs the
log on every commit, so an attempt is on the platter when :meth:`Store.save_attempt`
returns. sayitout commits about once a minute, so the extra fsync (a few ms) is
free, and "nothing said is ever lost" is the promise we make. Bulk imports use
:meth:`Store.batch` to pay for one sync instead of thousands.

Threads: one connection guarded by a lock, so a Textual worker, the session
engine and the UI may all call in; each call is short.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Any

from sayitout.errors import StorageError, UsageError
from sayitout.locations import ensure_dir, locations
from sayitout.scoring.result import AnswerScore
from sayitout.speech.transcript import Transcript
from sayitout.store import recordings as rec
from sayitout.store.errors import storage_error
from sayitout.store.records import (
    AttemptRecord,
    AttemptSummary,
    KeyPointMiss,
    OrphanRecording,
    QuestionStats,
    ScoreEntry,
    SessionRecord,
)
from sayitout.store.schema import MIGRATIONS, schema_version
from sayitout.store.timefmt import from_db, now_utc, to_db

_SUMMARY_COLUMNS = (
    "id, session_id, question_id, deck, created_at, score, coverage, wpm, fillers_per_min, "
    "duration_s, ended_by, rubric_version, asr_model, embedding_model, recording_path, "
    "transcript_corrected IS NOT NULL"
)
_REASONS = ("initial", "rescore", "correction")


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


class Store:
    """Every attempt ever made, and the sessions they belong to.

    Open with :meth:`Store.open`; close with :meth:`close` (or use ``with``).
    Every failure to read or write becomes a :class:`StorageError` with a hint.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, recordings_dir: Path) -> None:
        self._conn = conn
        self.path = path
        self.recordings_dir = recordings_dir
        self._lock = threading.RLock()
        self._depth = 0
        self._revision = 0
        self.cache: dict[str, Any] = {}
        """Derived data (e.g. FSRS cards) that callers may keep until :meth:`revision` changes."""

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: Path | str | None = None, *, recordings_dir: Path | None = None) -> Store:
        """Open (creating or migrating as needed) the database at ``path``.

        ``path`` defaults to ``locations().database``; recordings live in
        ``locations().recordings_dir`` for the default database, else beside ``path``.
        """
        if path is None:
            loc = locations()
            db_path = loc.database
            recordings_dir = recordings_dir or loc.recordings_dir
        else:
            db_path = Path(path).expanduser()
            recordings_dir = recordings_dir or db_path.parent / "recordings"
        ensure_dir(db_path.parent)
        try:
            conn = sqlite3.connect(
                db_path, isolation_level=None, check_same_thread=False, timeout=10.0
            )
        except sqlite3.Error as exc:
            raise storage_error("open the database", db_path, exc) from exc
        try:
            _configure(conn, db_path)
            _migrate(conn, db_path)
        except BaseException:
            conn.close()
            raise
        _owner_only(db_path)
        return cls(conn, db_path, recordings_dir)

    def close(self) -> None:
        with self._lock, suppress(sqlite3.Error):
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def version(self) -> int:
        return int(self._read("read the schema version", "PRAGMA user_version")[0][0])

    def revision(self) -> tuple[int, int]:
        """Changes whenever the data may have changed: a write through this store, or a
        commit by any other connection (SQLite's ``data_version``)."""
        return self._revision, int(self._read("check for changes", "PRAGMA data_version")[0][0])

    def integrity_check(self) -> str:
        """``ok`` when SQLite finds nothing wrong, else its first complaint."""
        return str(self._read("check the database", "PRAGMA integrity_check")[0][0])

    # ------------------------------------------------------------ transactions
    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group many writes into one transaction (one sync): for imports and benchmarks."""
        with self._write("save a batch of attempts"):
            yield

    @contextmanager
    def _write(self, action: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            outer = self._depth == 0
            try:
                if outer:
                    self._conn.execute("BEGIN IMMEDIATE")
                self._depth += 1
                try:
                    yield self._conn
                finally:
                    self._depth -= 1
                if outer:
                    self._conn.execute("COMMIT")
                    self._revision += 1
            except (sqlite3.Error, OSError) as exc:
                if outer:
                    _rollback(self._conn)
                raise storage_error(action, self.path, exc) from exc
            except BaseException:
                if outer:
                    _rollback(self._conn)
                raise

    def _read(self, action: str, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise storage_error(action, self.path, exc) from exc

    # ----------------------------------------------------------------- sessions
    def start_session(
        self, deck: str, settings: dict | None = None, *, started_at: datetime | None = None
    ) -> int:
        with self._write("start a session") as conn:
            cur = conn.execute(
                "INSERT INTO sessions (deck, started_at, settings) VALUES (?, ?, ?)",
                (deck, to_db(started_at or now_utc()), json.dumps(settings or {}, default=str)),
            )
            return int(cur.lastrowid or 0)

    def finish_session(self, session_id: int, *, finished_at: datetime | None = None) -> None:
        with self._write("finish the session") as conn:
            conn.execute(
                "UPDATE sessions SET finished_at = ? WHERE id = ? AND finished_at IS NULL",
                (to_db(finished_at or now_utc()), session_id),
            )

    def session(self, session_id: int) -> SessionRecord:
        rows = self._sessions_query("WHERE s.id = ?", [session_id])
        if not rows:
            raise UsageError(f"No session with id {session_id}", "run 'sayitout history'")
        return rows[0]

    def sessions(
        self,
        *,
        deck: str | None = None,
        since: datetime | None = None,
        limit: int | None = None,
        offset: int = 0,
        include_cli: bool = True,
    ) -> list[SessionRecord]:
        """Sessions newest first, with their attempt counts and mean scores.

        Attempts made from the command line have no session; with ``include_cli``
        they appear as one pseudo-session with ``id=None``, placed by its latest attempt.
        """
        where, params = [], []
        if deck:
            where.append("s.deck = ?")
            params.append(deck)
        if since:
            where.append("s.started_at >= ?")
            params.append(to_db(since))
        clause = ("WHERE " + " AND ".join(where)) if where else ""
        out = self._sessions_query(clause, params)
        if include_cli:
            cli_where, cli_params = ["session_id IS NULL"], []
            if deck:
                cli_where.append("deck = ?")
                cli_params.append(deck)
            if since:
                cli_where.append("created_at >= ?")
                cli_params.append(to_db(since))
            row = self._read(
                "read the history",
                "SELECT COUNT(*), AVG(score), MIN(created_at), MAX(created_at) FROM attempts "
                "WHERE " + " AND ".join(cli_where),
                cli_params,
            )[0]
            if row[0]:
                out.append(
                    SessionRecord(
                        id=None,
                        deck=deck or "",
                        started_at=from_db(row[3]),
                        finished_at=from_db(row[3]),
                        settings={"source": "command line"},
                        attempt_count=int(row[0]),
                        mean_score=float(row[1]),
                    )
                )
                out.sort(key=lambda s: s.started_at, reverse=True)
        end = None if limit is None else offset + limit
        return out[offset:end]

    def _sessions_query(self, clause: str, params: list[Any]) -> list[SessionRecord]:
        rows = self._read(
            "read the sessions",
            "SELECT s.id, s.deck, s.started_at, s.finished_at, s.settings, "
            "COALESCE(a.n, 0), a.mean FROM sessions s LEFT JOIN "
            "(SELECT session_id, COUNT(*) AS n, AVG(score) AS mean FROM attempts "
            " WHERE session_id IS NOT NULL GROUP BY session_id) a ON a.session_id = s.id "
            f"{clause} ORDER BY s.started_at DESC, s.id DESC",
            params,
        )
        return [
            SessionRecord(
                id=r[0],
                deck=r[1],
                started_at=from_db(r[2]),
                finished_at=from_db(r[3]) if r[3] else None,
                settings=_loads(r[4], {}),
                attempt_count=int(r[5]),
                mean_score=None if r[6] is None else float(r[6]),
            )
            for r in rows
        ]

    # ----------------------------------------------------------------- attempts
    def save_attempt(
        self,
        session_id: int | None,
        question_id: str,
        deck: str,
        transcript: Transcript,
        score: AnswerScore,
        recording_path: Path | str | None = None,
        asr_model: str | None = None,
        embedding_model: str | None = None,
        rubric_version: int | None = None,
        *,
        ended_by: str | None = None,
        transcript_corrected: str | None = None,
        created_at: datetime | None = None,
    ) -> int:
        """Store one attempt and its first score in one transaction; durable on return."""
        created = to_db(created_at or now_utc())
        asr = transcript.model if asr_model is None else asr_model
        emb = score.embedding_model if embedding_model is None else embedding_model
        version = score.rubric_version if rubric_version is None else rubric_version
        score_json = json.dumps(score.to_dict(), separators=(",", ":"))
        dl = score.delivery
        with self._write("save the attempt") as conn:
            cur = conn.execute(
                "INSERT INTO attempts (session_id, question_id, deck, rubric_version, created_at, "
                "recording_path, transcript_raw, transcript_corrected, asr_model, embedding_model, "
                "score, score_json, coverage, wpm, fillers_per_min, duration_s, ended_by, "
                "answer_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    session_id,
                    question_id,
                    deck,
                    version,
                    created,
                    self._relative(recording_path),
                    json.dumps(transcript.to_dict(), separators=(",", ":")),
                    transcript_corrected,
                    asr,
                    emb,
                    _clamp(score.score),
                    score_json,
                    coverage_of(score),
                    dl.words_per_minute if dl else None,
                    dl.fillers_per_minute if dl else None,
                    dl.duration_s if dl else transcript.duration,
                    ended_by,
                    transcript.text,
                ),
            )
            attempt_id = int(cur.lastrowid or 0)
            self._insert_score(
                conn, attempt_id, created, "initial", score, version, emb, score_json
            )
            self._replace_key_points(conn, attempt_id, score)
        return attempt_id

    def rescore(
        self, attempt_id: int, score: AnswerScore, corrected_text: str | None = None
    ) -> None:
        """Make ``score`` the attempt's current score, keeping every earlier one.

        With ``corrected_text`` the transcript correction is stored too (reason ``correction``).
        """
        self._require_attempt(attempt_id)
        reason = "correction" if corrected_text is not None else "rescore"
        when = to_db(now_utc())
        score_json = json.dumps(score.to_dict(), separators=(",", ":"))
        dl = score.delivery
        with self._write("save the new score") as conn:
            conn.execute(
                "UPDATE attempts SET score = ?, score_json = ?, coverage = ?, rubric_version = ?, "
                "embedding_model = ?, wpm = COALESCE(?, wpm), "
                "fillers_per_min = COALESCE(?, fillers_per_min), "
                "transcript_corrected = COALESCE(?, transcript_corrected) WHERE id = ?",
                (
                    _clamp(score.score),
                    score_json,
                    coverage_of(score),
                    score.rubric_version,
                    score.embedding_model,
                    dl.words_per_minute if dl else None,
                    dl.fillers_per_minute if dl else None,
                    corrected_text,
                    attempt_id,
                ),
            )
            self._insert_score(
                conn,
                attempt_id,
                when,
                reason,
                score,
                score.rubric_version,
                score.embedding_model,
                score_json,
            )
            self._replace_key_points(conn, attempt_id, score)

    def delete_attempt(self, attempt_id: int, *, delete_recording: bool = False) -> None:
        """Forget an attempt (and its score history); optionally delete its recording too."""
        summary = self._require_attempt(attempt_id)
        with self._write("delete the attempt") as conn:
            conn.execute("DELETE FROM attempts WHERE id = ?", (attempt_id,))
        if delete_recording and summary.recording_path is not None:
            summary.recording_path.unlink(missing_ok=True)

    def attempt(self, attempt_id: int) -> AttemptRecord:
        """One attempt in full. Unknown id: :class:`UsageError`."""
        rows = self._read(
            "read the attempt",
            f"SELECT {_SUMMARY_COLUMNS}, transcript_raw, transcript_corrected, score_json "
            "FROM attempts WHERE id = ?",
            (attempt_id,),
        )
        if not rows:
            raise UsageError(
                f"No attempt with id {attempt_id}", "run 'sayitout history' to see attempt ids"
            )
        row = rows[0]
        history = self._read(
            "read the score history",
            "SELECT created_at, reason, score, rubric_version, embedding_model FROM scores "
            "WHERE attempt_id = ? ORDER BY id",
            (attempt_id,),
        )
        n = 16
        return AttemptRecord(
            summary=self._summary(row[:n]),
            transcript=Transcript.from_dict(_loads(row[n], {"text": ""})),
            transcript_corrected=row[n + 1],
            answer_score=AnswerScore.from_dict(json.loads(row[n + 2])),
            score_history=tuple(
                ScoreEntry(from_db(h[0]), h[1], int(h[2]), int(h[3]), h[4]) for h in history
            ),
        )

    def attempts(
        self,
        *,
        deck: str | None = None,
        question_id: str | None = None,
        question_ids: Iterable[str] | None = None,
        session_id: int | None = None,
        cli_only: bool = False,
        min_score: int | None = None,
        max_score: int | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int | None = None,
        offset: int = 0,
        oldest_first: bool = False,
    ) -> list[AttemptSummary]:
        """Attempts matching every filter given, newest first (or oldest first).

        ``question_ids`` restricts to a set of questions: how a topic filter is applied
        (the bank knows which questions carry a topic). ``cli_only`` selects the
        attempts made from the command line (no session).
        """
        clause, params = _filters(
            deck,
            question_id,
            question_ids,
            session_id,
            cli_only,
            min_score,
            max_score,
            since,
            until,
        )
        order = "ASC" if oldest_first else "DESC"
        sql = (
            f"SELECT {_SUMMARY_COLUMNS} FROM attempts {clause} "
            f"ORDER BY created_at {order}, id {order}"
        )
        if limit is not None or offset:
            sql += " LIMIT ? OFFSET ?"
            params += [-1 if limit is None else int(limit), int(offset)]
        return [self._summary(r) for r in self._read("read the history", sql, params)]

    def count_attempts(self, **filters: Any) -> int:
        """How many attempts :meth:`attempts` would return with the same filters (no paging)."""
        clause, params = _filters_from(filters)
        return int(
            self._read("count attempts", f"SELECT COUNT(*) FROM attempts {clause}", params)[0][0]
        )

    def last_attempt(self, question_id: str) -> AttemptRecord | None:
        rows = self._read(
            "read the last attempt",
            "SELECT id FROM attempts WHERE question_id = ? "
            "ORDER BY created_at DESC, id DESC LIMIT 1",
            (question_id,),
        )
        return self.attempt(rows[0][0]) if rows else None

    def previous_attempts(self, attempt_id: int) -> list[AttemptSummary]:
        """Attempts at the same question made before this one, newest first."""
        summary = self._require_attempt(attempt_id)
        rows = self._read(
            "read earlier attempts",
            f"SELECT {_SUMMARY_COLUMNS} FROM attempts WHERE question_id = ? AND "
            "(created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC",
            (summary.question_id, to_db(summary.created_at), to_db(summary.created_at), attempt_id),
        )
        return [self._summary(r) for r in rows]

    def question_stats(
        self, *, deck: str | None = None, since: datetime | None = None
    ) -> dict[str, QuestionStats]:
        """Per question: attempts, last / best / mean score, first and last time."""
        clause, params = _filters(deck, None, None, None, False, None, None, since, None)
        rows = self._read(
            "read question statistics",
            "SELECT question_id, COUNT(*), MAX(score), AVG(score), MIN(created_at), "
            "MAX(created_at), "
            "(SELECT b.score FROM attempts b WHERE b.question_id = a.question_id "
            " ORDER BY b.created_at DESC, b.id DESC LIMIT 1), "
            "(SELECT b.id FROM attempts b WHERE b.question_id = a.question_id "
            " ORDER BY b.created_at DESC, b.id DESC LIMIT 1) "
            f"FROM attempts a {clause} GROUP BY question_id",
            params,
        )
        return {
            r[0]: QuestionStats(
                question_id=r[0],
                attempts=int(r[1]),
                best_score=int(r[2]),
                mean_score=float(r[3]),
                first_at=from_db(r[4]),
                last_at=from_db(r[5]),
                last_score=int(r[6]),
                last_attempt_id=int(r[7]),
            )
            for r in rows
        }

    def score_timeline(self) -> list[tuple[str, datetime, int]]:
        """``(question_id, created_at, score)`` for every attempt, oldest first (for FSRS)."""
        rows = self._read(
            "read the history",
            "SELECT question_id, created_at, score FROM attempts ORDER BY created_at, id",
        )
        return [(r[0], from_db(r[1]), int(r[2])) for r in rows]

    def key_points(self, attempt_id: int) -> list[tuple[str, str, str]]:
        """``(key_point_id, text, status)`` of the attempt's current score, in rubric order."""
        rows = self._read(
            "read key points",
            "SELECT key_point_id, text, status FROM attempt_key_points WHERE attempt_id = ?",
            (attempt_id,),
        )
        order = {kp.id: i for i, kp in enumerate(self.attempt(attempt_id).answer_score.key_points)}
        return sorted(((r[0], r[1], r[2]) for r in rows), key=lambda r: order.get(r[0], 1 << 30))

    def key_point_misses(
        self,
        *,
        deck: str | None = None,
        since: datetime | None = None,
        question_ids: Iterable[str] | None = None,
        limit: int = 10,
    ) -> list[KeyPointMiss]:
        """Key points missed most often (count of ``missed`` status), most missed first."""
        clause, params = _filters(deck, None, question_ids, None, False, None, None, since, None)
        rows = self._read(
            "read missed key points",
            "SELECT a.question_id, k.key_point_id, MAX(k.text), "
            "SUM(k.status = 'missed'), COUNT(*) FROM attempt_key_points k "
            f"JOIN attempts a ON a.id = k.attempt_id {clause} "
            "GROUP BY a.question_id, k.key_point_id HAVING SUM(k.status = 'missed') > 0 "
            "ORDER BY 4 DESC, 4.0 / COUNT(*) DESC, a.question_id, k.key_point_id LIMIT ?",
            [*params, int(limit)],
        )
        return [KeyPointMiss(r[0], r[1], r[2], int(r[3]), int(r[4])) for r in rows]

    def key_point_statuses(self, **filters: Any) -> dict[int, list[tuple[str, str]]]:
        """``attempt id -> [(key point id, status)]`` for every attempt matching ``filters``."""
        clause, params = _filters_from(filters)
        rows = self._read(
            "read key points",
            "SELECT k.attempt_id, k.key_point_id, k.status FROM attempt_key_points k "
            f"JOIN attempts a ON a.id = k.attempt_id {clause}",
            params,
        )
        out: dict[int, list[tuple[str, str]]] = {}
        for aid, kp, status in rows:
            out.setdefault(aid, []).append((kp, status))
        return out

    def answer_texts(self, **filters: Any) -> dict[int, str]:
        """``attempt id -> answer text`` (the correction if any, else what was heard)."""
        clause, params = _filters_from(filters)
        rows = self._read(
            "read answers",
            f"SELECT id, COALESCE(transcript_corrected, answer_text) FROM attempts {clause}",
            params,
        )
        return {r[0]: r[1] or "" for r in rows}

    # --------------------------------------------------------------- recordings
    def new_recording_path(self, question_id: str, when: datetime | None = None) -> Path:
        """Where to write the next recording of ``question_id`` (its folder is created)."""
        return rec.new_recording_path(self.recordings_dir, question_id, when)

    def orphan_recordings(self, *, min_age_s: float = 0.0) -> list[OrphanRecording]:
        """Recordings on disk that no attempt refers to, oldest first (crash recovery).

        ``min_age_s`` skips files written in the last seconds: with two sayitout windows
        open, one's recording in progress is not the other's orphan.
        """
        rows = self._read(
            "read recording paths",
            "SELECT recording_path FROM attempts WHERE recording_path IS NOT NULL "
            "UNION ALL SELECT json_extract(f.value, '$.recording') FROM attempts a, "
            "json_each(a.score_json, '$.follow_ups') f "
            "WHERE json_extract(f.value, '$.recording') IS NOT NULL",
        )  # a follow-up reply's recording belongs to its attempt too
        attached = {self._absolute(r[0]) for r in rows}
        found = rec.orphans(self.recordings_dir, attached)
        if min_age_s > 0:
            cutoff = now_utc().timestamp() - min_age_s
            found = [o for o in found if o.modified.timestamp() <= cutoff]
        return found

    def discard_recording(self, path: Path) -> None:
        """Delete an orphaned recording the user chose not to keep."""
        path = Path(path)
        if self._absolute(self._relative(path)) in {o.path for o in self.orphan_recordings()}:
            path.unlink(missing_ok=True)
        else:
            raise UsageError(
                f"{path} is not an orphaned recording", "only orphans can be discarded"
            )

    # ------------------------------------------------------------------ helpers
    def _require_attempt(self, attempt_id: int) -> AttemptSummary:
        rows = self._read(
            "read the attempt",
            f"SELECT {_SUMMARY_COLUMNS} FROM attempts WHERE id = ?",
            (attempt_id,),
        )
        if not rows:
            raise UsageError(
                f"No attempt with id {attempt_id}", "run 'sayitout history' to see attempt ids"
            )
        return self._summary(rows[0])

    def _insert_score(
        self,
        conn: sqlite3.Connection,
        attempt_id: int,
        when: str,
        reason: str,
        score: AnswerScore,
        version: int,
        emb: str,
        score_json: str,
    ) -> None:
        assert reason in _REASONS
        conn.execute(
            "INSERT INTO scores (attempt_id, created_at, reason, score, rubric_version, "
            "embedding_model, score_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (attempt_id, when, reason, _clamp(score.score), version, emb, score_json),
        )

    @staticmethod
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

    def _summary(self, r: Sequence[Any]) -> AttemptSummary:
        return AttemptSummary(
            id=r[0],
            session_id=r[1],
            question_id=r[2],
            deck=r[3],
            created_at=from_db(r[4]),
            score=int(r[5]),
            coverage=r[6],
            wpm=r[7],
            fillers_per_min=r[8],
            duration_s=r[9],
            ended_by=r[10],
            rubric_version=int(r[11]),
            asr_model=r[12],
            embedding_model=r[13],
            recording_path=self._absolute(r[14]),
            corrected=bool(r[15]),
        )

    def _relative(self, path: Path | str | None) -> str | None:
        if path is None or str(path) == "":
            return None
        p = Path(path).expanduser().absolute()
        try:
            return p.relative_to(self.recordings_dir.absolute()).as_posix()
        except ValueError:
            return str(p)

    def _absolute(self, stored: str | None) -> Path | None:
        if not stored:
            return None
        p = Path(stored)
        return p if p.is_absolute() else self.recordings_dir.absolute() / p


# ---------------------------------------------------------------------- module helpers
def _filters(
    deck: str | None,
    question_id: str | None,
    question_ids: Iterable[str] | None,
    session_id: int | None,
    cli_only: bool,
    min_score: int | None,
    max_score: int | None,
    since: datetime | None,
    until: datetime | None,
) -> tuple[str, list[Any]]:
    where: list[str] = []
    params: list[Any] = []
    if deck:
        where.append("deck = ?")
        params.append(deck)
    if question_id:
        where.append("question_id = ?")
        params.append(question_id)
    if question_ids is not None:
        ids = list(question_ids)
        if not ids:
            where.append("0")
        else:
            where.append("question_id IN (SELECT value FROM json_each(?))")
            params.append(json.dumps(ids))
    if session_id is not None:
        where.append("session_id = ?")
        params.append(session_id)
    if cli_only:
        where.append("session_id IS NULL")
    if min_score is not None:
        where.append("score >= ?")
        params.append(int(min_score))
    if max_score is not None:
        where.append("score <= ?")
        params.append(int(max_score))
    if since is not None:
        where.append("created_at >= ?")
        params.append(to_db(since))
    if until is not None:
        where.append("created_at < ?")
        params.append(to_db(until))
    return ("WHERE " + " AND ".join(where)) if where else "", params


_FILTER_NAMES = (
    "deck",
    "question_id",
    "question_ids",
    "session_id",
    "cli_only",
    "min_score",
    "max_score",
    "since",
    "until",
)


def _filters_from(filters: dict[str, Any]) -> tuple[str, list[Any]]:
    unknown = set(filters) - set(_FILTER_NAMES)
    if unknown:
        raise TypeError(f"unknown attempt filters: {', '.join(sorted(unknown))}")
    return _filters(*(filters.get(n, False if n == "cli_only" else None) for n in _FILTER_NAMES))


def _clamp(score: int | float) -> int:
    return max(0, min(100, round(score)))


def _loads(text: str | None, default: Any) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


def _rollback(conn: sqlite3.Connection) -> None:
    # SQLite may already have rolled back (e.g. on SQLITE_FULL).
    with suppress(sqlite3.Error):
        conn.execute("ROLLBACK")


def _owner_only(path: Path) -> None:
    """Make the database (and its WAL files) readable by its owner only; SQLite gives the
    WAL files the database file's permissions."""
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with suppress(OSError):
            if p.exists() and p.stat().st_mode & 0o077:
                p.chmod(0o600)


def _configure(conn: sqlite3.Connection, path: Path) -> None:
    try:
        conn.execute("PRAGMA busy_timeout = 10000")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise sqlite3.OperationalError(f"cannot switch to WAL mode (got {mode})")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA synchronous = FULL")
    except sqlite3.Error as exc:
        raise storage_error("open the database", path, exc) from exc


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the schema up to date, one transaction per step, after a backup."""
    target = schema_version()
    try:
        current = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as exc:
        raise storage_error("read the database", path, exc) from exc
    if current > target:
        raise StorageError(
            f"The database {path} was written by a newer sayitout (schema version {current}; "
            f"this version understands up to {target})",
            "upgrade sayitout, or set SAYITOUT_HOME to use a different data directory",
        )
    if current == target:
        return
    if current > 0:
        _backup(conn, path, current)
    for version in range(current, target):
        try:
            conn.execute("BEGIN IMMEDIATE")
            MIGRATIONS[version](conn)
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            _rollback(conn)
            raise storage_error(
                f"upgrade the database from schema version {version} to {version + 1}", path, exc
            ) from exc


def backup_path(path: Path, version: int) -> Path:
    return path.with_name(f"{path.name}.bak-v{version}")


def _backup(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """A consistent copy of the database (WAL included) before migrating it."""
    target = backup_path(path, version)
    tmp = target.with_name(target.name + ".tmp")
    try:
        tmp.unlink(missing_ok=True)
        dest = sqlite3.connect(tmp)
        try:
            conn.backup(dest)
        finally:
            dest.close()
        shutil.move(tmp, target)
        target.chmod(0o600)
    except (sqlite3.Error, OSError) as exc:
        raise storage_error(
            f"back up the database before upgrading it to {target}", path, exc
        ) from exc
