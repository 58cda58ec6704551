"""Disk full or a read-only data dir while saving: the user is told, the session goes on,
and nothing already saved is damaged.

With root (CI containers, this machine) the disk really fills: the database lives on a
tiny tmpfs. Without, a database connection that fails the way SQLite does on a full disk
stands in (``database or disk is full``), through the same code paths.
"""

from __future__ import annotations

import errno
import json
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from reliability.results_file import record_case
from sayitout.config import Settings
from sayitout.errors import StorageError
from sayitout.session import events as ev
from sayitout.session.engine import SessionEngine
from sayitout.session.plan import SessionPlan
from sayitout.session.services import SessionServices
from sayitout.speech.transcript import Transcript
from sayitout.store import Store
from support import fakes

QIDS = ("dl-initial-loss", "dl-fp16-nan", "dl-val-loss-rises")


@pytest.fixture
def tiny_fs(tmp_path: Path) -> Iterator[Path]:
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mnt)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(
            f"cannot mount a tiny tmpfs here ({done.stderr.strip()}); the stand-in test covers it"
        )
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def _fill(directory: Path) -> Path:
    """Fill the file system holding ``directory``; returns the filler file."""
    filler = directory / "filler.bin"
    with open(filler, "wb", buffering=0) as f:
        block = b"\0" * 4096
        try:
            while True:
                f.write(block)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def _score(qid: str):
    from sayitout.scoring.result import AnswerScore

    return AnswerScore(qid, 60, "partial", (), None, (), None, "an answer", 1, "fake")


class _Driver:
    """Answers every question by typing, then moves on; records the events."""

    def __init__(self, answers: list[str], between=None) -> None:
        self.events: list[ev.Event] = []
        self.answers = list(answers)
        self.between = between
        self.engine: SessionEngine | None = None
        self.done = threading.Event()

    def __call__(self, event: ev.Event) -> None:
        self.events.append(event)
        assert self.engine is not None
        if isinstance(event, ev.PhaseChanged) and event.phase is ev.Phase.AWAITING_ANSWER:
            self.engine.type_answer(self.answers.pop(0))
        elif isinstance(event, ev.AnswerScored):
            if self.between:
                self.between(len([e for e in self.events if isinstance(e, ev.AnswerScored)]))
            self.engine.next_question()
        elif isinstance(event, ev.SessionFinished):
            self.done.set()


def _run_session(db: Path, between) -> tuple[_Driver, SessionEngine]:
    from sayitout.bank.loader import load_bank

    bank = load_bank()
    services = SessionServices(
        settings=Settings(),
        bank_loader=lambda: bank,
        scorer=fakes.KeywordScorer(),
        transcriber=None,
        microphones=fakes.ScriptedMicrophones([], "typed answers"),
        speaker=None,
        store_opener=lambda: Store.open(db),
    )
    driver = _Driver(
        [
            "Ten classes, uniform softmax, so the loss is the natural log of ten, about 2.3.",
            "fp16 overflows, so use bf16 or loss scaling to avoid the NaN.",
            "It is overfitting; stop early or add regularisation and more data.",
        ],
        between,
    )
    plan = SessionPlan(count=3, order="in-order", question_ids=QIDS)
    engine = SessionEngine(services, plan, driver)
    driver.engine = engine
    engine.start()
    assert driver.done.wait(60), [type(e).__name__ for e in driver.events]
    engine.join(5)
    services.close()
    return driver, engine


def _check_saved(db: Path, expected: dict[int, str]) -> None:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = dict(conn.execute("SELECT id, question_id FROM attempts").fetchall())
        for aid, qid in expected.items():
            assert rows.get(aid) == qid
            (score_json,) = conn.execute(
                "SELECT score_json FROM attempts WHERE id = ?", (aid,)
            ).fetchone()
            json.loads(score_json)
    finally:
        conn.close()


def test_disk_full_mid_session(tiny_fs: Path) -> None:
    db = tiny_fs / "data" / "sayitout.db"
    filler: list[Path] = []

    def between(n_scored: int) -> None:
        if n_scored == 1:  # the first answer is saved; now the disk fills up
            filler.append(_fill(tiny_fs))
        elif n_scored == 2:  # the second failed to save; space comes back
            filler[0].unlink()

    driver, engine = _run_session(db, between)
    failures = [e for e in driver.events if isinstance(e, ev.SessionFailed)]
    scored = [e for e in driver.events if isinstance(e, ev.AnswerScored)]
    # the user was told, in words, and the session went on to the end
    assert failures, "no message about the full disk"
    assert any("disk is full" in f.message for f in failures), [f.message for f in failures]
    assert all(f.hint for f in failures)
    assert len(scored) == 3
    assert scored[0].attempt_id is not None
    assert scored[1].attempt_id is None  # not saved, but scored and shown
    assert scored[2].attempt_id is not None  # saved again once there was room
    assert (
        engine.summary is not None  # ended normally, with its summary
    )
    _check_saved(db, {scored[0].attempt_id: QIDS[0], scored[2].attempt_id: QIDS[2]})
    record_case(
        "storage_faults",
        "disk-full-tmpfs",
        {
            "times": 1,
            "passed": True,
            "message": failures[0].message.replace(str(tiny_fs), "<tmpfs>"),
        },
    )


