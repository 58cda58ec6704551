"""What goes with what: a thing made bigger or smaller, and what that does to its noise
and to how well the model generalises.

"Huge batches give a noisier gradient, and that noise acts as a regulariser" shares its
words with "small batches are noisier and the noise acts like a regulariser", and MiniLM
places them together; the first says the opposite of the second. Before a key point is
credited, the trends its sentences state are compared with the ones the answer states
(``Matcher._contradicted``).

Rules (documented for reviewers and candidates):

* A *size* is a size word said of a thing: up ("big", "bigger", "large", "huge",
  "increase", "raise", "double", "grow") or down ("small", "smaller", "tiny", "shrink",
  "reduce", "lower", "halve"). The thing is the first content word after it ("a bigger
  batch", "increase the batch size"); a size word that ends its clause is said of the
  content word before it ("as the batch grows, ..."). "One" and "ones" stand for the
  thing named last ("small batches are noisy; bigger ones are smooth"). A size after
  "than" names what the thing is compared with ("noisier than small ones"): the words
  after it are not said of it.
* A *noise* word says the updates get noisier ("noisier", "noisy", "jittery", "more
  noise", "extra noise", "adds noise", "higher variance") or less noisy ("cleaner",
  "smoother", "exact", "accurate", "stable", "less noise", "averages out", "loses the
  noise", "reduces the variance"; a size verb right before a noise word says its way, not
  a size). "Less" or a negation within the two words before it turns it over ("less
  noisy", "not as stable"); "keep" or "stay" before it makes it an aim ("to keep it
  stable"), which says nothing.
* A *generalisation* word says the model generalises better or worse ("generalise
  better", "generalises a little worse", "better generalisation").
* A sentence is cut where it contrasts ("but", "while", "whereas", "unlike"); in each
  piece a noise or generalisation word goes with the nearest size before it, and with
  none when none is before it ("if it's still jumpy, bigger batches help" is no claim
  that they jump). The *trend* is the thing, the quality, and whether the quality goes
  the same way as the thing's size (+1: "huge batches are noisier") or the other way
  (-1: "small batches are noisier", "very large batches may generalise a little worse").
  A size that names the owner of a noise that is lost ("you lose the useful noise of
  small batches, which ...") goes with nothing after it: what follows may be said of
  the thing that lost the noise or of its owner.
* An answer contradicts a rubric sentence when it states a trend of the sentence's thing
  the other way round, and never the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sayitout.scoring.lexicon import (
    LESS_WORDS,
    NOISE_WORDS,
    denies,
    owns_what_is_lost,
    wordset,
)
from sayitout.scoring.text import STOPWORDS, clause_tokens, ends_sentence, stem

UP, DOWN = 1, -1


NOISE, GENERALISATION = "noise", "generalisation"


@dataclass(frozen=True)
class Trend:
    """A thing, a quality of it, and whether the quality goes the way the thing's size
    goes (+1) or the other way (-1)."""

    thing: str
    quality: str
    sign: int


_SIZES = {
    **dict.fromkeys(
        wordset(
            """big bigger biggest large larger largest huge giant massive enormous increase
            increases increasing increased raise raises raising raised double doubles
            doubling doubled grow grows growing grew enlarge enlarges enlarging"""
        ),
        UP,
    ),
    **dict.fromkeys(
        wordset(
            """small smaller smallest tiny little decrease decreases decreasing decreased
            reduce reduces reducing reduced shrink shrinks shrinking shrank lower lowers
            lowering lowered halve halves halving halved"""
        ),
        DOWN,
    ),
}
_NOISY = {
    **dict.fromkeys(
        wordset("noisier noisy noisiest jittery jittier jumpier jumpy bumpier erratic"), UP
    ),
    **dict.fromkeys(
        wordset(
            """cleaner clean smoother smooth exact accurate precise stable stabler steadier
            steady"""
        ),
        DOWN,
    ),
}
"""Words that say which way the noise goes by themselves."""
_MORE = wordset("more extra added higher greater lots plenty add adds adding inject injects")
_AVERAGES = wordset("average averages averaging averaged")
_GENERALIS = ("generalis", "generaliz")
_BETTER_WORSE = {"better": UP, "worse": DOWN}
_DEGREES = wordset("a little bit slightly much even lot actually noticeably somewhat far")
_AWAY = wordset("out away")
_GOALS = wordset("keep keeps keeping stay stays remain remains")
_NO_THING = wordset("to so and as when if because until for")
"""Words after a size word that end the search for its thing ("as the batch grows to
keep it stable")."""
_FLIPS = wordset("less")
_STANDS_FOR = wordset("one ones")
_SKIP = STOPWORDS | wordset("much way even far get gets getting got become becomes becoming")
_BREAKS = wordset("but while whereas whilst unlike versus vs")
_CLAUSE = re.compile(r"[,:;.!?)]$")


def _pieces(text: str) -> list[list[tuple[str, bool]]]:
    """The text's words, each with whether a clause ends right after it, cut into the
    pieces of its sentences (at sentence ends and before a contrast word)."""
    pieces = clause_tokens(text, _BREAKS, ends_sentence)
    return [[(w, bool(_CLAUSE.search(raw.rstrip("\"'")))) for w, raw in p] for p in pieces]


def _generalisation(piece: list[tuple[str, bool]], i: int) -> int | None:
    """Which way generalisation goes in the words from ``i``: "generalise better",
    "generalises a little worse", "better generalisation"."""
    w = piece[i][0]
    if w.startswith(_GENERALIS):
        for x, _ in piece[i + 1 : i + 4]:
            if x in _BETTER_WORSE:
                return _BETTER_WORSE[x]
            if x not in _DEGREES:
                break
    elif w in _BETTER_WORSE and i + 1 < len(piece) and piece[i + 1][0].startswith(_GENERALIS):
        return _BETTER_WORSE[w]
    return None


def _noise(piece: list[tuple[str, bool]], i: int) -> int | None:
    """Which way the noise goes in the words from ``i``, if a noise word is there."""
    w = piece[i][0]
    before = [x for x, _ in piece[max(0, i - 3) : i]]
    if any(x in _GOALS for x in before[-2:]):
        return None  # "to keep it stable" is an aim, not what happens
    if w in _NOISY:
        way = _NOISY[w]
    elif w in NOISE_WORDS:
        if any(x in LESS_WORDS or x in _AVERAGES for x, _ in piece[max(0, i - 5) : i]):
            way = DOWN
        elif any(x in _MORE for x in before):
            way = UP
        else:
            return None
        before = []  # the word that gave the way is no "less" that turns it over
    elif w in _AVERAGES and i + 1 < len(piece) and piece[i + 1][0] in _AWAY:
        return DOWN  # "a bigger batch averages out the noise"
    else:
        return None
    if any(x in _FLIPS or denies(x) for x in before[-2:]):
        way = -way  # "less noisy", "not as stable"
    return way


def _thing(piece: list[tuple[str, bool]], i: int, last: str | None) -> str | None:
    """What the size word at ``i`` is said of (see the module docstring)."""
    after = [w for w, _ in piece[i + 1 : i + 3]]
    if any(w in NOISE_WORDS for w in after):
        return None  # "reduces gradient variance" says which way the noise goes
    if not piece[i][1]:
        for w in after:
            if w in _NO_THING:
                break
            if w in _SKIP:
                continue
            if w in _NOISY or w in NOISE_WORDS or w in _SIZES:
                break
            return last if w in _STANDS_FOR else stem(w)
    for w, _ in reversed(piece[max(0, i - 3) : i]):
        if w not in _SKIP and w not in _SIZES and w not in _NOISY:
            return last if w in _STANDS_FOR else stem(w)
    return None


def _compared_with(piece: list[tuple[str, bool]], i: int) -> bool:
    """The size word at ``i`` names what its sentence's thing is compared with ("huge
    batches are noisier than *small* ones"): what follows is not said of it."""
    before = [w for w, _ in piece[max(0, i - 2) : i]]
    return "than" in before


def trends(text: str) -> tuple[Trend, ...]:
    """The trends ``text`` states (see the module docstring)."""
    out: list[Trend] = []
    last: str | None = None
    for piece in _pieces(text):
        sizes: list[tuple[int, str, int]] = []
        words = [w for w, _ in piece]
        for i, w in enumerate(words):
            if w in _SIZES:
                thing = _thing(piece, i, last)
                if thing is not None:
                    last = thing
                    if owns_what_is_lost(words, i):
                        sizes.append((i, thing, 0))  # what follows goes with no size
                    elif not _compared_with(piece, i):
                        sizes.append((i, thing, _SIZES[w]))
        if not sizes:
            continue
        for i in range(len(piece)):
            for quality, read in _QUALITIES:
                way = read(piece, i)
                earlier = [s for s in sizes if s[0] < i]
                if way is not None and earlier and earlier[-1][2]:
                    _, thing, size = earlier[-1]
                    out.append(Trend(thing, quality, size * way))
    return tuple(dict.fromkeys(out))  # each once, in the order first said


def contradiction(rubric: tuple[Trend, ...], answer: tuple[Trend, ...]) -> Trend | None:
    """The rubric sentence's trend the answer states only the other way round ("huge
    batches give a noisier gradient" against "small batches are noisier"), else None."""
    said = {(t.thing, t.quality, t.sign) for t in answer}
    for r in rubric:
        if (r.thing, r.quality, -r.sign) in said and (r.thing, r.quality, r.sign) not in said:
            return r
    return None


_QUALITIES = ((NOISE, _noise), (GENERALISATION, _generalisation))
