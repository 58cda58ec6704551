"""What a sentence puts in place of what, and a replacement said the other way round."""

from __future__ import annotations

import pytest

from sayitout.scoring.replacements import contradiction, replacements

POINT = replacements("Replace batch norm with Group Norm, which does not depend on batch size.")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Replace batch norm with Group Norm, which", [("batch norm", "group norm")]),
        ("swap out fp16 for bf16 and drop loss scaling", [("fp16", "bf16")]),
        (
            "I'd switch any group norm layers to batch norm.",
            [("any group norm layers", "batch norm")],
        ),
        ("switch from fp16 to bf16", [("fp16", "bf16")]),
        ("change the loss scale to dynamic", [("the loss scale", "dynamic")]),
        ("use pre-LN instead of post-LN", [("post-ln", "pre-ln")]),
        ("use group norm rather than batch norm", [("batch norm", "group norm")]),
        # one side only: no replacement
        ("switch to group norm", []),
        ("switch dropout off", []),
        ("replace it", []),
        # a side ends with its clause
        ("replace batch norm, and with group norm it works", []),
    ],
)
def test_what_a_sentence_replaces(text: str, said: list[tuple[str, str]]) -> None:
    assert [(r.out_text, r.into_text) for r in replacements(text)] == said


@pytest.mark.parametrize(
    ("text", "turned"),
    [
        ("so I'd switch any group norm layers to batch norm", True),
        ("use batch norm instead of group norm", True),
        ("I would replace the group norm with batch norm.", True),
        # said the rubric's way
        ("swap batch norm for group norm", False),
        ("use group norm rather than batch norm", False),
        ("switch to group norm", False),
        # said its way too: not read as the other way round
        ("swap batch norm for group norm; never switch group norm layers to batch norm", False),
        # about other things
        ("switch from fp16 to bf16", False),
    ],
)
def test_a_replacement_the_other_way_round(text: str, turned: bool) -> None:
    assert (contradiction(POINT, replacements(text)) is not None) == turned


def test_a_replacement_the_other_way_earns_nothing(reversal_check) -> None:
    """ "Switch any group norm layers to batch norm" names the words of "replace batch
    norm with group norm" and says the opposite; the card says why."""
    result = reversal_check(
        "dl-small-batch-norm",
        "Batch norm normalises each image on its own, so the batch size doesn't affect it; "
        "it's group norm that pools statistics over the batch. The noise comes from "
        "tiny-batch gradients, so I'd switch any group norm layers to batch norm.",
        "Two images per GPU give batch norm very noisy statistics, so replace batch norm "
        "with group norm, which normalises within each image.",
        {"use-group-norm"},
    )
    point = next(k for k in result.key_points if k.id == "use-group-norm")
    assert point.reason is not None and "other way round" in point.reason
