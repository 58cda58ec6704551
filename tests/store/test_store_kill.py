"""A process killed with SIGKILL while saving loses nothing it was told was saved.

A child saves attempts in a loop and prints each id once ``save_attempt`` returns; the
parent kills it at a random moment. Every printed id must be in the database, intact,
and ``PRAGMA integrity_check`` must say ``ok``. (The full-app crash harness lives with
the reliability tests; this one pins the store's own promise.)
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sayitout.store import Store

KILLS = 8

CHILD = textwrap.dedent(
    """
    import sys
    from sayitout.store import Store
    from support.synthetic import make_score, make_transcript

    store = Store.open(sys.argv[1])
    text = "we lower the learning rate and clip the gradients " * 40
    kps = [("a", "Lower the learning rate", "covered"), ("b", "Clip", "missed")]
    print("ready", flush=True)
    while True:
        sid = store.start_session("deck", {"n": 1})
        aid = store.save_attempt(
            sid, "dl-fp16-nan", "deck", make_transcript(text),
            make_score("dl-fp16-nan", text, kps), None,
        )
        store.rescore(aid, make_score("dl-fp16-nan", text, kps, score=77))
        print(aid, flush=True)
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_while_saving_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "sayitout.db"
    rng = random.Random(5)
    confirmed: set[int] = set()
    tests = str(Path(__file__).resolve().parents[1])  # the child imports support.synthetic
    path = os.pathsep.join(p for p in (tests, os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": path}
    for _ in range(KILLS):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        time.sleep(rng.uniform(0.05, 0.6))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        confirmed |= {int(line) for line in out.split() if line.isdigit()}
        with Store.open(db) as store:
            assert store.integrity_check() == "ok"
            present = {a.id for a in store.attempts()}
            assert confirmed <= present, f"lost attempts: {sorted(confirmed - present)}"
            for aid in confirmed:
                rec = store.attempt(aid)
                assert rec.transcript.text.startswith("we lower")
                assert rec.score == 77 and len(rec.score_history) == 2
    assert len(confirmed) >= KILLS  # the children did save between the kills
