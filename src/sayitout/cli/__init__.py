"""The ``sayitout`` command.

Each group of subcommands lives in its own module with a ``register(subparsers)``
function; handlers return an exit code. ``SayitoutError`` becomes a one-line
message on stderr and its exit code: no traceback for a foreseeable problem.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import logging
import os
import re
import sys
import time
from collections.abc import Sequence

from sayitout import __version__
from sayitout.errors import SayitoutError
from sayitout.locations import private_umask

# Modules that add subcommands, in the order they appear in --help.
_COMMAND_MODULES = (
    "sayitout.cli.practice_cmd",
    "sayitout.cli.interview_cmd",
    "sayitout.cli.bank_cmds",
    "sayitout.cli.score_cmds",
    "sayitout.cli.speech_cmds",
    "sayitout.cli.history_cmds",
    "sayitout.cli.rescore_cmd",
    "sayitout.cli.config_cmds",
    "sayitout.cli.recover_cmd",
    "sayitout.cli.completion_cmd",
)

EPILOG = """\
examples:
  sayitout                                  open the practice app
  sayitout practice --deck deep-learning -n 5
  sayitout score dl-noisy-loss --text "lower the learning rate"
  sayitout history --since 7d               what you practised this week
  sayitout report -o progress.html          a progress report to share
  sayitout doctor                           check microphone, models and data
  sayitout completion bash > ~/.local/share/bash-completion/completions/sayitout

where things live (set SAYITOUT_HOME to keep everything in one folder):
  settings    {config}
  history     {db}
  recordings  {recordings}
  reports     'sayitout report': ./sayitout-report-DATE.html (-o to choose);
              the app's History screen: {exports}
  logs        {logs} (sound library messages)

exit codes:
  0 done · 1 failed (a message says why and how to fix it) · 2 bad usage or input
  130 interrupted (Ctrl-C)

environment: NO_COLOR turns colour off; SAYITOUT_HOME moves config, data and cache.
"""


def _epilog() -> str:
    try:
        from sayitout.locations import locations

        where = locations()
        return EPILOG.format(
            config=where.config_file,
            db=where.database,
            recordings=where.recordings_dir,
            exports=where.exports_dir,
            logs=where.logs_dir,
        )
    except Exception:  # the help must print even where the folders cannot be resolved
        return EPILOG.format(
            config="`sayitout config --path`",
            db="the data folder",
            recordings="",
            exports="",
            logs="",
        )


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors that end in exit code 2, a hint, and "did you mean"."""

    commands: dict[str, argparse.ArgumentParser] | None = None
    """The subcommands' parsers (on the top-level parser)."""
    argv: list[str] | None = None

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        self.argv = list(sys.argv[1:] if args is None else args)
        return super().parse_args(args, namespace)

    def error(self, message: str) -> None:  # type: ignore[override]
        # An option the command does not know is reported by the top-level parser:
        # show that command's usage and the option it most likely meant.
        where = self._command() if message.startswith("unrecognized arguments:") else None
        where = where or self
        where.print_usage(sys.stderr)
        hint = _did_you_mean(message) or _did_you_mean_option(message, where)
        self.exit(
            2,
            f"sayitout: error: {message}\n{hint}(run '{where.prog} --help' for the options)\n",
        )

    def _command(self) -> argparse.ArgumentParser | None:
        for token in self.argv or ():
            if self.commands and token in self.commands:
                return self.commands[token]
        return None


_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")


def _did_you_mean(message: str) -> str:
    """``did you mean 'score'?`` for a mistyped command or choice."""
    m = _INVALID_CHOICE.search(message)
    if m is None:
        return ""
    wrong = m.group(1)
    choices = re.findall(r"'([^']*)'", m.group(2)) or [
        c.strip() for c in m.group(2).split(",") if c.strip()
    ]
    close = difflib.get_close_matches(wrong, choices, n=1, cutoff=0.5)
    if not close:
        close = [c for c in choices if c.startswith(wrong[:3])][:2]
    if not close:
        return ""
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?\n"


