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


async def screen_timings(store: Any, bank: Any, steps: int = 60) -> dict[str, float]:
    """Open the history screen headless and scroll down ``steps`` screens of rows.

    A step is one page-down key press, until the rows it shows are on screen (loading the
    next page of attempts in a worker when the cursor nears the end).
    """
    from textual.app import App
    from textual.widgets import DataTable

    from sayitout.tui.screens.history import HistoryScreen

    screen = HistoryScreen(store, bank)

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(screen)

    app = Host()
    async with app.run_test(size=(140, 45)) as pilot:
        t = time.perf_counter()
        table = None
        while time.perf_counter() - t < 30:
            await pilot.pause(0.005)
            if screen.is_mounted and screen.loaded_rows:
                table = screen.query_one("#attempts", DataTable)
                break
        opened = time.perf_counter() - t
        assert table is not None, "the history screen did not load"
        table.focus()
        durations = []
        for _ in range(steps):
            t = time.perf_counter()
            await pilot.press("pagedown")
            await pilot.pause()
            while screen._loading:  # a page is being fetched: wait until it is on screen
                await pilot.pause(0.002)
            durations.append(time.perf_counter() - t)
        rows = table.cursor_row
    baseline = await plain_table_step(rows, steps)
    return {
        "screen_open_s": opened,
        "screen_rows": float(rows),
        "screen_slowest_step_s": max(durations),
        "screen_mean_step_s": statistics.fmean(durations),
        "plain_table_mean_step_s": baseline,
    }


async def plain_table_step(rows: int, steps: int) -> float:
    """The same page-down steps on a plain, fully loaded DataTable: the floor on this machine."""
    from textual.app import App, ComposeResult
    from textual.widgets import DataTable

    class Plain(App):
        def compose(self) -> ComposeResult:
            yield DataTable(cursor_type="row")

        def on_mount(self) -> None:
            table = self.query_one(DataTable)
            for c in "abcdefg":
                table.add_column(c, width=10)
            table.add_rows([[str(i)] * 7 for i in range(rows + 100)])
            table.focus()

    app = Plain()
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.pause()
        durations = []
        for _ in range(steps):
            t = time.perf_counter()
            await pilot.press("pagedown")
            await pilot.pause()
            durations.append(time.perf_counter() - t)
    return statistics.fmean(durations)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=10_000)
    parser.add_argument("--keep", action="store_true", help="keep the temporary SAYITOUT_HOME")
    parser.add_argument(
        "--home", type=Path, help="reuse the history in this SAYITOUT_HOME (from --keep)"
    )
    args = parser.parse_args()

    home = args.home or Path(tempfile.mkdtemp(prefix="sayitout-bench-"))
    reuse = args.home is not None and (home / "data" / "sayitout.db").exists()
    os.environ["SAYITOUT_HOME"] = str(home)

    from sayitout.report.export import render
    from sayitout.report.rows import Filters
    from sayitout.schedule import schedule
    from sayitout.store import AttemptFilter, Store

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from support.synthetic import fill_history, sample_questions

    try:
        from sayitout.bank.loader import load_bank

        bank = load_bank()
    except Exception:
        bank = None
    questions = sample_questions(bank)
    store = Store.open()
    t = time.perf_counter()
    if reuse:
        args.attempts = store.count_attempts()
    else:
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
        "filtered_page": lambda: store.attempts(AttemptFilter(deck=deck, max_score=60), limit=200),
        "session_attempts": lambda: store.attempts(AttemptFilter(session_id=500)),
        "one_attempt": lambda: store.attempt(args.attempts // 2),
        "previous_attempts": lambda: store.previous_attempts(args.attempts),
    }
    for name, fn in queries.items():
        secs, _ = timed(fn, 5)
        figures[f"query_{name}_ms"] = secs * 1000
        print(f"query {name:17}: {secs * 1000:7.2f} ms")
    store.forget_derived()
    t = time.perf_counter()
    schedule(store, [q.id for q in questions])
    figures["schedule_cold_s"] = time.perf_counter() - t
    secs, _ = timed(lambda: schedule(store, [q.id for q in questions]), 3)
    figures["schedule_cached_s"] = secs
    print(
        f"FSRS schedule of {len(questions)} questions: replaying all attempts "
        f"{figures['schedule_cold_s']:.3f} s, cached {secs * 1000:.1f} ms"
    )
    import asyncio

    figures.update(asyncio.run(screen_timings(store, bank)))
    print(
        f"history screen: first page shown {figures['screen_open_s']:.3f} s after push; "
        f"scrolling {int(figures['screen_rows'])} rows page by page: slowest step "
        f"{figures['screen_slowest_step_s'] * 1000:.0f} ms, mean "
        f"{figures['screen_mean_step_s'] * 1000:.0f} ms (a plain, fully loaded DataTable: "
        f"{figures['plain_table_mean_step_s'] * 1000:.0f} ms)"
    )
    store.close()
    if not args.keep and not args.home:
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
