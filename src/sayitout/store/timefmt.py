"""Timestamps as the store keeps them, and the ``--since`` date syntax."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta

from sayitout.errors import UsageError

SINCE_FORMAT = (
    "YYYY-MM-DD, YYYY-MM-DDTHH:MM, today, yesterday, or a relative age like 7d, 12h, 2w, 30m"
)
_RELATIVE = re.compile(r"^\s*(\d+)\s*([mhdw])\s*$", re.IGNORECASE)
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def now_utc() -> datetime:
    return datetime.now(UTC)


def to_db(moment: datetime) -> str:
    """A fixed-width UTC ISO string: sorts as text in time order."""
    if moment.tzinfo is None:
        moment = moment.astimezone()  # naive means local time
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def from_db(text: str) -> datetime:
    return datetime.fromisoformat(text)


def parse_since(text: str, *, now: datetime | None = None) -> datetime:
    """``2026-11-01`` (local midnight), ``2026-11-01T14:30``, or ``7d``/``12h``/``2w``/``30m`` ago.

    Raises :class:`UsageError` naming the expected format.
    """
    try:
        return _parse_since(text, now or now_utc())
    except (OverflowError, ValueError):  # e.g. 100000000d: before the year 1
        raise UsageError(
            f"The date {text!r} is out of range", f"use a date after the year 1: {SINCE_FORMAT}"
        ) from None


def _parse_since(text: str, now: datetime) -> datetime:
    raw = text.strip()
    if raw.lower() in ("today", "yesterday"):
        midnight = datetime.combine(now.astimezone().date(), time()).astimezone()
        return midnight - timedelta(days=1 if raw.lower() == "yesterday" else 0)
    m = _RELATIVE.match(raw)
    if m:
        amount, unit = int(m.group(1)), m.group(2).lower()
        moment = now - timedelta(**{_UNITS[unit]: amount})
        to_db(moment)
        return moment
    try:
        if len(raw) == 10:
            day = date.fromisoformat(raw)
            parsed = datetime.combine(day, time())
        else:
            parsed = datetime.fromisoformat(raw)
    except ValueError:
        raise UsageError(f"Cannot read the date {text!r}", f"use {SINCE_FORMAT}") from None
    moment = parsed if parsed.tzinfo else parsed.astimezone()
    to_db(moment)  # the store must be able to write it (UTC, four-digit year)
    return moment
