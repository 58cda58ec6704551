"""Scoring fixtures: the real embedding model, loaded once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sayitout.bank.models import Rubric

FIXTURES = Path(__file__).parent / "fixtures"


def load_fixture_rubric(name: str) -> Rubric:
    return Rubric.model_validate(yaml.safe_load((FIXTURES / f"{name}.yaml").read_text()))


@pytest.fixture(scope="session")
def scorer():
    from sayitout.scoring import Scorer

    s = Scorer("cpu")
    s.warm_up()
    return s


@pytest.fixture(scope="session")
def deck_scorer(scorer):
    """A scorer that knows the built-in deck (``Scorer``'s ``neighbours``), as the app's
    does; it shares ``scorer``'s model."""
    from sayitout.bank.loader import load_bank
    from sayitout.scoring import Scorer

    bank = load_bank(user=False)
    return Scorer(embedder=scorer.embedder, neighbours=lambda r: bank.deck_rubrics(r.question_id))


@pytest.fixture(scope="session")
def lr_rubric() -> Rubric:
    return load_fixture_rubric("lr-too-high")


@pytest.fixture(scope="session")
def minutes_rubric() -> Rubric:
    return load_fixture_rubric("pass-minutes")
