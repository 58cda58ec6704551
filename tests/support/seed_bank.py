"""A bank of the built-in deck's questions copied under new ids into a deck of their own."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml

from sayitout.locations import builtin_bank_root

Edit = Callable[[str, dict[str, Any], dict[str, Any]], None]
"""``edit(new_id, question, rubric)``: change the copied question or rubric in place."""


def seed_deck(
    root: Path, deck: str, title: str, seeds: Mapping[str, str], edit: Edit | None = None
) -> Path:
    """Write to ``root`` a bank with deck ``deck`` holding the built-in deep-learning
    questions ``seeds`` names ({new id: seed id}) and their rubrics; returns ``root``."""
    seed_root = builtin_bank_root()
    source = yaml.safe_load((seed_root / "question_bank" / "deep-learning.yaml").read_text())
    by_id = {q["id"]: q for q in source["questions"]}
    (root / "rubrics" / deck).mkdir(parents=True)
    (root / "question_bank").mkdir()
    questions = []
    for new_id, seed_id in seeds.items():
        question = {**by_id[seed_id], "id": new_id}
        path = seed_root / "rubrics" / "deep-learning" / f"{seed_id}.yaml"
        rubric = {**yaml.safe_load(path.read_text()), "question_id": new_id}
        if edit is not None:
            edit(new_id, question, rubric)
        questions.append(question)
        (root / "rubrics" / deck / f"{new_id}.yaml").write_text(yaml.safe_dump(rubric))
    (root / "question_bank" / f"{deck}.yaml").write_text(
        yaml.safe_dump({"id": deck, "title": title, "questions": questions})
    )
    return root
