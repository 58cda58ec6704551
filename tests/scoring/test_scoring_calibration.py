"""The scorer against the hand-written calibration set (tests/calibration/).

Two parts: ``deep-learning.jsonl`` is the development part (thresholds are fitted on it),
``deep-learning-test.jsonl`` the test part (nothing is fitted on it). The dev tests keep the
quality reached there from slipping; the test-part tests hold the figures the scorer
reaches on answers it was not fitted on, and the issue's targets run as non-strict xfails
so that progress shows. bench/scoring.py prints every figure, by answer style.

The first 145 dev answers (style ``original``) are the set the thresholds were first fitted
on; on them every question still orders strong > partial > wrong, except the questions in
``KNOWN_MISORDERED`` (reported as non-strict xfails, and asserted to stay few).
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from pathlib import Path

import pytest
from scipy.stats import spearmanr

CALIBRATION = Path(__file__).resolve().parents[1] / "calibration"
DEV = CALIBRATION / "deep-learning.jsonl"
TEST = CALIBRATION / "deep-learning-test.jsonl"
GRADES = {"strong": 2, "partial": 1, "wrong": 0}
NON_ANSWERS = ("keyword_list", "read_back")

KNOWN_MISORDERED = {
    "dl-7b-adam-memory": "the partial (84 GB, no master copy) and the wrong answer (28 GB, "
    "'the optimizer state lives on the cpu so it doesn't count') both state a wrong number "
    "with most of the reasoning, so both reach the wrong-number ceiling of 30: a tie",
    "dl-cosine-halfway": "the partial answer says '1.5' without the e-4 and states no key "
    "point; it scores 0 like the wrong answers (and a false 'drops to zero' flag)",
}


def _read(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


DEV_ROWS, TEST_ROWS = _read(DEV), _read(TEST)
ORIGINAL = [r for r in DEV_ROWS if r.get("style") == "original"]
QUESTIONS = sorted({r["question_id"] for r in ORIGINAL})
pytestmark = pytest.mark.skipif(
    not (DEV_ROWS and TEST_ROWS), reason=f"no calibration set in {CALIBRATION}"
)


@pytest.fixture(scope="module")
def scored(deck_scorer) -> dict[str, list[tuple[dict, int]]]:
    """Both parts scored in one batch: {"dev": [(row, score)...], "test": [...]}, by a
    scorer that knows the deck, as the app's does."""
    from sayitout.bank.loader import load_bank

    bank = load_bank(user=False)
    rows = DEV_ROWS + TEST_ROWS
    results = deck_scorer.score_many([(bank.rubric(r["question_id"]), r["answer"]) for r in rows])
    pairs = [(r, res.score) for r, res in zip(rows, results, strict=True)]
    return {"dev": pairs[: len(DEV_ROWS)], "test": pairs[len(DEV_ROWS) :]}


def spearman(a: list[float], b: list[float]) -> float:
    """Rank correlation (ties get their mean rank); 0 when either side is constant."""
    if len(set(a)) < 2 or len(set(b)) < 2:
        return 0.0
    return float(spearmanr(a, b).statistic)


def figures(pairs: list[tuple[dict, int]]) -> dict[str, float]:
    strong = [s for r, s in pairs if r["grade"] == "strong"]
    wrong = [s for r, s in pairs if r["grade"] == "wrong"]
    by_q: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for r, s in pairs:
        by_q[r["question_id"]][r["grade"]].append(s)
    ok = total = 0
    for g in by_q.values():
        for hi, lo in (("strong", "partial"), ("partial", "wrong"), ("strong", "wrong")):
            for a in g[hi]:
                for b in g[lo]:
                    total += 1
                    ok += a > b
    return {
        "spearman": spearman([GRADES[r["grade"]] for r, _ in pairs], [s for _, s in pairs]),
        "strong_ge70": sum(s >= 70 for s in strong) / len(strong),
        "wrong_le30": sum(s <= 30 for s in wrong) / len(wrong),
        "pairwise": ok / total,
        "non_answer_max": max(s for r, s in pairs if r["style"] in NON_ANSWERS),
        "mean_strong": statistics.mean(strong),
        "mean_wrong": statistics.mean(wrong),
    }


# ------------------------------------------------------------------ the original 145 (dev)