def _did_you_mean_option(message: str, parser: argparse.ArgumentParser) -> str:
    """``did you mean '--since'?`` for a mistyped option (``--sinse 3d``)."""
    known = [o for o in parser._option_string_actions if o.startswith("--")]
    hints = []
    for token in message.split(":", 1)[1].split():
        name = token.split("=", 1)[0]
        if not name.startswith("-"):
            continue
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        if close:
            hints.append(f"'{close[0]}' for '{name}'")
    return f"did you mean {' and '.join(hints)}?\n" if hints else ""


# With no arguments only the app opens: skip importing the other commands' modules so
# the first screen appears sooner.
_APP_ONLY = ("sayitout.cli.practice_cmd",)


def _add_output_flags(parser: argparse.ArgumentParser, *, short: bool) -> None:
    group = parser.add_mutually_exclusive_group()
    taken = set(parser._option_string_actions)
    # On a subcommand -v/-q are added unless it uses them itself (practice's -q is --question).
    names_v = tuple(n for n in ("-v", "--verbose") if n not in taken)
    names_q = tuple(n for n in ("-q", "--quiet") if n not in taken)
    # On subcommands the defaults are SUPPRESS, so `sayitout -v score ...` is not undone.
    default = 0 if short else argparse.SUPPRESS
    group.add_argument(
        *names_v,
        action="count",
        default=default,
        help="say more on stderr: what loads and how long it takes (-vv for debugging)",
    )
    group.add_argument(
        *names_q,
        action="store_true",
        default=False if short else argparse.SUPPRESS,
        help="print only results and errors (no progress or notes on stderr)",
    )


def build_parser(modules: Sequence[str] = _COMMAND_MODULES) -> _Parser:
    parser = _Parser(
        prog="sayitout",
        description="Offline, voice-driven mock interview coach. "
        "With no command, opens the practice app.",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"sayitout {__version__}")
    _add_output_flags(parser, short=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # not written yet
                continue
            raise
        module.register(sub)
    for command in sub.choices.values():
        # The same flags after the command: `sayitout score --quiet ...`.
        taken = set(command._option_string_actions)
        if not {"--verbose", "--quiet"} & taken:
            _add_output_flags(command, short=False)
    parser.commands = dict(sub.choices)
    # A module may set ``sub.default_handler``: what runs when no command is given.
    parser.set_defaults(default_handler=getattr(sub, "default_handler", None))
    return parser


def _configure_output(args: argparse.Namespace) -> bool:
    """Logging for --verbose; returns whether --quiet silences stderr."""
    verbose = getattr(args, "verbose", 0) or 0
    quiet = bool(getattr(args, "quiet", False))
    if verbose:
        logging.basicConfig(
            level=logging.DEBUG if verbose > 1 else logging.INFO,
            format="%(asctime)s %(name)s: %(message)s",
            stream=sys.stderr,
        )
        if verbose < 2:
            for noisy in ("numba", "urllib3", "filelock", "huggingface_hub", "httpx"):
                logging.getLogger(noisy).setLevel(logging.WARNING)
    elif quiet:
        logging.disable(logging.WARNING)
    return quiet


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    private_umask()  # whatever sayitout writes is owner-only, even under umask 000
    parser = build_parser(_APP_ONLY if not argv else _COMMAND_MODULES)
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        # No subcommand: open the app (the practice command's default handler).
        handler = args.default_handler
        if handler is None:
            parser.print_help()
            return 0
    quiet = _configure_output(args)
    log = logging.getLogger("sayitout.cli")
    started = time.perf_counter()
    log.info("sayitout %s: %s", __version__, " ".join(argv) or "(the app)")
    stderr = sys.stderr
    if quiet:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    try:
        return int(handler(args) or 0)
    except SayitoutError as exc:
        sys.stderr = stderr
        print(f"sayitout: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"  fix: {exc.hint}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr = stderr
        print("sayitout: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        log.info("done in %.2f s", time.perf_counter() - started)
        if sys.stderr is not stderr:
            sys.stderr.close()
            sys.stderr = stderr


if __name__ == "__main__":
    sys.exit(main())
