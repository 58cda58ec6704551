"""Crash harness at full size: SIGKILL real practice sessions N times (default 50).

    .venv/bin/python bench/crash.py [--kills 50] [--seed 1] [--home DIR]

Prints one line per kill, the figures, and the figures as JSON on the last line; the
figures are also merged into ``build/reliability.json`` (key ``crash_bench``), which
``tests/reliability/render_doc.py`` turns into the table in ``docs/reliability.md``.
See ``tests/reliability/crash_harness.py`` for what is checked after each kill.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "reliability"))

import crash_harness  # noqa: E402
import results_file  # noqa: E402


def recover_again(home: Path, key: str) -> int:
    """Recovery once more on a harness home (e.g. after a fix to decoding), figures updated."""
    import os

    from sayitout.recovery import Outcome, recover
    from sayitout.store import Store

    os.environ["SAYITOUT_HOME"] = str(home)
    data = results_file.load().get(key)
    if not data:
        print(f"no figures under {key!r} in {results_file.RESULTS}")
        return 1
    with Store.open() as store:
        results = recover(store)
        left = len(store.orphan_recordings())
    outcomes = {r.outcome.value: 0 for r in results}
    for r in results:
        outcomes[r.outcome.value] += 1
    newly = sum(r.outcome is Outcome.RECOVERED for r in results)
    data["orphans_recovered"] += newly
    data["orphans_unusable"] = left
    data["orphan_outcomes"] = {"recovered": data["orphans_recovered"]} | {
        k: v for k, v in outcomes.items() if k != "recovered"
    }
    data["recovery_reruns"] = data.get("recovery_reruns", 0) + 1
    results_file.record(key, data)
    print(json.dumps(data))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--home", type=Path, help="SAYITOUT_HOME to use (default: a temp dir)")
    ap.add_argument("--key", default="crash_bench", help="key in build/reliability.json")
    ap.add_argument(
        "--only",
        action="append",
        choices=list(crash_harness.TARGETS),
        help="kill only in this phase (repeatable; default: all, in turn then at random)",
    )
    ap.add_argument(
        "--minutes", type=float, help="stop killing after this long, then recover and report"
    )
    ap.add_argument(
        "--recover-only",
        action="store_true",
        help="no kills: run recovery again on --home and update the figures under --key",
    )
    args = ap.parse_args()
    if args.recover_only:
        return recover_again(args.home, args.key)
    home = args.home or Path(tempfile.mkdtemp(prefix="sayitout-crash-")) / "home"
    print(f"crash harness: {args.kills} kills, seed {args.seed}, home {home}", flush=True)
    deadline = time.time() + args.minutes * 60 if args.minutes else None

    def partial(figures: crash_harness.Figures) -> None:
        data = figures.to_dict()
        results_file.record(args.key, {**data, "seed": args.seed, "complete": False})

    figures = crash_harness.run(
        args.kills,
        home,
        seed=args.seed,
        log=lambda s: print(s, flush=True),
        deadline=deadline,
        on_kill=partial,
        targets=args.only,
    )
    data = figures.to_dict()
    data["seed"] = args.seed
    data["complete"] = True
    results_file.record(args.key, data)
    for key, value in data.items():
        print(f"{key}: {value}")
    print(json.dumps(data))
    ok = data["attempts_lost"] == 0 and data["integrity_failures"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
