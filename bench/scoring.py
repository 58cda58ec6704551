"""Scoring benchmark: agreement with the calibration set, and speed.

    .venv/bin/python bench/scoring.py [--device cpu|cuda|auto] [--threads N] [--repeats N]

Prints agreement (Spearman between scores and the intended grades strong=2, partial=1,
wrong=0; band accuracy: strong >= 60, wrong <= 40, partial in 20..75; per-question
ordering strong > partial > wrong), then speed: model load time, batch throughput
(answers/s, rubrics already embedded) and the median time of one warm single answer.
The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from scipy.stats import spearmanr

ROOT = Path(__file__).resolve().parents[1]
CALIBRATION = ROOT / "tests" / "calibration" / "deep-learning.jsonl"
GRADES = {"strong": 2, "partial": 1, "wrong": 0}


def spearman(a: list[float], b: list[float]) -> float:
    """Rank correlation (ties get their mean rank); 0 when either side is constant."""
    if len(set(a)) < 2 or len(set(b)) < 2:
        return 0.0
    return float(spearmanr(a, b).statistic)


def in_band(grade: str, score: int) -> bool:
    if grade == "strong":
        return score >= 60
    if grade == "wrong":
        return score <= 40
    return 20 <= score <= 75


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: the scorer's)")
    ap.add_argument("--repeats", type=int, default=40, help="single answers to time")
    ap.add_argument(
        "--ab",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="also time the per-window path and late chunking with and without isolated "
        "misconception windows, interleaved, ROUNDS times",
    )
    args = ap.parse_args()

    import torch

    from sayitout.bank.loader import load_bank
    from sayitout.scoring import Scorer
    from sayitout.scoring.matching import Params

    rows = [json.loads(x) for x in CALIBRATION.read_text().splitlines() if x.strip()]
    bank = load_bank(user=False)
    rubrics = {r["question_id"]: bank.rubric(r["question_id"]) for r in rows}
    items = [(rubrics[r["question_id"]], r["answer"]) for r in rows]

    scorer = Scorer(args.device, threads=args.threads or None)
    t0 = time.perf_counter()
    scorer.embedder.load()
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    scorer.warm_up()
    scorer.prepare_many(list(rubrics.values()))
    prep_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    results = scorer.score_many(items)
    batch_s = time.perf_counter() - t0
    batch_rate = len(items) / batch_s

    singles = []
    for rubric, answer in items[: args.repeats]:
        t0 = time.perf_counter()
        scorer.score(rubric, answer)
        singles.append((time.perf_counter() - t0) * 1000)
    single_ms = statistics.median(singles)

    scores = [r.score for r in results]
    grades = [GRADES[r["grade"]] for r in rows]
    rho = spearman(grades, scores)
    band = sum(in_band(r["grade"], s) for r, s in zip(rows, scores, strict=True)) / len(rows)
    by_q: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for r, s in zip(rows, scores, strict=True):
        by_q[r["question_id"]][r["grade"]].append(s)
    misordered = sorted(
        q
        for q, g in by_q.items()
        if not (min(g["strong"]) > max(g["partial"]) and min(g["partial"]) > max(g["wrong"]))
    )
    means = {
        g: round(
            statistics.mean(s for r, s in zip(rows, scores, strict=True) if r["grade"] == g), 1
        )
        for g in GRADES
    }
    windows = sum(len(a.split()) for _, a in items) / len(items)
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    print(f"calibration: {len(rows)} answers, {len(by_q)} questions, mean {windows:.0f} words")
    print(f"spearman (score vs grade): {rho:.3f}")
    print(f"band accuracy: {band:.1%} (strong>=60, wrong<=40, partial 20..75)")
    print(f"mean score by grade: {means}")
    print(
        f"ordering strong>partial>wrong: {len(by_q) - len(misordered)}/{len(by_q)}"
        f" (misordered: {', '.join(misordered) or 'none'})"
    )
    print(
        f"device {scorer.embedder.device}, torch threads {torch.get_num_threads()}, "
        f"load average {load_avg}"
    )
    print(f"model load: {load_s:.2f} s; embedding 33 rubrics: {prep_s:.2f} s")
    print(f"batch: {batch_rate:.1f} answers/s ({batch_s:.2f} s for {len(items)})")
    print(f"single answer warm: median {single_ms:.1f} ms over {len(singles)}")
    ab = _ab(scorer, Params, items, args.ab, args.repeats) if args.ab else None
    if ab:
        for path, fig in ab.items():
            print(
                f"A/B {path}: batch {fig['batch_answers_per_s']} answers/s, single median "
                f"{fig['single_answer_ms_median']} ms"
            )
    print(
        json.dumps(
            {
                "spearman": round(rho, 4),
                "band_accuracy": round(band, 4),
                "ordered_questions": len(by_q) - len(misordered),
                "questions": len(by_q),
                "misordered": misordered,
                "mean_by_grade": means,
                "model_load_s": round(load_s, 3),
                "rubric_prep_s": round(prep_s, 3),
                "batch_answers_per_s": round(batch_rate, 2),
                "single_answer_ms_median": round(single_ms, 2),
                "device": scorer.embedder.device,
                "torch_threads": torch.get_num_threads(),
                "load_average": load_avg,
                "late_chunking": scorer.params.late_chunking,
                "ab": ab,
            }
        )
    )
    return 0


def _ab(scorer, params_cls, items, rounds: int, repeats: int) -> dict:
    """Per-window encoding, late chunking (misconceptions judged on the pooled windows,
    the default) and late chunking with misconceptions judged on isolated windows, on one
    shared model, taking turns so that all see the same load from other processes."""
    from dataclasses import replace

    from sayitout.scoring import Scorer

    paths = {
        "per_window": Scorer(embedder=scorer.embedder, params=params_cls.per_window()),
        "late_chunking": Scorer(embedder=scorer.embedder, params=params_cls()),
        "late_chunking_isolated_misconceptions": Scorer(
            embedder=scorer.embedder, params=replace(params_cls(), isolate_misconceptions=2)
        ),
    }
    for s in paths.values():
        s.prepare_many([r for r, _ in items])
    batch: dict[str, list[float]] = {k: [] for k in paths}
    single: dict[str, list[float]] = {k: [] for k in paths}
    for _ in range(rounds):
        for name, s in paths.items():
            t0 = time.perf_counter()
            s.score_many(items)
            batch[name].append(len(items) / (time.perf_counter() - t0))
    for rubric, answer in items[:repeats]:
        for name, s in paths.items():
            t0 = time.perf_counter()
            s.score(rubric, answer)
            single[name].append((time.perf_counter() - t0) * 1000)
    return {
        name: {
            "batch_answers_per_s": round(statistics.median(batch[name]), 2),
            "single_answer_ms_median": round(statistics.median(single[name]), 2),
        }
        for name in paths
    }


if __name__ == "__main__":
    sys.exit(main())
