"""Numbers as values: bounded, compared at the precision they were said, and shown.

Every value the parser produces passes through :func:`bounded`, so a number beyond a
float's range ("1e999", a 320-digit number) is simply the largest float: a huge number,
which is a wrong answer like any other, never an overflow or a NaN.
"""

from __future__ import annotations

import math
import sys

LARGEST = sys.float_info.max
"""Any number larger than this is read as this (and shown as "more than 1.8e308")."""


def bounded(v: float) -> float:
    """``v`` within a float's finite range: infinities become the largest float, NaN 0."""
    if math.isnan(v):
        return 0.0
    return max(-LARGEST, min(LARGEST, v))


def format_number(v: float) -> str:
    """A number as a person would write it: 16,781,312 / 41.67 / 7.5e-5."""
    if math.isnan(v):
        return "not a number"
    if v == 0:
        return "0"
    a = abs(v)
    if a >= LARGEST:
        return ("minus " if v < 0 else "") + "more than 1.8e308"
    if 1e3 <= a < 1e15 and abs(v - round(v)) < 1e-6 * a:
        return f"{round(v):,}"
    if a >= 1e6 or a < 1e-3:
        s = f"{v:.3g}"
        return s.replace("e-0", "e-").replace("e+0", "e").replace("e+", "e")
    if a >= 100:
        return f"{v:,.1f}".rstrip("0").rstrip(".")
    return f"{v:.4g}"


def _digits_said(v: float) -> int:
    """Digits up to the last nonzero one: 41.7 -> 3, 2500 -> 2, 40 -> 1, 0.063 -> 2."""
    return max(1, len(f"{abs(v):.12e}".split("e")[0].replace(".", "").rstrip("0")))


def significant_digits(v: float) -> int:
    """Significant digits as said: 41.7 -> 3, 2500 -> 2, 16,781,312 -> 8, 0.063 -> 2."""
    if v == 0 or not math.isfinite(v):
        return 1
    if abs(v) >= 10 and abs(v - round(v)) < 1e-9:
        return max(2, _digits_said(v))  # "forty" is not "about forty-ish": 40 != 41.7
    return _digits_said(v)


def last_place(v: float) -> float:
    """The place value of a number's last nonzero digit: 74,880 -> 10, 40 -> 10, 41.7 ->
    0.1, 7.5e-5 -> 1e-6. Nonzero, finite ``v`` only."""
    return 10.0 ** (math.floor(math.log10(abs(v))) - _digits_said(v) + 1)


def same_number(a: float, b: float) -> bool:
    """Equal at the precision of the less precise of the two (41.7 ~ 41.67, 16.8 million ~
    16,781,312, but 16,777,216 != 16,781,312). Numbers of any size, never an error."""
    if a == b:
        return True
    if a == 0 or b == 0 or (a > 0) != (b > 0) or not (math.isfinite(a) and math.isfinite(b)):
        return False
    a, b = bounded(a), bounded(b)
    places = [10.0 ** (math.floor(math.log10(abs(x))) - significant_digits(x) + 1) for x in (a, b)]
    return abs(a - b) <= 0.5 * max(places) * (1 + 1e-6) + 1e-12 * abs(a)
