"""The overall 0-100 score and the one-line verdict."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from sayitout.scoring import reasons
from sayitout.scoring.matching import Params
from sayitout.scoring.numbers import format_number
from sayitout.scoring.result import KeyPointResult, MisconceptionResult, NumericResult


def coverage(key_points: list[KeyPointResult]) -> float:
    """Weighted key-point coverage in 0..1: each key point's weight times its credit."""
    total = sum(k.weight for k in key_points)
    if total <= 0:
        return 0.0
    return sum(k.weight * k.earned for k in key_points) / total


def overall_score(
    key_points: list[KeyPointResult],
    numeric: NumericResult | None,
    misconceptions: list[MisconceptionResult],
    params: Params,
    thin: bool = False,
) -> int:
    """Weighted coverage (and, for numeric questions, the final number), minus penalties:
    the misconceptions stated and the key points said the other way round.

    Coverage counts in full from ``params.full_coverage`` (``thin_full_coverage`` for a
    ``thin`` rubric, whose key points have no paraphrases): a strong answer makes the
    main points and their reasons, not every point a rubric lists."""
    full = params.thin_full_coverage if thin else params.full_coverage
    cov = min(1.0, coverage(key_points) / full)
    if numeric is not None:
        share = params.numeric_share
        got = 1.0 if numeric.correct else params.near_miss_credit if numeric.close else 0.0
        raw = 100.0 * (share * got + (1 - share) * cov)
    else:
        raw = 100.0 * cov
    raw -= sum(m.penalty for m in misconceptions)
    raw -= sum(k.penalty for k in key_points)
    return int(max(0, min(100, round(raw))))


_NAMES = frozenset(
    "Adam He Xavier Glorot Kaiming Chinchilla Nesterov Kaplan Gaussian Bernoulli Python".split()  # noqa: SIM905
)
"""Names a rubric sentence may open with ("Adam with L2 ...", "He initialisation ...")."""


def _lower_first(text: str) -> str:
    """``text`` to follow a colon: its first letter in lower case, unless its first word
    is a name (an acronym, ``_NAMES``, or a word the text capitalises again later on)."""
    text = text.strip().rstrip(".")
    first = re.match(r"[\w-]+", text)
    word = first.group() if first else ""
    named = (
        word in _NAMES
        or any(c.isupper() or c.isdigit() for c in word[1:])  # "AdamW", "ReLU", "GPT-3"
        or (word and re.search(rf"(?<=[^.!?]\s){re.escape(word)}\b", text[1:]))
    )
    if len(text) > 1 and text[0].isupper() and not text[1].isupper() and not named:
        text = text[0].lower() + text[1:]
    return text


def _short(text: str, limit: int = 90) -> str:
    text = _lower_first(text)
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def _the_ask(question: str) -> str:
    """What a question asks: its last sentence that ends in a question mark ("You raise
    the batch size from 256 to 1,024 on the same SGD setup. What's a common starting
    point for the learning rate?" -> the second), shortened."""
    asks = [q for q in re.split(r"(?<=[.?!])\s+", question.strip()) if q.endswith("?")]
    return _short(asks[-1] if asks else question, 80)


def _gap(k: KeyPointResult, prompted: Collection[str], turned: Collection[str], full: bool) -> str:
    if k.id in prompted:
        return "made only when prompted"
    if k.id in turned:
        # the candidate said it, the wrong way round: "missed" would tell them they didn't
        return "said the other way round"
    if full:
        # full marks: "you missed" under 100/100 reads as a contradiction
        return "to go further"
    return "you missed" if k.status == "missed" else "only partly"


def verdict(
    answer: str,
    key_points: Sequence[KeyPointResult],
    numeric: NumericResult | None,
    misconceptions: Sequence[MisconceptionResult],
    prompted: Collection[str] = frozenset(),
    answers_other: str | None = None,
    full: bool = False,
) -> str:
    """One specific line for the candidate. ``prompted``: the ids of key points a
    follow-up reply made; the line names the gap that matters most, a point never made
    before one made only when prompted. ``answers_other``: the question the answer
    answers instead of this one, which the line then says first (on a small screen the
    notes may be out of view). ``full``: the answer earned full marks, so a point it did
    not make is one to go further with, not one it missed."""
    if not answer.strip():
        return "Nothing was said, so there is nothing to score."
    if answers_other is not None:
        made = sum(1 for k in key_points if k.id in prompted)
        later = f"; {made} key point{'s' * (made != 1)} made when prompted" if made else ""
        return f'Answers another question ("{_the_ask(answers_other)}"), not this one{later}.'
    covered = [k for k in key_points if k.status == "covered"]
    # said the wrong way round: a reason other than "those words state a misconception"
    # (the misconception is named on its own below, and the point was not said at all)
    claims = {reasons.misconception(m.text) for m in misconceptions}
    turned = {k.id for k in key_points if k.reason is not None and k.reason not in claims}
    partial = [k for k in key_points if k.status == "partial" and k.id not in prompted]
    # what to work on: a key point said the wrong way round (the candidate thinks they
    # made it), else the heaviest one missed outright, else one only partly made
    missed = sorted(
        (k for k in key_points if k.status != "covered"),
        key=lambda k: (k.id in prompted, k.id not in turned, k.status != "missed", -k.weight),
    )
    parts: list[str] = []
    if numeric is not None:
        expected = _quantity(numeric.expected, numeric.unit)
        if numeric.correct:
            heard = format_number(numeric.heard) if numeric.heard is not None else "?"
            parts.append(f"Right number ({_quantity_text(heard, numeric.unit)})")
        elif numeric.heard is None:
            parts.append(f"No final number heard (it is {expected})")
        else:
            heard = _quantity(numeric.heard, numeric.heard_unit)
            label = "Close, but not the number" if numeric.close else "Wrong number"
            parts.append(f"{label}: {heard}, expected {expected}")
        if missed:
            parts.append(f"{_gap(missed[0], prompted, turned, full)}: {_short(missed[0].text)}")
        elif numeric.correct:
            parts[-1] += ", with every step explained"
    else:
        n = len(key_points)
        if len(covered) == n:
            parts.append(f"Strong: covers all {n} key points")
        else:
            line = f"Covers {len(covered)} of {n} key points"
            made_later = sum(1 for k in key_points if k.status != "covered" and k.id in prompted)
            more = [
                f"{len(partial)} more partly" if partial else "",
                f"{made_later} more when prompted" if made_later else "",
            ]
            if any(more):
                line += f" ({', '.join(m for m in more if m)})"
            parts.append(line)
            if missed:
                parts.append(f"{_gap(missed[0], prompted, turned, full)}: {_short(missed[0].text)}")
    if misconceptions:
        worst = max(misconceptions, key=lambda m: m.penalty)
        extra = f" (+{len(misconceptions) - 1} more)" if len(misconceptions) > 1 else ""
        parts.append(f"states a misconception: {_short(worst.text, 70)}{extra}")
    line = "; ".join(parts)
    return line if line.endswith(("…", ".")) else line + "."


def _quantity_text(number: str, unit: str | None) -> str:
    return f"{number} {unit}" if unit else number


def _quantity(value: float, unit: str | None) -> str:
    """``2.303`` or ``14 GB``: a number with its unit, when it has one."""
    return _quantity_text(format_number(value), unit)
