"""Typed answers that ``score --save`` kept in ``unsaved/`` (the history could not be
written) are listed and saved by ``sayitout recover``, once, losing nothing."""

from __future__ import annotations

import contextlib
import io
import shutil
import sys
from datetime import timedelta

import pytest

from sayitout.cli import main
from sayitout.locations import locations
from sayitout.recovery import Outcome, recover_unsaved
from sayitout.store import Store
from sayitout.store.unsaved import NO_QUESTION, keep_unsaved_answer, unsaved_answers
from support.fakes import KeywordScorer

QUESTION = "dl-fp16-nan"
ANSWER = "Use bf16 or loss scaling: fp16 overflows above sixty five thousand."


def _cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = main(list(argv))
    finally:
        sys.stdin = old
    return code, out.getvalue()


def test_kept_answers_are_found_with_their_question_and_time() -> None:
    first = keep_unsaved_answer(QUESTION, ANSWER)
    second = keep_unsaved_answer(NO_QUESTION, "scored against a rubric file")
    (first.parent / "notes.txt").write_text("not a kept answer")
    found = unsaved_answers()
    assert [a.path for a in found] == [first, second]  # oldest first, others left out
    assert found[0].question_id == QUESTION and found[0].read() == ANSWER
    assert found[0].given_at.tzinfo is not None
    assert first.parent == locations().data_dir / "unsaved"


def test_recover_saves_kept_answers_once_and_keeps_what_it_cannot_save() -> None:
    good = keep_unsaved_answer(QUESTION, ANSWER)
    rubric_file = keep_unsaved_answer(NO_QUESTION, "an answer to a rubric file")
    empty = keep_unsaved_answer("dl-initial-loss", "  \n")
    gone = keep_unsaved_answer("no-such-question", "an answer to a removed question")
    backup = good.with_suffix(".bak")
    shutil.copy(good, backup)
    given = {a.path: a.given_at for a in unsaved_answers()}
    scorer = KeywordScorer()
    with Store.open() as store:
        results = {r.path: r for r in recover_unsaved(store, scorer=scorer)}
        assert results[good].outcome is Outcome.RECOVERED and results[good].attempt_id
        assert results[rubric_file].outcome is Outcome.NO_QUESTION
        assert "--rubric FILE --save --text - <" in results[rubric_file].message
        assert results[empty].outcome is Outcome.NO_SPEECH
        assert results[gone].outcome is Outcome.UNKNOWN_QUESTION
        (attempt,) = store.attempts()
        record = store.attempt(attempt.id)
        assert record.transcript.text == ANSWER and record.transcript.model == "typed"
        assert attempt.question_id == QUESTION and attempt.session_id is None
        assert abs(attempt.created_at - given[good]) < timedelta(seconds=1)
        # saved: its file goes; what could not be saved stays, with its text
        assert not good.exists()
        assert rubric_file.exists() and empty.exists() and gone.exists()

        # An earlier run saved it but could not remove the file: not saved twice.
        shutil.move(backup, good)
        calls = scorer.calls
        (again,) = recover_unsaved(store, [a for a in unsaved_answers() if a.path == good])
        assert again.outcome is Outcome.RECOVERED and "already saved" in again.message
        assert again.attempt_id == attempt.id and not good.exists()
        assert store.count_attempts() == 1 and scorer.calls == calls

        # --discard clears away only the empty one; the others still hold an answer
        recover_unsaved(store, scorer=scorer, discard_unusable=True)
        assert not empty.exists() and rubric_file.exists() and gone.exists()


def test_recover_cli_lists_kept_answers_and_changes_nothing_without_yes() -> None:
    kept = keep_unsaved_answer(QUESTION, ANSWER)
    code, out = _cli("recover", "--list")
    assert code == 0, out
    assert "1 typed answer kept when the history could not be saved" in out
    assert QUESTION in out and str(kept) in out
    code, out = _cli("recover")  # no terminal to ask on: list only
    assert code == 0 and "sayitout recover --yes" in out
    assert kept.exists()
    with Store.open() as store:
        assert store.count_attempts() == 0


@pytest.mark.e2e
def test_recover_cli_saves_kept_answers_with_the_real_scorer() -> None:
    kept = keep_unsaved_answer(QUESTION, ANSWER)
    code, out = _cli("recover", "--yes")
    assert code == 0, out
    assert "[1/1] ok" in out and "Recovered 1 of 1; 0 left on disk." in out
    assert not kept.exists()
    with Store.open() as store:
        (attempt,) = store.attempts()
        assert attempt.question_id == QUESTION and 0 <= attempt.score <= 100
    code, out = _cli("recover", "--yes")  # a second run finds nothing and saves nothing
    assert code == 0 and "No unsaved recordings or kept answers" in out
    with Store.open() as store:
        assert store.count_attempts() == 1
