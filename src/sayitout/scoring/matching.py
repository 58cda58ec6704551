"""Matching rubric sentences (key points, misconceptions) against answer windows.

For every rubric sentence (a key point's text or one of its paraphrases) and every
window of the answer, three things are measured:

* ``cos``: cosine similarity of their MiniLM embeddings;
* ``lex``: lexical support, the share of the rubric sentence's content-word stems
  (and of the key point's terms) found in the window. MiniLM rates any two sentences
  about learning rates as similar; shared content words separate "lower the learning
  rate" from "the learning rate schedule matters";
* ``base``: how similar the rubric sentence is to generic, content-free answers
  (``DISTRACTORS``). A window must beat this off-topic baseline by a margin.

Their blend, ``match = (1 - lex_weight) * cos + lex_weight * lex``, is compared with
thresholds calibrated on ``tests/calibration/deep-learning.jsonl`` (see ``Params``).
A pair whose direction conflicts (see ``polarity``) or whose numbers disagree never
counts.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sayitout.scoring import (
    cadence,
    holdups,
    numbers,
    outcomes,
    phases,
    polarity,
    replacements,
    schedules,
    sequence,
    statements,
    trends,
)
from sayitout.scoring.text import (
    STOPWORDS,
    Span,
    called_words,
    content_stems,
    normalise_word,
    stem,
    words,
)
from sayitout.scoring.trends import Trend

#: Generic answers with no content: a rubric sentence's similarity to them is its
#: off-topic baseline.
DISTRACTORS: tuple[str, ...] = (
    "I would look at the model and the data and see what is going on",
    "it really depends on the problem you know every case is different",
    "I'm not sure, I would probably just try a few things and see what works",
    "you train the neural network with gradient descent on the loss",
    "I would google it or ask someone on the team",
    "deep learning models need a lot of data and compute to train well",
)


@dataclass(frozen=True)
class Params:
    """Thresholds and weights, fitted on the development part of the calibration set
    (bench/scoring.py).

    The defaults go with late chunking (each answer embedded once, windows pooled from
    its token vectors); ``Params.per_window()`` is the strategy of embedding every
    window on its own, the slower way used before.
    """

    lex_weight: float = 0.5
    partial: float = 0.36
    """``match`` above which a key point earns some credit."""
    covered: float = 0.55
    """``match`` at or above which a key point earns full credit (``credit``)."""
    min_margin: float = 0.05
    """``cos`` must beat the off-topic baseline by this much for any credit, unless the
    window says the key point sentence's content words (``lexical_pass``) or most of
    them (``lexical_near``)."""
    lexical_pass: float = 0.9
    """``lexical`` at or above which a window may be a key point's evidence whatever its
    ``cos``, for sentences of two or more content words (above 1: never). Late chunking
    pools a window from token vectors read in the whole answer's context, so "smaller
    model," deep in a typed list of fixes had cosine 0.25 with "a smaller model", under
    its floor. 0.9 chosen on dev (fold judges): stated key points given credit 88.6 →
    89.3 %, unstated ones 16.2 → 16.2 %."""
    lexical_near: float = 0.6
    """``lexical`` at or above which a window needs only ``lexical_near_margin`` over the
    off-topic baseline, not ``min_margin``: plain words that the glossary
    (``text.PLAIN_FORMS``) maps to most of a key point sentence's terms ("take smaller
    steps" for "try a smaller learning rate") pool to cosines at about the baseline."""
    lexical_near_margin: float = -0.01
    """See ``lexical_near``. 0.6 and -0.01 chosen on dev (1,482) among 0.5 / 0.6 / 0.7 and
    0.02 / -0.01 / -0.05: strong ≥ 70 94.7 → 95.6 %, wrong ≤ 30 92.9 → 92.4 %, stated key
    points given credit 90.3 → 91.3 %, unstated ones 20.2 → 20.5 %."""
    misconception: float = 0.63
    """``match`` at or above which a misconception is flagged."""
    misconception_margin: float = 0.0
    directed_misconception: float = 0.40
    """``match`` at or above which a misconception that goes one way about a thing ("raise
    the learning rate") is flagged when the whole answer says that way about it and never
    the other (``polarity.states_direction``). Dev (3,253, fifteenth round): every value
    from 0.30 to 0.48 flags the same answers (six wrong ones down, none strong or partial
    moved); 0.55 loses two of them."""
    numeric_share: float = 0.7
    """Share of the score earned by the right final number on numeric questions."""
    near_miss_credit: float = 0.5
    """Share of ``numeric_share`` a near-miss number earns (``NumericResult.close``)."""
    misconception_claims: bool = True
    """A window that matches a flagged misconception at least as well as a key point
    earns that key point nothing (role swaps: the right words, the wrong way round)."""
    late_chunking: bool = True
    """Embed each answer once and pool its windows from the token vectors of that one
    pass (``Embedder.encode_spans``) instead of encoding every window on its own: about
    six times less model time, the same agreement on the calibration set."""
    name_terms: bool = True
    """Show the embedding model an answer with each field term said in plain words named
    after them (``text.name_terms``): "take smaller steps" then meets "lower the learning
    rate"."""
    full_coverage: float = 0.75
    """Weighted key point coverage that earns the whole key point share of the score."""
    thin_full_coverage: float = 0.70
    """``full_coverage`` for a thin rubric, one whose key points have no paraphrases (every
    deck ``sayitout import`` drafts): with only each point's own text to meet, a right
    answer's matches come out lower, and the same strong answer covers less. Fitted on
    dev scored against its rubrics stripped (``bench/scoring.py``, rubric-light and bare):
    0.70 lifts strong >= 70 from 76.8 to 81.2 % (light) and 69.4 to 76.4 % (bare) for
    wrong <= 30 0.1 point lower; 0.65 costs wrong answers a point, and puts a keyword
    list over 40."""
    idf_power: float = 0.5
    """How much a stem shared by several of the rubric's items is discounted in
    ``lexical`` (0: every stem counts the same)."""
    question_stems: float = 0.3
    """Weight, in ``lexical``, of a stem the question itself says ("bf16" in "why bf16
    over fp16?"): every answer on the topic says it, so it tells little about which key
    point an answer states (1: no discount; 0.3 fitted on the dev part)."""
    question_terms_off: bool = True
    """A key point term that the question itself says earns no term bonus in ``lexical``."""
    split_key_points: bool = True
    """Also match each clause of a long key point on its own (``scorer._parts``)."""
    undirected_penalty: float = 0.2
    """Taken off ``match`` when a key point states a direction ("lower the learning
    rate") and the window, with the words after it, states none."""
    list_credit: float = 0.22
    """The most a key point earns from an answer that only lists terms (0.3 until the third
    round, 0.25 until the twenty-fourth; 0.22 keeps every one of dev's 355 keyword lists at
    30 or under, where 0.25 left four at 33, and moves no other dev answer)."""
    role_bound: float = 0.66
    """Share of a misconception clause's content words that an answer clause must state
    about the same entity for the misconception to count as stated (``roles``)."""
    asserted_penalty: float = 2.0
    """How many times its penalty a misconception costs when the answer's structure
    states it (``Matcher.misconception``: both halves of a swap, a clause bound on three
    content words, a switch said its way), not only words close to it. 2 on the dev part
    (eleventh round): nine wrong answers down, none strong or partial moved."""
    asserted_read: float = 0.82
    """Cosine at which a misconception the embeddings read, with no structure bound, is
    stated outright and costs ``asserted_penalty`` times its penalty too ("Warmup starts
    at a large learning rate and ramps it down" reads 0.82 against "Warmup means starting
    with a high learning rate and lowering it"). 0.82 on the dev part (thirty-sixth
    round): nine wrong answers down, nothing else. At 0.80 five more wrong answers and
    two partials go down, but a strong answer of the unit tests ("A very big batch gives
    an accurate gradient but ...", 0.808 against "a bigger batch always gives a better
    model because the gradient is more accurate") loses 40, and dev's closest strong
    answer reads 0.793: too near."""

    reversal_penalty: float = 15.0
    """What each key point said the other way round costs (``Matcher._contradiction``:
    the steps in the other order, a switch the other way in a phase, a trend or a test's
    outcome reversed). The answer asserts the opposite of the point, a misconception the
    rubric did not name. 15 on the dev part (twentieth round): six wrong answers down
    to 30 or under and none strong under 70 (once ``outcomes`` read a conditional said
    after its consequence); two strong answers lose 15 to misreadings. 10 gives five."""

    off_topic_other: float = 0.6
    """An answer whose pooled vector is at least this close to another question's model
    answer, and ``off_topic_margin`` closer than to its own, answers that question
    (``Scorer``'s ``neighbours``). Fitted on the dev part (ninth round): 0.6 and 0.25
    fire on 56 of its 93 off-topic answers, 7 of the 8 that scored over 30, and on none
    of its 1,075 strong and partial answers."""
    off_topic_margin: float = 0.25
    off_topic_keeps: float = 70.0
    """An answer that scores at least this against its own rubric answers its own question,
    however close it sits to another's model answer. Sister questions share words: a
    strong answer to "training good, validation poor" sat 0.236 closer to "validation loss
    rises after epoch 5", a hair under ``off_topic_margin``, and scored 100 or 0 as the
    embeddings' rounding fell (fortieth round). On the dev part no answer the move takes
    scores over 61 unmoved, so this changes no dev score."""

    judge_weight: float = 0.5
    """How far the judge (``scoring.judge``) raises a key point's ``match``: by
    ``judge_weight * (p - judge_center)`` when ``p``, the judge's probability that the
    answer states the key point, is above ``judge_center``. 0 turns the judge off (it
    needs ``late_chunking``). The judge's four numbers were fitted on the dev part, each
    question scored by a judge not fitted on it (``bench/scoring.py --judge-folds``;
    ``docs/evaluation.md``, fifth round)."""
    judge_claimed: float = 0.25
    """The share of ``judge_weight`` the judge keeps in an answer that states a
    misconception. The judge reads the whole answer, the misconception's words included,
    so it raised the key points a reversed answer argues against ("Batch norm computes its
    statistics per image ... layer norm is the one that pools over the batch" earned sync
    and frozen batch norm, 70/100). Fitted on the dev part (forty-second round): 0.25
    takes four wrong answers to 30 or under (39 → 11, 36 → 25, 33 → 27, 31 → 15; that
    one 70 → 43) and no strong one under 70; 0.5 takes two; 0 takes nine but five strong
    answers that a misconception was wrongly read in under 70 (80 → 42)."""
    judge_center: float = 0.2
    """The judge's probability above which it raises ``match`` and below which it lowers it."""
    judge_from: float = 0.36
    """``match`` above which the judge may move a key point at all. A key point with no
    valid window (nothing near it, or every near window vetoed: reversed direction, a
    wrong number, a role swap) is never brought back whatever the judge says. 0.36
    (``partial``) was the fourth round's restriction to partly credited key points."""
    judge_lower: float = 0.0
    """How far the judge lowers a key point it says the answer does not state, covered
    ones included: by ``judge_lower * (judge_center - p)`` (0: it never lowers)."""

    model_answer_rows: bool = True
    """Also match the model answer's sentences (and their clauses), each as a paraphrase
    of the key point it is most similar to (``scorer._attach_model_answer``)."""
    model_answer_min_cos: float = 0.6
    """The cosine to its key point a model-answer sentence needs to join it."""

    @classmethod
    def per_window(cls) -> Params:
        """The strategy of encoding each window separately, with its own thresholds."""
        return cls(
            lex_weight=0.35,
            partial=0.5,
            covered=0.66,
            min_margin=0.15,
            misconception=0.64,
            misconception_margin=0.15,
            late_chunking=False,
        )


