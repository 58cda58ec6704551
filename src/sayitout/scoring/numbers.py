"""Spoken and written numbers, units, and judging the candidate's final answer.

Pure Python, no model. ``find_numbers(text)`` finds every number the candidate
states ("seven point five times ten to the minus five", "3e-4", "16,781,312",
"about forty one point seven minutes", "a hundred and twelve gigs", "one over
sixteen", "half of three e minus four", "16.8 million"), each with its unit and
character span. ``judge(numeric, text)`` picks the *final stated answer* and checks
it against the rubric's value and tolerance.

Which number is the answer: among the numbers whose unit measures the same thing
as the rubric's unit (or, failing that, the numbers with no unit), the last one
introduced by an answer cue ("so", "that's", "the answer is", "which gives", "=",
"about"...), else the last one. Numbers said along the way never earn or lose
credit by themselves. When the rubric's unit is only a label ("512 examples", "73,856
weights"), bare numbers and numbers with that unit compete on equal terms, so a later
bare final answer beats an earlier "128 examples per GPU". Numbers in a conditional or
contrasting clause ("if you see six or seven", "anything like five", "rather than ten",
"not zero") never displace a plainly stated one. Numbers that are part of a name
("zero grad", "zero-shot", "ResNet fifty", "fp16", "top one") are not numbers at all.

Units: a number in a different unit of the same quantity is converted (2,500
seconds is 41.7 minutes: the same quantity, which a careful interviewer accepts),
and the reason says so. A number in a unit of another quantity, or the right digits
with the wrong unit ("41.7 seconds" for 41.7 minutes), is wrong. A bare number
with no unit is judged on its value, and the reason reminds the candidate to say
the unit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from sayitout.bank.models import NumericAnswer
from sayitout.scoring.result import NumericResult

_UNITS_WORDS = {
    "zero": 0,
    "oh": 0,
    "nought": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS_WORDS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fourty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "mil": 1e6,
    "m": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "b": 1e9,
    "trillion": 1e12,
}
_SUFFIX_SCALES = {"k": 1e3, "m": 1e6, "b": 1e9, "bn": 1e9, "t": 1e12}
_FRACTIONS_OF = {"half": 0.5, "quarter": 0.25, "third": 1 / 3, "tenth": 0.1}
_MULTIPLES = {"twice": 2.0, "double": 2.0, "triple": 3.0, "thrice": 3.0}
#: Ordinal denominators: "one sixteenth", "a sixteenth", "three eighths". ("second" is a
#: unit of time, never a denominator.)
_ORDINALS = {
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "twelfth": 12,
    "sixteenth": 16,
    "twentieth": 20,
    "hundredth": 100,
    "thousandth": 1000,
}
_ORDINALS.update({k + "s": v for k, v in list(_ORDINALS.items())})


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


#: A number right after these words is part of a name, not a stated value
#: ("ResNet fifty", "top one", "GPT four", "fp 16").
_NAME_BEFORE = _wordset(
    """resnet resnets vgg gpt llama bert top fp bf int uint float version v llama mistral
    phi qwen gemma opus claude gemini mobilenet efficientnet densenet inception yolo"""
)
#: ... and a number right before these ("zero grad", "one hot", "zero shot").
_NAME_AFTER = _wordset("grad grads shot shots hot padding")
#: A number after these (within the same clause) is hypothetical or contrasted, not the
#: answer: "if you see six or seven", "anything like five", "rather than ten", "not 0".
_HYPOTHETICAL = _wordset(
    """if unless anything instead rather not isn't isnt wasn't never otherwise whereas
    versus vs"""
)
#: ... unless one of these comes between the cue and the number.
_HYPOTHETICAL_BREAK = _wordset(
    """so but then therefore thus answer answer's equals = get gets gives which"""
)

# unit word -> (quantity, factor to the quantity's base unit, canonical name)
_UNIT_TABLE: dict[str, tuple[str, float, str]] = {}


