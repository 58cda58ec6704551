"""Scoring fixtures: the real embedding model, loaded once per test session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from sayitout.bank.models import Rubric
from sayitout.scoring.result import AnswerScore

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


ReversalCheck = Callable[..., AnswerScore]


@pytest.fixture(scope="session")
def reversal_check(scorer, deck_rubric) -> ReversalCheck:
    """``check(question_id, wrong, right, points, covered=False)``: the wrong answer, which
    says the deck question's key ``points`` the other way round, earns none of them and
    scores at most 30; the right one earns every one of them (covers each, with
    ``covered``). Returns the wrong answer's result, for what else a test asks of it."""

    def check(
        question_id: str, wrong: str, right: str, points: set[str], covered: bool = False
    ) -> AnswerScore:
        rubric = deck_rubric(question_id)
        said_wrong = scorer.score(rubric, wrong)
        assert not points & {k.id for k in said_wrong.key_points if k.credit > 0}
        assert said_wrong.score <= 30
        said_right = scorer.score(rubric, right)
        earned = {
            k.id
            for k in said_right.key_points
            if (k.status == "covered" if covered else k.credit > 0)
        }
        assert points <= earned
        return said_wrong

    return check


@pytest.fixture(scope="session")
def misconception_check(scorer, deck_rubric) -> ReversalCheck:
    """``check(question_id, misconception, wrong, right)``: the wrong answer states the deck
    question's ``misconception`` and scores at most 30; the right one does not state it
    and scores 70 or more. Returns the wrong answer's result."""

    def check(question_id: str, misconception: str, wrong: str, right: str) -> AnswerScore:
        rubric = deck_rubric(question_id)
        said_wrong = scorer.score(rubric, wrong)
        assert misconception in {m.id for m in said_wrong.misconceptions}
        assert said_wrong.score <= 30
        said_right = scorer.score(rubric, right)
        assert misconception not in {m.id for m in said_right.misconceptions}
        assert said_right.score >= 70
        return said_wrong

    return check
