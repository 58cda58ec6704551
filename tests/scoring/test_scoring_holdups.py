"""Which thing holds the others up and which one waits, and the two turned round."""

from __future__ import annotations

import pytest

from sayitout.scoring.holdups import HOLDS, WAITS, contradiction, holdups

POINT = holdups("The GPU is waiting for work, so the bottleneck is usually the data pipeline.")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "The GPU is waiting for work, so the bottleneck is usually the data pipeline.",
            [(WAITS, "the GPU"), (HOLDS, "work"), (HOLDS, "the data pipeline")],
        ),
        (
            "the GPU is starved, the input pipeline can't keep up",
            [(WAITS, "the GPU"), (HOLDS, "the input pipeline")],
        ),
        ("the CPU side is the bottleneck", [(HOLDS, "the CPU side")]),
        ("the data loader is too slow", [(HOLDS, "the data loader")]),
        ("The GPU's waiting for work", [(WAITS, "the GPU"), (HOLDS, "work")]),
        ("a bigger GPU would just sit even more idle", [(WAITS, "a bigger GPU")]),
        (
            "The GPU is the bottleneck and the CPU data loader is sitting idle waiting for it",
            [(HOLDS, "the GPU"), (WAITS, "the CPU data loader")],
        ),
        # a pronoun names nothing; a negation states nothing
        ("it's too slow, so the CPU waits on it", [(WAITS, "the CPU")]),
        ("The GPU isn't the bottleneck; the CPU is.", []),
        ("The bottleneck is not the GPU but the dataloader.", []),
        # bottleneck blocks are a thing, not a hold-up
        ("use bottleneck blocks at fifty layers", []),
        # what starves holds up what it starves
        (
            "Most likely the data pipeline is starving the card — try more workers.",
            [(HOLDS, "the data pipeline"), (WAITS, "the card")],
        ),
        ("It's starved by the input pipeline.", [(HOLDS, "the input pipeline")]),
        # waiting said of no one
        ("Other causes: tiny kernels, or waiting on other GPUs to swap gradients.", []),
    ],
)
def test_what_a_sentence_says_holds_things_up(text: str, said: list[tuple[str, str]]) -> None:
    assert [(h.role, h.text) for h in holdups(text)] == said


@pytest.mark.parametrize(
    ("text", "turned"),
    [
        ("The GPU is the bottleneck, the model is too heavy for it.", True),
        ("That means the GPU is the bottleneck and the data loader is waiting on it.", True),
        ("The GPU is too slow, so the CPU waits on it.", True),
        # said the rubric's way
        ("The GPU sits idle waiting on the data loader.", False),
        ("The bottleneck is the CPU side: the GPU is starved.", False),
        ("Thirty percent means your GPU is starved for data.", False),
        # its way too: not read as the other way round
        ("The GPU is waiting; people think the GPU is the bottleneck, it isn't.", False),
        # about other things
        ("The disk is too slow, so cache the data.", False),
        ("The card is mostly waiting on communication across GPUs.", False),
    ],
)
def test_a_holdup_turned_round(text: str, turned: bool) -> None:
    assert (contradiction(POINT, holdups(text)) is not None) == turned


def test_the_gpu_as_the_bottleneck_earns_no_data_bottleneck(reversal_check) -> None:
    """ "The GPU is the bottleneck and the data loader is waiting on it" names the words
    of "the GPU is waiting for work, so the bottleneck is the data pipeline" and says the
    opposite (six reversed dev answers scored 38 to 73); the card says why."""
    result = reversal_check(
        "dl-gpu-utilisation",
        "The GPU is the bottleneck and the data loader is the one waiting on it, so cut the "
        "number of loader workers to free up CPU, and shrink the batch so the GPU keeps up.",
        "The GPU is idle most of the time, waiting on the data loader, so the bottleneck is "
        "the input pipeline. Profile the loop first, then add more data loader workers.",
        {"data-bottleneck"},
    )
    point = next(k for k in result.key_points if k.id == "data-bottleneck")
    assert point.reason is not None and "other way round" in point.reason
    assert "the GPU waits, not that it holds the rest up" in point.reason
