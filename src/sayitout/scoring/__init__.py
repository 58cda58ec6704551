"""Grading an answer against its rubric.

``Scorer(device="auto").score(rubric, answer)`` -> :class:`AnswerScore`.
The model loads lazily, so importing this package is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sayitout.scoring.result import AnswerScore

SCORER_VERSION = "2026.12.61"
"""Which scorer produced a score, stored with every score (``sayitout rescore`` brings
older ones up to date). Change it whenever a change to ``scoring/`` can change a score."""

if TYPE_CHECKING:
    from sayitout.scoring.scorer import Scorer

__all__ = ["SCORER_VERSION", "AnswerScore", "Scorer"]


def __getattr__(name: str) -> object:
    if name == "Scorer":
        from sayitout.scoring.scorer import Scorer

        return Scorer
    raise AttributeError(name)
