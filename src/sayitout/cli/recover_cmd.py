"""``sayitout recover``: turn what a crash or a busy database left behind into attempts:
recordings no attempt refers to, and typed answers kept in the data dir's ``unsaved/``
folder when ``score --save`` could not store them."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "recover",
        help="transcribe and score answers left unsaved by a crash",
        description="Find recordings on disk that no attempt refers to (left behind when "
        "sayitout was killed between recording and saving) and typed answers that "
        "'score --save' kept in the data dir's unsaved/ folder (the history could not be "
        "written), list them, and after asking (or with --yes) score and save each one "
        "as an attempt. Without --yes and without a terminal to ask on, it only lists "
        "them. Running it again saves nothing twice.",
    )
    p.add_argument("--list", action="store_true", help="only list them")
    p.add_argument("--yes", "-y", action="store_true", help="recover without asking")
    p.add_argument(
        "--discard",
        action="store_true",
        help="delete recordings that cannot be recovered (no question id, no audio, no "
        "speech) and kept answers that are empty",
    )
    p.set_defaults(handler=run_recover)


def _ask(prompt: str) -> bool:
    try:
        reply = input(prompt)
    except EOFError:
        return False
    return reply.strip().lower() in ("y", "yes")


def run_recover(args: argparse.Namespace) -> int:
    from sayitout.app_factory import open_store
    from sayitout.recovery import Outcome, describe, describe_unsaved, recover, recover_unsaved
    from sayitout.store.unsaved import unsaved_answers

    with open_store() as store:
        orphans = store.orphan_recordings()
        kept = unsaved_answers()
        if not orphans and not kept:
            print(
                "No unsaved recordings or kept answers: every recording belongs to an "
                "attempt and no typed answer is waiting to be saved."
            )
            return 0
        if orphans:
            n = len(orphans)
            print(f"{n} recording{'s' if n != 1 else ''} not saved as an attempt:")
            for orphan in orphans:
                print(f"  {describe(orphan)}")
        if kept:
            n = len(kept)
            print(
                f"{n} typed answer{'s' if n != 1 else ''} kept when the history could not be saved:"
            )
            for answer in kept:
                print(f"  {describe_unsaved(answer)}")
        total = len(orphans) + len(kept)
        if args.list:
            return 0
        if not args.yes:
            if not sys.stdin.isatty():
                print("Run 'sayitout recover --yes' to score and save them.")
                return 0
            verb = "Transcribe, score" if orphans else "Score"
            if not _ask(f"{verb} and save {'them' if total > 1 else 'it'} now? [y/N] "):
                print("Nothing changed.")
                return 0
        done = 0

        def progress(_done: int, _total: int, result: Any) -> None:
            nonlocal done
            done += 1
            ok = result.outcome is Outcome.RECOVERED
            mark = "ok " if ok else "-- "
            gone = " (deleted)" if result.discarded and not ok else ""
            print(f"[{done}/{total}] {mark}{result.path.name}: {result.message}{gone}", flush=True)

        recordings = []
        if orphans:
            recordings = recover(store, orphans, discard_unusable=args.discard, progress=progress)
        answers = []
        if kept:
            answers = recover_unsaved(store, kept, discard_unusable=args.discard, progress=progress)
    results = recordings + answers

    def left(of: list[Any]) -> int:
        return sum(not r.discarded and r.outcome is not Outcome.RECOVERED for r in of)

    saved = sum(r.outcome is Outcome.RECOVERED for r in results)
    failed = sum(r.outcome is Outcome.FAILED for r in results)
    print(f"Recovered {saved} of {len(results)}; {left(results)} left on disk.")
    if left(recordings) and not args.discard:
        print(
            "Recordings that cannot be scored stay on disk; "
            "'sayitout recover --discard' deletes them."
        )
    if left(answers):
        print("Kept answers that were not saved stay in their files; each line above says why.")
    return 1 if failed else 0
