"""How often the optimizer steps and the backward pass runs: what a bag of words cannot
tell apart.

"Call optimizer.step() after each micro-batch, and only zero the gradients every fourth"
and "only call step and zero grad after the last micro-batch" share every content word,
and MiniLM places them together; the first is four small updates, the second is gradient
accumulation. Before a key point is credited, the cadences its sentence states are
compared with the ones the answer states (``Matcher._contradicted``).

Rules (documented for reviewers and candidates):

* An *action* is the optimizer step ("optimizer.step()", "call step", "take a step",
  "one optimizer step", "step the optimizer", "update the weights", a bare "update"
  before its frequency: "and update once every four"), clearing the
  gradients ("zero_grad", "zero the gradients", "clear the grads") or the backward pass
  ("loss.backward()", "backward", "backpropagate"): "a single backward pass at the end"
  over kept activations is no gradient accumulation, "backward on each" is. "Accumulation steps"
  and "every step" are no action: "step" is one only after a verb or an article that
  makes it one.
* A *frequency* is *each* ("after each micro-batch", "after every one", "every chunk",
  "per micro-batch") or *once* ("after the last one", "after the fourth", "every fourth",
  "every four micro-batches", "once", "only at the end", "a single step", "one
  optimizer step", "one big backward pass"). "Every 8 examples" counts examples, which
  says nothing of the micro-batches: no frequency. "Each" after "on", "after" or "for" that
  ends its clause or comes before "and", "then" or "before" ("backward on each, then
  step once") is *each*. "After each optimizer step" is no frequency of the
  micro-batches, and "the same as one step on 32" compares, it does not say how often
  to step. "Each backward pass" is the backward pass at *each*; "every few backward
  passes" counts another action in them.
* Clauses end at punctuation, at an arrow between steps ("backward → step every 4th")
  and at "but", "while", "whereas", "so", "because"; "and" joins actions that share a
  frequency ("call step and zero grad after the last one").
  An action takes the nearest frequency after it in its clause, else the nearest before,
  unless "before", "until" or "till" comes between: "let the gradients from each chunk
  add up before you update the weights" does not update at each chunk.
  A negation, "without", "instead of" or "rather than" within the three words before
  the action takes the cadence back ("backprop each one without an optimizer step",
  "instead of updating after every piece").
* A count of updates is the step at *each*: "split the optimizer step into four smaller
  updates", "several optimizer steps", "the four updates add up to 32" take a step per
  micro-batch, whatever the clause's frequency words. The count must be said before
  "updates" (or "optimizer steps"), with at most two describing words between ("four
  smaller", "several noisy"): "accumulate over four steps" counts micro-batches, and
  "a quarter as many updates per epoch" counts no micro-batches. After a negation,
  "instead of" or "rather than" the count is what the answer does not do.
* An answer contradicts a rubric sentence when it does one of the sentence's actions at
  the other frequency, and never at the same one (getting the zeroing right does not make
  up for stepping after every micro-batch).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sayitout.scoring.lexicon import denies, wordset
from sayitout.scoring.text import STEP_ARROWS, clause_words

STEP, ZERO, BACKWARD = "step", "zero", "backward"
EACH, ONCE = "each", "once"


@dataclass(frozen=True)
class Cadence:
    """An action and how often it is done."""

    action: str
    frequency: str


_STEP_CALLS = frozenset(("optimizer.step", "optimiser.step", "opt.step", "step()"))
_ZERO_CALLS = frozenset(("zero_grad", "optimizer.zero_grad", "optimiser.zero_grad"))
_BACKWARD_CALLS = frozenset(("loss.backward", "backward()", "loss.backward()", ".backward()"))
_BACKWARD_WORDS = wordset(
    """backward backprop backprops backpropagate backpropagates backpropagating
    backpropagation"""
)
_STEP_WORDS = wordset("step steps stepping")
_STEP_MAKERS = wordset(
    """call calls calling called take takes taking took do does doing did optimizer
    optimiser optimizer's dot one single a an and to then only you we i"""
)
"""Words before "step" that make it the optimizer's step ("call step", "an optimizer
step", "and step once"); "accumulation steps" and "every step" are not."""
_OPTIMIZERS = wordset("optimizer optimiser")
"""What "step" as a verb acts on ("step the optimizer")."""
_UPDATES = wordset("update updates updating updated")
_UPDATED = wordset("the weights parameters params model")
_PACE_STARTS = wordset("once every each per after")
"""Words that open a frequency straight after a bare "update" ("and update once every
four", "update after each micro-batch"): the update is the optimizer's step."""
_ZERO_WORDS = wordset("zero zeroes zeros zeroing zeroed clear clears clearing cleared reset")
_GRADS = wordset("grad grads gradient gradients the")
_UNITS = wordset(
    """micro-batch micro-batches microbatch microbatches micro batch batches chunk chunks
    one ones mini-batch mini-batches minibatch forward backward pass iteration iterations
    piece pieces slice slices"""
)
"""What the micro-batches are called; "after each *step*" is not one of them."""
_EACH_WORDS = wordset("each every per")
_EXAMPLES = wordset("examples samples images sequences inputs items")
"""What a batch holds: "every 8 examples" is no count of micro-batches."""
_LAST_WORDS = wordset(
    """last final fourth 4th eighth second third fourth 4 2 8 two four eight sixteen 16
    all"""
)
_ONCE_WORDS = wordset("once")
_ON_EACH = wordset("on after for")
_THEN = wordset("and then before")
_SEVERAL = wordset("few several many couple all two three four eight 2 3 4 8 accumulated")
_OPT_STEP = ["optimizer", "step"]
_COUNTS = wordset("two three four eight sixteen several multiple 2 3 4 8 16")
_DESCRIBING = wordset(
    """small smaller separate little tiny noisy noisier individual partial distinct mini
    weight"""
)
_UPDATE_NOUNS = wordset("updates")
_STEP_NOUNS = wordset("steps updates")
_TURNING = wordset("instead than without")
"""Words before an action or a count that make it what the answer does not do ("rather
than four updates", "instead of four noisy updates", "without an optimizer step")."""
_COMPARING = wordset("as like than")
_WAITS = wordset("before until till")
"""Words after which an action waits for what came before: a frequency before them is
not the action's ("the gradients from each chunk add up before you update")."""
_BREAKS = wordset("but while whereas so because though although which instead")
_CLAUSE_END = re.compile(rf"(?:[.!?;:,()]|{'|'.join(map(re.escape, STEP_ARROWS))})$")


