"""What to practise next: FSRS spaced repetition driven by answer scores.

See :mod:`sayitout.schedule.fsrs_schedule` for the rating mapping and why.
"""

from sayitout.schedule.fsrs_schedule import (
    RATING_BANDS,
    MissedPoint,
    ScheduleCounts,
    ScheduleEntry,
    build_cards,
    counts,
    due_questions,
    missed_last_time,
    rating_for,
    schedule,
)

__all__ = [
    "RATING_BANDS",
    "MissedPoint",
    "ScheduleCounts",
    "ScheduleEntry",
    "build_cards",
    "counts",
    "due_questions",
    "missed_last_time",
    "rating_for",
    "schedule",
]