def _units(quantity: str, factor: float, canonical: str, *names: str) -> None:
    for n in (canonical, *names):
        _UNIT_TABLE[n] = (quantity, factor, canonical)


_units("bytes", 1e9, "GB", "gb", "gigabyte", "gigabytes", "gig", "gigs", "gbs", "gibs", "g")
_units("bytes", 1e6, "MB", "mb", "megabyte", "megabytes", "megs", "meg")
_units("bytes", 1e12, "TB", "tb", "terabyte", "terabytes", "terabytes")
_units("bytes", 1.0, "bytes", "byte")
_units("time", 1.0, "seconds", "second", "sec", "secs", "s")
_units("time", 60.0, "minutes", "minute", "min", "mins")
_units("time", 3600.0, "hours", "hour", "hr", "hrs", "h")
_units("time", 86400.0, "days", "day")
_units("time", 1e-3, "milliseconds", "millisecond", "ms")
_units("ratio", 0.01, "percent", "%", "per-cent", "pc")
_units("count", 1.0, "parameters", "parameter", "params", "param", "weights")
_units("count", 1.0, "tokens", "token")
_units("count", 1.0, "steps", "step", "iterations", "iteration")
_units("count", 1.0, "examples", "example", "samples", "sample", "images", "sequences")
_units("loss", 1.0, "nats", "nat")

_CUES = (
    ("answer", "is"),
    ("answer's",),
    ("that's",),
    ("thats",),
    ("that", "is"),
    ("it's",),
    ("which", "is"),
    ("which", "gives"),
    ("which", "comes", "to"),
    ("would", "be"),
    ("will", "be"),
    ("should", "be"),
    ("comes", "to"),
    ("comes", "out", "to"),
    ("i'd", "say"),
    ("i", "get"),
    ("you", "get"),
    ("we", "get"),
    ("get",),
    ("total", "of"),
    ("total", "is"),
    ("equals",),
    ("=",),
    ("is", "just"),
    ("it", "is"),
    ("so",),
)
_STRONG_CUES = {"answer", "so", "that's", "thats", "equals", "=", "gives", "giving", "comes"}
_APPROX = {
    "about",
    "around",
    "roughly",
    "approximately",
    "approx",
    "like",
    "~",
    "nearly",
    "almost",
    "just",
    "under",
    "over",
}

_TOKEN_RE = re.compile(
    r"(?P<num>\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?|\.\d+)(?P<suf>(?:k|K|M|B|bn|T)\b)?"
    r"|(?P<word>[A-Za-z]+(?:['’][A-Za-z]+)?)"
    r"|(?P<sym>[%/^×*=~⁻¹²³⁴⁵⁶⁷⁸⁹⁰-])"
)
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


@dataclass(frozen=True)
class _Tok:
    text: str
    kind: str  # num | word | sym
    start: int
    end: int
    value: float | None = None


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