def credit(match: float, params: Params) -> float:
    """The share of a key point an answer earns: 0 at or below ``partial``, 1 at or
    above ``covered``, in proportion between (near misses earn part of it)."""
    if match >= params.covered:
        return 1.0
    if match <= params.partial:
        return 0.0
    return (match - params.partial) / (params.covered - params.partial)


@dataclass(frozen=True)
class RubricText:
    """One sentence of the rubric with what matching needs to know about it."""

    text: str
    stems: frozenset[str]
    polarity: polarity.Polarity
    numbers: tuple[numbers.NumberMention, ...]
    orders: tuple[sequence.Order, ...] = ()
    """The step orders it states ("split before augmenting")."""
    settings: tuple[phases.Setting, ...] = ()
    """The switches it binds to a phase ("dropout is on during training")."""
    cadences: tuple[cadence.Cadence, ...] = ()
    """How often it has the optimizer step ("only call step after the last one")."""
    trends: tuple[Trend, ...] = ()
    """Which way a thing's noise goes with its size ("small batches are noisier")."""
    outcomes: tuple[outcomes.Outcome, ...] = ()
    """What a test's outcome says of the code ("if it can't overfit one batch, it's a
    bug")."""
    replacements: tuple[replacements.Replacement, ...] = ()
    """What it puts in place of what ("replace batch norm with group norm")."""
    schedules: tuple[schedules.Schedule, ...] = ()
    """Where a schedule it states starts and which way it goes next ("start with a small
    learning rate and raise it")."""
    holdups: tuple[holdups.Holdup, ...] = ()
    """Which thing it says holds the others up and which one waits ("the GPU is waiting
    for work, so the bottleneck is the data pipeline")."""
    compared: frozenset[str] = frozenset()
    """Stems of what it compares ("bf16 is just *faster* to compute": fast;
    ``polarity.compared``)."""
    diagnoses: frozenset[str] = frozenset()
    """The states it says the model is in, outright ("The model is overfitting, so add
    dropout": overfitting; ``statements.diagnoses``)."""
    omitted: tuple[frozenset[str], ...] = ()
    """The stems of each thing it says someone forgot ("You forgot to set the random
    seed": set, random, seed; ``statements.omissions``)."""


