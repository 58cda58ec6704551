"""Text as it should be spoken: notation read out, split into sentences.

Questions carry notation a speech engine reads badly ("3e-4", "10⁹", "3×3", "bf16");
:func:`speakable` rewrites it as a person would say it. :func:`sentences` splits the
text so the first sentence can play while the rest is synthesised; a long first
sentence is split once more at a comma, so sound starts sooner.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")

_ABBREVIATIONS = [
    (re.compile(r"\be\.g\.,?", re.I), "for example,"),
    (re.compile(r"\bi\.e\.,?", re.I), "that is,"),
    (re.compile(r"\bvs\.?(?=\s)", re.I), "versus"),
    (re.compile(r"\betc\.", re.I), "et cetera."),
    (re.compile(r"\bapprox\.", re.I), "approximately"),
]

_RULES: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    # 3e-4 -> 3 times 10 to the minus 4
    (re.compile(r"\b(\d+(?:\.\d+)?)[eE]-(\d+)\b"), r"\1 times 10 to the minus \2"),
    (re.compile(r"\b(\d+(?:\.\d+)?)[eE]\+?(\d+)\b"), r"\1 times 10 to the \2"),
    # 3×3 -> 3 by 3 ; other × -> times
    (re.compile(r"(\d)\s*[×x]\s*(\d)"), r"\1 by \2"),
    (re.compile(r"×"), " times "),
    # fp16, bf16, fp32, int8 -> letters spelled out
    (
        re.compile(r"\b(fp|bf|FP|BF)(\d+)\b"),
        lambda m: " ".join(m.group(1).upper()) + " " + m.group(2),
    ),
    # 7B model -> 7 billion ; 350M -> 350 million
    (re.compile(r"\b(\d+(?:\.\d+)?)B\b"), r"\1 billion"),
    (re.compile(r"\b(\d+(?:\.\d+)?)M\b"), r"\1 million"),
    (re.compile(r"\bAdamW\b"), "Adam W"),
    (re.compile(r"\bNaN\b"), "nan"),
    (re.compile(r"[`*_#]+"), ""),
    (re.compile(r"\s*→\s*"), " to "),
    (re.compile(r"\s*[–—]\s*"), ", "),
]

_SUPER_POWER = re.compile(r"(\d+)([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)")


def speakable(text: str) -> str:
    """Rewrite notation as words and tidy whitespace."""
    text = _SUPER_POWER.sub(
        lambda m: f"{m.group(1)} to the power of {m.group(2).translate(_SUPERSCRIPTS)}".replace(
            "of -", "of minus "
        ),
        text,
    )
    for pattern, repl in _ABBREVIATIONS:
        text = pattern.sub(repl, text)
    for rule, replacement in _RULES:
        text = rule.sub(replacement, text)
    return re.sub(r"\s+", " ", text).strip()


# A sentence ends at . ! ? (possibly followed by a closing quote or bracket) and a space,
# but not after a decimal point or a single capital (initials).
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_CLAUSE = re.compile(r"(?<=[,;:])\s+")
# Where a long first sentence without a comma may still be split: before a conjunction
# or a clause word, where a speaker could pause for breath.
_PHRASE = re.compile(
    r"\s+(?=(?:and|but|because|so|then|when|after|before|while|which|that|rather|"
    r"over|until|if|or|with|from|should|gives)\b)"
)

FIRST_CHUNK_CHARS = 50
"""A first sentence longer than this is split (at a comma, else before a conjunction), so
the first sound comes sooner: the engine must finish a piece before it can be played."""
FIRST_CHUNK_MAX = 75
"""The latest place the first sentence may be split at."""


def sentences(text: str, *, split_first: bool = True) -> list[str]:
    """Split text into sentences (each stripped, none empty)."""
    text = text.strip()
    if not text:
        return []
    parts = [p.strip() for p in _SENTENCE_END.split(text) if p.strip()]
    if split_first and parts and len(parts[0]) > FIRST_CHUNK_CHARS:
        first = parts[0]
        for pattern in (_CLAUSE, _PHRASE):
            cut = next(
                (
                    m
                    for m in pattern.finditer(first)
                    if 20 <= m.start() <= FIRST_CHUNK_MAX and len(first) - m.end() >= 15
                ),
                None,
            )
            if cut is not None:
                parts[0:1] = [first[: cut.start()].strip(), first[cut.end() :].strip()]
                break
    return parts
