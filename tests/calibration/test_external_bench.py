"""bench/external.py: the external set is read, drafted into import-style rubrics and
kept away from the reserved Mohler set, without the model."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "external.py"


@pytest.fixture(scope="module")
def external():
    spec = importlib.util.spec_from_file_location("bench_external", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _write(folder: Path, rows: list[dict]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r) + "\n" for r in rows)
    (folder / "train.jsonl").write_text(text, encoding="utf-8")


def test_reads_labels_as_grades(external, tmp_path: Path) -> None:
    q = "How did you separate the salt from the water?"
    ref = "The water was evaporated, leaving the salt."
    _write(
        tmp_path / "set",
        [
            {"question": q, "reference_answer": ref, "student_answer": a, "label": label}
            for a, label in (("We evaporated it.", 0), ("Heat.", 2), ("Magnets.", 1), ("?", 3))
        ],
    )
    answers = external.load(tmp_path / "set")
    assert [a.grade for a in answers] == [1.0, 0.5, 0.0, 0.0]
    assert len({a.question_id for a in answers}) == 1
    assert external.load(tmp_path / "set", max_answers=2).__len__() == 2


def test_rubric_is_drafted_like_an_import_without_terms(external) -> None:
    rubric = external.draft(
        "ext-q",
        "Why does a GPU sit idle?",
        "The GPU waits for data. The CPU decodes JPEGs too slowly for it. Use more workers.",
    )
    assert rubric.key_points and rubric.model_answer.startswith("The GPU waits")
    assert all(not kp.paraphrases and not kp.terms for kp in rubric.key_points)
    assert not rubric.hotwords and not rubric.misconceptions and rubric.numeric is None


def test_reserved_and_missing_sets_are_refused(external, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(external.ENV, raising=False)
    assert external.resolve(None) is None
    reserved = tmp_path / "Mohler-ShortAnswerGrading"
    reserved.mkdir()
    with pytest.raises(external.ExternalDataError, match="reserved"):
        external.resolve(str(reserved))
    with pytest.raises(external.ExternalDataError, match="not found"):
        external.resolve(str(tmp_path / "absent"))
    monkeypatch.setenv(external.ENV, str(tmp_path))
    assert external.resolve(None) == tmp_path


def test_pearson(external) -> None:
    assert external.pearson([0, 1, 2], [0, 2, 4]) == pytest.approx(1.0)
    assert math.isnan(external.pearson([0, 1, 2], [3, 3, 3]))
