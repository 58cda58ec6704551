"""``sayitout interview``: a timed mock interview in the app, with a report card at the end."""

from __future__ import annotations

import argparse

from sayitout.cli.practice_cmd import _common, _run_app, check_mic_files, deprecated_q
from sayitout.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "interview",
        help="a mock interview: questions in a row, follow-ups, a report card at the end",
        description="A mock interview: questions in a row in the interviewer's voice, "
        "thinking time, a visible answer timer, follow-up questions on what you leave out, "
        "and no feedback until the report card at the end. Every answer is saved as it is "
        "given; the interview counts in History, reports and the review schedule.",
    )
    p.add_argument("--deck", metavar="D", help="the deck to draw from (default: every deck)")
    p.add_argument(
        "--count", "-n", type=int, default=5, metavar="N", help="how many questions (default 5)"
    )
    p.add_argument(
        "--minutes",
        type=float,
        metavar="M",
        help="the interview's time budget; each answer gets its share "
        "(default: each question's suggested time)",
    )
    p.add_argument(
        "--thinking",
        type=float,
        default=None,
        metavar="SECONDS",
        help="thinking time before each answer (default 10)",
    )
    p.add_argument(
        "--follow-ups",
        type=int,
        choices=(0, 1, 2),
        default=None,
        help="follow-up questions per question (default: practice.follow_ups, 1)",
    )
    p.add_argument(
        "--question",
        action="append",
        default=[],
        metavar="ID",
        help="ask this question (repeat for several; overrides --deck)",
    )
    deprecated_q(p)
    _common(p)
    p.set_defaults(handler=run_interview)


def run_interview(args: argparse.Namespace) -> int:
    from sayitout.bank.loader import load_bank
    from sayitout.config import load_settings
    from sayitout.session.interview import DEFAULT_THINKING_S, InterviewPlan, check_deck_fits

    check_mic_files(args.mic_file)
    settings = load_settings(args.config)
    count = len(args.question) if args.question and args.count == 5 else args.count
    plan = InterviewPlan(
        deck=args.deck,
        count=count,
        minutes=args.minutes,
        thinking_s=DEFAULT_THINKING_S if args.thinking is None else args.thinking,
        follow_ups=settings.practice.follow_ups if args.follow_ups is None else args.follow_ups,
        question_ids=tuple(args.question),
    )
    bank = load_bank(args.bank)
    if args.deck is not None and args.deck not in bank.decks:
        bank.questions(deck=args.deck)  # raises with the close deck names
    check_deck_fits(bank, plan)
    if plan.question_ids and len(plan.question_ids) < plan.count:
        raise UsageError(
            f"--count {plan.count} is more than the {len(plan.question_ids)} --question ids given",
            "give more --question ids, or leave --count out",
        )
    return _run_app(args, lambda _settings: plan)
