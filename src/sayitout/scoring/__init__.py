"""Grading an answer against its rubric.

``Scorer(device="auto").score(rubric, answer)`` -> :class:`AnswerScore`.
The model loads lazily, so importing this package is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sayitout.scoring.result import AnswerScore

if TYPE_CHECKING:
    from sayitout.scoring.scorer import Scorer

__all__ = ["AnswerScore", "Scorer"]


def __getattr__(name: str):
    if name == "Scorer":
        from sayitout.scoring.scorer import Scorer

        return Scorer
    raise AttributeError(name)