@dataclass
class Candidate:
    """The best window found for one rubric item."""

    match: float = -1.0
    cos: float = 0.0
    window: int | None = None
    text_index: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def number_tokens(found: Sequence[numbers.NumberMention]) -> frozenset[str]:
    """Numbers as lexical tokens, so "2,500" and "twenty five hundred" share a word."""
    return frozenset(f"#{m.value:.4g}" for m in found)


def word_stems(
    text: str, ws: list[Span], found: Sequence[numbers.NumberMention]
) -> list[frozenset[str]]:
    """Per word: its content stems; none for a word inside a stated number, which counts
    by its value (``number_tokens``) whether said "one tenth", "1/10" or "0.1"."""
    spans: list[list[int]] = []  # the numbers' spans, overlapping ones merged, in order
    for m in sorted(found, key=lambda m: m.start):
        if spans and m.start < spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], m.end)
        else:
            spans.append([m.start, m.end])
    starts = [a for a, _ in spans]
    out = []
    for w in ws:
        # the last number span that starts before the word ends overlaps it if any does
        k = bisect.bisect_left(starts, w.end) - 1
        inside = k >= 0 and spans[k][1] > w.start
        raw = text[w.start : w.end]
        # a typed call keeps the words it says: "-ln(0.1)" says "minus ln"
        out.append(content_stems(called_words(raw)) if inside else content_stems(raw))
    # "over- or underfitting" says overfitting too
    for k in [k for k, w in enumerate(ws[:-2]) if text[w.end - 1] == "-"]:
        whole = _suspended(text, ws, k)
        if whole is not None:
            out[k] = out[k] | content_stems(whole)
    return out


