"""Cold start of the command line: wall time of fresh ``sayitout`` processes.

Each trial is a new interpreter, as a user's shell runs it: nothing is warm but the
operating system's file cache. Measured commands:

* ``score --text``: grade one typed answer (imports the scorer, loads the embedding
  model, scores, prints the card). Target: at most 2.5 s on the development machine.
* ``--help``: the parser alone.
* ``doctor`` (with ``--doctor``): every check, models included.

Usage: ``python bench/cli_startup.py [--trials N] [--doctor]``. Last line: JSON with
the median seconds per command and the load average when it ran (the figures are
noisy on a shared machine; quote them with the load).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ANSWER = (
    "The loss swings because the learning rate is too high, so I would lower it by a "
    "factor of three to ten, add a warmup, and check the data pipeline for bad batches."
)


def _run(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sayitout", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    elapsed = time.perf_counter() - t0
    if done.returncode not in (0, 1):  # doctor exits 1 when a check warns
        raise SystemExit(f"sayitout {' '.join(argv)} failed ({done.returncode}): {done.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--doctor", action="store_true", help="also time `sayitout doctor`")
    parser.add_argument("--question", default="dl-noisy-loss")
    args = parser.parse_args()
    env = {
        **os.environ,
        "SAYITOUT_HOME": tempfile.mkdtemp(prefix="sayitout-bench-"),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }
    commands = {
        "help": ["--help"],
        "score_text": ["score", args.question, "--text", ANSWER],
    }
    if args.doctor:
        commands["doctor"] = ["doctor"]
    _run(["--help"], env)  # page the interpreter and the package into the file cache
    results: dict[str, float] = {}
    for name, argv in commands.items():
        times = [_run(argv, env) for _ in range(args.trials)]
        results[name] = round(statistics.median(times), 3)
        print(f"{name:>11}: " + ", ".join(f"{t:.2f}" for t in times) + " s")
    load1, load5, _ = os.getloadavg()
    print(
        json.dumps(
            {
                "bench": "cli_startup",
                "median_s": results,
                "trials": args.trials,
                "target_score_text_s": 2.5,
                "load_avg": [round(load1, 2), round(load5, 2)],
                "cpus": os.cpu_count(),
            }
        )
    )


if __name__ == "__main__":
    main()
