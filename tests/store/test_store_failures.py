"""Disk full, read-only data dir, and SQLite errors while saving: a clear StorageError,
the session can go on, and nothing already saved is damaged."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sayitout.errors import StorageError
from sayitout.store import Store
from support.synthetic import make_score, make_transcript

KPS = [("a", "Lower the learning rate", "covered"), ("b", "Clip the gradients", "missed")]


def save(store: Store, text: str = "lower the learning rate please") -> int:
    return store.save_attempt(
        None,
        "dl-fp16-nan",
        "deep-learning",
        make_transcript(text),
        make_score("dl-fp16-nan", text, KPS),
        None,
    )


class FailingConnection:
    """Passes everything to a real connection, but fails statements matching ``fail_on``."""

    def __init__(self, conn: sqlite3.Connection, fail_on: str, error: str) -> None:
        self.conn, self.fail_on, self.error = conn, fail_on, error

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if self.fail_on in sql:
            raise sqlite3.OperationalError(self.error)
        return self.conn.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if self.fail_on in sql:
            raise sqlite3.OperationalError(self.error)
        return self.conn.executemany(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        ("database or disk is full", "the disk is full"),
        ("attempt to write a readonly database", "read-only"),
        ("database is locked", "locked"),
    ],
)
@pytest.mark.parametrize(
    "fail_on", ["INSERT INTO attempts", "INSERT INTO scores", "attempt_key_points"]
)
def test_simulated_failure_mid_save_rolls_back(
    store: Store, error: str, expected: str, fail_on: str
) -> None:
    first = save(store)
    real = store._conn
    store._conn = FailingConnection(real, fail_on, error)  # type: ignore[assignment]
    with pytest.raises(StorageError) as err:
        save(store, "a second answer that cannot be saved")
    assert expected in err.value.message and "save the attempt" in err.value.message
    assert err.value.hint
    store._conn = real
    # nothing half-written, the first attempt intact, and saving works again afterwards
    assert [a.id for a in store.attempts()] == [first]
    assert store._conn.execute("SELECT COUNT(*) FROM scores").fetchone()[0] == 1
    assert store.attempt(first).transcript.text == "lower the learning rate please"
    assert store.integrity_check() == "ok"
    save(store, "third time lucky")
    assert len(store.attempts()) == 2


@pytest.fixture
def tiny_fs(tmp_path: Path) -> Iterator[Path]:
    """A real 320 KiB tmpfs (needs root and mount; skipped otherwise)."""
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tiny tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=320k", "tmpfs", str(mnt)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_real_disk_full_keeps_saved_attempts(tiny_fs: Path) -> None:
    store = Store.open(tiny_fs / "sayitout.db")
    saved = [save(store) for _ in range(3)]
    filler = tiny_fs / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:  # take every free byte
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    big = "word " * 20000
    with pytest.raises(StorageError) as err:
        for _ in range(50):
            save(store, big)
    assert "disk is full" in err.value.message or "Could not save" in err.value.message
    filler.unlink()
    assert [a.id for a in store.attempts(oldest_first=True)][:3] == saved
    assert store.integrity_check() == "ok"
    store.close()
    with Store.open(tiny_fs / "sayitout.db") as again:
        assert again.integrity_check() == "ok"
        assert {a.id for a in again.attempts()} >= set(saved)
        save(again)  # the session can carry on once there is space


def test_read_only_data_dir(tiny_fs: Path) -> None:
    store = Store.open(tiny_fs / "sayitout.db")
    first = save(store)
    store.close()
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_fs)], check=True)
    try:
        with pytest.raises(StorageError) as err:
            Store.open(tiny_fs / "sayitout.db")
        assert "Could not open the database" in err.value.message
        assert "read-only" in err.value.message
        assert err.value.hint
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(tiny_fs)], check=True)
    with Store.open(tiny_fs / "sayitout.db") as again:
        assert again.integrity_check() == "ok"
        assert [a.id for a in again.attempts()] == [first]


def test_uncreatable_data_dir(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where a directory should be")
    with pytest.raises(StorageError) as err:
        Store.open(blocker / "data" / "sayitout.db")
    assert "Cannot create the directory" in err.value.message


class _BusyAtFirst:
    """A connection whose first ``busy`` statements fail as a WAL switch racing another
    process's does: SQLITE_BUSY at once, without waiting out the busy timeout."""

    def __init__(self, busy: int, code: int = sqlite3.SQLITE_BUSY) -> None:
        self.busy, self.code, self.calls = busy, code, 0
        self.real = sqlite3.connect(":memory:")

    def execute(self, sql: str) -> sqlite3.Cursor:
        self.calls += 1
        if self.busy:
            self.busy -= 1
            exc = sqlite3.OperationalError("database is locked")
            exc.sqlite_errorcode = self.code  # type: ignore[attr-defined]
            raise exc
        if "journal_mode" in sql:
            return self.real.execute("SELECT 'wal'")
        return self.real.execute(sql)


def test_a_busy_wal_switch_at_first_open_is_retried(tmp_path: Path) -> None:
    from sayitout.store.db import _configure

    conn = _BusyAtFirst(busy=3)
    _configure(conn, tmp_path / "db.sqlite")  # type: ignore[arg-type]
    assert conn.busy == 0 and conn.calls > 3


def test_other_errors_at_open_are_not_retried(tmp_path: Path) -> None:
    from sayitout.store.db import _configure

    conn = _BusyAtFirst(busy=1, code=sqlite3.SQLITE_CORRUPT)
    with pytest.raises(StorageError):
        _configure(conn, tmp_path / "db.sqlite")  # type: ignore[arg-type]
    assert conn.calls == 1
