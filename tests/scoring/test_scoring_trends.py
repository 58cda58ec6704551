"""What goes with a thing's size (``scoring.trends``): "huge batches give a noisier
gradient, so they generalise better" says the key point's words the other way round."""

from __future__ import annotations

import pytest

from sayitout.scoring.trends import GENERALISATION, NOISE, Trend, contradiction, trends

NOISE_HELPS = trends("small batches are noisier and the noise acts like a regulariser")
GENERALISE_WORSE = trends("Very large batches may generalise a little worse.")


def test_a_rubric_sentence_s_trends() -> None:
    assert (Trend("batch", NOISE, -1),) == NOISE_HELPS
    assert (Trend("batch", GENERALISATION, -1),) == GENERALISE_WORSE
    assert trends("A larger batch, or gradient accumulation, averages out gradient noise.") == (
        Trend("batch", NOISE, -1),
    )
    # no size said: no trend
    assert trends("Each update is less noisy, and that gradient noise helps.") == ()


@pytest.mark.parametrize(
    ("text", "signs"),
    [
        ("Huge batches give a noisier gradient", {1}),
        ("increase the batch size so the gradient is less noisy", {-1}),
        ("bigger batches give a smoother loss curve", {-1}),
        ("shrink the batch so the gradients are cleaner", {1}),
        ("as the batch grows, the gradient gets smoother", {-1}),
        ("Small batches are noisy; bigger ones are smooth.", {-1}),
        ("With a huge batch you lose the noise that small batches give.", {-1}),
        ("a bigger batch gives you the exact gradient", {-1}),
        ("small batches are not as stable", {-1}),
        ("bigger batches average away more of the randomness", {-1}),
        # said of nothing sized before it, or an aim: no trend
        ("If it's still jumpy, bigger batches help.", set()),
        ("lower the learning rate as the batch grows to keep it stable", set()),
        # a size verb before the noise says which way the noise goes, not a size
        ("gradient accumulation reduces gradient variance", set()),
        # what the thing is compared with takes none of the words after it
        ("Huge batches are noisier than small ones, and that extra noise hurts.", {1}),
    ],
)
def test_which_way_the_noise_goes_with_the_batch(text: str, signs: set[int]) -> None:
    assert {t.sign for t in trends(text) if t.quality == NOISE and t.thing == "batch"} == signs


@pytest.mark.parametrize(
    ("text", "signs"),
    [
        ("huge batches actually generalise better", {1}),
        ("small batches tend to generalise a bit better", {-1}),
        ("larger batches give better generalisation", {1}),
        # the owner of a noise that is lost: what generalises, the owner or the thing that
        # lost its noise, is not said (a strong answer was read as "small batches
        # generalise worse" and lost the key point)
        (
            "You also lose the useful noise of small batches, which tends to push you into "
            "sharper minima that generalise worse",
            set(),
        ),
        (
            "you lose the helpful randomness of small ones, which leads to ones that "
            "generalise better",
            set(),
        ),
        (
            "Big batches also lose the helpful randomness of small ones, which tends to lead "
            "to solutions that generalise better",
            set(),
        ),
        ("the noise of small batches helps them generalise better", {-1}),
        ("you lose the noise, and small batches generalise worse", {1}),
    ],
)
def test_which_way_generalisation_goes_with_the_batch(text: str, signs: set[int]) -> None:
    assert {t.sign for t in trends(text) if t.quality == GENERALISATION} == signs


@pytest.mark.parametrize(
    ("answer", "contradicted"),
    [
        ("Huge batches have more gradient noise, and that noise is a regulariser.", True),
        ("Big batches are noisy, small ones are the smooth, accurate ones.", True),
        # the key point's way, or no trend at all
        ("Small batches are noisy, and the noise helps you find flat minima.", False),
        ("You lose the helpful gradient noise.", False),
        # both ways: not the other way only
        ("Huge batches are noisier? No: small batches are noisier.", False),
    ],
)
def test_an_answer_saying_the_noise_the_other_way(answer: str, contradicted: bool) -> None:
    assert (contradiction(NOISE_HELPS, trends(answer)) is not None) is contradicted


def test_a_reversed_trend_earns_no_key_point(reversal_check) -> None:
    reversal_check(
        "dl-huge-batch",
        wrong="A huge batch has more gradient noise, and that extra noise works as a "
        "regulariser, so huge batches end up generalising better. Small batches are the "
        "stable ones.",
        right="Small batches are noisier, and that noise works as a regulariser that finds "
        "flat minima, so very large batches generalise a little worse. They are fast per "
        "epoch, but you have to scale the learning rate up with warmup, and memory limits you.",
        points={"gradient-noise-helps", "generalise-worse"},
        covered=True,
    )


def test_a_model_answer_sentence_bundling_two_points_blocks_neither(scorer, deck_rubric) -> None:
    """The model answer's "very large batches need a higher learning rate, and they may
    generalise a little worse" joins the learning-rate point; "huge batches generalise
    better" contradicts its second half, not the learning rate."""
    rubric = deck_rubric("dl-huge-batch")
    said = scorer.score(
        rubric,
        "Huge batches actually generalise better. But you have to scale the learning rate "
        "up along with the batch size, with a warmup.",
    )
    by_id = {k.id: k for k in said.key_points}
    assert by_id["needs-higher-lr"].credit and not by_id["needs-higher-lr"].reason
    assert not by_id["generalise-worse"].credit and by_id["generalise-worse"].reason
