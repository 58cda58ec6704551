"""Bring stored scores up to date: score stored answers again with today's scorer and
rubrics, keeping every earlier score in the attempt's history.

The scorer and the rubric lookup are passed in (the CLI gives the real ones, tests
may give their own), so the store does not depend on the scoring models.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from sayitout.errors import SayitoutError
from sayitout.scoring import SCORER_VERSION
from sayitout.scoring.result import AnswerScore
from sayitout.speech.transcript import Transcript
from sayitout.store.filters import AttemptFilter
from sayitout.store.records import AttemptRecord, AttemptSummary
from sayitout.store.store import Store

if TYPE_CHECKING:
    from sayitout.bank.models import Rubric


class AnswerScorer(Protocol):
    def score_many(self, items: Iterable[tuple[Rubric, Transcript | str]]) -> list[AnswerScore]:
        """Score many answers at once."""
        ...


RubricOf = Callable[[str], "Rubric | None"]
"""``question id -> its current rubric``, or ``None`` when the bank no longer has it."""

Progress = Callable[[int, int], None]
"""``(done, total)`` after each chunk of attempts."""


@dataclass(frozen=True)
class Rescored:
    """One attempt scored again."""

    attempt_id: int
    question_id: str
    created_at: datetime
    old_score: int
    new_score: int
    old_scorer: str
    """The scorer version of the old score (``""``: unknown, before versions were kept)."""
    old_rubric: int
    new_rubric: int


@dataclass
class RescoreOutcome:
    rescored: list[Rescored] = field(default_factory=list)
    up_to_date: int = 0
    """Already scored by this scorer with the current rubric (skipped unless ``every``)."""
    no_rubric: dict[str, int] = field(default_factory=dict)
    """Questions no longer in the bank (or without a usable rubric): attempts skipped."""
    saved: bool = False

    @property
    def changed(self) -> list[Rescored]:
        return [r for r in self.rescored if r.new_score != r.old_score]


def needs_rescore(summary: AttemptSummary, rubric: Rubric) -> bool:
    return summary.scorer_version != SCORER_VERSION or summary.rubric_version != rubric.version


def answer_of(record: AttemptRecord) -> Transcript:
    """The answer as it stands: a correction keeps the spoken word timings (they say how
    the answer was delivered, which a corrected spelling does not change)."""
    if record.transcript_corrected is None:
        return record.transcript
    return dataclasses.replace(
        record.transcript,
        text=record.transcript_corrected,
        meta={**record.transcript.meta, "corrected": True},
    )


def rescore_attempts(
    store: Store,
    where: AttemptFilter,
    rubric_of: RubricOf,
    scorer: AnswerScorer,
    *,
    every: bool = False,
    dry_run: bool = False,
    progress: Progress | None = None,
    chunk: int = 32,
) -> RescoreOutcome:
    """Score every attempt matching ``where`` again, oldest first, ``chunk`` at a time.

    Attempts already scored by this scorer against the current rubric are left alone
    unless ``every``. With ``dry_run`` nothing is written. Each chunk is saved in one
    transaction, so an interruption keeps the chunks already done.
    """
    outcome = RescoreOutcome(saved=not dry_run)
    todo: list[tuple[AttemptSummary, Rubric]] = []
    for summary in store.attempts(where, oldest_first=True):
        rubric = _rubric(rubric_of, summary.question_id)
        if rubric is None:
            outcome.no_rubric[summary.question_id] = (
                outcome.no_rubric.get(summary.question_id, 0) + 1
            )
        elif every or needs_rescore(summary, rubric):
            todo.append((summary, rubric))
        else:
            outcome.up_to_date += 1
    if progress is not None:
        progress(0, len(todo))
    for start in range(0, len(todo), chunk):
        part = todo[start : start + chunk]
        outcome.rescored += _rescore_chunk(store, part, scorer, dry_run)
        if progress is not None:
            progress(start + len(part), len(todo))
    return outcome


def _rubric(rubric_of: RubricOf, question_id: str) -> Rubric | None:
    try:
        return rubric_of(question_id)
    except SayitoutError:
        return None


def _rescore_chunk(
    store: Store,
    part: Sequence[tuple[AttemptSummary, Rubric]],
    scorer: AnswerScorer,
    dry_run: bool,
) -> list[Rescored]:
    records = [store.attempt(summary.id) for summary, _ in part]
    scores = scorer.score_many(
        [(rubric, answer_of(record)) for (_, rubric), record in zip(part, records, strict=True)]
    )
    done = []
    for (summary, rubric), score in zip(part, scores, strict=True):
        done.append(
            Rescored(
                attempt_id=summary.id,
                question_id=summary.question_id,
                created_at=summary.created_at,
                old_score=summary.score,
                new_score=max(0, min(100, round(score.score))),
                old_scorer=summary.scorer_version,
                old_rubric=summary.rubric_version,
                new_rubric=rubric.version,
            )
        )
    if not dry_run:
        with store.batch():
            for (summary, _), score in zip(part, scores, strict=True):
                store.rescore(summary.id, score)
    return done
