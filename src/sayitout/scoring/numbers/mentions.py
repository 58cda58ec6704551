"""Every number a candidate states, with its unit and how it was said.

``find_numbers(text)`` reads each number (see ``parse``) and looks at the words around
it: its unit ("fourteen gigabytes", "fifty thousand tokens a second"), whether it is
introduced as a result ("so", "that's", "the answer is"), said as an operand ("of ten",
"divided by sixty") or in a hypothetical clause ("if you see six"), said vaguely
("forty something"), said first as the answer ("Fourteen gigabytes. Each parameter
..."), or said after a correction ("no wait, it's 112"). Numbers that are part of a
name ("zero grad", "zero-shot", "ResNet fifty", "fp16", "top one") are not numbers.

An arithmetic chain ("4096 x 4096 + 4096", "three times three times sixty four") adds
one more mention after its operands: the chain's value, marked ``computed``.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from sayitout.scoring import lexicon as lx
from sayitout.scoring.numbers.parse import expression
from sayitout.scoring.numbers.tokens import Tok, tokenise
from sayitout.scoring.numbers.values import bounded, format_number, same_number


@dataclass(frozen=True)
class NumberMention:
    value: float
    unit: str | None
    """Canonical unit (``GB``, ``minutes``...) or None when no unit was said."""
    quantity: str | None
    """What the unit measures (``bytes``, ``time``...), or ``rate`` for "per second"."""
    text: str
    start: int
    end: int
    cued: bool
    """Introduced as the answer ("so", "that's", "the answer is"...)."""
    note: str = ""
    """How it was read when that is not obvious (e.g. "half of 0.0003")."""
    operand: bool = False
    """Said as an operand or a label ("of ten", "divided by sixty", "step five hundred"),
    not as a result."""
    explicit: bool = False
    """Introduced by "the answer is" / "my answer is"."""
    vague: bool = False
    """Said vaguely ("forty something minutes", "fifty odd"): not an exact answer."""
    hypothetical: bool = False
    """Said in a conditional or contrasting clause ("if you see six", "rather than ten"):
    never displaces a plainly stated answer."""
    lead: bool = False
    """Said first, as the answer, before its justification ("Fourteen gigabytes. Each
    parameter takes two bytes..."; "14 GB because ...")."""
    approximate: bool = False
    """Introduced by "about", "roughly", "around"...: a later exact figure may refine it."""
    corrected: bool = False
    """Said after a correction ("no wait", "actually", "sorry, I mean"): it replaces what
    came before."""
    computed: bool = False
    """The value of an arithmetic chain the candidate said ("4096 x 4096 + 4096")."""
    justifying: bool = False
    """Said in a reason's clause ("because each class gets one tenth") and not introduced
    as a result: never displaces a result stated before it."""
    in_reason: bool = False
    """Said in a reason's clause, even as an equation's result ("2.303, since p = 0.1 for
    the true class"): never displaces a result stated before the reason."""
    attributive: bool = False
    """Said as a description of some other thing ("it won't fit a 12 GB card") or as a
    part of what was said before ("84 GB of that is the master weights"): never
    displaces a result stated before it."""
    aside: bool = False
    """Said inside parentheses ("= 512 samples (8 × 16 = 128 per GPU, × 4 GPUs)") or in a
    sentence that checks the result ("= 7.5e-5. Sanity: step 2000 -> full 3e-4"): a
    working shown on the side never displaces a result stated outside them."""
    bound: bool = False
    """The end of a range ("it decays from 3e-4 to 0"; "1.5e-4, and then it goes 1.5e-4
    → 0"): never displaces a result stated before it."""
    evaluated: bool = False
    """The value of a cosine or sine at an angle said just before it ("at the halfway
    mark the cosine of ninety degrees is zero"): a step of the working, which never
    displaces a result stated before it."""
    reading: bool = False
    """Said as a reading that something is judged by ("something like 8 or 15 means the
    initial logits are too large"; "a loss of, say, 5 or 8 would mean ..."): an example,
    which never displaces a result stated before it."""
    argument: float | None = None
    """The number a typed function was called on ("-ln(0.1)": 0.1): stated too, as the
    spoken "minus log of 0.1" states it (``Reading.argument``)."""
    number_span: tuple[int, int] | None = None
    """Where the number itself is, without an approximation word or unit ("forty one
    point seven" in "about forty one point seven minutes"); None for a chain's value."""


_CLAUSE_BREAK = re.compile(r"[,.;:!?—–]|\s-\s|\n")
_SENTENCE_BREAK = re.compile(r"[.;:!?—–]|\s-\s|\n")


def _before(toks: list[Tok], i: int, n: int = 5) -> list[str]:
    out = [t.text for t in toks[max(0, i - n - 3) : i]]
    return [w for w in out if w not in lx.APPROX and w not in lx.FILLERS][-n:]


def _over_a_symbol(toks: list[Tok], i: int) -> bool:
    """The number at ``i`` divides a symbol ("pi over two", "π/2"): its "over" is no
    "more than"."""
    return i >= 2 and toks[i - 1].text in ("over", "/") and toks[i - 2].text in lx.SYMBOLS


def _operand(toks: list[Tok], i: int, j: int) -> bool:
    if _over_a_symbol(toks, i):
        return True  # "the angle is pi over two": an operand of an expression
    before = _before(toks, i, 1)
    two = _before(toks, i, 2)
    if len(two) == 2 and two[1] == "of" and two[0] in lx.RESULT_OF:
        return False  # "a loss of roughly 2.30"
    if len(two) == 2 and two[1] == "at" and two[0] in lx.RESULT_AT:
        return False  # "you land at 112 GB"
    if before == ["at"] and _placed_at(toks, i):
        return False  # "puts the total, before activations, at 112 GB"
    if before and (before[0] in lx.OPERAND_BEFORE or before[0] in lx.OPERATOR_AFTER):
        return True
    if len(two) == 2 and two[1] == "the" and two[0] in lx.OPERAND_BEFORE:
        return True  # "half of the 3e-4 peak", "divided by the 256"
    # followed by an operator: "two thousand divided by", "five hundred over two thousand"
    after = [t.text for t in toks[j : j + 2]]
    if before and before[0] == "the" and after and after[0] in lx.REFERENCE_AFTER:
        return True  # "the two is there because ...": the number named, not a result
    return bool(after) and after[0] in lx.OPERATOR_AFTER


def _placed_at(toks: list[Tok], i: int, reach: int = 8) -> bool:
    """Whether the "at" before ``toks[i]`` ends a placing ("puts the total, before
    activations, at 112 GB"): a placing verb within ``reach`` words before it in its
    sentence, and no number between."""
    k = i - 1
    while k > 0 and toks[k].text != "at":
        k -= 1  # past "about" and fillers
    for j in range(k - 1, max(-1, k - 1 - reach), -1):
        if toks[j].kind == "num":
            return False
        if toks[j].text in lx.PLACING:
            return True
        if toks[j].after_break:
            return False
    return False


def _named_again(toks: list[Tok], i: int, value: float, found: list[_Found], cued: bool) -> bool:
    """A number said before but not as a result, named again after "the" ("√(2/512) =
    0.0625. Why the 2: ReLU ...") or, uncued (``cued``: a result cue before it), after a
    result was stated ("= 73,856. Each of the 128 filters spans all 64 input channels"):
    the operand talked about, not a result. A result said again ("2.303, so the answer is
    the 2.303 figure") stays one."""
    the = _before(toks, i, 1) == ["the"]
    if cued and not the:
        return False
    earlier = [f.mention for f in found if f.mention.value == value]
    if any(not m.operand for m in earlier):
        return False
    if not the:
        # a working's value said again is its result ("a quarter of 3e-4 is 7.5e-5")
        named = bool(earlier) and not any(m.note for m in earlier)
        return named and any(f.mention.cued and not f.mention.operand for f in found)
    return bool(earlier) or any(t.kind == "num" and t.value == value for t in toks[:i])


def _explicit(toks: list[Tok], i: int) -> bool:
    before = _before(toks, i, 3)
    return "answer" in before or "answer's" in before


_CUE_BREAK = re.compile(r"[.;!?](?:\s|$)|\n")
"""The end of a sentence: a result cue before it does not reach a number after it."""


def _cued(text: str, toks: list[Tok], i: int) -> bool:
    """A result cue ("so", "that's", "=") in the few words before ``toks[i]``, in its own
    sentence: in "= 0.0625 ≈ 0.063. Factor 2 makes up for ReLU" the "≈" cues 0.063, not
    the 2 of the next sentence's remark."""
    lo = i
    while lo > max(0, i - 8) and not _CUE_BREAK.search(text[toks[lo - 1].end : toks[lo].start]):
        lo -= 1
    before = _before(toks[lo:], i - lo)
    if before and before[-1] in lx.OPERATOR_AFTER:
        return False  # "so plus 128": an operand, whatever came before the operator
    if any(tuple(before[-len(cue) :]) == cue for cue in lx.CUES):
        return True
    return any(w in lx.STRONG_CUES for w in before[-3:])


def _justifying(text: str, toks: list[Tok], i: int, equations: bool = False) -> bool:
    """``toks[i]`` is in a clause that gives a reason ("because", "since"...), with no
    result cue ("so", "that's", "=") or clause break between the two ("since each class
    gets a tenth, the loss is 2.3": the reason ends at the comma). ``equations``: an
    equals sign does not end the reason ("since p = 0.1 for the true class"), and only
    "because" and "since" start one (in an equation "cos" is a cosine)."""
    for k in range(i - 1, -1, -1):
        # a clause break ends the reason, but "..., which is zero" goes on with it
        if _CLAUSE_BREAK.search(text[toks[k].end : toks[k + 1].start]) and (
            toks[k + 1].text != "which"
        ):
            return False
        w = toks[k].text
        if w in (lx.BECAUSE if equations else lx.JUSTIFYING):
            return True
        if w in lx.STRONG_CUES and not (equations and w in lx.EQUALS):
            return False
    return False


def _corrected(text: str, toks: list[Tok], i: int) -> bool:
    """A correction within the few words before ``toks[i]``: "no wait it's", "actually",
    "sorry, I mean", "scratch that"."""
    for k in range(i - 1, max(-1, i - 7), -1):
        w = toks[k].text
        if w in ("actually", "wait", "sorry", "correction", "oops", "scratch"):
            return True
        if w == "mean" and k > 0 and toks[k - 1].text == "i":
            return True
        if w == "no" and (
            _CLAUSE_BREAK.match(text[toks[k].end : toks[k].end + 1] or " ")
            or (k + 1 < len(toks) and toks[k + 1].text in ("it's", "its", "it", "that's", "the"))
        ):
            return True
    return False


def _is_name(text: str, toks: list[Tok], i: int, j: int) -> bool:
    """The number at ``toks[i:j]`` is part of a name: "fp16", "ResNet fifty", "zero grad",
    "zero-shot", "top one", "on batch 1". A mark between ends the name: "the top: 0.000075"
    is a value."""
    t = toks[i]
    if i > 0:
        prev = toks[i - 1]
        if (
            prev.kind == "word"
            and prev.end == t.start
            and t.kind == "num"
            and prev.text not in lx.TIMES
        ):
            return True  # glued to letters: fp16, bf16, int8, gpt4 (but not 4096x4096)
        if prev.text in lx.NAME_BEFORE and j == i + 1 and text[prev.end : t.start].isspace():
            return True
        if prev.text in lx.COUNTER_NOUNS and i > 1 and toks[i - 2].text in lx.COUNTER_PLACES:
            return True  # "on batch 1", "at step 500"
    if j < len(toks):
        nxt = toks[j]
        if nxt.text in lx.NAME_AFTER:
            return True
        if nxt.text in lx.ORDINAL_ENDINGS and nxt.start == toks[j - 1].end:
            return True  # "the 2nd half"
        if (
            nxt.text == "-"
            and nxt.start == toks[j - 1].end
            and j + 1 < len(toks)
            and toks[j + 1].kind == "word"
            and toks[j + 1].text not in lx.UNITS
            and toks[j + 1].text not in lx.ORDINALS
            and toks[j + 1].text != "ish"
        ):
            return True  # "zero-shot", "one-hot", "two-layer" (not "forty-ish")
    return False


def _is_hypothetical(toks: list[Tok], i: int) -> bool:
    for k in range(i - 1, max(-1, i - 8), -1):
        w = toks[k].text
        if w in lx.HYPOTHETICAL_BREAK:
            return False
        if w in lx.HYPOTHETICAL:
            if w == "instead":
                return k + 1 < len(toks) and toks[k + 1].text == "of"
            if w == "rather":
                return k + 1 < len(toks) and toks[k + 1].text == "than"
            return True
    return False


def _unit_at(toks: list[Tok], j: int) -> tuple[str, str, float, int] | None:
    """A unit word at ``toks[j]`` -> (canonical, quantity, factor, next index)."""
    n = len(toks)
    if j >= n:
        return None
    t = toks[j].text  # a unit written as two words is one token ("per cent": tokens)
    if t in lx.UNITS:
        unit = lx.UNITS[t]
        # a single letter is a unit only right after a digit literal ("14G", "3 s")
        if len(t) == 1 and t != "%" and j > 0 and toks[j - 1].kind != "num":
            return None
        return unit.canonical, unit.quantity, unit.factor, j + 1
    return None


def _is_rate(toks: list[Tok], j: int) -> int | None:
    """ "per second", "a second", "/s" after a number or unit -> index after it."""
    n = len(toks)
    if j < n and toks[j].text in ("per", "a", "an", "each", "every", "/") and j + 1 < n:
        u = toks[j + 1].text
        if u in lx.UNITS and lx.UNITS[u].quantity == "time":
            return j + 2
    return None


def _preamble(text: str, toks: list[Tok]) -> range:
    """Token indices where an answer said first may start: after the question read back
    ("How much memory? Fourteen gigabytes."), up to the first word that is not preamble
    ("So, um, it's about")."""
    first = k = 0
    while k < len(toks):
        t = toks[k]
        if t.text in lx.PREAMBLE or t.text in lx.FILLERS or t.text in "=~≈":
            k += 1
            continue
        brk = _SENTENCE_BREAK.search(text, t.start)
        if brk is None or brk.group() != "?":
            break
        k = first = next((x for x in range(k, len(toks)) if toks[x].start >= brk.end()), len(toks))
    return range(first, k + 1)


_AFTER_LEAD = lx.wordset(
    "each every which it's its about roughly around approximately approx ≈ ~ exactly precisely"
)
"""Words after a leading number and a comma that show it was the answer: its
justification ("14 GB, each parameter ...") or the number said again, rounded ("0.0625,
about 0.063") or made exact ("1.5e-4, exactly half the peak"; "roughly 2.3, more
precisely 2.303")."""


def _is_lead(
    text: str, toks: list[Tok], start_i: int, end_j: int, preamble: range, *, computed: bool = False
) -> bool:
    """The number at ``toks[start_i:end_j]`` opens the answer, said as the answer: only
    preamble words before it (``start_i in preamble``), and a sentence break or a
    justification ("because", "since") right after it, or a comma and a word of
    ``_AFTER_LEAD``. A computation followed by a comma goes on ("4096 times 4096, which
    is 2 to the 24, ... plus the biases"): it leads only before a sentence break or a
    justification."""
    if start_i not in preamble:
        return False
    if end_j >= len(toks):
        return True
    gap = text[toks[end_j - 1].end : toks[end_j].start]
    nxt = toks[end_j].text
    if computed and nxt in ("that's", "thats"):
        return False  # "eight times sixteen, that's 128 on each GPU, then times four"
    if _SENTENCE_BREAK.search(gap) or nxt in lx.JUSTIFICATION:
        return True
    if computed:
        return False
    # a comma is a pause in a disfluent answer ("um, eight, uh, eight per micro batch"),
    # not an answer's end, unless the justification or a rounding follows
    if nxt == "more" and end_j + 1 < len(toks):
        nxt = toks[end_j + 1].text  # "more precisely", "more exactly"
    return "," in gap and nxt in _AFTER_LEAD


def _duration_tail(text: str, toks: list[Tok], k: int, factor: float) -> tuple[float, int] | None:
    """The smaller unit of a compound duration after a number of time units ending at
    ``toks[k]`` ("forty-one minutes [and] forty seconds", "1 hour 5 minutes") ->
    (its value in the first unit, index after it)."""
    if k < len(toks) and toks[k].text == "and":
        k += 1
    if k >= len(toks) or _CLAUSE_BREAK.search(text[toks[k - 1].end : toks[k].start]):
        return None
    expr = expression(toks, k)
    if expr is None or expr.value != int(expr.value):
        return None
    unit = _unit_at(toks, expr.end)
    if unit is None or unit[1] != "time" or unit[2] >= factor:
        return None
    return expr.value * unit[2] / factor, unit[3]


_RANGE_TO = re.compile(r"\s*(?:→|->|⟶|to|down to|up to)\s*")


def _mark_bounds(text: str, toks: list[Tok], found: list[_Found]) -> list[_Found]:
    """``found`` with each range's end marked ``bound``: a number right after "to" or an
    arrow whose start is said "from" ("from 3e-4 to 0") or repeats an earlier result
    ("= 1.5e-4 ... goes 1.5e-4 → 0"). "goes 3e-4 → 1.5e-4" alone is a result. Both ends
    of a range said "between" after a result are marked ("0.00015, midway between
    0.0003 and zero")."""
    out = list(found)
    results: set[float] = set()  # the values said as results before out[k - 1]
    for k in range(1, len(out)):
        start, end = out[k - 1], out[k]
        gap = text[start.mention.end : end.mention.start]
        before = toks[start.start - 1].text if start.start > 0 else ""
        if _RANGE_TO.fullmatch(gap) and (before == "from" or start.mention.value in results):
            out[k] = _as_bound(end)
        if results and before == "between" and _BETWEEN_AND.fullmatch(gap):
            # "0.00015 ... midway between 0.0003 and zero": both ends of a range said
            # after a result leave it standing
            out[k - 1], out[k] = _as_bound(start), _as_bound(end)
        if not start.mention.operand:
            results.add(start.mention.value)
    for k, f in enumerate(out):
        if _from_words_to(text, toks, f.start):
            out[k] = _as_bound(f)
    return out


_STARTS = lx.wordset("start starts started starting begin begins began beginning initially")
"""Words that say a number is where something starts: "begins around 0", "starts at
2.3", "zero at the start"."""
_MOVES = lx.wordset(
    """climb climbs climbed climbing rise rises rising rose grow grows growing grew increase
    increases increasing fall falls falling fell drop drops dropping dropped decay decays
    decaying decrease decreases decreasing decline declines declining go goes going went
    head heads heading settle settles settling converge converges converging shrink shrinks
    shrinking ramp ramps ramping creep creeps creeping"""
)
_MOVE_ADVERBS = lx.wordset("up down back off linearly smoothly gradually slowly steadily")
_TOWARD = lx.wordset("to toward towards")
_AT_A_TIME = lx.wordset("halfway midway midpoint half step steps epoch epochs")
"""Words right after a destination that name the moment it is reached ("decays to 1.5e-4
halfway"): the value at that moment, which a question may ask for."""
_DESTINATION_REACH = 5
"""Tokens from "to" / "toward" to the destination's number at most ("climbs toward log
ten, about 2.3")."""
_MOVEMENT_REACH = 30
"""Tokens from a start's number to its destination's at most: a movement is said in one
breath, and the bound keeps a long answer's reading linear in its length."""


def _said_as_start(toks: list[Tok], f: _Found) -> bool:
    """The number of ``f`` is said as where something starts: a word of ``_STARTS``
    among the three tokens before it or after it ("begins around 0", "zero at the
    start")."""
    near = toks[max(0, f.start - 3) : f.start] + toks[f.after : f.after + 3]
    return any(t.text in _STARTS for t in near)


def _moved_to(text: str, toks: list[Tok], start: _Found, end: _Found) -> bool:
    """Between the numbers of ``start`` and ``end``, in one sentence, a verb of motion
    and "to" / "toward" lead to ``end`` ("begins around 0 and then climbs toward log
    ten, about 2.3"), and no moment follows ``end`` (``_AT_A_TIME``)."""
    if _SENTENCE_BREAK.search(text[start.mention.end : end.mention.start]):
        return False
    if any(t.text in _AT_A_TIME for t in toks[end.after : end.after + 3]):
        return False
    for k in range(start.after, end.start):
        if toks[k].text not in _MOVES:
            continue
        j = k + 1
        while j < end.start and toks[j].text in _MOVE_ADVERBS:
            j += 1
        if j < end.start and toks[j].text in _TOWARD and end.first - j <= _DESTINATION_REACH:
            return True
    return False


def _mark_destinations(text: str, toks: list[Tok], found: list[_Found]) -> list[_Found]:
    """``found`` with each number that a quantity moves to after a start said in the same
    sentence marked ``bound`` ("the loss begins around 0 and then climbs toward log ten,
    about 2.3": the answer about the start is 0). The end of a movement whose start is
    not said ("it should fall to about 2.3") and a value at a named moment ("starts at
    3e-4 and decays to 1.5e-4 halfway") stay results."""
    out = list(found)
    said_as_start = [_said_as_start(toks, f) for f in found]
    for k in range(1, len(out)):
        end = out[k]
        if end.mention.bound:
            continue
        for i in range(k - 1, -1, -1):  # the nearest start first, back to the reach
            if end.first - found[i].after > _MOVEMENT_REACH:
                break
            if said_as_start[i] and _moved_to(text, toks, found[i], end):
                out[k] = _as_bound(end)
                break
    return out


def _as_bound(f: _Found) -> _Found:
    return replace(f, mention=replace(f.mention, bound=True))


_BETWEEN_AND = re.compile(r"\s*(?:and|to|-|–)\s*")


_ALTERNATIVE = re.compile(
    r"\s*\+?\s*(?:,\s*)?(?:or|and|,)\s*(?:even\s+)?(?:≈|~|about|around|roughly)?\s*"
)
"""What joins two numbers of one list: "5 or 0.5", "5, 8", "5+ or ≈0", "23, or even 5" (a
"+" after a number is "or more", an approximation sign before one part of it)."""


def _read_as_sign(text: str, toks: list[Tok], f: _Found) -> bool:
    """A verb of meaning follows the number of ``f`` directly ("8 means", "5 would
    mean")."""
    words = [t.text for t in toks[f.after : f.after + 2]]
    # "twenty-three, or even five, means": the comma closes the list the number ends
    if not words or text[f.mention.end : toks[f.after].start].strip() not in ("", ","):
        return False
    if words[0] == "would":
        return len(words) > 1 and words[1] in lx.READING_AFTER_WOULD
    return words[0] in lx.READING


def _mark_readings(text: str, toks: list[Tok], found: list[_Found]) -> list[_Found]:
    """``found`` with each number that a verb of meaning follows marked ``reading``, with
    the numbers listed before it ("something like 8 or 15 means the logits are too
    large": both are examples of a reading, not results)."""
    out = list(found)
    for k in range(len(out) - 1, -1, -1):
        f = out[k]
        if _read_as_sign(text, toks, f):
            out[k] = replace(f, mention=replace(f.mention, reading=True))
        if k + 1 < len(out) and out[k + 1].mention.reading:
            nxt = out[k + 1].mention
            if _ALTERNATIVE.fullmatch(text[f.mention.end : nxt.start]):
                out[k] = replace(out[k], mention=replace(out[k].mention, reading=True))
    return out


def _mark_alternatives(text: str, found: list[_Found]) -> list[_Found]:
    """``found`` with each number listed after a hypothetical one ("if you see something
    far off, like 5 or 0.5"; "like 5+ or ≈0") marked hypothetical too: the list is one
    clause."""
    out = list(found)
    for k in range(1, len(out)):
        start, end = out[k - 1].mention, out[k].mention
        if start.hypothetical and _ALTERNATIVE.fullmatch(text[start.end : end.start]):
            out[k] = replace(out[k], mention=replace(end, hypothetical=True))
    return out


_DEFINED_AS = r"\s*(?:as|is|=|equals|means|being)\s*"
_UNIT_DEFINED = re.compile(r"\b(?:a|an|one|1)\s+([^\W\d]+)" + _DEFINED_AS + r"$", re.IGNORECASE)


def _defines(unit: str | None, value: float, unit_said: str | None) -> bool:
    """Whether one ``unit`` is ``value`` ``unit_said``: the same amount in another unit of
    its quantity."""
    one, other = lx.UNITS.get(unit or ""), lx.UNITS.get(unit_said or "")
    return (
        one is not None
        and other is not None
        and one.quantity == other.quantity
        and one.canonical != other.canonical
        and same_number(value * other.factor, one.factor)
    )


def _mark_definitions(text: str, found: list[_Found]) -> list[_Found]:
    """``found`` with a unit's definition set aside: in "14 GB, with 1 GB as 10⁹ bytes" or
    "where a gigabyte is a billion bytes" the bytes say what a gigabyte is, not the answer.
    Both sides of a definition are operands."""
    out = list(found)

    def aside(k: int) -> None:
        m = out[k].mention
        out[k] = replace(
            out[k], mention=replace(m, operand=True, cued=False, lead=False, explicit=False)
        )

    for k, f in enumerate(out):
        m = f.mention
        before = _UNIT_DEFINED.search(text[max(0, m.start - 40) : m.start])
        if before and _defines(before.group(1).lower(), m.value, m.unit):
            aside(k)
        elif (
            k
            and (one := out[k - 1].mention).value == 1
            and re.fullmatch(_DEFINED_AS, text[one.end : m.start])
            and _defines(one.unit, m.value, m.unit)
        ):
            aside(k - 1)
            aside(k)
    return out


def _from_words_to(text: str, toks: list[Tok], i: int) -> bool:
    """``toks[i]`` ends a range whose start is said in words, in the same clause: "from
    the peak to 0", "from its maximum down to zero"."""
    if i < 2 or toks[i - 1].text != "to":
        return False
    for k in range(i - 2, max(-1, i - 7), -1):
        if _CLAUSE_BREAK.search(text[toks[k].end : toks[k + 1].start]) or toks[k].kind != "word":
            return False
        if toks[k].text == "from":
            return True
    return False


_NOT_DESCRIBED = lx.wordset("of per each every and or in for to so because since than")


def _describes(text: str, toks: list[Tok], start_i: int, after: int) -> bool:
    """The number at ``toks[start_i:after]`` (with its unit) describes a thing named right
    after it, as in "a 24 GB card", "an 80 GB one", "one 80 GB GPU"."""
    return (
        start_i > 0
        and toks[start_i - 1].text in lx.DESCRIPTION_BEFORE
        and after < len(toks)
        and toks[after].kind == "word"
        and toks[after].text not in _NOT_DESCRIBED
        and not _CLAUSE_BREAK.search(text[toks[after - 1].end : toks[after].start])
    )


_TRIG = lx.wordset("cos cosine sin sine")
_IS = lx.wordset("is = equals gives becomes")


def _evaluated(text: str, toks: list[Tok], start_i: int) -> bool:
    """The number at ``toks[start_i]`` is said as the value of a cosine or sine taken in
    its own clause ("the cosine of ninety degrees is zero", "cos(pi/2) = 0", "at the
    midpoint that cosine is zero"). A relative clause's "which is" reads back over its
    commas to the sentence it hangs on ("the cosine of pi over two, a ninety-degree
    angle, which is zero")."""
    if start_i == 0 or toks[start_i - 1].text not in _IS:
        return False
    lo = start_i - 1
    relative = start_i >= 2 and toks[start_i - 2].text == "which"
    breaks = _SENTENCE_BREAK if relative else _CLAUSE_BREAK
    while (
        lo > max(0, start_i - (15 if relative else 9))
        and toks[lo - 1].text not in _IS
        and toks[lo - 1].text not in lx.STRONG_CUES
        and not breaks.search(text[toks[lo - 1].end : toks[lo].start])
    ):
        lo -= 1
    words = [t.text for t in toks[lo : start_i - 1]]
    if words and words[-1] in _TRIG:
        return True  # "at the midpoint that cosine is zero"
    return any(
        w in _TRIG and k + 1 < len(words) and words[k + 1] in ("of", "(")
        for k, w in enumerate(words)
    )


_WHOLE = lx.wordset("the its their that this his her")
_DEMONSTRATIVES = lx.wordset("that this")
"""Without "of" these start a clause ("0.1 that's ..."), not the thing shared."""


def _share_of(text: str, toks: list[Tok], after: int) -> bool:
    """The fraction ending at ``toks[after - 1]`` is a share of a thing named after it ("a
    quarter of the peak", "0.1 of the mass", "ReLU zeroes ~½ the pre-activations"): it
    describes that thing, not a result."""
    of = after < len(toks) and toks[after].text == "of"
    k = after + 1 if of else after
    return (
        k < len(toks)
        and toks[k].text in (_WHOLE if of else _WHOLE - _DEMONSTRATIVES)
        and not _CLAUSE_BREAK.search(text[toks[after - 1].end : toks[k].start])
    )


_BACK = lx.wordset("that it this which those these them")
"""Words that point back at something said before ("of that", "of which")."""


def _part_of_said(text: str, toks: list[Tok], after: int) -> bool:
    """The number ending at ``toks[after - 1]`` is a part of something said before it
    ("112 GB. Broken down, eighty-four gigabytes of that is the master weights"): a
    breakdown of a result, not a result."""
    return (
        after + 1 < len(toks)
        and toks[after].text == "of"
        and toks[after + 1].text in _BACK
        and not _CLAUSE_BREAK.search(text[toks[after - 1].end : toks[after + 1].start])
    )


_PER = frozenset(("a", "an", "per", "each", "every"))


def _per_item(text: str, toks: list[Tok], after: int) -> bool:
    """The number with its unit at ``toks[:after]`` is an amount for each of something
    ("sixteen bytes a parameter", "2 bytes per weight"), not a total. Not for counts:
    "512 examples per update" is the total asked for."""
    return (
        after + 1 < len(toks)
        and toks[after].text in _PER
        and toks[after + 1].kind == "word"
        and not (
            toks[after + 1].text in lx.UNITS and lx.UNITS[toks[after + 1].text].quantity == "time"
        )
        and not _CLAUSE_BREAK.search(text[toks[after - 1].end : toks[after + 1].start])
    )


def _in_parentheses(text: str) -> Callable[[int], bool]:
    """Whether ``text[at]`` is inside a parenthesis opened before it and not closed: the
    last "(" before it comes after the last ")" (two binary searches, so a long answer
    full of numbers stays linear)."""
    opens = [k for k, c in enumerate(text) if c == "("]
    closes = [k for k, c in enumerate(text) if c == ")"]

    def inside(at: int) -> bool:
        o = bisect.bisect_left(opens, at)
        c = bisect.bisect_left(closes, at)
        return o > 0 and (c == 0 or opens[o - 1] > closes[c - 1])

    return inside


_CHECK_END = re.compile(r"[.!?](?:\s|$)|\n")
"""Where a check ends: a full stop, "!" or "?", or a line break. Unlike the scorer's
sentence end (``text.SENTENCE_END``) a semicolon does not end one: the check runs on past
it ("Check: 0.0625² = 1/256 ✓; the factor 2 ... so 512 · (1/256) · ½ = 1")."""
_CHECK = re.compile(
    r"(?:^|(?<=[.!?;])\s+|\n\s*)(?:"
    r"(?:(?:a|as a|for a|just a)\s+)?(?:quick\s+)?"
    r"(?:sanity(?:[- ]check(?:ing)?)?|(?:double|cross)[- ]check(?:ing)?)"
    r"|(?:a|as a|for a|just a)\s+(?:quick\s+)?check"
    r"|(?:just\s+)?to\s+(?:double[- ])?check"
    r"|verify(?:ing)?|(?:quick\s+)?check(?:ing)?(?=\s*[:—–])"
    r"|(?:for|by|in)\s+comparison|(?:by|in)\s+contrast|compared?\s+(?:to|with)"
    r"|(?:out\s+)?of\s+(?:that|this|those|these|which|it|them)"
    r")\b",
    re.IGNORECASE,
)
"""A sentence that opens as a check of a result ("Sanity: step 1000 -> 1.5e-4", "As a
check, ...", "Just to check, ...", "Quick check: ...") or as a comparison ("For comparison,
Xavier would give √(1/512) ≈ 0.044", "By contrast, ...", "Compared with Xavier, ...")
or as a share of what was said before ("Of that, the optimizer side ... is eighty-four
gigabytes", "Out of those sixteen bytes, twelve are optimizer state"): its numbers are
the check's, the other thing's or the part's, not the answer. A bare "check" opens
one only before a colon or a dash ("Check the labels" is advice)."""


def _in_check(text: str) -> Callable[[int], bool]:
    """Whether ``text[at]`` is in a sentence that opens as a check (``_CHECK``). Each
    check runs to its sentence's end (``_CHECK_END``), so the spans are in order (one
    opened after a semicolon ends where the one before it does): one binary search a
    number, as in ``_in_parentheses``."""
    starts: list[int] = []
    ends: list[int] = []
    for m in _CHECK.finditer(text):
        end = _CHECK_END.search(text, m.end())
        starts.append(m.start())
        ends.append(end.start() if end else len(text))

    def inside(at: int) -> bool:
        k = bisect.bisect_right(starts, at) - 1
        return k >= 0 and at < ends[k]

    return inside


@dataclass(frozen=True)
class _Step:
    op: str  # "*", "/", "+", "-"
    mention: NumberMention


_OPS = {
    **dict.fromkeys(lx.TIMES, "*"),
    **dict.fromkeys(lx.DIVIDED, "/"),
    "+": "+",
    "plus": "+",
    "minus": "-",
}


def _operator(text: str, toks: list[Tok], j: int) -> tuple[str, int] | None:
    """An arithmetic operator at ``toks[j]`` -> (op, index after it)."""
    if j >= len(toks):
        return None
    t = toks[j].text
    if t == "divided" and j + 1 < len(toks) and toks[j + 1].text == "by":
        return "/", j + 2
    if t == "-":  # only a spaced minus ("4096 - 1"); "5-10" is a range, "1-10" a tenth
        spaced = (
            0 < j < len(toks) - 1
            and toks[j - 1].end < toks[j].start < toks[j].end < toks[j + 1].start
        )
        return ("-", j + 1) if spaced else None
    if t in _OPS:
        return _OPS[t], j + 1
    return None


def _evaluate(first: NumberMention, steps: list[_Step]) -> float | None:
    """The chain's value: times and divide before plus and minus."""
    terms: list[float] = [first.value]
    signs: list[int] = [1]
    for s in steps:
        v = s.mention.value
        if s.op == "*":
            terms[-1] = bounded(terms[-1] * v)
        elif s.op == "/":
            if v == 0:
                return None
            terms[-1] = bounded(terms[-1] / v)
        else:
            terms.append(v)
            signs.append(1 if s.op == "+" else -1)
    return bounded(sum(sg * t for sg, t in zip(signs, terms, strict=True)))


def _chain_unit(first: NumberMention, steps: list[_Step]) -> tuple[str | None, str | None] | None:
    """The chain's (unit, quantity), or None when its units cannot combine. A time
    divided or multiplied by the bare count of one time unit in another is converted
    ("2,500 s / 60" is 41.67 minutes, "41.7 min × 60" 2,500 seconds: ``_time_converted``)."""
    units = {(m.unit, m.quantity) for m in (first, *(s.mention for s in steps)) if m.unit}
    if any(q == "rate" for _, q in units) or len(units) > 1:
        return None
    if any(s.op == "/" and s.mention.unit for s in steps):
        return None
    return _time_converted(first, steps) or (next(iter(units)) if units else (None, None))


def _time_converted(first: NumberMention, steps: list[_Step]) -> tuple[str, str] | None:
    """The time unit a one-step chain converts ``first`` into: "2,500 s / 60" divides
    seconds by the seconds in a minute, so it is minutes; "41.7 min × 60" is seconds.
    None for any other chain (a time halved stays in its unit)."""
    if len(steps) != 1 or first.quantity != "time" or first.unit is None:
        return None
    step = steps[0]
    if step.mention.unit is not None or step.op not in ("/", "*") or step.mention.value == 0:
        return None  # "5 minutes × 0" counts no unit in another
    factor = lx.UNITS[first.unit].factor
    want = factor * step.mention.value if step.op == "/" else factor / step.mention.value
    for unit in lx.UNITS.values():
        if unit.quantity == "time" and math.isclose(unit.factor, want):
            return unit.canonical, "time"
    return None


def _dimension(toks: list[Tok], first: int, after: int) -> bool:
    """A product said as the size of a thing, between an article and its noun ("over a
    3×3 window", "a 4096 × 4096 matrix"): a description, not a result. A word that goes
    on to a result ("so", "equals", "gives": ``lexicon.HYPOTHETICAL_BREAK``) is no noun."""
    return (
        first > 0
        and toks[first - 1].text in ("a", "an")
        and after < len(toks)
        and toks[after].kind == "word"
        and toks[after].text.isalpha()
        and toks[after].text not in lx.OPERATOR_AFTER
        and toks[after].text not in lx.HYPOTHETICAL_BREAK
    )


@dataclass(frozen=True)
class _Found:
    mention: NumberMention
    start: int
    """Index of its first token (with an approximation word before it)."""
    first: int
    """Index of the number's first token."""
    after: int
    """Index of the token after it (and its unit, or a counted thing: "8 GPUs")."""


def _with_chains(
    text: str, toks: list[Tok], found: list[_Found], preamble: range
) -> list[NumberMention]:
    """Mentions in order, each arithmetic chain's value added after its last operand."""
    out: list[NumberMention] = []
    k = 0
    while k < len(found):
        head = found[k]
        out.append(head.mention)
        steps: list[_Step] = []
        last = k
        while last + 1 < len(found):
            op = _operator(text, toks, found[last].after)
            if op is None or op[1] != found[last + 1].first:
                break
            steps.append(_Step(op[0], found[last + 1].mention))
            last += 1
        out.extend(f.mention for f in found[k + 1 : last + 1])
        # "pi over four times three e minus four": the chain is part of an expression
        # with something that is no number; its value would be wrong
        inside = head.first > 0 and (
            toks[head.first - 1].text in lx.OPERATOR_AFTER or toks[head.first - 1].text == "by"
        )
        value = _evaluate(head.mention, steps) if steps and not inside else None
        unit = _chain_unit(head.mention, steps) if steps else None
        if value is not None and unit is not None:
            m, tail = head.mention, found[last]
            shown = " ".join(
                [format_number(m.value)]
                + [
                    f"{'×' if s.op == '*' else s.op} {format_number(s.mention.value)}"
                    for s in steps
                ]
            )
            operand = _operand(toks, head.first, tail.after)
            out.append(
                replace(
                    m,
                    value=value,
                    unit=unit[0],
                    quantity=unit[1],
                    text=text[m.start : tail.mention.end],
                    end=tail.mention.end,
                    note=shown,
                    operand=operand,
                    vague=False,
                    computed=True,
                    attributive=_dimension(toks, head.first, tail.after),
                    number_span=None,
                    lead=not operand
                    and _is_lead(text, toks, head.start, tail.after, preamble, computed=True),
                )
            )
        k = last + 1
    return out


def find_numbers(text: str) -> list[NumberMention]:
    """Every number stated in ``text``, in order, with unit and span. An answer is read
    twice (its windows' numbers, and the embedder's respelling of them), so the last few
    texts' readings are kept: the mentions are frozen, each caller gets its own list."""
    return list(_find_numbers(text))


@functools.lru_cache(maxsize=64)
def _find_numbers(text: str) -> tuple[NumberMention, ...]:
    return tuple(_read_numbers(text))


_CUT_OFF = lx.wordset("and point")
"""The words a number is cut off after when the speaker starts it again ("a hundred
and, a hundred and twelve", "two point, two point three")."""


def _without_false_starts(toks: list[Tok]) -> list[Tok]:
    """Drop each number that is cut off after "and" or "point" and then said again,
    whole, after a pause ("a hundred and, a hundred and twelve gigabytes", "about two
    point, uh, two point three"): the words said again begin the number that was meant.
    Left in, the cut-off number is a number of its own, and its dangling "and" makes the
    number meant an operand of a sum, or its "point" takes the first word said again as
    its decimals (2.2). Without a dangling word a repeat is no false start: "sixteen,
    sixteen bytes" says one number twice, and "two, two and a half" may be a list."""
    n = len(toks)
    if not any(
        t.text in _CUT_OFF and any(u.after_comma for u in toks[x + 1 : x + 7])
        for x, t in enumerate(toks)
    ):
        return toks  # no "and" or "point" before a pause: nothing is cut off
    drop: list[int] = []
    i = 0
    while i < n:
        expr = expression(toks, i)
        if expr is None:
            i += 1
            continue
        # the number's words up to the first pause within it or right after it
        k = i + 1
        while k <= expr.end and k < n and not toks[k].after_comma:
            k += 1
        said = [t.text for t in toks[i:k]]
        paused = k < n and toks[k].after_comma
        while k < n and toks[k].text in lx.FILLERS:  # "a hundred and, uh, a hundred ..."
            k += 1
            paused = paused or (k < n and toks[k].after_comma)
        again = expression(toks, k) if paused and said[-1] in _CUT_OFF and k < n else None
        if (
            again is not None
            and again.end > k + len(said)
            and [t.text for t in toks[k : k + len(said)]] == said
        ):
            drop.extend(range(i, k))
            i = k
        else:
            i = expr.end
    if not drop:
        return toks
    gone = set(drop)
    return [t for x, t in enumerate(toks) if x not in gone]


def _read_numbers(text: str) -> list[NumberMention]:
    toks = _without_false_starts(tokenise(text))
    found: list[_Found] = []
    preamble = _preamble(text, toks)
    in_parentheses = _in_parentheses(text)
    in_check = _in_check(text)
    i = 0
    n = len(toks)
    while i < n:
        expr = expression(toks, i)
        if expr is None:
            i += 1
            continue
        value, j, note = expr.value, expr.end, expr.note
        # "one" on its own as a pronoun ("the one that"), "a" etc. are weak: skip lone "one"
        if (
            j == i + 1
            and toks[i].text == "one"
            and not (j < n and (_unit_at(toks, j) or toks[j].text in ("point",)))
        ):
            i = j
            continue
        if _is_name(text, toks, i, j):
            i = j
            continue
        vague = False
        if j + 1 < n and toks[j].text == "-" and toks[j + 1].text == "ish":
            j += 1  # "forty-ish"
        # "two point three; something like twenty-three" is no "two point three something"
        paused = j < n and (toks[j].after_break or toks[j].after_comma)
        if j < n and toks[j].text in ("something", "odd", "ish", "plus") and not paused:
            if not (toks[j].text == "plus" and j + 1 < n and expression(toks, j + 1)):
                vague, j = True, j + 1
        elif j + 1 < n and toks[j].text == "or" and toks[j + 1].text == "so":
            vague, j = True, j + 2
        # "2.30 or so", "0.06-ish": a number said to its decimals is approximate, not vague
        roughly = vague and toks[j - 1].text in ("so", "ish") and value != int(value)
        vague = vague and not roughly
        start_i = i
        # approximation words before the number belong to its text
        while (
            start_i > 0
            and toks[start_i - 1].text in lx.APPROX
            and start_i > i - 2
            and not _over_a_symbol(toks, i)
        ):
            start_i -= 1
        # a unit or a counted thing belongs to the number only within its sentence
        # ("73,856. Weights are ...")
        attached = j < n and not _SENTENCE_BREAK.search(text[toks[j - 1].end : toks[j].start])
        unit = _unit_at(toks, j) if attached else None
        canonical = quantity = None
        end_j = j
        if unit:
            canonical, quantity, factor, end_j = unit
            tail = _duration_tail(text, toks, end_j, factor) if quantity == "time" else None
            if tail is not None:
                value, end_j = value + tail[0], tail[1]
                note = note or text[toks[i].start : toks[end_j - 1].end]
        rate_end = _is_rate(toks, end_j) or (
            _is_rate(toks, end_j + 1)  # "eight sequences a second": a counted thing per time
            if attached
            and end_j < n
            and toks[end_j].kind == "word"
            and toks[end_j].text not in lx.OPERAND_BEFORE
            else None
        )
        if rate_end:
            quantity = "rate"
            canonical = f"{canonical or toks[end_j].text}/s"
            end_j = rate_end
        after = max(end_j, j)
        if (
            attached
            and after < n
            and toks[after].text in lx.COUNTED_THINGS
            and not unit
            and not rate_end
        ):
            counted_end = after + 1  # "8 GPUs", "4096 biases": a chain may go on after it
        else:
            counted_end = after
        s, e = toks[start_i].start, toks[after - 1].end
        cued = _cued(text, toks, i)
        operand = _operand(toks, i, counted_end) or _named_again(toks, i, value, found, cued)
        found.append(
            _Found(
                NumberMention(
                    value=bounded(value),
                    unit=canonical,
                    quantity=quantity,
                    text=text[s:e],
                    start=s,
                    end=e,
                    cued=cued,
                    note=note,
                    argument=expr.argument,
                    operand=operand,
                    explicit=_explicit(toks, i),
                    vague=vague,
                    hypothetical=_is_hypothetical(toks, start_i),
                    lead=not (vague or operand)
                    and _is_lead(text, toks, start_i, after, preamble, computed=expr.power),
                    approximate=start_i < i or roughly,
                    corrected=_corrected(text, toks, start_i),
                    justifying=not cued and _justifying(text, toks, start_i),
                    in_reason=_justifying(text, toks, start_i, equations=True),
                    attributive=(
                        bool(unit and not rate_end)
                        and (
                            _describes(text, toks, start_i, after)
                            # a count per thing is the total asked, a loss is always per
                            # example
                            or (quantity not in ("count", "loss") and _per_item(text, toks, after))
                        )
                    )
                    or (not unit and 0 < value < 1 and _share_of(text, toks, after))
                    or _part_of_said(text, toks, after),
                    aside=in_parentheses(toks[start_i].start) or in_check(toks[start_i].start),
                    evaluated=_evaluated(text, toks, start_i),
                    number_span=(toks[i].start, toks[expr.end - 1].end),
                ),
                start_i,
                i,
                counted_end,
            )
        )
        i = after
    found = _mark_alternatives(
        text, _mark_destinations(text, toks, _mark_bounds(text, toks, found))
    )
    found = _mark_definitions(text, _mark_readings(text, toks, found))
    return _with_chains(text, toks, found, preamble)
