"""Delivery from word timestamps: pace, fillers, long pauses, hedges, time to first word.

Counting rules (so a candidate can trust the numbers):

* Pace: words per minute over the speaking time, from the first word's start to the
  last word's end (silence before the first word is reported separately).
* Always fillers: um, umm, uh, uhh, erm, er, ah, hmm, mm.
* "like" is a filler when it is the first word, follows a pause (punctuation or a gap
  of 0.3 s or more), follows a connective or another filler (and, so, but, or, then,
  um, uh, well, yeah, okay, it's, was, is, just... not after the verbs below), or comes
  right before a number ("like fifty thousand"). It is *not* a filler after I/you/we/
  they/would/'d/looks/seems/sounds/feel/something/things/more/much ("I'd like",
  "looks like", "things like dropout").
* "you know" is a filler unless part of a question or clause: not after do/did/don't/
  if/as, and not before that/what/how/why/when/where/whether/if/the.
* "sort of" / "kind of" are fillers unless after a/the/this/that/what/which/some/any/
  every/one/no/each ("a kind of normalisation", "what sort of data").
* "basically", "literally" and "I mean" (not "what I mean", "I mean it") are fillers.
* "so" is a filler only when it starts a sentence (first word, or after a pause or
  sentence punctuation) and is followed by a comma, a pause or another filler
  ("so, um, ..."); "so the learning rate..." is a normal connective.
* Hedges: I think, I guess, I believe, I suppose, maybe, probably, perhaps, possibly,
  might, not sure / I'm not sure, I don't know.
* Long pauses: gaps between consecutive words over 1.5 s.
"""

from __future__ import annotations

import itertools
from collections import Counter

from sayitout.scoring.lexicon import NUMBER_WORDS
from sayitout.scoring.result import DeliveryMetrics, Pause
from sayitout.speech.transcript import Transcript, Word

LONG_PAUSE_S = 1.5
_SHORT_GAP_S = 0.3

_ALWAYS = {
    "um": "um",
    "umm": "um",
    "uhm": "um",
    "uh": "uh",
    "uhh": "uh",
    "erm": "erm",
    "er": "er",
    "ah": "ah",
    "hmm": "hmm",
    "mm": "mm",
    "basically": "basically",
    "literally": "literally",
}
_LIKE_NOT_AFTER = {
    "i",
    "you",
    "we",
    "they",
    "he",
    "she",
    "would",
    "i'd",
    "you'd",
    "we'd",
    "they'd",
    "d",
    "look",
    "looks",
    "looked",
    "looking",
    "seem",
    "seems",
    "seemed",
    "sound",
    "sounds",
    "sounded",
    "feel",
    "feels",
    "felt",
    "something",
    "anything",
    "nothing",
    "things",
    "thing",
    "stuff",
    "more",
    "much",
    "exactly",
    "just",
    "don't",
    "didn't",
    "doesn't",
    "not",
    "really",
}
_LIKE_AFTER = {
    "and",
    "so",
    "but",
    "or",
    "then",
    "um",
    "uh",
    "erm",
    "er",
    "well",
    "yeah",
    "okay",
    "ok",
    "it's",
    "was",
    "is",
    "were",
    "are",
    "be",
    "basically",
    "mean",
}
_NUMBER_WORDS = NUMBER_WORDS | {"a"}
"""A "like" right before these is a filler ("like fifty thousand", "like a hundred")."""
_YOU_KNOW_NOT_AFTER = {"do", "did", "don't", "if", "as", "you'd", "to"}
_YOU_KNOW_NOT_BEFORE = {
    "that",
    "what",
    "how",
    "why",
    "when",
    "where",
    "whether",
    "if",
    "the",
    "which",
    "who",
    "it",
}
_SORT_NOT_AFTER = {
    "a",
    "the",
    "this",
    "that",
    "what",
    "which",
    "some",
    "any",
    "every",
    "one",
    "no",
    "each",
    "same",
    "another",
    "different",
    "of",
}
_HEDGES_2 = {
    ("i", "think"): "I think",
    ("i", "guess"): "I guess",
    ("i", "believe"): "I believe",
    ("i", "suppose"): "I suppose",
    ("not", "sure"): "not sure",
    ("don't", "know"): "I don't know",
}
_HEDGES_1 = {
    "maybe": "maybe",
    "probably": "probably",
    "perhaps": "perhaps",
    "possibly": "possibly",
    "might": "might",
}
_PUNCT_END = ",.;:!?…-"


