"""The loader: a good bank loads; every bad input gives the right file, line and fix."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from sayitout.bank.loader import Bank, load_bank, load_rubric_file
from sayitout.bank.problems import Problem
from sayitout.errors import BankError, UsageError

DECK = """\
id: mine
title: My deck
questions:
- id: mine-open
  text: Why do we normalise inputs?
  kind: open
  topics: [data, optimisation]
- id: mine-number
  text: What is two plus two?
  kind: numeric
  topics: [arithmetic]
"""

OPEN_RUBRIC = """\
question_id: mine-open
key_points:
- id: scale
  text: Features on similar scales make the loss surface better conditioned.
  weight: 2
- id: speed
  text: Optimisation converges faster.
- id: stats
  text: Use statistics from the training set only.
model_answer: Normalising puts features on similar scales so training converges faster.
"""

NUMBER_RUBRIC = """\
question_id: mine-number
key_points:
- id: add
  text: Two plus two is four.
- id: check
  text: Count on your fingers to check.
- id: unit
  text: The answer has no unit.
numeric:
  value: 4
  tolerance: 0
model_answer: Four.
"""


def write(root: Path, rel: str, text: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def good(tmp_path: Path) -> Path:
    write(tmp_path, "question_bank/mine.yaml", DECK)
    write(tmp_path, "rubrics/mine/mine-open.yaml", OPEN_RUBRIC)
    write(tmp_path, "rubrics/mine/mine-number.yaml", NUMBER_RUBRIC)
    return tmp_path


def load(root: Path) -> Bank:
    return load_bank([root], builtin=False, user=False)


def only(bank: Bank) -> Problem:
    assert len(bank.problems) == 1, [str(p) for p in bank.problems]
    return bank.problems[0]


# ---------------------------------------------------------------- good banks


def test_builtin_bank_has_33_questions_and_no_errors() -> None:
    bank = load_bank()
    assert list(bank.decks) == ["deep-learning"]
    assert len(bank.questions(ready_only=False)) == 33
    assert bank.errors == [], [str(p) for p in bank.errors]
    assert bank.rubric("dl-initial-loss").question_id == "dl-initial-loss"


def test_good_bank_loads_with_its_api(good: Path) -> None:
    bank = load(good)
    assert bank.problems == []
    assert [q.id for q in bank.questions()] == ["mine-open", "mine-number"]
    assert bank.deck_of("mine-number") == "mine"
    assert bank.question("mine-number").kind == "numeric"
    assert bank.rubric("mine-number").numeric.value == 4
    assert [q.id for q in bank.questions(topics=["arithmetic"])] == ["mine-number"]
    assert [q.id for q in bank.questions(deck="mine", topics=["DATA"])] == ["mine-open"]
    assert bank.topics() == ["arithmetic", "data", "optimisation"]
    # a question's deck, as rubrics: what an answer to another of its questions is checked
    # against; none for a question the bank does not know
    assert [r.question_id for r in bank.deck_rubrics("mine-open")] == ["mine-open", "mine-number"]
    assert bank.deck_rubrics("not-a-question") == []


def test_user_bank_dir_is_loaded(sayitout_home: Path) -> None:
    from sayitout.locations import locations

    root = locations().user_bank_dir
    write(root, "question_bank/mine.yaml", DECK)
    write(root, "rubrics/mine/mine-open.yaml", OPEN_RUBRIC)
    write(root, "rubrics/mine/mine-number.yaml", NUMBER_RUBRIC)
    bank = load_bank()
    assert set(bank.decks) == {"deep-learning", "mine"}
    assert bank.deck_of("mine-open") == "mine"


def test_unknown_question_suggests_close_ids(good: Path) -> None:
    bank = load(good)
    with pytest.raises(UsageError) as info:
        bank.question("mine-nmber")
    assert "mine-nmber" in info.value.message
    assert "mine-number" in (info.value.hint or "")
    with pytest.raises(UsageError) as info:
        bank.questions(deck="mien")
    assert "mine" in (info.value.hint or "")


def test_missing_bank_dir_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not found"):
        load_bank([tmp_path / "nope"], builtin=False, user=False)
    with pytest.raises(UsageError, match="not a question bank"):
        load_bank([tmp_path], builtin=False, user=False)


# ----------------------------------------------------------------- bad input


def test_a_rubric_carries_its_question_from_the_deck(good: Path) -> None:
    """The scorer reads the question's text off the rubric (a read-back states nothing);
    the deck holds it, so a rubric file that sets it is told where it belongs."""
    bank = load(good)
    assert bank.rubric("mine-open").question == "Why do we normalise inputs?"
    assert "question" not in bank.rubric("mine-open").model_dump()
    path = write(good, "rubrics/mine/mine-open.yaml", OPEN_RUBRIC + "question: Why?\n")
    problem = next(p for p in load(good).problems if p.file == path)
    assert "question_bank/<deck>.yaml" in problem.message


def test_malformed_yaml_gives_the_yaml_error_line(good: Path) -> None:
    path = write(
        good, "rubrics/mine/mine-open.yaml", OPEN_RUBRIC.replace("weight: 2", "weight: 2\n  - x")
    )
    problem = next(p for p in load(good).problems if p.file == path)
    assert problem.line == 6
    assert "malformed YAML" in problem.message


def test_unterminated_quote_points_at_where_it_opened(good: Path) -> None:
    path = write(good, "rubrics/mine/mine-open.yaml", OPEN_RUBRIC + 'hotwords: ["oops\n')
    problem = next(p for p in load(good).problems if p.file == path)
    assert problem.line == 11
    assert "malformed YAML" in problem.message


def test_misspelt_key_suggests_the_right_one(good: Path) -> None:
    write(good, "question_bank/mine.yaml", DECK.replace("  kind: open", "  knd: open"))
    problem = only(load(good))
    assert (problem.file.name, problem.line) == ("mine.yaml", 6)
    assert "questions[0].knd: unknown key 'knd' — did you mean 'kind'?" in problem.message


def test_unknown_key_lists_allowed_keys(good: Path) -> None:
    write(good, "rubrics/mine/mine-open.yaml", OPEN_RUBRIC + "colour: blue\n")
    problem = only(load(good))
    assert problem.line == 11
    assert "unknown key 'colour'" in problem.message
    assert "allowed keys:" in problem.message and "key_points" in problem.message


def test_negative_weight_says_what_to_change(good: Path) -> None:
    write(good, "rubrics/mine/mine-open.yaml", OPEN_RUBRIC.replace("weight: 2", "weight: -1"))
    problem = only(load(good))
    assert problem.line == 5
    assert problem.message == (
        "key_points[0].weight: must be greater than 0 (got -1) — give a positive weight such as 1"
    )


def test_wrong_type_names_the_expected_type(good: Path) -> None:
    write(good, "question_bank/mine.yaml", DECK + "  answer_seconds: soon\n")
    problem = only(load(good))
    assert problem.line == 12
    assert "questions[1].answer_seconds: expected a whole number, got 'soon'" in problem.message


def test_bad_question_does_not_sink_the_rest_of_the_deck(good: Path) -> None:
    write(good, "question_bank/mine.yaml", DECK.replace("kind: numeric", "kind: number"))
    bank = load(good)
    messages = [p.message for p in bank.problems]
    assert any("must be one of 'open' or 'numeric'" in m for m in messages), messages
    assert [q.id for q in bank.questions()] == ["mine-open"]
    assert len(messages) == 1  # its rubric is not blamed as well


def test_bad_deck_header_drops_the_deck_but_not_the_others(good: Path) -> None:
    write(good, "question_bank/mine.yaml", DECK.replace("title: My deck\n", ""))
    bank = load(good)
    problem = only(bank)
    assert (problem.file.name, problem.line) == ("mine.yaml", 1)
    assert "required key 'title' is missing" in problem.message
    assert bank.decks == {}
    with pytest.raises(UsageError):
        bank.question("mine-open")


def test_missing_required_key(good: Path) -> None:
    write(good, "rubrics/mine/mine-open.yaml", OPEN_RUBRIC.replace("model_answer:", "answer:"))
    messages = [p.message for p in load(good).problems]
    assert any("required key 'model_answer' is missing" in m for m in messages), messages


def test_duplicate_ids_across_decks(good: Path) -> None:
    write(
        good,
        "question_bank/other.yaml",
        "id: other\ntitle: Other\nquestions:\n- id: mine-open\n  text: Again?\n",
    )
    problem = next(p for p in load(good).problems if p.file.name == "other.yaml")
    assert problem.line == 4
    assert "duplicate question id 'mine-open'" in problem.message
    assert "mine.yaml" in problem.message


def test_duplicate_yaml_key(good: Path) -> None:
    write(good, "rubrics/mine/mine-open.yaml", OPEN_RUBRIC + "model_answer: again\n")
    problem = only(load(good))
    assert problem.line == 11
    assert "key 'model_answer' appears twice" in problem.message


def test_deck_id_must_match_file_name(good: Path) -> None:
    write(good, "question_bank/mine.yaml", DECK.replace("id: mine\n", "id: yours\n", 1))
    problem = next(p for p in load(good).problems if "does not match" in p.message)
    assert (problem.file.name, problem.line) == ("mine.yaml", 1)
    assert "set id: mine or rename the file to yours.yaml" in problem.message


def test_rubric_that_references_nothing(good: Path) -> None:
    write(good, "rubrics/mine/mine-opn.yaml", OPEN_RUBRIC.replace("mine-open", "mine-opn"))
    problem = only(load(good))
    assert (problem.file.name, problem.line) == ("mine-opn.yaml", 1)
    assert "rubric references nothing" in problem.message
    assert "did you mean 'mine-open'?" in problem.message


def test_rubric_for_a_deck_that_does_not_exist(good: Path) -> None:
    write(good, "rubrics/ghost/mine-open.yaml", OPEN_RUBRIC)
    problem = only(load(good))
    assert "references nothing" in problem.message and "no deck 'ghost'" in problem.message


def test_question_without_rubric(good: Path) -> None:
    (good / "rubrics/mine/mine-number.yaml").unlink()
    bank = load(good)
    problem = only(bank)
    assert (problem.file.name, problem.line) == ("mine.yaml", 8)
    assert "question 'mine-number' has no rubric" in problem.message
    assert [q.id for q in bank.questions()] == ["mine-open"]
    with pytest.raises(BankError, match="no usable rubric"):
        bank.rubric("mine-number")


def test_rubric_question_id_must_match_file_name(good: Path) -> None:
    write(good, "rubrics/mine/mine-open.yaml", OPEN_RUBRIC.replace("mine-open", "mine-number"))
    problem = next(p for p in load(good).problems if p.file.name == "mine-open.yaml")
    assert problem.line == 1
    assert "question_id 'mine-number' does not match the file name 'mine-open.yaml'" in (
        problem.message
    )


def test_numeric_question_needs_numeric_block(good: Path) -> None:
    text = NUMBER_RUBRIC.split("numeric:")[0] + "model_answer: Four.\n"
    write(good, "rubrics/mine/mine-number.yaml", text)
    problem = only(load(good))
    assert "numeric question but the rubric has no 'numeric' block" in problem.message


def test_open_question_with_numeric_block(good: Path) -> None:
    write(good, "rubrics/mine/mine-open.yaml", OPEN_RUBRIC + "numeric: {value: 1, tolerance: 0}\n")
    problem = only(load(good))
    assert problem.line == 11
    assert "open question but the rubric has a 'numeric' block" in problem.message


def test_non_utf8_file(good: Path) -> None:
    data = OPEN_RUBRIC.replace("Optimisation", "Optimisation \xe9").encode("latin-1")
    write(good, "rubrics/mine/mine-open.yaml", data)
    problem = only(load(good))
    assert problem.line == 7
    assert "not UTF-8" in problem.message


@pytest.mark.parametrize("content", ["", "\n  \n", "# only a comment\n"])
def test_empty_file(good: Path, content: str) -> None:
    write(good, "rubrics/mine/mine-open.yaml", content)
    problem = next(p for p in load(good).problems if p.file.name == "mine-open.yaml")
    assert problem.line == 1
    assert "empty" in problem.message or "only comments" in problem.message


def test_no_key_points_is_an_error(good: Path) -> None:
    write(
        good,
        "rubrics/mine/mine-open.yaml",
        "question_id: mine-open\nkey_points: []\nmodel_answer: x\n",
    )
    problem = only(load(good))
    assert problem.level == "error"
    assert problem.line == 2
    assert "key_points: needs at least 1 item" in problem.message


@pytest.mark.parametrize("count", [2, 8])
def test_key_point_count_outside_3_to_7_is_a_warning(good: Path, count: int) -> None:
    points = "".join(f"- id: p{i}\n  text: point {i}\n" for i in range(count))
    write(
        good,
        "rubrics/mine/mine-open.yaml",
        f"question_id: mine-open\nkey_points:\n{points}model_answer: x\n",
    )
    bank = load(good)
    problem = only(bank)
    assert problem.level == "warning"
    assert f"{count} key points; 3 to 7" in problem.message
    assert bank.has_rubric("mine-open")


def test_todo_placeholder_is_an_error_and_not_practised(good: Path) -> None:
    write(
        good,
        "rubrics/mine/mine-open.yaml",
        "question_id: mine-open\nkey_points:\n- id: todo\n  text: 'TODO: write it'\n"
        "model_answer: 'TODO: write it'\n",
    )
    bank = load(good)
    problem = only(bank)
    assert problem.level == "error" and problem.line == 4
    assert "placeholder rubric" in problem.message
    assert [q.id for q in bank.questions()] == ["mine-number"]


def test_problem_format_is_file_line_message(tmp_path: Path) -> None:
    problem = Problem(tmp_path / "a" / "b.yaml", 3, "oops", "warning")
    assert problem.format(tmp_path) == "a/b.yaml:3: warning: oops"


# ----------------------------------------------------------- load_rubric_file


def test_load_rubric_file(good: Path) -> None:
    rubric = load_rubric_file(good / "rubrics/mine/mine-open.yaml")
    assert [kp.id for kp in rubric.key_points] == ["scale", "speed", "stats"]


def test_load_rubric_file_errors(good: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not found"):
        load_rubric_file(tmp_path / "missing.yaml")
    bad = write(tmp_path, "bad.yaml", OPEN_RUBRIC.replace("weight: 2", "weight: 0"))
    with pytest.raises(BankError) as info:
        load_rubric_file(bad)
    assert info.value.message.startswith(f"{bad}:5: key_points[0].weight")
