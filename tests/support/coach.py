"""Saved attempts for the coach's tests (ledger, focus, upgraded answer) and the
reports that show them: two key points, with optional misconception, point said the
other way round, number and delivery details, at fixed times."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from sayitout.scoring.result import MisconceptionResult, NumericResult
from sayitout.store import Store
from support.synthetic import make_score, make_transcript

__all__ = ["KPS", "T0", "save"]

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
KPS = [("kp-a", "Point A about gradients"), ("kp-b", "Point B about warmup")]


def save(
    store: Store,
    qid: str,
    statuses: tuple[str, str],
    *,
    minutes: int,
    misconception: str | None = None,
    numeric_ok: bool | None = None,
    wpm: float = 140.0,
    fillers: int = 0,
    duration_s: float = 40.0,
    first_word_s: float = 0.8,
    ended_by: str = "silence",
    session: int | None = None,
    reversed_point: str | None = None,
) -> int:
    text = "gradients flow through the shortcut. warmup is slow at first. " * 3
    score = make_score(
        qid,
        text,
        [(k, t, s) for (k, t), s in zip(KPS, statuses, strict=True)],
        wpm=wpm,
        fillers=fillers,
        duration_s=duration_s,
    )
    extra: dict = {
        "delivery": dataclasses.replace(score.delivery, time_to_first_word_s=first_word_s)
    }
    if misconception:
        extra["misconceptions"] = (
            MisconceptionResult(
                misconception,
                "Warmup is only for SGD",
                "It helps Adam too",
                0.8,
                "warmup is only for sgd",
                (0, 10),
                10,
            ),
        )
    if reversed_point:
        extra["key_points"] = tuple(
            dataclasses.replace(kp, status="missed", credit=0.0, penalty=15.0, reason="You said B.")
            if kp.id == reversed_point
            else kp
            for kp in score.key_points
        )
    if numeric_ok is not None:
        extra["numeric"] = NumericResult(
            112,
            1,
            "GB",
            100 if not numeric_ok else 112,
            "GB",
            "a hundred gigabytes",
            numeric_ok,
            "why",
        )
    score = dataclasses.replace(score, **extra)
    return store.save_attempt(
        session,
        qid,
        "deck",
        make_transcript(text, wpm),
        score,
        None,
        created_at=T0 + timedelta(minutes=minutes),
        ended_by=ended_by,
    )