def _norm(w: str) -> str:
    return w.strip().strip(".,;:!?\"'()…").lower().replace("’", "'")


def _pause_before(words: list[Word], i: int, gap: float) -> bool:
    if i == 0:
        return True
    prev = words[i - 1].text.strip()
    return (bool(prev) and prev[-1] in _PUNCT_END) or words[i].start - words[i - 1].end >= gap


def _pause_after(words: list[Word], i: int, gap: float) -> bool:
    if i == len(words) - 1:
        return True
    here = words[i].text.strip()
    return (bool(here) and here[-1] in _PUNCT_END) or words[i + 1].start - words[i].end >= gap


def count_fillers(words: list[Word]) -> Counter[str]:
    """Filler words by kind, following the rules in the module docstring."""
    toks = [_norm(w.text) for w in words]
    out: Counter[str] = Counter()
    n = len(toks)
    for i, t in enumerate(toks):
        prev = toks[i - 1] if i else ""
        nxt = toks[i + 1] if i + 1 < n else ""
        if t in _ALWAYS:
            out[_ALWAYS[t]] += 1
        elif t == "like":
            if prev in _LIKE_NOT_AFTER:
                continue
            if (
                _pause_before(words, i, _SHORT_GAP_S)
                or prev in _LIKE_AFTER
                or nxt in _NUMBER_WORDS
                or nxt[:1].isdigit()
            ):
                out["like"] += 1
        elif t == "know" and prev == "you":
            before = toks[i - 2] if i >= 2 else ""
            if before not in _YOU_KNOW_NOT_AFTER and nxt not in _YOU_KNOW_NOT_BEFORE:
                out["you know"] += 1
        elif t == "of" and prev in ("sort", "kind"):
            before = toks[i - 2] if i >= 2 else ""
            if before not in _SORT_NOT_AFTER:
                out[f"{prev} of"] += 1
        elif t == "mean" and prev == "i":
            before = toks[i - 2] if i >= 2 else ""
            if before not in ("what", "which", "that") and nxt != "it":
                out["I mean"] += 1
        elif (
            t == "so"
            and _pause_before(words, i, 1.0)
            and (_pause_after(words, i, _SHORT_GAP_S) or nxt in _ALWAYS or nxt == "like")
        ):
            out["so"] += 1
    return out


def count_hedges(words: list[Word]) -> Counter[str]:
    toks = [_norm(w.text) for w in words]
    out: Counter[str] = Counter()
    for i, t in enumerate(toks):
        if t in _HEDGES_1:
            out[_HEDGES_1[t]] += 1
        elif i and (toks[i - 1], t) in _HEDGES_2:
            if t == "sure" and i >= 2 and toks[i - 2] == "pretty":
                continue
            out[_HEDGES_2[(toks[i - 1], t)]] += 1
    return out


def delivery_metrics(transcript: Transcript) -> DeliveryMetrics | None:
    """Delivery metrics, or None when the transcript has no word timestamps."""
    words = [w for w in transcript.words if w.text.strip()]
    if not words:
        return None
    speaking = max(words[-1].end - words[0].start, 1e-6)
    minutes = speaking / 60.0
    fillers = count_fillers(words)
    hedges = count_hedges(words)
    pauses = tuple(
        Pause(start=round(a.end, 3), duration=round(b.start - a.end, 3))
        for a, b in itertools.pairwise(words)
        if b.start - a.end > LONG_PAUSE_S
    )
    filler_count = sum(fillers.values())
    duration = transcript.duration if transcript.duration else words[-1].end
    return DeliveryMetrics(
        duration_s=round(float(duration), 3),
        words=len(words),
        words_per_minute=round(len(words) / minutes, 1) if speaking > 1.0 else 0.0,
        fillers=dict(sorted(fillers.items())),
        filler_count=filler_count,
        fillers_per_minute=round(filler_count / minutes, 2) if speaking > 1.0 else 0.0,
        long_pauses=pauses,
        hedges=dict(sorted(hedges.items())),
        time_to_first_word_s=round(words[0].start, 3),
    )
