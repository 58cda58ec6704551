"""One answer against one prepared rubric: which stretch of the answer states each key
point, how much of it, and which misconceptions the answer asserts.

A :class:`Matcher` is built per answer from the rubric's prepared texts, the answer's
windows and their embeddings (``Scorer`` computes those, batched over many answers).
For every rubric sentence and window it blends the cosine with lexical support
(``matching.lexical``) into ``match``; a window only counts when its direction,
negation and numbers agree with the sentence (``_valid``). Key points earn credit in
proportion to their best valid ``match`` (``matching.credit``). Misconceptions are
flagged when a window states one clearly and no key point explains the same words
better, or when an answer clause binds a misconception's content to the same entity
(``roles``: the order-aware check that catches role swaps); a misconception the answer
states the other way round (the correct contrast) is not flagged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import NamedTuple

import numpy as np

from sayitout.bank.models import Rubric
from sayitout.scoring import (
    cadence,
    holdups,
    numbers,
    outcomes,
    phases,
    polarity,
    reasons,
    replacements,
    schedules,
    sequence,
    trends,
)
from sayitout.scoring.matching import (
    Candidate,
    Lexicon,
    Params,
    RubricText,
    credit,
    lexical_matrix,
    number_tokens,
    numbers_agree,
    word_stems,
)
from sayitout.scoring.result import KeyPointResult, MisconceptionResult, Status
from sayitout.scoring.roles import NO_BINDING, Binding, Clause, Roles, span_union
from sayitout.scoring.statements import (
    ABSOLUTES,
    Diagnosis,
    Omission,
    Verdict,
    asked_words,
    diagnoses,
    is_keyword_list,
    omissions,
    verdicts,
)
from sayitout.scoring.text import (
    Span,
    Window,
    breaks_sentence,
    call_stems,
    content_stems,
    ends_sentence,
    said_terms,
    tidy_quote,
)
from sayitout.scoring.trends import Trend
from sayitout.speech.transcript import Transcript

#: How many words after a window are searched for a direction word when the window
#: itself states none.
WIDE_AFTER = 12
#: A key point bound this close to a misconception's binding ties with it
#: (``Matcher._states_a_point``).
ROLE_TIE = 0.1


@dataclass(frozen=True)
class Item:
    """One key point or misconception of a prepared rubric."""

    kind: str  # "kp" | "mis"
    index: int
    text_rows: tuple[int, ...]
    """Rows of the prepared rubric's embedding matrix: the text and its paraphrases."""
    term_stems: tuple[frozenset[str], ...]


_STRIP_INITIAL = "\"'()[]{}.,;:!?*"
"""Punctuation around a word written in capitals ("(BN)", "LN:")."""


@dataclass(frozen=True)
class PreparedRubric:
    """A rubric with its sentences embedded and analysed, ready to match answers."""

    rubric: Rubric
    texts: tuple[RubricText, ...]
    emb: np.ndarray
    baseline: np.ndarray
    """Per text row: best cosine to a content-free answer."""
    items: tuple[Item, ...]
    roles: Roles
    clauses: tuple[tuple[Clause, ...], ...]
    """Per text row: its clauses, bound to the rubric's entities (empty without roles)."""
    lexicon: Lexicon
    """The rubric's content stems, weighted, for ``matching.lexical_matrix``."""
    read_back: frozenset[tuple[str, ...]] = frozenset()
    """What a read-back of the question says (``statements.read_back_grams``)."""
    asked_stems: frozenset[str] = frozenset()
    """The content stems of the question (empty without one)."""
    point_states: tuple[np.ndarray, ...] = ()
    """Per key point: the contextual token vectors of its text, what the judge reads
    (empty when the judge is off)."""
    initials: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """The initialisms of the names the rubric says, with their stems
    (``matching.initialisms``)."""


@dataclass(frozen=True)
class AnswerText:
    """An answer as matching sees it: its text, words and windows."""

    text: str
    transcript: Transcript
    numbers: list[numbers.NumberMention]
    """Every number the answer states (``numbers.find_numbers``)."""
    words: list[Span]
    """Its words; the words of one stated number are one word ("one tenth")."""
    windows: list[Window]
    truncated: bool

    @cached_property
    def listed(self) -> bool:
        """The answer only lists terms (``statements.is_keyword_list``); read once, as
        the scorer and the matcher both ask."""
        return is_keyword_list(self.text)

    @cached_property
    def verdicts(self) -> list[Verdict]:
        """The choices the answer makes outright (``statements.verdicts``)."""
        return verdicts(self.text)

    @cached_property
    def diagnoses(self) -> list[Diagnosis]:
        """The states the answer says the model is in (``statements.diagnoses``)."""
        return diagnoses(self.text)

    @cached_property
    def omissions(self) -> list[Omission]:
        """What the answer says someone forgot, outright (``statements.omissions``)."""
        return omissions(self.text)


MatchResult = tuple[list[KeyPointResult], list[MisconceptionResult]]


class Claims(NamedTuple):
    """What the answer states that a bag of words cannot read (``Matcher._said_claims``)."""

    orders: tuple[sequence.Order, ...]
    settings: tuple[phases.Setting, ...]
    cadences: tuple[cadence.Cadence, ...]
    trends: tuple[Trend, ...]
    outcomes: tuple[outcomes.Outcome, ...]
    replacements: tuple[replacements.Replacement, ...]
    schedules: tuple[schedules.Schedule, ...]
    holdups: tuple[holdups.Holdup, ...]


