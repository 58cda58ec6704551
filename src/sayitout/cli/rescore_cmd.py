"""``sayitout rescore``: score stored answers again with today's scorer and rubrics.

Old scores stay in each attempt's score history (``sayitout history --attempt ID``
lists them), and every score records which scorer version made it, so reports can
mark where the scorer changed.
"""

from __future__ import annotations

import argparse
from typing import Any

from sayitout.cli.history_cmds import _positive, _since
from sayitout.cli.progress import Progress


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "rescore",
        help="score your stored answers again with the current scorer and rubrics",
        description="Score stored attempts again with the current scorer and rubric version. "
        "Earlier scores are kept in each attempt's score history. Attempts already scored "
        "by this scorer against the current rubric are left alone unless --all is given.",
        epilog="examples:\n"
        "  sayitout rescore --dry-run          # what would change, nothing saved\n"
        "  sayitout rescore --since 30d\n"
        "  sayitout rescore --question dl-fp16-nan --all",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--since", type=_since, metavar="DATE", help="only attempts from DATE on")
    p.add_argument("--question", metavar="ID", help="only attempts at this question")
    p.add_argument("--deck", metavar="D", help="only this deck")
    p.add_argument(
        "--all",
        dest="every",
        action="store_true",
        help="also attempts already scored by this scorer and rubric version",
    )
    p.add_argument("--dry-run", action="store_true", help="show what would change; save nothing")
    p.add_argument(
        "--list",
        type=_positive,
        default=20,
        metavar="N",
        help="list at most N changed attempts (default 20)",
    )
    p.add_argument(
        "--device",
        choices=("auto", "cpu", "cuda"),
        help="device for the embedding model (default: config, else auto)",
    )
    p.set_defaults(handler=rescore_command)


def rescore_command(args: argparse.Namespace) -> int:
    from sayitout.bank.loader import load_bank
    from sayitout.cli.score_cmds import _scorer
    from sayitout.scoring import SCORER_VERSION
    from sayitout.store import AttemptFilter, Store
    from sayitout.store.rescoring import rescore_attempts

    bank = load_bank()
    if args.question:
        bank.question(args.question)  # an unknown id is a usage error naming it
    where = AttemptFilter(deck=args.deck, question_id=args.question, since=args.since)
    scorer = _scorer(args, bank)
    progress = Progress("rescoring", unit="attempts")
    with Store.open() as store:
        if store.count_attempts(where) == 0:
            print("No stored attempts match; nothing to rescore.")
            return 0
        try:
            outcome = rescore_attempts(
                store,
                where,
                bank.rubric,
                scorer,
                every=args.every,
                dry_run=args.dry_run,
                progress=progress.update,
            )
        finally:
            progress.close()
    _print_outcome(outcome, args, SCORER_VERSION)
    return 0


def _print_outcome(outcome: Any, args: argparse.Namespace, version: str) -> None:
    rescored, changed = outcome.rescored, outcome.changed
    verb = "Would rescore" if args.dry_run else "Rescored"
    if rescored:
        delta = sum(r.new_score - r.old_score for r in rescored) / len(rescored)
        print(
            f"{verb} {len(rescored)} attempt{'s' if len(rescored) != 1 else ''} with scorer "
            f"{version}: {len(changed)} changed, mean change {delta:+.1f} points."
        )
    else:
        print("Nothing to rescore.")
    if outcome.up_to_date:
        print(
            f"{outcome.up_to_date} already scored by scorer {version} with the current rubric "
            "(use --all to score them again)."
        )
    for qid, n in sorted(outcome.no_rubric.items()):
        print(f"Skipped {n} attempt{'s' if n != 1 else ''} at {qid}: not in the bank any more.")
    if changed:
        shown = sorted(changed, key=lambda r: -abs(r.new_score - r.old_score))[: args.list]
        print(f"\n{'ID':>6}  {'When':16}  {'Question':28}  {'Old':>3} -> {'New':>3}  Old scorer")
        for r in shown:
            when = r.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
            q = r.question_id if len(r.question_id) <= 28 else r.question_id[:27] + "…"
            print(
                f"{r.attempt_id:>6}  {when:16}  {q:28}  {r.old_score:>3} -> {r.new_score:>3}  "
                f"{r.old_scorer or 'unknown'}"
            )
        if len(changed) > len(shown):
            print(f"… and {len(changed) - len(shown)} more (use --list N).")
    if args.dry_run and rescored:
        print("\nNothing was saved (--dry-run).")
    elif rescored:
        print("\nEarlier scores are kept: 'sayitout history --attempt ID' lists them.")
