"""The end-of-session summary: which key points were missed, and which were said the
other way round."""

from __future__ import annotations

import dataclasses

from sayitout.bank.loader import load_bank
from sayitout.session.events import Attempted
from sayitout.session.summary import summarise
from support.synthetic import make_score

QID = "dl-huge-batch"


def test_a_point_said_the_other_way_round_is_marked_among_the_missed() -> None:
    question = next(q for q in load_bank(user=False).questions() if q.id == QID)
    points = [("a", "Point a.", "missed"), ("b", "Point b.", "covered")]
    plain = make_score(QID, "x", points)
    turned = dataclasses.replace(
        plain,
        key_points=(
            dataclasses.replace(plain.key_points[0], penalty=15.0, reason="You said it."),
            plain.key_points[1],
        ),
    )
    tries = [Attempted(question, plain, 1), Attempted(question, turned, 2)]
    summary = summarise(None, "deep-learning", [question], tries)
    (point,) = summary.most_missed
    assert (point.text, point.times, point.reversed_times) == ("Point a.", 2, 1)
