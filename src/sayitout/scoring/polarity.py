"""Direction and negation: what embeddings cannot tell apart.

MiniLM scores "raise the learning rate" close to "lower the learning rate" and
"shuffle the data" close to "don't shuffle the data". Before a key point is credited
or a misconception flagged, the rubric sentence and the candidate's words are
compared here.

Rules (documented for reviewers and candidates):

* A *direction word* says up (raise, increase, higher, bigger, more, double,
  multiply, ramp unless "down" follows...), down (lower, decrease, reduce, smaller,
  less, halve, divide...) or no change (same, unchanged, leave, constant).
* "Drop" or "cut" followed by a practice (a phrase ending in a gerund, a noun of a
  process, "dropout", "warmup" or "decay": "drop gradient clipping", "drop the
  regularisation", "cut the dropout and weight decay") takes it away, as "remove" does;
  "drop the learning rate" lowers it, and so does "cut activation memory", whose
  practice does not close the phrase. "Skip" followed by a check or by "dropout",
  "warmup" or "decay" takes it away too ("skip the overfit-a-batch test"); "skip that
  step" and "skip connections" take nothing away. A hyphenated name taken away
  takes its words away ("overfit-a-batch").
* A direction word is *negated* when a negation cue (not, n't, never, no, don't,
  without, avoid, instead of, rather than, take out, stop) comes within the three words
  before it:
  "don't raise it" means down; "instead of increasing it" means down.
* "too high" (also "a bit high", "slightly high") describes a problem whose fix is the
  opposite direction: it counts as down, so it agrees with "lower it" and with "too
  high", and conflicts with "raise it" and "too low". A comparative keeps its way ("a
  slightly lower learning rate" is lower).
* Two texts *conflict in direction* when the rubric text has a direction about some
  object and every direction the candidate states about that object is the opposite
  one. What a direction is about: first the content word right after it ("more
  *precision*, but a smaller *range*" says nothing up about range; "LR" is the learning
  rate); when the candidate qualifies no such word, the content words within four words
  of the direction word, in its sentence; when none is shared either, all the
  candidate's directions. What a direction word qualifies comes before a clause
  break ("make it bigger and train longer" qualifies nothing). A particle after what its
  verb acts on is about that ("push *Adam's beta2* up", "turn *the LR* down"), not
  after a verb of motion ("the curve turns up"); a typed arrow is about what it follows
  ("B ↑"). A direction word that closes a clause ("As time *increases*,
  the speed of light stays the same") is about that clause's words only: it qualifies
  nothing after the comma.
* A key point is not credited by words that negate it: a content word of the key
  point within five words after a negation cue, before a clause break ("the learning
  rate doesn't really depend on the batch size" does not credit "scale the learning
  rate with the batch size"). "Forgot to" or "failed to" before the cue undoes it
  ("I forgot to turn off dropout" says dropout was on).
* Two texts *differ in negation* when one has a negation cue and the other none
  (used only for misconceptions, so "you don't need to shuffle the validation set"
  does not flag the misconception "shuffle the validation set").
* An answer *names the opposite* of a rubric text when the text names one of a pair of
  opposite terms (overfitting / underfitting, overflow / underflow) and the answer names
  the other and never the first: no part of "that's underfitting, the model is too
  simple" states "this is overfitting".
* An answer *widens* a rubric text's scope when the text keeps something to a thing
  ("apply augmentation *only* to the training set") and the answer spreads it over
  "both", "all" or "every" of that thing's kind, not negated ("add stronger
  augmentation to *both* sets"): those words credit no part of the key point.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from sayitout.scoring.lexicon import owns_what_is_lost
from sayitout.scoring.lexicon import wordset as _wordset
from sayitout.scoring.text import (
    ARROW_WORDS,
    SHORT_FORMS,
    STOPWORDS,
    ends_sentence,
    normalise_word,
    stem,
    without_possessive,
)

UP = 1
DOWN = -1
SAME = 0

_UP_WORDS = _wordset(
    """raise raises raised raising increase increases increased increasing higher high highest
    bigger big biggest larger large largest more grow grows growing boost boosting bump bumping
    double doubling doubled multiply multiplied multiplying upward upwards maximise maximize
    longer wide wider widest enlarge enlarges enlarged enlarging
    rise rises rising grew grown ↑"""
)
_DOWN_WORDS = _wordset(
    """lower lowers lowered lowering low lowest decrease decreases decreased decreasing reduce
    reduces reduced reducing reduction smaller small smallest tiny less fewer shrink shrinking cut
    cutting drop dropping halve halving halved downward downwards decay decaying minimise
    minimize shorter divide divided dividing narrow narrower narrowest shrinks shrunk ↓"""
)
_SIZE_OF_A_STEP = ("learn", "rat")
"""What a direction about steps or updates is about, in a candidate's plain words: "make
the steps bigger" raises the learning rate (``text.PLAIN_FORMS`` says the same for
lexical support). Not in rubric texts, which say "the learning rate" where they mean it:
there "the updates are larger" is about the updates."""
_STEPS = frozenset(("step", "updat"))
_PRONOUNS = _wordset("it them that this")
_RAMPS = _wordset("ramp ramps ramped ramping")
"""Going up, unless "down" follows ("ramp the rate down")."""
_ACTING = _wordset(
    """raise raising increase increasing lower lowering decrease decreasing reduce reducing
    cut cutting drop dropping halve halving double doubling bump bumping boost boosting
    shrink shrinking grow growing multiply multiplying divide dividing"""
)
"""Direction words that act on what follows them when said as a verb."""
_ALSO_ADJECTIVES = _wordset("lower double")
_DESCRIBING = _wordset("a an the much bit is are be was were even far")
"""Words before "lower" or "double" that make it describe ("a lower rate")."""
_SAME_WORDS = _wordset("""same unchanged leave constant""")
_CHANGES = _wordset("""change changes changing changed adjust adjusts adjusting touch touching
    retune retuning""")
"""Neither way alone; negated ("doesn't need to change", "don't touch it"), the same."""
_PUT_THING = _wordset("it they")
_PUT_BE = _wordset("is was are were")
_OPPOSITES = (("overfit", "underfit"), ("overflow", "underflow"))
"""Stems of terms that embeddings place together and that mean opposite diagnoses."""
_EXCESS = _wordset("too overly bit slightly somewhat kinda")
# "up"/"down" after these are not a direction ("warm up", "blow up", "break down", "gives
# up mantissa bits")
_NOT_DIRECTIONAL_BEFORE = _wordset(
    """warm warms warming set sets setting speed speeds look looks pick picks end ends
    break breaks sum sums add adds slow slows shut back blow blows blew blowing blown
    show shows showing shut line lines sign mix mixes mixed write writes break broken
    boil boils narrow narrows track tracks track upside give gives giving gave given"""
)
_NEGATIONS = _wordset(
    """not no never don't dont doesn't doesnt didn't didnt isn't isnt aren't arent won't wont
    wouldn't wouldnt shouldn't shouldnt can't cant cannot without avoid avoiding stop nor
    neither hardly instead rather off disable disabled disabling remove removing ditch
    ditching"""
)
_NOT_PREFIXED = re.compile(r"^(?:un|non)-([a-z]{3,})$")
"""A word that negates itself with a hyphened prefix ("un-augmented", "non-shuffled")."""
_REMOVALS = _wordset("off disable disabled disabling remove removing ditch ditching")
"""Negation cues that take something away; with "take out", "strip out" (``_NEEDS_NEXT``)."""
_AVOID = _wordset("avoid avoiding")
_DO_NOT = _wordset("don't dont never")
"""Cues that, before "use" or "using", tell the listener not to use something."""
_USE = _wordset("use using")


def _told_not_to_use(toks: list[str], k: int) -> bool:
    """The negation cue at ``k`` tells the listener to do without what follows ("don't use
    group norm", "never use dropout here", "avoid group norm"); "doesn't use the batch"
    describes a thing instead."""
    if toks[k] in _AVOID:
        return True
    return toks[k] in _DO_NOT and k + 1 < len(toks) and toks[k + 1] in _USE


_DROPS = _wordset("drop drops dropping dropped cut cuts cutting")
"""Down, or a removal when what follows is a practice ("drop gradient clipping", "drop the
shuffling", "cut the dropout"): see ``_dropped``."""
_SKIPS = _wordset("skip skips skipping skipped")
"""A removal when what follows is a check or a named practice ("skip the sanity check",
"skip warmup"): see ``_dropped``."""
_CHECKS = _wordset("test tests check checks")
_SWITCH_VERBS = _wordset(
    """take takes taking took turn turns turning turned switch switches switching switched
    shut shuts shutting"""
)
"""Verbs that put what they act on before "off": "take gradient clipping off" negates
clipping as "take off gradient clipping" does."""
_UNDONE = _wordset("forgot forget forgets forgetting forgotten neglected failed")
"""Words that undo the negation after them ("forgot to turn off dropout": it is on)."""
_LIKENESS = _wordset("like same identical match matches similar equal")
"""A negation of a likeness says two things differ ("isn't distributed like the training
data"): it negates none of the words around it."""
_AS_MUCH = _wordset(
    """well good much many fast quick quickly high large big accurate accurately often far
    long stable smooth smoothly reliable reliably efficient efficiently easy easily"""
)
"""Words an equative puts after "as": "doesn't generalise as well" says it generalises
worse, a comparison, not that it does not generalise."""


def _equative(scope: list[str]) -> bool:
    """Whether a negation's ``scope`` holds an equative ("as well", "as much", "as
    noisy"): the negation compares, it negates none of the words around it. The word
    after "as" must be one of ``_AS_MUCH`` or read as an adjective or adverb ("noisy",
    "stable", "precisely"); "don't treat it as noise" names what it is treated as."""
    return any(
        w == "as" and i + 1 < len(scope) and _modifier(scope[i + 1]) for i, w in enumerate(scope)
    )


def _modifier(word: str) -> bool:
    """Whether ``word`` reads as an adjective or adverb after "as" (``_AS_MUCH``, or a
    content word with one of ``_MODIFIER_ENDINGS``)."""
    return word in _AS_MUCH or (
        word not in STOPWORDS and word.endswith(_MODIFIER_ENDINGS) and len(word) > 4
    )


_MODIFIER_ENDINGS = ("y", "ly", "ble", "ful", "ous", "ive", "ent", "ant")
"""Endings of adjectives and adverbs ("noisy", "stable", "useful", "precisely")."""


_WHEN_AFTER_OFF = _wordset("in at during for when while on")
"""After "off", these begin when something is off ("off in eval", "off during validation"),
not what is taken away."""
_CLAUSE_BREAKS = _wordset("""but so and because then which although though i'd i you'd we
    you however while whereas → -> =>""")
# "instead", "rather" and "take" negate only as "instead of X" / "rather than X" /
# "take out X" ("take out the dropout").
_NEEDS_NEXT = {
    "instead": "of",
    "rather": "than",
    "take": "out",
    "takes": "out",
    "taking": "out",
    "took": "out",
    "strip": "out",
    "strips": "out",
    "stripping": "out",
    "stripped": "out",
    "rip": "out",
}


@dataclass(frozen=True)
class Mention:
    directions: frozenset[int]
    """The directions this mention agrees with (two for "too high")."""
    context: frozenset[str]
    """Stems of the content words near the direction word: what it is about."""
    object: str | None = None
    """Stem of the content word right after the direction word, when one follows within
    two words ("more *precision*", "lower the *learning* rate"): what it qualifies."""
    acts: bool = False
    """The direction word is a verb that acts on its object ("*raise* the learning
    rate"), not an adjective that describes it ("a *bigger* batch gives ...")."""
    on_pronoun: bool = False
    """The direction word acts on a pronoun ("I would *raise it*"): about whatever the
    pronoun stands for."""
    phrase: frozenset[str] = frozenset()
    """Stems of up to three content words after the direction word, in its clause, a
    measure's noun left out ("more *data loader workers*", "cut the number of *loader
    workers*"): two texts that share two of them qualify the same thing, whichever word
    each names first (``reverses_object``)."""
    head: str | None = None
    """The last of those words, the head of the phrase ("more data loader *workers*"): a
    text whose phrase is that one word ("cut the number of *workers*") qualifies the
    same thing."""


@dataclass(frozen=True)
class Polarity:
    mentions: tuple[Mention, ...]
    negated: bool
    """Whether the text has a negation cue anywhere."""
    negated_stems: frozenset[str] = frozenset()
    """Content-word stems in the scope of a negation: up to five words after the cue,
    stopping at a clause break ("doesn't really depend on the batch" -> depend, batch)."""
    removed_stems: frozenset[str] = frozenset()
    """Those of them in the scope of a cue that takes something away (off, remove,
    disable, take out), and the words a switch verb puts before "off" ("take gradient
    clipping off" -> gradient, clip): what the text says to do without."""
    only_stems: frozenset[str] = frozenset()
    """Content-word stems said under "only" ("only to the *training set*", "the training
    set only"): what the text keeps something to (``widens``)."""
    every_stems: frozenset[str] = frozenset()
    """Content-word stems said under "both", "all" or "every" and not negated ("to both
    *sets*"): what the text spreads something over."""
    contrasted: bool = False
    """Whether the text sets what it asserts against what it denies: "X, not Y", "not Y
    but X" (``turns_contrast``)."""


def _tokens(text: str) -> tuple[list[str], list[int], list[bool]]:
    """The words of ``text``, for each the number of the sentence it is in, and whether
    a clause ends right after it (``_closes``)."""
    toks: list[str] = []
    sentences: list[int] = []
    closes: list[bool] = []
    n = 0
    for raw in re.split(r"\s+", text):
        parts = _parts(raw)
        toks.extend(parts)
        sentences.extend([n] * len(parts))
        closes.extend(_closes(raw, len(parts)))
        if ends_sentence(raw):
            n += 1
    return toks, sentences, closes


def _stays_put(toks: list[str], sentences: list[int], closes: list[bool], k: int) -> bool:
    """The "where" at ``toks[k]`` opens "where it was" at the end of a clause: no change
    ("keep the learning rate exactly where it was"), unlike "the point where it was
    diverging". ("as it is" is left out: "keep the split as it is" in a misconception
    would then need the split kept said.) Called for a "where" only: ``_analyse`` reads
    every word, and almost none is one."""
    if k + 2 >= len(toks):
        return False
    if toks[k + 1] not in _PUT_THING or toks[k + 2] not in _PUT_BE:
        return False
    last = k + 2
    return closes[last] or last + 1 == len(toks) or sentences[last + 1] != sentences[last]


def _parts(raw: str) -> list[str]:
    w = normalise_word(raw)
    return [p for p in w.split("/") if p] if w else []


def _closes(raw: str, parts: int) -> list[bool]:
    """Per part of the chunk ``raw``: whether a comma, semicolon or colon follows it (a
    clause ends there: "As time increases, the speed ...")."""
    out = [False] * parts
    if parts and raw.rstrip("\"')]").endswith((",", ";", ":")):
        out[-1] = True
    return out


_CHUNK = re.compile(r"\S+")


class Reader:
    """``analyse`` for many spans of one text: the text's words are read once, and a
    span's analysis is the one ``analyse(text[start:end])`` gives (the matcher reads
    every window of an answer with its context, about sixty spans an answer)."""

    def __init__(self, text: str, plain_words: bool = False) -> None:
        self.text = text
        self.plain_words = plain_words
        self._starts: list[int] = []  # per whitespace-separated chunk
        self._ends: list[int] = []
        self._sentence: list[int] = []  # the number of the sentence it is in
        self._first: list[int] = [0]  # its first token; one more entry, at the end
        self._toks: list[str] = []
        self._closes: list[bool] = []
        n = 0
        for m in _CHUNK.finditer(text):
            self._starts.append(m.start())
            self._ends.append(m.end())
            self._sentence.append(n)
            parts = _parts(m.group())
            self._toks.extend(parts)
            self._closes.extend(_closes(m.group(), len(parts)))
            self._first.append(len(self._toks))
            n += ends_sentence(m.group())

    def analyse(self, start: int, end: int) -> Polarity:
        """``analyse(self.text[start:end], plain_words)``. Sentence numbers count from the text's
        start, which changes nothing: they are only compared with each other."""
        a = bisect_left(self._ends, start + 1)  # the first chunk that ends inside
        z = bisect_right(self._starts, end - 1)  # past the last chunk that starts inside
        if z - a < 2:
            return analyse(self.text[start:end], self.plain_words)
        # the chunks at either end as far as the span reaches into them; whole ones between
        head_raw = self.text[max(start, self._starts[a]) : self._ends[a]]
        tail_raw = self.text[self._starts[z - 1] : min(end, self._ends[z - 1])]
        head, tail = _parts(head_raw), _parts(tail_raw)
        toks, sentences = list(head), [self._sentence[a]] * len(head)
        closes = _closes(head_raw, len(head))
        for c in range(a + 1, z - 1):
            k = self._first[c + 1] - self._first[c]
            toks += self._toks[self._first[c] : self._first[c + 1]]
            sentences += [self._sentence[c]] * k
            closes += self._closes[self._first[c] : self._first[c + 1]]
        toks += tail
        sentences += [self._sentence[z - 1]] * len(tail)
        closes += _closes(tail_raw, len(tail))
        return _analyse(toks, sentences, closes, self.plain_words)


def _is_negation(toks: list[str], k: int, closes: list[bool]) -> bool:
    t = toks[k]
    if t in _NEEDS_NEXT:
        return k + 1 < len(toks) and toks[k + 1] == _NEEDS_NEXT[t]
    if t == "off" and not closes[k] and _off_a_place(toks, k):
        return False
    if t == "nothing":
        return toks[k + 1 : k + 4] == ["to", "do", "with"]  # "has nothing to do with"
    return t in _NEGATIONS or t.endswith("n't")


_DETERMINERS = _wordset("the a an this that its their our my your")
_NOT_PLACES = _wordset("during until unless except throughout whenever again altogether later")
_OFF_STATE = _wordset("""is are was were be been being stays stay stayed remains remain left
    kept keep keeps still""")


def _off_a_place(toks: list[str], k: int) -> bool:
    """Whether the "off" at ``k`` says where from ("read images off disk", "copy it off the
    GPU"), not that something is switched off: a thing follows it in its clause, and no
    switch verb or verb of state comes before it ("turn off dropout", "dropout is off",
    "take clipping off", "dropout off, BN frozen")."""
    after = toks[k + 1] if k + 1 < len(toks) else ""
    if not after or not (after in _DETERMINERS or (after.isalpha() and after not in STOPWORDS)):
        return False
    if after.endswith("ly") or after in _NOT_PLACES:
        return False  # "switch it off completely", "off during validation"
    before = toks[max(0, k - 4) : k]
    return not any(w in _SWITCH_VERBS for w in before) and not (before and before[-1] in _OFF_STATE)


_PRACTICE_ENDINGS = ("ing", "ation")
"""How the name of a practice ends: a gerund ("clipping") or a noun of a process
("regularisation", "normalization")."""
_PRACTICES = _wordset("dropout warmup decay")
"""Practices whose names end otherwise."""
_NOT_PRACTICES = _wordset("learning training")
"""Gerunds that are no practice taken away: "drop the learning rate" lowers it, "cut
training short" stops early."""


def _dropped(toks: list[str], sentences: list[int], closes: list[bool], k: int) -> list[str]:
    """The words of the practice a "drop", a "cut" or a "skip" at ``k`` takes away, if it
    takes one: a phrase of at most two words that ends in a gerund or a noun of a process
    ("drop gradient clipping", "drop the shuffling", "drop the regularisation"), or in
    "dropout", "warmup" or "decay" ("cut the weight decay"); a "skip" takes away only a
    check ("skip the overfit-a-batch test") or one of those three. "Drop the learning
    rate" lowers it, and so does "drop it to 1e-4"; "skip that step" and "skip bad
    batches" are remedies, "it skips computing the penalty" says how something works,
    and a skip connection is a thing. The practice closes its phrase, but for an adverb
    ("drop gradient clipping entirely"): "cut activation memory" lowers the memory."""
    if toks[k] not in _DROPS and toks[k] not in _SKIPS:
        return []
    i = k + 1
    while i < len(toks) and toks[i] in ("the", "any", "all", "your"):
        i += 1
    for j in range(i, min(i + 2, len(toks))):
        w = toks[j]
        if sentences[j] != sentences[k] or w in STOPWORDS:
            return []
        if toks[k] in _SKIPS:
            # "it skips computing the penalty" says how, "skip connections" names a thing
            named = w in _CHECKS or w in _PRACTICES
        else:
            named = w in _PRACTICES or (
                len(w) > 5 and w.endswith(_PRACTICE_ENDINGS) and w not in _NOT_PRACTICES
            )
        if named:
            after = j + 1
            if (
                after < len(toks)
                and sentences[after] == sentences[k]
                and not closes[j]
                and toks[after] not in STOPWORDS
                and toks[after] not in _NOT_PLACES
                and not toks[after].endswith("ly")
            ):
                return []  # the head comes after: "cut activation memory"
            return toks[i : j + 1]
    return []


def analyse(text: str, plain_words: bool = False) -> Polarity:
    """The directions and negations of ``text``; ``plain_words`` for a candidate's words,
    where a direction about steps is about the learning rate (``_SIZE_OF_A_STEP``)."""
    return _analyse(*_tokens(text), plain_words)


def _analyse(
    toks: list[str], sentences: list[int], closes: list[bool], plain_words: bool = False
) -> Polarity:
    mentions = []
    negated = False
    scoped: set[str] = set()
    removed: set[str] = set()
    drops: set[int] = set()
    for k in range(len(toks)):
        practice = _dropped(toks, sentences, closes, k)
        if practice:
            # "drop gradient clipping": do without it
            drops.add(k)
            negated = True
            stems = set(_split(frozenset(stem(w) for w in practice)))
            scoped.update(stems)
            removed.update(stems)
            continue
        prefixed = _NOT_PREFIXED.match(toks[k])
        if prefixed:
            # "keep validation un-augmented": the word negates itself
            negated = True
            scoped.add(stem(prefixed.group(1)))
            continue
        if _is_negation(toks, k, closes):
            negated = True
            scope: list[str] = []
            # "dropout on in train, off in eval": what follows says when, not what is off
            when = toks[k] == "off" and k + 1 < len(toks) and toks[k + 1] in _WHEN_AFTER_OFF
            scope_end = k + 1 if when else min(k + 6, len(toks))
            for i in range(k + 1, scope_end):
                if toks[i] in _CLAUSE_BREAKS or sentences[i] != sentences[k]:
                    break
                scope.append(toks[i])
            # "don't raise the learning rate" is a direction, judged by direction_conflict;
            # "isn't distributed like the training data" says they differ, not that
            # nothing is distributed; "forgot to turn off dropout" leaves it on
            if (
                not any(
                    w in _UP_WORDS or w in _DOWN_WORDS or w in _SAME_WORDS or w in _LIKENESS
                    for w in scope
                )
                and not any(w in _UNDONE for w in toks[max(0, k - 3) : k])
                and not _equative(scope)
            ):
                stems = {stem(w) for w in scope if w not in STOPWORDS | _NEGATIONS}
                scoped.update(stems)
                if toks[k] in _REMOVALS or toks[k] in _NEEDS_NEXT or _told_not_to_use(toks, k):
                    removed.update(stems)
            if toks[k] == "off":
                # "take gradient clipping off": the words between the verb and "off"
                verb = next(
                    (i for i in range(k - 1, max(-1, k - 5), -1) if toks[i] in _SWITCH_VERBS),
                    None,
                )
                if verb is not None and not any(
                    w in _UNDONE for w in toks[max(0, verb - 3) : verb]
                ):
                    between = toks[verb + 1 : k]
                    if not any(w in _CLAUSE_BREAKS for w in between):
                        stems = {stem(w) for w in between if w not in STOPWORDS}
                        scoped.update(stems)
                        removed.update(stems)
    for k, t in enumerate(toks):
        if k in drops:
            continue  # a removal, not a direction
        stays = t == "where" and _stays_put(toks, sentences, closes, k)
        if t in ("up", "down"):
            # a particle after a verb: "scale it up", "bring the rate down"
            if k == 0 or toks[k - 1] in _NOT_DIRECTIONAL_BEFORE:
                continue
            d = UP if t == "up" else DOWN
        elif t in _RAMPS:
            # "ramp the learning rate to its peak" goes up; "ramp it down" says so itself
            if "down" in toks[k + 1 : k + 6]:
                continue
            d = UP
        elif t in _UP_WORDS:
            d = UP
        elif t in _DOWN_WORDS:
            d = DOWN
        elif t in _SAME_WORDS or t in _CHANGES or stays:
            d = SAME
        else:
            continue
        if owns_what_is_lost(toks, k):
            continue  # "you lose the useful noise of small batches": no way to go
        # a negation up to three words before flips the word, within its sentence ("it
        # can't escape. Raise the LR" raises it); one that says something falls short
        # ("if that's not enough, lower the rate") is about that, not the word
        flipped = any(
            _is_negation(toks, i, closes)
            and sentences[i] == sentences[k]
            and "enough" not in toks[i + 1 : k]
            for i in range(max(0, k - 3), k)
        )
        # "instead of X" also negates when "of" sits just before the word.
        if (
            k >= 2
            and _NEEDS_NEXT.get(toks[k - 2]) == toks[k - 1]
            and sentences[k - 2] == sentences[k]
        ):
            flipped = True
        dirs = {d}
        if t in _CHANGES:
            if not flipped:
                continue  # "change the learning rate": up or down, said later if at all
            dirs = {SAME}
        elif flipped:
            # "don't raise it": down; "don't change it"/"not the same": up or down
            dirs = {-d} if d != SAME else {UP, DOWN}
        elif d != SAME and k >= 1 and toks[k - 1] in _EXCESS and not _comparative(t):
            # "too high", "a bit high": a problem whose fix is to lower it; "a somewhat
            # lower learning rate" is lower
            dirs = {-d}
        # a direction word that closes a clause ("As time increases, the speed of light
        # stays the same") is about that clause's words, not about the next clause's
        ends_clause = closes[k]
        near = [
            w
            for i, w in enumerate(toks[max(0, k - 4) : k + 5], start=max(0, k - 4))
            if i != k and sentences[i] == sentences[k] and not (ends_clause and i > k)
        ]
        ctx = frozenset(
            stem(w)
            for w in near
            if w not in STOPWORDS
            and w not in _UP_WORDS
            and w not in _DOWN_WORDS
            and w not in _NEGATIONS
        )
        if plain_words and ctx & _STEPS:
            ctx |= frozenset(_SIZE_OF_A_STEP)
        # what it qualifies comes before a clause break: "start small and grow the
        # model" says nothing small about growing
        obj = next(
            (stem(toks[i]) for i in _places_after(toks, sentences, closes, k, 2, _qualified)),
            None,
        )
        if ends_clause:
            obj = None
        obj = _measured(toks, sentences, k, obj)
        if t in _CHANGES and obj is None:
            obj = _subject(toks, sentences, closes, k)  # "the learning rate doesn't need to change"
        elif stays:
            obj = _run_start(toks, sentences, k)  # "keep the learning rate where it was"
        elif _too_much(toks, k) and not flipped:
            obj = _run_start(toks, sentences, k - 2)  # "the learning rate is too low"
        elif (modal := _after_modal(toks, closes, k)) is not None:
            # "the learning rate has to shrink to keep the step the same"
            obj = _run_start(toks, sentences, modal) or obj
        acts = t in _ACTING and not (t in _ALSO_ADJECTIVES and k and toks[k - 1] in _DESCRIBING)
        on_pronoun = acts and k + 1 < len(toks) and toks[k + 1] in _PRONOUNS
        phrase, head = (frozenset(), None) if ends_clause else _phrase(toks, sentences, closes, k)
        held = _held(toks, sentences, closes, k) if t in _PARTICLES else []
        if t in _ARROWS:
            # "B ↑", "N/B ↓": a typed arrow qualifies what it follows, if anything
            held = _run_before(toks, sentences, closes, k)
            obj, phrase, head = None, frozenset(), None
        if held:
            # "push Adam's beta2 up toward 0.9999": about what the particle follows
            obj, head = stem(toks[held[0]]), stem(toks[held[-1]])
            phrase = frozenset(stem(toks[i]) for i in held)
        mentions.append(
            Mention(frozenset(dirs), ctx, obj, acts and obj is not None, on_pronoun, phrase, head)
        )
    mentions.extend(_number_comparisons(toks, sentences))
    every = _scoped_after(toks, sentences, closes, _EVERY, 2) - scoped
    return Polarity(
        tuple(mentions),
        negated,
        frozenset(scoped),
        frozenset(removed),
        _only(toks, sentences, closes),
        every,
        _contrasted(toks, sentences, closes),
    )


def _too_much(toks: list[str], k: int) -> bool:
    """The direction word at ``k`` says what something is too much of, after its "is"
    ("the learning rate is too low — the optimizer is rattling around", "the rates are
    too high for this batch"): it is about that thing, whatever follows, and its fix goes
    the other way."""
    return k >= 2 and toks[k - 1] in _EXCESS and toks[k - 2] in _PUT_BE


def _held(toks: list[str], sentences: list[int], closes: list[bool], k: int) -> list[int]:
    """The named words a particle at ``k`` follows, in its clause, when a verb put them
    before it: a noun phrase opened by a determiner ("scale *the learning rate* up",
    "turn *the LR* down") or by a possessive ("push *Adam's beta2* up"), up to three
    words. None where the particle follows its verb ("scale up the batch", "I'd scale
    up") or a verb of motion ("the loss goes up")."""
    if k == 0 or toks[k - 1] in _MOTIONS:
        return []
    run = _run_before(toks, sentences, closes, k)
    if not run:
        return []
    before = run[0] - 1
    if before >= 0 and sentences[before] == sentences[k] and toks[before] in _DETERMINERS:
        return run
    owner = next((n for n, i in enumerate(run) if without_possessive(toks[i]) != toks[i]), None)
    return [] if owner is None else run[owner:]


def _run_before(toks: list[str], sentences: list[int], closes: list[bool], k: int) -> list[int]:
    """The named words, up to three, right before ``toks[k]`` in its clause."""
    run: list[int] = []
    for i in range(k - 1, max(-1, k - 4), -1):
        if sentences[i] != sentences[k] or closes[i] or not _named(toks[i]):
            break
        if not any(c.isalnum() for c in toks[i]):
            break  # a symbol is no word: "N/B = ..."
        run.insert(0, i)
    return run


_PARTICLES = frozenset(("up", "down"))
_ARROWS = frozenset(ARROW_WORDS)
"""Typed arrows ("B ↑"), the ones the embedder reads as words (``text.ARROW_WORDS``)."""
_MOTIONS = _wordset(
    """go goes going went gone come comes coming came shoot shoots shooting shot jump jumps
    jumping jumped climb climbs climbing climbed creep creeps creeping crept tick ticks
    ticking ticked move moves moving moved spike spikes spiking spiked head heads turn turns
    turned turning drift drifts drifting drifted bounce bounces bounced float floats inch
    inches inched swing swings swung kick kicks kicked"""
)
"""Verbs a thing moves by on its own: "up" after them is no act on a thing."""


def _contrasted(toks: list[str], sentences: list[int], closes: list[bool]) -> bool:
    """Whether a "not" opens a clause ("X, not Y") or a "but" follows one in its
    sentence ("not Y but X")."""
    for k, t in enumerate(toks):
        if t != "not":
            continue
        if k > 0 and closes[k - 1]:
            return True
        if any(
            toks[i] == "but" and sentences[i] == sentences[k]
            for i in range(k + 1, min(len(toks), k + 10))
        ):
            return True
    return False


_EVERY = _wordset("both all every")
_NOT_EXCLUSIVE = _wordset("not the an")
"""Words before "only" that make it no restriction ("not only", "the only one")."""


def _words_after(
    toks: list[str],
    sentences: list[int],
    closes: list[bool],
    k: int,
    most: int,
    reach: int,
    keep: Callable[[str], bool],
) -> list[str]:
    """Up to ``most`` of the ``reach`` words after ``toks[k]`` that ``keep`` takes, in
    its clause."""
    return [toks[i] for i in _places_after(toks, sentences, closes, k, reach, keep)[:most]]


def _places_after(
    toks: list[str],
    sentences: list[int],
    closes: list[bool],
    k: int,
    reach: int,
    keep: Callable[[str], bool],
) -> list[int]:
    """The indices of the ``reach`` words after ``toks[k]`` that ``keep`` takes, in its
    clause."""
    out: list[int] = []
    for i in range(k + 1, min(k + 1 + reach, len(toks))):
        if toks[i] in _CLAUSE_BREAKS or sentences[i] != sentences[k]:
            break
        if keep(toks[i]):
            out.append(i)
        if closes[i]:
            break
    return out


def _qualified(word: str) -> bool:
    """A word a direction word may qualify: no stopword, and no direction itself."""
    return word not in STOPWORDS and word not in _UP_WORDS and word not in _DOWN_WORDS


def _content(word: str) -> bool:
    return word not in STOPWORDS


def _scoped_after(
    toks: list[str], sentences: list[int], closes: list[bool], cues: frozenset[str], most: int
) -> frozenset[str]:
    """Stems of the first ``most`` content words after each of ``cues``, within its
    clause."""
    return frozenset(
        stem(w)
        for k, cue in enumerate(toks)
        if cue in cues and not closes[k]
        for w in _words_after(toks, sentences, closes, k, most, 4, _content)
    )


def _only(toks: list[str], sentences: list[int], closes: list[bool]) -> frozenset[str]:
    """``Polarity.only_stems``: up to three content words after "only" in its clause,
    or, when none follows ("the training set only"), up to three before it."""
    out: set[str] = set()
    for k, w in enumerate(toks):
        if w != "only" or (k > 0 and toks[k - 1] in _NOT_EXCLUSIVE):
            continue
        after = [] if closes[k] else _words_after(toks, sentences, closes, k, 3, 4, _content)
        if after:
            out.update(stem(a) for a in after)
            continue
        before: list[str] = []
        for i in range(k - 1, max(-1, k - 5), -1):
            if toks[i] in _CLAUSE_BREAKS or sentences[i] != sentences[k] or closes[i]:
                break
            if toks[i] not in STOPWORDS:
                before.append(toks[i])
        out.update(stem(b) for b in before[:3])
    return frozenset(out)


def widens(rubric: Polarity, answer: Polarity) -> bool:
    """The rubric text keeps something to a thing ("apply augmentation *only* to the
    training set") and the answer spreads it over that thing's kind ("add stronger
    augmentation to *both* sets", "augment *all* the splits"): the other scope."""
    return bool(rubric.only_stems & answer.every_stems)


_MEASURES = frozenset(stem(w) for w in ("number", "amount", "count"))


def _measured(toks: list[str], sentences: list[int], k: int, obj: str | None) -> str | None:
    """The thing a measure counts, as the object of the direction word at ``toks[k]``:
    "cut the number of workers" is about the workers, as "use fewer workers" is."""
    if obj not in _MEASURES:
        return obj
    for i in range(k + 1, min(len(toks) - 1, k + 4)):
        if stem(toks[i]) == obj and toks[i + 1] == "of":
            named = [
                toks[x] for x in range(i + 2, min(len(toks), i + 4)) if sentences[x] == sentences[k]
            ]
            thing = next((w for w in named if w not in STOPWORDS), None)
            return stem(thing) if thing else obj
    return obj


_VERSUS = _wordset("against versus vs vs.")


def _as_number(tok: str) -> float | None:
    try:
        return float(tok.replace(",", ""))
    except ValueError:
        return None


def _numbers_in(
    toks: list[str], sentences: list[int], k: int, span: range
) -> list[tuple[int, float]]:
    """(index, value) of the numbers among ``toks[span]`` in the sentence of word ``k``."""
    said = ((i, _as_number(toks[i])) for i in span if sentences[i] == sentences[k])
    return [(i, v) for i, v in said if v is not None]


def _number_comparisons(toks: list[str], sentences: list[int]) -> list[Mention]:
    """Two numbers set against each other ("bf16 has *7* mantissa bits *against* fp16's
    *10*"): fewer, or more, of the thing the first one counts."""
    out = []
    for k, t in enumerate(toks):
        if t not in _VERSUS:
            continue
        before = _numbers_in(toks, sentences, k, range(max(0, k - 4), k))
        after = _numbers_in(toks, sentences, k, range(k + 1, min(len(toks), k + 4)))
        if not before or not after or before[-1][1] == after[0][1]:
            continue
        (first, a), (last, b) = before[-1], after[0]
        counted = [w for w in toks[first + 1 : k] if w not in STOPWORDS]
        if not counted:
            continue  # "7 against 10" counts nothing it names
        near = toks[max(0, first - 3) : last + 1]
        ctx = frozenset(stem(w) for w in near if w not in STOPWORDS and _as_number(w) is None)
        out.append(Mention(frozenset({DOWN if a < b else UP}), ctx, stem(counted[0])))
    return out


_MODALS = _wordset("should must will would can could might may shall")
_MODALS_TO = _wordset("has have had needs need needed ought got")
"""Before "to", these make the verb after it a modal's ("the rate has to shrink")."""


def _after_modal(toks: list[str], closes: list[bool], k: int) -> int | None:
    """Where the modal before ``toks[k]`` starts, when the direction word there is said
    as a verb with no object ("the learning rate has to shrink to keep the step the
    same", "the batch should grow with the data", "it must drop by four"): what it
    qualifies is its subject, said before the modal. None when it has an object ("the
    optimiser has to reduce the step": a determiner or a content word follows)."""
    nxt = toks[k + 1] if k + 1 < len(toks) and not closes[k] else None
    if nxt is not None and (nxt in _DETERMINERS or nxt not in STOPWORDS) and not nxt[0].isdigit():
        return None
    if k >= 2 and toks[k - 1] == "to" and toks[k - 2] in _MODALS_TO:
        return k - 2
    if k >= 1 and toks[k - 1] in _MODALS:
        return k - 1
    return None


def _subject(toks: list[str], sentences: list[int], closes: list[bool], k: int) -> str | None:
    """The stem of the first word of the run of content words before the negation of the
    word at ``k`` ("the *learning* rate doesn't need to change"), within its sentence."""
    i = k - 1
    while i >= 0 and k - i <= 4 and not _is_negation(toks, i, closes):
        i -= 1
    return _run_start(toks, sentences, i) if i >= 0 else None


def _run_start(toks: list[str], sentences: list[int], k: int) -> str | None:
    """The stem of the first word of the run of up to three content words right before
    ``toks[k]``, within its sentence ("keep the *learning* rate exactly where it was")."""
    run: list[str] = []
    for j in range(k - 1, max(-1, k - 4), -1):
        w = toks[j]
        if sentences[j] != sentences[k] or w in STOPWORDS or w in _CLAUSE_BREAKS:
            break
        run.insert(0, w)
    return stem(run[0]) if run else None


def direction_conflict(rubric: Polarity, answer: Polarity) -> bool:
    """True when the answer states the opposite direction of the rubric text."""
    if not rubric.mentions or not answer.mentions:
        return False
    for r in rubric.mentions:
        # the directions about the same object decide ("more precision, but a smaller
        # range" does not say "more range"); else those with shared context words
        about = _objects(r)
        related = (
            [a for a in answer.mentions if about & _objects(a)]
            or [a for a in answer.mentions if a.context & r.context]
            or list(answer.mentions)
        )
        if not any(a.directions & r.directions for a in related):
            return True
    return False


_LIGHT_VERBS = frozenset(stem(w) for w in _wordset("make get take do go use keep put let try"))
"""Verbs a direction's next word may be that say nothing of what it qualifies."""


def _acting(p: Polarity) -> list[Mention]:
    """The directions that act on a thing ("*raise* the learning rate"; not "make it
    bigger", whose "make" is no thing)."""
    return [m for m in p.mentions if m.acts and m.object not in _LIGHT_VERBS]


def reverses_object(rubric: Polarity, answer: Polarity, opening: bool = False) -> bool:
    """True when the rubric text goes one way only and the answer says the opposite
    direction about the very thing it qualifies ("a smaller *learning* rate" against "a
    higher learning rate"), and never the same direction about it: ``direction_conflict``
    read strictly, with no fallback to nearby words or to every direction said. When the
    text acts on a thing, its acts are its way: "*lower* Adam's beta two, so the estimate
    reacts *faster*" goes down (what follows is what the act does). ``opening``: the
    answer's span holds its ``opening_pronoun``, which is what the question asks about and
    so what the text acts on ("Divide it by four" against "raise the learning rate four
    times")."""
    mentions = _acting(rubric) or list(rubric.mentions)
    said = frozenset().union(*(m.directions for m in mentions))
    if len(said) != 1:
        return False  # "start with a small learning rate, raise it slowly": both ways
    for r in mentions:
        if r.object in _LIGHT_VERBS:
            continue  # "too small, so make it bigger": "make" is no thing qualified
        related = [a for a in answer.mentions if _related(r, a) or (opening and a.on_pronoun)]
        if related and not any(a.directions & said for a in related):
            return True
    return False


def opening_pronoun(words: Sequence[str]) -> int | None:
    """The index in an answer's normalised ``words`` of a pronoun it acts on before it
    names anything ("Divide it by four", "um, I'd raise it to 0.4"): with nothing before
    it to stand for, that "it" is what the question asks about. None if a word other
    than a stopword comes first."""
    for k, w in enumerate(words):
        if w in _ACTING and k + 1 < len(words) and words[k + 1] in _PRONOUNS:
            return k + 1
        if w not in STOPWORDS:
            return None
    return None


def states_direction(rubric: Polarity, answer: Polarity) -> bool:
    """True when the rubric text goes one way only and acts on a thing it names
    ("*increase* the learning rate", not "a bigger batch gives a better model") and the
    answer says that way about it and never the other:
    ``reverses_object`` turned round, to read a misconception the answer argues for.
    Directions that act on a thing count, and others said near one of those things:
    "drop the batch size to 8 and train normally; it's basically the same thing" goes
    down about the batch size (its "the same thing" is about no thing it acts on), while
    "crank up the loss scale, multiplying the loss by a bigger constant" goes two ways
    about the loss."""
    acting = _acting(rubric)
    things = frozenset().union(*(_objects(m) for m in acting))
    said = frozenset().union(
        *(m.directions for m in rubric.mentions if m in acting or m.context & things)
    )
    if len(said) != 1 or SAME in said:
        return False
    agree = False
    for r in rubric.mentions:
        if not r.acts or r.object in _LIGHT_VERBS:
            continue
        about = _objects(r)
        for a in answer.mentions:
            if not about & _objects(a):
                continue
            if not a.directions & said:
                return False
            agree = agree or a.directions == said
    return agree


def about_the_same(rubric: Polarity, answer: Polarity) -> bool:
    """Whether some direction the answer says is about a thing a direction of the rubric
    text is about: the same object, or the one's object among the other's nearby words
    ("fp16 has *more range*" and "a *narrow range*"; not "*big activations* overflow in
    fp16", which is about the activations). A rubric direction that names no thing ("too
    small, so make it bigger") may be about anything, and so may an answer's that acts
    on a pronoun ("I would raise it")."""
    for r in rubric.mentions:
        if r.object is None:
            return True
        for a in answer.mentions:
            if a.on_pronoun or _objects(r) & _objects(a) or r.object in a.context:
                return True
            if (a.object and a.object in r.context) or (a.object is None and r.context & a.context):
                return True
    return False


_EQUATIVE = re.compile(
    r"\bas\s+(\w+)\s+as\b(?!\s+(?:possible|can|could|will|would|you|we|i|it|they|fits?|"
    r"memory|allowed|needed|necessary|feasible|affordable)\b)",
    re.IGNORECASE,
)
"""An equative ("as fast as fp16"), not one that reaches a limit ("as big as fits in
memory", "as big as possible", "as big as you can"): that one still says "the most"."""


def equatives(text: str) -> frozenset[str]:
    """Stems of what ``text`` says is "as X as" something ("run bf16 *as fast as* fp16":
    fast): the same, not more. Idioms ("as long as", "as well as") and limits ("as big as
    fits in memory") are none."""
    return frozenset(
        stem(m.group(1).lower())
        for m in _EQUATIVE.finditer(text)
        if m.group(1).lower() not in _AS_IDIOMS
    )


_AS_IDIOMS = frozenset(("long", "well", "soon", "far"))
"""The "as ... as" of "as long as", "as well as", "as soon as", "as far as": no equative."""


def compared(text: str) -> frozenset[str]:
    """Stems of what ``text`` compares: "faster", "more stable" (fast, stabl), and what it
    says does worse or better ("may generalise a little worse": general; not under a
    negation: "should not make the network worse" says it stays as it is). A noun that
    ends in "er" ("layer") counts too, harmlessly: no one says "as layer as"."""
    toks = [normalise_word(w) for w in text.split()]
    out = {stem(w) for w in toks if len(w) > 4 and w.endswith("er") and w not in STOPWORDS}
    out |= {stem(b) for a, b in pairwise(toks) if a in ("more", "less")}
    for k, w in enumerate(toks):
        if w in _JUDGED:
            before = [v for v in toks[max(0, k - 4) : k] if v not in _DEGREES]
            if before and not any(v in _NEGATIONS for v in before) and _content(before[-1]):
                out.add(stem(before[-1]))
    return frozenset(out)


_JUDGED = _wordset("worse better")
_DEGREES = _wordset("a little bit slightly somewhat much far even lot")
"""Words between a verb and the "worse" or "better" that judges it ("generalise a little
worse")."""
_UNCHANGED = _wordset("identical unchanged unaffected equal equivalent same different")
_STAYS = _PUT_BE | _wordset("stays stay remains remain")
_HEDGES = _wordset("just exactly basically essentially practically pretty much the no")
"""Words between "is" and "the same", "identical" or "no different"."""


def unchanged(text: str) -> frozenset[str]:
    """Stems of what ``text`` says stays as it is: "generalisation is identical", "the
    accuracy stays exactly the same", "is no different" (general, accuracy), or "the same
    generalisation". A negation ("isn't the same") says nothing here."""
    toks = [normalise_word(w) for w in text.split()]
    out: set[str] = set()
    for k, w in enumerate(toks):
        if w not in _UNCHANGED or (w == "different" and toks[k - 1 : k] != ["no"]):
            continue
        j = k - 1
        while j > 0 and toks[j] in _HEDGES:
            j -= 1
        if j > 0 and toks[j] in _STAYS and _content(toks[j - 1]):
            out.add(stem(toks[j - 1]))  # "generalisation is identical"
        elif w in ("same", "identical") and k + 1 < len(toks) and _content(toks[k + 1]):
            out.add(stem(toks[k + 1]))  # "the same generalisation"
    return frozenset(out)


def equates(rubric: frozenset[str], answer: frozenset[str]) -> bool:
    """Whether an answer says "as fast as" (its ``equatives``) of what a rubric sentence
    compares (its ``compared``: "bf16 is just faster to compute than fp16", "bf16 matmuls
    are quicker"): the same, not more, so it does not state the comparison."""
    return bool(rubric & answer)


def _comparative(word: str) -> bool:
    """A comparative ("lower", "bigger", "more"): says which way, not that it is too much."""
    return word.endswith("er") or word in ("more", "less")


def _named(w: str) -> bool:
    """A word that names what a direction word qualifies: not a stopword, direction or
    measure ("the *number* of workers")."""
    said = w not in STOPWORDS and w not in _UP_WORDS and w not in _DOWN_WORDS
    return said and stem(w) not in _MEASURES


def _phrase(
    toks: list[str], sentences: list[int], closes: list[bool], k: int
) -> tuple[frozenset[str], str | None]:
    """``Mention.phrase`` and ``Mention.head`` of the direction word at ``toks[k]``: the
    stems of up to three named words after it, and of the last word of the first run of
    them ("more data loader *workers*", "cut the number of *workers* and ...")."""
    at = _places_after(toks, sentences, closes, k, 6, _named)
    if not at:
        return frozenset(), None
    run = at[0]
    for i in at[1:]:
        if i != run + 1:
            break
        run = i
    return frozenset(stem(toks[i]) for i in at[:3]), stem(toks[run])


def _related(r: Mention, a: Mention) -> bool:
    """Two mentions qualify the same thing: the same object, two words of their phrases
    in common ("data loader workers" and "the number of loader workers"), or, for two
    that change something (no "same"), one's phrase is the other's head alone ("more
    data loader workers" and "the number of workers"; "far more range" is no change of
    "the same exponent range as fp32")."""
    if _objects(r) & _objects(a) or len(_split(r.phrase) & _split(a.phrase)) >= 2:
        return True
    if SAME in r.directions or SAME in a.directions:
        return False
    return (a.phrase == {r.head} and r.head is not None) or (
        r.phrase == {a.head} and a.head is not None
    )


def _split(phrase: frozenset[str]) -> frozenset[str]:
    """A phrase's stems with each hyphenated one also in its parts: "data-loader workers"
    names the "data loader workers"; a short form also its words ("beta2" names the
    "beta two")."""
    return phrase.union(
        *(w.split("-") for w in phrase if "-" in w), *(SHORT_FORMS.get(w, ()) for w in phrase)
    )


def _objects(m: Mention) -> frozenset[str]:
    """A mention's object and, for a short form ("LR"), the words it stands for."""
    if m.object is None:
        return frozenset()
    return frozenset((m.object, *SHORT_FORMS.get(m.object, ())))


def negation_differs(rubric: Polarity, answer: Polarity) -> bool:
    """One text has a negation cue and the other none (strict: for misconceptions)."""
    return rubric.negated != answer.negated


def negates_other_words(answer: Polarity, rubric_stems: frozenset[str]) -> bool:
    """The answer's negation is known to cover none of a rubric text's content words: in
    "the model doesn't have enough capacity, so make it bigger" it is about capacity,
    not the misconception "the model is underfitting, so make it bigger"."""
    return answer.negated and bool(answer.negated_stems) and not answer.negated_stems & rubric_stems


def negates(rubric: Polarity, rubric_stems: frozenset[str], answer: Polarity) -> bool:
    """The answer negates what the (positive) rubric text says: a content word of the
    rubric text falls in the scope of a negation in the answer."""
    if rubric.negated:
        return False
    return bool(answer.negated_stems & rubric_stems)


def turns_contrast(
    rubric: Polarity,
    rubric_stems: frozenset[str],
    answer: Polarity,
    answer_stems: frozenset[str],
) -> bool:
    """Both texts contrast two things ("an optimisation issue, not a generalisation
    one"), and the answer asserts what the rubric denies and denies what it asserts, and
    none of what it denies ("a generalisation problem, not an optimisation one")."""
    if not (rubric.contrasted and answer.contrasted):
        return False
    denied = rubric.negated_stems
    return (
        bool(answer.negated_stems & (rubric_stems - denied))
        and bool((answer_stems - answer.negated_stems) & denied)
        and not answer.negated_stems & denied
    )


OPPOSITE_STEMS = frozenset(t for pair in _OPPOSITES for t in pair)
"""The stems of ``_OPPOSITES``: an answer that names none of them names no opposite."""
_DENIALS = _wordset("not no never neither nor isn't isnt wasn't wasnt aren't arent")
"""Words that deny the term one or two words after them ("not overflow", "isn't an
overflow")."""


def denied_terms(norms: Sequence[str], stems: Sequence[frozenset[str]]) -> frozenset[str]:
    """The terms of ``_OPPOSITES`` that an answer (each word's normalised form and stems)
    names only right after a denial: "It's underflow, not overflow" denies overflow. A
    wider negation ("add data rather than size once it overfits") denies nothing."""
    said: set[str] = set()
    denied: set[str] = set()
    for k, word_stems in enumerate(stems):
        for term in word_stems & OPPOSITE_STEMS:
            near = norms[max(0, k - 2) : k]
            (denied if any(w in _DENIALS for w in near) else said).add(term)
    return frozenset(denied - said)


def opposite_named(
    rubric_stems: frozenset[str],
    answer_stems: frozenset[str],
    denied: frozenset[str] = frozenset(),
) -> tuple[str, str] | None:
    """(the rubric's term, the opposite the answer names instead) when the answer (its
    content stems) names the opposite of a term the rubric names, and not the term itself
    ("underfitting" against "overfitting") or only to deny it ("It's underflow, not
    overflow": ``denied``, ``denied_terms``, holds the term and not the opposite); a
    rubric that names both is not about one."""
    return next(
        (
            (term, other)
            for a, b in _OPPOSITES
            for term, other in ((a, b), (b, a))
            if term in rubric_stems
            and other not in rubric_stems
            and other in answer_stems
            and (term not in answer_stems or (term in denied and other not in denied))
        ),
        None,
    )