_JOINING = frozenset(("or", "and", "to", "nor"))
_PREFIXES = (
    "over under pre post non multi single sub super inter intra up down out mis".split()  # noqa: SIM905
)
"""Prefixes a compound that completes a suspended one may open with ("under" of "over- or
underfitting")."""


def _suspended(text: str, ws: list[Span], k: int) -> str | None:
    """The compound word ``k``, a suspended prefix, stands for: "over- or underfitting"
    -> "overfitting", "two- or three-layer" -> "two-layer", "pre- and post-norm" ->
    "pre-norm"; None when word ``k`` is none."""
    first = text[ws[k].start : ws[k].end]
    if not re.fullmatch(r"[A-Za-z]+-", first) or ws[k + 1].norm not in _JOINING:
        return None
    second = re.sub(r"\W+$", "", text[ws[k + 2].start : ws[k + 2].end])
    if "-" in second:
        return first[:-1] + second[second.index("-") :]
    low = second.lower()
    opens = next((p for p in _PREFIXES if low.startswith(p) and len(low) > len(p) + 2), None)
    return None if opens is None else first[:-1] + second[len(opens) :]


_INITIAL_WORDS = (2, 3)
"""Names of two or three words, whose initials a typed answer writes ("BN", "LR")."""


def initialisms(texts: Iterable[str]) -> dict[str, frozenset[str]]:
    """The initialisms of the names ``texts`` say (lower case), each with its words'
    stems: "batch norm" -> "bn", "learning rate" -> "lr". A name is two or three content
    words in a row within a clause; an initialism that two different names share, or
    that spells a function word, stands for none. The rubric's own words, so an imported
    deck (no terms, no paraphrases) still meets "BN: per-channel stats over the batch"
    with "batch norm normalises each channel over the batch"."""
    names: dict[str, set[tuple[str, ...]]] = {}
    for text in texts:
        for clause in re.split(r"[,;:.!?()]", text.lower()):
            toks = [normalise_word(w) for w in clause.split()]
            for n in _INITIAL_WORDS:
                for i in range(len(toks) - n + 1):
                    name = toks[i : i + n]
                    if all(w.isalpha() and w not in STOPWORDS and len(w) > 1 for w in name):
                        names.setdefault("".join(w[0] for w in name), set()).add(
                            tuple(stem(w) for w in name)
                        )
    return {
        initial: frozenset(next(iter(found)))
        for initial, found in names.items()
        if len(found) == 1 and initial not in STOPWORDS
    }