def _tokenise(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    for m in _TOKEN_RE.finditer(text):
        if m.group("num"):
            raw = m.group("num").replace(",", "")
            try:
                value = float(raw)
            except ValueError:
                continue
            suf = m.group("suf")
            if suf:
                value *= _SUFFIX_SCALES[suf.lower()]
            toks.append(_Tok(m.group(), "num", m.start(), m.end(), value))
        elif m.group("word"):
            toks.append(_Tok(m.group().lower().replace("’", "'"), "word", m.start(), m.end()))
        else:
            s = m.group()
            if s in "⁻¹²³⁴⁵⁶⁷⁸⁹⁰":
                sup = "-" if s == "⁻" else s.translate(_SUPERSCRIPTS)
                toks.append(_Tok(sup, "sup", m.start(), m.end()))
            else:
                toks.append(_Tok(s, "sym", m.start(), m.end()))
    return toks


def _cardinal(toks: list[_Tok], i: int) -> tuple[float, int] | None:
    """Spoken whole number at ``toks[i]`` ("a hundred and twelve", "two fifty six")."""
    total = 0.0
    current = 0.0
    j = i
    last = None  # kind of the last word: unit | teen | tens | hundred | scale
    used = False
    n = len(toks)
    if (
        j < n
        and toks[j].text in ("a", "an")
        and j + 1 < n
        and toks[j + 1].text in ("hundred", "thousand", "million", "billion", "trillion")
    ):
        current = 1.0
        j += 1
        last = "unit"
        used = True
    while j < n:
        t = toks[j].text
        if toks[j].kind != "word":
            break
        if t in _UNITS_WORDS:
            v = _UNITS_WORDS[t]
            if last == "unit" and v >= 10 and current < 10 and total == 0:
                current = current * 100 + v  # "five twelve"
                last = "teen"
                used = True
                j += 1
                continue
            if last in ("unit", "teen"):
                break
            if last == "tens" and v >= 10:
                break
            current += v
            last = "teen" if v >= 10 else "unit"
        elif t in _TENS_WORDS:
            v = _TENS_WORDS[t]
            if last == "tens":
                break
            if last in ("unit", "teen") and current < 100 and total == 0:
                current = current * 100 + v  # "two fifty six", "ten twenty four"
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
        elif t in ("thousand", "million", "billion", "trillion"):
            if not used or (last == "scale" and current == 0):
                break
            total += (current or 1) * _SCALES[t]
            current = 0
            last = "scale"
        elif (
            t == "and"
            and used
            and j + 1 < n
            and (toks[j + 1].text in _UNITS_WORDS or toks[j + 1].text in _TENS_WORDS)
            and last in ("hundred", "scale")
        ):
            j += 1
            continue
        else:
            break
        used = True
        j += 1
    if not used:
        return None
    return total + current, j


def _digit_run(toks: list[_Tok], i: int) -> tuple[float, int] | None:
    """Digits said one by one: "four oh nine six" -> 4096 (three digits or more)."""
    digits = ""
    j = i
    while j < len(toks) and toks[j].kind == "word":
        t = toks[j].text
        if t in ("oh", "o", "zero") and digits:
            digits += "0"
        elif t in _UNITS_WORDS and 0 < _UNITS_WORDS[t] < 10:
            digits += str(_UNITS_WORDS[t])
        else:
            break
        j += 1
    if len(digits) >= 3 and digits[0] != "0":
        return float(digits), j
    return None


def _digits_after_point(toks: list[_Tok], i: int) -> tuple[str, int] | None:
    digits = ""
    j = i
    while j < len(toks) and toks[j].kind == "word":
        t = toks[j].text
        if t in _UNITS_WORDS and _UNITS_WORDS[t] < 10:
            digits += str(_UNITS_WORDS[t])
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


def _base(toks: list[_Tok], i: int) -> tuple[float, int] | None:
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
        if [x.text for x in toks[j : j + 3]] == ["and", "a", "half"]:
            value, j, is_decimal = value + 0.5, j + 3, True
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
        value *= _SCALES[toks[j].text]
        j += 1
    return value, j


def _signed_int(toks: list[_Tok], i: int) -> tuple[int, int] | None:
    n = len(toks)
    sign = 1
    if i < n and toks[i].text in ("minus", "negative", "-"):
        sign, i = -1, i + 1
    elif i < n and toks[i].text in ("plus", "positive"):
        i += 1
    if i < n and toks[i].kind == "num" and toks[i].value is not None:
        return sign * int(toks[i].value), i + 1
    if i < n and toks[i].kind == "sym" and toks[i].text.isdigit():
        return sign * int(toks[i].text), i + 1
    c = _cardinal(toks, i)
    if c and c[0] < 400:
        return sign * int(c[0]), c[1]
    return None


def _power_of_ten(toks: list[_Tok], i: int) -> tuple[int, int] | None:
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
        return (sign * int(digits), k) if digits else None
    else:
        return None
    e = _signed_int(toks, j)
    if e is None:
        return None
    # "ten to the minus fifth"
    k = e[1]
    return e[0], k


_MAX_EXP = 300
"""Larger powers of ten overflow a float: such words are not an exponent."""


def _expression(toks: list[_Tok], i: int) -> tuple[float, int, str] | None:
    """A full number: base, exponent, fraction, "half of"."""
    n = len(toks)
    t = toks[i]
    # "half of X", "a quarter of X", "twice X"
    k = i + 1 if t.text in ("a", "one") else i
    if k < n and toks[k].text in _FRACTIONS_OF and k + 1 < n and toks[k + 1].text == "of":
        inner = _expression(toks, k + 2) if k + 2 < n else None
        if inner:
            f = _FRACTIONS_OF[toks[k].text]
            return inner[0] * f, inner[1], f"{toks[k].text} of {_fmt(inner[0])}"
    # "a sixteenth", "an eighth"
    if (
        t.text in ("a", "an")
        and i + 1 < n
        and toks[i + 1].text in _ORDINALS
        and not toks[i + 1].text.endswith("s")
    ):
        return 1 / _ORDINALS[toks[i + 1].text], i + 2, f"1/{_ORDINALS[toks[i + 1].text]}"
    if t.text in _MULTIPLES and i + 1 < n:
        inner = _expression(toks, i + 1)
        if inner:
            return inner[0] * _MULTIPLES[t.text], inner[1], f"{t.text} {_fmt(inner[0])}"
    # bare power of ten: "ten to the minus five"
    p = _power_of_ten(toks, i)
    if p and abs(p[0]) <= _MAX_EXP:
        return 10.0 ** p[0], p[1], ""
    b = _base(toks, i)
    if b is None:
        return None
    value, j = b
    note = ""
    # exponent: "e minus four", "times ten to the minus five", "x 10^-5"
    if j < n and toks[j].text == "e":
        e = _signed_int(toks, j + 1)
        if e and abs(e[0]) <= _MAX_EXP:  # "e 1e9" is no exponent (and would overflow)
            value, j = value * 10.0 ** e[0], e[1]
    elif j < n and toks[j].text in ("times", "x", "×", "*"):
        p = _power_of_ten(toks, j + 1)
        if p and abs(p[0]) <= _MAX_EXP:
            value, j = value * 10.0 ** p[0], p[1]
    # ordinal fraction: "one sixteenth", "three eighths"
    if j < n and toks[j].text in _ORDINALS and toks[j].kind == "word" and t.kind == "word":
        den = _ORDINALS[toks[j].text]
        return value / den, j + 1, f"{_fmt(value)}/{den}"
    # fraction: "one over sixteen", "1/16"
    if j + 1 < n and toks[j].text in ("over", "/"):
        d = _base(toks, j + 1)
        if d and d[0] != 0:
            note = f"{_fmt(value)} over {_fmt(d[0])}"
            value, j = value / d[0], d[1]
    return value, j, note


def _unit_at(toks: list[_Tok], j: int) -> tuple[str, str, float, int] | None:
    """A unit word at ``toks[j]`` -> (canonical, quantity, factor, next index)."""
    n = len(toks)
    if j >= n:
        return None
    t = toks[j].text
    if t in ("per", "percent") and t == "per" and j + 1 < n and toks[j + 1].text == "cent":
        return "percent", "ratio", 0.01, j + 2
    if t in _UNIT_TABLE:
        quantity, factor, canonical = _UNIT_TABLE[t]
        # a single letter is a unit only right after a digit literal ("14G", "3 s")
        if len(t) == 1 and t not in "%" and j > 0 and toks[j - 1].kind != "num":
            return None
        return canonical, quantity, factor, j + 1
    return None


def _is_rate(toks: list[_Tok], j: int) -> int | None:
    """ "per second", "a second", "/s" after a number or unit -> index after it."""
    n = len(toks)
    if j < n and toks[j].text in ("per", "a", "an", "each", "every", "/") and j + 1 < n:
        u = toks[j + 1].text
        if u in _UNIT_TABLE and _UNIT_TABLE[u][0] == "time":
            return j + 2
    return None


_FILLERS = {"um", "uh", "erm", "er", "ah", "like", "you", "know", "basically"}
_OPERAND_BEFORE = {
    "step",
    "steps",
    "epoch",
    "layer",
    "of",
    "over",
    "by",
    "times",
    "from",
    "out",
    "than",
    "because",
    "since",
    "divided",
    "multiply",
    "multiplied",
    "log",
    "ln",
    "into",
    "with",
    "minus",
    "plus",
    "and",
    "at",
}


def _before(toks: list[_Tok], i: int, n: int = 5) -> list[str]:
    out = [t.text for t in toks[max(0, i - n - 3) : i]]
    return [w for w in out if w not in _APPROX and w not in _FILLERS][-n:]


def _operand(toks: list[_Tok], i: int, j: int) -> bool:
    before = _before(toks, i, 1)
    if before and before[0] in _OPERAND_BEFORE:
        return True
    # followed by an operator: "two thousand divided by", "five hundred over two thousand"
    after = [t.text for t in toks[j : j + 2]]
    return bool(after) and after[0] in ("times", "divided", "over", "/", "x", "plus", "minus")


def _explicit(toks: list[_Tok], i: int) -> bool:
    before = _before(toks, i, 3)
    return "answer" in before or "answer's" in before


def _cued(toks: list[_Tok], i: int) -> bool:
    before = _before(toks, i)
    if any(tuple(before[-len(cue) :]) == cue for cue in _CUES):
        return True
    return any(w in _STRONG_CUES for w in before[-3:])


def _is_name(toks: list[_Tok], i: int, j: int) -> bool:
    """The number at ``toks[i:j]`` is part of a name: "fp16", "ResNet fifty", "zero grad",
    "zero-shot", "top one"."""
    t = toks[i]
    if i > 0:
        prev = toks[i - 1]
        if prev.kind == "word" and prev.end == t.start and t.kind == "num":
            return True  # glued to letters: fp16, bf16, int8, gpt4
        if prev.text in _NAME_BEFORE and j == i + 1:
            return True
    if j < len(toks):
        nxt = toks[j]
        if nxt.text in _NAME_AFTER:
            return True
        if (
            nxt.text == "-"
            and nxt.start == toks[j - 1].end
            and j + 1 < len(toks)
            and toks[j + 1].kind == "word"
            and toks[j + 1].text not in _UNIT_TABLE
            and toks[j + 1].text not in _ORDINALS
        ):
            return True  # "zero-shot", "one-hot", "two-layer"
    return False


def _is_hypothetical(toks: list[_Tok], i: int) -> bool:
    for k in range(i - 1, max(-1, i - 8), -1):
        w = toks[k].text
        if w in _HYPOTHETICAL_BREAK:
            return False
        if w in _HYPOTHETICAL:
            if w == "instead":
                return k + 1 < len(toks) and toks[k + 1].text == "of"
            if w == "rather":
                return k + 1 < len(toks) and toks[k + 1].text == "than"
            return True
    return False


def find_numbers(text: str) -> list[NumberMention]:
    """Every number stated in ``text``, in order, with unit and span."""
    toks = _tokenise(text)
    out: list[NumberMention] = []
    i = 0
    n = len(toks)
    while i < n:
        expr = _expression(toks, i)
        if expr is None:
            i += 1
            continue
        value, j, note = expr
        # "one" on its own as a pronoun ("the one that"), "a" etc. are weak: skip lone "one"
        if (
            j == i + 1
            and toks[i].text == "one"
            and not (j < n and (_unit_at(toks, j) or toks[j].text in ("point",)))
        ):
            i = j
            continue
        if _is_name(toks, i, j):
            i = j
            continue
        vague = False
        if j < n and toks[j].text in ("something", "odd", "ish", "plus"):
            vague, j = True, j + 1
        elif j + 1 < n and toks[j].text == "or" and toks[j + 1].text == "so":
            vague, j = True, j + 2
        start_i = i
        # approximation words before the number belong to its text
        while start_i > 0 and toks[start_i - 1].text in _APPROX and start_i > i - 2:
            start_i -= 1
        unit = _unit_at(toks, j)
        canonical = quantity = None
        end_j = j
        if unit:
            canonical, quantity, _, end_j = unit
        elif (
            j < n
            and toks[j].kind == "word"
            and toks[j].text in ("gpus", "gpu", "layers", "epochs", "bits")
        ):
            end_j = j  # a counted thing that is not the answer's unit
        rate_end = _is_rate(toks, end_j) or (
            _is_rate(toks, end_j + 1) if end_j < n and toks[end_j].kind == "word" else None
        )
        if rate_end:
            quantity = "rate"
            canonical = f"{canonical or toks[end_j].text}/s"
            end_j = rate_end
        s, e = toks[start_i].start, toks[max(end_j, j) - 1].end
        out.append(
            NumberMention(
                value=value,
                unit=canonical,
                quantity=quantity,
                text=text[s:e],
                start=s,
                end=e,
                cued=_cued(toks, i),
                note=note,
                operand=_operand(toks, i, max(j, end_j)),
                explicit=_explicit(toks, i),
                vague=vague,
                hypothetical=_is_hypothetical(toks, start_i),
            )
        )
        i = max(j, end_j)
    return out


def _fmt(v: float) -> str:
    """A number as a person would write it: 16,781,312 / 41.67 / 7.5e-5."""
    if v == 0:
        return "0"
    a = abs(v)
    if 1e3 <= a < 1e15 and abs(v - round(v)) < 1e-6 * a:
        return f"{round(v):,}"
    if a >= 1e6 or a < 1e-3:
        s = f"{v:.3g}"
        return s.replace("e-0", "e-").replace("e+0", "e").replace("e+", "e")
    if a >= 100:
        return f"{v:,.1f}".rstrip("0").rstrip(".")
    return f"{v:.4g}"


def significant_digits(v: float) -> int:
    """Significant digits as said: 41.7 -> 3, 2500 -> 2, 16,781,312 -> 8, 0.063 -> 2."""
    if v == 0:
        return 1
    digits = f"{abs(v):.12e}".split("e")[0].replace(".", "").rstrip("0")
    if abs(v) >= 10 and abs(v - round(v)) < 1e-9:
        return max(2, len(digits))  # "forty" is not "about forty-ish": 40 != 41.7
    return max(1, len(digits))


def same_number(a: float, b: float) -> bool:
    """Equal at the precision of the less precise of the two (41.7 ~ 41.67, 16.8 million ~
    16,781,312, but 16,777,216 != 16,781,312)."""
    if a == b:
        return True
    if a == 0 or b == 0 or (a > 0) != (b > 0):
        return False
    places = [10.0 ** (math.floor(math.log10(abs(x))) - significant_digits(x) + 1) for x in (a, b)]
    return abs(a - b) <= 0.5 * max(places) * (1 + 1e-6) + 1e-12 * abs(a)


def unit_info(unit: str, accept: list[str] | tuple[str, ...] = ()) -> tuple[str, float] | None:
    """(quantity, factor) of a rubric unit, or None for a pure number / unknown unit."""
    for name in (unit, *accept):
        key = name.strip().lower()
        if key in _UNIT_TABLE:
            q, f, _ = _UNIT_TABLE[key]
            return q, f
        if name.strip() in _UNIT_TABLE:
            q, f, _ = _UNIT_TABLE[name.strip()]
            return q, f
    return None


def _pick(
    mentions: list[NumberMention], quantity: str | None, bare_ok: bool = False
) -> NumberMention | None:
    """The final stated answer. ``bare_ok``: the rubric's unit is only a label (a count),
    so a bare number is as good an answer as one with the unit, and the last stated of
    either kind wins ("128 examples per GPU ... so the effective batch is 512")."""
    if not mentions:
        return None
    plain = [m for m in mentions if not m.hypothetical]
    mentions = plain or mentions
    pools: list[list[NumberMention]] = []
    if quantity and bare_ok:
        pools.append([m for m in mentions if m.quantity in (quantity, None)])
    elif quantity:
        pools.append([m for m in mentions if m.quantity == quantity])
    pools.append([m for m in mentions if m.quantity is None])
    pools.append([m for m in mentions if m.quantity not in (None, "rate")])
    for pool in pools:
        if pool:
            explicit = [m for m in pool if m.explicit]
            if explicit:
                return explicit[-1]
            stated = [m for m in pool if m.cued or not m.operand]
            return (stated or pool)[-1]
    return mentions[-1]


def judge(numeric: NumericAnswer, text: str) -> NumericResult:
    """Judge the candidate's final stated number against the rubric."""
    mentions = find_numbers(text)
    want = unit_info(numeric.unit, numeric.accept_units)
    want_q, want_f = want if want else (None, 1.0)
    unit_label = numeric.unit
    expected_txt = f"{_fmt(numeric.value)} {unit_label}".strip()
    m = _pick(mentions, want_q, bare_ok=not numeric.unit.strip() or want_q == "count")

    def result(reason: str, *, heard=None, heard_unit=None, correct=False) -> NumericResult:
        return NumericResult(
            expected=numeric.value,
            tolerance=numeric.tolerance,
            unit=numeric.unit,
            heard=heard,
            heard_unit=heard_unit,
            heard_text=m.text if m is not None else None,
            correct=correct,
            reason=reason,
        )

    if m is None:
        return result(f"No number was heard; the answer is {expected_txt}.")
    value = m.value
    converted = ""
    accepted_spellings = {u.lower() for u in (numeric.unit, *numeric.accept_units)}
    if m.quantity is not None and want_q is not None and m.quantity != want_q:
        return result(
            f"Heard {_fmt(m.value)} {m.unit}, which is not a quantity in {unit_label}; "
            f"the answer is {expected_txt}.",
            heard=m.value,
            heard_unit=m.unit,
        )
    if m.quantity is not None and want_q is not None and m.unit:
        factor = (
            _UNIT_TABLE[m.unit.lower()][1]
            if m.unit.lower() in _UNIT_TABLE
            else _UNIT_TABLE[m.unit][1]
        )
        if not math.isclose(factor, want_f) and m.unit.lower() not in accepted_spellings:
            value = m.value * factor / want_f
            converted = f"{_fmt(m.value)} {m.unit} is {_fmt(value)} {unit_label}"
    elif (
        m.quantity is not None
        and want_q is None
        and numeric.unit
        and m.unit
        and m.unit.lower() not in accepted_spellings
    ):
        # the rubric's unit is not one we know: only its own spellings count
        return result(
            f"Heard {_fmt(m.value)} {m.unit}, but the answer is in {unit_label}: {expected_txt}.",
            heard=m.value,
            heard_unit=m.unit,
        )
    tol = numeric.tolerance + 1e-9 * max(1.0, abs(numeric.value))
    correct = abs(value - numeric.value) <= tol and not m.vague
    how = f" ({m.note})" if m.note else ""
    said = " ".join(x for x in (_fmt(m.value), m.unit or "") if x)
    if correct:
        if converted:
            reason = f"Right: {converted}{how}."
        elif m.unit is None and numeric.unit and want_q not in (None, "count"):
            reason = f"Right value, {_fmt(value)}{how}; say the unit too ({unit_label})."
        else:
            shown = " ".join(x for x in (_fmt(value), m.unit or unit_label) if x)
            reason = f"Right: {shown}{how}."
    elif m.vague:
        reason = f'Heard only "{m.text}"; say the exact number: {expected_txt}.'
    elif converted:
        reason = f"Heard {said}, which is {_fmt(value)} {unit_label}; the answer is {expected_txt}."
    else:
        reason = f"Heard {said}{how} as your final answer, but it is {expected_txt}."
    return result(
        reason, heard=value, heard_unit=numeric.unit if converted else m.unit, correct=correct
    )
