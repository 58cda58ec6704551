"""Benchmark: a history of 10,000 attempts, the full HTML report and the history screen's queries.

Builds a synthetic but realistic history (33 real questions when the bank loads, sessions
of 10 over 120 days, skill growing with practice) in a temporary SAYITOUT_HOME, then times:
- the full HTML report (goal: under 3 s), and the Markdown, CSV and JSON exports;
- the history screen's queries: the sessions list, the first page of 200 attempts, a page
  deep in the list, a count, a filtered page (deck + score), and one attempt in full;
- the FSRS schedule over every question (replaying all 10,000 attempts).
Prints the figures; the last line is JSON.

    .venv/bin/python bench/report.py [--attempts 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def timed(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """Median seconds over ``repeat`` runs, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=10_000)
    parser.add_argument("--keep", action="store_true", help="keep the temporary SAYITOUT_HOME")
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="sayitout-bench-"))
    os.environ["SAYITOUT_HOME"] = str(home)

    from sayitout.report.export import render
    from sayitout.report.rows import Filters
    from sayitout.schedule import schedule
    from sayitout.store import Store
    from sayitout.store.synthetic import fill_history, sample_questions

    try:
        from sayitout.bank.loader import load_bank

        bank = load_bank()
    except Exception:
        bank = None
    questions = sample_questions(bank)
    store = Store.open()
    t = time.perf_counter()
    fill_history(store, questions, args.attempts, days=120, per_session=10)
    build_s = time.perf_counter() - t
    db_mb = store.path.stat().st_size / 1e6
    print(
        f"history: {args.attempts:,} attempts on {len(questions)} questions, built in "
        f"{build_s:.1f} s; database {db_mb:.1f} MB"
    )

    figures: dict[str, float] = {}
    sizes: dict[str, int] = {}
    for fmt in ("html", "md", "csv", "json"):
        secs, text = timed(lambda fmt=fmt: render(store, fmt, Filters(), bank=bank), 3)
        figures[f"report_{fmt}_s"] = secs
        sizes[fmt] = len(text.encode())
        print(f"report {fmt:4}: {secs:6.3f} s  ({sizes[fmt] / 1e3:,.0f} kB)")

    deck = questions[0].deck
    queries: dict[str, Callable[[], Any]] = {
        "sessions": lambda: store.sessions(),
        "first_page": lambda: store.attempts(limit=200),
        "deep_page": lambda: store.attempts(limit=200, offset=9_000),
        "count": lambda: store.count_attempts(),
        "filtered_page": lambda: store.attempts(deck=deck, max_score=60, limit=200),
        "session_attempts": lambda: store.attempts(session_id=500),
        "one_attempt": lambda: store.attempt(args.attempts // 2),
        "previous_attempts": lambda: store.previous_attempts(args.attempts),
    }
    for name, fn in queries.items():
        secs, _ = timed(fn, 5)
        figures[f"query_{name}_ms"] = secs * 1000
        print(f"query {name:17}: {secs * 1000:7.2f} ms")
    secs, _ = timed(lambda: schedule(store, [q.id for q in questions]), 3)
    figures["schedule_s"] = secs
    print(f"FSRS schedule of {len(questions)} questions (replay of all attempts): {secs:.3f} s")
    store.close()
    if not args.keep:
        import shutil

        shutil.rmtree(home, ignore_errors=True)
    else:
        print(f"kept {home}")
    goal = figures["report_html_s"] < 3.0
    print(f"HTML report goal (< 3 s): {'met' if goal else 'NOT met'}")
    result = {
        "attempts": args.attempts,
        "questions": len(questions),
        "build_s": round(build_s, 2),
        "db_mb": round(db_mb, 1),
        **{k: round(v, 4) for k, v in figures.items()},
        "html_kb": round(sizes["html"] / 1e3, 1),
        "html_goal_met": goal,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
