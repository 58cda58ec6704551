"""Who does what: an order-aware check for role swaps.

Sentence embeddings read "layer norm uses the batch statistics, batch norm works per
example" almost exactly like "batch norm uses the batch statistics, layer norm works per
example": the same words, the roles swapped. This module reads both the rubric and the
answer as *clauses*, each bound to the first *entity* it names, and compares the
bindings:

* The entities are the rubric's names for the things a misconception confuses: the
  hotwords and key point terms ("BatchNorm", "layer norm") that a misconception names
  together with another one (a swap needs two roles), plus, for rubrics with no terms
  (as ``sayitout import`` drafts them), the two words that open each clause of a
  misconception when the key points use them too, or, failing two entities, when its
  correction opens a clause with them too ("the stacked layers learn the full mapping" /
  "the stacked layers learn the residual": the correction turns that thing's role
  round). A rubric with no misconception that
  names two (every imported one) takes the two names its question contrasts ("Batch
  norm or layer norm?", "Why bf16 rather than fp16?", "between TCP and UDP"; ``contrasted``)
  when its key points name both: a key point's content said of the other one is then a
  swap, and earns it nothing. "batch norm", "batch-norm" and
  "BatchNorm" are one entity, and so is its initialism "BN" when no other entity of the
  rubric has the same initials.
* A clause ends at punctuation (a dash standing alone too) or before a linking word
  (and, but, while, whereas, so, because...; not a "then" right after the clause's own
  subject, "each block then learns a residual", an adverb there); a clause that names no
  entity belongs to the one before it ("uses the mean and variance of the batch" stays
  one clause) in the same sentence, unless it opens, after its linking word, on a
  subject of its own ("..., so each block only learns a residual"); a new sentence that
  names none belongs to no entity unless a pronoun opens it ("It needs big batches"). A
  clause that "it" or "they" opens, after its linking word if it has one, is about the
  entity before it, even when it names another in passing ("AdamW decouples it: it takes
  the Adam step on the loss alone", "..., so it uses half the memory of Adam"), unless
  the "it" opens a cleft ("it's group norm that pools statistics across the batch" is
  about group norm), and a clause that "it" opens after a clause that names "each" or
  "every" something before its entity ("give each block a shortcut that adds its input,
  so it only learns a residual": the "it" may be the block) is about no entity; and so
  is a clause whose only entity comes after "than", the thing compared with ("AdamW is
  used because it's faster and uses less memory than Adam"). An "it" or "them" after a
  clause's own entity is the entity before it, as an object ("Batch norm averages over
  more samples; that's why transformers use it": what transformers use is batch norm).
  An entity joined by "or" or "and" to the one named right before it ("switch to layer
  norm or group norm, which pool statistics ...") is a second subject, not a thing the
  first acts on; a part that goes on about the entity and opens on "avoid", "don't" or
  "never" ("..., so avoid that") is advice and negates nothing the entity does. A
  phrase that opens a sentence and ends in a comma right before an entity ("For a CNN
  with big batches, batch norm.") belongs to that entity, and a clause that opens on a
  frame naming one entity is about the next it names ("With a bigger batch you should
  lower the learning rate" is about the learning rate), or, when "each" or "every" opens
  what follows the frame ("With a shortcut, um, each block learns a residual"), about
  that subject of its own, which is no entity. An entity named within two words
  after "let", "help" or "allow" is that verb's object, not the clause's subject ("use a
  smaller batch to let the GPU catch up" says the smaller batch of no entity), and what
  a clause's entity lets or allows something else to do is that thing's doing, not the
  entity's ("identity shortcuts let each block learn only a residual" says nothing the
  shortcuts learn).
* An answer clause *binds* a rubric clause when it names the same entity and states at
  least half of the rubric clause's content words (at least two when it has two; one of
  them not a light word such as "use" or "model" when the rubric clause has one, and
  it binds by the smaller of its shares of all those words and of the heavy ones; the
  thing of a size said, the "batch" of "fine for a batch of one", is none; a "not" is
  no content word, compared on its own), with the same negation, and, when both say
  what something is taken across or over, over the same thing ("across the batch" is
  not "across the features", nor "across the group of examples" "across the features
  of each example"), and does not compare the other way ("less mantissa" is not "more
  mantissa bits") or relate its things the other way ("takes the decay out of the
  gradient" is not "puts the decay into the gradient"). It *swaps* it when it states
  that content about the other entity (for a rubric sentence that names two entities or
  more, one of those: "group norm pools over the batch" is no swap of "batch norm takes
  each image alone, and layer norm pools over the batch"), or about the same entity
  with other objects and none in common ("transformers use batch norm" against
  "transformers use layer norm": the entities a clause names after its own), or about
  another entity that names the rubric clause's own after it ("use batch norm in
  transformers" against "transformers use layer norm"), or about
  the same entity taken across another thing ("batch norm rescales each feature over
  all the examples" against "batch norm normalises across the features") or said to be
  free of what the rubric clause uses ("layer norm uses statistics over each example's
  features, so it's independent of batch size" against "layer norm uses the batch
  statistics"; ``Clause.free``), or about the same entity relating its things the other
  way round ("AdamW puts the decay into the gradient" against "AdamW decouples the
  decay": the relation counts as a word they share, whichever way each says it). What
  follows "instead of" or "rather than" in a clause relates its things the other way
  ("applied straight to the weights, instead of being folded into the gradient" keeps
  them apart).
* Two comparisons ("fp16 has more range than bf16": the other entity named after
  "than") are read by their order and trend: the same claim when both the entities and
  the trend are turned round ("bf16 has less range than fp16"), a swap when only one
  is ("bf16 has a bigger range than fp16", "fp16 has less range than bf16").
  "More", "bigger" and the other comparatives are the trend, not content words.

A misconception whose clauses the answer binds is stated, whatever the embeddings say;
one the answer only swaps (it states the correct contrast) is not. A misconception whose
two entities both have a clause bound to them is stated even when neither binds the
two thirds of its words one clause needs (``Binding.sides``): each half of the swap,
said in the answer's own words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sayitout.scoring import lexicon as lx
from sayitout.scoring import polarity
from sayitout.scoring.text import (
    STOPWORDS,
    Span,
    clause_words,
    content_stems,
    ends_clause_at,
    stem,
    without_possessive,
    words,
)

_LINKS = frozenset(
    "and but while whereas whilst so because although though however unlike versus vs then".split()  # noqa: SIM905
)
_ENDS_CLAUSE = ends_clause_at(",.;:!?…—–")
"""What ends a clause at the end of a word; a dash standing alone is a word of its own that
ends one too ("the pipeline is starving the card — try more workers", "card - try"), a
hyphen inside a word does not."""
_MAX_NAME_WORDS = 3
_PAUSES = frozenset(
    "um uh er erm ah like think guess mean know well okay ok also basically right".split()  # noqa: SIM905
)
"""Words said right before a speaker starts on something new ("um", "I think")."""
_NEGATIONS = frozenset(
    stem(w)
    for w in "not no never doesn't don't isn't aren't won't can't cannot didn't wasn't".split()  # noqa: SIM905
)
"""Said with the content, not content themselves: two clauses that share only "doesn't"
and one word do not state the same thing (negation is compared on its own). Stemmed, as
a clause's content is ("never" is "nev")."""
_PRONOUNS = frozenset("it it's its they they're their this that these those which".split())  # noqa: SIM905
_SUBJECT_PRONOUNS = frozenset("it it's they they're".split())  # noqa: SIM905
"""Pronouns that open a clause as its subject: the entity of the clause before."""
_OBJECT_PRONOUNS = frozenset(("it", "them"))
"""Pronouns said after a clause's own entity: the entity of the clause before, as an
object ("that's why transformers use it")."""
_OVER = frozenset(("across", "over"))
_FRAMES = frozenset("with for in on at under during after before".split())  # noqa: SIM905
"""Prepositions that open a clause on a frame ("With a bigger batch you should lower the
learning rate", "For CNNs batch norm works well"): the clause is about the entity named
after the frame, when it names one."""
_OVER_SKIP = frozenset("own all whole entire".split())  # noqa: SIM905
_FREE_OF = re.compile(r"^[a-z]+-(?:independent|free|agnostic|invariant|less)$")
"""A word that says what a clause does *not* involve ("batch-independent"): its stem is
no content of the clause (it would otherwise bind "normalises over the batch")."""
_FREE = frozenset("independent regardless irrespective free".split())  # noqa: SIM905
"""Words that, with "of", say what a clause does not involve, as ``_FREE_OF`` does in one
word: "independent of batch size" is no "batch" of the clause."""


