"""Text the embedding model sees, respelled, with the way back to the answer's offsets.

The scorer finds windows in the answer as said; the embedding model may be shown a
respelled text instead: every plain number in one spelling (``numbers.canonical``), a
field's term after the plain words that say it (``text.name_terms``). A ``Respelling``
maps an offset of the original text to the respelled one, so spans found in the original
(an answer's windows) can be pooled from the respelled text.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Respelling:
    text: str
    _starts: tuple[int, ...] = ()
    """Original start of each edit, in order."""
    _edits: tuple[tuple[int, int, int, int], ...] = ()
    """(original start, original end, new start, new end) of each edit."""

    def offset(self, i: int) -> int:
        """Where original offset ``i`` is in the respelled text (a word boundary inside a
        replaced span maps to the new span's start or end; an insertion, an empty span,
        belongs to the text before it)."""
        k = bisect.bisect_right(self._starts, i) - 1
        if k < 0:
            return i
        s, e, ns, ne = self._edits[k]
        if i >= e:
            return ne + (i - e)
        return ns if i == s else ne

    def span(self, start: int, end: int) -> tuple[int, int]:
        """An original span, in the respelled text (never empty)."""
        s = self.offset(start)
        return s, max(self.offset(end), s + 1)


def respell(text: str, edits: Iterable[tuple[int, int, str]]) -> Respelling:
    """``text`` with each ``(start, end, new)`` span replaced by ``new`` (``start == end``
    inserts), in order of ``start``; an edit that overlaps an earlier one is skipped."""
    out: list[str] = []
    done: list[tuple[int, int, int, int]] = []
    pos = shift = 0
    for s, e, new in sorted(edits, key=lambda x: (x[0], x[1])):
        if s < pos or (s == e and done and done[-1][:2] == (s, s)):
            continue
        out.append(text[pos:s])
        out.append(new)
        ns = s + shift
        done.append((s, e, ns, ns + len(new)))
        shift += len(new) - (e - s)
        pos = e
    if not done:
        return Respelling(text)
    out.append(text[pos:])
    return Respelling("".join(out), tuple(x[0] for x in done), tuple(done))
