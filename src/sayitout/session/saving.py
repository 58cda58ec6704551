"""The store side of a session: attempts saved as they are given, rescored when the
candidate corrects a transcript or a follow-up adds credit, and the earlier attempts
and sessions a new one is compared with.

Nothing here stops a session: a store that fails is reported (a
:class:`~sayitout.session.events.SessionFailed` event) and the answer stays on screen.
Without a store (tests of the engine alone, or one that could not be opened) nothing is
kept and recordings go to the services' recordings folder.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sayitout.errors import SayitoutError
from sayitout.session import events as ev

if TYPE_CHECKING:
    from sayitout.bank.models import Question, Rubric
    from sayitout.scoring.result import AnswerScore
    from sayitout.session.services import SessionServices
    from sayitout.speech.recording import Recording
    from sayitout.speech.transcript import Transcript
    from sayitout.store import Store


class AttemptSaver:
    """Saves a session's attempts to the services' store and looks up earlier ones."""

    def __init__(
        self,
        services: SessionServices,
        emit: Callable[[ev.Event], None],
        clock: Callable[[], datetime],
    ) -> None:
        self._services = services
        self._emit = emit
        self._clock = clock

    @property
    def store(self) -> Store | None:
        return self._services.store

    def save(
        self,
        session_id: int | None,
        question: Question,
        transcript: Transcript,
        score: AnswerScore,
        recording: Recording | None,
        *,
        ended_by: str | None = None,
    ) -> int | None:
        """Save one attempt; its id, or None when nothing is kept (or saving failed,
        which is reported)."""
        store = self.store
        if store is None:
            return None
        self._emit(ev.Processing("saving"))
        services = self._services
        try:
            return store.save_attempt(
                session_id,
                question.id,
                services.bank.deck_of(question.id),
                transcript,
                score,
                recording.path if recording else None,
                transcript.model,
                score.embedding_model or services.scorer.model_name,
                score.rubric_version,
                ended_by=ended_by or (recording.ended_by.value if recording else "typed"),
            )
        except SayitoutError as exc:
            self._emit(ev.SessionFailed.of(exc))
            return None

    def rescore(
        self, attempt_id: int | None, score: AnswerScore, *, corrected_text: str | None = None
    ) -> None:
        """Make ``score`` the saved attempt's current score (with the corrected transcript
        when there is one)."""
        store = self.store
        if store is None or attempt_id is None:
            return
        try:
            store.rescore(attempt_id, score, corrected_text=corrected_text)
        except SayitoutError as exc:
            self._emit(ev.SessionFailed.of(exc))

    def not_scored(self, question: Question, transcript: Transcript, reason: str) -> AnswerScore:
        """The placeholder score of an answer that could not be scored (a rescore
        replaces it)."""
        from sayitout.scoring.result import AnswerScore

        try:
            version = self._services.bank.rubric(question.id).version
        except SayitoutError:
            version = 1
        return AnswerScore.not_scored(question.id, transcript.text, reason, version)

    def recording_path(self, question: Question) -> Path:
        """Where this answer's audio goes, named as the store names every recording."""
        store = self.store
        if store is not None:
            return store.new_recording_path(question.id, self._clock())
        from sayitout.locations import locations
        from sayitout.store.recordings import new_recording_path

        base = self._services.recordings_dir or locations().recordings_dir
        return new_recording_path(base, question.id, self._clock())

    def stored_name(self, path: Path | None) -> str | None:
        """A recording as the store refers to recordings (relative when inside its folder)."""
        if path is None:
            return None
        store = self.store
        if store is not None:
            with contextlib.suppress(ValueError):
                return str(Path(path).relative_to(store.recordings_dir))
        return str(path)

    def previous_attempt(self, question_id: str) -> ev.PreviousAttempt | None:
        """The last saved attempt at this question, for "last time" comparisons."""
        store = self.store
        if store is None:
            return None
        try:
            record = store.last_attempt(question_id)
        except SayitoutError:
            return None
        if record is None:
            return None
        score = record.answer_score
        missed = tuple(kp.text for kp in score.key_points if kp.status != "covered")
        return ev.PreviousAttempt(score.score, record.created_at, missed)

    def previous_session_mean(self, session_id: int, deck: str) -> float | None:
        """The session score of the latest earlier session on the same deck with attempts."""
        store = self.store
        if store is None:
            return None
        try:
            records = store.sessions(deck=deck, include_cli=False)
        except SayitoutError:
            return None
        earlier = [
            r
            for r in records
            if r.id is not None and r.id < session_id and r.session_score is not None
        ]
        if not earlier:
            return None
        latest = max(earlier, key=lambda r: r.id or 0)
        return float(latest.session_score) if latest.session_score is not None else None


def passed_score(rubric: Rubric, embedding_model: str = "") -> AnswerScore:
    """The score of a pass: nothing said, every key point missed, 0 (FSRS: Again)."""
    from sayitout.scoring.result import AnswerScore, KeyPointResult

    return AnswerScore(
        question_id=rubric.question_id,
        score=0,
        verdict="Passed: you said you don't know. Hear the model answer, then try it again.",
        key_points=tuple(
            KeyPointResult(kp.id, kp.text, kp.weight, "missed", 0.0, None, None)
            for kp in rubric.key_points
        ),
        numeric=None,
        misconceptions=(),
        delivery=None,
        answer="",
        rubric_version=rubric.version,
        embedding_model=embedding_model,
    )