def _canon(tokens: Sequence[str]) -> str:
    toks = [t.replace("-", "") for t in tokens if t.replace("-", "")]
    if not toks:
        return ""
    return "".join(toks[:-1]) + stem(toks[-1])


def _name_tokens(name: str) -> list[str]:
    return [w.norm for w in words(name.replace("-", " "))]


@dataclass(frozen=True)
class Clause:
    entity: str | None
    stems: frozenset[str]
    negated: bool
    start: int
    end: int
    over: frozenset[str] = frozenset()
    """What the clause says something is taken across or over: stems of the first
    content words after "across" or "over" ("across the *samples* in the *mini-batch*"),
    up to an "of" ("across the *features* of each example")."""
    mixed: bool = False
    """The clause names another entity after its own ("switch the batch norm layers to
    group norm"): what it says is about both (``Binding.swapped_alone``)."""
    trend: int = 0
    """+1 when the clause compares upward only ("more mantissa bits"), -1 downward only
    ("less mantissa"), else 0: a clause with the other trend does not bind it."""
    than: bool = False
    """The clause compares its entity with another one named after "than" ("fp16 has
    more range than bf16"): said the other way round ("bf16 has a bigger range than
    fp16", "fp16 has less range than bf16") it is the opposite claim, and with both the
    entities and the trend turned round ("bf16 has less range than fp16") the same one."""
    joined: int = 0
    """+1 when the clause puts something into another thing ("folds the penalty *into*
    the gradient", "goes *through* the adaptive scaling"), -1 when it keeps it apart
    ("keeps the decay *separate* from the gradient", "*decoupled* from the adaptive
    scaling", "applies it *directly* to the weights"), else 0: a clause that relates
    the same words the other way does not bind it, nor swap it."""
    counted: frozenset[str] = frozenset()
    """Stems of the words the clause gives a number of ("seven *mantissa bits*", "8 *exp*
    bits"): a count, where a comparison would have said more or less."""
    aims: frozenset[tuple[str, int]] = frozenset()
    """(stem, +1 or -1) for each content word a comparative qualifies ("*more* loader
    workers", "a *larger* batch", "*fewer* syncs"): a clause that qualifies one of the
    same things the other way does not bind it, whatever its trend as a whole."""
    objects: frozenset[str] = frozenset()
    """The other entities the clause names after its own, not as the thing compared with
    ("transformers use *layer norm*"): a clause about the same entity that names only
    others ("transformers use batch norm") says the rubric clause's words of another
    thing, a swap (``Roles.bind``)."""
    free: frozenset[str] = frozenset()
    """Stems of what the clause says it does not involve ("independent of *batch size*",
    "*batch*-independent"): a rubric clause that uses one of them is another claim."""


