"""Schema versions and migrations.

Every earlier schema version has a fixture ``fixtures/schema_v<N>.sql`` (a dump of a
real database at that version with a few attempts in it). Opening it must bring it
to the current version, keep a backup of the old file, and lose nothing. When the
schema changes, add one step to ``MIGRATIONS`` and one fixture here.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from sayitout.errors import StorageError
from sayitout.store import Store, schema
from sayitout.store.db import backup_path
from sayitout.store.schema import MIGRATIONS, schema_version

FIXTURES = Path(__file__).parent / "fixtures"


def fixture_versions() -> list[int]:
    found = sorted(
        int(m.group(1))
        for p in FIXTURES.glob("schema_v*.sql")
        if (m := re.match(r"schema_v(\d+)\.sql$", p.name))
    )
    return found


def build_from_fixture(version: int, path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.executescript((FIXTURES / f"schema_v{version}.sql").read_text())
    assert conn.execute("PRAGMA user_version").fetchone()[0] == version
    conn.close()


def test_every_version_has_a_fixture() -> None:
    # v1 is the first schema; every version since must have its fixture.
    assert fixture_versions() == list(range(1, schema_version() + 1))


@pytest.mark.parametrize("version", fixture_versions())
def test_open_database_of_every_version(version: int, tmp_path: Path) -> None:
    db = tmp_path / "sayitout.db"
    build_from_fixture(version, db)
    with Store.open(db) as store:
        assert store.version == schema_version()
        assert store.integrity_check() == "ok"
        attempts = store.attempts(oldest_first=True)
        assert [a.question_id for a in attempts] == [
            "dl-fp16-nan",
            "dl-val-loss-rises",
            "dl-fp16-nan",
        ]
        second = store.attempt(attempts[1].id)
        assert "<script>" in second.transcript.text
        assert second.recording_path == tmp_path / "recordings" / "2026-01" / (
            "20260101-100000-000000_dl-val-loss-rises.flac"
        )
        cli = store.attempt(attempts[2].id)
        assert cli.text == "loss scaling"
        assert [h.reason for h in cli.score_history] == ["initial", "correction"]
        # Scores made before v2 do not know their scorer; later ones do.
        assert bool(cli.summary.scorer_version) == (version >= 2)
        assert all(bool(h.scorer_version) == (version >= 2) for h in cli.score_history)
        assert store.sessions(include_cli=False)[0].attempt_count == 2
    if version < schema_version():
        assert backup_path(db, version).is_file()


def test_fresh_database_has_no_backup(tmp_path: Path) -> None:
    with Store.open(tmp_path / "new.db") as store:
        assert store.version == schema_version()
    assert not list(tmp_path.glob("*.bak-v*"))


def _next_step(conn: sqlite3.Connection) -> None:
    schema.run_script(conn, "ALTER TABLE attempts ADD COLUMN note TEXT;\n")


LATEST = schema_version()


def test_next_migration_backs_up_and_keeps_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The machinery the next version will use: one more step, a backup of the old file."""
    db = tmp_path / "sayitout.db"
    build_from_fixture(LATEST, db)
    monkeypatch.setattr(schema, "MIGRATIONS", [*MIGRATIONS, _next_step])
    from sayitout.store import db as store_mod

    monkeypatch.setattr(store_mod, "MIGRATIONS", schema.MIGRATIONS)
    monkeypatch.setattr(store_mod, "schema_version", lambda: len(schema.MIGRATIONS))
    with Store.open(db) as store:
        assert store.version == LATEST + 1
        assert len(store.attempts()) == 3
        rows = store._conn.execute("SELECT note FROM attempts").fetchall()
        assert [tuple(r) for r in rows] == [(None,)] * 3
    backup = backup_path(db, LATEST)
    conn = sqlite3.connect(backup)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 3
    conn.close()
    assert not list(tmp_path.glob("*.tmp"))


def test_failed_migration_leaves_old_version_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "sayitout.db"
    build_from_fixture(LATEST, db)

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE attempts ADD COLUMN half_done TEXT")
        conn.execute("THIS IS NOT SQL")

    from sayitout.store import db as store_mod

    monkeypatch.setattr(store_mod, "MIGRATIONS", [*MIGRATIONS, broken])
    monkeypatch.setattr(store_mod, "schema_version", lambda: len(MIGRATIONS) + 1)
    with pytest.raises(
        StorageError, match=f"upgrade the database from schema version {LATEST} to {LATEST + 1}"
    ):
        Store.open(db)
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
    cols = [r[1] for r in conn.execute("PRAGMA table_info(attempts)")]
    assert "half_done" not in cols
    assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 3
    conn.close()
    assert backup_path(db, LATEST).is_file()


def test_newer_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "sayitout.db"
    build_from_fixture(1, db)
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {schema_version() + 3}")
    conn.close()
    with pytest.raises(StorageError) as err:
        Store.open(db)
    assert "newer sayitout" in err.value.message and "upgrade sayitout" in (err.value.hint or "")
    conn = sqlite3.connect(db)  # untouched
    assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 3
    conn.close()
