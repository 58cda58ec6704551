"""Every attempt ever made: SQLite (WAL) plus recordings on disk.

``Store.open()`` is the entry point; see :mod:`sayitout.store.store`.
"""

from sayitout.store.attempts import coverage_of
from sayitout.store.derived import DerivedKey
from sayitout.store.filters import EVERY_ATTEMPT, AttemptFilter
from sayitout.store.records import (
    AttemptRecord,
    AttemptSummary,
    KeyPointMiss,
    OrphanRecording,
    QuestionStats,
    ScoreEntry,
    SessionRecord,
)
from sayitout.store.session_score import SESSION_SCORE_LABEL, session_score
from sayitout.store.store import Store
from sayitout.store.timefmt import SINCE_FORMAT, parse_since

__all__ = [
    "EVERY_ATTEMPT",
    "SESSION_SCORE_LABEL",
    "SINCE_FORMAT",
    "AttemptFilter",
    "AttemptRecord",
    "AttemptSummary",
    "DerivedKey",
    "KeyPointMiss",
    "OrphanRecording",
    "QuestionStats",
    "ScoreEntry",
    "SessionRecord",
    "Store",
    "coverage_of",
    "parse_since",
    "session_score",
]
