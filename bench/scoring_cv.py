"""Cross-validation of the scorer's credit ramp by question, on the calibration dev part.

    .venv/bin/python bench/scoring_cv.py [--splits 10] [--external DIR]

The ramp's thresholds (``Params.partial``, ``Params.covered``, ``Params.full_coverage``)
were fitted on the dev part. This refits them on half of the dev questions (a grid
search maximising Spearman + 0.25 * share of strong answers >= 70 + 0.25 * share of
wrong answers <= 30) and measures the other half, for ``--splits`` random halvings; it
prints the held-out figures of the refitted and of the shipped thresholds, the
in-sample figures, and how far the refitted thresholds move between halvings. A large
gap between in-sample and held-out figures means the thresholds are fitted to the
answers rather than to how answers are graded.

Only the dev part is read (never the test part). Every answer is scored once; a key
point's credit only depends on the thresholds through its ``similarity`` (the match
the credit is read from), so the refit recomputes scores exactly without re-scoring.
With ``--external`` the refitted thresholds are also scored on SciEntsBank train. The
last line is JSON.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scoring as bench  # bench/scoring.py: parts, grades, spearman

PARTIAL = np.round(np.arange(0.26, 0.465, 0.02), 2)
COVERED = np.round(np.arange(0.50, 0.705, 0.02), 2)
FULL = np.round(np.arange(0.60, 0.905, 0.05), 2)


@dataclasses.dataclass
class Scored:
    """Per answer, what the score is recomputed from."""

    sims: list[np.ndarray]  # per key point: the match its credit is read from
    weights: list[np.ndarray]
    listed: np.ndarray
    numeric: np.ndarray  # 1 right, near-miss credit, 0 wrong; nan when no number
    penalty: np.ndarray
    empty: np.ndarray


def _number_credit(numeric, params) -> float:
    """The share of the number's part earned (``verdict.overall_score``); nan for none."""
    if numeric is None:
        return np.nan
    return 1.0 if numeric.correct else params.near_miss_credit if numeric.close else 0.0


def collect(scorer, pairs) -> Scored:
    results = scorer.score_many(pairs)
    return Scored(
        sims=[np.array([k.similarity for k in r.key_points]) for r in results],
        weights=[np.array([k.weight for k in r.key_points]) for r in results],
        listed=np.array([any("lists terms" in n for n in r.notes) for r in results]),
        numeric=np.array([_number_credit(r.numeric, scorer.params) for r in results]),
        penalty=np.array([sum(m.penalty for m in r.misconceptions) for r in results]),
        empty=np.array([not r.answer.strip() for r in results]),
    )


def rescore(s: Scored, partial: float, covered: float, full: float, params) -> np.ndarray:
    """``verdict.overall_score`` with other thresholds, for every answer."""
    out = np.zeros(len(s.sims))
    for i, (sims, w) in enumerate(zip(s.sims, s.weights, strict=True)):
        credit = np.clip((sims - partial) / (covered - partial), 0, 1)
        if s.listed[i]:
            credit = np.minimum(credit, params.list_credit)
        cov = min(1.0, float((w * credit).sum() / w.sum()) / full) if w.sum() > 0 else 0.0
        if np.isnan(s.numeric[i]):
            raw = 100 * cov
        else:
            share = params.numeric_share
            raw = 100 * (share * s.numeric[i] + (1 - share) * cov)
        out[i] = 0 if s.empty[i] else max(0, min(100, round(raw - s.penalty[i])))
    return out


def figures(grades: np.ndarray, scores: np.ndarray) -> dict[str, float]:
    return {
        "spearman": bench.spearman([float(x) for x in grades], [float(x) for x in scores]),
        "strong_ge70": float((scores[grades == 2] >= 70).mean()),
        "wrong_le30": float((scores[grades == 0] <= 30).mean()),
    }


def objective(f: dict[str, float]) -> float:
    return f["spearman"] + 0.25 * f["strong_ge70"] + 0.25 * f["wrong_le30"]


