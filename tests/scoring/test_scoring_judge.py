"""How the scorer uses the judge (``scoring/judge.py``): it raises the ``match`` of a key
point the matcher already partly credits, never one with no evidence of its own, never
lowers one, is asked only when such a point exists, keeps status, similarity and credit in
agreement, never brings back a window that was vetoed, raises less in an answer that
states a misconception, and is off when its weight is 0.

A judge is passed in, so these tests say exactly what it answers; the bundled judge's
behaviour on real answers is held by ``test_scoring_calibration.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from sayitout.scoring.matching import Params, credit


class FixedJudge:
    """Answers ``value`` for every key point; records what it was asked."""

    def __init__(self, value: float) -> None:
        self.value = value
        self.calls: list[tuple[int, list[int]]] = []

    def probs(self, memory: np.ndarray, points: list[np.ndarray]) -> np.ndarray:
        self.calls.append((len(memory), [len(p) for p in points]))
        return np.full(len(points), self.value, dtype=np.float32)


class NoJudge:
    def probs(self, memory: np.ndarray, points: list[np.ndarray]) -> np.ndarray:
        raise AssertionError("the judge was asked although it is off")


@pytest.fixture(scope="module")
def make(scorer):
    from sayitout.scoring import Scorer

    def build(judge, params: Params | None = None) -> Scorer:
        return Scorer(embedder=scorer.embedder, judge=judge, params=params or Params())

    return build


BORDERLINE = "maybe use a smaller step and clip things"


def test_the_judge_raises_partly_credited_points_and_credit_follows(make, lr_rubric):
    p = Params()
    off = make(NoJudge(), Params(judge_weight=0.0)).score(lr_rubric, BORDERLINE)
    yes = make(FixedJudge(1.0)).score(lr_rubric, BORDERLINE)
    no = make(FixedJudge(0.0)).score(lr_rubric, BORDERLINE)
    assert any(k.similarity > p.partial for k in off.key_points)
    assert any(k.similarity <= p.partial for k in off.key_points)
    up = p.judge_weight * (1.0 - p.judge_center)
    for k_off, k_yes, k_no in zip(off.key_points, yes.key_points, no.key_points, strict=True):
        raised = p.partial < k_off.similarity < p.covered
        expected = min(1.0, k_off.similarity + up) if raised else k_off.similarity
        assert k_yes.similarity == pytest.approx(expected, abs=1e-3)
        assert k_no == k_off  # a "no" from the judge takes nothing away
        # what is shown agrees with what was earned
        assert k_yes.credit == pytest.approx(credit(k_yes.similarity, p), abs=1e-3)
        assert k_yes.status == (
            "covered" if k_yes.credit >= 1 else "partial" if k_yes.credit else "missed"
        )
    assert no.score == off.score < yes.score


def test_the_judge_is_asked_once_and_only_about_partly_credited_points(make, lr_rubric):
    judge = FixedJudge(0.5)
    scorer = make(judge)
    covered = "Lower the learning rate."  # covered outright: nothing left to decide
    scorer.score_many([(lr_rubric, BORDERLINE), (lr_rubric, ""), (lr_rubric, covered)])
    assert len(judge.calls) == 1
    ((memory, points),) = judge.calls
    # it reads the key points within its reach, and only those
    p = Params()
    off = make(NoJudge(), Params(judge_weight=0.0)).score(lr_rubric, BORDERLINE)
    reach = [k for k in off.key_points if p.judge_from < k.similarity < p.covered]
    assert 0 < len(reach) < len(lr_rubric.key_points)
    assert len(points) == len(reach) and all(n > 0 for n in points)
    assert memory == len(scorer.embedder.encode_spans_and_states([BORDERLINE], [[]])[1][0])


def test_a_vetoed_window_stays_vetoed(make, lr_rubric):
    # "raise the learning rate" states the key point's words the wrong way round
    answer = "Raise the learning rate so it learns faster."
    result = make(FixedJudge(1.0)).score(lr_rubric, answer)
    lower = next(k for k in result.key_points if k.id == "lower-lr")
    assert lower.credit == 0.0 and lower.status == "missed"
    assert "raise-lr" in {m.id for m in result.misconceptions}


def test_the_judge_raises_less_in_an_answer_that_states_a_misconception(make, lr_rubric):
    """The judge reads the whole answer, the misconception's words included: in an answer
    that states one it keeps ``judge_claimed`` of its weight."""
    p = Params()
    answer = "Raise the learning rate so it learns faster. Maybe the steps are a bit big."
    off = make(NoJudge(), Params(judge_weight=0.0)).score(lr_rubric, answer)
    full = make(FixedJudge(1.0), Params(judge_claimed=1.0)).score(lr_rubric, answer)
    less = make(FixedJudge(1.0)).score(lr_rubric, answer)
    assert "raise-lr" in {m.id for m in less.misconceptions}
    raised = [n for n, k in enumerate(off.key_points) if p.partial < k.similarity < p.covered]
    assert raised
    for n in raised:
        up = less.key_points[n].similarity - off.key_points[n].similarity
        assert up == pytest.approx(
            p.judge_claimed * p.judge_weight * (1 - p.judge_center), abs=1e-3
        )
        assert full.key_points[n].similarity > less.key_points[n].similarity
    # (an answer that states none keeps the judge's whole weight: the first test)


def test_no_judge_when_its_weight_is_zero_or_windows_are_embedded_alone(make, lr_rubric):
    for params in (Params(judge_weight=0.0), Params.per_window()):
        scorer = make(NoJudge(), params)
        assert not scorer.judging
        assert scorer.score(lr_rubric, BORDERLINE).key_points
        assert all(s == () for s in [scorer.prepare(lr_rubric).point_states])
