"""What a test's outcome says (``scoring.outcomes``): "if it memorises the one batch, the
pipeline is broken" reads the sanity check backwards, in the key point's own words."""

from __future__ import annotations

import pytest

from sayitout.scoring import reasons
from sayitout.scoring.outcomes import BIGGER, FAULT, Outcome, contradiction, outcomes

A_BUG = Outcome(fits=False, verdict=FAULT, holds=True)
"""The rubric's way: a model that can't fit one batch has a bug."""


@pytest.mark.parametrize(
    "text",
    [
        "If it can't overfit one batch, it's a bug, not a tuning problem.",
        "if that fails there's a bug in the code",
        "if it can't even overfit a tiny batch, something's broken in the code",
        "If the loss won't go to zero on one batch, then the training loop is wrong.",
    ],
)
def test_a_rubric_sentence_s_outcome(text: str) -> None:
    assert outcomes(text) == (A_BUG,)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "If the model manages to memorise that one batch, the pipeline is broken; if it "
            "can't memorise it, the code is fine.",
            (Outcome(True, FAULT, True), Outcome(False, FAULT, False)),
        ),
        (
            "If it drives the loss on one batch to zero, labels are leaking.",
            (Outcome(True, FAULT, True),),
        ),
        (
            "If it stays at 2.30 on one batch too, then the pipeline is fine.",
            (Outcome(False, FAULT, False),),
        ),
        ("If it can overfit, nothing's broken in the loop.", (Outcome(True, FAULT, False),)),
        # "cannot" denies like "can't"
        ("If it cannot overfit one batch, it's a bug.", (A_BUG,)),
        # "fails to" before the fitting verb says it does not fit
        ("If it fails to memorise one batch, it's a bug.", (A_BUG,)),
        # a loss that is high, beside no low one, is a failure to fit
        (
            "If training loss is high and validation is just as bad, the model is too big, "
            "so shrink it.",
            (Outcome(False, BIGGER, False),),
        ),
        # a negation after the fitting verb is another clause's
        (
            "If it underfits, go bigger; if it overfits and you can't get more data, "
            "regularise or go smaller.",
            (Outcome(False, BIGGER, True), Outcome(True, BIGGER, False)),
        ),
        # the consequence said first, in the same clause
        ("It is a bug if it cannot overfit one batch.", (A_BUG,)),
        (
            "See how the val loss scales, make it bigger if it's underfitting, regularise or "
            "shrink if it overfits, because data is short.",
            (Outcome(False, BIGGER, True), Outcome(True, BIGGER, False)),
        ),
        # ... but not reaching back past another conditional (speech without commas)
        (
            "if it can't overfit the training data it's too small so scale it up if it "
            "overfits badly add regularisation before you shrink it",
            (Outcome(False, BIGGER, True), Outcome(True, BIGGER, False)),
        ),
        # no test outcome, or no verdict on it
        ("If the gradients are zero, something is detached.", ()),
        ("If it can overfit, check the data: labels mismatched with the inputs.", ()),
        ("See if it can memorise ten examples.", ()),
        # "if" after a verb that asks is a question, not a condition
        (
            "How I'd know it's a bug: train on one small batch and see if the model can "
            "memorise it.",
            (),
        ),
        # ... but after a pause it opens one
        (
            "Run the single-batch overfit test: if the model manages to memorise one "
            "batch, that tells you the model is broken.",
            (Outcome(True, FAULT, True),),
        ),
    ],
)
def test_the_outcomes_an_answer_states(text: str, said: tuple[Outcome, ...]) -> None:
    assert outcomes(text) == said


@pytest.mark.parametrize(
    ("answer", "contradicted"),
    [
        ("If it gets to 100% on that batch, the pipeline is broken.", True),
        (
            "Overfit one batch. If it can't, everything is wired correctly and you just need "
            "to train longer.",
            True,
        ),
        # the rubric's way, also when said from the other side
        ("If it can't overfit a single batch, there's a bug.", False),
        ("If it can overfit one batch, the model and loop are fine.", False),
        # backwards once is backwards, whatever else the answer says
        (
            "If the model memorises one batch, the optimizer is broken, and if it can't, the "
            "problem is in the data loader.",
            True,
        ),
    ],
)
def test_an_answer_reading_the_check_backwards(answer: str, contradicted: bool) -> None:
    assert (contradiction((A_BUG,), outcomes(answer)) is not None) is contradicted


BIGGER_IF_IT_CANT = Outcome(fits=False, verdict=BIGGER, holds=True)
"""dl-model-size's way: a model that can't fit the data should be bigger."""


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("If it can't overfit, it's too small, so make it bigger.", (BIGGER_IF_IT_CANT,)),
        ("if it can't even fit the training data, add capacity", (BIGGER_IF_IT_CANT,)),
        (
            "If the training loss stays high, the model is too big to settle, so shrink it.",
            (Outcome(False, BIGGER, False),),
        ),
        (
            "If it underfits, make it bigger; if it overfits, add data or regularise "
            "before you shrink it.",
            (BIGGER_IF_IT_CANT, Outcome(True, BIGGER, False)),
        ),
        # more of something else is no size of the model
        ("If it overfits, get more data.", ()),
    ],
)
def test_outcomes_bound_to_the_model_s_size(text: str, said: tuple[Outcome, ...]) -> None:
    assert outcomes(text) == said


def test_a_model_size_read_backwards_earns_nothing(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-model-size")
    wrong = scorer.score(
        rubric,
        "If the training loss stays high, the model is too big to settle, so shrink it; if "
        "it overfits, it's too small to generalise, so make it bigger.",
    )
    assert wrong.score <= 30
    assert any(k.reason == reasons.outcome(BIGGER_IF_IT_CANT) for k in wrong.key_points)


def test_a_backwards_check_earns_no_key_point_and_says_why(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-accuracy-at-chance")
    wrong = scorer.score(
        rubric,
        "Try overfitting a single batch. If it gets to 100% on that batch, the pipeline is "
        "broken, because a correct model shouldn't memorise; if it can't, everything is "
        "wired correctly and you just need to train for longer.",
    )
    point = next(k for k in wrong.key_points if k.id == "bug-not-tuning")
    assert point.credit == 0 and point.reason == reasons.outcome(A_BUG)
    assert "said the other way round" in wrong.verdict
    assert wrong.score <= 40
    right = scorer.score(
        rubric,
        "Try overfitting a single batch first. If it can't even get that one batch to 100%, "
        "it's a bug, not a tuning problem: check the labels, the gradients and the loop.",
    )
    assert next(k for k in right.key_points if k.id == "bug-not-tuning").status == "covered"
