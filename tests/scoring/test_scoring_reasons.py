"""Why a key point earned nothing (``scoring.reasons``): said on the card and in the CLI,
kept with the score."""

from __future__ import annotations

import dataclasses

import pytest
from rich.console import Console

from sayitout.scoring import phases, reasons
from sayitout.scoring.cadence import BACKWARD, EACH, ONCE, STEP, Cadence
from sayitout.scoring.matching import Params
from sayitout.scoring.outcomes import BIGGER, FAULT, Outcome
from sayitout.scoring.phases import OFF, Setting
from sayitout.scoring.result import AnswerScore, KeyPointResult
from sayitout.scoring.trends import GENERALISATION, NOISE, Trend


def test_each_reason_says_what_the_answer_did_and_what_the_point_needs() -> None:
    assert reasons.cadence(Cadence(STEP, ONCE)) == (
        "You call the optimizer step after each micro-batch; this point needs it once, "
        "after the last one."
    )
    assert reasons.cadence(Cadence(BACKWARD, EACH)) == (
        "You run the backward pass once, after the last one; this point needs it after "
        "each micro-batch."
    )
    assert reasons.switch(Setting(OFF, "evaluation", "dropout")) == (
        "You have it on during evaluation; this point has it off then."
    )
    assert reasons.trend(Trend("batch", NOISE, -1)) == (
        "You said bigger means more noise; this point says the opposite: bigger means less noise."
    )
    assert "bigger generalises worse" in reasons.trend(Trend("batch", GENERALISATION, -1))
    assert reasons.outcome(Outcome(fits=False, verdict=FAULT, holds=True)) == (
        "You read the check the other way round; this point says a model that can't fit "
        "the batch has a bug, not one that fits it."
    )
    assert reasons.outcome(Outcome(fits=False, verdict=BIGGER, holds=True)) == (
        "You read the check the other way round; this point says a model that can't fit "
        "the data needs to be bigger, not one that fits it."
    )
    assert reasons.opposite_term("overfit", "underfit") == (
        "You said underfitting; this point is about overfitting."
    )
    assert reasons.misconception("Raise the learning rate.") == (
        'Those words state a misconception instead: "Raise the learning rate".'
    )
    assert reasons.switch(Setting(OFF, "evaluation", phases.WANTED_MODE)) == (
        "You ask for train mode during evaluation; this point needs eval mode then."
    )
    assert reasons.reversed_words("a smaller learning rate") == (
        'You said "a smaller learning rate": the other way round from this point.'
    )
    assert reasons.removed_words("take clipping off") == (
        'You said to do without it: "take clipping off".'
    )
    assert reasons.widened_words("to both sets") == (
        'You said "to both sets": this point keeps it to one of them only.'
    )


@pytest.mark.parametrize(
    ("question_id", "answer", "point", "words"),
    [
        # a paraphrase's direction said the other way
        (
            "dl-batch-size-lr-scaling",
            "Keep the same learning rate or lower it; a bigger batch needs a smaller "
            "learning rate.",
            "linear-scaling-rule",
            "the other way round",
        ),
        # the practice the point needs, done without
        (
            "dl-loss-spikes",
            "Lower Adam's beta two toward 0.95, and take gradient clipping off so big "
            "gradients can pass.",
            "gradient-clipping",
            "do without it",
        ),
        # a point kept to one thing, spread over all of them
        (
            "dl-augmentation-leak",
            "The gap means the model isn't robust to real photos, so the fix is heavier "
            "augmentation: more colour jitter, blur, random crops. Having the copies in both "
            "sets is fine, it just gives validation more samples.",
            "augment-train-only",
            "keeps it to one of them only",
        ),
    ],
)
def test_a_point_turned_by_its_words_says_why(
    scorer, deck_rubric, question_id: str, answer: str, point: str, words: str
) -> None:
    """A key point refused because the closest words reverse its direction, drop its
    practice or widen its scope earns nothing, and the card quotes those words."""
    said = scorer.score(deck_rubric(question_id), answer)
    kp = next(k for k in said.key_points if k.id == point)
    assert kp.credit == 0
    assert kp.reason is not None and words in kp.reason
    assert "said the other way round" in said.verdict


