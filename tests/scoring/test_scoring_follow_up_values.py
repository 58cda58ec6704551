"""A follow-up reply that is just the value asked for covers the key point.

Found in the TUI: "what probability does the true class get?" answered "one tenth, so
the loss is ln 10, about 2.3" earned no prompted credit, because a reply that short
does not resemble the key point's whole sentence.
"""

from __future__ import annotations

import pytest

from sayitout.bank.loader import load_bank
from sayitout.scoring.numbers import states_point_value
from sayitout.session.followups import (
    already_credited,
    follow_up_candidates,
    score_reply,
    with_follow_up,
)
from sayitout.speech.transcript import Transcript

POINT = (
    "With ten classes and uniform predictions, the softmax gives every class a probability "
    "of one tenth."
)
ASKED = "With uniform predictions over ten classes, what probability does the true class get?"


@pytest.mark.parametrize("reply", ["one tenth", "0.1", "a tenth", "ten percent", "1/10", "10%"])
def test_the_value_the_point_turns_on(reply: str) -> None:
    assert states_point_value(reply, [POINT], ASKED)


@pytest.mark.parametrize(
    "reply",
    [
        "ten",  # the question gives the ten classes away: saying it back proves nothing
        "one half",
        "if it were 0.1 it would be uniform",  # hypothetical
        "the log of a tenth",  # an operand, not the probability stated
        "no idea",
    ],
)
def test_other_values_or_none(reply: str) -> None:
    assert not states_point_value(reply, [POINT], ASKED)


def test_no_value_in_the_point_means_no_opinion() -> None:
    assert not states_point_value("0.1", ["Gradients flow back through the shortcut."])


@pytest.mark.parametrize(
    ("reply", "status"),
    [
        ("one tenth, so the loss is ln 10, about 2.3", "covered"),
        ("0.1", "covered"),
        ("ten percent", "covered"),
        ("one half", "missed"),
        ("no idea", "missed"),
    ],
)
def test_terse_replies_to_a_value_follow_up(scorer, reply: str, status: str) -> None:
    rubric = load_bank().rubric("dl-initial-loss")
    kp = next(k for k in rubric.key_points if k.id == "uniform-one-tenth")
    [result] = score_reply(scorer, rubric, kp, kp.follow_ups[0], Transcript(text=reply, duration=2))
    assert result.status == status
    assert (result.credit > 0) == (status == "covered")


def test_the_follow_up_read_back_earns_nothing(scorer) -> None:
    """The reply is read against the follow-up question, not the interview question."""
    rubric = load_bank().rubric("dl-batchnorm-vs-layernorm")
    kp = next(k for k in rubric.key_points if k.id == "bn-train-eval-differ")
    asked = kp.follow_ups[0]
    said = asked.rstrip("?") + ", that's the question."
    [result] = score_reply(scorer, rubric, kp, asked, Transcript(text=said, duration=3))
    assert result.status == "missed", result


def test_no_follow_up_asks_for_a_value_the_answer_gave(scorer) -> None:
    """'About 2.3 because each class gets one tenth' gave the loss: the follow-up "what is
    the cross-entropy for that probability?" would ask what was just said."""
    rubric = load_bank().rubric("dl-initial-loss")
    said = "The loss is about 2.3 because each class gets probability one tenth."
    asked = [kp.id for kp, _ in follow_up_candidates(scorer.score(rubric, said), rubric)]
    assert "minus-log-one-tenth" not in asked
    vague = scorer.score(rubric, "It should be the chance level loss, nothing too big.")
    asked = [kp.id for kp, _ in follow_up_candidates(vague, rubric)]
    assert asked[:2] == ["uniform-one-tenth", "minus-log-one-tenth"]


def test_a_reply_earns_the_other_points_it_makes(scorer) -> None:
    """Asked only for the tenth, "one tenth, so the loss is minus the log of a tenth, which
    is ln 10, about 2.3" also makes the next point: it earns it (volunteered), and the
    follow-up for it is not asked."""
    rubric = load_bank().rubric("dl-initial-loss")
    answer = scorer.score(rubric, "It should be the chance level loss, nothing too big.")
    kp = next(k for k in rubric.key_points if k.id == "uniform-one-tenth")
    reply = "One tenth, so the loss is minus the log of one tenth, which is ln 10, about 2.3."
    results = score_reply(
        scorer, rubric, kp, kp.follow_ups[0], Transcript(text=reply, duration=4), answer=answer
    )
    assert [(r.key_point_id, r.volunteered) for r in results][:2] == [
        ("uniform-one-tenth", False),
        ("minus-log-one-tenth", True),
    ]
    assert all(r.status == "covered" and r.credit > 0 for r in results)
    for r in results:
        answer = with_follow_up(answer, r)
    assert {"uniform-one-tenth", "minus-log-one-tenth"} <= answer.prompted_points
    assert already_credited(answer, "minus-log-one-tenth")  # so the engine skips it


def test_a_reply_that_makes_only_the_asked_point_volunteers_nothing(scorer) -> None:
    rubric = load_bank().rubric("dl-initial-loss")
    answer = scorer.score(rubric, "It should be the chance level loss, nothing too big.")
    kp = next(k for k in rubric.key_points if k.id == "uniform-one-tenth")
    results = score_reply(
        scorer,
        rubric,
        kp,
        kp.follow_ups[0],
        Transcript(text="one tenth", duration=1),
        answer=answer,
    )
    assert [r.key_point_id for r in results] == ["uniform-one-tenth"]
