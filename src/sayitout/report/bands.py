"""Score bands and their colours: the one place every screen and report takes them from.

The bands follow the spaced-repetition ratings (below 40 is forgotten, 85 and up is
easy), so a colour means the same thing as the schedule's judgement of an answer.
"""

from __future__ import annotations

BANDS: tuple[tuple[str, int | None, int | None], ...] = (
    ("below 40", None, 39),
    ("40–64", 40, 64),
    ("65–84", 65, 84),
    ("85 and up", 85, None),
)
"""``(label, lowest, highest)`` of each band, lowest band first (History's score filter)."""

_HTML = ("#c62828", "#ef8f00", "#2e7d32", "#1b5e20")
_TERMINAL = ("bold red", "bold yellow", "bold green", "bold green")


def band_index(score: float) -> int:
    """0 (below 40) to 3 (85 and up)."""
    if score < 40:
        return 0
    if score < 65:
        return 1
    if score < 85:
        return 2
    return 3


def score_color(score: float) -> str:
    """The HTML/SVG colour of a score."""
    return _HTML[band_index(score)]


def score_style(score: float) -> str:
    """The Rich style of a score in the terminal."""
    return _TERMINAL[band_index(score)]
