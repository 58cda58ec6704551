"""Where a schedule starts and which way it goes next: "start with a small learning rate
and raise it" against "start with a high learning rate and lower it".

``polarity`` reads one direction per thing, and a text that says two ("starting with a
high learning rate and lowering it") gives it none to compare. Warmup's misconception is
such a text, so the embeddings alone told it from the right schedule, and the two read
within a few hundredths of each other: three reversed dev answers scored 50 to 80. Before
a key point is credited or a misconception is flagged, the schedules its sentences state
are compared with the ones the answer states (``Matcher._contradicted``,
``Matcher._directed_as``).

Rules (documented for reviewers and candidates):

* A *start* is a starting word ("start", "starts", "starting", "begin", "initially", "at
  first") followed within four words by a level: high ("high", "large", "big", "huge",
  "full", "peak") or low ("low", "small", "tiny", "zero"). Only a few words may come
  between them ("with a", "at the", "off", "the learning rate", "near", "very"): "at the
  start the gradients are large" says nothing of where the schedule starts.
* A start after "if", "without", "instead", "rather", "otherwise" or a negation within
  the five words before it is no claim ("if you start with a big learning rate, it
  diverges").
* The *change* is the first direction verb within 25 words after the level: down
  ("lower", "decrease", "reduce", "decay", "anneal", "cut", "shrink", "bring it down",
  "ramp it down") or up ("raise", "increase", "grow", "rise", "climb", "ramp it up",
  "bring it up"; "ramp" alone goes up). A start with no change after it is no schedule.
* A schedule is the pair (start level, change). An answer contradicts a rubric sentence
  when it states the sentence's schedule with both parts turned round ("starts high and
  lowers it" against "start small and raise it") and never the sentence's own; it states
  a misconception's schedule when it says that one and never the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from sayitout.scoring.lexicon import wordset
from sayitout.scoring.text import words

HIGH, LOW = 1, -1
UP, DOWN = 1, -1


@dataclass(frozen=True)
class Schedule:
    """Where a schedule starts (``HIGH`` or ``LOW``) and which way it goes next (``UP`` or
    ``DOWN``)."""

    start: int
    then: int

    @property
    def other(self) -> Schedule:
        """The same schedule with both parts turned round."""
        return Schedule(-self.start, -self.then)


_STARTS = wordset("start starts started starting begin begins beginning began initially")
_HIGH = wordset("high higher large larger big bigger huge full peak max maximum")
_LOW = wordset("low lower small smaller tiny zero little")
_BETWEEN = wordset(
    "with at off from out on a an the very really quite fairly pretty near close to "
    "learning rate lr it its step steps value"
)
"""Words that may come between a starting word and its level ("starts *with a* large
learning rate", "starts *the learning rate* high")."""
_NO_CLAIM = wordset(
    "if without instead rather otherwise not never don't dont doesn't doesnt isn't isnt "
    "wouldn't wouldnt shouldn't shouldnt unless"
)
_DOWN = wordset(
    """lower lowers lowering lowered decrease decreases decreasing decreased reduce reduces
    reducing reduced decay decays decaying decayed anneal anneals annealing annealed cut
    cuts cutting shrink shrinks shrinking drop drops dropping"""
)
_UP = wordset(
    """raise raises raising raised increase increases increasing increased grow grows
    growing grew rise rises rising rose climb climbs climbing climbed"""
)
_TURNS = wordset("bring brings bringing brought ramp ramps ramping ramped take takes taking")
"""Verbs whose way the word after them says ("bring it down", "ramp it up"); "ramp"
alone goes up."""
_LEVEL_REACH = 4
_CHANGE_REACH = 25


def schedules(text: str) -> tuple[Schedule, ...]:
    """Every schedule ``text`` states (see the module docstring)."""
    norms = [w.norm for w in words(text)]
    found = []
    for k, w in enumerate(norms):
        first = w == "first" and k > 0 and norms[k - 1] == "at"
        if (w not in _STARTS and not first) or any(
            v in _NO_CLAIM for v in norms[max(0, k - 5) : k]
        ):
            continue
        level = _level(norms, k + 1)
        if level is None:
            continue
        start, at = level
        then = _change(norms, at + 1)
        if then is not None:
            found.append(Schedule(start, then))
    return tuple(found)


def _level(norms: list[str], k: int) -> tuple[int, int] | None:
    """(the level, its index) said within reach from ``norms[k]``, with only the words of
    ``_BETWEEN`` before it."""
    for i in range(k, min(len(norms), k + _LEVEL_REACH)):
        if norms[i] in _HIGH:
            return HIGH, i
        if norms[i] in _LOW:
            return LOW, i
        if norms[i] not in _BETWEEN:
            return None
    return None


def _change(norms: list[str], k: int) -> int | None:
    """The way of the first direction verb within reach from ``norms[k]``."""
    for i in range(k, min(len(norms), k + _CHANGE_REACH)):
        w = norms[i]
        if w in _DOWN:
            return DOWN
        if w in _UP:
            return UP
        if w in _TURNS:
            after = norms[i + 1 : i + 4]
            if "down" in after:
                return DOWN
            if "up" in after or w.startswith("ramp"):
                return UP
    return None


def contradiction(rubric: tuple[Schedule, ...], answer: tuple[Schedule, ...]) -> Schedule | None:
    """The rubric sentence's schedule the answer states only turned round, else None."""
    return next((s for s in rubric if s.other in answer and s not in answer), None)


def states(rubric: tuple[Schedule, ...], answer: tuple[Schedule, ...]) -> bool:
    """Whether the answer states one of the rubric sentence's schedules and never the
    other way round."""
    return any(s in answer and s.other not in answer for s in rubric)
