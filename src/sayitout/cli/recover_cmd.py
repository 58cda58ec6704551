"""``sayitout recover``: turn recordings left behind by a crash into attempts."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "recover",
        help="transcribe and score answers left unsaved by a crash",
        description="Find recordings on disk that no attempt refers to (left behind when "
        "sayitout was killed between recording and saving), list them, and after asking "
        "(or with --yes) transcribe, score and save each one as an attempt. Without --yes "
        "and without a terminal to ask on, it only lists them.",
    )
    p.add_argument("--list", action="store_true", help="only list them")
    p.add_argument("--yes", "-y", action="store_true", help="recover without asking")
    p.add_argument(
        "--discard",
        action="store_true",
        help="delete recordings that cannot be recovered (no question id, no audio, no speech)",
    )
    p.set_defaults(handler=run_recover)


def _ask(prompt: str) -> bool:
    try:
        reply = input(prompt)
    except EOFError:
        return False
    return reply.strip().lower() in ("y", "yes")


def run_recover(args: argparse.Namespace) -> int:
    from sayitout.recovery import Outcome, describe, recover
    from sayitout.store import Store

    with Store.open() as store:
        orphans = store.orphan_recordings()
        if not orphans:
            print("No unsaved recordings: every recording belongs to an attempt.")
            return 0
        n = len(orphans)
        print(f"{n} recording{'s' if n != 1 else ''} not saved as an attempt:")
        for orphan in orphans:
            print(f"  {describe(orphan)}")
        if args.list:
            return 0
        if not args.yes:
            if not sys.stdin.isatty():
                print("Run 'sayitout recover --yes' to transcribe, score and save them.")
                return 0
            if not _ask(f"Transcribe, score and save {'them' if n > 1 else 'it'} now? [y/N] "):
                print("Nothing changed.")
                return 0

        def progress(done: int, total: int, result: Any) -> None:
            mark = "ok " if result.outcome is Outcome.RECOVERED else "-- "
            gone = " (deleted)" if result.discarded else ""
            print(f"[{done}/{total}] {mark}{result.path.name}: {result.message}{gone}", flush=True)

        results = recover(store, orphans, discard_unusable=args.discard, progress=progress)
    saved = sum(r.outcome is Outcome.RECOVERED for r in results)
    failed = sum(r.outcome is Outcome.FAILED for r in results)
    left = sum(not r.discarded and r.outcome is not Outcome.RECOVERED for r in results)
    print(f"Recovered {saved} of {len(results)}; {left} left on disk.")
    if left and not args.discard:
        print(
            "Recordings that cannot be scored stay on disk; "
            "'sayitout recover --discard' deletes them."
        )
    return 1 if failed else 0