@dataclass(frozen=True)
class Binding:
    """How an answer relates to one rubric sentence's role structure."""

    bound: float
    """Best content overlap of an answer clause bound to the same entity (0: none)."""
    swapped: bool
    """Some answer clause states a rubric clause's content about the other entity."""
    evidence: tuple[int, int] | None = None
    """Character span of the best bound answer clause."""
    shared: int = 0
    """Content words the best bound answer clause shares with its rubric clause."""
    reach: tuple[int, int] | None = None
    """Character span from the first to the last answer clause bound to one of the
    rubric sentence's clauses."""
    sides: int = 0
    """How many of the rubric sentence's entities have a clause the answer binds: two
    when it states both halves of a contrast ("Adam with L2 applies the decay to the
    weights, while AdamW puts it into the gradient")."""
    swapped_alone: bool = False
    """Some swap is stated by a clause that names one entity only, of a rubric clause
    that names one only: "switch the batch norm layers to group norm" is about both, and
    takes no key point about group norm away."""


NO_BINDING = Binding(0.0, False)


def span_union(a: tuple[int, int] | None, b: tuple[int, int]) -> tuple[int, int]:
    """The character span from the start of the first of ``a`` and ``b`` to the end of
    the last (``b`` alone when ``a`` is None): a ``Binding.reach``."""
    return b if a is None else (min(a[0], b[0]), max(a[1], b[1]))


