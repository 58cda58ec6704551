"""One spelling per number, so equivalent forms look the same to the embedding model.

"one tenth", "a tenth", "0.1", "1/10", "point one" and Whisper's "1-10" all become
"0.1"; "forty-one point seven minutes" becomes "41.7 minutes"; "seven point five times
ten to the minus five" becomes "7.5e-05". Words around a number (its unit, "about") and
readings that are more than a number ("half of 3e-4", "sqrt(2/512)", "4096 x 4096")
keep their words: only plain numbers are respelled. The ``Respelling`` maps a character
offset of the original text to the respelled one, so spans found in the original (an
answer's windows) can be pooled from the respelled text.
"""

from __future__ import annotations

import re

from sayitout.scoring.numbers.mentions import find_numbers
from sayitout.scoring.respelling import Respelling, respell

_FRACTION_NOTE = re.compile(r"^-?[\d.,e+-]+ ?(?:/|over) ?[\d.,e+-]+$|read as")


def spell(value: float) -> str:
    """The canonical spelling: "0.1", "41.7", "16781312", "7.5e-05"."""
    a = abs(value)
    if a < 1e15 and value == int(value):
        return str(int(value))
    if 1e-4 <= a < 1e15:
        return f"{value:.6f}".rstrip("0").rstrip(".")
    return f"{value:.6g}"


def canonical_numbers(text: str) -> Respelling:
    """``text`` with every plain number respelled by :func:`spell`."""
    edits: list[tuple[int, int, str]] = []
    pos = 0
    for m in find_numbers(text):
        if m.computed or m.number_span is None or m.vague:
            continue
        if m.note and not _FRACTION_NOTE.search(m.note):
            continue
        s, e = m.number_span
        if s < pos:
            continue
        new = spell(m.value)
        if text[s:e] == new:
            continue
        edits.append((s, e, new))
        pos = e
    return respell(text, edits)
