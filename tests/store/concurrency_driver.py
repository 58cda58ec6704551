"""One ``sayitout`` command in its own process, started on a signal (for the race test).

    python concurrency_driver.py GO_FILE history --json
    python concurrency_driver.py GO_FILE score QUESTION_ID --save --text "..."
    SAYITOUT_TEST_BUSY_TIMEOUT_S=0.2 python concurrency_driver.py ...   (wait less for a lock)

Everything is the real command (argument parsing, the bank, opening and migrating the
store, saving, printing) except the scorer of ``score``, which is a fixed stand-in:
the race is about the database, and loading the embedding model in a dozen
processes at once would take minutes on a small CI machine without changing it.
The process imports everything first, then waits for ``GO_FILE`` to exist, so all
of them open the fresh database within a few milliseconds of each other.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from sayitout.bank.models import Rubric
from sayitout.cli import main, score_cmds
from sayitout.scoring.result import AnswerScore, KeyPointResult
from sayitout.speech.transcript import Transcript
from sayitout.store import db


class FixedScorer:
    """Every key point half covered: a real :class:`AnswerScore` without a model."""

    def score(self, rubric: Rubric, transcript: Transcript) -> AnswerScore:
        kps = tuple(
            KeyPointResult(kp.id, kp.text, kp.weight, "partial", 0.6, None)
            for kp in rubric.key_points
        )
        return AnswerScore(
            question_id=rubric.question_id,
            score=50,
            verdict="half there",
            key_points=kps,
            numeric=None,
            misconceptions=(),
            delivery=None,
            answer=transcript.text,
            rubric_version=rubric.version,
            embedding_model="fixed",
        )


def _fixed_scorer(args: Any) -> FixedScorer:
    return FixedScorer()


def run(go: Path, argv: list[str]) -> int:
    score_cmds._scorer = _fixed_scorer  # type: ignore[assignment]
    if wait := os.environ.get("SAYITOUT_TEST_BUSY_TIMEOUT_S"):
        db.BUSY_TIMEOUT_S = float(wait)
    deadline = time.monotonic() + 60
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.002)
    return main(argv)


if __name__ == "__main__":
    sys.exit(run(Path(sys.argv[1]), sys.argv[2:]))
