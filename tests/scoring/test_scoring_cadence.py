"""How often the optimizer steps (``scoring.cadence``): gradient accumulation said the other
way round ("call step after every micro-batch") is four small updates, not the key point."""

from __future__ import annotations

import pytest

from sayitout.scoring.cadence import (
    BACKWARD,
    EACH,
    ONCE,
    STEP,
    ZERO,
    Cadence,
    agrees,
    cadences,
    contradiction,
)

RUBRIC = cadences(
    "Divide each micro-batch loss by the number of accumulation steps, and only call step "
    "and zero grad after the last one, so the update matches a batch of 32."
)


def test_a_rubric_sentence_s_cadences() -> None:
    # "accumulation steps" and "each micro-batch loss" say no cadence of an action
    assert (Cadence(STEP, ONCE), Cadence(ZERO, ONCE)) == RUBRIC
    assert cadences("add up their gradients before one optimizer step") == (Cadence(STEP, ONCE),)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("call optimizer.step() after every micro-batch", {(STEP, EACH)}),
        ("do an optimizer step after each one", {(STEP, EACH)}),
        # "step" as a verb on the optimizer
        ("stepping the optimizer after every micro-batch", {(STEP, EACH)}),
        ("step the optimizer once, after the fourth", {(STEP, ONCE)}),
        ("update the weights after each micro batch", {(STEP, EACH)}),
        ("take a step every chunk", {(STEP, EACH)}),
        (
            "call backward on each micro-batch and step once after the fourth",
            {(BACKWARD, EACH), (STEP, ONCE)},
        ),
        ("call optimizer dot step every fourth iteration", {(STEP, ONCE)}),
        ("only zero the gradients every four micro-batches", {(ZERO, ONCE)}),
        # a count of examples says nothing of the micro-batches
        ("have the optimizer step every 8 examples instead", set()),
        ("step every 8 examples, so over several optimizer steps", {(STEP, EACH)}),
        ("zero_grad() at the end", {(ZERO, ONCE)}),
        # no frequency of the micro-batches, or no action
        ("zero the grads after every optimizer step", set()),
        ("use four accumulation steps of eight each", set()),
        ("that's the same as one step on thirty-two", set()),
        # a negation takes the cadence back
        ("don't call step after each micro-batch", set()),
        # the backward pass
        (
            "run two batches of sixteen, backward on each, then step once",
            {(BACKWARD, EACH), (STEP, ONCE)},
        ),
        (
            "do the backward on each and only call the optimizer step after the fourth one",
            {(BACKWARD, EACH), (STEP, ONCE)},
        ),
        ("add up the gradients from each backward pass", {(BACKWARD, EACH)}),
        ("call loss.backward() on every micro-batch", {(BACKWARD, EACH)}),
        (
            "keep the activations and run a single backward pass over them at the end",
            {(BACKWARD, ONCE)},
        ),
        ("then you do one big backward pass over the whole lot", {(BACKWARD, ONCE)}),
        # backward passes as the unit another action is counted in
        ("only call optimizer.step once every few backward passes", {(STEP, ONCE)}),
        ("recompute activations in the backward pass", set()),
        # an arrow between steps ends the clause: the backward pass is not every fourth
        ("loss / 4 each micro-step → backward → zero_grad every 4th", {(ZERO, ONCE)}),
        # every arrow a typed answer uses (text.STEP_ARROWS), as the restating reader does
        ("loss / 4 each micro-step ⇒ backward ⇒ zero_grad every 4th", {(ZERO, ONCE)}),
        ("loss / 4 each micro-step ⟶ backward ⟶ zero_grad every 4th", {(ZERO, ONCE)}),
        # a count of updates is a step per micro-batch, whatever else the clause says
        ("split the optimizer step into four smaller updates of a quarter each", {(STEP, EACH)}),
        ("it spreads one forward pass over several optimizer steps", {(STEP, EACH)}),
        ("so the four updates add up to one batch of thirty-two", {(STEP, EACH)}),
        # counts of micro-batches, of updates per epoch, or of what is not done
        ("accumulate gradients over four steps", set()),
        ("you make a quarter as many updates per epoch", set()),
        ("you get one update, instead of four noisy updates", set()),
        ("one update rather than four small updates", set()),
        ("you don't take four separate updates", set()),
        # a bare "update" before its frequency is the optimizer's step
        ("and update once every four", {(STEP, ONCE)}),
        ("we update after each micro-batch, which is noisier", {(STEP, EACH)}),
        ("each update sees 32 examples", set()),
        # "without" takes the action after it back, as a negation does
        ("backprop each one without an optimizer step", {(BACKWARD, EACH)}),
        ("accumulate without zeroing the grads after each micro-batch", set()),
        # nor is an action done "instead of" or "rather than" the one said
        ("add up the gradients from each piece instead of updating after every piece", set()),
        ("rather than stepping the optimizer after each micro-batch", set()),
    ],
)
def test_what_cadence_a_text_states(text: str, said: set[tuple[str, str]]) -> None:
    assert {(c.action, c.frequency) for c in cadences(text)} == said