class Roles:
    """The entities of one rubric, and clause reading with them."""

    def __init__(self, entities: Iterable[str], initials: dict[str, str] | None = None) -> None:
        self.entities = frozenset(e for e in entities if e)
        self.initials = {k: v for k, v in (initials or {}).items() if v in self.entities}
        """Initialisms that name an entity ("bn" for batch norm), one entity each."""

    def __bool__(self) -> bool:
        return len(self.entities) >= 2

    @classmethod
    def for_rubric(
        cls,
        names: Iterable[str],
        misconceptions: Iterable[str],
        key_points: Iterable[str],
        question: str = "",
        corrections: Iterable[str] = (),
    ) -> Roles:
        """The entities a misconception names together, or, when none does, the two the
        question sets against each other (see the module docstring)."""
        mis_texts = list(misconceptions)
        kp_texts = list(key_points)
        corrections = list(corrections)
        known: set[str] = set()
        initials: dict[str, set[str]] = {}
        for n in names:
            toks = _name_tokens(n)
            known.add(_canon(toks))
            _add_initials(initials, toks)
        kp_bigrams: set[str] = set()
        for t in kp_texts:
            toks = [w.norm for w in words(t)]
            kp_bigrams.update(_canon(toks[i : i + 2]) for i in range(len(toks) - 1))
        for t in mis_texts:
            for opening in _openings(t):
                if _canon(opening) in kp_bigrams:
                    known.add(_canon(opening))
                    _add_initials(initials, opening)
        known.discard("")
        found = cls(known)._named_together(mis_texts)
        if len(found) < 2 and corrections:
            # a clause opening that a misconception and its correction share ("the stacked
            # layers learn the full mapping" / "the stacked layers learn the residual"):
            # the correction turns that thing's role round
            corrected = {_canon(o) for t in corrections for o in _openings(t)}
            known |= {_canon(o) for t in mis_texts for o in _openings(t)} & corrected
            found = cls(known)._named_together(mis_texts)
        if len(found) < 2 and question:
            pair = contrasted(question, kp_texts)
            if pair is not None:
                for name in pair:
                    _add_initials(initials, _name_tokens(name))
                found = {_canon(_name_tokens(n)) for n in pair}
        # an initialism standing for two entities names neither
        unique = {k: next(iter(v)) for k, v in initials.items() if len(v) == 1}
        return cls(found, {k: v for k, v in unique.items() if k not in found})

    def _named_together(self, texts: Iterable[str]) -> set[str]:
        """The entities that one of ``texts`` names two or more of."""
        found: set[str] = set()
        for t in texts:
            named = {c.entity for c in self.clauses(t) if c.entity}
            if len(named) >= 2:
                found |= named
        return found

    def _cleft(self, norms: list[str], a: int, z: int, named_at: int) -> bool:
        """Whether the clause ``norms[a : z + 1]`` puts its entity in a cleft ("it's group
        norm that pools statistics across the batch"): the "it" opens no reference to the
        entity before, the clause is about the one it names."""
        o = _opening_at(norms, a, z)
        if norms[o] not in ("it", "it's") or any(
            w not in _CLEFT_BETWEEN for w in norms[o + 1 : named_at]
        ):
            return False
        hit = self._entity_at(norms, named_at)
        after = named_at + hit[1] if hit else len(norms)
        return after < len(norms) and norms[after] in _CLEFT_AFTER

    def _each_before_entity(
        self, norms: list[str], ws: Sequence[Span], start: int, stop: int
    ) -> bool:
        """Whether the clause that starts at character ``start`` (its words end before
        ``stop``) names "each" or "every" something before its first entity ("give each
        block a shortcut"): a pronoun after it may be that thing, not the entity."""
        for k in range(stop):
            if ws[k].start < start:
                continue
            if norms[k] in _EACH:
                return True
            if self._entity_at(norms, k) is not None:
                return False
        return False

    def _entity_at(
        self, norms: list[str], i: int, possessive: bool = False
    ) -> tuple[str, int] | None:
        """The entity named at ``norms[i]`` and how many words name it. ``possessive``:
        a name's last word may be possessive ("batch norm's statistics", "BN's"), as a
        clause's subject may say it; after the subject, "Adam's adaptive scaling" is
        about the scaling."""
        bare = without_possessive if possessive else str
        if bare(norms[i]) in self.initials:
            return self.initials[bare(norms[i])], 1
        for k in range(_MAX_NAME_WORDS, 0, -1):
            if i + k <= len(norms):
                key = _canon([*norms[i : i + k - 1], bare(norms[i + k - 1])])
                if key in self.entities:
                    return key, k
        if i + 3 <= len(norms) and norms[i + 1] not in STOPWORDS:
            # a two-word name with a word between ("the stacked *conv* layers"), that
            # starts no name itself ("across the batch. Batch norm ...")
            key = _canon([norms[i], norms[i + 2]])
            if key in self.entities and self._entity_at(norms, i + 1) is None:
                return key, 3
        return None

    def clauses(self, text: str) -> list[Clause]:
        """``text`` as clauses bound to the first entity each names."""
        ws = words(text)
        norms = [w.norm for w in ws]
        raw: list[tuple[int, int]] = []  # word index ranges
        first = 0
        for i, w in enumerate(ws):
            adverb = norms[i] == "then" and _then_after_subject(norms[first:i])
            if i > first and norms[i] in _LINKS and not adverb:
                raw.append((first, i - 1))
                first = i
            if _ENDS_CLAUSE(text[w.start : w.end]):
                raw.append((first, i))
                first = i + 1
        if first < len(ws):
            raw.append((first, len(ws) - 1))
        out: list[Clause] = []
        ranges = self._split_at_entities(norms, raw)
        ahead: tuple[frozenset[str], bool, int, frozenset[str]] | None = None
        for n, (a, z) in enumerate(ranges):
            entity = None
            mixed = than = False
            objects: set[str] = set()
            named_at = z + 1  # where the clause names its entity
            content: list[str] = []
            free = _free_of(norms, a, z)
            free_of = [t.rsplit("-", 1)[0] for t in norms[a : z + 1] if _FREE_OF.search(t)]
            free_of += [norms[k] for k in sorted(free) if norms[k] not in _FREE]
            free_stems = content_stems(" ".join(free_of))
            i = a
            framed = norms[a] in _FRAMES  # "With a bigger batch, ...": a frame, not a subject
            # past "<entity> lets <something> ...": the words are its doing; so are a
            # clause's that goes on from the one before on "let" ("Identity shortcuts,
            # y = F(x) + x, let each block learn only a residual")
            lent = not _opens_sentence(text, ws, a) and _lets_do(norms, _opening_at(norms, a, z), z)
            named_end = -1  # the index after the last entity named
            while i <= z:
                lent = lent or (entity is not None and _lets_do(norms, i, z))
                # a possessive names the subject only where a subject opens the clause
                opening = i == a or (i == a + 1 and norms[a] in _OPENERS)
                hit = self._entity_at(norms, i, possessive=entity is None and opening)
                if hit is not None:
                    compared = "than" in norms[max(a, i - 3) : i]  # the thing compared with
                    if entity is None and compared:
                        than = True  # not the subject (below)
                    elif entity is None and _let(norms[max(a, i - 2) : i]):
                        pass  # "use a smaller batch to let the GPU catch up": not the subject
                    elif entity is None:
                        entity, named_at = hit[0], i
                        # "With identity shortcuts each block learns a residual": the
                        # frame's entity is the means, what each block does is its own
                        lent = framed and _each_after(norms, i + hit[1], z)
                    elif hit[0] != entity:
                        if framed and not mixed and not compared:
                            entity = hit[0]  # the subject after the frame
                        elif not compared and not framed and not _or_also(norms, i, named_end):
                            objects.add(hit[0])
                        mixed = True
                        than = than or compared
                    i += hit[1]
                    named_end = i
                    continue
                if (
                    not lent
                    and not _FREE_OF.search(norms[i])
                    and not _at_a_time(norms, i)
                    and not _of_a_number(norms, i)
                    and i not in free
                ):
                    content.append(norms[i])
                i += 1
            if entity is None and than and out and out[-1].entity is not None:
                # "AdamW is used because it's faster and uses less memory than Adam": the
                # thing compared with is not the subject, which the clause before named
                entity, mixed = out[-1].entity, True
            if (
                entity is not None
                and _opener(norms, a, z) in _SUBJECT_PRONOUNS
                and out
                and out[-1].entity not in (None, entity)
                and not self._cleft(norms, a, z, named_at)
            ):
                # "AdamW decouples it: it takes the Adam step ...": the clause is about
                # the entity before it, and names another in passing
                entity, mixed = out[-1].entity, True
            if (
                entity is not None
                and out
                and out[-1].entity not in (None, entity)
                and any(norms[k] in _OBJECT_PRONOUNS for k in range(named_at + 1, z + 1))
            ):
                # "Batch norm averages over more samples; that's why transformers use it":
                # "it" after the clause's own entity is the entity before it
                objects.add(out[-1].entity)
            stems = content_stems(" ".join(content))
            neg = polarity.analyse(" ".join(norms[a : z + 1])).negated
            trend = _leaning(norms[a : z + 1], _UP, _DOWN)
            joined = _leaning(norms[a : z + 1], _INTO, _APART)
            over = _over(norms[a : z + 1])
            if ahead is not None:
                stems, neg, a, over = stems | ahead[0], neg or ahead[1], ahead[2], over | ahead[3]
                ahead = None
            opens = _opens_sentence(text, ws, a)
            if (
                entity is None
                and opens
                and text[ws[z].end - 1] == ","
                and n + 1 < len(ranges)
                and self._entity_at(norms, ranges[n + 1][0]) is not None
            ):
                # "For a CNN with a healthy batch size, batch norm.": a phrase that opens
                # a sentence belongs to the entity that follows it
                ahead = (stems, neg, a, over)
                continue
            if entity is None and out and opens and norms[a] not in _PRONOUNS:
                # a new sentence that names no entity is about none, unless it opens
                # with a pronoun ("It needs big batches")
                out.append(
                    Clause(
                        None, stems, neg, ws[a].start, ws[z].end, over, trend=trend, joined=joined
                    )
                )
                continue
            if (
                entity is None
                and out
                and (
                    _own_subject(norms[a : z + 1])
                    or (_each_after(norms, a, z) and _after_frame(text, ws, norms, ranges[:n]))
                    or (
                        _opener(norms, a, z) in _SUBJECT_PRONOUNS
                        and self._each_before_entity(norms, ws, out[-1].start, a)
                    )
                )
            ):
                # "give every block a shortcut ..., so each block only learns a residual
                # correction", "With a shortcut, um, each block only learns a residual":
                # the clause names its own subject, not the entity before; in "give each
                # block a shortcut that adds its input to its output, so it only has to
                # learn a residual" the "it" is the block
                out.append(
                    Clause(
                        None, stems, neg, ws[a].start, ws[z].end, over, trend=trend, joined=joined
                    )
                )
                continue
            if entity is None and out:
                prev = out[-1]
                out[-1] = Clause(
                    prev.entity,
                    prev.stems | stems,
                    # "group norm pools statistics across the batch, so avoid that": an
                    # instruction not to do something negates nothing the entity does
                    prev.negated or (neg and _opener(norms, a, z) not in _TOLD_NOT),
                    prev.start,
                    ws[z].end,
                    prev.over | over,
                    prev.mixed,
                    _leaning(norms[a : z + 1], _UP, _DOWN, prev.trend),
                    prev.than,
                    _leaning(norms[a : z + 1], _INTO, _APART, prev.joined),
                    prev.counted | _counted(norms[a : z + 1]),
                    prev.aims | _aims(norms[a : z + 1]),
                    prev.objects,
                    prev.free | free_stems,
                )
                continue
            out.append(
                Clause(
                    entity,
                    stems,
                    neg,
                    ws[a].start,
                    ws[z].end,
                    over,
                    mixed,
                    trend,
                    than,
                    joined,
                    _counted(norms[a : z + 1]),
                    _aims(norms[a : z + 1]),
                    frozenset(objects - {entity}),
                    free_stems,
                )
            )
        return out

    def _split_at_entities(
        self, norms: list[str], raw: list[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """Each range split before an entity named after another one, when a pause or a
        hedge comes right before it: speech has no commas, and in "batch norm for CNNs
        um I think layer norm doesn't depend on the batch" the second half is about layer
        norm ("layer norm uses the batch statistics" stays one clause)."""
        out: list[tuple[int, int]] = []
        for a, z in raw:
            first, named, after, i = a, None, a, a
            while i <= z:
                hit = self._entity_at(norms, i)
                if hit is None:
                    i += 1
                    continue
                if named is not None and hit[0] != named and i > after and norms[i - 1] in _PAUSES:
                    out.append((first, i - 1))
                    first = i
                named, after = hit[0], i + hit[1]
                i = after
            out.append((first, z))
        return out

    def bind(self, rubric: Sequence[Clause], answer: Sequence[Clause]) -> Binding:
        """How the answer's clauses relate to one rubric sentence's clauses."""
        best, span, swapped, alone, most = 0.0, None, False, False, 0
        sides: set[str] = set()
        reach: tuple[int, int] | None = None
        # a sentence that names two entities or more contrasts those: its content said of
        # a third ("group norm pools over the batch" against "batch norm takes each
        # image alone, and layer norm pools over the batch") is another claim, no swap
        named = {r.entity for r in rubric if r.entity is not None}
        for r in rubric:
            if r.entity is None or not r.stems:
                continue
            for a in answer:
                if a.entity is None or a.entity not in self.entities:
                    continue
                if len(named) >= 2 and a.entity not in named:
                    continue
                compared = r.than and a.than
                # two comparisons: "more" and "bigger" say the same, the trend which way
                own = (r.stems - _COMPARATIVES if compared else r.stems) - _NEGATIONS
                if (
                    r.joined * a.joined < 0
                    and not compared
                    and a.negated == r.negated
                    and _same_claim(r, a)
                    and _relates_the_same(own, a.stems)
                ):
                    # "AdamW puts the decay into the gradient" against "AdamW decouples
                    # the decay": how the decay relates to something is the word they
                    # share, said the other way round
                    swapped = True
                    alone = alone or not (a.mixed or r.mixed)
                    continue
                shared = len(own & a.stems)
                if not own or shared < min(2, len(own)) or shared / len(own) < 0.5:
                    continue
                heavy = own - _LIGHT
                if heavy and not heavy & a.stems:
                    # "it needs stored averages once the model is in use" against "just use
                    # batch norm in every model": only light words in common
                    continue
                share = shared / len(own)
                if heavy and heavy != own:
                    # "layer norm uses each example's own statistics" says "uses" and
                    # "statistics" of "layer norm uses the batch statistics": a light word
                    # is no half of the claim, the heavy ones are
                    share = min(share, len(heavy & a.stems) / len(heavy))
                same = _same_claim(r, a)
                if (r.over and a.over and not r.over & a.over) or r.stems & a.free:
                    # "across the batch" is not "across the features": of the same entity,
                    # the other claim ("batch norm rescales each feature over all the
                    # examples" against "batch norm normalises across the features"); so is
                    # a clause free of what the rubric's uses ("layer norm uses statistics
                    # over each example's features, so it's independent of batch size"
                    # against "layer norm uses the batch statistics")
                    if same and a.negated == r.negated:
                        swapped = True
                        alone = alone or not (a.mixed or r.mixed)
                    continue
                if (same and r.objects and a.objects and not r.objects & a.objects) or (
                    not same and r.objects and r.entity in a.objects and a.entity not in r.objects
                ):
                    # "transformers use batch norm" against "transformers use layer norm":
                    # the same words, said of another thing; so is "use batch norm in
                    # transformers", the rubric's entity named after another one
                    swapped = alone = True
                elif same:
                    # "bf16 has more mantissa bits" is not "seven mantissa bits", nor
                    # "seven mantissa bits ..., so it's more stable": that compares
                    # something else
                    aimed = {s for s, _ in r.aims}
                    compares = aimed & {s for s, _ in a.aims} if aimed else a.trend
                    counts = r.trend and not compares and r.stems & a.counted
                    if a.negated == r.negated and (compared or not _opposite(r, a)) and not counts:
                        sides.add(r.entity)
                        reach = span_union(reach, (a.start, a.end))
                        if share > best:
                            best, span, most = share, (a.start, a.end), shared
                elif r.joined * a.joined >= 0:  # "separate from" against "into": neither
                    swapped = True
                    alone = alone or not (a.mixed or r.mixed)
        return Binding(best, swapped, span, most, reach, len(sides), alone)


_LIGHT = frozenset(
    stem(w) for w in lx.wordset("use using make get take do go keep put let try model thing way")
)
"""Content words too common to carry a binding alone: a rubric clause that says more than
these is bound only by an answer clause that says some of the rest."""
_UP = frozenset("more bigger larger higher greater wider longer faster".split())  # noqa: SIM905
_DOWN = frozenset("less fewer smaller lower narrower shorter slower".split())  # noqa: SIM905


_COMPARATIVES = frozenset(stem(w) for w in _UP | _DOWN)


_OPENERS = lx.wordset("the and but so while whereas then")
"""Words a clause may open on before its subject ("while fp16's exponent ...")."""


def _at_a_time(norms: Sequence[str], i: int) -> bool:
    """``norms[i]`` is the "time" of "at a time" ("one sample at a time"): a manner, not
    content ("running averages at test time" keeps its "time")."""
    return norms[i] == "time" and i >= 2 and norms[i - 2] == "at" and norms[i - 1] == "a"


def _of_a_number(norms: Sequence[str], i: int) -> bool:
    """``norms[i]`` is the thing of "a batch of one" ("fine for a batch of one", "a batch
    of 2 images"): a size said, not content ("layer norm uses the batch statistics" is not
    said by "layer norm is fine for a batch of one")."""
    return (
        0 < i < len(norms) - 2
        and norms[i - 1] in ("a", "an")
        and norms[i + 1] == "of"
        and _cardinal(norms[i + 2])
    )


def _free_of(norms: Sequence[str], a: int, z: int) -> frozenset[int]:
    """Indices, in ``norms[a : z + 1]``, of the words a ``_FREE`` word and its "of" say the
    clause does not involve, and of those two words ("independent of *the batch size*"):
    the first run of up to two content words after the "of"."""
    out: set[int] = set()
    for i in range(a, z):
        if norms[i] not in _FREE or norms[i + 1] != "of":
            continue
        out.update((i, i + 1))
        named = 0
        for k in range(i + 2, z + 1):
            if norms[k] in STOPWORDS:
                if named:
                    break
            elif named == 2:
                break
            else:
                named += 1
            out.add(k)
    return frozenset(out)


def _counted(norms: Sequence[str]) -> frozenset[str]:
    """Stems of the content words said right after a whole number ("seven mantissa
    bits", "(7 vs 10 bits)"), up to two of them."""
    said: list[str] = []
    for i, w in enumerate(norms):
        if _cardinal(w):
            said.extend(n for n in norms[i + 1 : i + 3] if not _cardinal(n))
    return content_stems(" ".join(said))


def _cardinal(word: str) -> bool:
    """A whole number, in digits or words ("7", "seven"); "half the memory" compares."""
    return word.isdigit() or word in lx.SMALL_NUMBERS or word in lx.TENS


def _leaning(
    norms: Sequence[str], plus: frozenset[str], minus: frozenset[str], before: int = 0
) -> int:
    """+1 when the clause's words hold one of ``plus`` and none of ``minus`` (a word or a
    two-word phrase), -1 the other way, else 0; joined to ``before``'s (the clause it
    continues): ``Clause.trend`` with ``_UP``/``_DOWN``, ``Clause.joined`` with
    ``_INTO``/``_APART``. One of ``plus`` right after "less" or "not" leans the other way
    ("λ and LR less coupled"), and so does any word after "instead of" or "rather than"
    ("applied to the weights instead of folded into the gradient")."""
    instead = next((i + 2 for i in range(len(norms) - 1) if lx.instead_at(norms, i)), len(norms))
    leans_plus, leans_minus = before > 0, before < 0
    for i, w in enumerate(norms):
        after = i >= instead  # what the clause does not do leans the other way
        if w in plus:
            turned = (i > 0 and norms[i - 1] in _TURNING) != after
            leans_plus, leans_minus = leans_plus or not turned, leans_minus or turned
        if w in minus or " ".join(norms[i : i + 2]) in minus:
            leans_plus, leans_minus = leans_plus or after, leans_minus or not after
    return int(leans_plus) - int(leans_minus)


_TURNING = frozenset(("less", "not"))


def _aims(norms: Sequence[str]) -> frozenset[tuple[str, int]]:
    """``Clause.aims``: the stems of up to two content words after each comparative of
    ``_UP`` or ``_DOWN``, with its direction ("more loader workers": loader and workers
    up), up to the next comparative."""
    out: set[tuple[str, int]] = set()
    for i, w in enumerate(norms):
        sign = 1 if w in _UP else -1 if w in _DOWN else 0
        if not sign or (i > 0 and norms[i - 1] in _TURNING):
            continue
        named: list[str] = []
        for n in norms[i + 1 : i + 4]:
            if n in _UP or n in _DOWN or len(named) == 2:
                break
            if n not in STOPWORDS:
                named.append(n)
        out.update((s, sign) for s in content_stems(" ".join(named)))
    return frozenset(out)


_INTO = frozenset(
    """into through inside within fold folds folded couple couples coupled coupling tangled
    entangled intertwined +=""".split()  # noqa: SIM905
)
"""Words that relate a thing into another; "+=" in typed notes adds it in ("grad += λw")."""
_APART = frozenset(
    """separate separately decouple decouples decoupled decoupling independent
    independently apart outside directly bypass bypasses""".split()  # noqa: SIM905
) | {"out of", "away from"}
"""Words (and two-word phrases) that keep a thing apart from another ("takes the decay
out of the gradient")."""
_RELATING = frozenset(stem(w) for w in _INTO | _APART if " " not in w)
"""The stems of the relating words themselves: "decouples" and "into" say the same kind
of thing (how one thing relates to another), not content of their own."""


def _relates_the_same(rubric: frozenset[str], answer: frozenset[str]) -> bool:
    """Whether an answer clause that relates its things (``Clause.joined``) speaks of what
    a rubric clause that relates its things does: the relation counts as one word they
    share, and of the rest it holds at least half, one of them heavy ("AdamW puts the
    decay into the gradient" of "AdamW decouples the decay", which share only "decay")."""
    rest = rubric - _RELATING
    shared = len(rest & answer) + 1
    heavy = rest - _LIGHT
    return shared >= 2 and shared / (len(rest) + 1) >= 0.5 and bool(not heavy or heavy & answer)


def _or_also(norms: Sequence[str], i: int, named_end: int) -> bool:
    """The entity at ``norms[i]`` is joined by "or" or "and" to the one named right before
    it ("switch to layer norm or group norm, which pool ..."): a second subject, not a
    thing the clause's entity acts on."""
    return named_end == i - 1 and norms[i - 1] in ("or", "and")


def _same_claim(rubric: Clause, answer: Clause) -> bool:
    """Whether the answer clause speaks of the rubric clause's entity the rubric's way:
    about the same entity, or, for two comparisons, about the other one with the trend
    turned round ("bf16 has less range than fp16" is "fp16 has more range than bf16").
    Either comparison said the other way round is a swap."""
    if rubric.than and answer.than and rubric.trend and answer.trend:
        return (answer.entity == rubric.entity) == (answer.trend == rubric.trend)
    return answer.entity == rubric.entity


def _opposite(rubric: Clause, answer: Clause) -> bool:
    """The answer clause compares the other way ("less mantissa" against "more mantissa
    bits"; "more loader workers" against "fewer loader workers"), or relates its things
    the other way ("separate from the gradient" against
    "into the gradient"): it does not state the rubric clause."""
    if rubric.trend * answer.trend < 0 or rubric.joined * answer.joined < 0:
        return True
    return any((s, -d) in answer.aims for s, d in rubric.aims)


def _over(norms: Sequence[str]) -> frozenset[str]:
    """Stems of what a clause's words say something is taken across or over."""
    out: set[str] = set()
    for i, w in enumerate(norms[:-1]):
        if w in _OVER:
            said = list(norms[i + 1 : i + 6])
            if "of" in said:
                # "across the features of each example": what is taken across is the
                # features; "of" names whose they are
                said = said[: said.index("of")]
            nxt = [t for t in said if t not in STOPWORDS and t not in _OVER_SKIP]
            # "mini-batch" is taken over the batch
            out.update(stem(t.rsplit("-", 1)[-1]) for t in nxt[:3] if t.rsplit("-", 1)[-1])
    return frozenset(out)


_CONTRAST = re.compile(r"\b(?:rather than|instead of|over|versus|vs\.?|or)\s", re.IGNORECASE)
"""What sets two things against each other in a question ("AdamW rather than Adam",
"Batch norm or layer norm?", "bf16 over fp16")."""
_PREFERS = re.compile(r"\b(?:prefer\w*|choos\w*|chose\w*|pick\w*|use|using|favou?r\w*)\b", re.I)
"""A verb before "over" that makes it a contrast ("use bf16 over fp16")."""
_BETWEEN = re.compile(r"\bbetween\s+(.+?)\s+and\s+(.+?)(?:[?.,;]|$)", re.IGNORECASE)


def contrasted(question: str, key_points: Sequence[str]) -> tuple[str, str] | None:
    """The two names the question sets against each other ("Why use AdamW rather than
    Adam with an L2 penalty?": AdamW, Adam), each the longest run of at most three of the
    question's words, next to the contrast word, that the key points also name. None
    when the question contrasts nothing, or the key points do not name both sides."""
    said: set[str] = set()
    for t in key_points:
        toks = [w.norm for w in words(t.replace("-", " "))]
        for k in range(1, _MAX_NAME_WORDS + 1):
            said.update(_canon(toks[i : i + k]) for i in range(len(toks) - k + 1))

    def name(tokens: list[str], at_end: bool) -> str | None:
        for k in range(min(_MAX_NAME_WORDS, len(tokens)), 0, -1):
            run = tokens[-k:] if at_end else tokens[:k]
            if (
                run[0] not in STOPWORDS
                and run[-1] not in STOPWORDS
                and any(c.isalpha() for c in run[-1])
                and _canon(run) in said
            ):
                return " ".join(run)
        return None

    pairs = [(m.group(1), m.group(2)) for m in _BETWEEN.finditer(question)]
    for m in _CONTRAST.finditer(question):
        before = re.split(r"[,;:.?!]", question[: m.start()])[-1]
        after = re.split(r"[,;:.?!]", question[m.end() :])[0]
        if m.group(0).strip().lower() == "over" and not _PREFERS.search(
            " ".join(before.split()[-4:])
        ):
            continue  # "accumulate gradients over 16 micro-batches": no contrast
        pairs.append((before, after))
    for before, after in pairs:
        left = name(_name_tokens(before), at_end=True)
        right = name(_name_tokens(after), at_end=False)
        if left and right and _canon(left.split()) != _canon(right.split()):
            return left, right
    return None


_SUBJECT_DETERMINERS = frozenset("each every the this these those".split())  # noqa: SIM905
"""A clause that opens on a link and then one of these names its own subject ("so each
block only learns a residual"): it is not about the entity of the clause before. (After a
comma alone it may be a restart: "batch norm normalises each, uh, each feature".)"""


_LETTING = frozenset("let lets letting help helps helping allow allows allowing".split())  # noqa: SIM905


def _let(before: Sequence[str]) -> bool:
    """Whether an entity named after the words ``before`` it is what a verb lets or helps
    do something ("to let *the GPU* catch up"), the verb's object and not the subject."""
    return any(w in _LETTING for w in before)


_LETS_DO = frozenset("let lets letting".split())  # noqa: SIM905
_ALLOWS_TO = frozenset("allow allows allowing enable enables enabling".split())  # noqa: SIM905
"""Unlike ``_LETTING`` (whose object an entity named after it is), these leave out "help":
"batch norm helps training converge" is batch norm's own doing."""


_EACH = frozenset(("each", "every"))


def _each_after(norms: Sequence[str], i: int, z: int) -> bool:
    """Whether the words from ``norms[i]`` open a subject of their own ("each block",
    "every layer"; "With a shortcut, um, each block learns a residual"), with a word after
    it, before the clause's end ``z``."""
    while i < z and norms[i] in lx.HESITATIONS:
        i += 1
    return i + 2 <= z and norms[i] in _EACH


def _after_frame(
    text: str, ws: Sequence[Span], norms: Sequence[str], before: Sequence[tuple[int, int]]
) -> bool:
    """Whether the clauses ``before`` end on a frame and its comma ("With a shortcut, um,"
    before "each block learns a residual"), hesitations aside."""
    k = len(before) - 1
    while k >= 0 and all(norms[x] in _PAUSES for x in range(before[k][0], before[k][1] + 1)):
        k -= 1
    return k >= 0 and norms[before[k][0]] in _FRAMES and text[ws[before[k][1]].end - 1] == ","


def _lets_do(norms: Sequence[str], i: int, z: int) -> bool:
    """Whether ``norms[i]`` lets its object do something ("shortcuts *let* each block
    learn a residual", "they *allow* the gradient to flow back"): what follows is the
    object's doing, not the clause's subject's, up to the clause's end ``z``."""
    if norms[i] in _LETS_DO:
        return i < z
    return norms[i] in _ALLOWS_TO and "to" in norms[i + 2 : min(z, i + 5) + 1]


def _then_after_subject(before: Sequence[str]) -> bool:
    """Whether a "then" after the words ``before`` (its clause so far) follows the
    clause's own subject, an adverb and no link: "because each block *then* only has to
    learn a residual", "it then diverges"."""
    rest = list(before[1:] if before and before[0] in _LINKS else before)
    opens = bool(rest) and (rest[0] in _SUBJECT_DETERMINERS or rest[0] in _SUBJECT_PRONOUNS)
    return opens and len(rest) <= 3


_TOLD_NOT = frozenset("avoid don't dont never".split())  # noqa: SIM905
"""Words that open an instruction not to do something ("..., so avoid that")."""


_CLEFT_BETWEEN = frozenset("is was really actually only just".split())  # noqa: SIM905
"""Words a cleft may put between its "it" and its entity ("it's really group norm that")."""
_CLEFT_AFTER = frozenset(("that", "which", "who"))
"""Words that follow a cleft's entity ("it's group norm *that* pools ...")."""


def _opens_sentence(text: str, ws: Sequence[Span], a: int) -> bool:
    """Whether the word ``ws[a]`` starts a sentence of ``text``."""
    return a == 0 or text[ws[a - 1].end - 1] in ".!?"


def _opener(norms: Sequence[str], a: int, z: int) -> str:
    """The word that opens the clause ``norms[a : z + 1]``, after its linking word ("so
    it uses half the memory of Adam": "it")."""
    return norms[_opening_at(norms, a, z)]


def _opening_at(norms: Sequence[str], a: int, z: int) -> int:
    """Where the word that opens the clause ``norms[a : z + 1]`` is (``_opener``)."""
    return a + 1 if norms[a] in _LINKS and a < z else a


def _own_subject(norms: Sequence[str]) -> bool:
    """Whether a clause (its words, its link first) opens on a subject of its own."""
    if not norms or norms[0] not in _LINKS:
        return False
    rest = [w for w in norms if w not in _LINKS and w not in _PAUSES]
    return len(rest) >= 3 and rest[0] in _SUBJECT_DETERMINERS


def _openings(text: str) -> list[list[str]]:
    """The first two content words of each of ``text``'s clauses that has two."""
    out = []
    for toks in clause_words(text, _LINKS, _ENDS_CLAUSE):
        opening = [w for w in toks if w not in STOPWORDS][:2]
        if len(opening) == 2:
            out.append(opening)
    return out


def _add_initials(initials: dict[str, set[str]], tokens: Sequence[str]) -> None:
    """Record the initialism of a name of two or three words ("batch norm" -> "bn"), as
    candidates often abbreviate the names they contrast ("BN normalises over the batch;
    LN over each example's features")."""
    toks = [t for t in tokens if t]
    if 2 <= len(toks) <= _MAX_NAME_WORDS and all(t[0].isalpha() for t in toks):
        initials.setdefault("".join(t[0] for t in toks), set()).add(_canon(toks))
