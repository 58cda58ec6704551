"""``sayitout rescore``: stored answers scored again, old scores kept, versions recorded."""

from __future__ import annotations

import io
from collections.abc import Iterable
from contextlib import redirect_stderr, redirect_stdout
from datetime import UTC, datetime, timedelta

import pytest

from sayitout.bank.models import Rubric
from sayitout.scoring import SCORER_VERSION
from sayitout.scoring.result import AnswerScore
from sayitout.speech.transcript import Transcript
from sayitout.store import AttemptFilter, Store
from sayitout.store.rescoring import rescore_attempts
from support.synthetic import make_score, make_transcript

T0 = datetime(2026, 11, 1, 9, tzinfo=UTC)


def rubric(qid: str, version: int = 1) -> Rubric:
    return Rubric(
        question_id=qid,
        version=version,
        key_points=[{"id": "a", "text": "Point A"}],
        model_answer="A.",
    )


class LengthScorer:
    """Scores an answer by its length (so a correction changes the score visibly)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def score_many(self, items: Iterable[tuple[Rubric, Transcript | str]]) -> list[AnswerScore]:
        out = []
        for r, answer in items:
            text = answer.text if isinstance(answer, Transcript) else answer
            self.seen.append(text)
            out.append(
                make_score(
                    r.question_id,
                    text,
                    [("a", "Point A", "covered")],
                    score=min(100, len(text)),
                    rubric_version=r.version,
                )
            )
        return out


def old_attempt(store: Store, qid: str, text: str, day: int, score: int = 10) -> int:
    return store.save_attempt(
        None,
        qid,
        "demo",
        make_transcript(text),
        make_score(qid, text, [("a", "Point A", "missed")], score=score),
        created_at=T0 + timedelta(days=day),
        scorer_version="",  # made before scorer versions were recorded
    )


def test_rescore_keeps_old_scores_and_records_the_scorer(store: Store) -> None:
    first = old_attempt(store, "q1", "x" * 40, 0)
    second = old_attempt(store, "q2", "y" * 70, 1)
    store.rescore(second, make_score("q2", "y", [("a", "A", "missed")], score=5), "z" * 55)
    gone = old_attempt(store, "gone", "whatever", 2)
    scorer = LengthScorer()
    rubrics = {"q1": rubric("q1"), "q2": rubric("q2", version=3)}
    outcome = rescore_attempts(store, AttemptFilter(), rubrics.get, scorer)
    assert [(r.attempt_id, r.old_score, r.new_score) for r in outcome.rescored] == [
        (first, 10, 40),
        (second, 5, 55),  # the corrected text is what gets scored
    ]
    assert outcome.no_rubric == {"gone": 1} and outcome.up_to_date == 0
    record = store.attempt(second)
    assert [h.reason for h in record.score_history] == ["initial", "correction", "rescore"]
    assert [h.scorer_version for h in record.score_history] == ["", SCORER_VERSION, SCORER_VERSION]
    assert record.summary.scorer_version == SCORER_VERSION
    assert record.summary.rubric_version == 3 and record.text == "z" * 55
    assert store.attempt(gone).score == 10  # left alone
    # A second run finds everything up to date.
    again = rescore_attempts(store, AttemptFilter(), rubrics.get, scorer)
    assert again.rescored == [] and again.up_to_date == 2
    # --all scores them again anyway; a new rubric version makes one out of date.
    assert (
        len(rescore_attempts(store, AttemptFilter(), rubrics.get, scorer, every=True).rescored) == 2
    )
    rubrics["q1"] = rubric("q1", version=2)
    assert [
        r.attempt_id for r in rescore_attempts(store, AttemptFilter(), rubrics.get, scorer).rescored
    ] == [first]


def test_dry_run_and_filters_save_nothing_outside(store: Store) -> None:
    a = old_attempt(store, "q1", "x" * 40, 0)
    b = old_attempt(store, "q1", "x" * 60, 10)
    seen: list[tuple[int, int]] = []
    outcome = rescore_attempts(
        store,
        AttemptFilter(since=T0 + timedelta(days=5)),
        {"q1": rubric("q1")}.get,
        LengthScorer(),
        dry_run=True,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert [r.attempt_id for r in outcome.rescored] == [b] and not outcome.saved
    assert seen == [(0, 1), (1, 1)]
    assert store.attempt(a).score == 10 and store.attempt(b).score == 10
    assert len(store.attempt(b).score_history) == 1


def test_rescore_command(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from sayitout.cli import main, score_cmds

    old_attempt(store, "dl-fp16-nan", "loss scaling " * 5, 0)
    old_attempt(store, "retired-question", "text", 1)
    monkeypatch.setattr(score_cmds, "_scorer", lambda args, bank=None: LengthScorer())

    def run(*argv: str) -> tuple[int, str]:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main(["rescore", *argv])
        return code, out.getvalue() + err.getvalue()

    code, text = run("--dry-run")
    assert code == 0 and "Would rescore 1 attempt" in text and "Nothing was saved" in text
    assert "retired-question: not in the bank" in text and "10 ->  65" in text
    code, text = run()
    assert code == 0 and "Rescored 1 attempt" in text and "Earlier scores are kept" in text
    code, text = run("--since", "2026-11-01")
    assert "1 already scored by scorer" in text
    code, text = run("--question", "dl-fp16-nan", "--all")
    assert "Rescored 1 attempt" in text
    code, text = run("--question", "no-such-id")
    assert code == 2 and "no-such-id" in text
    code, text = run("--since", "9999-01-01")
    assert code == 0 and "nothing to rescore" in text
