"""Follow-up questions in rubrics: the seed deck has them, ``check`` validates and hints."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from sayitout.bank.loader import FOLLOW_UP_WEIGHT, Bank, load_bank
from sayitout.cli import main

DECK = """\
id: mine
title: My deck
questions:
- id: mine-open
  text: Why do residual connections help?
"""

RUBRIC = """\
question_id: mine-open
key_points:
- id: gradient-path
  text: Gradients flow straight back through the shortcut.
  weight: 2
  follow_ups: ["What happens to the gradient if you remove the skip connections?"]
- id: identity
  text: A block can learn the identity.
  weight: 2
- id: deeper
  text: Much deeper networks train.
model_answer: The shortcut carries gradients back and blocks can learn the identity.
"""


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def load(root: Path) -> Bank:
    return load_bank([root], builtin=False, user=False)


@pytest.fixture
def bank_dir(tmp_path: Path) -> Path:
    write(tmp_path, "question_bank/mine.yaml", DECK)
    write(tmp_path, "rubrics/mine/mine-open.yaml", RUBRIC)
    return tmp_path


def test_every_heavy_seed_key_point_has_a_follow_up() -> None:
    bank = load_bank(user=False)
    heavy = 0
    for question in bank.questions(deck="deep-learning"):
        for kp in bank.rubric(question.id).key_points:
            if kp.weight >= FOLLOW_UP_WEIGHT:
                heavy += 1
                assert kp.follow_ups, f"{question.id}/{kp.id} has no follow-up"
            for text in kp.follow_ups:
                assert text.endswith("?") and len(text.split()) >= 3, text
    assert heavy == 108
    assert bank.hints == [] and bank.errors == []


def test_follow_ups_load_onto_their_key_point(bank_dir: Path) -> None:
    bank = load(bank_dir)
    rubric = bank.rubric("mine-open")
    assert rubric.key_points[0].follow_ups == [
        "What happens to the gradient if you remove the skip connections?"
    ]
    assert bank.problems == []
    [hint] = bank.hints
    assert hint.level == "hint" and hint.line == 7
    assert "key point 'identity' (weight 2) has no follow-up question" in hint.message


def test_follow_up_with_no_key_point_is_an_error_at_its_line(bank_dir: Path) -> None:
    write(
        bank_dir,
        "rubrics/mine/mine-open.yaml",
        RUBRIC + "follow_ups:\n- key_point: identity\n  ask: Why can it learn the identity?\n",
    )
    bank = load(bank_dir)
    [problem] = bank.errors
    assert problem.line == 13
    assert "must belong to a key point" in problem.message
    assert "move each one under the key point it probes" in problem.message
    assert not bank.has_rubric("mine-open")


@pytest.mark.parametrize(
    ("follow_ups", "expected"),
    [
        ('["a?", "b?", "c?"]', "at most 2"),
        ('["  "]', "a follow-up question is empty"),
    ],
)
def test_bad_follow_up_lists(bank_dir: Path, follow_ups: str, expected: str) -> None:
    text = RUBRIC.replace(
        '["What happens to the gradient if you remove the skip connections?"]', follow_ups
    )
    write(bank_dir, "rubrics/mine/mine-open.yaml", text)
    [problem] = load(bank_dir).errors
    assert expected in problem.message
    assert problem.line == 6


def test_imported_rubric_gets_one_hint_and_check_passes(
    bank_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flat = RUBRIC.replace("  weight: 2\n", "").replace(
        '  follow_ups: ["What happens to the gradient if you remove the skip connections?"]\n',
        "",
    )
    write(bank_dir, "rubrics/mine/mine-open.yaml", flat)
    bank = load(bank_dir)
    [hint] = bank.hints
    assert "no key point has a follow-up question (3 key points)" in hint.message
    assert main(["check", "--bank", str(bank_dir)]) == 0
    out = capsys.readouterr().out
    assert "hint: no key point has a follow-up question" in out
    assert "no problems (1 deck, 1 questions, 1 ready to practise); 1 hint" in out
