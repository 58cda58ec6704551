"""Where a schedule starts and which way it goes next (``scoring.schedules``): "starts
with a large learning rate, then lowers it" is warmup's misconception, and says the key
point's "start small and raise it" turned round."""

from __future__ import annotations

import pytest

from sayitout.scoring.reasons import schedule as schedule_reason
from sayitout.scoring.schedules import DOWN, HIGH, LOW, UP, Schedule, contradiction, schedules
from sayitout.scoring.schedules import states as states_schedule

HIGH_THEN_DOWN = Schedule(HIGH, DOWN)
LOW_THEN_UP = Schedule(LOW, UP)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Warmup means starting with a high learning rate and lowering it.", HIGH_THEN_DOWN),
        ("you start big and bring it down", HIGH_THEN_DOWN),
        ("it starts the learning rate high to get going fast, then brings it down", HIGH_THEN_DOWN),
        ("Warmup starts at a large learning rate and ramps it down", HIGH_THEN_DOWN),
        ("So start with a small learning rate, raise it slowly, then decay it.", LOW_THEN_UP),
        ("start near zero and increase gradually to the peak", LOW_THEN_UP),
        ("we start small, ramp for a while, then decay", LOW_THEN_UP),
        ("at first tiny, then it climbs", LOW_THEN_UP),
        # no level right after the start, a start said as a condition, or no change after
        # it: no schedule
        ("at the start the gradients are large, so we decay", None),
        ("If you start with a big learning rate, it will decrease the loss too fast", None),
        ("without warmup you'd start at the full rate and decay it", None),
        ("start small", None),
    ],
)
def test_schedules_read_where_it_starts_and_which_way_it_goes(
    text: str, found: Schedule | None
) -> None:
    assert schedules(text) == (() if found is None else (found,))


def test_a_schedule_turned_round_contradicts_and_the_same_one_states() -> None:
    assert contradiction((LOW_THEN_UP,), (HIGH_THEN_DOWN,)) == LOW_THEN_UP
    assert contradiction((LOW_THEN_UP,), (HIGH_THEN_DOWN, LOW_THEN_UP)) is None
    assert contradiction((LOW_THEN_UP,), (Schedule(HIGH, UP),)) is None
    assert states_schedule((HIGH_THEN_DOWN,), (HIGH_THEN_DOWN,))
    assert not states_schedule((HIGH_THEN_DOWN,), (HIGH_THEN_DOWN, LOW_THEN_UP))
    assert schedule_reason(LOW_THEN_UP) == (
        "You said it starts high and then goes down; this point says it starts low and goes up."
    )


def test_warmup_said_the_other_way_round_states_the_misconception(scorer, deck_rubric) -> None:
    """Three reversed dev answers scored 50 to 80: the embeddings put "starts with a large
    learning rate, then lowers it" within a few hundredths of the misconception's
    threshold, and credited the schedule's key point from it."""
    rubric = deck_rubric("dl-transformer-warmup")
    reversed_ = scorer.score(
        rubric,
        "Warmup starts with a large learning rate to get away from the random "
        "initialisation quickly, then lowers it once Adam's moment estimates are reliable.",
    )
    assert [m.id for m in reversed_.misconceptions] == ["warmup-starts-high"]
    ramp = next(k for k in reversed_.key_points if k.id == "ramp-then-decay")
    assert ramp.credit == 0
    assert reversed_.score <= 30
    right = scorer.score(
        rubric,
        "Early on the weights are random and Adam's estimates are poor, so a big step can "
        "throw the model somewhere bad. Warmup starts with a tiny learning rate and raises "
        "it over the first few thousand steps, then it decays.",
    )
    assert not right.misconceptions
    assert right.score >= 70
