"""``sayitout practice`` (and ``sayitout`` with no command): open the practice app."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sayitout.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "practice",
        help="practise spoken answers (opens the app straight into a session)",
        description="Open the practice app straight into a session. Questions are read "
        "aloud, your spoken answer is transcribed and scored, and every attempt is saved.",
    )
    p.add_argument("--deck", metavar="D", help="the deck to practise (default: every deck)")
    p.add_argument(
        "--count",
        "-n",
        type=int,
        metavar="N",
        help="how many questions (default: practice.count in the config)",
    )
    p.add_argument(
        "--topic",
        "-t",
        action="append",
        default=[],
        metavar="T",
        help="only questions on this topic (repeat for several)",
    )
    p.add_argument(
        "--order",
        choices=("due", "random", "in-order"),
        help="due: weakest and overdue first (default); random; in-order",
    )
    p.add_argument(
        "--answer-limit",
        type=float,
        metavar="SECONDS",
        dest="answer_limit",
        help="answer time limit (default: each question's suggested time)",
    )
    # `--limit` counts rows everywhere else (`history --limit N`): the old spelling still
    # works here, with a note.
    p.add_argument(
        "--limit",
        type=float,
        dest="answer_limit",
        action=_Deprecated,
        new="--answer-limit",
        help=argparse.SUPPRESS,
    )
    p.add_argument(
        "--thinking",
        type=float,
        metavar="SECONDS",
        help="thinking time after the question before recording starts",
    )
    p.add_argument(
        "--question",
        action="append",
        default=[],
        metavar="ID",
        help="ask this question (repeat for several; overrides deck and order)",
    )
    deprecated_q(p)
    _common(p)
    p.set_defaults(handler=run_practice)
    sub.default_handler = run_home  # type: ignore[attr-defined]


class _Deprecated(argparse.Action):
    """An old option name that still works and says what replaced it."""

    def __init__(self, *args, new: str, why: str = "", append: bool = False, **kwargs) -> None:
        self.new = new
        self.why = why or "the old name will go away"
        self.append = append
        super().__init__(*args, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(
            f"sayitout: note: {option_string} is now {self.new} ({self.why})",
            file=sys.stderr,
        )
        if self.append:
            values = [*(getattr(namespace, self.dest, None) or []), values]
        setattr(namespace, self.dest, values)


def deprecated_q(p: argparse.ArgumentParser) -> None:
    """``-q ID``, the old short name of ``--question``: it still works, with a note.
    Everywhere else ``-q`` is ``--quiet``, and one flag should mean one thing."""
    p.add_argument(
        "-q",
        dest="question",
        action=_Deprecated,
        new="--question",
        why="soon -q will mean --quiet here too, as in every other command",
        append=isinstance(p.get_default("question"), list),
        help=argparse.SUPPRESS,
    )


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--mic-file",
        nargs="+",
        type=Path,
        default=[],
        metavar="FILE",
        help="audio files played in place of the microphone, one per answer",
    )
    p.add_argument(
        "--tts",
        choices=("none", "piper", "pyttsx3"),
        help="how questions are read aloud (none: silent)",
    )
    p.add_argument(
        "--bank",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="an extra question bank folder (question_bank/ and rubrics/)",
    )
    p.add_argument("--config", type=Path, metavar="FILE", help="use this config file")


def _settings(args: argparse.Namespace):
    from sayitout.config import load_settings

    return load_settings(getattr(args, "config", None))


def require_terminal(command: str) -> None:
    """The app draws on a terminal and reads keys from it; without one (a pipe, a cron
    job, ``< /dev/null``) it would wait forever at full CPU. Say so and what to use."""
    streams = {"input": sys.stdin, "output": sys.stdout}
    missing = [name for name, s in streams.items() if s is None or not _isatty(s)]
    if missing:
        raise UsageError(
            f"'{' '.join(['sayitout', command]).strip()}' needs an interactive terminal, but its "
            f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not one",
            "run it in a terminal (with --mic-file FILE to answer from recordings), or "
            "score without the app: sayitout score QUESTION_ID --audio FILE (or --text "
            "'...', or --batch answers.jsonl)",
        )


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):  # closed or not a real stream
        return False


def _run_app(args: argparse.Namespace, plan) -> int:
    require_terminal("practice" if plan else "")
    from sayitout.locations import locations
    from sayitout.native_stderr import native_stderr_to
    from sayitout.tui import make_app

    settings = _settings(args)
    # ALSA's and PortAudio's own lines ("underrun occurred") would be drawn over the
    # app: while it runs they go to a log; Python's errors still reach the terminal.
    with native_stderr_to(locations().logs_dir / "audio.log"):
        app = make_app(
            settings,
            plan=plan(settings) if plan else None,
            mic_files=getattr(args, "mic_file", []) or [],
            tts=getattr(args, "tts", None),
            bank_dirs=getattr(args, "bank", []) or [],
            config_path=getattr(args, "config", None),
        )
        app.run()
    return int(app.return_code or 0)


def run_practice(args: argparse.Namespace) -> int:
    from sayitout.session.plan import SessionPlan

    if args.count is not None and args.count < 1:
        raise UsageError(f"--count must be at least 1, not {args.count}")
    check_mic_files(args.mic_file)

    def plan(settings) -> SessionPlan:
        practice = settings.practice
        count = args.count or (len(args.question) if args.question else practice.count)
        return SessionPlan(
            deck=args.deck,
            count=count,
            topics=tuple(args.topic),
            order=args.order or practice.order,
            answer_limit_s=args.answer_limit if args.answer_limit else practice.answer_limit_s,
            thinking_s=args.thinking if args.thinking is not None else practice.thinking_s,
            question_ids=tuple(args.question),
            follow_ups=practice.follow_ups,
        )

    return _run_app(args, plan)


def check_mic_files(paths: list[Path]) -> None:
    for path in paths:
        if not path.is_file():
            raise UsageError(
                f"--mic-file {path}: no such file",
                "give the path of a WAV, FLAC, MP3 or OGG recording",
            )


def run_home(args: argparse.Namespace) -> int:
    """``sayitout`` with no command: the app on its home screen."""
    return _run_app(args, None)