def test_read_only_data_dir(tiny_fs: Path) -> None:
    """The data dir turned read-only between sessions (a full disk remounted read-only
    by the system, a backup tool): the next session is told, runs, and keeps the old."""
    db = tiny_fs / "data" / "sayitout.db"
    with Store.open(db) as store:
        kept = store.save_attempt(
            None, QIDS[0], "deep-learning", Transcript.typed("ln ten"), _score(QIDS[0])
        )
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_fs)], check=True)
    try:
        driver, _ = _run_session(db, None)
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(tiny_fs)], check=True)
    failures = [e for e in driver.events if isinstance(e, ev.SessionFailed)]
    scored = [e for e in driver.events if isinstance(e, ev.AnswerScored)]
    assert failures and all(f.hint for f in failures), [f.message for f in failures]
    # SQLite only says "unable to open": the message names the database, the hint says
    # to make its directory writable
    assert any(
        "read-only" in f.message or ("sayitout.db" in f.message and "writable" in (f.hint or ""))
        for f in failures
    ), [(f.message, f.hint) for f in failures]
    assert len(scored) == 3 and all(s.attempt_id is None for s in scored)
    _check_saved(db, {kept: QIDS[0]})
    record_case(
        "storage_faults",
        "read-only-tmpfs",
        {
            "times": 1,
            "passed": True,
            "message": failures[0].message.replace(str(tiny_fs), "<tmpfs>"),
        },
    )


class _FullConnection:
    """A connection whose writes fail like SQLite's on a full disk (reads still work)."""

    def __init__(self, inner: sqlite3.Connection, message: str) -> None:
        self._inner = inner
        self.message = message

    def execute(self, sql: str, *args):
        verb = sql.lstrip().split(None, 1)[0].upper()
        if verb in ("INSERT", "UPDATE", "DELETE"):
            raise sqlite3.OperationalError(self.message)
        return self._inner.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._inner, name)


@pytest.mark.parametrize(
    ("message", "expect"),
    [
        ("database or disk is full", "disk is full"),
        ("attempt to write a readonly database", "read-only"),
    ],
)
def test_store_write_failure_stand_in(tmp_path: Path, message: str, expect: str) -> None:
    db = tmp_path / "db.sqlite"
    with Store.open(db) as store:
        kept = store.save_attempt(
            None, QIDS[0], "deep-learning", Transcript.typed("ln ten"), _score(QIDS[0])
        )
        inner = store._conn
        store._conn = _FullConnection(inner, message)  # type: ignore[assignment]
        with pytest.raises(StorageError) as info:
            store.save_attempt(
                None, QIDS[1], "deep-learning", Transcript.typed("bf16"), _score(QIDS[1])
            )
        assert expect in info.value.message and str(db) in info.value.message
        assert info.value.hint
        with pytest.raises(StorageError):
            store.rescore(kept, _score(QIDS[0]))
        store._conn = inner
        assert store.count_attempts() == 1
        assert store.attempt(kept).transcript.text == "ln ten"
    _check_saved(db, {kept: QIDS[0]})
    record_case(
        "storage_faults",
        f"stand-in: {message}",
        {"times": 1, "passed": True, "message": info.value.message.replace(str(tmp_path), "<tmp>")},
    )


def test_recording_on_full_disk_is_kept_in_memory(tiny_fs: Path) -> None:
    """The recorder keeps the audio (and says so) when the FLAC cannot be written."""
    from sayitout.speech.audio import AnswerRecorder, ArrayMicrophone

    _fill(tiny_fs)
    t = np.arange(16000 * 2) / 16000
    audio = (0.3 * np.sin(2 * np.pi * 200 * t)).astype(np.float32)
    recorder = AnswerRecorder(ArrayMicrophone(audio, speed=0))
    try:
        result = recorder.record(path=tiny_fs / "answer.flac")
    except StorageError as exc:  # could not even create the file: told clearly
        assert "answer.flac" in exc.message and exc.hint
        record_case(
            "storage_faults",
            "recording-disk-full",
            {"times": 1, "passed": True, "message": exc.message.replace(str(tiny_fs), "<tmpfs>")},
        )
        return
    assert result.audio.size >= audio.size * 0.9
    assert result.error and "answer.flac" in result.error
    record_case(
        "storage_faults",
        "recording-disk-full",
        {"times": 1, "passed": True, "message": result.error.replace(str(tiny_fs), "<tmpfs>")},
    )
