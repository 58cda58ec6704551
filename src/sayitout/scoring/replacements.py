"""What a sentence puts in place of what: "replace batch norm with group norm".

"I'd switch any group norm layers to batch norm" shares its words with "replace batch
norm with group norm", and MiniLM places them together; it says the opposite. Before a
key point is credited, the replacements its sentences state are compared with the ones
the answer states (``Matcher._contradiction``).

Rules (documented for reviewers and candidates):

* A replacement names what goes out and what comes in:
  - "replace X with Y" (or "by Y"), "swap X for Y" (or "with Y", "swap out X for Y");
  - "switch X to Y", "change X to Y", "move X to Y", "convert X to Y", each also with
    "from" ("switch from X to Y");
  - "use Y instead of X", "use Y rather than X".
  Without both sides ("switch to bf16", "switch dropout off") it names no replacement.
* Each side is at most five words and ends where its clause does: at punctuation, or
  before a linking word ("and", "so", "which", "because", "if" ...). What a side names is
  its content words ("any group norm layers": group, norm, layer).
* What tells the two sides apart is the words one has and the other has not ("batch"
  against "group" in "batch norm" and "group norm"). An answer states a rubric
  replacement the other way round when, in one of its replacements, the words that only
  the rubric's outgoing side has come in and the words that only its incoming side has
  go out, and no replacement of the answer states it the rubric's way.
"""

from __future__ import annotations

from dataclasses import dataclass

from sayitout.scoring.lexicon import wordset
from sayitout.scoring.text import closes_clause, content_stems, normalise_word


@dataclass(frozen=True)
class Replacement:
    """What goes out and what comes in (their content stems), and how each was said."""

    out: frozenset[str]
    into: frozenset[str]
    out_text: str
    into_text: str


_REPLACE = wordset("replace replaces replacing replaced swap swaps swapping swapped")
"""Verbs that name what goes out first, then what comes in after "with", "by" or "for"."""
_REPLACE_WITH = wordset("with by for")
_SWITCH = wordset(
    """switch switches switching switched change changes changing changed move moves
    moving moved convert converts converting converted"""
)
"""Verbs that name what goes out, then what comes in after "to"."""
_USE = wordset("use uses using")
_INSTEAD = wordset("instead rather")
_SIDE_ENDS = wordset(
    """and or but so which that because since if when while whereas then to with by for
    instead rather than from"""
)
"""Words that end a side: a linking word, or the connector before the other side."""
_MAX_SIDE = 5


def _side(toks: list[tuple[str, str]], i: int) -> tuple[int, str]:
    """The side that starts at ``toks[i]``: the index after it, and its words."""
    end = i
    while end < len(toks) and end - i < _MAX_SIDE and toks[end][0] not in _SIDE_ENDS:
        end += 1
        if _closes(toks[end - 1][1]):
            break
    return end, " ".join(w for w, _ in toks[i:end])


_CLAUSE_MARKS = (",", ":", "—", "–")


def _closes(raw: str) -> bool:
    return closes_clause(raw, _CLAUSE_MARKS)


def _make(out: str, into: str) -> Replacement | None:
    a, b = content_stems(out), content_stems(into)
    if not a or not b or a == b:
        return None
    return Replacement(a, b, out, into)


def _read(toks: list[tuple[str, str]], i: int) -> Replacement | None:
    """The replacement the verb at ``toks[i]`` states, if any."""
    w = toks[i][0]
    if w in _REPLACE or w in _SWITCH:
        start = i + 2 if i + 1 < len(toks) and toks[i + 1][0] in ("out", "from") else i + 1
        if _closes(toks[i][1]) or start >= len(toks):
            return None
        end, out = _side(toks, start)
        joins = _REPLACE_WITH if w in _REPLACE else ("to",)
        if end < len(toks) and toks[end][0] in joins and not _closes(toks[end - 1][1]):
            return _make(out, _side(toks, end + 1)[1]) if end + 1 < len(toks) else None
        return None
    if w in _USE and i + 1 < len(toks) and not _closes(toks[i][1]):
        end, into = _side(toks, i + 1)
        if end + 1 < len(toks) and toks[end][0] in _INSTEAD and not _closes(toks[end - 1][1]):
            joined = toks[end + 1][0] in ("of", "than")
            if joined and end + 2 < len(toks):
                return _make(_side(toks, end + 2)[1], into)
    return None


def replacements(text: str) -> tuple[Replacement, ...]:
    """The replacements ``text`` states (see the module docstring)."""
    toks = [(normalise_word(raw), raw) for raw in text.split()]
    toks = [(w, raw) for w, raw in toks if w]
    found = (_read(toks, i) for i in range(len(toks)))
    return tuple(r for r in found if r is not None)


def _states(point: Replacement, said: Replacement, turned: bool) -> bool:
    """``said`` states ``point``: its way, or turned round (``point``'s incoming thing
    put out and its outgoing thing in)."""
    only_out, only_in = point.out - point.into, point.into - point.out
    goes, comes = (said.into, said.out) if turned else (said.out, said.into)
    return bool(only_out & goes and only_in & comes) and not (only_out & comes or only_in & goes)


def contradiction(
    points: tuple[Replacement, ...], said: tuple[Replacement, ...]
) -> Replacement | None:
    """The first of ``points`` (a rubric sentence's replacements) that ``said`` (the
    answer's) states the other way round and never its way, or None."""
    for p in points:
        turned = any(_states(p, s, turned=True) for s in said)
        if turned and not any(_states(p, s, turned=False) for s in said):
            return p
    return None