@pytest.fixture(scope="module")
def original_by_question(scored) -> dict[str, dict[str, list[int]]]:
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for row, score in scored["dev"]:
        if row["style"] == "original":
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
def test_original_strong_above_partial_above_wrong(original_by_question, qid: str) -> None:
    g = original_by_question[qid]
    assert g["strong"] and g["partial"] and g["wrong"], f"{qid} lacks a grade"
    assert min(g["strong"]) > max(g["partial"]), (qid, dict(g))
    assert min(g["partial"]) > max(g["wrong"]), (qid, dict(g))


def test_known_misses_stay_few() -> None:
    assert len(KNOWN_MISORDERED) <= 5
    assert set(KNOWN_MISORDERED) <= set(QUESTIONS)


def test_original_bands(scored) -> None:
    pairs = [(r, s) for r, s in scored["dev"] if r["style"] == "original"]
    strong = [s for r, s in pairs if r["grade"] == "strong"]
    partial = [s for r, s in pairs if r["grade"] == "partial"]
    wrong = [s for r, s in pairs if r["grade"] == "wrong"]
    # every strong answer scores 60 or more; wrong answers 40 or less (one miss allowed)
    assert min(strong) >= 60, sorted(strong)[:5]
    assert sum(s <= 40 for s in wrong) >= len(wrong) - 1, sorted(wrong)[-5:]
    assert statistics.mean(strong) >= 80
    assert statistics.mean(wrong) <= 12
    assert statistics.mean(wrong) < statistics.mean(partial) < statistics.mean(strong)


# ------------------------------------------------------------------ whole parts

