"""Every attempt ever made: SQLite (WAL) plus recordings on disk.

``Store.open()`` is the entry point; see :mod:`sayitout.store.store`.
"""

from sayitout.store.records import (
    AttemptRecord,
    AttemptSummary,
    KeyPointMiss,
    OrphanRecording,
    QuestionStats,
    ScoreEntry,
    SessionRecord,
)
from sayitout.store.store import Store, coverage_of
from sayitout.store.timefmt import SINCE_FORMAT, parse_since

__all__ = [
    "SINCE_FORMAT",
    "AttemptRecord",
    "AttemptSummary",
    "KeyPointMiss",
    "OrphanRecording",
    "QuestionStats",
    "ScoreEntry",
    "SessionRecord",
    "Store",
    "coverage_of",
    "parse_since",
]
