"""The attempt store: one SQLite database plus the recordings beside it.

:class:`Store` is the facade the rest of sayitout uses. The work lives in modules of
one concern: :mod:`~sayitout.store.db` (connection, transactions, migrations),
:mod:`~sayitout.store.attempts` (writing and reading one attempt or session),
:mod:`~sayitout.store.queries` (listings, counts and statistics, selected by one
:class:`~sayitout.store.filters.AttemptFilter`), :mod:`~sayitout.store.recordings`
(recording files and orphans) and :mod:`~sayitout.store.derived` (values kept until
the data changes).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from sayitout.errors import UsageError
from sayitout.locations import locations
from sayitout.scoring import SCORER_VERSION
from sayitout.scoring.result import AnswerScore
from sayitout.speech.transcript import Transcript
from sayitout.store import attempts as _attempts
from sayitout.store import queries as _queries
from sayitout.store import recordings as rec
from sayitout.store.db import Database
from sayitout.store.derived import DerivedKey, DerivedValues
from sayitout.store.filters import EVERY_ATTEMPT, AttemptFilter
from sayitout.store.records import (
    AttemptRecord,
    AttemptSummary,
    KeyPointMiss,
    OrphanRecording,
    QuestionStats,
    SessionRecord,
)

T = TypeVar("T")


class Store:
    """Every attempt ever made, and the sessions they belong to.

    Open with :meth:`Store.open`; close with :meth:`close` (or use ``with``).
    Every failure to read or write becomes a :class:`StorageError` with a hint.
    """

    def __init__(self, db: Database, recordings_dir: Path) -> None:
        self._db = db
        self.path = db.path
        self.recordings_dir = recordings_dir
        self._paths = rec.RecordingPaths(recordings_dir)
        self._derived = DerivedValues()

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
        return cls(Database.open(db_path), recordings_dir)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def _conn(self) -> sqlite3.Connection:
        """The raw connection (tests swap it for one that fails on purpose)."""
        return self._db.conn

    @_conn.setter
    def _conn(self, conn: sqlite3.Connection) -> None:
        self._db.conn = conn

    @property
    def version(self) -> int:
        return self._db.version

    def revision(self) -> tuple[int, int]:
        """Changes whenever the data may have changed: a write through this store, or a
        commit by any other connection (SQLite's ``data_version``)."""
        return self._db.revision()

    def integrity_check(self) -> str:
        """``ok`` when SQLite finds nothing wrong, else its first complaint."""
        return self._db.integrity_check()

    def derived(self, key: DerivedKey[T], build: Callable[[], T]) -> T:
        """The value ``build()`` computed from the current data, kept until it changes."""
        return self._derived.get(key, self.revision(), build)

    def forget_derived(self) -> None:
        """Drop every kept derived value (benchmarks measure the cold path with it)."""
        self._derived.clear()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group many writes into one transaction (one sync): for imports and benchmarks."""
        with self._db.write("save a batch of attempts"):
            yield

    # ----------------------------------------------------------------- sessions
    def start_session(
        self,
        deck: str,
        settings: dict[str, Any] | None = None,
        *,
        started_at: datetime | None = None,
    ) -> int:
        return _attempts.start_session(self._db, deck, settings, started_at)

    def finish_session(self, session_id: int, *, finished_at: datetime | None = None) -> None:
        _attempts.finish_session(self._db, session_id, finished_at)

    def session(self, session_id: int) -> SessionRecord:
        return _queries.session(self._db, session_id)

    def sessions(
        self,
        *,
        deck: str | None = None,
        since: datetime | None = None,
        limit: int | None = None,
        offset: int = 0,
        include_cli: bool = True,
    ) -> list[SessionRecord]:
        """Sessions newest first, with their attempt counts and session scores.

        Attempts made from the command line have no session; with ``include_cli``
        they appear as one pseudo-session with ``id=None``, placed by its latest attempt.
        """
        return _queries.sessions(
            self._db, deck=deck, since=since, limit=limit, offset=offset, include_cli=include_cli
        )

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
        scorer_version: str = SCORER_VERSION,
    ) -> int:
        """Store one attempt and its first score in one transaction; durable on return.

        ``scorer_version`` says which scorer made ``score`` (this one, unless told).
        """
        return _attempts.save_attempt(
            self._db,
            self._paths,
            session_id=session_id,
            question_id=question_id,
            deck=deck,
            transcript=transcript,
            score=score,
            recording_path=recording_path,
            asr_model=asr_model,
            embedding_model=embedding_model,
            rubric_version=rubric_version,
            ended_by=ended_by,
            transcript_corrected=transcript_corrected,
            created_at=created_at,
            scorer_version=scorer_version,
        )

    def rescore(
        self,
        attempt_id: int,
        score: AnswerScore,
        corrected_text: str | None = None,
        *,
        scorer_version: str = SCORER_VERSION,
    ) -> None:
        """Make ``score`` the attempt's current score, keeping every earlier one.

        With ``corrected_text`` the transcript correction is stored too (reason ``correction``).
        """
        _attempts.rescore(self._db, self._paths, attempt_id, score, corrected_text, scorer_version)

    def delete_attempt(self, attempt_id: int, *, delete_recording: bool = False) -> None:
        """Forget an attempt (and its score history); optionally delete its recording too."""
        _attempts.delete_attempt(self._db, self._paths, attempt_id, delete_recording)

    def attempt(self, attempt_id: int) -> AttemptRecord:
        """One attempt in full. Unknown id: :class:`UsageError`."""
        return _attempts.read_attempt(self._db, self._paths, attempt_id)

    def attempts(
        self,
        where: AttemptFilter = EVERY_ATTEMPT,
        *,
        limit: int | None = None,
        offset: int = 0,
        oldest_first: bool = False,
    ) -> list[AttemptSummary]:
        """Attempts matching ``where``, newest first (or oldest first)."""
        return _queries.attempts(
            self._db, self._paths, where, limit=limit, offset=offset, oldest_first=oldest_first
        )

    def count_attempts(self, where: AttemptFilter = EVERY_ATTEMPT) -> int:
        """How many attempts :meth:`attempts` would return with the same filter (no paging)."""
        return _queries.count_attempts(self._db, where)

    def last_attempt(self, question_id: str) -> AttemptRecord | None:
        found = _queries.last_attempt_id(self._db, question_id)
        return None if found is None else self.attempt(found)

    def previous_attempts(self, attempt_id: int) -> list[AttemptSummary]:
        """Attempts at the same question made before this one, newest first."""
        summary = _attempts.require_attempt(self._db, self._paths, attempt_id)
        return _queries.previous_attempts(self._db, self._paths, summary)

    def question_stats(self, where: AttemptFilter = EVERY_ATTEMPT) -> dict[str, QuestionStats]:
        """Per question: attempts, last / best / mean score, first and last time."""
        return _queries.question_stats(self._db, where)

    def score_timeline(self) -> list[tuple[str, datetime, int]]:
        """``(question_id, created_at, score)`` for every attempt, oldest first (for FSRS)."""
        return _queries.score_timeline(self._db)

    def key_points(self, attempt_id: int) -> list[tuple[str, str, str]]:
        """``(key_point_id, text, status)`` of the attempt's current score, in rubric order."""
        rows = _queries.key_point_rows(self._db, attempt_id)
        order = {kp.id: i for i, kp in enumerate(self.attempt(attempt_id).answer_score.key_points)}
        found = [(r["key_point_id"], r["text"], r["status"]) for r in rows]
        return sorted(found, key=lambda r: order.get(r[0], 1 << 30))

    def key_point_misses(
        self, where: AttemptFilter = EVERY_ATTEMPT, *, limit: int = 10
    ) -> list[KeyPointMiss]:
        """Key points missed most often (count of ``missed`` status), most missed first."""
        return _queries.key_point_misses(self._db, where, limit)

    def key_point_statuses(
        self, where: AttemptFilter = EVERY_ATTEMPT
    ) -> dict[int, list[tuple[str, str]]]:
        """``attempt id -> [(key point id, status)]`` for every attempt matching ``where``."""
        return _queries.key_point_statuses(self._db, where)

    def answer_texts(self, where: AttemptFilter = EVERY_ATTEMPT) -> dict[int, str]:
        """``attempt id -> answer text`` (the correction if any, else what was heard)."""
        return _queries.answer_texts(self._db, where)

    # --------------------------------------------------------------- recordings
    def new_recording_path(self, question_id: str, when: datetime | None = None) -> Path:
        """Where to write the next recording of ``question_id`` (its folder is created)."""
        return rec.new_recording_path(self.recordings_dir, question_id, when)

    def orphan_recordings(self, *, min_age_s: float = 0.0) -> list[OrphanRecording]:
        """Recordings on disk that no attempt refers to, oldest first (crash recovery).

        ``min_age_s`` skips files written in the last seconds: with two sayitout windows
        open, one's recording in progress is not the other's orphan.
        """
        attached = {self._paths.absolute(p) for p in _queries.recording_paths(self._db)}
        return rec.orphans_older_than(self.recordings_dir, attached, min_age_s)

    def discard_recording(self, path: Path) -> None:
        """Delete an orphaned recording the user chose not to keep."""
        path = Path(path)
        absolute = self._paths.absolute(self._paths.relative(path))
        if absolute in {o.path for o in self.orphan_recordings()}:
            path.unlink(missing_ok=True)
        else:
            raise UsageError(
                f"{path} is not an orphaned recording", "only orphans can be discarded"
            )
