"""What a test's outcome says: the model fits the one batch (or the data), or cannot,
and what that tells you about the code or the model's size.

"If the model manages to memorise that one batch, the pipeline is broken" shares nearly
all its words with "if it can't overfit one batch, it's a bug", and MiniLM places them
together; the first reads the sanity check backwards. Before a key point is credited,
the outcomes its sentences state are compared with the ones the answer states
(``Matcher._contradiction``).

Rules (documented for reviewers and candidates):

* A *conditional* opens with "if", "when", "once" or "assuming", but not "if" after a
  verb that asks ("see if it can memorise the batch": a question). Its condition runs to
  the first comma or "then" (or, with neither, to where a new clause starts: "if that
  fails there's a bug"); its consequence runs from there to the next conditional or the
  end of the sentence.
* A conditional said after its consequence, in the same clause ("make it bigger if
  it's underfitting, regularise or shrink if it overfits") binds the words before it,
  back to a comma and not past another conditional, when they hold a verdict (below);
  its condition then runs to the next comma.
* The condition says the model *fits* when it has a fitting verb ("overfit", "memorise",
  "fit", "drives the loss to zero", "gets to 100%") and no negation before it (one after
  it is another clause's: "if it overfits and you can't get more data" fits); it says
  the model *fails* when it negates one ("can't overfit", "doesn't memorise", "fails to
  fit"), says it underfits, says "fails", "stays", "stuck" of the batch or the fit ("if
  it stays at 2.30 on one batch"), says the loss stays or is high ("if the training loss
  stays high"; not beside a low one), or is only the elided "if it can't", "if that
  fails", "if not". Any other condition ("if the gradients are zero") is no test
  outcome.
* The consequence says the code has a *fault* at its first verdict word: "bug",
  "broken", "wrong", "leaking", "problem", "issue" ...; or that it is *sound*: "fine",
  "correct", "healthy", "works" .... A negation or "no"/"nothing" within the two words
  before turns it over ("nothing's broken", "not fine"). With no verdict word the
  conditional states no outcome; nor does one that sends you to look first ("if it can
  overfit, check the data: labels mismatched ...": where the bug is next, not a verdict
  on the fit).
* Or the consequence says the model should be *bigger* ("too small", "make it bigger",
  "scale it up", "add capacity", "more layers") or *smaller* ("too big", "shrink it",
  "a smaller model"): "if it can't overfit, it's too small, so make it bigger". A size
  word said of something else ("more data") is no verdict on the model.
* An answer contradicts a rubric sentence's outcome when it binds the fit and the same
  kind of verdict the other way round (the model that fits has the bug, or the one that
  fails is fine; the model whose training loss stays high is too big), whatever else it
  says: such an answer reads the check backwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from sayitout.scoring.lexicon import denies, wordset
from sayitout.scoring.text import clause_tokens, ends_sentence

FAULT, BIGGER = "fault", "bigger"
"""The verdicts an outcome is bound to: the code has a fault (or is sound); the model
should be bigger (or smaller)."""


@dataclass(frozen=True)
class Outcome:
    """A test's outcome bound to a verdict: whether the model fits, which verdict
    (``FAULT`` or ``BIGGER``), and whether the verdict holds (a fault; bigger) or its
    opposite (sound; smaller)."""

    fits: bool
    verdict: str
    holds: bool


_OPENERS = wordset("if when once assuming")
_ASKING = wordset("see check checking test testing ask asking know tell find")
"""Verbs after which "if" opens a question, not a condition: "see if the model can
memorise it" asks what the test will show."""


def _asks(word: tuple[str, str]) -> bool:
    """The word (normalised, raw) right before an "if" makes it a question: an asking
    verb, with no pause after it ("the overfit test: if it memorises ..." is a
    condition)."""
    return word[0] in _ASKING and word[1][-1:].isalnum()


_FIT_PREFIXES = ("overfit", "memoris", "memoriz")
_FIT_WORDS = wordset("fit fits fitting fitted")
_TO_ZERO = wordset(
    "drive drives driving drop drops dropping go goes get gets getting reach reaches"
)
_ZERO = wordset("zero 0 100% hundred")
_FAILS = wordset("fail fails failed failing unable stays stay stuck plateaus")
_FAILS_TO = wordset("fail fails failed failing unable")
"""Before a fitting verb, what says the model does not fit ("if it fails to memorise")."""
_FAIL_PREFIXES = ("underfit",)
_HIGH = wordset("high higher flat")
"""What a loss that fails to fall stays ("if the training loss stays high", "is high")."""
_LOW = wordset("low lower zero")
"""Beside a high loss, a low one: "if training loss is low but validation is high" is
the gap of a model that fits, no failure to fit."""
_ELIDED = wordset(
    """it that this the model net network can't cannot couldn't doesn't don't won't isn't
    fails fail not even still so"""
)
_NEW_CLAUSE = wordset("there's there that's it's something's something you you'll")
_FAULT = wordset(
    """bug bugs buggy broken wrong leak leaks leaking leaked problem problems issue issues
    fault faulty error errors misaligned mismatch mismatched"""
)
_SOUND = wordset("fine correct correctly healthy works working ok okay sound alright")
_BIGGER = wordset("""bigger larger grow enlarge widen deepen capacity up more""")
_SMALLER = wordset("smaller shrink shrinking reduce cut down fewer")
_SIZES = wordset("small big large")
_TOO = wordset("too overly")
_NONE = wordset("no nothing nothing's none")
_LOOK = wordset("check checking look inspect examine print verify debug")


def _sentences(text: str) -> list[list[tuple[str, str]]]:
    """The text's normalised words, each with its raw form, cut into sentences."""
    return clause_tokens(text, (), ends_sentence)


