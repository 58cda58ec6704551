"""Order of steps: what a bag of words cannot tell apart.

"Split by original image before augmenting" and "augment before you split" share every
content word, and MiniLM places them close together; they are opposite answers to a
question about leakage. Before a key point is credited, the orders the whole answer states
are compared with the orders its sentences give (``Matcher._contradicted``).

Rules (documented for reviewers and candidates):

* A *step order* is read from "A before B", "A prior to B", "A, then B", "A followed by B",
  "A first and B afterwards" (A comes first) and "A after B" (B comes first). A leading
  cue orders the clause it opens after the rest of its sentence: "before augmenting,
  split" puts the split first, "after splitting, augment" the split too.
* Each side is the nearest content words to the cue (at most three), within its clause:
  punctuation and linking words ("so", "because", "which"...) end a side, but a second
  verb joined by "and" right after a step of one or two words is part of it ("then
  shuffle and split", "then shuffle everything and split": the split comes after too).
* "then" after an "if" is a consequence, not a step ("if it fits, then use it"); a
  negation right before a side takes the order back ("don't augment before you split"
  states no order), and so does a condition ("if you augment before splitting, ...").
* An answer states a key point's steps *the other way round* when some order it states
  has the key point's second step first and its first step second, and no order it
  states has them the key point's way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sayitout.scoring.lexicon import denies, wordset
from sayitout.scoring.text import STOPWORDS, normalise_word, stem

_SIDE_WORDS = 3
_FORWARD = frozenset({"before", "then"})
"""Cues whose left side comes first ("A before B", "A, then B")."""
_BACKWARD = frozenset({"after"})
"""Cues whose right side comes first ("A after B")."""
_LATER = frozenset({"afterwards", "afterward", "later"})
"""Cues that close the second step after a first one marked "first" in the same
sentence ("augment first and split afterwards")."""
_PAIRED = {"prior": "to", "followed": "by"}
"""Two-word forward cues: "prior to", "followed by"."""
_CONTINUING = frozenset({"then", "followed"})
"""Cues that go on from the clause before them, past its comma ("split first, then
augment"); the others, opening a clause, order it against the rest of the sentence."""
_LINKS = wordset(
    """so because since which that while whereas but and or if when where once until unless
    though although however otherwise"""
)
_CONDITIONS = wordset("if unless whether suppose imagine")
_NOT_CONTENT = (
    STOPWORDS
    | _LINKS
    | _FORWARD
    | _BACKWARD
    | wordset(
        """first firstly then next afterwards later finally also only just really need needs
    needed want wants should must have has had do does did make makes made you you'd i'd
    we i it it's that's um uh like call calls called calling"""
    )
)
_CLAUSE_END = re.compile(r"[,;:!?()]|\.(?!\d)")
_SENTENCE_END = re.compile(r"[;!?]|\.(?!\d)")

Token = tuple[str, int]
"""A word and what ends after it: 0 nothing, 1 a clause (a comma), 2 a sentence."""


@dataclass(frozen=True)
class Order:
    """One ordered pair of steps: ``first`` before ``second`` (content-word stems)."""

    first: frozenset[str]
    second: frozenset[str]


def _tokens(text: str) -> list[Token]:
    out: list[Token] = []
    for raw in text.split():
        # a call is its name ("optimizer.zero_grad()" is "zero_grad"), and its empty
        # brackets end nothing
        raw = raw.replace("()", "")
        w = normalise_word(raw)
        if "." in w and not any(c.isdigit() for c in w):
            w = w.rsplit(".", 1)[-1]
        tail = raw[len(raw.rstrip(".,;:!?()\"'")) :]
        ends = 2 if _SENTENCE_END.search(tail) else 1 if _CLAUSE_END.search(tail) else 0
        if w:
            out.append((w, ends))
        elif out and ends:
            out[-1] = (out[-1][0], max(out[-1][1], ends))
    return out


def _is_content(w: str) -> bool:
    """Whether a word can name a step: a content word with a letter in it."""
    return w not in _NOT_CONTENT and any(c.isalpha() for c in w)


def _negation(w: str) -> bool:
    return denies(w) or w == "avoid"  # "avoid augmenting before the split"


def _side(
    toks: list[Token], k: int, step: int, *, cross: bool = False
) -> tuple[frozenset[str], bool]:
    """The content stems next to the cue at ``k`` going ``step`` (-1 left, +1 right),
    within the clause, and whether a negation stands among them or right before them.
    ``cross``: the left side may end with a comma ("split first, then augment")."""
    found: list[str] = []
    limit = _SIDE_WORDS
    i = k + step
    while 0 <= i < len(toks):
        w, ends = toks[i]
        if step < 0 and ends and not (cross and i == k - 1 and ends == 1):
            break  # the clause ended before the cue
        if step < 0 and w in _CONDITIONS:
            return frozenset(found), True  # "if you augment before splitting": no claim
        if step > 0 and w == "and" and 0 < len(found) < _SIDE_WORDS and not toks[i - 1][1]:
            # "then shuffle and split the images", "then shuffle everything and split":
            # the step goes on to the verb it joins
            limit = len(found) + 1
            i += step
            continue
        if w in _LINKS or w in _FORWARD or w in _BACKWARD:
            break
        if _negation(w):
            return frozenset(found), True
        if len(found) == limit:
            break
        if _is_content(w):
            found.append(stem(w))
        if step > 0 and ends:
            break
        i += step
    return frozenset(found), False


def _clause_end(toks: list[Token], k: int) -> int:
    """Index of the last word of the clause that word ``k`` is in."""
    while k < len(toks) - 1 and not toks[k][1]:
        k += 1
    return k


def _opens_clause(toks: list[Token], k: int) -> bool:
    return k == 0 or bool(toks[k - 1][1]) or toks[k - 1][0] in _LINKS


def _after_if(toks: list[Token], k: int) -> bool:
    """Whether the "then" at ``k`` closes an "if" clause ("if it fits, then use it")."""
    for i in range(k - 1, -1, -1):
        if toks[i][1] == 2:
            return False
        if toks[i][0] in ("if", "when", "once", "unless"):
            return True
    return False


def _marked_first(toks: list[Token], k: int) -> Order | None:
    """The order "A first and B afterwards" states, its "afterwards" at ``k``: A the
    words before "first", B those between "first" and ``k`` (else those after ``k``:
    "A first, and only afterwards B"), in one sentence."""
    f = next((i for i in range(k - 1, -1, -1) if toks[i][0] == "first" or toks[i][1] == 2), None)
    if f is None or toks[f][0] != "first":
        return None
    left, left_neg = _side(toks, f, -1)
    between = toks[f + 1 : k]
    if left_neg or any(_negation(w) for w, _ in between):
        return None
    right = frozenset(stem(w) for w, _ in between if _is_content(w))
    if not right:
        # "do the split first, and only afterwards augment"
        right, right_neg = _side(toks, k, +1)
        if right_neg:
            return None
    first, second = left - right, right - left
    if not first or not second or len(right) > _SIDE_WORDS:
        return None
    return Order(first, second)


def orders(text: str) -> tuple[Order, ...]:
    """The step orders ``text`` states (see the module docstring)."""
    toks = _tokens(text)
    out: list[Order] = []
    for k, (w, _) in enumerate(toks):
        if w in _LATER:
            marked = _marked_first(toks, k)
            if marked is not None:
                out.append(marked)
            continue
        cue_end = k
        if w in _PAIRED:
            if k + 1 >= len(toks) or toks[k + 1][0] != _PAIRED[w]:
                continue
            forward, cue_end = True, k + 1
        elif w in _FORWARD:
            forward = True
        elif w in _BACKWARD:
            forward = False
        else:
            continue
        if w == "then" and _after_if(toks, k):
            continue
        right, right_neg = _side(toks, cue_end, +1)
        if w in _CONTINUING:
            at = k - 1 if k > 0 and toks[k - 1][0] == "and" and not toks[k - 1][1] else k
            left, left_neg = _side(toks, at, -1, cross=True)
        elif _opens_clause(toks, k):
            # "before augmenting, split": the rest of the sentence is the other side
            left, left_neg = _side(toks, _clause_end(toks, cue_end), +1)
        else:
            left, left_neg = _side(toks, k, -1)
        left, right = left - right, right - left  # "augment the images, then split them by image"
        if not left or not right or left_neg or right_neg:
            continue
        out.append(Order(left, right) if forward else Order(right, left))
    return tuple(out)


def reversed_order(rubric: tuple[Order, ...], answer: tuple[Order, ...]) -> bool:
    """True when the answer states some step order of the rubric text the other way
    round and none of them its way."""
    if not rubric or not answer:
        return False
    agrees = flips = False
    for r in rubric:
        for a in answer:
            same = bool(a.first & r.first) and bool(a.second & r.second)
            other = bool(a.first & r.second) and bool(a.second & r.first)
            if same and not other:
                agrees = True
            elif other and not same:
                flips = True
    return flips and not agrees