# Floors a little under what the scorer reached. Raise them as the scorer improves; never
# lower them to let a change through. The parts were remade every round on 2026-12-01/06:
# each time the test part, once read, joined development and a fresh test part was
# written. The fifty-eighth round's floors: dev from SCORER_VERSION 2026.12.61 scoring
# the 14,585 dev answers with the shipped judge (fitted on 442 of them: a regression guard,
# not a measure). Dev grew by the fifty-seventh round's test part; the round's start scorer
# read the grown dev at 0.9332 / 99.51 % / 98.82 % / 97.94 %, the end scorer at 0.9333 /
# 99.51 % / 98.84 % / 97.94 %. The floors hold (the fifty-seventh round raised the
# wrong-answer one 0.987 -> 0.988). (The fifty-third round lowered the
# wrong-answer floor 0.988 -> 0.987 for the data, not for a change: even its start
# scorer read the grown dev at 98.76 %.)
# The fortieth round lowered the dev floors, knowingly, for one change: the int8 runtime
# (``minilm_int8``; docs/design.md, "The model's runtime"); the forty-third lowered two as
# dev grew harder.
# Test from 2026.12.61's one reading of the fresh test part (23:28 UTC on 2026-12-07,
# with the round's start scorer beside it: docs/evaluation.md, "fifty-eighth round"). The
# test part is new, so its floors follow it, one answer under each share it reached
# (95.5 % >= 70 and 97.0 % <= 30), and a little under its Spearman (0.9156) and pairs
# ordered (97.77 %).
DEV_FLOOR = {"spearman": 0.931, "strong_ge70": 0.995, "wrong_le30": 0.988, "pairwise": 0.978}
TEST_FLOOR = {"spearman": 0.913, "strong_ge70": 0.946, "wrong_le30": 0.959, "pairwise": 0.975}
MEAN_WRONG_MAX = {"dev": 6.5, "test": 9.0}
"""The highest mean score of a part's wrong answers (dev 6.0, test 8.2 in 2026.12.61)."""
# 2026.12.61 read the fifty-eighth round's test part (264) at 0.9156 / 95.5 % / 97.0 % / 97.8 %
# (its start scorer, 2026.12.60, alike under the full rubrics: no test answer's score moved);
# 2026.12.60 read the fifty-seventh round's test part (264) at 0.9351 / 97.7 % / 97.0 % / 98.6 %
# (its start scorer, 2026.12.59, alike: no test answer's score moved);
# 2026.12.59 read the fifty-sixth round's test part (264) at 0.9253 / 97.7 % / 97.0 % / 98.1 %
# (its start scorer, 2026.12.58, alike: no test answer's score moved);
# 2026.12.58 read the fifty-fifth round's test part (264) at 0.9437 / 98.5 % / 97.0 % / 98.6 %
# (its start scorer, 2026.12.57, alike: no test answer's score moved);
# 2026.12.57 read the fifty-fourth round's test part (264) at 0.9286 / 97.7 % / 98.0 % / 97.5 %
# (its start scorer, 2026.12.56, alike: no test answer's score moved under the full rubrics);
# 2026.12.56 read the fifty-third round's test part (264) at 0.9320 / 99.2 % / 97.0 % / 97.8 %
# (its start scorer, 2026.12.55, alike: no test answer's score moved);
# 2026.12.55 read the fifty-second round's test part (264) at 0.9308 / 97.0 % / 94.9 % / 98.3 %
# (its start scorer, 2026.12.54, alike: no test answer's score moved);
# 2026.12.54 read the fifty-first round's test part (264) at 0.9307 / 98.5 % / 98.0 % / 97.9 %
# (its start scorer, 2026.12.53: 0.9292 / 97.7 % / 97.0 % / 97.8 %; two answers moved);
# 2026.12.53 read the fiftieth round's test part (264) at 0.9319 / 98.5 % / 96.0 % / 97.8 %
# (its start scorer, 2026.12.52, alike: no test answer's score moved);
# 2026.12.52 read the forty-ninth round's test part (264) at 0.9285 / 99.2 % / 94.9 % / 97.0 %
# (its start scorer, 2026.12.51, alike: no test answer's score moved);
# 2026.12.51 read the forty-eighth round's test part (264) at 0.9245 / 97.0 % / 97.0 % / 97.3 %
# (its start scorer, 2026.12.50, alike: no test answer's score moved);
# 2026.12.50 read the forty-seventh round's test part (264) at 0.9248 / 98.5 % / 93.9 % / 96.7 %
# (its start scorer, 2026.12.49, alike: no test answer's score moved);
# 2026.12.49 read the forty-sixth round's test part (264) at 0.9235 / 98.5 % / 98.0 % / 97.0 %
# (its start scorer, 2026.12.48: 0.9225 / 98.5 % / 97.0 % / 97.0 %; one answer moved, 35 -> 0);
# 2026.12.48 read the forty-fifth round's test part (264) at 0.929 / 97.0 % / 99.0 % / 98.4 %
# (its start scorer, 2026.12.47: 0.926 / 97.0 % / 98.0 % / 98.4 %; three answers moved);
# 2026.12.47 read the forty-fourth round's test part (264) at 0.926 / 99.2 % / 99.0 % / 98.4 %
# (its start scorer, 2026.12.46, alike: no test answer's score moved);
# 2026.12.46 read the forty-third round's test part (264) at 0.921 / 96.2 % / 94.9 % / 96.8 %
# (its start scorer, 2026.12.45, alike: no test answer's score moved);
# 2026.12.45 read the forty-second round's test part (264) at 0.911 / 95.5 % / 98.0 % / 95.7 %
# (its start scorer, 2026.12.44, alike: no test answer's score moved);
# 2026.12.44 read the forty-first round's test part (264) at 0.882 / 93.9 % / 92.9 % / 93.6 %
# (its start scorer, 2026.12.43: 0.881 / 93.9 % / 92.9 % / 93.5 %; one answer moved, 93 -> 100);
# 2026.12.43 read the fortieth round's test part (264) at 0.927 / 96.2 % / 99.0 % / 97.1 %
# (its start scorer, 2026.12.42, float32: 0.927 / 95.5 % / 99.0 % / 97.1 %; ten answers moved);
# 2026.12.42 read the thirty-ninth round's test part (264) at 0.909 / 99.2 % / 96.0 % / 96.8 %
# (its start scorer, 2026.12.41, alike: no test answer's score moved);
# 2026.12.41 read the thirty-eighth round's test part (264) at 0.930 / 98.5 % / 98.0 % / 97.8 %
# (its start scorer, 2026.12.40: 0.930 / 98.5 % / 98.0 % / 97.9 %; one partial moved 24 -> 23);
# 2026.12.40 read the thirty-seventh round's test part (264) at 0.903 / 97.0 % / 92.9 % / 96.2 %
# (its start scorer, 2026.12.39, alike: no test answer's score moved);
# 2026.12.39 read the thirty-sixth round's test part (264) at 0.915 / 97.7 % / 99.0 % / 95.9 %
# (its start scorer, 2026.12.38, alike: no test answer's score moved);
# 2026.12.38 read the thirty-fifth round's test part (264) at 0.903 / 95.5 % / 90.9 % / 95.7 %
# (its start scorer, 2026.12.37, alike: no test answer's score moved);
# 2026.12.37 read the thirty-fourth round's test part (264) at 0.919 / 97.7 % / 98.0 % / 96.5 %
# (its start scorer, 2026.12.36, alike: no figure moved, to four decimals);
# 2026.12.36 read the thirty-third round's test part (264) at 0.933 / 98.5 % / 96.0 % / 97.9 %
# (its start scorer, 2026.12.35, alike: no test answer's score moved under full rubrics);
# 2026.12.35 read the thirty-second round's test part (264) at 0.933 / 100 % / 98.0 % / 98.6 %
# (its start scorer, 2026.12.34, alike: no test answer's score moved);
# 2026.12.34 read the thirty-first round's test part (264) at 0.940 / 97.7 % / 98.0 % / 98.9 %
# (its start scorer, 2026.12.33: 0.939 / 97.7 % / 98.0 % / 98.7 %);
# 2026.12.33 read the thirtieth round's test part (264) at 0.903 / 97.7 % / 94.9 % / 96.3 %
# (its start scorer, 2026.12.32: 0.899 / 97.7 % / 94.9 % / 96.0 %);
# 2026.12.32 read the twenty-ninth round's test part (264) at 0.920 / 98.5 % / 94.9 % / 96.8 %
# (its start scorer, 2026.12.31: 0.919 / 99.2 % / 94.9 % / 96.8 %);
# 2026.12.31 read the twenty-eighth round's test part (264) at 0.918 / 98.5 % / 97.0 % / 97.6 %
# (its start scorer, 2026.12.30: 0.918 / 98.5 % / 97.0 % / 97.6 %);
# 2026.12.30 read the twenty-seventh round's test part (264) at 0.900 / 93.9 % / 94.9 % / 95.5 %
# (its start scorer, 2026.12.29: 0.899 / 93.9 % / 94.9 % / 95.5 %);
# 2026.12.29 read the twenty-sixth round's test part (264) at 0.911 / 95.5 % / 98.0 % / 97.0 %
# (its start scorer, 2026.12.28: 0.911 / 94.7 % / 98.0 % / 97.0 %);
# 2026.12.28 read the twenty-fifth round's test part (264) at 0.915 / 98.5 % / 89.9 % / 96.2 %
# (its start scorer, 2026.12.27: 0.911 / 97.7 % / 89.9 % / 96.0 %); with one rubric change
# of that reading reverted afterwards (a unit test's reversed answer had lost its flag), the
# shipped 2026.12.28 scores it 0.911 / 97.7 % / 89.9 % / 96.0 %, as the start did;
# 2026.12.27 read the twenty-fourth round's test part (264) at 0.933 / 97.7 % / 98.0 % / 97.3 %
# (its start scorer, 2026.12.26: 0.932 / 97.7 % / 98.0 % / 97.3 %);
# 2026.12.26 read the twenty-third round's test part (264) at 0.909 / 97.0 % / 93.9 % / 95.9 %
# (its start scorer, 2026.12.25: 0.911 / 97.0 % / 93.9 % / 95.9 %);
# 2026.12.25 read the twenty-second round's test part (264) at 0.930 / 98.5 % / 94.9 % / 97.6 %
# (its start scorer, 2026.12.24: 0.926 / 97.7 % / 94.9 % / 97.5 %);
# 2026.12.24 read the twenty-first round's test part (264) at 0.899 / 94.7 % / 96.0 % / 95.9 %
# (its start scorer, 2026.12.23, alike: no test answer's score moved);
# 2026.12.23 read the twentieth round's test part (264) at 0.899 / 95.5 % / 94.9 % / 96.5 %
# (its start scorer, 2026.12.22: 0.899 / 95.5 % / 93.9 % / 96.5 %);
# 2026.12.22 read the nineteenth round's test part (264) at 0.913 / 97.0 % / 94.9 % / 97.3 %
# (its start scorer, 2026.12.21, alike: no test answer's score moved);
# 2026.12.21 read the eighteenth round's test part (264) at 0.906 / 93.9 % / 91.9 % / 95.7 %
# (its start scorer, 2026.12.20: 0.903 / 93.2 % / 91.9 % / 95.7 %);
# 2026.12.20 read the seventeenth round's test part (264) at 0.898 / 95.5 % / 96.0 % / 96.0 %
# (its start scorer, 2026.12.19: 0.896 / 95.5 % / 94.9 %);
# 2026.12.19 read the sixteenth round's test part (252) at 0.889 / 95.3 % / 91.9 % / 96.9 %
# (its start scorer, 2026.12.18: 0.887 / 95.3 % / 89.9 % / 96.6 %);
# 2026.12.18 read the fifteenth round's test part (256) at 0.891 / 97.7 % / 89.9 % / 96.2 %
# (its start scorer, 2026.12.17: 0.890 / 97.7 % / 89.9 %);
# 2026.12.17 read the fourteenth round's test part (252) at 0.896 / 96.1 % / 90.8 % / 95.5 %;
# 2026.12.4 reached dev 0.862 / 85.9 % / 95.8 % / 93.7 %, test 0.827 / 84.1 % / 88.9 % / 93.5 %;
# 2026.12.5 dev 0.880 / 89.8 % / 95.8 % / 94.3 %, test 0.846 / 90.9 % / 87.9 % / 92.7 %
# (the parts of the fourth round); on the fifth round's parts, 2026.12.5 test 0.825 /
# 87.1 % / 86.9 % / 92.2 %, and 2026.12.8 dev 0.875 / 90.6 % / 93.6 % / 93.7 %, test
# 0.833 / 88.6 % / 86.9 % / 92.5 %; on the sixth round's parts, 2026.12.8 dev 0.863 /
# 90.0 % / 91.8 % / 93.3 %, test 0.883 / 93.1 % / 86.7 % / 95.8 %, and 2026.12.9 dev
# 0.881 / 94.3 % / 92.3 % / 94.2 %, test 0.890 / 94.6 % / 86.7 % / 95.8 %; on the
# seventh round's parts, 2026.12.9 dev 0.882 / 94.4 % / 91.2 % / 94.3 %, test 0.850 /
# 91.5 % / 84.9 % / 92.0 %, and 2026.12.10 dev 0.891 / 95.5 % / 92.9 % / 94.9 %, test
# 0.855 / 91.5 % / 86.9 % / 92.5 %; on the eighth round's parts, 2026.12.10 dev 0.885 /
# 94.7 % / 91.8 % / 94.5 %, test 0.858 / 93.9 % / 84.5 % / 93.9 %, and 2026.12.11 dev
# 0.897 / 96.0 % / 92.2 % / 95.1 %, test 0.879 / 95.4 % / 84.5 % / 95.7 %; on the ninth
# round's parts, 2026.12.11 dev 0.894 / 95.9 % / 91.1 % / 95.1 %, test 0.862 / 92.2 % /
# 87.6 % / 93.8 %, and 2026.12.12 dev 0.902 / 95.8 % / 93.6 % / 95.8 %, test 0.882 /
# 92.2 % / 89.7 % / 96.2 %; on the tenth round's parts, 2026.12.12 dev 0.900 / 95.3 % /
# 93.1 % / 95.8 %, test 0.905 / 96.9 % / 85.4 % / 96.6 %, and 2026.12.13 dev 0.908 /
# 96.9 % / 94.5 % / 96.1 %, test 0.913 / 97.7 % / 87.5 % / 96.9 %; on the eleventh
# round's parts, 2026.12.13 dev 0.908 / 97.0 % / 93.7 % / 96.2 %, test 0.886 / 95.4 % /
# 88.8 % / 96.2 %, and 2026.12.14 dev 0.913 / 97.0 % / 95.3 % / 96.6 %, test 0.890 /
# 95.4 % / 90.8 % / 96.5 %; on the twelfth round's parts, 2026.12.14 dev 0.910 / 96.8 % /
# 94.8 % / 96.4 %, test 0.909 / 97.7 % / 96.0 % / 96.4 %, and 2026.12.15 dev 0.913 /
# 96.8 % / 95.3 % / 96.6 %, test 0.912 / 97.7 % / 96.0 % / 96.8 %; on the thirteenth
# round's parts, 2026.12.15 and 2026.12.16 alike, dev 0.912 / 96.9 % / 95.3 % / 96.7 %,
# test 0.911 / 96.9 % / 93.9 % / 96.9 %; on the fourteenth round's parts, 2026.12.16 dev
# 0.912 / 96.9 % / 95.2 % / 96.7 %, test 0.894 / 96.1 % / 90.8 % / 95.3 %, and
# 2026.12.17 dev 0.914 / 97.0 % / 95.7 % / 96.8 %, test 0.896 / 96.1 % / 90.8 % / 95.5 %.
TARGET = {"spearman": 0.85, "strong_ge70": 0.95, "wrong_le30": 0.95}
"""Issue 9's targets on the test part."""