def make_rubric_text(text: str) -> RubricText:
    found = tuple(numbers.find_numbers(text))
    stems = frozenset().union(*word_stems(text, words(text), found))
    return RubricText(
        text=text,
        stems=stems | number_tokens(found),
        polarity=polarity.analyse(text),
        numbers=found,
        orders=sequence.orders(text),
        settings=phases.settings(text),
        cadences=cadence.cadences(text),
        trends=trends.trends(text),
        outcomes=outcomes.outcomes(text),
        replacements=replacements.replacements(text),
        schedules=schedules.schedules(text),
        holdups=holdups.holdups(text),
        compared=polarity.compared(text),
        diagnoses=frozenset(d.state for d in statements.diagnoses(text)),
        omitted=tuple(o.stems for o in statements.omissions(text)),
    )


def lexical(
    rubric_stems: frozenset[str],
    window_stems: frozenset[str],
    term_stems: tuple[frozenset[str], ...] = (),
    weights: Mapping[str, float] | None = None,
) -> float:
    """Share of the rubric sentence's content stems in the window, each stem weighted by
    how specific it is to its item within the rubric (``stem_weights``: "identity" counts
    more than "layer", which every key point says); a key point's term found whole in
    the window counts as strong support."""
    if not rubric_stems:
        return 0.0
    if weights:
        total = sum(weights.get(s, 1.0) for s in rubric_stems)
        share = sum(weights.get(s, 1.0) for s in rubric_stems & window_stems) / total
    else:
        share = len(rubric_stems & window_stems) / len(rubric_stems)
    for term in term_stems:
        if term and term <= window_stems:
            share = max(share, 0.5) + 0.15
    return min(1.0, share)


