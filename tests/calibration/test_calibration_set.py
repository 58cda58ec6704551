"""The calibration set is well formed: every question, every grade, spoken style."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from sayitout.bank.loader import load_bank

CALIBRATION = Path(__file__).with_name("deep-learning.jsonl")
GRADES = ("strong", "partial", "wrong")


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    lines = CALIBRATION.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_fields_and_grades(rows: list[dict[str, str]]) -> None:
    for row in rows:
        assert set(row) <= {"question_id", "grade", "answer", "note"}, row
        assert row["grade"] in GRADES
        assert len(row["answer"].split()) >= 5


def test_every_question_has_strong_partial_and_two_wrong(rows: list[dict[str, str]]) -> None:
    deck = load_bank(builtin=True, user=False).decks["deep-learning"]
    ids = {q.id for q in deck.questions}
    assert {r["question_id"] for r in rows} == ids
    counts = Counter((r["question_id"], r["grade"]) for r in rows)
    for qid in ids:
        assert counts[qid, "strong"] >= 1, qid
        assert counts[qid, "partial"] >= 1, qid
        assert counts[qid, "wrong"] >= 2, qid


def test_written_as_speech(rows: list[dict[str, str]]) -> None:
    for row in rows:
        answer = row["answer"]
        assert answer == answer.lower(), answer  # transcripts of speech, no capitals
        assert not re.search(r"[.,;:!?]", answer), answer  # and no punctuation
        assert not re.search(r"\b\d", answer), answer  # numbers in words (fp16 is a name)
    fillers = sum(bool(re.search(r"\b(um|uh|like|you know)\b", r["answer"])) for r in rows)
    assert fillers / len(rows) > 0.5
