"""How dates and times are written on every screen and in every report: ISO order,
local time, minutes at most (``2026-11-30 14:05``)."""

from __future__ import annotations

from datetime import datetime


def when(moment: datetime) -> str:
    """``2026-11-30 14:05`` in local time."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def day(moment: datetime) -> str:
    """``2026-11-30`` in local time."""
    return moment.astimezone().strftime("%Y-%m-%d")
