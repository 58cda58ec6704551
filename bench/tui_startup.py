"""Time from launch to the first screen of the practice app (headless).

Runs each trial in a fresh interpreter, as ``sayitout`` would: import the CLI, build
the parser and the app, and run it until the home screen is mounted (first paint)
and until its deck table is filled (bank loaded in a worker). Models load in the
background afterwards and are not waited for. Last line: JSON with the medians.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import time
t0 = time.perf_counter()
import asyncio
from sayitout.cli import _APP_ONLY, build_parser
build_parser(_APP_ONLY)  # what `sayitout` with no arguments builds
from sayitout.config import Settings
from sayitout.tui import make_app
from sayitout.tui.screens.home import HomeScreen

async def main():
    app = make_app(Settings(), tts="none")
    async with app.run_test(size=(80, 24)) as pilot:
        while not isinstance(app.screen, HomeScreen):
            await pilot.pause(0.005)
        first = time.perf_counter() - t0
        while not app.screen.decks:
            await pilot.pause(0.005)
        filled = time.perf_counter() - t0
        print(first, filled)
        app.exit()

asyncio.run(main())
"""


def main(trials: int = 5) -> None:
    firsts, filled = [], []
    env = {**os.environ, "SAYITOUT_HOME": tempfile.mkdtemp(prefix="sayitout-bench-")}
    for _ in range(trials):
        out = subprocess.run(
            [sys.executable, "-c", CHILD],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=120,
        )
        a, b = map(float, out.stdout.split()[-2:])
        firsts.append(a)
        filled.append(b)
        print(f"first screen {a:.2f} s, decks shown {b:.2f} s")
    print(
        json.dumps(
            {
                "first_screen_s": round(statistics.median(firsts), 3),
                "decks_shown_s": round(statistics.median(filled), 3),
            }
        )
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
