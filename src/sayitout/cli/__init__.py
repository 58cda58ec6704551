"""The ``sayitout`` command.

Each group of subcommands lives in its own module with a ``register(subparsers)``
function; handlers return an exit code. ``SayitoutError`` becomes a one-line
message on stderr and its exit code: no traceback for a foreseeable problem.
"""

from __future__ import annotations

import argparse
import importlib
import sys
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
    "sayitout.cli.config_cmds",
    "sayitout.cli.recover_cmd",
)


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors that end in exit code 2 and a hint."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"sayitout: error: {message}\n(run '{self.prog} --help' for the options)\n")


# With no arguments only the app opens: skip importing the other commands' modules so
# the first screen appears sooner.
_APP_ONLY = ("sayitout.cli.practice_cmd",)


def build_parser(modules: Sequence[str] = _COMMAND_MODULES) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sayitout",
        description="Offline, voice-driven mock interview coach. "
        "With no command, opens the practice app.",
    )
    parser.add_argument("--version", action="version", version=f"sayitout {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # not written yet
                continue
            raise
        module.register(sub)
    # A module may set ``sub.default_handler``: what runs when no command is given.
    parser.set_defaults(default_handler=getattr(sub, "default_handler", None))
    return parser


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
    try:
        return int(handler(args) or 0)
    except SayitoutError as exc:
        print(f"sayitout: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"  fix: {exc.hint}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("sayitout: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
