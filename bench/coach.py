"""Benchmark: the coach on a long history (the Home focus line and the coach screen).

Builds a synthetic history (the 33 seed questions, sessions of 10 over 120 days, skill
growing with practice) and times, median of 3: the mistake ledger (it reads the last 300
attempts in full), and the focus (the ledger plus the FSRS due list over the deck).
Both run in a worker thread, never on the UI thread. Prints the figures; the last line
is JSON.

    .venv/bin/python bench/coach.py [--attempts 1000 10000]
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
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, nargs="+", default=[1000, 10000])
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sayitout.bank.loader import load_bank
    from sayitout.coach import build_ledger, focus_for
    from sayitout.store import Store

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from support.synthetic import fill_history, sample_questions

    bank = load_bank(user=False)
    figures: dict[str, Any] = {"load_average": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.attempts:
            store = Store.open(Path(tmp) / f"coach-{n}.sqlite")
            fill_history(store, sample_questions(bank), n)
            ledger_s, ledger = timed(lambda store=store: build_ledger(store))
            focus_s, (_, drills) = timed(lambda store=store: focus_for(store, bank))
            store.close()
            print(
                f"{n:>6} attempts: ledger {ledger_s * 1000:6.0f} ms ({len(ledger.entries)} "
                f"entries) · focus {focus_s * 1000:6.0f} ms ({len(drills)} drills)"
            )
            figures[f"ledger_ms_{n}"] = round(ledger_s * 1000)
            figures[f"focus_ms_{n}"] = round(focus_s * 1000)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
