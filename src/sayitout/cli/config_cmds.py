"""``sayitout config``: show the settings in use, the defaults, or the file's path."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "config",
        help="show the settings in use (or the defaults, or the config file's path)",
        description="Print the settings in use as TOML. Edit the file it names, or change "
        "them in the app's Settings screen.",
    )
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--defaults", action="store_true", help="print every setting with its default value"
    )
    group.add_argument("--path", action="store_true", help="print the config file's path")
    p.add_argument("--config", type=Path, metavar="FILE", help="read this config file")
    p.set_defaults(handler=run_config)


def run_config(args: argparse.Namespace) -> int:
    from sayitout.config import Settings, dump_settings, load_settings
    from sayitout.locations import locations

    path = args.config or locations().config_file
    if args.path:
        print(path)
        return 0
    if args.defaults:
        sys.stdout.write(dump_settings(Settings()))
        return 0
    settings = load_settings(path)
    where = str(path) if path.exists() else f"{path} (not created yet: these are the defaults)"
    sys.stdout.write(f"# {where}\n" + dump_settings(settings))
    return 0
