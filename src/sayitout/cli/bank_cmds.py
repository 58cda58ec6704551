"""``sayitout check``, ``sayitout questions`` and ``sayitout import``."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from sayitout.bank.importer import check_deck_name, import_text
from sayitout.bank.loader import Bank, load_bank
from sayitout.bank.problems import Problem
from sayitout.errors import UsageError
from sayitout.locations import ensure_dir, locations


def register(sub: Any) -> None:
    check = sub.add_parser(
        "check",
        help="validate every deck and rubric",
        description="Validate the built-in bank and your own decks (or only the --bank "
        "directories given) and print each problem as file:line: message. "
        "Exit 0 when there are no errors (warnings are allowed), 2 otherwise.",
    )
    _bank_option(check)
    check.set_defaults(handler=run_check)

    questions = sub.add_parser(
        "questions",
        help="list the questions",
        description="List the questions of every deck, or of one deck or topic.",
    )
    questions.add_argument("--deck", "-d", help="only this deck")
    questions.add_argument(
        "--topic",
        "-t",
        action="append",
        default=[],
        metavar="TOPIC",
        help="only questions with this topic (repeat or comma-separate for any of several)",
    )
    questions.add_argument("--json", action="store_true", help="print a JSON list")
    _bank_option(questions)
    questions.set_defaults(handler=run_questions)

    imp = sub.add_parser(
        "import",
        help="make a deck from a plain text list of questions",
        description="Read a plain text file: paragraphs ending with '?' are questions and the "
        "paragraph after a question is its spoken answer. Write a deck and rubric skeletons "
        "(key points drafted from the answer) to your bank directory or --out DIR. A question "
        "without an answer gets a TODO rubric: 'sayitout check' reports it as an error and "
        "practice skips it until you write its key points and model answer.",
    )
    imp.add_argument("file", type=Path, metavar="FILE.txt")
    imp.add_argument("--deck", required=True, metavar="NAME", help="the new deck's id")
    imp.add_argument("--title", help="the deck's title (default: from NAME)")
    imp.add_argument(
        "--out", type=Path, metavar="DIR", help="bank directory to write (default: your bank)"
    )
    imp.add_argument("--force", action="store_true", help="overwrite an existing deck")
    imp.set_defaults(handler=run_import)


def _bank_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bank",
        action="append",
        default=[],
        type=Path,
        metavar="DIR",
        help="also load the bank in DIR (question_bank/ and rubrics/); repeatable",
    )


# ------------------------------------------------------------------ check


def _under(path: Path, roots: list[Path]) -> bool:
    resolved = path.resolve()
    return any(resolved.is_relative_to(root.resolve()) for root in roots)


def run_check(args: argparse.Namespace) -> int:
    bank = load_bank(args.bank)
    problems = bank.problems + bank.hints
    if args.bank:  # report the given directories only (clashes with other decks included)
        problems = [p for p in problems if _under(p.file, args.bank)]
    problems = sorted(problems, key=lambda p: (str(p.file), p.line))
    cwd = Path.cwd()
    for problem in problems:
        print(problem.format(cwd))
    errors = sum(p.level == "error" for p in problems)
    warnings = sum(p.level == "warning" for p in problems)
    hints = len(problems) - errors - warnings
    scope = ", ".join(str(d) for d in args.bank) if args.bank else "the question bank"
    decks = [d for d in bank.decks.values() if not args.bank or _deck_in(bank, d.id, args.bank)]
    n_questions = sum(len(d.questions) for d in decks)
    ready = sum(bank.has_rubric(q.id) for d in decks for q in d.questions)
    counts = (
        f"{len(decks)} deck{'s' if len(decks) != 1 else ''}, {n_questions} questions, "
        f"{ready} ready to practise"
    )
    hinted = f"; {hints} hint{'s' if hints != 1 else ''} (above)" if hints else ""
    if not errors and not warnings:
        print(f"{scope}: no problems ({counts}){hinted}")
        return 0
    files = len({p.file for p in problems if p.level != "hint"})
    print(
        f"{scope}: {errors} error{'s' if errors != 1 else ''}, "
        f"{warnings} warning{'s' if warnings != 1 else ''} in {files} "
        f"file{'s' if files != 1 else ''} ({counts}){hinted}"
    )
    return 2 if errors else 0


def _deck_in(bank: Bank, deck_id: str, roots: list[Path]) -> bool:
    deck = bank.decks[deck_id]
    return _under(bank.file_of(deck.questions[0].id), roots)


# -------------------------------------------------------------- questions


def _topics(values: list[str]) -> list[str]:
    return [t.strip() for v in values for t in v.split(",") if t.strip()]


def run_questions(args: argparse.Namespace) -> int:
    bank = load_bank(args.bank)
    topics = _topics(args.topic)
    chosen = bank.questions(deck=args.deck, topics=topics or None, ready_only=False)
    rows = [
        {
            "id": q.id,
            "deck": bank.deck_of(q.id),
            "text": q.text,
            "kind": q.kind,
            "topics": list(q.topics),
            "answer_seconds": q.answer_seconds,
            "ready": bank.has_rubric(q.id),
        }
        for q in chosen
    ]
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        _print_table(rows, sys.stdout.isatty())
    if not rows and topics:
        known = ", ".join(bank.topics()) or "none"
        print(
            f"sayitout: no question has topic {', '.join(topics)} (topics: {known})",
            file=sys.stderr,
        )
    _mention_problems(bank.errors)
    return 0


def _print_table(rows: list[dict[str, Any]], tty: bool) -> None:
    if not rows:
        print("no questions")
        return
    width = shutil.get_terminal_size((120, 24)).columns if tty else 10_000
    id_w = max(len(r["id"]) for r in rows)
    deck_w = max(len("deck"), *(len(r["deck"]) for r in rows))
    head = f"{'id':<{id_w}}  {'deck':<{deck_w}}  {'kind':<7}  {'secs':>4}  question"
    print(head)
    print("-" * min(width, max(len(head), 60)))
    text_w = max(20, width - len(head) + len("question"))
    for r in rows:
        text = r["text"] if r["ready"] else f"[no rubric] {r['text']}"
        if len(text) > text_w:
            text = text[: text_w - 1] + "…"
        print(
            f"{r['id']:<{id_w}}  {r['deck']:<{deck_w}}  {r['kind']:<7}  "
            f"{r['answer_seconds']:>4}  {text}"
        )
    ready = sum(r["ready"] for r in rows)
    print(f"{len(rows)} questions, {ready} ready to practise")


def _mention_problems(errors: list[Problem]) -> None:
    if errors:
        print(
            f"sayitout: the bank has {len(errors)} problem{'s' if len(errors) != 1 else ''}; "
            "run 'sayitout check' to see them",
            file=sys.stderr,
        )


# ----------------------------------------------------------------- import


def run_import(args: argparse.Namespace) -> int:
    deck = check_deck_name(args.deck)
    out_dir = args.out.expanduser() if args.out else locations().user_bank_dir
    existing = load_bank()
    if deck in existing.decks:
        origin = existing.file_of(existing.decks[deck].questions[0].id)
        if not _under(origin, [out_dir]):
            raise UsageError(
                f"a deck named '{deck}' already exists ({origin})", "choose another --deck"
            )
    taken = {q.id for q in existing.questions(ready_only=False) if existing.deck_of(q.id) != deck}
    ensure_dir(out_dir)
    result = import_text(args.file, deck, out_dir, force=args.force, title=args.title, taken=taken)
    total = result.with_answer + result.without_answer
    print(
        f"imported {total} question{'s' if total != 1 else ''} into deck '{deck}': "
        f"{result.with_answer} with an answer, {result.without_answer} without"
    )
    print(f"  deck:    {result.deck_file}")
    print(f"  rubrics: {result.deck_file.parent.parent / 'rubrics' / deck}/ ({total} files)")
    if result.removed:
        print(f"  removed {len(result.removed)} rubric file(s) left from the earlier import")
    if result.numeric:
        print(
            f"  {result.numeric} question(s) ask for a number that the answer states: kind "
            "numeric, with a drafted 'numeric' block (check its value, tolerance and unit)"
        )
    if result.without_answer:
        print(
            f"  {result.without_answer} rubric(s) are TODO placeholders: 'sayitout check' "
            "reports them until you write their key points and model answers"
        )
    bank_arg = f" --bank {out_dir}" if args.out else ""
    print(f"next: review the drafted key points, then run 'sayitout check{bank_arg}'")
    return 0
