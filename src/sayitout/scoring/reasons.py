"""Why a key point earned nothing though the answer talked about it: one sentence for the
candidate.

A candidate who says "gradient accumulation" but steps the optimizer after every
micro-batch is right to get no credit for the key point, and wrong to be told only "you
missed: use gradient accumulation". The readers that take the credit away know why: the
steps in the other order (``sequence``), a switch the other way in a phase (``phases``),
the other cadence (``cadence``), a thing's noise going the other way with its size
(``trends``), a test's outcome read backwards (``outcomes``), a replacement the other
way round (``replacements``), the hold-up and the thing it holds up turned round
(``holdups``), the opposite term, words
that state a misconception, or the closest words going the other way or doing without
the point's practice (``polarity``; the card quotes them). Each reason here
says what the answer did and what the key point needs, in the candidate's terms.
"""

from __future__ import annotations

from sayitout.scoring import phases
from sayitout.scoring.cadence import BACKWARD, EACH, ONCE, STEP, ZERO, Cadence
from sayitout.scoring.holdups import HOLDS, Holdup
from sayitout.scoring.outcomes import BIGGER, Outcome
from sayitout.scoring.phases import Setting
from sayitout.scoring.replacements import Replacement
from sayitout.scoring.schedules import DOWN, HIGH, LOW, UP, Schedule
from sayitout.scoring.trends import GENERALISATION, NOISE, Trend

ORDER = "You said these steps in the other order."

_ACTIONS = {
    STEP: "call the optimizer step",
    ZERO: "zero the gradients",
    BACKWARD: "run the backward pass",
}
_FREQUENCIES = {EACH: "after each micro-batch", ONCE: "once, after the last one"}
_QUALITIES = {
    (NOISE, 1): "bigger means more noise",
    (NOISE, -1): "bigger means less noise",
    (GENERALISATION, 1): "bigger generalises better",
    (GENERALISATION, -1): "bigger generalises worse",
}


def cadence(point: Cadence) -> str:
    """The answer does ``point``'s action at the other frequency."""
    action = _ACTIONS.get(point.action, point.action)
    other = next(f for f in _FREQUENCIES if f != point.frequency)
    return (
        f"You {action} {_FREQUENCIES[other]}; this point needs it "
        f"{_FREQUENCIES.get(point.frequency, point.frequency)}."
    )


def switch(point: Setting) -> str:
    """The answer puts ``point``'s switch the other way in its phase."""
    if point.about == phases.WANTED_MODE:
        said, needed = ("eval", "train") if point.switch == phases.ON else ("train", "eval")
        return f"You ask for {said} mode during {point.phase}; this point needs {needed} mode then."
    if point.about == phases.STATISTICS:
        own, running = "each batch's own statistics", "the running averages"
        said, needed = (running, own) if point.switch == phases.ON else (own, running)
        return (
            f"You have batch norm use {said} during {point.phase}; this point has it use "
            f"{needed} then."
        )
    said, needed = ("off", "on") if point.switch == phases.ON else ("on", "off")
    return f"You have it {said} during {point.phase}; this point has it {needed} then."


def trend(point: Trend) -> str:
    """The answer says ``point``'s quality goes the other way with size."""
    other = _QUALITIES.get((point.quality, -point.sign), "")
    needed = _QUALITIES.get((point.quality, point.sign), "")
    return f"You said {other}; this point says the opposite: {needed}."


def outcome(point: Outcome) -> str:
    """The answer binds ``point``'s test outcome to the other verdict."""
    fit = "fits" if point.fits else "can't fit"
    other = "can't fit" if point.fits else "fits"
    if point.verdict == BIGGER:
        verdict = "needs to be bigger" if point.holds else "needs to be smaller"
        what = "the data"
    else:
        verdict = "has a bug" if point.holds else "is working"
        what = "the batch"
    return (
        f"You read the check the other way round; this point says a model that {fit} "
        f"{what} {verdict}, not one that {other} it."
    )


_TERMS = {"overfit": "overfitting", "underfit": "underfitting"}


def replacement(point: Replacement) -> str:
    """The answer puts ``point``'s incoming thing out and its outgoing thing in."""
    return (
        f"You said it the other way round; this point replaces {point.out_text} "
        f"with {point.into_text}."
    )


def holdup(point: Holdup) -> str:
    """The answer gives ``point``'s thing the other role."""
    if point.role == HOLDS:
        says = f"{point.text} holds the rest up, not that it waits"
    else:
        says = f"{point.text} waits, not that it holds the rest up"
    return f"You said it the other way round; this point says {says}."


def schedule(point: Schedule) -> str:
    """The answer states ``point``'s schedule turned round."""
    said, needed = point.other, point
    return (
        f"You said it starts {_LEVELS[said.start]} and then goes {_WAYS[said.then]}; "
        f"this point says it starts {_LEVELS[needed.start]} and goes {_WAYS[needed.then]}."
    )


_LEVELS = {HIGH: "high", LOW: "low"}
_WAYS = {UP: "up", DOWN: "down"}


def opposite_term(term: str, said: str) -> str:
    """The answer names ``said``, the opposite of the point's ``term`` (stems)."""
    return f"You said {_TERMS.get(said, said)}; this point is about {_TERMS.get(term, term)}."


def reversed_words(quote: str) -> str:
    """The closest words go the other way from the point ("raise" for its "lower")."""
    return f'You said "{quote}": the other way round from this point.'


def removed_words(quote: str) -> str:
    """The closest words do without what the point needs ("take clipping off")."""
    return f'You said to do without it: "{quote}".'


def widened_words(quote: str) -> str:
    """The closest words spread over everything what the point keeps to one thing ("to
    both sets" for its "only to the training set")."""
    return f'You said "{quote}": this point keeps it to one of them only.'


def misconception(text: str) -> str:
    """The words that came closest to the point state a misconception instead."""
    return f'Those words state a misconception instead: "{text.rstrip(".")}".'
