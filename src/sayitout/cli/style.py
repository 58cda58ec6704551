"""Colour on the terminal, the way users expect: only on a terminal, never when
``NO_COLOR`` is set (https://no-color.org), always when ``FORCE_COLOR`` is."""

from __future__ import annotations

import os
import sys
from typing import TextIO

_CODES = {"green": "32", "yellow": "33", "red": "31", "bold": "1", "dim": "2"}


def use_colour(stream: TextIO | None = None) -> bool:
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def paint(text: str, style: str, *, enabled: bool) -> str:
    if not enabled or style not in _CODES:
        return text
    return f"\033[{_CODES[style]}m{text}\033[0m"
