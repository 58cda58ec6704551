"""Reading one number: tokens (``tokens.tokenise``) -> a value and where it ends.

Pure Python, no model. The grammar reads what people say and type:

* digits, with thousands separators ("16,781,312"), decimals, exponents ("3e-4"), glued
  scales ("7B", "50k") and superscript powers ("10⁻⁵");
* spoken cardinals, hyphenated or not ("seventy-three thousand eight hundred fifty-six",
  "one thousand and twenty-four", "a hundred and twelve", "two fifty six", "five twelve",
  "four oh nine six"), decimals ("forty-one point seven", "point zero six three") and
  scales ("16.8 million");
* powers of ten ("seven point five times ten to the minus five", "7.5 × 10^-5");
* fractions ("one over sixteen", "1/16", "one sixteenth", "a tenth", "three quarters",
  "half of three e minus four", and Whisper's "1-10" for one tenth);
* ratios ("one in ten"), powers ("4096 squared", "4096²", "2^12", "two to the twelve");
* square roots ("sqrt(2/512)", "√2", "the square root of two over five twelve" =
  √(2/512), "root two over two" = √2/2) and typed functions ("ln(10)", "-ln(1/10)");
  a root or chain of something that is no number ("root of two over fan in") is not
  evaluated;
* arithmetic chains ("4096 x 4096 + 4096", "three times three times sixty four") are
  joined by ``mentions`` from the numbers read here.

Every value is :func:`~sayitout.scoring.numbers.values.bounded`: never infinite, never NaN.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sayitout.scoring import lexicon as lx
from sayitout.scoring.numbers.tokens import Tok
from sayitout.scoring.numbers.values import bounded, format_number

_FUNCTIONS = {"ln": math.log, "log": math.log, "exp": math.exp}
"""Functions typed with brackets: "ln(10)", "-ln(1/10)", "exp(-1)"; "log" is natural."""

MAX_DEPTH = 12
"""Deeper nesting ("half of half of ...", "----5") is not read as one number."""
MAX_EXP = 300
"""Larger powers of ten would overflow a float: such words are not an exponent."""


@dataclass(frozen=True)
class Reading:
    """A number read at ``toks[i:end]``."""

    value: float
    end: int
    note: str = ""
    """How it was read when that is not obvious ("half of 0.0003", "√(2/512)")."""
    power: bool = False
    """Read as a power ("4096 squared", "2^24"): a working, as a chain of operations is."""
    argument: float | None = None
    """The number a typed function was called on ("ln(0.1)": 0.1), which the text states
    as well."""


def _cardinal(toks: list[Tok], i: int) -> tuple[float, int] | None:
    """Spoken whole number at ``toks[i]`` ("a hundred and twelve", "two fifty six")."""
    total = 0.0
    current = 0.0
    j = i
    last = None  # kind of the last word: unit | teen | tens | hundred | scale
    floor = math.inf  # the smallest scale word said so far
    used = False
    n = len(toks)
    if (
        j < n
        and toks[j].text in ("a", "an")
        and j + 1 < n
        and (toks[j + 1].text == "hundred" or toks[j + 1].text in lx.SCALE_WORDS)
    ):
        current = 1.0
        j += 1
        last = "unit"
        used = True
    while j < n:
        t = toks[j].text
        if toks[j].kind != "word" or (j > i and toks[j].after_break):
            break  # "twelve. Five-twelve" is twelve, then 512
        if j > i and toks[j].after_comma and last in ("unit", "teen", "tens"):
            break  # "forty-one, forty-one and two thirds": said again, not 4,141
        if j > i and (toks[j].after_comma or t in lx.HESITATIONS) and last in ("hundred", "scale"):
            # after a pause, "sixteen million, uh, seven hundred eighty-one thousand" goes
            # on with the number; "sixteen million, sixteen million" says it again
            k = _after_hesitation(toks, j)
            rest = _cardinal(toks, k) if k < n and not toks[k].after_break else None
            if rest is None or rest[0] >= (floor if last == "scale" else 100):
                break
            if k > j:
                j = k
                continue
        if t in lx.SMALL_NUMBERS:
            v = lx.SMALL_NUMBERS[t]
            if last == "unit" and v >= 10 and current < 10:
                current = current * 100 + v  # "five twelve"
                last = "teen"
                used = True
                j += 1
                continue
            if last in ("unit", "teen"):
                if _thousands_group(toks, j, total, current):
                    # "seventy-three eight fifty-six": 73,856 said in groups of three
                    total, current, last = current * 1000, float(v), "unit"
                    j += 1
                    continue
                break
            if last == "tens" and v >= 10:
                break
            current += v
            last = "teen" if v >= 10 else "unit"
        elif t in lx.TENS:
            v = lx.TENS[t]
            if last == "tens":
                break
            if last in ("unit", "teen") and current < 100 and (total == 0 or current < 10):
                # "two fifty six", "ten twenty four", "seventy three thousand eight fifty six"
                current = current * 100 + v
            elif last in ("unit", "teen"):
                break
            else:
                current += v
            last = "tens"
        elif t == "hundred":
            if last in ("hundred", "scale"):
                break
            current = (current or 1) * 100
            last = "hundred"
        elif t in lx.SCALE_WORDS:
            if not used or (last == "scale" and current == 0):
                break
            total += (current or 1) * lx.SCALE_WORDS[t]
            floor = min(floor, lx.SCALE_WORDS[t])
            current = 0
            last = "scale"
        elif t == "and" and used and last in ("hundred", "scale"):
            k = _after_hesitation(toks, j + 1)  # "five hundred and, uh, twelve"
            if k < n and (toks[k].text in lx.SMALL_NUMBERS or toks[k].text in lx.TENS):
                j = k
                continue
            break
        else:
            break
        used = True
        j += 1
    if not used:
        return None
    return total + current, j


def _after_hesitation(toks: list[Tok], j: int) -> int:
    """The index after the hesitations at ``toks[j]`` ("uh", "um"), or ``j``."""
    while j < len(toks) and toks[j].text in lx.HESITATIONS and not toks[j].after_break:
        j += 1
    return j


def _thousands_group(toks: list[Tok], j: int, total: float, current: float) -> bool:
    """``toks[j:]`` starts a group of three digits said the short way ("eight fifty-six",
    "eight twelve") right after a number of thousands said without "thousand"
    ("seventy-three"): a two-digit count of thousands, nothing said before it."""
    n = len(toks)
    if total or not 10 <= current < 100 or j + 1 >= n:
        return False
    unit, nxt = toks[j].text, toks[j + 1]
    if nxt.kind != "word" or lx.SMALL_NUMBERS.get(unit, 10) >= 10:
        return False
    return nxt.text in lx.TENS or 10 <= lx.SMALL_NUMBERS.get(nxt.text, 0) < 20


def _digit_run(toks: list[Tok], i: int) -> tuple[float, int] | None:
    """Digits said one by one: "four oh nine six" -> 4096 (three digits or more)."""
    digits = ""
    j = i
    while j < len(toks) and toks[j].kind == "word" and not (j > i and _paused(toks[j])):
        t = toks[j].text
        if t in ("oh", "o", "zero") and digits:
            digits += "0"
        elif t in lx.SMALL_NUMBERS and 0 < lx.SMALL_NUMBERS[t] < 10:
            digits += str(lx.SMALL_NUMBERS[t])
        else:
            break
        j += 1
    if len(digits) >= 3 and digits[0] != "0":
        return bounded(float(digits)), j
    return None


def _paused(t: Tok) -> bool:
    """A break or a comma before ``t``: digits said one at a time end there."""
    return t.after_break or t.after_comma


def _digits_after_point(toks: list[Tok], i: int) -> tuple[str, int] | None:
    digits = ""
    j = i
    while j < len(toks) and toks[j].kind == "word" and not (j > i and _paused(toks[j])):
        t = toks[j].text
        if t in lx.SMALL_NUMBERS and lx.SMALL_NUMBERS[t] < 10:
            digits += str(lx.SMALL_NUMBERS[t])
            j += 1
        elif t in ("o",):
            digits += "0"
            j += 1
        else:
            break
    if digits:
        return digits, j
    c = _cardinal(toks, i)  # "point twenty five"
    if c and c[0] < 1000:
        return str(int(c[0])), c[1]
    return None


def _base(toks: list[Tok], i: int) -> tuple[float, int] | None:
    """A number without exponent or unit: literal, spoken, with decimals and a scale."""
    n = len(toks)
    t = toks[i]
    if t.kind == "num":
        value, j = float(t.value or 0), i + 1
        is_decimal = "." in t.text or "e" in t.text.lower()
    elif t.text == "point" and i + 1 < n:
        d = _digits_after_point(toks, i + 1)
        if not d:
            return None
        return float("0." + d[0]), d[1]
    else:
        run = _digit_run(toks, i)
        c = run or _cardinal(toks, i)
        if c is None:
            return None
        value, j = c
        is_decimal = False
        mixed = _mixed_fraction(toks, j)
        if mixed is not None:
            value, j, is_decimal = value + mixed[0], mixed[1], True
        if j + 1 < n and toks[j].text == "point" and value < 1e6:
            d = _digits_after_point(toks, j + 1)
            if d:
                value = float(f"{int(value)}.{d[0]}")
                j = d[1]
                is_decimal = True
    # "16.8 million", "one point five billion", "7 billion", "50 thousand"
    if (
        j < n
        and toks[j].kind == "word"
        and toks[j].text in ("thousand", "million", "billion", "trillion", "mil", "bn")
        and (is_decimal or t.kind == "num" or value < 1000)
    ):
        value = bounded(value * lx.SCALES[toks[j].text])
        j += 1
    return value, j


def _mixed_fraction(toks: list[Tok], j: int) -> tuple[float, int] | None:
    """The fraction of a mixed number after a whole one: "and a half", "and a quarter",
    "and two thirds" ("forty-one and two-thirds minutes") -> (fraction, index after). An
    "and" after a comma or a break goes on to the next clause ("which is zero, and
    one-half times one plus zero ..."): no fraction."""
    n = len(toks)
    if j + 2 >= n or toks[j].text != "and" or _paused(toks[j]):
        return None
    num, k = toks[j + 1].text, j + 2
    count = 1.0 if num in ("a", "an", "one") else lx.SMALL_NUMBERS.get(num)
    den = lx.ORDINALS.get(toks[k].text) if toks[k].kind == "word" else None
    if count is None or not den or count >= den:
        return None
    if (count == 1) == toks[k].text.endswith("s"):
        return None  # "and a thirds", "and two third": no fraction
    return count / den, k + 1


def _signed_int(toks: list[Tok], i: int) -> tuple[int, int] | None:
    n = len(toks)
    sign = 1
    if i < n and toks[i].text in ("minus", "negative", "-"):
        sign, i = -1, i + 1
    elif i < n and toks[i].text in ("plus", "positive", "+"):
        i += 1
    v = toks[i].value if i < n and toks[i].kind == "num" else None
    if v is not None:
        if abs(v) > 10 * MAX_EXP or v != int(v):
            return None  # not an exponent
        return sign * int(v), i + 1
    c = _cardinal(toks, i)
    if c and c[0] < 400:
        return sign * int(c[0]), c[1]
    return None


def _power_of_ten(toks: list[Tok], i: int) -> tuple[int, int] | None:
    """ "ten to the minus five", "10^-5", "10⁻⁵", "ten to the power of minus five"."""
    n = len(toks)
    if i >= n or not (
        toks[i].text == "ten"
        or (toks[i].kind == "num" and toks[i].value == 10 and toks[i].text == "10")
    ):
        return None
    j = i + 1
    words = [t.text for t in toks[j : j + 4]]
    if words[:1] == ["^"]:
        j += 1
    elif words[:2] == ["to", "the"]:
        j += 2
        if [t.text for t in toks[j : j + 2]] == ["power", "of"]:
            j += 2
    elif words[:2] == ["to", "minus"] or words[:2] == ["to", "negative"]:
        j += 1
    elif j < n and toks[j].kind == "sup":
        sign, digits, k = 1, "", j  # superscript exponent: "10⁻⁵"
        while k < n and toks[k].kind == "sup":
            if toks[k].text == "-":
                sign = -1
            else:
                digits += toks[k].text
            k += 1
        if not digits or len(digits) > 4:
            return None
        return sign * int(digits), k
    else:
        return None
    return _signed_int(toks, j)


def _pow10(value: float, exp: int) -> float:
    return bounded(value * 10.0 ** max(-MAX_EXP, min(MAX_EXP, exp)))


def _sqrt(toks: list[Tok], i: int, depth: int) -> Reading | None:
    """ "sqrt(2/512)", "√2", "square root of two over five twelve", "root two"."""
    n = len(toks)
    t = toks[i]
    j = i
    if t.text == "square" and i + 1 < n and toks[i + 1].text in ("root", "roots"):
        j = i + 2
    elif t.text == "root" or t.text in lx.SQRT:
        j = i + 1
    else:
        return None
    if j < n and toks[j].text == "(":
        inner = _parenthesised(toks, j, depth)
        if inner is None:
            return None
        v, end, shown = inner
    elif j < n and toks[j].text == "of":
        inner_r = (
            expression(toks, j + 1, depth + 1) if j + 1 < n else None
        )  # root of the whole fraction
        if inner_r is None:
            return None
        v, end = inner_r.value, inner_r.end
        shown = f"({inner_r.note})" if inner_r.note else format_number(v)
    else:
        b = _base(toks, j) if j < n else None  # "root two" / "√2": then "over ..." applies
        if b is None:
            return None
        v, end = b
        shown = format_number(v)
    if v < 0 or _dangling_operator(toks, end):
        return None  # "root of two over fan in": the root of something that is no number
    return Reading(bounded(math.sqrt(v)), end, f"√{shown}")


def _dangling_operator(toks: list[Tok], j: int) -> bool:
    """An operator at ``toks[j]`` whose operand is not a number ("over fan in")."""
    n = len(toks)
    if j >= n or toks[j].text not in lx.TIMES | lx.DIVIDED | {"divided"}:
        return False
    k = j + 2 if toks[j].text == "divided" else j + 1
    if k < n and toks[k].text == "the":
        k += 1
    return k >= n or (_base(toks, k) is None and _sqrt_word(toks, k) is False)


def _sqrt_word(toks: list[Tok], k: int) -> bool:
    return toks[k].text in ("root", "square") or toks[k].text in lx.SQRT


def _parenthesised(toks: list[Tok], i: int, depth: int) -> tuple[float, int, str] | None:
    """ "(2/512)", "(2 / 512)": an expression in brackets -> (value, end, shown)."""
    n = len(toks)
    inner = expression(toks, i + 1, depth + 1) if i + 1 < n else None
    if inner is None:
        return None
    value, j = inner.value, inner.end
    while j + 1 < n and toks[j].text in lx.TIMES | lx.DIVIDED | {"+", "-"}:
        op = toks[j].text
        nxt = expression(toks, j + 1, depth + 1)
        if nxt is None:
            return None
        if op in lx.DIVIDED:
            if nxt.value == 0:
                return None
            value = bounded(value / nxt.value)
        elif op in lx.TIMES:
            value = bounded(value * nxt.value)
        else:
            value = bounded(value + nxt.value if op == "+" else value - nxt.value)
        j = nxt.end
    if j >= n or toks[j].text != ")":
        return None
    shown = f"({inner.note})" if inner.end == j and inner.note else format_number(value)
    return value, j + 1, shown


def _range_fraction(toks: list[Tok], i: int, value: float) -> Reading | None:
    """Whisper writes "one tenth" as "1-10" (and "1-16th"): digits, a glued hyphen, a
    larger whole number, and no unit after it. A range with a unit ("5-10 minutes") is
    left as two numbers."""
    n = len(toks)
    t = toks[i]
    if not (
        i + 2 < n
        and t.kind == "num"
        and toks[i + 1].text == "-"
        and toks[i + 1].start == t.end
        and toks[i + 2].kind == "num"
        and toks[i + 2].start == toks[i + 1].end
        and t.text.isdigit()
        and toks[i + 2].text.isdigit()
    ):
        return None
    den = float(toks[i + 2].value or 0)
    if not (1 <= value < den <= 1000 and value <= 9):
        return None
    after = toks[i + 3] if i + 3 < n else None
    if after is not None and (after.text in lx.UNITS or after.text == "-"):
        return None
    return Reading(
        value / den, i + 3, f"{toks[i].text}-{toks[i + 2].text} read as {t.text}/{toks[i + 2].text}"
    )


def expression(toks: list[Tok], i: int, depth: int = 0) -> Reading | None:
    """A full number at ``toks[i]``: base, exponent, fraction, root, "half of"."""
    if depth > MAX_DEPTH:
        return None  # "half of half of ... ", "sqrt(sqrt(...": no number is nested deeper
    n = len(toks)
    t = toks[i]
    # "half of X", "a quarter of X"
    k = i + 1 if t.text in ("a", "one") else i
    if k < n and toks[k].text in lx.FRACTIONS_OF and k + 1 < n and toks[k + 1].text == "of":
        inner = expression(toks, k + 2, depth + 1) if k + 2 < n else None
        if inner:
            f = lx.FRACTIONS_OF[toks[k].text]
            return Reading(
                bounded(inner.value * f),
                inner.end,
                f"{toks[k].text} of {format_number(inner.value)}",
            )
    # "half a million", "half a billion parameters"
    if t.text == "half" and i + 2 < n and toks[i + 1].text in ("a", "an"):
        inner = expression(toks, i + 1, depth + 1)
        if inner and inner.value >= 100:
            return Reading(inner.value / 2, inner.end, f"half of {format_number(inner.value)}")
    # "a sixteenth", "an eighth", "a tenth", "a quarter"
    if (
        t.text in ("a", "an")
        and i + 1 < n
        and toks[i + 1].text in lx.ORDINALS
        and not toks[i + 1].text.endswith("s")
        and toks[i + 1].text != "half"
    ):
        den = lx.ORDINALS[toks[i + 1].text]
        return Reading(1 / den, i + 2, f"1/{den}")
    if t.text in lx.MULTIPLES and i + 1 < n:
        inner = expression(toks, i + 1, depth + 1)
        if inner:
            return Reading(
                bounded(inner.value * lx.MULTIPLES[t.text]),
                inner.end,
                f"{t.text} {format_number(inner.value)}",
            )
    # a typed minus sign: "-2", "-ln(1/10)" (not "1-10", "zero-shot" or a spaced minus)
    if (
        t.text == "-"
        and i + 1 < n
        and toks[i + 1].start == t.end
        and (i == 0 or toks[i - 1].end < t.start or toks[i - 1].text in ("=", "("))
    ):
        inner = expression(toks, i + 1, depth + 1)
        if inner is None:
            return None
        note = f"-{inner.note}" if inner.note else ""
        return Reading(-inner.value, inner.end, note, argument=inner.argument)
    fn = _function(toks, i, depth)
    if fn is not None:
        return fn
    root = _sqrt(toks, i, depth)
    if root is not None:
        value, j, note = root.value, root.end, root.note
    else:
        # bare power of ten: "ten to the minus five"
        p = _power_of_ten(toks, i)
        if p and abs(p[0]) <= MAX_EXP:
            return Reading(_pow10(1.0, p[0]), p[1])
        b = _base(toks, i)
        if b is None:
            return None
        value, j = b
        note = ""
        r = _range_fraction(toks, i, value) if j == i + 1 else None
        if r is not None:
            return r
    # exponent: "e minus four", "times ten to the minus five", "x 10^-5"
    if j < n and toks[j].text == "e":
        e = _signed_int(toks, j + 1)
        if e and abs(e[0]) <= MAX_EXP:  # "e 1e9" is no exponent
            value, j = _pow10(value, e[0]), e[1]
    elif j < n and toks[j].text in lx.TIMES:
        p = _power_of_ten(toks, j + 1)
        if p and abs(p[0]) <= MAX_EXP:
            value, j = _pow10(value, p[0]), p[1]
    powered = _power(toks, j, value)
    if powered is not None:
        note = f"{note or format_number(value)}^{powered[2]}"
        value, j = powered[0], powered[1]
    # ordinal fraction: "one sixteenth", "three eighths", "two thirds"
    if (
        j < n
        and toks[j].text in lx.ORDINALS
        and toks[j].kind == "word"
        and t.kind == "word"
        and root is None
        and not (toks[j].text == "half" and value != 1)
    ):
        den = lx.ORDINALS[toks[j].text]
        return Reading(value / den, j + 1, f"{format_number(value)}/{den}")
    # "one in ten", "three in a hundred": a ratio
    if (
        j + 1 < n
        and toks[j].text == "in"
        and t.kind == "word"
        and root is None
        and value == int(value)
        and value < 100
    ):
        d = _cardinal(toks, j + 1)
        if d and value < d[0] <= 1e6:
            return Reading(value / d[0], d[1], f"{format_number(value)} in {format_number(d[0])}")
    # fraction: "one over sixteen", "1/16"
    if j + 1 < n and toks[j].text in ("over", "/"):
        d = _denominator(toks, j + 1, depth)
        if d and d[0] != 0:
            shown = note or format_number(value)
            note = f"{shown} over {format_number(d[0])}"
            value, j = bounded(value / d[0]), d[1]
    return Reading(value, j, note, power=powered is not None)


def _function(toks: list[Tok], i: int, depth: int) -> Reading | None:
    """ "ln(10)", "log(10)", "log10(1000)", "exp(-1)": a function of a bracketed number."""
    n = len(toks)
    name = toks[i].text
    if name not in _FUNCTIONS:
        return None
    j, base = i + 1, None
    if name == "log" and j < n and toks[j].text in ("10", "2") and toks[j].start == toks[i].end:
        base, j = float(toks[j].text), j + 1
    if j >= n or toks[j].text != "(":
        return None
    inner = _parenthesised(toks, j, depth)
    if inner is None:
        return None
    v, end, shown = inner
    try:
        if name == "exp":
            value = math.exp(min(v, 710.0))
        elif v <= 0:
            return None
        else:
            value = math.log(v, base) if base else math.log(v)
    except (OverflowError, ValueError):
        return None
    label = f"log{int(base)}" if base else name
    return Reading(
        bounded(value),
        end,
        f"{label}{shown if shown.startswith('(') else f'({shown})'}",
        argument=v,
    )


def _power(toks: list[Tok], j: int, value: float) -> tuple[float, int, int] | None:
    """ "4096 squared", "4096²", "2^12", "two cubed" after a number -> (value, end, k)."""
    n = len(toks)
    if j >= n:
        return None
    t = toks[j]
    if t.text in ("squared", "cubed"):
        k, end = (2 if t.text == "squared" else 3), j + 1
    elif t.text == "^" and j + 1 < n and toks[j + 1].kind == "num" and toks[j + 1].text.isdigit():
        k, end = int(toks[j + 1].text[:4]), j + 2
    elif t.text == "to" and [x.text for x in toks[j + 1 : j + 2]] == ["the"]:
        end = j + 4 if [x.text for x in toks[j + 2 : j + 4]] == ["power", "of"] else j + 2
        e = _cardinal(toks, end) if end < n and toks[end].kind == "word" else None
        if e is None and end < n and toks[end].kind == "num" and toks[end].text.isdigit():
            e = (float(toks[end].text[:4]), end + 1)
        if e is None or e[0] > 4096:
            return None  # "two to the twelve", "2 to the power of 10"
        k, end = int(e[0]), e[1]
    elif t.kind == "sup" and t.text.isdigit():
        digits, end = "", j
        while end < n and toks[end].kind == "sup" and toks[end].text.isdigit() and len(digits) < 4:
            digits += toks[end].text
            end += 1
        k = int(digits)
    else:
        return None
    try:
        return bounded(value**k), end, k
    except OverflowError:
        return bounded(math.copysign(math.inf, value) if k % 2 else math.inf), end, k


def _denominator(toks: list[Tok], i: int, depth: int) -> tuple[float, int] | None:
    """The number after "over" or "/": a base number or a root ("one over root two",
    "one over the square root of five twelve")."""
    if toks[i].text == "the" and i + 1 < len(toks) and _sqrt_word(toks, i + 1):
        i += 1
    fn = _function(toks, i, depth)
    if fn is not None:
        return fn.value, fn.end
    root = _sqrt(toks, i, depth)
    if root is not None:
        return root.value, root.end
    return _base(toks, i)
