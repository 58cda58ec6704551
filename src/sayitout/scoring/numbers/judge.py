"""Judging the candidate's stated answer against the rubric's number.

Which number is the answer: among the numbers whose unit measures the same thing as the
rubric's unit (or, failing that, the numbers with no unit):

1. the last one introduced by "the answer is"; a bare number so introduced after every
   number in the rubric's quantity is the answer too ("4 bytes each, so the answer is
   112": the unit forgotten, the reason says to say it);
2. else, when the answer *leads* with a number ("Fourteen gigabytes. Each parameter
   takes two bytes in bf16, times seven billion"; "14 GB because ..."), that number:
   the numbers of the justification after it never displace it (a computation or a
   power that a comma follows does not lead: "It's 4096 squared, which is 16,777,216,
   plus the biases, so ..." goes on), unless one is said after a correction ("no wait,
   it's 112") or, when the lead was approximate ("about forty minutes. ... which is
   41.7 minutes"), a later result in the same unit refines it (the first within 10 % of
   the lead: "About 16.8 million — exactly 16,781,312. ... 4,096 squared = 16,777,216"
   is 16,781,312);
3. else the last one introduced by an answer cue ("so", "that's", "which gives", "=")
   or said as a result rather than an operand (a number right after an operator, as in
   "so plus 128", is an operand), else the last one. Passed over: numbers in a reason's
   clause after it ("about 2.3, because each class gets one tenth"; "ln 10 ≈ 2.303,
   since p = 0.1 for the true class"), numbers that describe something else ("14 GB,
   so it won't fit a 12 GB card"), amounts for each of something ("112 GB, sixteen
   bytes a parameter"), workings in parentheses ("= 512 samples (8 × 16 = 128 per GPU,
   × 4 GPUs)"), the ends of ranges ("1.5e-4; the second half then goes 1.5e-4 → 0") and
   where a quantity moves to from a start said before it ("begins around 0 and then
   climbs toward log ten, about 2.3" is 0).
   A rounding of an earlier result ("16,781,312 (≈16.8M)", "41.67 minutes, so about
   42", "total = 16,781,312 ≈ 16.8M params") leaves that result standing.

A stated answer that is one of the rubric's known mistakes (``NumericAnswer.mistakes``:
73,792 for 73,856 is a bias per input channel) is told what the slip is, and earns no
near-miss credit unless the mistake says so (a forgotten bias does). When the rubric
names its mistakes, a near miss said to every digit of the answer ("16,871,312" for
16,781,312) that is none of them is a wrong computation, not a rounding, and earns no
near-miss credit either; "around forty minutes" for 41.7 still does.

Numbers said along the way never earn or lose credit by themselves. When the rubric's
unit is only a label ("512 examples", "73,856 weights"), bare numbers and numbers with
that unit compete on equal terms, so a later bare final answer beats an earlier "128
examples per GPU". Numbers in a conditional or contrasting clause ("if you see six or
seven", "anything like five", "rather than ten", "not zero") never displace a plainly
stated one.

Units: a number in a different unit of the same quantity is converted (2,500 seconds is
41.7 minutes: the same quantity, which a careful interviewer accepts), and the reason
says so. A number in a unit of another quantity, or the right digits with the wrong unit
("41.7 seconds" for 41.7 minutes), is wrong. A bare number with no unit is judged on
its value, and the reason reminds the candidate to say the unit.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from sayitout.bank.models import NumericAnswer, NumericMistake
from sayitout.scoring import lexicon as lx
from sayitout.scoring.numbers.mentions import NumberMention, find_numbers
from sayitout.scoring.numbers.values import (
    bounded,
    format_number,
    last_place,
    same_number,
    significant_digits,
)
from sayitout.scoring.result import NumericResult

NEAR_MISS = 0.1
"""A stated answer this close to the rubric's number (relative), but outside its
tolerance, is a near miss ("around forty minutes" for 41.7): on the development set
every such answer was graded partial but one, a wrong sum said to every digit, which
earns nothing now (``judge``)."""


ESTIMATE_UNITS = 10
"""How far, in units of its last nonzero digit, a near miss may be from the answer: a
rounding or an estimate is off by a few ("38" for 41.7, "73,950" for 73,856), a wrong
computation said to its last digits by many more ("74,880" for 73,856: a hundred tens)."""


def unit_info(unit: str, accept: list[str] | tuple[str, ...] = ()) -> tuple[str, float] | None:
    """(quantity, factor) of a rubric unit, or None for a pure number / unknown unit."""
    for name in (unit, *accept):
        for key in (name.strip().lower(), name.strip()):
            if key in lx.UNITS:
                u = lx.UNITS[key]
                return u.quantity, u.factor
    return None


def _lead_answer(pool: list[NumberMention]) -> NumberMention | None:
    """The number the answer leads with, unless a correction or a refinement replaces it."""
    lead = next((m for m in pool if m.lead), None)
    if lead is None:
        return None
    later = pool[pool.index(lead) + 1 :]
    corrections = [m for m in later if m.corrected and not m.operand]
    if corrections:
        return corrections[-1]
    if lead.approximate or lead.vague:
        # the first result that says the lead exactly ("About 16.8 million, exactly
        # 16,781,312. ... 4,096 squared is 16,777,216"), else the last cued one
        exact = [
            m
            for m in later
            if not m.operand
            and m.unit == lead.unit
            and abs(m.value - lead.value) <= NEAR_MISS * abs(lead.value)
        ]
        if exact:
            return exact[0]
        refined = [m for m in later if m.cued and not m.operand and m.unit == lead.unit]
        if refined:
            return refined[-1]
    return lead


def pick_answer(
    mentions: list[NumberMention], quantity: str | None, bare_ok: bool = False
) -> NumberMention | None:
    """The stated answer (see the module docstring). ``bare_ok``: the rubric's unit is only
    a label (a count), so a bare number is as good an answer as one with the unit."""
    if not mentions:
        return None
    plain = [m for m in mentions if not m.hypothetical]
    mentions = plain or mentions
    if quantity and not bare_ok:
        # "4 bytes each, so the answer is 112": the unit forgotten, the answer said
        said = [m for m in mentions if m.quantity == quantity]
        told = [m for m in mentions if m.quantity is None and m.explicit]
        if (
            told
            and not any(m.explicit for m in said)
            and all(m.end <= told[-1].start for m in said)
        ):
            return told[-1]
    pools: list[list[NumberMention]] = []
    if quantity and bare_ok:
        if quantity != "count":
            # a rubric without a unit of its own that accepts one ("nats" for a loss):
            # a number said in it is said as the answer, a bare one after it is a
            # working ("ln(10) ≈ 2.3026 nats. Each class gets p ≈ 0.1"); a count's
            # nouns label every number of the working, so they single out nothing
            pools.append([m for m in mentions if m.quantity == quantity])
        pools.append([m for m in mentions if m.quantity in (quantity, None)])
    elif bare_ok:
        # no unit asked: a count said as a result is one too, its noun a label ("total =
        # 16,781,312 parameters" for a rubric that names no unit, as `sayitout import`
        # drafts a parameter count); a count in a working ("500 over 2,000 steps") is not
        pools.append(
            [m for m in mentions if m.quantity is None or (m.quantity == "count" and not m.operand)]
        )
    elif quantity:
        pools.append([m for m in mentions if m.quantity == quantity])
    pools.append([m for m in mentions if m.quantity is None])
    pools.append([m for m in mentions if m.quantity not in (None, "rate")])
    for pool in pools:
        if pool:
            explicit = [m for m in pool if m.explicit]
            if explicit:
                return explicit[-1]
            lead = _lead_answer(pool)
            if lead is not None:
                return lead
            stated = [m for m in pool if m.cued or not m.operand]
            while len(stated) > 1 and (
                _passed_over(stated[-1], stated[:-1]) or _said_again(stated[-1], stated[:-1])
            ):
                stated.pop()
            # the exact result a rounding stands for, said within the pool or outside it:
            # "total = 16,781,312 ≈ 16.8M params" is 16,781,312, though only the rounding
            # names the count
            m = (stated or pool)[-1]
            said = [b for b in mentions if b.end <= m.start and (b.cued or not b.operand)]
            return _exact(m, said)
    return mentions[-1]


def _exact(m: NumberMention, before: list[NumberMention]) -> NumberMention:
    """The last result of ``before`` that ``m`` rounds, else ``m`` (a correction is
    never a rounding: "16,781,312, no wait, 16.8 million")."""
    if m.corrected:
        return m
    rounded = [b for b in before if _rounds(m, b)]
    return rounded[-1] if rounded else m


def _passed_over(m: NumberMention, before: list[NumberMention]) -> bool:
    """Whether ``m`` leaves the results stated ``before`` it standing: a reason's number
    ("about 2.3, because each class gets one tenth"; "ln 10 ≈ 2.303, since p = 0.1"), a
    description of something else ("14 GB, so it won't fit a 12 GB card") or the end of
    a range ("... then it decays from 3e-4 to 0"), an amount for each of something
    ("112 GB, sixteen bytes a parameter"), a working in parentheses ("= 512 samples
    (8 × 16 = 128 per GPU, × 4 GPUs)") or a cosine's value after the result ("1.5e-4.
    ... halfway the cosine of ninety degrees is zero")."""
    if m.justifying or m.attributive or m.bound or m.reading:
        return True
    if m.evaluated and any(b.cued or b.lead for b in before):
        return True
    if m.aside and any(not b.aside for b in before):
        return True
    return m.in_reason and any(not b.in_reason for b in before)


def _said_again(m: NumberMention, before: list[NumberMention]) -> bool:
    """Whether ``m`` names again, uncued, a step that the working went past: a value said
    as a result and then worked on ("2/512 = 1/256 → σ = √(1/256) = 1/16 ≈ 0.063. ... i.e.
    variance 1/256"), or a rounding of such a value said right after it ("variance 1/256
    ≈ 0.0039"). A cued one is a result said again ("... 512 in all, so 128" stays 128: a
    wrong answer may go back to a step), and so is a value nothing worked on ("ln 10 ≈
    2.303. ... p = 0.1, so the batch mean is 2.303 too")."""
    if before and _rounds(m, before[-1]):
        m, before = before[-1], before[:-1]
    if m.cued or m.corrected:
        return False
    steps: dict[str, float] = {}  # the texts and values of ``m``'s earlier sayings so far
    for c in before:
        if any(c.value != v and _contains(c.text, t) for t, v in steps.items()):
            return True  # worked on after it was said
        if c.value == m.value or _rounds(m, c) or _rounds(c, m):
            steps[c.text] = c.value
    return False


def _contains(text: str, number: str) -> bool:
    """Whether ``number`` is said within ``text`` ("1/256" in "√(1/256)", not "1" in "16")."""
    return re.search(rf"(?<![\w.]){re.escape(number)}(?![\w.])", text) is not None


def _rounds(m: NumberMention, b: NumberMention) -> bool:
    """``m`` is ``b`` rounded to fewer significant digits, in the same unit, or either
    of them without one ("16,781,312 ≈ 16.8M params")."""
    if m.unit is not None and b.unit is not None and m.unit != b.unit:
        return False
    digits = significant_digits(m.value)
    if m.value == b.value or digits >= significant_digits(b.value) or b.value == 0:
        return False
    return same_number(m.value, float(f"{b.value:.{digits}g}"))


def judge(
    numeric: NumericAnswer, text: str, mentions: Sequence[NumberMention] | None = None
) -> NumericResult:
    """Judge the candidate's stated answer against the rubric. ``mentions``: the text's
    numbers (``find_numbers(text)``), when the caller has read them already."""
    mentions = list(find_numbers(text) if mentions is None else mentions)
    want = unit_info(numeric.unit, numeric.accept_units)
    want_q, want_f = want if want else (None, 1.0)
    unit_label = numeric.unit
    expected_txt = f"{format_number(numeric.value)} {unit_label}".strip()
    m = pick_answer(mentions, want_q, bare_ok=not numeric.unit.strip() or want_q == "count")

    def result(
        reason: str,
        *,
        heard: float | None = None,
        heard_unit: str | None = None,
        correct: bool = False,
        close: bool = False,
    ) -> NumericResult:
        return NumericResult(
            expected=numeric.value,
            tolerance=numeric.tolerance,
            unit=numeric.unit,
            heard=heard,
            heard_unit=heard_unit,
            heard_text=m.text if m is not None else None,
            correct=correct,
            reason=reason,
            close=close,
        )

    if m is None:
        return result(f"No number was heard; the answer is {expected_txt}.")
    value = m.value
    converted = ""
    accepted_spellings = {u.lower() for u in (numeric.unit, *numeric.accept_units)}
    if m.quantity is not None and want_q is not None and m.quantity != want_q:
        return result(
            f"Heard {format_number(m.value)} {m.unit}, which is not a quantity in {unit_label}; "
            f"the answer is {expected_txt}.",
            heard=m.value,
            heard_unit=m.unit,
        )
    if m.quantity is not None and want_q is not None and m.unit:
        unit = lx.UNITS.get(m.unit.lower()) or lx.UNITS[m.unit]
        if not math.isclose(unit.factor, want_f) and m.unit.lower() not in accepted_spellings:
            value = bounded(m.value * unit.factor / want_f)
            converted = f"{format_number(m.value)} {m.unit} is {format_number(value)} {unit_label}"
    elif (
        m.quantity is not None
        and want_q is None
        and numeric.unit
        and m.unit
        and m.unit.lower() not in accepted_spellings
    ):
        # the rubric's unit is not one we know: only its own spellings count
        return result(
            f"Heard {format_number(m.value)} {m.unit}, but the answer is in {unit_label}: "
            f"{expected_txt}.",
            heard=m.value,
            heard_unit=m.unit,
        )
    correct = _within(value, numeric.value, numeric.tolerance) and not m.vague
    if not correct and not m.vague and m.quantity == "ratio" and want_q is None:
        # a plain-number answer said as a percentage: "10 percent" for 0.1
        as_fraction = m.value * lx.UNITS["percent"].factor
        if _within(as_fraction, numeric.value, numeric.tolerance):
            value, correct = as_fraction, True
            converted = f"{format_number(m.value)} {m.unit} is {format_number(value)}"
    close = (
        not correct
        and not m.vague
        and numeric.value != 0
        and abs(value - numeric.value) <= NEAR_MISS * abs(numeric.value)
    )
    slip = None if correct or m.vague else _known_mistake(numeric, value)
    if slip is not None:
        close = slip.partial  # a wrong computation is no near miss, however close
    elif (
        close
        and not m.approximate
        and (not _an_estimate(value, numeric.value) or _computed(m, mentions))
    ):
        # "16,871,312" for 16,781,312, "74,880" for 73,856: not the answer rounded or
        # estimated to the digits said, and none of the slips the rubric names (an
        # imported deck's drafted number names none): a wrong computation; so is one
        # that adds or multiplies the answer's own numbers ("73,728 ... 64 + 128 = 192,
        # total 73,920"), however near
        close = False
    how = f" ({m.note})" if m.note else ""
    said = " ".join(x for x in (format_number(m.value), m.unit or "") if x)
    but = "close, but the answer is" if close else "the answer is"
    if correct:
        if converted:
            reason = f"Right: {converted}{how}."
        elif m.unit is None and numeric.unit and want_q not in (None, "count"):
            reason = f"Right value, {format_number(value)}{how}; say the unit too ({unit_label})."
        else:
            shown = " ".join(x for x in (format_number(value), m.unit or unit_label) if x)
            reason = f"Right: {shown}{how}."
    elif m.vague:
        reason = f'Heard only "{m.text}"; say the exact number: {expected_txt}.'
    elif slip is not None:
        reason = f"Heard {said}{how}: {slip.why.rstrip('.')}. {but.capitalize()} {expected_txt}."
    elif converted:
        is_ = f"{format_number(value)} {unit_label}"
        reason = f"Heard {said}, which is {is_}; {but} {expected_txt}."
    elif close:
        reason = f"Heard {said}{how} as your answer: {but} {expected_txt}."
    else:
        reason = f"Heard {said}{how} as your answer, but it is {expected_txt}."
    return result(
        reason,
        heard=value,
        heard_unit=numeric.unit if converted else m.unit,
        correct=correct,
        close=close,
    )


def _an_estimate(value: float, target: float) -> bool:
    """Whether ``value`` could be ``target`` rounded or estimated to the digits said: off
    by at most ``ESTIMATE_UNITS`` units of its last nonzero digit ("38 minutes" or
    "forty" for 41.7, "16.8 million" for 16,781,312, "74,000" for 73,856; not "74,880",
    off by a hundred units of the tens it is said to)."""
    if value == 0 or not math.isfinite(value):
        return False
    return abs(value - target) <= ESTIMATE_UNITS * last_place(value) * (1 + 1e-9)


def _computed(m: NumberMention, mentions: Sequence[NumberMention]) -> bool:
    """Whether ``m``, said to three significant digits or more, is the exact sum or
    product of two numbers the answer said before it: a result of its own working
    ("73,728 ... 64 + 128 = 192, total 73,920"), not a rounding or an estimate."""
    if significant_digits(m.value) < 3:
        return False
    before = [b.value for b in mentions if b.end <= m.start and b.value != m.value]
    return any(
        math.isclose(m.value, a + b) or math.isclose(m.value, a * b)
        for i, a in enumerate(before)
        for b in before[i + 1 :]
    )


def _known_mistake(numeric: NumericAnswer, value: float) -> NumericMistake | None:
    """The rubric's known mistake that ``value`` (in the rubric's unit) is, if any."""
    for slip in numeric.mistakes:
        tol = numeric.tolerance if slip.tolerance is None else slip.tolerance
        if _within(value, slip.value, tol):
            return slip
    return None


def _within(value: float, target: float, tolerance: float) -> bool:
    """``value`` is ``target`` within ``tolerance``, plus a hair for float rounding."""
    return abs(value - target) <= tolerance + 1e-9 * max(1.0, abs(target))


def states_point_value(reply: str, point_texts: Sequence[str], asked: str = "") -> bool:
    """Whether ``reply`` states a value that the key point (its text and paraphrases)
    says and the question ``asked`` does not give away.

    A reply to a follow-up is often just the value ("one tenth", "0.1", "ten percent"):
    too short for the embedding model to match the key point's whole sentence, yet
    exactly what was asked. Values the question itself mentions ("over ten classes")
    do not count. A percentage also counts as its fraction (ten percent = 0.1).
    """
    given = [m.value for m in find_numbers(asked)]
    targets = {
        m.value
        for text in point_texts
        for m in find_numbers(text)
        if not any(same_number(m.value, g) for g in given)
    }
    if not targets:
        return False
    said: list[float] = []
    for m in find_numbers(reply):
        if m.operand or m.hypothetical:
            continue
        said.append(m.value)
        if m.unit == "percent":
            said.append(m.value / 100)
    return any(same_number(s, t) for s in said for t in targets)