@dataclass(frozen=True)
class Lexicon:
    """A rubric's sentences as weighted stem vectors, so that ``lexical`` can be computed
    for every sentence and window at once (``lexical_matrix``)."""

    index: dict[str, int]
    """Stem -> column."""
    weights: np.ndarray
    """Rows x stems: a sentence's stem weights (0 where it lacks the stem)."""
    totals: np.ndarray
    """Per row: the sum of its weights."""
    terms: tuple[tuple[tuple[int, ...], ...], ...]
    """Per row: its item's terms, each as the columns of its stems."""

    @classmethod
    def build(
        cls,
        rows: Sequence[frozenset[str]],
        row_terms: Sequence[tuple[frozenset[str], ...]],
        weights: Mapping[str, float],
    ) -> Lexicon:
        index: dict[str, int] = {}
        for stems in (*rows, *(t for terms in row_terms for t in terms)):
            for s in sorted(stems):
                index.setdefault(s, len(index))
        w = np.zeros((len(rows), len(index)), dtype=np.float32)
        for r, stems in enumerate(rows):
            for s in stems:
                w[r, index[s]] = weights.get(s, 1.0)
        terms = tuple(
            tuple(tuple(index[s] for s in sorted(t)) for t in ts if t) for ts in row_terms
        )
        return cls(index, w, w.sum(axis=1), terms)


def lexical_matrix(lexicon: Lexicon, window_stems: Sequence[frozenset[str]]) -> np.ndarray:
    """``lexical`` for every rubric sentence (rows) and window (columns) at once."""
    x = np.zeros((len(window_stems), len(lexicon.index)), dtype=np.float32)
    for j, stems in enumerate(window_stems):
        cols = [lexicon.index[s] for s in stems if s in lexicon.index]
        x[j, cols] = 1.0
    totals = np.where(lexicon.totals > 0, lexicon.totals, 1.0)
    share = np.einsum("rv,jv->rj", lexicon.weights, x) / totals[:, None]
    for r, terms in enumerate(lexicon.terms):
        for term_cols in terms:
            found = x[:, list(term_cols)].min(axis=1) > 0
            if found.any():
                share[r, found] = np.maximum(share[r, found], 0.5) + 0.15
    out: np.ndarray = np.minimum(share, 1.0)
    return out


def stem_weights(items: Iterable[Iterable[frozenset[str]]], power: float) -> dict[str, float]:
    """Per stem: 1 / (number of the rubric's items whose sentences hold it) ** power."""
    df: dict[str, int] = {}
    for sentences in items:
        for s in frozenset().union(*sentences):
            df[s] = df.get(s, 0) + 1
    return {s: 1.0 / n**power for s, n in df.items()}


def numbers_agree(
    rubric_nums: tuple[numbers.NumberMention, ...],
    window_nums: list[numbers.NumberMention],
    require: bool,
) -> bool:
    """Whether the numbers a window states are compatible with the rubric sentence's.

    The rubric sentence's last number is its result ("... so 8 times 4 is 32"). A window
    that states numbers must state that one: the same value at the precision of the less
    precise of the two, and the same unit when both say one; a typed function states
    what it is called on too ("-ln(0.1)" states 0.1). With ``require``
    (misconceptions) the window must state it even if it states no number at all;
    otherwise a window with no numbers is neutral.
    """
    if not rubric_nums:
        return True
    if not window_nums:
        return not require
    r = rubric_nums[-1]
    for w in window_nums:
        stated = (w.value,) if w.argument is None else (w.value, w.argument)
        if not any(numbers.same_number(r.value, v) for v in stated):
            continue
        if r.unit and w.unit and r.unit != w.unit:
            continue
        return True
    return False
