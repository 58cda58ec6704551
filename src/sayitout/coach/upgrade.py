"""Your answer, upgraded: the candidate's own words with what they missed woven in.

No language model: each missed (or half-said) key point is added as the model-answer
sentence that says it best (or the key point's own text when no sentence fits), placed
where it belongs in the rubric's order: after the sentence where the candidate made the
point that comes before it, or before the sentence holding the point that follows it. A
stated misconception is kept visible but marked wrong, with the correction added after
it. Hesitation fillers ("um", "uh") are dropped from the candidate's sentences.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from sayitout.bank.models import KeyPoint, Rubric
    from sayitout.scoring.result import AnswerScore

SegmentKind = Literal["own", "added", "wrong"]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[a-z0-9]+")
_HESITATION = re.compile(r"(?i)(^|\s)(?:um+|uh+|erm+|er|uhm+|hmm+)[,.]?(?=\s|$)")
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "so",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "with",
        "by",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "you",
        "your",
        "we",
        "they",
        "i",
        "as",
        "if",
        "then",
        "than",
        "from",
        "into",
        "up",
        "down",
        "out",
        "not",
        "no",
        "can",
        "will",
        "would",
        "should",
        "could",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "just",
        "very",
        "also",
        "which",
        "what",
        "when",
        "how",
        "why",
        "there",
        "their",
        "them",
        "more",
        "most",
        "less",
        "about",
        "like",
        "because",
    ]
)
MIN_OVERLAP = 0.2
"""Least word overlap for a model-answer sentence to stand for a key point."""


@dataclass(frozen=True)
class Segment:
    text: str
    kind: SegmentKind
    key_point_id: str | None = None
    """For an addition: the key point it supplies (None for a correction)."""


@dataclass(frozen=True)
class UpgradedAnswer:
    segments: tuple[Segment, ...]

    @property
    def added(self) -> tuple[Segment, ...]:
        return tuple(s for s in self.segments if s.kind == "added")

    @property
    def text(self) -> str:
        """The upgraded answer to read aloud: the candidate's sentences and the additions,
        without the parts marked wrong."""
        return " ".join(s.text for s in self.segments if s.kind != "wrong")

    @property
    def marked(self) -> str:
        """Plain text with additions in ``[+ ... +]`` and wrong parts in ``[- ... -]``."""
        out = []
        for s in self.segments:
            if s.kind == "added":
                out.append(f"[+ {s.text} +]")
            elif s.kind == "wrong":
                out.append(f"[- {s.text} -]")
            else:
                out.append(s.text)
        return " ".join(out)


def upgrade_answer(score: AnswerScore, rubric: Rubric) -> UpgradedAnswer:
    """The candidate's answer (``score.answer``) with ``rubric``'s missing points added."""
    answer = score.answer or ""
    sentences = _sentences(answer)
    status = {kp.id: kp.status for kp in score.key_points}
    spans = {kp.id: kp.evidence_span for kp in score.key_points if kp.evidence_span}
    order = [kp.id for kp in rubric.key_points]
    by_id = {kp.id: kp for kp in rubric.key_points}
    model_sentences = _sentences(rubric.model_answer)
    used: set[int] = set()

    # where each sentence-level insertion goes: after[i] follows sentence i; before_all leads
    after: dict[int, list[Segment]] = {}
    lead: list[Segment] = []
    for pos, kp_id in enumerate(order):
        if status.get(kp_id) == "covered":  # a point made only when prompted is still added
            continue
        kp = by_id[kp_id]
        addition = Segment(_sentence_for(kp, model_sentences, used), "added", kp_id)
        anchor = _anchor(order, pos, spans, sentences)
        if anchor is None:  # nothing the candidate said is near it: add it at the end
            (after.setdefault(len(sentences) - 1, []) if sentences else lead).append(addition)
        elif anchor[1] == "after":
            after.setdefault(anchor[0], []).append(addition)
        else:
            slot = anchor[0] - 1
            (lead if slot < 0 else after.setdefault(slot, [])).append(addition)

    wrong = {
        i: m
        for m in score.misconceptions
        if m.evidence_span is not None
        for i in [_sentence_index(sentences, m.evidence_span[0])]
        if i is not None
    }
    segments: list[Segment] = list(lead)
    for i, (_, _, text) in enumerate(sentences):
        if i in wrong:
            segments.append(Segment(_clean(text), "wrong"))
            if wrong[i].correction:
                segments.append(Segment(wrong[i].correction, "added"))
        else:
            cleaned = _clean(text)
            if cleaned:
                segments.append(Segment(cleaned, "own"))
        segments.extend(after.get(i, ()))
    return UpgradedAnswer(tuple(segments))


def _sentences(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, text)`` of each sentence; an unpunctuated answer is one sentence."""
    out = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if text[start : m.start()].strip():
            out.append((start, m.start(), text[start : m.start()].strip()))
        start = m.end()
    if text[start:].strip():
        out.append((start, len(text), text[start:].strip()))
    return out


def _sentence_index(sentences: list[tuple[int, int, str]], offset: int) -> int | None:
    for i, (start, end, _) in enumerate(sentences):
        if start <= offset < end or (i == len(sentences) - 1 and offset >= start):
            return i
    return None


def _anchor(
    order: list[str],
    pos: int,
    spans: dict[str, tuple[int, int]],
    sentences: list[tuple[int, int, str]],
) -> tuple[int, str] | None:
    """``(sentence index, "after" | "before")``: next to the nearest point the candidate
    made before this one in rubric order (else the nearest one after it)."""
    for kp_id in reversed(order[:pos]):
        if kp_id in spans:
            i = _sentence_index(sentences, spans[kp_id][1] - 1)
            if i is not None:
                return i, "after"
    for kp_id in order[pos + 1 :]:
        if kp_id in spans:
            i = _sentence_index(sentences, spans[kp_id][0])
            if i is not None:
                return i, "before"
    return None


def _words(text: str) -> set[str]:
    return {w[:6] for w in _WORD.findall(text.lower()) if w not in _STOP}


def _sentence_for(kp: KeyPoint, model_sentences: list[tuple[int, int, str]], used: set[int]) -> str:
    """The model-answer sentence that best says ``kp`` (each used once), else its own text."""
    target = _words(kp.text)
    for p in kp.paraphrases:
        target |= _words(p)
    best, best_i = 0.0, None
    for i, (_, _, sentence) in enumerate(model_sentences):
        if i in used:
            continue
        words = _words(sentence)
        if not words:
            continue
        overlap = len(words & target) / len(words | _words(kp.text))
        if overlap > best:
            best, best_i = overlap, i
    if best_i is not None and best >= MIN_OVERLAP:
        used.add(best_i)
        return model_sentences[best_i][2]
    return kp.text


def _clean(text: str) -> str:
    text = _HESITATION.sub(r"\1", text)
    text = re.sub(r"\s{2,}", " ", text).strip()
    text = re.sub(r"^[,;]\s*", "", text)
    return text[:1].upper() + text[1:] if text else text