class Matcher:
    """Matches one answer against one prepared rubric (see the module docstring)."""

    def __init__(
        self,
        params: Params,
        prep: PreparedRubric,
        answer: AnswerText,
        win_emb: np.ndarray,
        *,
        number_right: bool = False,
        judge: Callable[[list[int]], np.ndarray] | None = None,
    ) -> None:
        """``number_right``: the answer's final number is the rubric's; a right
        computation does not state a misconception about the computation, however many
        of its quantities it shares. ``judge``: gives, for the key points of the given
        indices, the judge's probability that the answer states each
        (``scoring.judge``); called at most once, for the key points within its reach
        (``Params.judge_from``: by default those the matcher already partly credits);
        None without a judge."""
        self.p = params
        self.number_right = number_right
        self.judge = judge
        self._judged: dict[int, float] = {}
        self._judge_weight = 0.0
        """``Params.judge_weight``, less in an answer that states a misconception."""
        self.listed = answer.listed
        self.prep = prep
        self.answer = answer
        self.wins = answer.windows
        # einsum, not BLAS: for these small matrices OpenBLAS's thread start-up costs
        # 5-15 ms on a loaded 2-core machine, einsum a tenth of a millisecond
        self.sims = np.einsum("ik,jk->ij", prep.emb, win_emb)  # texts x windows
        self._pol: dict[int, polarity.Polarity] = {}
        self._wide: dict[int, polarity.Polarity] = {}
        self._equal: dict[int, frozenset[str]] = {}
        self._same: dict[int, frozenset[str]] = {}
        self._led: dict[int, polarity.Polarity] = {}
        self._whole: polarity.Polarity | None = None
        self._reader: polarity.Reader | None = None
        # an opening is said within the first few words ("um, so, I'd divide it by four")
        self._opening = polarity.opening_pronoun([w.norm for w in answer.words[:12]])
        self._answer_claims: Claims | None = None
        self._why: dict[int, str] = {}
        """Per key point (item index): why it can earn nothing (``reasons``)."""
        self._reversed: set[int] = set()
        """Key points (item indices) the answer states the other way round
        (``_contradiction``): each costs ``Params.reversal_penalty``."""
        # numbers and content words are read once for the whole answer, then shared out
        found = answer.numbers
        # an answer's words count as the terms they stand for too ("smaller steps": the
        # learning rate; ``said_terms``), and words that only name a term count as it alone
        said = word_stems(answer.text, answer.words, found)
        terms = said_terms(answer.text, answer.words)
        per_word = [
            (frozenset() if k in terms.term_only else stems) | plain | self._initialism(w)
            for k, (stems, plain, w) in enumerate(zip(said, terms.stems, answer.words, strict=True))
        ]
        self._answer_stems: frozenset[str] = frozenset().union(*per_word)
        self._denied = polarity.denied_terms([w.norm for w in answer.words], per_word)
        self._nums = [[m for m in found if w.start <= m.start < w.end] for w in self.wins]
        self._stems = [
            frozenset().union(*per_word[w.first : w.last + 1]) | number_tokens(self._nums[j])
            for j, w in enumerate(self.wins)
        ]
        self.kp_items = [i for i in prep.items if i.kind == "kp"]
        self.mis_items = [i for i in prep.items if i.kind == "mis"]
        self.lex = lexical_matrix(prep.lexicon, self._stems)
        calls = [call_stems(w.norm) for w in answer.words]
        if any(calls):
            # a call names a thing to do ("optimizer.step()", "torch.no_grad()"): it says
            # a key point's words, no misconception's ("wrap the loop in torch.no_grad()"
            # is advice, not "you forgot no grad"), so misconceptions keep the plain reading
            plain = self.lex
            self.lex = lexical_matrix(
                prep.lexicon,
                [
                    s | frozenset().union(*calls[w.first : w.last + 1])
                    for s, w in zip(self._stems, self.wins, strict=True)
                ],
            )
            mis_rows = [r for item in self.mis_items for r in item.text_rows]
            self.lex[mis_rows] = plain[mis_rows]
        self.match_matrix = (1 - params.lex_weight) * self.sims + params.lex_weight * self.lex
        self._clauses: list[Clause] | None = None
        self._swaps: dict[tuple[int, int], bool] = {}
        self._swapped: set[int] = set()
        """Key points whose closest windows said their content of the other entity: in an
        answer that states a misconception, the judge, which reads the whole answer,
        raises none of them."""
        asked = asked_words(answer.text, answer.words, prep.read_back, found, prep.asked_stems)
        said_back = _said_back(said, prep)
        self._asked = [
            said_back
            or sum(asked[w.first : w.last + 1]) * 2 > w.last - w.first + 1
            or _only_asked(said[w.first : w.last + 1], prep.asked_stems)
            for w in self.wins
        ]
        if judge is not None and sum(asked) * 2 > len(asked):
            # mostly the question read back: the judge reads the question's own words as
            # an answer (its key points are about them), so its reading is not evidence
            self.judge = None

    def _initialism(self, word: Span) -> frozenset[str]:
        """The stems of the rubric's name a word written in capitals abbreviates ("BN"
        for "batch norm"), or none."""
        raw = self.answer.text[word.start : word.end].strip(_STRIP_INITIAL)
        if 2 <= len(raw) <= 3 and raw.isalpha() and raw.isupper():
            return self.prep.initials.get(raw.lower(), frozenset())
        return frozenset()

    # ---- what a window says --------------------------------------------------
    def _around(self, j: int, after: int, before: int = 3) -> polarity.Polarity:
        """The polarity of window ``j`` with up to ``before`` words before it in its
        sentence ("without enough push. Raise the learning rate" does not negate the raise)
        and ``after`` after."""
        ws, w = self.answer.words, self.wins[j]
        start = ws[self._reach_back(j, before)].start
        end = ws[min(len(ws) - 1, w.last + after)].end
        if self._reader is None:
            self._reader = polarity.Reader(self.answer.text, plain_words=True)
        return self._reader.analyse(start, end)

    def _reach_back(self, j: int, before: int) -> int:
        """The first word of window ``j`` with up to ``before`` words before it, within
        its sentence."""
        ws, w = self.answer.words, self.wins[j]
        text = self.answer.text
        first = w.first
        while first > max(0, w.first - before) and not ends_sentence(
            text[ws[first - 1].start : ws[first - 1].end]
        ):
            first -= 1
        return first

    def window_polarity(self, j: int) -> polarity.Polarity:
        """Direction and negation of window ``j``, with three words either side (a
        negation just outside the window still counts)."""
        if j not in self._pol:
            self._pol[j] = self._around(j, 3)
        return self._pol[j]

    def _equatives(self, j: int) -> frozenset[str]:
        """What window ``j`` says is "as X as" something (``polarity.equatives``), read
        once a window."""
        if j not in self._equal:
            self._equal[j] = polarity.equatives(self.wins[j].text)
        return self._equal[j]

    def _unchanged(self, j: int) -> frozenset[str]:
        """What window ``j`` says stays as it is (``polarity.unchanged``), read once a
        window."""
        if j not in self._same:
            self._same[j] = polarity.unchanged(self.wins[j].text)
        return self._same[j]

    def wide_polarity(self, j: int) -> polarity.Polarity:
        """Direction words further out: "the first thing I change is the learning rate.
        After a while I would lower it" states its direction after the window."""
        if j not in self._wide:
            self._wide[j] = self._around(j, WIDE_AFTER)
        return self._wide[j]

    def led_polarity(self, j: int) -> polarity.Polarity:
        """Window ``j`` from the start of its sentence: what the sentence acts on before
        the window ("Raise Adam's β2 toward 0.9999 | so the second moment reacts
        faster")."""
        if j not in self._led:
            whole = len(self.answer.words)
            same = self._reach_back(j, whole) == self._reach_back(j, 3)
            # a window within three words of its sentence's start reads as it did
            self._led[j] = self.window_polarity(j) if same else self._around(j, 3, whole)
        return self._led[j]

    def clauses(self) -> list[Clause]:
        if self._clauses is None:
            self._clauses = self.prep.roles.clauses(self.answer.text)
        return self._clauses

    def _valid(self, rt: RubricText, j: int, is_mis: bool) -> bool:
        if self._asked[j]:
            return False  # the question read back states nothing
        narrow = self.window_polarity(j)  # the window's words (``wide_polarity``: and more)
        pol = narrow
        if rt.polarity.mentions and not pol.mentions:
            pol = self.wide_polarity(j)
            # a misconception about a direction needs the direction stated
            if is_mis and not pol.mentions:
                return False
        if is_mis and rt.polarity.mentions and not polarity.about_the_same(rt.polarity, pol):
            return False  # ... about its thing
        if polarity.direction_conflict(rt.polarity, pol):
            return False
        if (
            is_mis
            and polarity.negation_differs(rt.polarity, narrow)
            # a negation of other words, within one sentence, leaves the claim standing
            and not (
                polarity.negates_other_words(narrow, rt.stems)
                and not breaks_sentence(self.wins[j].text)
            )
        ):
            return False
        if polarity.negates(rt.polarity, rt.stems, narrow):
            return False
        if is_mis and rt.compared and polarity.equates(rt.compared, self._equatives(j)):
            return False  # "runs bf16 as fast as fp16" against "bf16 is faster"
        if rt.compared and polarity.equates(rt.compared, self._unchanged(j)):
            return False  # "generalisation is identical" against "generalise a little worse"
        if polarity.turns_contrast(rt.polarity, rt.stems, narrow, self._stems[j]):
            return False  # "a generalisation problem, not an optimisation one"
        return numbers_agree(rt.numbers, self._nums[j], require=is_mis)

    # ---- the best window for an item -----------------------------------------
    def best(self, item: Item, is_mis: bool, exclude: frozenset[int] = frozenset()) -> Candidate:
        """The item's best valid window; among windows within 0.02 of the best, the
        shortest (a tighter quote for the same credit)."""
        p = self.p
        own_text = self.prep.texts[item.text_rows[0]]  # the item's text, then its paraphrases
        blocked = self._blocked(item)
        if blocked is not None:
            if not is_mis:
                self._why[item.index], reversed_ = blocked
                if reversed_:
                    self._reversed.add(item.index)
            # "that's underfitting", and no "overfitting" anywhere; "augment before you
            # split", and never the other way
            return Candidate()
        margin = p.misconception_margin if is_mis else p.min_margin
        scored = []
        for row in item.text_rows:
            floor = self.prep.baseline[row] + margin
            directed = not is_mis and bool(self.prep.texts[row].polarity.mentions)
            sims, matches = self.sims[row], self.match_matrix[row]
            near = sims >= floor
            if not is_mis and len(self.prep.texts[row].stems) >= 2:
                # every word of a rubric sentence, said: evidence however far the window's
                # pooled vector drifts ("smaller model," deep in a typed list of fixes)
                near |= self.lex[row] >= p.lexical_pass
                # most of its words, said: evidence at the off-topic baseline ("take
                # smaller steps" for "try a smaller learning rate")
                near |= (self.lex[row] >= p.lexical_near) & (
                    sims >= self.prep.baseline[row] + p.lexical_near_margin
                )
            for j in np.flatnonzero(near).tolist():
                if j in exclude:
                    continue
                match = float(matches[j])
                if directed and not self.wide_polarity(j).mentions:
                    # "the learning rate matters" names "lower the learning rate"'s
                    # topic without its direction: part of the key point at most
                    match -= p.undirected_penalty
                scored.append((match, float(sims[j]), row, j))
        scored.sort(key=lambda s: (-s[0], s[2], s[3]))
        cand = Candidate()
        for match, cos, row, j in scored:
            if cand.window is not None and match < cand.match - 0.02:
                break
            if not self._valid(self.prep.texts[row], j, is_mis):
                continue
            if not is_mis and row != item.text_rows[0] and self._reverses(own_text, j):
                self._refused(item, match, j, reasons.reversed_words)
                continue
            if not is_mis and self._removes_terms(item, own_text, j):
                self._refused(item, match, j, reasons.removed_words)
                continue
            if not is_mis and polarity.widens(own_text.polarity, self.window_polarity(j)):
                self._refused(item, match, j, reasons.widened_words)
                continue
            if not is_mis and self._swapped_at(item, j):
                if credit(match, p) > 0:
                    self._swapped.add(item.index)
                continue
            if cand.window is None:
                cand = Candidate(match, cos, j, row)
            elif _length(self.wins[j]) < _length(self.wins[cand.window]):
                cand = Candidate(cand.match, cand.cos, j, row)
        return cand

    def _refused(self, item: Item, match: float, j: int, why: Callable[[str], str]) -> None:
        """Keep why the closest window the answer said the item in was refused, when it
        would have earned credit: the card says so if the key point earns nothing."""
        if item.index not in self._why and credit(match, self.p) > 0:
            self._why[item.index] = why(self.quote(j).text)

    def _removes_terms(self, item: Item, own: RubricText, j: int) -> bool:
        """Whether window ``j`` says to do without one of the item's terms that its own
        text does not negate ("take gradient clipping off" against "clip the gradient
        norm ... so one bad batch cannot produce a huge update": the text's "cannot" keeps
        ``_valid`` from reading negations against it, but it never negates clipping).
        Only removals count: "it won't fit in memory" states the memory limit."""
        if not item.term_stems:
            return False
        terms = frozenset().union(*item.term_stems) - own.polarity.negated_stems
        return bool(self.window_polarity(j).removed_stems & terms)

    def _reverses(self, own: RubricText, j: int) -> bool:
        """Whether window ``j`` states the other direction of the item's own text. A
        paraphrase that says no direction ("scale the learning rate along with the batch
        size") is still about the item's ("raise the learning rate"): "it needs a smaller
        learning rate" is no evidence for it."""
        if not own.polarity.mentions:
            return False
        pol = self.window_polarity(j)
        if pol.mentions and polarity.reverses_object(own.polarity, pol, self._opens(j, 3)):
            return True
        # a paraphrase or a piece of the text ("so the second-moment estimate reacts
        # faster") matched after the act its sentence reverses ("Raise Adam's β2, so ...")
        led = self.led_polarity(j)
        return len(led.mentions) > len(pol.mentions) and polarity.reverses_object(
            own.polarity, led, self._opens(j, len(self.answer.words))
        )

    def _opens(self, j: int, before: int) -> bool:
        """Whether window ``j``, read with up to ``before`` words before it in its
        sentence, holds the answer's opening pronoun and the word that acts on it
        ("Divide it by four": ``polarity.opening_pronoun``)."""
        return self._opening is not None and self._reach_back(j, before) < self._opening

    def _blocked(self, item: Item) -> tuple[str, bool] | None:
        """Why no window of the answer can be the item's evidence, if none can, and
        whether that is because the answer says it the other way round: it names the
        opposite of the item's term and never the term ("that's underfitting"), or it
        states one of the item's sentences the other way round (``_contradiction``)."""
        own_text = self.prep.texts[item.text_rows[0]]
        opposite = polarity.opposite_named(own_text.stems, self._answer_stems, self._denied)
        if opposite is not None:
            return reasons.opposite_term(*opposite), False
        why = self._contradiction(item)
        return None if why is None else (why, True)

    def _contradiction(self, item: Item) -> str | None:
        """Why the answer states one of the item's sentences the other way round and
        never its way: the steps in the other order ("augment before you split" against
        "split by original image before augmenting", ``sequence``), a switch the other
        way in a phase ("dropout is active during evaluation" against "off during
        validation", ``phases``) or the optimizer step at the other cadence ("call step
        after each micro-batch" against "only call step after the last one",
        ``cadence``), a thing's noise going the other way with its size ("huge batches
        give a noisier gradient" against "small batches are noisier", ``trends``) or a
        test's outcome read backwards ("if it memorises the batch, the pipeline is
        broken" against "if it can't overfit one batch, it's a bug", ``outcomes``) or a
        replacement the other way round ("switch the group norm layers to batch norm"
        against "replace batch norm with group norm", ``replacements``) or the hold-up
        and the thing held up turned round ("the GPU is the bottleneck and the data
        loader waits on it" against "the GPU is waiting for work, so the bottleneck is
        the data pipeline", ``holdups``). Then
        no sentence of the item has evidence, not even one that says
        neither ("do a group split"). Returns the reason, for the candidate; None when
        the answer does not contradict the item."""
        texts = [self.prep.texts[row] for row in item.text_rows]
        steps = tuple(o for t in texts for o in t.orders)
        switches = self._switches(item)
        paces = self._paces(item)
        # a model-answer sentence often bundles two points ("very large batches need a
        # higher learning rate, and they may generalise a little worse"): only the item's
        # own text and paraphrases say which way its size trends go
        authored = texts[: self._authored(item)]
        goes = tuple(g for t in authored for g in t.trends)
        ends = tuple(o for t in authored for o in t.outcomes)
        swaps = tuple(r for t in authored for r in t.replacements)
        plans = self._schedules(item)
        holds = tuple(h for t in authored for h in t.holdups)
        if not (steps or switches or paces or goes or ends or swaps or plans or holds):
            return None
        said = self._said_claims()
        if sequence.reversed_order(steps, said.orders):
            return reasons.ORDER
        switch = phases.contradiction(switches, said.settings)
        if switch is not None:
            return reasons.switch(switch)
        pace = cadence.contradiction(paces, said.cadences)
        if pace is not None:
            return reasons.cadence(pace)
        goes_other = trends.contradiction(goes, said.trends)
        if goes_other is not None:
            return reasons.trend(goes_other)
        backwards = outcomes.contradiction(ends, said.outcomes)
        if backwards is not None:
            return reasons.outcome(backwards)
        turned = replacements.contradiction(swaps, said.replacements)
        if turned is not None:
            return reasons.replacement(turned)
        plan = schedules.contradiction(plans, said.schedules)
        if plan is not None:
            return reasons.schedule(plan)
        held = holdups.contradiction(holds, said.holdups)
        if held is not None:
            return reasons.holdup(held)
        return None

    def _authored(self, item: Item) -> int:
        """How many of the item's rows are its rubric text and paraphrases (the rest are
        model-answer sentences the scorer attached to it)."""
        rubric = self.prep.rubric
        point = rubric.key_points[item.index] if item.kind == "kp" else None
        said = point if point is not None else rubric.misconceptions[item.index]
        return 1 + len(said.paraphrases)

    def _schedules(self, item: Item) -> tuple[schedules.Schedule, ...]:
        """The schedules the item's own text and paraphrases state (``schedules``)."""
        rows = item.text_rows[: self._authored(item)]
        return tuple(p for r in rows for p in self.prep.texts[r].schedules)

    def _said_claims(self) -> Claims:
        """The steps in order, the switches in a phase, the cadences, the trends, the
        test outcomes, the replacements, the schedules and the hold-ups the answer
        states."""
        if self._answer_claims is None:
            text = self.answer.text
            self._answer_claims = Claims(
                sequence.orders(text),
                phases.settings(text),
                cadence.cadences(text),
                trends.trends(text),
                outcomes.outcomes(text),
                replacements.replacements(text),
                schedules.schedules(text),
                holdups.holdups(text),
            )
        return self._answer_claims

    def _sets_as(self, item: Item) -> bool:
        """Whether the answer switches something on or off in a phase or a mode as one of
        the item's sentences does, and never the other way ("in eval mode PyTorch keeps
        dropout on" against "eval mode turns dropout on": ``phases``), or does one of its
        actions at its cadence and never at the other ("one big backward pass over all
        the kept activations" against "run a single backward pass over them at the end":
        ``cadence``). A cadence a key point of the rubric states too tells nothing apart
        ("keep micro-batches of 32 and only update every eight of them" steps once, as
        the right answer does: its fault is the micro-batch's size)."""
        switches = self._switches(item)
        paces = self._paces(item)
        if item.kind != "kp":
            paces = tuple(p for p in paces if p not in self._key_point_paces)
        if not switches and not paces:
            return False
        said = self._said_claims()
        return phases.agrees(switches, said.settings) or cadence.agrees(paces, said.cadences)

    def _switched_against(self, item: Item) -> bool:
        """Whether the answer switches something in a phase or a mode the other way round
        from the item's sentences, and never their way ("Put the model in eval mode.
        Otherwise dropout stays active" against "eval mode turns dropout on")."""
        switches = self._switches(item)
        return bool(switches) and phases.contradicts(switches, self._said_claims().settings)

    def _switches(self, item: Item) -> tuple[phases.Setting, ...]:
        """The switches in a phase or a mode that the item's sentences state."""
        return tuple(s for row in item.text_rows for s in self.prep.texts[row].settings)

    @cached_property
    def _key_point_paces(self) -> frozenset[cadence.Cadence]:
        """The cadences the rubric's key points state: the right answer's own, read once
        for all the misconceptions ``_sets_as`` checks."""
        return frozenset(p for kp in self.kp_items for p in self._paces(kp))

    def _paces(self, item: Item) -> tuple[cadence.Cadence, ...]:
        """The actions at a cadence that the item's sentences state."""
        return tuple(c for row in item.text_rows for c in self.prep.texts[row].cadences)

    def _directed_as(self, item: Item) -> bool:
        """Whether the whole answer goes the item's one way about the thing its text names
        ("I'd raise the learning rate" for "increase the learning rate so training gets
        out of the bad region") and never the other, or states its schedule and never the
        other way round ("starts with a large learning rate ..., then lowers it" for
        "warmup means starting with a high learning rate and lowering it";
        ``schedules``)."""
        plans = self._schedules(item)
        if plans:
            return schedules.states(plans, self._said_claims().schedules)
        own = self.prep.texts[item.text_rows[0]].polarity
        if not own.mentions:
            return False
        if self._whole is None:
            if self._reader is None:
                self._reader = polarity.Reader(self.answer.text, plain_words=True)
            self._whole = self._reader.analyse(0, len(self.answer.text))
        return polarity.states_direction(own, self._whole)

    def _picked(self, item: Item) -> Verdict | None:
        """The answer's verdict (``statements.verdicts``: "Batch norm, always.") whose
        words one of the item's texts says hold always ("Batch norm is always better, so
        use it everywhere"), if it gives one."""
        texts = [self.prep.texts[r].stems for r in item.text_rows]
        return next(
            (v for v in self.answer.verdicts for t in texts if t & ABSOLUTES and v.stems <= t),
            None,
        )

    def _diagnosed(self, item: Item) -> Diagnosis | None:
        """The answer's diagnosis (``statements.diagnoses``: "it's overfitting") that the
        item's own text or a paraphrase of it makes ("The model is overfitting, so add
        dropout"), if it gives one."""
        if not self.answer.diagnoses:
            return None
        rows = item.text_rows[: self._authored(item)]
        made = frozenset().union(*(self.prep.texts[r].diagnoses for r in rows))
        return next((d for d in self.answer.diagnoses if d.state in made), None)

    def _omitted(self, item: Item) -> Omission | None:
        """The answer's omission (``statements.omissions``: "You forgot torch.no_grad().")
        that names what the item's own text or a paraphrase of it says was forgotten
        ("You forgot to wrap evaluation in torch no grad"): two of its stems or more,
        and at least half of the item's."""
        if not self.answer.omissions:
            return None
        rows = item.text_rows[: self._authored(item)]
        said = [o for r in rows for o in self.prep.texts[r].omitted]
        return next(
            (
                o
                for o in self.answer.omissions
                for forgot in said
                if len(o.stems & forgot) >= 2 and 2 * len(o.stems & forgot) >= len(forgot)
            ),
            None,
        )

    def _swapped_at(self, item: Item, j: int) -> bool:
        """Whether window ``j`` states the item's content about the other entity (a role
        swap: "batch norm works per example" against "layer norm works per sample") and
        binds none of it to the item's own entity. The answer clauses that overlap the
        window are read whole: a window often starts inside the clause that names the
        entity."""
        if not self.prep.roles:
            return False
        key = (item.index, j)
        if key not in self._swaps:
            w = self.wins[j]
            here = [c for c in self.clauses() if c.start < w.end and c.end > w.start]
            swapped = False
            for row in item.text_rows:
                b = self.prep.roles.bind(self.prep.clauses[row], here)
                if b.bound > 0:
                    swapped = False
                    break
                swapped = swapped or b.swapped_alone
            self._swaps[key] = swapped
        return self._swaps[key]

    def _role_binding(self, item: Item) -> Binding:
        """The best binding of the item's sentences to the answer's clauses, and whether
        the answer states one of them the other way round. A sentence whose two sides the
        answer both binds, each to its own entity, is bound in full: half the words of
        each half of a contrast, each said of the right thing, is the contrast stated."""
        if not self.prep.roles:
            return NO_BINDING
        best, swapped = NO_BINDING, False
        reach: tuple[int, int] | None = None
        for row in item.text_rows:
            b = self.prep.roles.bind(self.prep.clauses[row], self.clauses())
            swapped = swapped or b.swapped
            if b.sides >= 2:
                b = replace(b, bound=max(b.bound, self.p.role_bound))
            if b.bound > best.bound:
                best = b
            if b.reach is not None:
                # each half of a swap bound by its own sentence ("batch norm normalises
                # each image over its own channels. ... layer norm, which computes its
                # statistics across the whole batch"): the misconception reaches both
                reach = span_union(reach, b.reach)
        return replace(best, swapped=swapped, reach=reach or best.reach)

    def _states_a_point(self, span: tuple[int, int], bound: float, shared: int) -> bool:
        """Whether the answer clause at ``span`` binds some key point's clause about the
        same entity nearly as well as it binds the misconception (``bound``): "batch norm
        normalises each feature using the statistics across the batch" shares most of its
        words with "batch norm normalises across the features of each example" and with
        "batch norm computes statistics across the batch"; a bag of words cannot tell
        which it says, so the role check does not flag it (the embedding check still
        may). A key point bound on one word, where the misconception is bound on
        ``shared`` words or more, is no rival: "switch to group norm, which pools
        statistics across the batch" says more than "switch to group norm"."""
        here = [c for c in self.clauses() if (c.start, c.end) == span]
        for item in self.kp_items:
            for row in item.text_rows:
                b = self.prep.roles.bind(self.prep.clauses[row], here)
                if b.bound >= bound - ROLE_TIE and b.shared >= min(shared, 2):
                    return True
        return False

    def _window_for(self, span: tuple[int, int]) -> int | None:
        """The shortest window that holds most of the character span."""
        best, key = None, None
        for j, w in enumerate(self.wins):
            inside = min(w.end, span[1]) - max(w.start, span[0])
            if inside <= 0:
                continue
            k = (-inside, _length(w))
            if key is None or k < key:
                best, key = j, k
        return best

    def misconception(self, item: Item) -> tuple[Candidate, Window] | None:
        """The item's evidence when the answer asserts it, else None (never when it
        switches something the other way round, ``_switched_against``, and, for a
        misconception that switches a thing in a phase, only when the answer switches it
        that way, ``_sets_as``). The evidence is marked ``asserted`` when the answer's
        structure states the claim itself, not only words near it: both halves of a
        contrast each said of its own entity, a clause bound on three of its rubric
        clause's content words or more, or a switch in a phase said the misconception's
        way, or the embeddings read it at ``Params.asserted_read`` or closer. A verdict
        that picks what the item says always holds ("Batch norm, always.", ``_picked``)
        states it too, quoted from the verdict, and so does a diagnosis the item makes,
        said outright ("A flat loss at 2.30 means it's overfitting", ``_diagnosed``), or
        the cause it names as forgotten ("You forgot torch.no_grad().", ``_omitted``):
        asserted, quoted from the diagnosis or the omission."""
        if self.number_right and any(self.prep.texts[r].numbers for r in item.text_rows):
            return None
        if self._switched_against(item):
            return None
        b = self._role_binding(item)
        bound, span = b.bound, b.evidence
        switched = self._sets_as(item)
        if not switched and any(s.about != phases.WANTED_MODE for s in self._switches(item)):
            # a misconception that switches something in a phase is stated only by a switch
            # said its way: the embeddings cannot tell the two ways apart ("In eval mode
            # dropout does nothing" reads 0.69 against "eval mode turns dropout on")
            return None
        ambiguous = span is not None and self._states_a_point(span, bound, b.shared)
        c: Candidate | None = None
        if ambiguous and bound >= self.p.role_bound and b.shared >= 3 and not b.swapped:
            # the clause binds a key point about as well, but on three words or more, and
            # the embeddings read the misconception in the answer too: the bound clause
            # is its statement
            c = self.best(item, True)
            ambiguous = c.window is None or c.match < self.p.misconception
        if bound >= self.p.role_bound and span is not None and not ambiguous:
            j = self._window_for(span)
            own = self.prep.texts[item.text_rows[0]].polarity
            if j is not None and polarity.reverses_object(own, self.window_polarity(j)):
                j = None  # bound on its words, said the other way: "fp16 = narrow range"
            if j is not None:
                asserted = switched or b.sides >= 2 or b.shared >= 3
                extra = {"roles": True, "reach": b.reach, "asserted": asserted}
                return Candidate(1.0, bound, j, None, extra), self._quote_span(span)
        verdict = self._picked(item)
        if verdict is not None and (j := self._window_for(verdict.span)) is not None:
            # "Batch norm, always.": stated outright, whatever key point the window reads
            cos = float(self.sims[item.text_rows[0]][j])
            extra = {"picked": True}
            start, end = verdict.span  # quoted with the mark that closes it: "always."
            return Candidate(1.0, cos, j, None, extra), self._quote_span((start, end + 1))
        outright = self._diagnosed(item) or self._omitted(item)
        if outright is not None and (j := self._window_for(outright.span)) is not None:
            # "A flat loss at 2.30 means it's overfitting", "You forgot torch.no_grad().":
            # the misconception's diagnosis or cause, stated outright
            cos = float(self.sims[item.text_rows[0]][j])
            extra = {"asserted": True}
            return Candidate(1.0, cos, j, None, extra), self._quote_span(outright.span)
        c = c or self.best(item, True)
        if c.window is not None and switched:
            extra = {"asserted": True}
            return Candidate(1.0, c.cos, c.window, c.text_index, extra), self.quote(c.window)
        if c.window is None:
            return None
        if c.match < self.p.misconception and not (
            c.match >= self.p.directed_misconception and self._directed_as(item)
        ):
            return None
        if b.swapped and (bound < self.p.role_bound or ambiguous):
            return None  # the answer states the correct contrast, the other way round
        quote = self.quote(c.window)
        if c.cos >= self.p.asserted_read:  # read so close it is stated outright
            c = replace(c, extra={**c.extra, "asserted": True})
        return c, quote

    # ---- quotes --------------------------------------------------------------
    def quote(self, j: int) -> Window:
        w = self.wins[j]
        return tidy_quote(self.answer.text, self.answer.words, w.first, w.last)

    def _quote_span(self, span: tuple[int, int]) -> Window:
        ws = self.answer.words
        idx = [k for k, w in enumerate(ws) if w.start >= span[0] and w.end <= span[1]]
        return tidy_quote(self.answer.text, self.answer.words, idx[0], idx[-1])

    # ---- the whole answer ----------------------------------------------------
    def _kp_beats(self, m: Candidate, k: Candidate, by: float) -> bool:
        """Whether a key point's best window ``k`` explains misconception candidate
        ``m``'s words at least ``by`` better than the misconception does."""
        if k.window is None or m.window is None or not _overlap(self.wins, k.window, m.window):
            return False
        return k.match >= m.match + by

    def match(self) -> MatchResult:
        rubric = self.prep.rubric
        kp_best = [self.best(item, False) for item in self.kp_items]
        mis_results = []
        claimed: list[Candidate] = []
        claimed_items: list[Item] = []
        # a list of terms asserts nothing, so it states no misconception ("Eval mode,
        # dropout, batch norm." is no claim that eval mode turns dropout on)
        for item in () if self.listed else self.mis_items:
            found = self.misconception(item)
            if found is None:
                continue
            c, w = found
            # The same words explain a key point better: topical overlap, not a misconception;
            # but not a key point the misconception says the other way round when the
            # answer goes the misconception's way ("Divide it by four. A batch of 1,024
            # gives a gradient that's four times larger, so ... you shrink the learning
            # rate" reads like "the batch is four times larger, so raise the learning rate
            # four times")
            if not c.extra.get("picked") and any(
                self._kp_beats(c, k, 0.03)
                and not (self._argued_against(kp, item) and self._directed_as(item))
                for kp, k in zip(self.kp_items, kp_best, strict=True)
            ):
                continue
            claimed.append(c)
            claimed_items.append(item)
            mis = rubric.misconceptions[item.index]
            mis_results.append(
                MisconceptionResult(
                    id=mis.id,
                    text=mis.text,
                    correction=mis.correction,
                    similarity=round(c.cos, 4),
                    evidence=w.text,
                    evidence_span=(w.start, w.end),
                    penalty=mis.penalty
                    * (self.p.asserted_penalty if c.extra.get("asserted") else 1),
                )
            )
        if self.p.misconception_claims and claimed:
            # Words that state a misconception better than they state a key point earn
            # that key point nothing ("LayerNorm uses the batch statistics, BatchNorm works
            # per example" is the swap, not the key point about batch statistics).
            for n, item in enumerate(self.kp_items):
                exclude: set[int] = set()
                c = kp_best[n]
                while c.window is not None:
                    taken = next(
                        (
                            k
                            for k, m in enumerate(claimed)
                            if m.window is not None
                            and not self._kp_beats(m, c, 1e-9)
                            and self._claims(m, c.window)
                        ),
                        None,
                    )
                    if taken is None:
                        break
                    exclude.add(c.window)
                    if credit(c.match, self.p) > 0:
                        self._why[item.index] = reasons.misconception(mis_results[taken].text)
                    c = self.best(item, False, frozenset(exclude))
                kp_best[n] = c
            # An answer that states a misconception argues for it in the key points' words
            # ("divide the learning rate by four: a batch four times bigger already takes
            # four-times-bigger steps"): a key point the misconception says the other way
            # round ("raise the learning rate four times") earns nothing in it.
            for n, item in enumerate(self.kp_items):
                argued = next((m for m in claimed_items if self._argued_against(item, m)), None)
                if kp_best[n].window is not None and argued is not None:
                    if credit(kp_best[n].match, self.p) > 0:
                        mis = rubric.misconceptions[argued.index]
                        self._why[item.index] = reasons.misconception(mis.text)
                    kp_best[n] = Candidate()
        if self.judge is not None:
            # the judge reads every key point within its reach at once, and only those
            reach = [
                i.index for i, c in zip(self.kp_items, kp_best, strict=True) if self._judged_at(c)
            ]
            if reach:
                self._judged = dict(zip(reach, self.judge(reach).tolist(), strict=True))
            # an answer that states a misconception argues in the key points' words
            self._judge_weight = self.p.judge_weight * (self.p.judge_claimed if claimed else 1)
            if not claimed:
                self._swapped.clear()
        kp_results = [
            self._key_point_result(item, c) for item, c in zip(self.kp_items, kp_best, strict=True)
        ]
        return kp_results, mis_results

    def _argued_against(self, point: Item, mis: Item) -> bool:
        """Whether misconception ``mis``'s text says key point ``point``'s the other way
        round ("lower the learning rate" against "raise the learning rate four times")."""
        return polarity.reverses_object(
            self.prep.texts[point.text_rows[0]].polarity, self.prep.texts[mis.text_rows[0]].polarity
        )

    def _claims(self, m: Candidate, j: int) -> bool:
        """Whether misconception evidence ``m`` covers window ``j``: its window overlaps
        it, or, for a contrast stated both ways round, any of its bound clauses does."""
        assert m.window is not None
        if _overlap(self.wins, m.window, j):
            return True
        reach = m.extra.get("reach")
        w = self.wins[j]
        return reach is not None and w.start < reach[1] and reach[0] < w.end

    def _judged_at(self, c: Candidate) -> bool:
        """Whether the judge reads a key point whose best window is ``c``."""
        if c.window is None:
            return False
        match = max(0.0, c.match)
        return self.p.judge_from < match and (match < self.p.covered or self.p.judge_lower > 0)

    def _key_point_result(self, item: Item, c: Candidate) -> KeyPointResult:
        kp = self.prep.rubric.key_points[item.index]
        p = self.p
        match = max(0.0, c.match) if c.window is not None else 0.0
        if item.index in self._judged:
            # the judge read the key point against the whole answer; it never brings back
            # a vetoed window (reversed direction, a wrong number, a role swap)
            said = self._judged[item.index]
            if said >= p.judge_center and item.index not in self._swapped:
                match += self._judge_weight * (said - p.judge_center)
            else:
                match -= p.judge_lower * (p.judge_center - said)
            match = max(0.0, match)
        earned = round(credit(match, self.p), 4)
        if self.listed:
            earned = min(earned, self.p.list_credit)
        status: Status = "covered" if earned >= 1.0 else "partial" if earned > 0 else "missed"
        # why it earned nothing, when a reader took away what the words came close to
        reason = self._why.get(item.index) if earned == 0 else None
        reversed_ = reason is not None and item.index in self._reversed
        w = (
            self.quote(self._evidence_window(item, c.window))
            if c.window is not None and earned > 0
            else None
        )
        return KeyPointResult(
            id=kp.id,
            text=kp.text,
            weight=kp.weight,
            status=status,
            similarity=round(min(1.0, match), 4),
            evidence=w.text if w else None,
            evidence_span=(w.start, w.end) if w else None,
            credit=earned,
            reason=reason,
            penalty=p.reversal_penalty if reversed_ else 0.0,
        )

    def _evidence_window(self, item: Item, j: int) -> int:
        """The window the card quotes for a key point whose best window is ``j``: ``j``,
        unless the key point is about one entity and ``j`` reaches into a clause about
        another one. Then the closest window within clauses about the key point's own
        entity, or failing one, that overlaps one, if any: credited "Batch norm normalises
        using the mean and variance of the batch", the card should not quote "Layer norm
        rescales each example using only its own values", nor "it needs stored averages
        once the model is in use. Layer norm rescales". Only the quote changes, not the
        credit."""
        if not self.prep.roles:
            return j
        own = {c.entity for c in self.prep.clauses[item.text_rows[0]] if c.entity}
        if len(own) != 1:
            return j
        clauses = self.clauses()

        def about(k: int) -> set[str | None]:
            w = self.wins[k]
            return {c.entity for c in clauses if c.start < w.end and c.end > w.start}

        if not about(j) - own - {None}:
            return j
        rows = self.match_matrix[list(item.text_rows)]
        best, key = j, (False, -1.0)
        for k in range(len(self.wins)):
            here = about(k)
            # a window within the entity's own clauses first, then one that reaches them
            k_key = (here <= own, float(rows[:, k].max()))
            if here & own and k_key > key:
                best, key = k, k_key
        return best


