"""The SQLite connection: opening, configuring, migrating, and one lock around it.

Durability: the database runs in WAL mode with ``synchronous=FULL``. In WAL mode
``NORMAL`` already survives a killed process (the log is in the OS page cache)
but can lose the last commits on a power cut or kernel crash; ``FULL`` syncs the
log on every commit, so an attempt is on the platter when a write returns.
sayitout commits about once a minute, so the extra fsync (a few ms) is free, and
"nothing said is ever lost" is the promise we make. Bulk imports group their
writes (:meth:`Database.write` nests) to pay for one sync instead of thousands.

Threads: one connection guarded by a lock, so a Textual worker, the session
engine and the UI may all call in; each call is short.

Processes: two sayitout processes may open a new data dir at the same moment.
The schema version is read again under the write lock before each migration
step, so the second process finds the first one's work done instead of
creating the tables twice.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from sayitout.errors import StorageError
from sayitout.locations import ensure_dir
from sayitout.store.errors import storage_error
from sayitout.store.filters import SqlValue
from sayitout.store.schema import MIGRATIONS, schema_version

BUSY_TIMEOUT_S = 10.0
"""How long a write waits for another process's write before giving up."""


class Database:
    """One connection to the attempt database; rows come back as :class:`sqlite3.Row`.

    Every failure to read or write becomes a :class:`StorageError` with a hint.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self._lock = threading.RLock()
        self._depth = 0
        self._revision = 0

    @classmethod
    def open(cls, path: Path) -> Database:
        """Open (creating or migrating as needed) the database at ``path``."""
        ensure_dir(path.parent)
        try:
            conn = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_S
            )
        except sqlite3.Error as exc:
            raise storage_error("open the database", path, exc) from exc
        try:
            _configure(conn, path)
            _migrate(conn, path)
        except BaseException:
            conn.close()
            raise
        conn.row_factory = sqlite3.Row
        _owner_only(path)
        return cls(conn, path)

    def close(self) -> None:
        with self._lock, suppress(sqlite3.Error):
            self.conn.close()

    # ------------------------------------------------------------------ reading
    def read(self, action: str, sql: str, params: Sequence[SqlValue] = ()) -> list[sqlite3.Row]:
        """All rows of one query; ``action`` says what failed if it fails."""
        with self._lock:
            try:
                rows: list[sqlite3.Row] = self.conn.execute(sql, params).fetchall()
                return rows
            except sqlite3.Error as exc:
                raise storage_error(action, self.path, exc) from exc

    def scalar(self, action: str, sql: str, params: Sequence[SqlValue] = ()) -> object:
        """The first column of the first row (``None`` when there is no row)."""
        rows = self.read(action, sql, params)
        return rows[0][0] if rows else None

    @property
    def version(self) -> int:
        return int(str(self.scalar("read the schema version", "PRAGMA user_version")))

    def revision(self) -> tuple[int, int]:
        """Changes whenever the data may have changed: a write through this connection,
        or a commit by any other connection (SQLite's ``data_version``)."""
        return self._revision, int(str(self.scalar("check for changes", "PRAGMA data_version")))

    def integrity_check(self) -> str:
        """``ok`` when SQLite finds nothing wrong, else its first complaint."""
        return str(self.scalar("check the database", "PRAGMA integrity_check"))

    # ------------------------------------------------------------------ writing
    @contextmanager
    def write(self, action: str) -> Iterator[sqlite3.Connection]:
        """One transaction (``BEGIN IMMEDIATE``); nested calls join the outer one."""
        with self._lock:
            outer = self._depth == 0
            try:
                if outer:
                    self.conn.execute("BEGIN IMMEDIATE")
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                if outer:
                    self.conn.execute("COMMIT")
                    self._revision += 1
            except (sqlite3.Error, OSError) as exc:
                if outer:
                    _rollback(self.conn)
                raise storage_error(action, self.path, exc) from exc
            except BaseException:
                if outer:
                    _rollback(self.conn)
                raise


# ---------------------------------------------------------------------- opening
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
    """Set the connection up (WAL, foreign keys, full sync).

    Switching a new database to WAL can report it busy at once, without waiting out the
    busy timeout, while another process is doing the same (two windows opened together
    on a first run): that is retried until the timeout, as a write would wait."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise sqlite3.OperationalError(f"cannot switch to WAL mode (got {mode})")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA synchronous = FULL")
            return
        except sqlite3.Error as exc:
            if _busy(exc) and time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            raise storage_error("open the database", path, exc) from exc


def _busy(exc: sqlite3.Error) -> bool:
    """SQLITE_BUSY or SQLITE_LOCKED, in any of their extended forms (an error raised by
    our own code carries no SQLite code)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and (code & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the schema up to date, one transaction per step, after a backup.

    The version is read again inside each step's write transaction: another process
    may have migrated the database while this one waited for the lock.
    """
    target = schema_version()
    try:
        current = _user_version(conn)
    except sqlite3.Error as exc:
        raise storage_error("read the database", path, exc) from exc
    _refuse_newer(current, target, path)
    if current == target:
        return
    # The copy is made before taking the write lock (SQLite cannot back up a connection
    # in its own write transaction) and kept only if nobody migrated in between.
    staged = _stage_backup(conn, path, current) if current > 0 else None
    try:
        while True:
            version = current
            try:
                conn.execute("BEGIN IMMEDIATE")
                version = _user_version(conn)
                if version >= target:
                    conn.execute("COMMIT")
                    _refuse_newer(version, target, path)
                    return
                if staged is not None and version == current:
                    os.replace(staged, backup_path(path, current))
                    staged = None
                MIGRATIONS[version](conn)
                conn.execute(f"PRAGMA user_version = {version + 1}")
                conn.execute("COMMIT")
            except (sqlite3.Error, OSError) as exc:
                _rollback(conn)
                raise storage_error(
                    f"upgrade the database from schema version {version} to {version + 1}",
                    path,
                    exc,
                ) from exc
    finally:
        if staged is not None:
            with suppress(OSError):
                staged.unlink(missing_ok=True)


def _refuse_newer(current: int, target: int, path: Path) -> None:
    if current > target:
        raise StorageError(
            f"The database {path} was written by a newer sayitout (schema version {current}; "
            f"this version understands up to {target})",
            "upgrade sayitout, or set SAYITOUT_HOME to use a different data directory",
        )


def backup_path(path: Path, version: int) -> Path:
    return path.with_name(f"{path.name}.bak-v{version}")


def _stage_backup(conn: sqlite3.Connection, path: Path, version: int) -> Path:
    """A consistent copy of the database (WAL included) in a temporary file beside it."""
    target = backup_path(path, version)
    tmp = target.with_name(f"{target.name}.{os.getpid()}-{threading.get_native_id()}.tmp")
    try:
        dest = sqlite3.connect(tmp)
        try:
            conn.backup(dest)
        finally:
            dest.close()
        tmp.chmod(0o600)
    except (sqlite3.Error, OSError) as exc:
        with suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise storage_error(
            f"back up the database before upgrading it to {target}", path, exc
        ) from exc
    return tmp
