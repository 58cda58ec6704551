"""Two (or twelve) processes at once on a fresh data dir (issue 13 §3).

Each trial starts 12 real ``sayitout`` processes on a new data dir at the same moment:
half list the history as JSON, half score and save an answer. Every one must succeed:
no "table already exists" from two first runs migrating together, no lost answer,
no traceback; afterwards the database holds every saved attempt and is intact.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sayitout.store import Store
from sayitout.store.schema import schema_version

DRIVER = Path(__file__).with_name("concurrency_driver.py")
TRIALS = 10
PROCESSES = 12
QUESTION = "dl-fp16-nan"


def _env(home: Path) -> dict[str, str]:
    src = str(Path(__file__).resolve().parents[2] / "src")
    path = os.environ.get("PYTHONPATH", "")
    return {
        **os.environ,
        "SAYITOUT_HOME": str(home),
        "PYTHONPATH": src + (os.pathsep + path if path else ""),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }


def _trial(home: Path) -> list[str]:
    """Run one trial; the problems seen (empty when every process did its job)."""
    go = home.parent / f"{home.name}.go"
    env = _env(home)
    procs: list[tuple[list[str], subprocess.Popen[str]]] = []
    for i in range(PROCESSES):
        if i % 2:
            argv = ["score", QUESTION, "--save", "--json", "--text", f"loss scaling, answer {i}"]
        else:
            argv = ["history", "--json"]
        p = subprocess.Popen(
            [sys.executable, str(DRIVER), str(go), *argv],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        procs.append((argv, p))
    time.sleep(0.3)  # let every process finish importing and wait on the go file
    go.touch()
    problems: list[str] = []
    for argv, p in procs:
        out, err = p.communicate(timeout=120)
        what = " ".join(argv[:2])
        if p.returncode != 0 or "Traceback" in err:
            problems.append(f"{what}: exit {p.returncode}: {err.strip()[-300:]}")
            continue
        try:
            value = json.loads(out)
        except ValueError:
            problems.append(f"{what}: not JSON: {out[:200]!r}")
            continue
        if argv[0] == "score" and (value.get("score") != 50 or "saved as attempt" not in err):
            problems.append(f"{what}: no score or not saved: {out[:100]!r} {err[-200:]!r}")
    with Store.open(home / "data" / "sayitout.db") as store:
        saved = store.count_attempts()
        if saved != PROCESSES // 2:
            problems.append(f"{saved} attempts saved, not {PROCESSES // 2}")
        if store.version != schema_version() or store.integrity_check() != "ok":
            problems.append(f"version {store.version}, integrity {store.integrity_check()}")
    return problems


@pytest.mark.timeout(600)
def test_twelve_first_runs_at_once_never_fail(tmp_path: Path) -> None:
    failures: dict[int, list[str]] = {}
    for trial in range(TRIALS):
        problems = _trial(tmp_path / f"home{trial}")
        if problems:
            failures[trial] = problems
    assert not failures, (
        f"{len(failures)} of {TRIALS} trials of {PROCESSES} processes failed: {failures}"
    )


# ------------------------------------------- a database that cannot take the answer
def _locked(db: Path) -> None:
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # held until the test ends (the connection is kept)
    _HELD.append(holder)


def _damaged(db: Path) -> None:
    db.write_bytes(b"this is not a database" * 100)


_HELD: list[sqlite3.Connection] = []


@pytest.mark.parametrize("spoil", [_locked, _damaged], ids=["locked", "damaged"])
def test_score_save_prints_the_score_first_and_keeps_the_answer(
    spoil: Callable[[Path], None], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    with Store.open(home / "data" / "sayitout.db"):
        pass
    spoil(home / "data" / "sayitout.db")
    go = tmp_path / "go"
    go.touch()
    answer = "I would use loss scaling — ünïcode kept"
    env = {**_env(home), "SAYITOUT_TEST_BUSY_TIMEOUT_S": "0.2"}
    try:
        done = subprocess.run(
            [
                sys.executable,
                str(DRIVER),
                str(go),
                "score",
                QUESTION,
                "--save",
                "--json",
                "--text",
                answer,
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        for held in _HELD:
            held.close()
        _HELD.clear()
    out, err, code = done.stdout, done.stderr, done.returncode
    assert code == 1
    assert json.loads(out)["score"] == 50  # the score came out first
    assert "the score above was not saved" in err and "Traceback" not in err
    assert "permission" not in err
    kept = Path(err.split("your answer is kept in ")[1].split("\n")[0])
    assert kept.read_text(encoding="utf-8") == answer
    assert kept.stat().st_mode & 0o077 == 0
    assert f"sayitout score {QUESTION} --save --text - < {kept}" in err