def _length(w: Window) -> int:
    return w.last - w.first


def _overlap(wins: list[Window], a: int, b: int) -> bool:
    wa, wb = wins[a], wins[b]
    return not (wa.last < wb.first or wb.last < wa.first)


def _said_back(said: list[frozenset[str]], prep: PreparedRubric) -> bool:
    """An answer to an open question that says eight content words or more, all but two
    at most the question's own ("You're training a segmentation model with batch norm,
    memory only lets you fit two images per GPU, and the results are poor and noisy"):
    the question said back in other words, which states nothing. Numbers are no content
    words, so numeric questions are left out ("14 GB. Each parameter takes two bytes in
    bf16, times seven billion" says only the question's words and the answer)."""
    if prep.rubric.numeric is not None or not prep.asked_stems:
        return False
    stems = frozenset().union(*said)
    return len(stems) >= 8 and len(stems - prep.asked_stems - _RETELLING) <= 2


_RETELLING = frozenset(content_stems("goes went down after"))
"""Words a situation is told again with, whatever the question's own ("validation loss
goes down until epoch five and then goes up every epoch after that" for "falls until
epoch 5, then rises every epoch"): not something the answer says of its own."""


def _only_asked(said: list[frozenset[str]], asked: frozenset[str]) -> bool:
    """A window whose content words are all the question's, four or more ("only two
    images per GPU because of memory, and the results are noisy"): the question said
    again in other order, which states nothing."""
    stems = frozenset().union(*said)
    return len(stems) >= 4 and stems <= asked