def _fits(cond: list[str]) -> bool | None:
    """Whether the condition says the model fits (True), fails (False), or neither."""
    if any(w.startswith(_FAIL_PREFIXES) for w in cond) or (
        "loss" in cond and any(w in _HIGH for w in cond) and not any(w in _LOW for w in cond)
    ):
        return False  # "if it underfits", "if the training loss stays high", "is high"
    fit_at = next(
        (k for k, w in enumerate(cond) if w.startswith(_FIT_PREFIXES) or w in _FIT_WORDS), None
    )
    fitting = fit_at is not None or (
        any(w in _TO_ZERO for w in cond) and any(w in _ZERO for w in cond)
    )
    negated = any(denies(w) for w in cond)
    if fitting:
        # a negation after the fitting verb is another clause's: "if it overfits and you
        # can't get more data" says it fits; "if it fails to memorise" says it does not
        if fit_at is None:
            return not negated
        return not any(denies(w) or w in _FAILS_TO for w in cond[:fit_at])
    failing = negated or any(w in _FAILS for w in cond)
    if failing and (
        all(w in _ELIDED for w in cond) or ("batch" in cond and any(w in _FAILS for w in cond))
    ):
        return False
    return None


def _verdict(cons: list[str]) -> tuple[str, bool] | None:
    """The consequence's first verdict: (``FAULT``, whether the code has one) or
    (``BIGGER``, whether the model should grow: "too small", "make it bigger" / "too
    big", "shrink it"); None when it has none, or tells you where to look first ("check
    the data: labels mismatched ..." sends you on, it is no verdict)."""
    for i, w in enumerate(cons):
        if w in _LOOK:
            return None
        before = cons[max(0, i - 2) : i]
        if w in _FAULT or w in _SOUND:
            turned = any(denies(x) or x in _NONE for x in before)
            return FAULT, (w in _FAULT) != turned
        if w in _SIZES and before and before[-1] in _TOO:
            return BIGGER, w == "small"  # "too small": make it bigger
        if (w in _BIGGER or w in _SMALLER) and _sized(cons, i):
            return BIGGER, w in _BIGGER
    return None


def _sized(cons: list[str], i: int) -> bool:
    """Whether the size word at ``i`` is said of the model ("make it bigger", "scale it
    up", "add capacity", "shrink the model"), not of something else ("more data")."""
    w = cons[i]
    if w == "capacity":
        return True
    if w in ("up", "down"):
        return i > 0 and cons[i - 1] in ("it", "model", "network")
    after = cons[i + 1 : i + 3]
    if w == "more" or w == "fewer":
        return bool(after) and after[0] in ("layers", "parameters", "params", "capacity")
    return (
        not after
        or after[0] in ("it", "model", "network", "the", "net")
        or (cons[i - 1] in ("it", "model") if i else False)
    )


def _split(seg: list[tuple[str, str]]) -> int | None:
    """Where a conditional's condition ends (the index its consequence starts at)."""
    for k, (w, raw) in enumerate(seg):
        if w == "then":
            return k
        if raw.endswith(","):
            return k + 1
    words = [w for w, _ in seg]
    for k in range(1, len(words)):
        if words[k] in _NEW_CLAUSE and _fits(words[:k]) is not None:
            return k
    return None


def outcomes(text: str) -> tuple[Outcome, ...]:
    """The test outcomes ``text`` binds to a verdict (see the module docstring)."""
    out: list[Outcome] = []
    for sentence in _sentences(text):
        starts = [
            i
            for i, (w, _) in enumerate(sentence)
            if w in _OPENERS and not (w == "if" and i > 0 and _asks(sentence[i - 1]))
        ]
        for n, i in enumerate(starts):
            seg = sentence[i + 1 : starts[n + 1] if n + 1 < len(starts) else len(sentence)]
            first = _consequence_first(sentence, i, seg)
            if first is not None:
                out.append(first)
                continue
            cut = _split(seg)
            if cut is None:
                continue
            cond = [w for w, _ in seg[:cut]]
            cons = [w for w, _ in seg[cut:] if w != "then"]
            fits, verdict = _fits(cond), _verdict(cons)
            if fits is not None and verdict is not None:
                out.append(Outcome(fits, *verdict))
    return tuple(out)


def _consequence_first(
    sentence: list[tuple[str, str]], i: int, seg: list[tuple[str, str]]
) -> Outcome | None:
    """The outcome of a conditional at ``i`` said after its consequence, in the same
    clause ("make it bigger if it's underfitting, regularise or shrink if it overfits"):
    the words before the opener, back to a comma, hold a verdict, and the condition runs
    to the next comma. None when the opener starts its clause or the words before it
    hold no verdict, or reach back to another conditional (unpunctuated speech: "...
    it's too small so scale it up if it overfits badly add regularisation" is the
    earlier conditional's consequence, then a new one)."""
    start = i
    while start > 0 and not sentence[start - 1][1].endswith(","):
        start -= 1
        if sentence[start][0] in _OPENERS:
            return None
    before = [w for w, _ in sentence[start:i]]
    verdict = _verdict(before) if before else None
    if verdict is None:
        return None
    end = next((k + 1 for k, (_, raw) in enumerate(seg) if raw.endswith(",")), len(seg))
    fits = _fits([w for w, _ in seg[:end]])
    return None if fits is None else Outcome(fits, *verdict)


def contradiction(points: tuple[Outcome, ...], said: tuple[Outcome, ...]) -> Outcome | None:
    """The first of ``points`` (a rubric sentence's outcomes) that ``said`` (the
    answer's) binds the other way round, or None."""
    for p in points:
        if any(s.verdict == p.verdict and (s.fits == p.fits) != (s.holds == p.holds) for s in said):
            return p
    return None