@pytest.mark.parametrize(
    ("answer", "contradicted"),
    [
        # the step after every micro-batch: right zeroing does not make up for it
        (
            "Call optimizer.step() after each one, but only zero the gradients every fourth "
            "micro-batch.",
            True,
        ),
        ("Split into four, update the weights after each micro-batch.", True),
        # the key point's way, or no cadence at all
        ("Backward on each micro-batch, then step and zero_grad after the fourth.", False),
        ("Accumulate the gradients over four micro-batches of eight.", False),
        # both ways: not the other way only
        ("Step after each micro-batch? No: step once, after the last one.", False),
    ],
)
def test_an_answer_stepping_the_other_way(answer: str, contradicted: bool) -> None:
    assert (contradiction(RUBRIC, cadences(answer)) is not None) is contradicted


def test_stepping_after_every_micro_batch_earns_no_accumulation_point(reversal_check) -> None:
    reversal_check(
        "dl-oom-keep-batch",
        wrong="Gradient accumulation: cut the batch into four micro-batches of eight, take an "
        "optimizer step after every micro-batch, and only clear the gradients every fourth "
        "one, so the effective batch stays thirty-two.",
        right="Gradient accumulation: four micro-batches of eight, backward on each so the "
        "gradients add up, divide each loss by four, and only call step and zero_grad after "
        "the fourth one.",
        points={"gradient-accumulation", "scale-loss-step-once"},
        covered=True,
    )


def test_splitting_the_update_into_four_earns_no_accumulation_point(reversal_check) -> None:
    """ "Keep the forward pass at thirty-two and split the optimizer step into four smaller
    updates" is gradient accumulation the other way round: four updates, no memory saved."""
    reversal_check(
        "dl-oom-keep-batch",
        wrong="Gradient accumulation the other way round: keep the forward pass at thirty-two "
        "and split the optimizer step into four smaller updates of a quarter each, so each "
        "update needs a quarter of the memory.",
        right="Gradient accumulation: four micro-batches of eight, backward on each so the "
        "gradients add up, divide each loss by four, and only call step and zero_grad after "
        "the fourth one.",
        points={"gradient-accumulation", "scale-loss-step-once"},
        covered=True,
    )


ONE_BACKWARD = cadences(
    "Keep the activations of all four micro-batches and run a single backward pass over "
    "them at the end."
)


@pytest.mark.parametrize(
    ("answer", "agreed"),
    [
        ("Keep every chunk's activations, then do one big backward pass over the lot.", True),
        ("Call backward on each micro-batch and step after the fourth.", False),
        # both ways
        ("One backward at the end? No, backward on each micro-batch.", False),
    ],
)
def test_an_answer_doing_a_misconception_s_cadence(answer: str, agreed: bool) -> None:
    assert agrees(ONE_BACKWARD, cadences(answer)) is agreed


def test_one_backward_pass_over_kept_activations_is_the_misconception(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-oom-keep-batch")
    wrong = scorer.score(
        rubric,
        "Gradient accumulation: run four chunks of eight forward, hold on to all their "
        "activations, and then do one big backward pass over everything before the "
        "optimizer step.",
    )
    assert "one-backward-at-end" in {m.id for m in wrong.misconceptions}
    assert "gradient-accumulation" not in {k.id for k in wrong.key_points if k.credit > 0}
    assert wrong.score <= 30


def test_an_action_waits_for_a_frequency_said_before_before() -> None:
    """An action after "before" does not take a frequency said before it: "the gradients
    from each chunk add up before you update the weights" does not update at each chunk."""
    said = cadences(
        "let the gradients from each chunk add up before you actually update the weights"
    )
    assert ("step", "each") not in {(c.action, c.frequency) for c in said}
    assert cadences("update the weights after each chunk") == (Cadence("step", "each"),)


def test_plain_words_gradient_accumulation_is_not_four_small_updates(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-oom-keep-batch")
    got = scorer.score(
        rubric,
        "Feed the 32 examples through in smaller chunks, say four chunks of eight, and let "
        "the gradients from each chunk add up before you actually update the weights. The "
        "update then reflects the same 32 examples as before, but only eight sit in memory "
        "at once.",
    )
    assert "gradient-accumulation" in {k.id for k in got.key_points if k.status == "covered"}
    assert got.score >= 70


def test_backprop_each_without_a_step_and_update_once_every_four_is_accumulation(
    scorer,
    deck_rubric,
) -> None:
    """ "Backprop each one without an optimizer step ..., and update once every four" steps
    once per four micro-batches: no step after each, and no misconception whose only
    cadence is the right answer's own (``micro-batch-still-32`` steps once too)."""
    rubric = deck_rubric("dl-oom-keep-batch")
    got = scorer.score(
        rubric,
        "Gradient accumulation. I'd run micro-batches of 8, backprop each one without an "
        "optimizer step so the gradients add up in the grad buffers, divide the loss by the "
        "number of micro-batches, and update once every four. Same gradient as a batch of 32.",
    )
    assert not got.misconceptions
    covered = {k.id for k in got.key_points if k.status == "covered"}
    assert {"gradient-accumulation", "scale-loss-step-once"} <= covered
    assert got.score >= 70
