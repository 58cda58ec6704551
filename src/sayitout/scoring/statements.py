"""Whether an answer states things, or only names or asks them.

Two kinds of answer say the rubric's words without saying anything: a bare list of terms
("fp16, NaN, loss scaling, overflow, bf16.") and the question read back ("Why is
validation loss lower than training loss?"). Embeddings and shared words rate both close
to the key points. Here:

* A *keyword list* is an answer of at least four comma-separated fragments, nearly all of
  its words in fragments of at most three words that hold no function word, no verb
  cue and no symbol of a relation (=, →, ×, ≠ ...). Terse notes that state relations
  ("fp16 overflow (max 65504) → inf → NaN") are not lists.
* A word is *asked* when its sentence ends with a question mark. Asked words state
  nothing: a window made mostly of them earns no key point and flags no misconception.
"""

from __future__ import annotations

import re

from sayitout.scoring.text import STOPWORDS, Span

_FRAGMENT_SPLIT = re.compile(r"[,;]|\.(?=\s|$)")
_RELATION = re.compile(r"[=→←↔≠<>×*+/()^√%:]|->|(?<![A-Za-z\d])\d")
_VERB_CUES = frozenset(
    """not never no use uses using make makes keep keeps check lower raise add clip
    is are was were be means cause causes""".split()  # noqa: SIM905
)


def is_keyword_list(text: str) -> bool:
    """True for an answer that only lists terms (see the module docstring)."""
    fragments = [f.strip() for f in _FRAGMENT_SPLIT.split(text) if f.strip()]
    if len(fragments) < 4:
        return False
    listed = total = 0
    for f in fragments:
        ws = f.lower().split()
        total += len(ws)
        if (
            len(ws) <= 3
            and not _RELATION.search(f)
            and not any(w.strip("'\"") in STOPWORDS or w in _VERB_CUES for w in ws)
        ):
            listed += len(ws)
    return total > 0 and listed / total >= 0.8


def asked_words(text: str, ws: list[Span]) -> list[bool]:
    """Per word: whether its sentence ends with a question mark."""
    out = [False] * len(ws)
    first = 0
    for i, w in enumerate(ws):
        chunk = text[w.start : w.end]
        if re.search(r"[.!?;]+$", chunk) or i == len(ws) - 1:
            if chunk.endswith("?"):
                for k in range(first, i + 1):
                    out[k] = True
            first = i + 1
    return out