@pytest.fixture(scope="module")
def oom_rubric(deck_rubric):
    return deck_rubric("dl-oom-keep-batch")


def test_a_point_said_at_the_other_cadence_says_why(scorer, oom_rubric) -> None:
    wrong = scorer.score(
        oom_rubric,
        "Gradient accumulation: cut the batch into four micro-batches of eight, take an "
        "optimizer step after every micro-batch, and only clear the gradients every fourth "
        "one.",
    )
    by_id = {k.id: k for k in wrong.key_points}
    assert by_id["gradient-accumulation"].status == "missed"
    assert by_id["gradient-accumulation"].reason == reasons.cadence(Cadence(STEP, ONCE))
    # a point the answer never came near is missed plainly
    assert by_id["spread-across-gpus"].reason is None
    # saying it the other way round costs, like a misconception
    assert by_id["gradient-accumulation"].penalty == Params().reversal_penalty
    assert by_id["spread-across-gpus"].penalty == 0
    # the reason travels with the stored score
    again = AnswerScore.from_dict(wrong.to_dict())
    assert again.key_points == wrong.key_points


def test_a_point_said_the_other_way_round_costs_its_penalty(scorer, deck_rubric) -> None:
    """The same answer with and without the reversed claim: the reversed one scores lower
    by the penalty, and the score says what each point cost."""
    rubric = deck_rubric("dl-huge-batch")
    reversed_ = scorer.score(
        rubric,
        "Huge batches give a noisier gradient, and that noise pushes you into sharp "
        "minima. Memory limits the batch too, so try a moderate batch size.",
    )
    costs = {k.id: k.penalty for k in reversed_.key_points}
    assert costs["gradient-noise-helps"] == Params().reversal_penalty
    assert sum(costs.values()) == Params().reversal_penalty
    plain = scorer.score(rubric, "Memory limits the batch too, so try a moderate batch size.")
    assert all(k.penalty == 0 for k in plain.key_points)
    assert reversed_.score < plain.score


def test_a_right_answer_gets_no_reasons(scorer, oom_rubric) -> None:
    right = scorer.score(
        oom_rubric,
        "Gradient accumulation: four micro-batches of eight, backward on each so the "
        "gradients add up, divide each loss by four, and only call step and zero_grad after "
        "the fourth one.",
    )
    assert all(k.reason is None for k in right.key_points)


def _missed_with_reason() -> AnswerScore:
    kp = KeyPointResult(
        "gradient-accumulation",
        "Use gradient accumulation.",
        2,
        "missed",
        0.0,
        None,
        credit=0.0,
        reason=reasons.cadence(Cadence(STEP, ONCE)),
    )
    return AnswerScore("dl-oom-keep-batch", 10, "Missed it.", (kp,), None, (), None, "x")


def test_the_card_and_the_cli_say_why() -> None:
    from sayitout.cli.score_cmds import format_report
    from sayitout.tui.widgets.score_card import _details

    score = _missed_with_reason()
    console = Console(width=80, record=True)
    details = _details(score, None)
    assert details is not None
    console.print(details)
    card = " ".join(console.export_text().split())
    assert "Not counted: You call the optimizer step after each micro-batch" in card
    assert "not counted: You call the optimizer step" in format_report(score)
    # ... and what saying it the other way round cost
    kp = dataclasses.replace(score.key_points[0], penalty=15.0)
    costly = dataclasses.replace(score, key_points=(kp,))
    console = Console(width=80, record=True)
    details = _details(costly, None)
    assert details is not None
    console.print(details)
    assert "−15 Not counted: You call" in " ".join(console.export_text().split())
    assert "not counted (-15): You call" in format_report(costly)


def test_an_old_score_without_reasons_still_loads() -> None:
    d = _missed_with_reason().to_dict()
    del d["key_points"][0]["reason"]
    del d["key_points"][0]["penalty"]
    old = AnswerScore.from_dict(d).key_points[0]
    assert old.reason is None and old.penalty == 0
