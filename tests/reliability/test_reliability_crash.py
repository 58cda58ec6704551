"""SIGKILL real headless practice sessions at random moments: nothing completed is lost.

CI runs a few kills (``SAYITOUT_CRASH_KILLS``, default 7: one per phase);
``bench/crash.py`` runs 50+. See ``crash_harness.py`` for the checks after each kill.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reliability import crash_harness
from reliability.results_file import record

pytestmark = pytest.mark.e2e


def test_sigkill_loses_nothing(tmp_path: Path) -> None:
    kills = int(os.environ.get("SAYITOUT_CRASH_KILLS", "7"))
    seed = int(os.environ.get("SAYITOUT_CRASH_SEED", "7"))
    try:
        answers = crash_harness.make_answers(tmp_path / "answers")
    except Exception as exc:  # piper missing: nothing to speak the answers with
        pytest.skip(f"cannot synthesise the spoken answers: {exc}")
    # every phase once (no pure random time: CI wants each phase covered), then at random
    targets = [t for t in crash_harness.TARGETS if t != "random"]
    figures = crash_harness.run(
        kills,
        tmp_path / "home",
        seed=seed,
        answers_dir=answers["dl-fp16-nan"].parent,
        targets=targets,
    )
    data = figures.to_dict()
    record("crash_ci", {**data, "seed": seed})
    assert figures.kills == kills
    assert figures.integrity_failures == 0, data["problems"]
    assert figures.attempts_lost == 0, data["problems"]
    assert not [p for p in figures.problems if "never reached" not in p], data["problems"]
    # the sessions really ran: attempts were saved between kills and checked after each
    # (the after-saved kill comes right after one was reported)
    assert figures.attempts_checked > 0
    # whatever a kill left on disk was recovered or explained
    assert figures.orphans_recovered + figures.orphans_unusable == figures.orphans_found
