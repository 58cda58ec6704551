"""How the judge should move key points: dev figures for blends of ``match`` and the judge.

    PYTHONPATH=src .venv/bin/python bench/judge_blend.py --judge-folds DIR0,DIR1 \\
        [--variants '[{}, {"judge_from": 0.0, "judge_lower": 0.5}]']

Each variant is a set of ``Params`` overrides (the judge's are ``judge_weight``,
``judge_center``, ``judge_from`` and ``judge_lower``). Every dev question is scored by the
fold judge that was not fitted on it (``bench/train_judge.py --dev-fold 0`` / ``1``), so
the figures are cross-validated. Printed per variant, one JSON line each:

* the headline figures (Spearman with the grades, strong >= 70, wrong <= 30, the highest
  keyword list or read-back score) and the share of plain_words answers >= 70 and of
  reversed and confident_wrong answers <= 30;
* agreement with the dev key point labels (``tests/calibration/README.md``): the share of
  stated key points shown covered (``stated_covered``) or given any credit, and of
  unstated key points shown covered (``unstated_covered``: feedback that tells a candidate
  they said what they did not) or given any credit.

Development only: the test part is never read here.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scoring as bench_scoring  # bench/scoring.py: parts, headline, fold judges


def label_agreement(rows: list[dict[str, str]], results: list[Any]) -> dict[str, float]:
    labels = bench_scoring.key_point_labels()
    n = {"stated": 0, "stated_covered": 0, "stated_credit": 0}
    n |= {"unstated": 0, "unstated_covered": 0, "unstated_credit": 0}
    for row, result in zip(rows, results, strict=True):
        marks = labels.get((row["question_id"], row["answer"]), {})
        for kp in result.key_points:
            mark = marks.get(kp.id, 0.0)
            if mark == 0.5:  # partly stated: neither side
                continue
            side = "stated" if mark == 1.0 else "unstated"
            n[side] += 1
            n[side + "_covered"] += kp.status == "covered"
            n[side + "_credit"] += kp.credit > 0
    return {
        k: round(v / max(1, n[k.split("_")[0]]), 4)
        for k, v in n.items()
        if k not in ("stated", "unstated")
    }


def style_share(rows: list[dict[str, str]], scores: list[int], style: str) -> float:
    got = [
        s >= 70 if r["grade"] == "strong" else s <= 30
        for r, s in zip(rows, scores, strict=True)
        if r["style"] == style
    ]
    return round(sum(got) / max(1, len(got)), 4)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--judge-folds", required=True, help="DIR0,DIR1 (bench/train_judge.py)")
    ap.add_argument("--variants", default="[{}]", help="JSON list of Params overrides")
    args = ap.parse_args()

    from sayitout.bank.loader import load_bank
    from sayitout.scoring import Scorer
    from sayitout.scoring.matching import Params

    try:
        variants = json.loads(args.variants)
        params = [dataclasses.replace(Params(), **v) for v in variants]
    except (json.JSONDecodeError, TypeError) as exc:
        print(f"--variants: {exc}", file=sys.stderr)
        return 2
    rows = bench_scoring.read_part(bench_scoring.PARTS["dev"])
    bank = load_bank(user=False)
    rubrics = {q: bank.rubric(q) for q in sorted({r["question_id"] for r in rows})}
    base = Scorer("cpu")
    base.warm_up()
    base.prepare_many(list(rubrics.values()))
    folds = bench_scoring.fold_scorers(args.judge_folds, base)
    for overrides, p in zip(variants, params, strict=True):
        variant = [
            (Scorer(embedder=base.embedder, params=p, judge=fold.judge), seen)
            for fold, seen in folds
        ]
        results = bench_scoring.score_by_folds(variant, rows, rubrics)
        scores = [r.score for r in results]
        head = bench_scoring.headline(rows, scores)
        non_answers = [
            s for r, s in zip(rows, scores, strict=True) if r["style"] in bench_scoring.NON_ANSWERS
        ]
        out = {
            "variant": overrides,
            **{k: head[k] for k in ("spearman", "strong_ge70", "wrong_le30")},
            "non_answer_max": max(non_answers, default=0),
            **{s: style_share(rows, scores, s) for s in ("plain_words", "reversed")},
            "confident_wrong": style_share(rows, scores, "confident_wrong"),
            **label_agreement(rows, results),
        }
        print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
