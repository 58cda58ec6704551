"""``sayitout check``, ``questions`` and ``import`` through the real CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from sayitout.bank.importer import draft_points, guess_terms, parse_questions, question_id
from sayitout.bank.loader import load_bank
from sayitout.cli import main
from sayitout.locations import locations

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
SEED_PLAIN = SEEDS / "000_0eac9202c32112c1.txt"  # 23 questions, no answers
SEED_ANSWERED = SEEDS / "004_2dcfad34f314357c.txt"  # 10 questions with spoken answers


@pytest.fixture
def seeds() -> Path:
    if not SEED_PLAIN.exists() or not SEED_ANSWERED.exists():
        pytest.skip(f"seed documents not found in {SEEDS}")
    return SEEDS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------- check


def test_check_builtin_bank_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check")
    assert code == 0, out
    assert out.strip().splitlines()[-1].startswith("the question bank: no problems (1 deck, 33 ")


def test_check_reports_file_line_message_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "question_bank").mkdir()
    (tmp_path / "question_bank" / "mine.yaml").write_text(
        "id: mine\ntitle: Mine\nquestions:\n- id: mine-q\n  txt: Why?\n", encoding="utf-8"
    )
    code, out, _ = run(capsys, "check", "--bank", str(tmp_path))
    assert code == 2
    lines = out.strip().splitlines()
    assert lines[0] == (
        f"{tmp_path}/question_bank/mine.yaml:4: "
        "questions[0].text: required key 'text' is missing — add it"
    )
    assert lines[1] == (
        f"{tmp_path}/question_bank/mine.yaml:5: "
        "questions[0].txt: unknown key 'txt' — did you mean 'text'?"
    )
    assert lines[-1].startswith(f"{tmp_path}: 2 errors, 0 warnings in 1 file")


def test_check_only_reports_the_given_bank(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken_user = locations().user_bank_dir / "question_bank"
    broken_user.mkdir(parents=True)
    (broken_user / "junk.yaml").write_text("[", encoding="utf-8")
    (tmp_path / "question_bank").mkdir()
    code, out, _ = run(capsys, "check", "--bank", str(tmp_path))
    assert code == 0 and "junk.yaml" not in out
    code, out, _ = run(capsys, "check")
    assert code == 2 and "junk.yaml:1: malformed YAML" in out


def test_check_missing_bank_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "--bank", str(tmp_path / "nope"))
    assert code == 2
    assert err.startswith("sayitout: bank directory not found")


# --------------------------------------------------------------- questions


def test_questions_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "questions", "--json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 33
    first = rows[0]
    assert first["id"] == "dl-initial-loss"
    assert first["deck"] == "deep-learning"
    assert first["kind"] == "numeric"
    assert "initialised 10-class classifier" in first["text"]
    assert set(first) >= {"id", "deck", "text", "kind", "topics", "answer_seconds"}


def test_questions_filters_by_deck_and_topic(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "questions", "--deck", "deep-learning", "--topic", "memory", "--json"
    )
    assert code == 0
    rows = json.loads(out)
    assert rows and all("memory" in r["topics"] for r in rows)
    code, out, _ = run(capsys, "questions", "-t", "memory,initialisation", "--json")
    both = json.loads(out)
    assert len(both) > len(rows)


def test_questions_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "questions", "--topic", "memory")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["id", "deck", "kind", "secs", "question"]
    assert any(line.startswith("dl-7b-adam-memory ") for line in lines)
    assert lines[-1].endswith("ready to practise")


def test_questions_unknown_deck(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "questions", "--deck", "deep-lerning")
    assert code == 2
    assert "no deck named 'deep-lerning'" in err and "deep-learning" in err


# ------------------------------------------------------------------ import


def test_import_answered_seed_gives_10_questions_that_pass_check(
    seeds: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "import", str(SEED_ANSWERED), "--deck", "hard-dl", "--out", str(tmp_path)
    )
    assert code == 0, out
    assert "imported 10 questions into deck 'hard-dl': 10 with an answer, 0 without" in out
    deck = yaml.safe_load((tmp_path / "question_bank" / "hard-dl.yaml").read_text("utf-8"))
    assert deck["title"] == "Hard Deep Learning Questions"
    assert deck["questions"][0] == {
        "id": "hard-dl-loss-goes-nan",
        "text": "Your loss goes to NaN. What do you do?",
        "kind": "open",
        "topics": [],
        "answer_seconds": 60,
    }
    rubric = yaml.safe_load(
        (tmp_path / "rubrics" / "hard-dl" / "hard-dl-loss-goes-nan.yaml").read_text("utf-8")
    )
    assert rubric["model_answer"].startswith("Stay calm, and work through it.")
    assert rubric["hotwords"] == ["NaN"]
    points = rubric["key_points"]
    assert 3 <= len(points) <= 7
    assert all(p["weight"] == 1 for p in points)
    assert points[0]["text"].endswith("Is the learning rate too high? Lower it.")
    assert any("PyTorch" in p["terms"] for p in points)

    code, out, _ = run(capsys, "check", "--bank", str(tmp_path))
    assert code == 0, out
    assert "no problems (1 deck, 10 questions, 10 ready to practise)" in out
    bank = load_bank([tmp_path], builtin=False, user=False)
    assert all(3 <= len(bank.rubric(q.id).key_points) <= 7 for q in bank.questions())


def test_import_plain_seed_gives_23_todo_rubrics_that_check_flags(
    seeds: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "import", str(SEED_PLAIN), "--deck", "seed-one")
    assert code == 0, out
    assert "imported 23 questions into deck 'seed-one': 0 with an answer, 23 without" in out
    user_bank = locations().user_bank_dir
    deck = yaml.safe_load((user_bank / "question_bank" / "seed-one.yaml").read_text("utf-8"))
    texts = [q["text"] for q in deck["questions"]]
    assert texts[0].endswith(
        "What cross-entropy loss should you see on the very first batch? (Natural log.)"
    )
    assert texts[-1].startswith("An image classifier scores 98% on validation")

    code, out, _ = run(capsys, "check")
    assert code == 2
    assert "23 errors, 0 warnings in 23 files" in out
    assert out.count("placeholder rubric") == 23
    bank = load_bank()
    assert bank.questions(deck="seed-one") == []
    assert len(bank.questions(deck="seed-one", ready_only=False)) == 23


def test_import_refuses_to_overwrite_without_force(
    seeds: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["import", str(SEED_ANSWERED), "--deck", "mine", "--out", str(tmp_path)]
    assert run(capsys, *args)[0] == 0
    stale = tmp_path / "rubrics" / "mine" / "mine-left-over.yaml"
    stale.write_text("question_id: mine-left-over\n", encoding="utf-8")
    code, _, err = run(capsys, *args)
    assert code == 2 and "already exists" in err and "--force" in err
    code, out, _ = run(capsys, *args, "--force")
    assert code == 0 and "removed 1 rubric file" in out
    assert not stale.exists()
    assert run(capsys, "check", "--bank", str(tmp_path))[0] == 0


def test_import_refuses_a_builtin_deck_name(
    seeds: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "import", str(SEED_ANSWERED), "--deck", "deep-learning", "--force")
    assert code == 2
    assert "a deck named 'deep-learning' already exists" in err


@pytest.mark.parametrize(
    ("content", "deck", "message"),
    [
        (None, "ok", "file not found"),
        (b"Why \xff?\n", "ok", "not UTF-8"),
        (b"Just a title\n\nSome prose without any question.\n", "ok", "no questions found"),
        (b"Why?\n", "Bad Name", "'Bad Name' is not a valid deck name"),
    ],
)
def test_import_bad_input(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes | None,
    deck: str,
    message: str,
) -> None:
    source = tmp_path / "in.txt"
    if content is not None:
        source.write_bytes(content)
    code, out, err = run(
        capsys, "import", str(source), "--deck", deck, "--out", str(tmp_path / "o")
    )
    assert code == 2
    first = err.splitlines()[0]
    assert first.startswith("sayitout: ") and message in first
    assert "Traceback" not in err and out == ""


# ------------------------------------------------------------ import parts


def test_parse_handles_notes_numbering_and_one_question_per_line() -> None:
    text = (
        "My questions\n\n• a bullet\n• another\n\n"
        "1. What is a tensor? (Be brief.)\n\nA tensor is an n-dimensional array.\n\n"
        "Q2: Why ReLU?\nWhy not sigmoid?\n\nSummary\n\nLeftover prose after a heading.\n"
    )
    questions = parse_questions(text)
    assert [q.text for q in questions] == [
        "What is a tensor? (Be brief.)",
        "Why ReLU?",
        "Why not sigmoid?",
    ]
    assert questions[0].answer == "A tensor is an n-dimensional array."
    assert questions[1].answer == questions[2].answer == ""


def test_draft_points_groups_short_sentences_and_caps_at_7() -> None:
    answer = " ".join(
        f"Sentence number {i} says one thing about training models well." for i in range(12)
    )
    points = draft_points(answer)
    assert len(points) == 7
    assert " ".join(points) == answer
    assert draft_points("Short. Also short. And this one is a longer sentence with words.") == [
        "Short. Also short. And this one is a longer sentence with words."
    ]


def test_guess_terms_and_ids() -> None:
    assert guess_terms("Use AdamW with fp16 on GPUs, not Adam; check the NaN in PyTorch.") == [
        "AdamW",
        "fp16",
        "GPU",
        "NaN",
        "PyTorch",
    ]
    taken: set[str] = set()
    assert (
        question_id("d", "Why do transformers use a warmup?", taken) == "d-transformers-use-warmup"
    )
    assert (
        question_id("d", "Why do transformers use a warmup?", taken)
        == "d-transformers-use-warmup-2"
    )