@pytest.mark.parametrize("part, floor", [("dev", DEV_FLOOR), ("test", TEST_FLOOR)])
def test_part_keeps_its_quality(scored, part: str, floor: dict[str, float]) -> None:
    fig = figures(scored[part])
    low = {k: round(fig[k], 4) for k, v in floor.items() if fig[k] < v}
    assert not low, (part, low, floor)
    assert fig["mean_wrong"] < MEAN_WRONG_MAX[part] < 45 < fig["mean_strong"], (part, fig)


@pytest.mark.xfail(
    reason="issue 9's targets: met on the twelfth, seventeenth, twenty-sixth, twenty-eighth, "
    "thirty-first to thirty-fourth, thirty-sixth, thirty-eighth to fortieth, "
    "forty-second, forty-fourth, forty-fifth, fiftieth, fifty-first, fifty-third, "
    "fifty-fourth, fifty-fifth, fifty-sixth, fifty-seventh and fifty-eighth rounds' "
    "test parts, "
    "not on the eleventh's, the "
    "thirteenth's to the sixteenth's, the eighteenth's to the twenty-fifth's, the "
    "twenty-seventh's, the "
    "twenty-ninth's (wrong "
    "<= 30 at 94.9 %, two keyword lists with a closing remark at 91 and 100), the "
    "thirtieth's (wrong <= 30 at 94.9 %, 94 of 99), the thirty-fifth's (wrong <= 30 at "
    "90.9 %, 90 of 99: six of seventeen reversed answers over 30), the thirty-seventh's "
    "(wrong <= 30 at 92.9 %, 92 of 99: four reversed, two confident-wrong answers and an "
    "off-topic one over 30), the forty-first's (strong >= 70 at 93.9 %, 124 of 132: four "
    "numeric answers judged on a number of their working, such as 128 for 512, two "
    "dl-model-size answers by the scaling laws, one taken for another question, a "
    "plain-words accumulation and a terse dl-val-below-train answer; wrong <= 30 at 92.9 %, "
    "92 of 99: four reversed, two confident-wrong answers and an off-topic one over 30) or "
    "the forty-third's (wrong <= 30 at 94.9 %, 94 of 99: three reversed answers, an "
    "off-topic one and a read-back over 30), the forty-sixth's (a read-back at 47, over "
    "the non-answers' 40: 'why wouldn't we just turn the batch size way up... like, why "
    "not make it huge'), the forty-seventh's (wrong <= 30 at 93.9 %, 93 of 99: three "
    "reversed answers, one of them gradient accumulation 'the other way round' at 100, two "
    "confident-wrong answers and a read-back over 30), the forty-eighth's (a keyword "
    "list at 75, over the non-answers' 40: 'Gradient clipping, lower learning rate, warmup, "
    "Adam epsilon, beta2, bad batches, loss spikes.') or the forty-ninth's (wrong <= 30 at "
    "94.9 %, 94 of 99: three reversed answers, a confident-wrong one and an off-topic one "
    "over 30). The fiftieth's met them all (wrong <= 30 at 96.0 %, 95 of 99), and so did "
    "the fifty-first's (wrong <= 30 at 98.0 %, 97 of 99); the fifty-second's missed one "
    "(wrong <= 30 at 94.9 %, 94 of 99: three off-topic answers at 36 and 44, a reversed "
    "and a confident-wrong one over 30), and the fifty-third's met them all again (strong "
    ">= 70 at 99.2 %, 131 of 132; wrong <= 30 at 97.0 %, 96 of 99), and so did the "
    "fifty-fourth's (strong >= 70 at 97.7 %, 129 of 132; wrong <= 30 at 98.0 %, 97 of 99; "
    "non-answers at most 33), and so did the fifty-fifth's (strong >= 70 at 98.5 %, 130 of "
    "132; wrong <= 30 at 97.0 %, 96 of 99; non-answers at most 23), and so did the "
    "fifty-sixth's (strong >= 70 at 97.7 %, 129 of 132; wrong <= 30 at 97.0 %, 96 of 99; "
    "non-answers at most 30), and so did the fifty-seventh's (strong >= 70 at 97.7 %, 129 "
    "of 132; wrong <= 30 at 97.0 %, 96 of 99; non-answers at most 33), and so did the "
    "fifty-eighth's (strong >= 70 at 95.5 %, 126 of 132; wrong <= 30 at 97.0 %, 96 of 99; "
    "non-answers at most 36); non-strict until fresh "
    "parts keep meeting them",
    strict=False,
)
def test_targets_on_the_test_part(scored) -> None:
    fig = figures(scored["test"])
    low = {k: round(fig[k], 4) for k, v in TARGET.items() if fig[k] < v}
    assert not low, low
    assert fig["non_answer_max"] <= 40, fig["non_answer_max"]