def _ends_clause(raw: str) -> bool:
    """Punctuation ends a clause, but not the brackets of a call ("optimizer.step()"), and
    so does an arrow between steps ("loss / 4 → backward → step every 4th": the backward
    pass is not done every fourth)."""
    return bool(_CLAUSE_END.search(raw.rstrip("\"'"))) and not raw.endswith("()")


def _clauses(text: str) -> list[list[str]]:
    return clause_words(text, _BREAKS, _ends_clause)


def _action(clause: list[str], i: int) -> str | None:
    w = clause[i]
    before = clause[i - 1] if i else ""
    after = clause[i + 1] if i + 1 < len(clause) else ""
    if w in _STEP_CALLS or (w in _STEP_WORDS and before in _STEP_MAKERS):
        return STEP
    if w in _STEP_WORDS and _OPTIMIZERS & set(clause[i + 1 : i + 3]):
        return STEP  # "stepping the optimizer after every micro-batch"
    if w in _UPDATES and (after in _UPDATED or after in _PACE_STARTS):
        return STEP  # "update the weights", "and update once every four"
    if w in _ZERO_CALLS or (w in _ZERO_WORDS and after in _GRADS):
        return ZERO
    if w in _BACKWARD_CALLS or w in _BACKWARD_WORDS:
        return BACKWARD
    return None


