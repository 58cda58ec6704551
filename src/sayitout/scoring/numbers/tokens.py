"""Text -> tokens for reading numbers: numbers, words and the symbols that matter.

Digits with thousands separators ("16,781,312", "16 781 312"), decimals, exponents
("3e-4"), glued scales ("7B", "50k") and ordinal endings ("16th") are one ``num`` token
whose value is bounded to a float's range; words are lower-cased; superscripts ("10⁻⁵")
are ``sup`` tokens; a hyphenated number ("forty-one", "one-and-a-half") loses its
hyphens.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace

from sayitout.scoring import lexicon as lx
from sayitout.scoring.numbers.values import bounded
from sayitout.scoring.text import STEP_ARROWS

_NUMBER = (
    r"(?:\d{1,3}(?:,\d{3})+(?!\d)"  # 16,781,312
    r"|\d{1,3}(?:[\u00a0\u2009\u202f]\d{3})+(?!\d)"  # 16 781 312, a no-break or thin space
    r"|\d{1,3}(?: \d{3}){2,}(?!\d|\.\d)"  # 16 781 312, two groups at least
    r"|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?"  # 3e-4
    r"|\.\d+"  # .5
)
_GROUPING = re.compile(r"[,\s]")
"""What groups a number's thousands: commas, and spaces of any width."""
_VULGAR = "½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞"
"""Vulgar fractions, alone ("½") or after a whole number ("41⅔"): one number."""
_TOKEN_RE = re.compile(
    rf"(?P<num>{_NUMBER}|(?=[{_VULGAR}]))(?P<frac>[{_VULGAR}])?"
    r"(?:(?P<suf>(?:k|K|M|B|bn|T)\b)|(?P<ord>th|rd)\b)?"
    r"|(?P<word>[A-Za-z]+(?:['’][A-Za-z]+)?)"
    rf"|(?P<arrow>{'|'.join(map(re.escape, STEP_ARROWS))})"
    r"|(?P<sym>[%/^×*·÷=~≈+()√−⁻¹²³⁴⁵⁶⁷⁸⁹⁰-])"
)
_BREAK = re.compile(r"[.!?;:…]")
_PAUSE = re.compile(r"[,—–]")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_SUPER = "⁻¹²³⁴⁵⁶⁷⁸⁹⁰"
_CARDINAL_WORDS = frozenset({*lx.SMALL_NUMBERS, *lx.TENS, "hundred", *lx.SCALE_WORDS})
_JOINABLE = _CARDINAL_WORDS | frozenset(lx.ORDINALS)
"""Number words a hyphen joins into one number: "forty-one", "one-tenth"."""
_HYPHENATED = _JOINABLE | lx.wordset("and a e minus point oh to the power of times over")
"""Words a hyphenated number may hold: "one-and-a-half", "three-e-minus-four"."""


@dataclass(frozen=True)
class Tok:
    text: str
    kind: str  # num | word | sym | sup
    start: int
    end: int
    value: float | None = None
    after_break: bool = False
    """A sentence break (". ", "? ", ";") comes right before it: a number said one word
    at a time does not run on across it ("about two point three. Two point three zero")."""
    after_comma: bool = False
    """A comma or a dash comes right before it: digits said one at a time do not run on
    across it either ("two point three, two point three oh" and "about two point three —
    two-point-three-oh-two" say 2.3, not 2.32)."""


def tokenise(text: str) -> list[Tok]:
    """Numbers, words and the symbols that matter for numbers, with their offsets.

    A hyphen between two number words is dropped ("forty-one" reads as "forty one"), and
    a typed arrow between steps is no symbol at all ("0.0625 -> 0.063" is no subtraction).
    """
    toks: list[Tok] = []
    for m in _TOKEN_RE.finditer(text):
        gap = text[toks[-1].end : m.start()] if toks else ""
        brk, comma = bool(_BREAK.search(gap)), bool(_PAUSE.search(gap))
        if m.group("num") or m.group("frac"):
            raw = _GROUPING.sub("", m.group("num")) or "0"
            try:
                value = float(raw)
            except ValueError:  # pragma: no cover - the pattern only matches floats
                continue
            if m.group("frac"):
                value += unicodedata.numeric(m.group("frac"))
            suf = m.group("suf")
            if suf:
                value *= lx.SUFFIX_SCALES[suf.lower()]
            # "7B" is a name's shape; "16th" is 16
            text_ = m.group() if suf else m.group("num") + (m.group("frac") or "")
            toks.append(Tok(text_, "num", m.start(), m.end(), bounded(value), brk, comma))
        elif m.group("word"):
            word = m.group().lower().replace("’", "'")
            toks.append(Tok(word, "word", m.start(), m.end(), after_break=brk, after_comma=comma))
        elif m.group("arrow"):
            continue  # a step, not a sum: "0.0625 -> 0.063" has no minus, as "→" has none
        else:
            s = m.group()
            if s in _SUPER:
                sup = "-" if s == "⁻" else s.translate(_SUPERSCRIPTS)
                toks.append(Tok(sup, "sup", m.start(), m.end()))
            else:
                toks.append(Tok("-" if s == "−" else s, "sym", m.start(), m.end()))
    return _join_prefixes(_join_hyphens(toks), text)


_PREFIXES = lx.wordset("giga mega tera milli per")
"""The first word of a unit said or written as two ("112 Giga bytes", "fifty per cent")."""


def _join_prefixes(toks: list[Tok], text: str) -> list[Tok]:
    """A unit written as two words reads as one ("Giga bytes" as "gigabytes", "per cent"
    as "percent"), when together they spell one of the units (``lexicon.UNITS``)."""
    out: list[Tok] = []
    for t in toks:
        prev = out[-1] if out else None
        if (
            prev is not None
            and t.kind == prev.kind == "word"
            and prev.text in _PREFIXES
            and prev.text + t.text in lx.UNITS
            and not text[prev.end : t.start].strip()
        ):
            out[-1] = replace(prev, text=prev.text + t.text, end=t.end)
        else:
            out.append(t)
    return out


def _join_hyphens(toks: list[Tok]) -> list[Tok]:
    """Drop the hyphens of a hyphenated number ("forty-one", "one-and-a-half",
    "three-e-minus-four"): a run of words glued by hyphens, all of them words of a number
    and one at least a number word. "zero-shot" and "one-hot" keep theirs."""
    drop: set[int] = set()
    k = 0
    n = len(toks)
    while k < n:
        end = k  # the run toks[k..end]: word (- word)*
        while (
            end + 2 < n
            and toks[end + 1].text == "-"
            and toks[end].end == toks[end + 1].start
            and toks[end + 1].end == toks[end + 2].start
            and toks[end + 2].kind in ("word", "num")
        ):
            end += 2
        run = toks[k : end + 1 : 2]
        if (
            end > k
            and all(t.text in _HYPHENATED for t in run if t.kind == "word")
            and any(t.text in _JOINABLE for t in run)
        ):
            drop.update(range(k + 1, end, 2))
        k = end + 1
    return [t for x, t in enumerate(toks) if x not in drop]
