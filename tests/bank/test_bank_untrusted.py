"""Decks people share are untrusted input: a bad file is reported and skipped, never
spins, never breaks the rest of the bank; imports land whole or not at all."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from sayitout.bank import importer
from sayitout.bank.loader import LIMIT_KEY_POINTS, load_bank, load_rubric_file
from sayitout.bank.problems import MAX_ALIAS_EXPANSION, duplicate_keys, read_yaml
from sayitout.errors import BankError

GOOD_DECK = """\
id: good
title: Good
questions:
- id: good-q
  text: Why do we normalise inputs?
"""
GOOD_RUBRIC = """\
question_id: good-q
key_points:
- id: a
  text: Features on similar scales.
- id: b
  text: Faster convergence.
- id: c
  text: Better conditioning.
model_answer: Normalising helps.
"""

BOMB = "id: bomb\ntitle: Bomb\na: &a [" + ",".join(['"lol"'] * 9) + "]\n"
for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
    BOMB += f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]\n"
BOMB += "questions:\n- id: bomb-q\n  text: Why?\n  topics: *i\n"


def _bank(tmp: Path, decks: dict[str, str], rubrics: dict[str, dict[str, str]]) -> Path:
    root = tmp / "bank"
    (root / "question_bank").mkdir(parents=True)
    for name, text in decks.items():
        (root / "question_bank" / f"{name}.yaml").write_text(text)
    for deck, files in rubrics.items():
        (root / "rubrics" / deck).mkdir(parents=True, exist_ok=True)
        for qid, text in files.items():
            (root / "rubrics" / deck / f"{qid}.yaml").write_text(text)
    return root


def _load(root: Path):
    return load_bank([root], builtin=False, user=False)


def _with_good(tmp: Path, name: str, deck: str) -> Path:
    return _bank(tmp, {"good": GOOD_DECK, name: deck}, {"good": {"good-q": GOOD_RUBRIC}})


def test_alias_bomb_is_refused_quickly_and_the_rest_loads(tmp_path: Path) -> None:
    assert len(BOMB) < 700
    t0 = time.perf_counter()
    bank = _load(_with_good(tmp_path, "bomb", BOMB))
    assert time.perf_counter() - t0 < 5
    (problem,) = bank.errors
    assert problem.file.name == "bomb.yaml" and "aliases" in problem.message
    assert f"{MAX_ALIAS_EXPANSION:,}" in problem.message
    assert [q.id for q in bank.questions()] == ["good-q"]


def test_modest_anchors_still_work(tmp_path: Path) -> None:
    deck = (
        "id: anch\ntitle: A\nquestions:\n- id: anch-a\n  text: Why?\n  topics: &t [x, y]\n"
        "- id: anch-b\n  text: How?\n  topics: *t\n"
    )
    bank = _load(_bank(tmp_path, {"anch": deck}, {}))
    assert bank.question("anch-b").topics == ["x", "y"]


def test_self_referring_alias_is_refused(tmp_path: Path) -> None:
    deck = "id: rec\ntitle: R\nquestions: &q\n- id: rec-q\n  text: Why?\n  topics: *q\n"
    bank = _load(_with_good(tmp_path, "rec", deck))
    assert any("refers to the block that contains it" in p.message for p in bank.errors)
    assert bank.has_rubric("good-q")


@pytest.mark.parametrize(
    ("value", "needle"),
    [("9" * 5000, "5,000 digits"), ("-" + "1" * 4500, "4,500 digits"), ("1.0e+999", "finite")],
)
def test_huge_numbers_are_reported_at_their_line(tmp_path: Path, value: str, needle: str) -> None:
    deck = (
        f"id: huge\ntitle: H\nquestions:\n- id: huge-q\n  text: Why?\n  answer_seconds: {value}\n"
    )
    bank = _load(_with_good(tmp_path, "huge", deck))
    (problem,) = bank.errors
    assert problem.file.name == "huge.yaml" and problem.line == 6 and needle in problem.message
    assert bank.has_rubric("good-q")


def test_huge_number_in_a_rubric_file(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(GOOD_RUBRIC + "version: " + "7" * 5000 + "\n")
    with pytest.raises(BankError, match="5,000 digits"):
        load_rubric_file(path)


def test_an_unforeseen_fault_in_one_file_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sayitout.bank import loader

    real = loader.read_yaml

    def flaky(path: Path):
        if path.name == "bad.yaml":
            raise RuntimeError("something nobody foresaw")
        return real(path)

    monkeypatch.setattr(loader, "read_yaml", flaky)
    bank = _load(_with_good(tmp_path, "bad", GOOD_DECK.replace("good", "bad")))
    (problem,) = bank.errors
    assert problem.file.name == "bad.yaml" and "RuntimeError" in problem.message
    assert bank.has_rubric("good-q")


def test_a_rubric_with_too_many_key_points_is_refused_with_the_limit(tmp_path: Path) -> None:
    points = "".join(
        f"- id: p{i}\n  text: Point {i}.\n" for i in range(LIMIT_KEY_POINTS * 25)
    )  # 500 key points
    rubric = f"question_id: good-q\nkey_points:\n{points}model_answer: x\n"
    bank = _load(_bank(tmp_path, {"good": GOOD_DECK}, {"good": {"good-q": rubric}}))
    (problem,) = bank.errors
    assert f"at most {LIMIT_KEY_POINTS}" in problem.message and problem.line == 2
    assert not bank.has_rubric("good-q")
    path = tmp_path / "big.yaml"
    path.write_text(rubric)
    with pytest.raises(BankError, match="500 key points"):
        load_rubric_file(path)


def test_duplicate_keys_found_once_through_aliases(tmp_path: Path) -> None:
    path = tmp_path / "d.yaml"
    path.write_text("a: &x {k: 1, k: 2}\nb: *x\nc: *x\na: 3\n")
    _, node = read_yaml(path)
    assert duplicate_keys(node) == [(1, "k"), (4, "a")]


def test_reader_matches_pyyaml_on_the_builtin_bank() -> None:
    import yaml

    root = Path(__file__).resolve().parents[2]
    files = [*(root / "question_bank").glob("*.yaml"), *(root / "rubrics").rglob("*.yaml")]
    assert files
    for path in files:
        data, _ = read_yaml(path)
        assert data == yaml.safe_load(path.read_text()), path


def test_reader_keeps_yaml_types() -> None:
    import yaml

    text = (
        "a: yes\nb: 'yes'\nc: 0x1F\nd: 1_000\ne: .inf_not\nf: ~\ng: 2024-01-02\nh: 1.5e3\n"
        "i: Null\nj: nULL\nbase: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n"
    )
    path = Path("/tmp") / f"sayitout-types-{time.time_ns()}.yaml"
    path.write_text(text)
    try:
        assert read_yaml(path)[0] == yaml.safe_load(text)
    finally:
        path.unlink()


# ------------------------------------------------------------------ atomic import

QUESTIONS = "".join(
    f"Question number {i} here?\n\nAnswer {i} is long enough.\n\n" for i in range(8)
)


def test_an_interrupted_import_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "q.txt"
    src.write_text(QUESTIONS)
    out = tmp_path / "out"
    real, calls = importer._dump, 0

    def dying(data, header):
        nonlocal calls
        calls += 1
        if calls == 5:
            raise KeyboardInterrupt
        return real(data, header)

    monkeypatch.setattr(importer, "_dump", dying)
    with pytest.raises(KeyboardInterrupt):
        importer.import_text(src, "mine", out)
    left = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    assert left == ["question_bank", "rubrics"]


def test_an_interrupted_reimport_keeps_the_old_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "q.txt"
    src.write_text(QUESTIONS)
    out = tmp_path / "out"
    importer.import_text(src, "mine", out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    src.write_text(QUESTIONS.replace("number", "count"))
    real_rename = Path.rename

    def dying_rename(self: Path, target):
        if self.name == "rubrics" and ".sayitout-import-" in str(self):
            raise KeyboardInterrupt  # killed between moving the old rubrics aside and the new in
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", dying_rename)
    with pytest.raises(KeyboardInterrupt):
        importer.import_text(src, "mine", out, force=True)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert not list(out.glob(".sayitout-import-*"))


def test_a_killed_import_leaves_only_a_hidden_folder_the_next_import_clears(
    tmp_path: Path,
) -> None:
    src = tmp_path / "q.txt"
    src.write_text(QUESTIONS)
    out = tmp_path / "out"
    (out / ".sayitout-import-mine-abc" / "rubrics").mkdir(parents=True)
    (out / ".sayitout-import-mine-abc" / "rubrics" / "x.yaml").write_text("question_id: x\n")
    result = importer.import_text(src, "mine", out)
    assert len(result.rubric_files) == 8
    assert not list(out.glob(".sayitout-import-*"))
    bank = _load(out)
    assert len(bank.questions()) == 8 and not bank.errors


# ------------------------------------------------------------------ the parse cache


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from sayitout.bank import loader

    seen: list[str] = []
    real = loader.read_yaml

    def counting(path: Path):
        seen.append(path.name)
        return real(path)

    monkeypatch.setattr(loader, "read_yaml", counting)
    return seen


def test_unchanged_files_are_not_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sayitout_home: Path
) -> None:
    root = _bank(tmp_path, {"good": GOOD_DECK}, {"good": {"good-q": GOOD_RUBRIC}})
    parses = _count_parses(monkeypatch)
    first = _load(root)
    assert sorted(parses) == ["good-q.yaml", "good.yaml"]
    assert (sayitout_home / "cache" / "bank-files.json").is_file()
    parses.clear()
    again = _load(root)
    assert parses == []
    assert again.rubric("good-q") == first.rubric("good-q") and not again.problems
    rubric = root / "rubrics" / "good" / "good-q.yaml"
    rubric.write_text(GOOD_RUBRIC.replace("Faster convergence.", "Quicker convergence."))
    third = _load(root)
    assert parses == ["good-q.yaml"]
    assert third.rubric("good-q").key_points[1].text == "Quicker convergence."


def test_problems_in_cached_files_keep_their_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = GOOD_DECK + "- id: good-two\n  text: How?\n  answer_seconds: 5\n"
    root = _bank(tmp_path, {"good": deck}, {"good": {"good-q": GOOD_RUBRIC}})
    first = [p.format() for p in _load(root).problems]
    assert any(":8:" in p and "answer_seconds" in p for p in first)
    assert [p.format() for p in _load(root).problems] == first


def test_a_damaged_or_unwritable_cache_is_ignored(tmp_path: Path, sayitout_home: Path) -> None:
    root = _bank(tmp_path, {"good": GOOD_DECK}, {"good": {"good-q": GOOD_RUBRIC}})
    cache = sayitout_home / "cache" / "bank-files.json"
    cache.parent.mkdir(parents=True)
    cache.write_text('{"version": 1, "files": {"' + str(root) + '": [1, 2]}, oops')
    assert _load(root).has_rubric("good-q")
    cache.write_text('{"version": 1, "files": [1]}')
    assert _load(root).has_rubric("good-q")
    cache.unlink()
    cache.parent.chmod(0o500)
    try:
        assert _load(root).has_rubric("good-q")
    finally:
        cache.parent.chmod(0o700)