def _frequency(clause: list[str], i: int) -> str | None:
    """The frequency said by the words from ``i``, if one starts there."""
    w = clause[i]
    nxt = clause[i + 1 : i + 4]
    if w in _ONCE_WORDS:
        return ONCE
    if w in ("single", "one") and (
        (nxt[:1] and nxt[0] in _STEP_WORDS)
        or nxt[:2] == _OPT_STEP
        or any(x in _BACKWARD_WORDS for x in nxt[:2])
    ):
        # "the same as one step on 32" compares; it does not say how often to step
        return None if i and clause[i - 1] in _COMPARING else ONCE
    if w in _EACH_WORDS and i and clause[i - 1] in _ON_EACH and (not nxt or nxt[0] in _THEN):
        return EACH  # "backward on each, then step once"
    if w in _EACH_WORDS and nxt:
        if nxt[1:2] and nxt[1] in _EXAMPLES:
            return None  # "every 8 examples" counts examples, not micro-batches
        if nxt[0] in _LAST_WORDS and nxt[0] not in ("one", "all"):
            return ONCE  # "every fourth", "every four micro-batches"
        if nxt[0] in _UNITS or (nxt[0] == "single" and nxt[1:2] and nxt[1] in _UNITS):
            return EACH
        return None
    if w in ("after", "at") and nxt[:1] == ["the"] and nxt[1:2] and nxt[1] in _LAST_WORDS:
        return ONCE  # "after the last one", "after the fourth"
    if w == "at" and nxt[:2] == ["the", "end"]:
        return ONCE
    return None


def _counted_updates(clause: list[str], i: int) -> bool:
    """Whether a count of updates starts at ``i`` ("four smaller updates", "several
    optimizer steps") and is said, not turned over ("rather than four updates")."""
    if clause[i] not in _COUNTS:
        return False
    k = i + 1
    while k < len(clause) and k - i <= 2 and clause[k] in _DESCRIBING:
        k += 1
    noun = clause[k : k + 2]
    if not noun or not (
        noun[0] in _UPDATE_NOUNS or (noun[0] in _OPTIMIZERS and noun[1:] and noun[1] in _STEP_NOUNS)
    ):
        return False
    return not _turned(clause, i)


def _turned(clause: list[str], i: int) -> bool:
    """Whether what starts at ``i`` is what the answer does not do: a negation, "without",
    "instead of" or "rather than" within the three words before it ("backprop each one
    without an optimizer step", "instead of updating after every piece")."""
    before = clause[max(0, i - 3) : i]
    # a clause cut at "instead" opens on its "of"
    return any(denies(v) or v in _TURNING for v in before) or (clause[0] == "of" and i <= 3)


def cadences(text: str) -> tuple[Cadence, ...]:
    """The cadences ``text`` states (see the module docstring)."""
    out: list[Cadence] = []
    for clause in _clauses(text):
        out.extend(Cadence(STEP, EACH) for i in range(len(clause)) if _counted_updates(clause, i))
        freqs = [(i, f) for i in range(len(clause)) if (f := _frequency(clause, i))]
        if not freqs:
            continue
        for i in range(len(clause)):
            action = _action(clause, i)
            if action is None:
                continue
            if _turned(clause, i):
                continue  # "backprop each one without an optimizer step"
            before = clause[i - 1] if i else ""
            if action == BACKWARD and before in _EACH_WORDS:
                out.append(Cadence(action, EACH))  # "the gradients from each backward pass"
                continue
            if action == BACKWARD and before in _SEVERAL:
                continue  # "step once every few backward passes": the unit, not an action
            later = [f for k, f in freqs if k > i]
            waits = max((k for k in range(i) if clause[k] in _WAITS), default=-1)
            earlier = [f for k, f in freqs if waits < k < i]
            # "one optimizer step" says its frequency in the words that make the action
            freq = later[0] if later else earlier[-1] if earlier else None
            if freq is not None:
                out.append(Cadence(action, freq))
    return tuple(out)


def agrees(rubric: tuple[Cadence, ...], answer: tuple[Cadence, ...]) -> bool:
    """True when the answer does an action of the rubric sentence at the sentence's
    frequency and never at the other: "do one big backward pass over all the kept
    activations" states "run a single backward pass over them at the end"."""
    said = {(a.action, a.frequency) for a in answer}
    return any(
        (r.action, r.frequency) in said and (r.action, f) not in said
        for r in rubric
        for f in (EACH, ONCE)
        if f != r.frequency
    )


def contradiction(rubric: tuple[Cadence, ...], answer: tuple[Cadence, ...]) -> Cadence | None:
    """The rubric sentence's cadence the answer does only at the other frequency: "call
    step after each one, zero the gradients every fourth" against "call step and zero
    grad after the last one" is the step's. None when there is none."""
    said = {(a.action, a.frequency) for a in answer}
    for r in rubric:
        other = ONCE if r.frequency == EACH else EACH
        if (r.action, other) in said and (r.action, r.frequency) not in said:
            return r
    return None