def fit(s: Scored, idx: np.ndarray, grades: np.ndarray, params) -> tuple[float, float, float]:
    best, key = (params.partial, params.covered, params.full_coverage), -1e9
    sub = Scored(
        [s.sims[i] for i in idx],
        [s.weights[i] for i in idx],
        s.listed[idx],
        s.numeric[idx],
        s.penalty[idx],
        s.empty[idx],
    )
    for p in PARTIAL:
        for c in COVERED:
            if c <= p + 0.04:
                continue
            for f in FULL:
                k = objective(figures(grades[idx], rescore(sub, p, c, f, params)))
                if k > key + 1e-9:
                    best, key = (float(p), float(c), float(f)), k
    return best


def mean_fig(figs: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(statistics.fmean(f[k] for f in figs), 4) for k in figs[0]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--splits", type=int, default=10, help="random halvings of the questions")
    ap.add_argument("--external", default=None, help="SciEntsBank folder (see external.py)")
    args = ap.parse_args()

    import external
    from sayitout.bank.loader import load_bank
    from sayitout.scoring import Scorer

    rows = bench.read_part(bench.PARTS["dev"])
    bank = load_bank(user=False)
    scorer = Scorer("cpu")
    params = scorer.params
    grades = np.array([bench.GRADES[r["grade"]] for r in rows])
    s = collect(scorer, [(bank.rubric(r["question_id"]), r["answer"]) for r in rows])
    shipped = (params.partial, params.covered, params.full_coverage)
    qids = sorted({r["question_id"] for r in rows})
    q_of = np.array([r["question_id"] for r in rows])

    held_fit, held_shipped, in_fit, chosen = [], [], [], []
    rng = np.random.default_rng(0)
    for _ in range(args.splits):
        half = set(rng.permutation(qids)[: len(qids) // 2].tolist())
        for train in (half, set(qids) - half):
            tr = np.flatnonzero(np.isin(q_of, list(train)))
            te = np.flatnonzero(~np.isin(q_of, list(train)))
            p, c, f = fit(s, tr, grades, params)
            chosen.append((p, c, f))
            all_scores = rescore(s, p, c, f, params)
            ship_scores = rescore(s, *shipped, params)
            in_fit.append(figures(grades[tr], all_scores[tr]))
            held_fit.append(figures(grades[te], all_scores[te]))
            held_shipped.append(figures(grades[te], ship_scores[te]))
    full_fit = fit(s, np.arange(len(rows)), grades, params)
    spread = {
        name: [round(min(x[i] for x in chosen), 2), round(max(x[i] for x in chosen), 2)]
        for i, name in enumerate(("partial", "covered", "full_coverage"))
    }
    out: dict[str, Any] = {
        "shipped": dict(zip(("partial", "covered", "full_coverage"), shipped, strict=True)),
        "refit_on_all_dev": dict(
            zip(("partial", "covered", "full_coverage"), full_fit, strict=True)
        ),
        "refit_range_over_halves": spread,
        "in_sample_refit": mean_fig(in_fit),
        "held_out_refit": mean_fig(held_fit),
        "held_out_shipped": mean_fig(held_shipped),
        "folds": len(held_fit),
    }
    print(f"shipped thresholds {out['shipped']}; refit on all dev {out['refit_on_all_dev']}")
    print(f"refitted on half the questions, range over {len(chosen)} fits: {spread}")
    for k in ("in_sample_refit", "held_out_refit", "held_out_shipped"):
        print(f"  {k:<18} {out[k]}")

    ext_path = external.resolve(args.external)
    if ext_path is not None:
        answers = external.load(ext_path, "train")
        rubrics = {
            a.question_id: external.draft(a.question_id, a.question, a.reference) for a in answers
        }
        es = collect(scorer, [(rubrics[a.question_id], a.answer) for a in answers])
        eg = [a.grade for a in answers]
        out["external_pearson"] = {}
        for label, t in (("shipped", shipped), ("refit_on_all_dev", full_fit)):
            r = external.pearson(eg, [float(x) for x in rescore(es, *t, params)])
            out["external_pearson"][label] = round(float(r), 4)
        print(f"SciEntsBank train Pearson r: {out['external_pearson']}")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
