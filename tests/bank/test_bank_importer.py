"""What `sayitout import` drafts: a numeric answer for a question that asks for a number."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sayitout.bank import importer
from sayitout.bank.loader import load_bank
from sayitout.bank.models import NumericAnswer

MEMORY_Q = (
    "How much GPU memory do the weights alone of a 7-billion-parameter model take in bf16? "
    "(In GB, where 1 GB is 10^9 bytes.)"
)
MEMORY_A = (
    "bf16 uses two bytes per parameter. Seven billion parameters times two bytes is "
    "fourteen billion bytes, so fourteen gigabytes. To run it you also need activations."
)


@pytest.mark.parametrize(
    ("question", "answer", "drafted"),
    [
        # the answer's stated result, in the unit the question asks in
        (MEMORY_Q, MEMORY_A, {"value": 14.0, "tolerance": 0.5, "unit": "GB"}),
        # a count is a label, not a unit; a large count must be said exactly
        (
            "How many parameters are in a fully connected layer from 4,096 inputs to "
            "4,096 outputs, with a bias?",
            "The weights are 4,096 times 4,096, which is 16,777,216. The bias adds 4,096, "
            "so the total is 16,781,312 parameters.",
            {"value": 16781312.0, "tolerance": 1680.0, "unit": ""},
        ),
        # not a whole number: 1 % either side
        (
            "The learning rate warms up linearly from 0 to 3e-4 over the first 2,000 "
            "steps. What is it at step 500?",
            "Step 500 is a quarter of the way, so it is a quarter of 3e-4, which is 7.5e-5.",
            {"value": 7.5e-5, "tolerance": 7.5e-7, "unit": ""},
        ),
        # an open question, whatever numbers its answer says
        (
            "Loss spikes every few hundred steps. What's your first debugging step?",
            "Clip the gradients at 1.0 and lower the learning rate by ten.",
            None,
        ),
        # asks for a number, but the answer states none
        ("How many layers should the model have?", "It depends on the data you have.", None),
        # the quantity is in the setup, not in what is asked
        (
            "Jack measured how far the boat sank as marbles were added. Identify the "
            "standard for his experiment.",
            "The boat with 0 marbles is the standard.",
            None,
        ),
        # the only number the answer states is the question's own
        (
            "A truck carries blocks for 10 seconds. What is the relationship between the "
            "number of blocks and the distance travelled in 10 seconds?",
            "The more blocks, the less distance it travels in 10 seconds.",
            None,
        ),
    ],
)
def test_a_question_that_asks_for_a_number_gets_a_numeric_draft(
    question: str, answer: str, drafted: dict | None
) -> None:
    assert importer.draft_numeric(question, answer) == drafted


def test_the_drafted_numeric_block_is_a_valid_numeric_answer() -> None:
    draft = importer.draft_rubric("q1", MEMORY_A, MEMORY_Q)
    assert NumericAnswer(**draft["numeric"]).unit == "GB"
    assert list(draft) == [
        "question_id",
        "version",
        "key_points",
        "misconceptions",
        "numeric",
        "hotwords",
        "model_answer",
    ]


def test_an_imported_numeric_question_is_kind_numeric_and_scores_the_number(
    tmp_path: Path,
) -> None:
    source = tmp_path / "qa.txt"
    source.write_text(
        f"Memory questions\n\n{MEMORY_Q}\n\n{MEMORY_A}\n\n"
        "Why does bf16 rarely need loss scaling?\n\n"
        "It keeps fp32's eight exponent bits, so small gradients do not underflow.\n",
        encoding="utf-8",
    )
    importer.import_text(source, "mem", tmp_path / "bank")
    deck = yaml.safe_load((tmp_path / "bank" / "question_bank" / "mem.yaml").read_text("utf-8"))
    assert [q["kind"] for q in deck["questions"]] == ["numeric", "open"]
    bank = load_bank([tmp_path / "bank"], builtin=False, user=False)
    assert not [p for p in bank.problems if p.level == "error"]
    rubric = bank.rubric(deck["questions"][0]["id"])
    assert rubric.numeric is not None and rubric.numeric.value == 14

    from sayitout.scoring import numbers

    right = numbers.judge(rubric.numeric, "Two bytes each, so 14 GB.")
    wrong = numbers.judge(rubric.numeric, "Two bytes each, so 28 GB.")
    assert right.correct and not wrong.correct
