"""What happens to an answer once it is heard or typed: scored, saved at once, probed
with follow-up questions, shown; or passed on, corrected and rescored, or kept unscored
when the scorer fails.

:class:`AnswerFlow` holds a session's state and these steps; the
:class:`~sayitout.session.engine.SessionEngine` built on it adds the thread, the
commands front ends call, and each question's turn (asking, thinking, recording).
Its collaborators are built here from the services: the command queue
(:mod:`~sayitout.session.commands`), the reader (:mod:`~sayitout.session.speaking`),
the recording turn (:mod:`~sayitout.session.recording_turn`) and the saver
(:mod:`~sayitout.session.saving`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from sayitout.errors import SayitoutError
from sayitout.session import events as ev
from sayitout.session.commands import CommandQueue, Next, Pass, Record, Replay, Typed
from sayitout.session.events import Attempted, Phase
from sayitout.session.followups import (
    FOLLOW_UP_ANSWER_S,
    already_credited,
    carry_follow_ups,
    follow_up_candidates,
    score_reply,
    with_follow_up,
)
from sayitout.session.plan import SessionPlan
from sayitout.session.recording_turn import Heard, RecordingTurn, heard_only_the_question
from sayitout.session.saving import AttemptSaver, passed_score
from sayitout.session.services import SessionServices
from sayitout.session.speaking import QuestionReader
from sayitout.speech.transcript import Transcript
from sayitout.store.records import PASSED

if TYPE_CHECKING:
    from sayitout.bank.models import Question
    from sayitout.scoring.result import AnswerScore
    from sayitout.speech.recording import Recording
    from sayitout.store import Store

log = logging.getLogger(__name__)

Listener = Callable[[ev.Event], None]


class AnswerFlow:
    """A session's state and the steps that follow an answer; see the module docstring."""

    def __init__(
        self,
        services: SessionServices,
        plan: SessionPlan,
        listener: Listener,
        clock: Callable[[], datetime],
    ) -> None:
        self.services = services
        self.plan = plan
        self._listener = listener
        self._clock = clock
        self._commands = CommandQueue()
        self._turn = RecordingTurn(
            services.settings.audio, self._commands, self._emit, self._set_phase
        )
        self._reader = QuestionReader(
            services, self._commands, self._emit, self._set_phase, self._turn.spoke
        )
        self._saver = AttemptSaver(services, self._emit, clock)
        self.phase = Phase.STARTING
        self.session_id: int | None = None
        self.deck = plan.deck or ""
        self.questions: list[Question] = []
        self.attempts: list[Attempted] = []
        self._index = 0
        self._last: ev.AnswerScored | None = None
        self._tries: dict[str, int] = {}
        self._previous: dict[str, ev.PreviousAttempt | None] = {}
        self._typed_only: tuple[str, str | None] | None = None
        """Why answers must be typed from now on, or None while they can be spoken."""

    # --- telling the front end ----------------------------------------------------------

    def _emit(self, event: ev.Event) -> None:
        try:
            self._listener(event)
        except Exception:  # a front end's bug must not kill the session
            log.exception("session listener failed on %r", event)

    def _fail(self, exc: SayitoutError, title: str | None = None) -> None:
        """Tell the front end a step failed; the session goes on."""
        self._emit(ev.SessionFailed.of(exc, title))

    def _set_phase(self, phase: Phase) -> None:
        self.phase = phase
        self._emit(ev.PhaseChanged(phase))

    def _settle(self) -> None:
        """Back to waiting: on the last score when there is one, else for an answer."""
        self._set_phase(Phase.FEEDBACK if self._last else Phase.AWAITING_ANSWER)

    @property
    def _store(self) -> Store | None:
        return self.services.store

    def _record_answer(self, question: Question, limit: float) -> Heard | None:
        """Record and transcribe one answer (the engine's recording turn)."""
        raise NotImplementedError

    # --- scoring and saving ------------------------------------------------------------------

    def _score(self, question: Question, answer: Transcript) -> AnswerScore | str:
        """The answer's score, or why it could not be scored (never raises: one answer
        the scorer chokes on must not end the session)."""
        self._set_phase(Phase.PROCESSING)
        self._emit(ev.Processing("scoring"))
        if "scoring" in self.services.failed:
            return f"the scoring model is not available ({self.services.failed['scoring']})"
        try:
            rubric = self.services.bank.rubric(question.id)
            return self.services.scorer.score(rubric, answer)
        except SayitoutError as exc:
            return exc.message
        except Exception as exc:  # a scorer bug on this one answer
            log.exception("scoring %s failed", question.id)
            return f"{type(exc).__name__}: {exc}"

    def _score_and_save(
        self, question: Question, transcript: Transcript, recording: Recording | None
    ) -> None:
        if transcript.is_empty:
            self._emit(ev.Notice("The typed answer was empty, so nothing was scored."))
            self._settle()
            return
        score = self._score(question, transcript)
        if isinstance(score, str):
            self._save_unscored(question, transcript, recording, score)
            return
        attempt_id = self._saver.save(self.session_id, question, transcript, score, recording)
        score = self._follow_ups(question, score, attempt_id)
        self._answered(question, transcript, score, attempt_id, recording)

    def _answered(
        self,
        question: Question,
        transcript: Transcript,
        score: AnswerScore,
        attempt_id: int | None,
        recording: Recording | None,
        passed: bool = False,
    ) -> None:
        """An answer is scored and saved: keep it for the summary and show the score."""
        self._tries[question.id] = self._tries.get(question.id, 0) + 1
        self._keep(question, transcript, score, attempt_id, passed)
        self._last = ev.AnswerScored(
            index=self._index,
            question=question,
            transcript=transcript,
            score=score,
            attempt_id=attempt_id,
            attempt_number=self._tries[question.id],
            previous=self._previous.get(question.id),
            recording_path=recording.path if recording else None,
            passed=passed,
        )
        self._emit(self._last)
        if passed:
            self._model_answer(question, speak=False)  # offered at once
        self._set_phase(Phase.FEEDBACK)

    def _keep(
        self,
        question: Question,
        transcript: Transcript,
        score: AnswerScore,
        attempt_id: int | None,
        passed: bool,
    ) -> None:
        """Keep the attempt for the end-of-session summary (or the interview report)."""
        typed = transcript.model == "typed"
        extra = {"passed": True} if passed else {}
        self.attempts.append(Attempted(question, score, attempt_id, typed=typed, extra=extra))

    def _save_unscored(
        self,
        question: Question,
        transcript: Transcript,
        recording: Recording | None,
        reason: str,
    ) -> None:
        """Keep an answer whose scoring failed: saved with its transcript and recording,
        its score marked failed with the reason (a rescore replaces it), and go on."""
        placeholder = self._saver.not_scored(question, transcript, reason)
        attempt_id = self._saver.save(self.session_id, question, transcript, placeholder, recording)
        self._tries[question.id] = self._tries.get(question.id, 0) + 1
        kept = "saved" if attempt_id is not None else "kept on screen only"
        self._emit(ev.AnswerNotScored(self._index, question, transcript, reason, attempt_id))
        self._emit(
            ev.SessionFailed(
                f"Your answer was {kept}, but it could not be scored: {reason}",
                "try again, type it (t), or go on; a saved answer can be rescored later",
                "Answer not scored",
            )
        )
        self._settle()

    # --- follow-ups ---------------------------------------------------------------------------

    @property
    def follow_up_limit(self) -> int:
        return self.plan.follow_ups

    def _follow_ups(
        self, question: Question, score: AnswerScore, attempt_id: int | None
    ) -> AnswerScore:
        """Ask about missed key points that have a follow-up (up to the plan's limit);
        each reply's prompted credit is added to the score and the stored attempt."""
        limit = self.follow_up_limit
        if limit <= 0:
            return score
        try:
            rubric = self.services.bank.rubric(question.id)
        except SayitoutError:
            return score
        asked = 0
        for kp, text in list(follow_up_candidates(score, rubric)):
            if asked >= limit:
                break
            if already_credited(score, kp.id):
                continue
            asked += 1
            self._emit(ev.FollowUpAsked(self._index, question, kp.id, text, asked, limit))
            self._reader.read("follow_up", text)
            reply, recording = self._follow_up_reply(question, text)
            self._set_phase(Phase.PROCESSING)
            self._emit(ev.Processing("scoring"))
            try:
                results = score_reply(
                    self.services.scorer,
                    rubric,
                    kp,
                    text,
                    reply,
                    recording=self._saver.stored_name(recording.path if recording else None),
                    answer=score,
                )
            except Exception as exc:  # the answer is saved; a failed follow-up ends them
                log.exception("scoring a follow-up of %s failed", question.id)
                self._emit(ev.Notice(f"The follow-up reply could not be scored: {exc}"))
                break
            turn = len(score.follow_ups)  # the asked point's result, then volunteered ones
            for result in results:
                score = with_follow_up(score, result)
            self._saver.rescore(attempt_id, score)
            self._emit(ev.FollowUpScored(self._index, score.follow_ups[turn]))
        return score

    def _follow_up_reply(
        self, question: Question, text: str
    ) -> tuple[Transcript | None, Recording | None]:
        """The reply to a follow-up: recorded when answers are spoken (the next --mic-file),
        else typed. ``(None, None)`` when the candidate passes or moves on."""
        heard = None
        if self._typed_only is None:
            heard = self._record_answer(question, FOLLOW_UP_ANSWER_S)
        if heard is not None and heard_only_the_question(heard[0].text, text):
            self._emit(ev.Notice("Only the follow-up question itself was heard: answer again."))
            heard = None  # the app's own voice, not a reply (a short reply is fine)
        if heard is not None:
            return heard
        if self.phase not in (Phase.NO_SPEECH, Phase.AWAITING_ANSWER):
            self._set_phase(Phase.AWAITING_ANSWER)
        while True:
            match self._commands.next():
                case Typed(text=typed_text):
                    typed = Transcript.typed(typed_text)
                    if not typed.is_empty:
                        return typed, None
                    self._emit(ev.Notice("The typed reply was empty: type it again, or pass."))
                case Record():
                    self._turn.cancel.clear()
                    heard = self._record_answer(question, FOLLOW_UP_ANSWER_S)
                    if heard is not None:
                        return heard
                case Replay():
                    before = self.phase
                    self._reader.read("follow_up", text)
                    self._set_phase(before)
                case Pass() | Next():
                    return None, None
                case _:
                    pass  # corrections and model answers wait until the follow-up is done

    # --- passing, correcting, the model answer ------------------------------------------

    def _pass(self, question: Question) -> None:
        if self._last is not None:
            self._emit(ev.Notice("This question is already answered: press n for the next one."))
            self._set_phase(Phase.FEEDBACK)
            return
        try:
            rubric = self.services.bank.rubric(question.id)
        except SayitoutError as exc:
            self._fail(exc)
            return
        transcript = Transcript(text="", model="passed")
        score = passed_score(rubric, self.services.scorer.model_name)
        attempt_id = self._saver.save(
            self.session_id, question, transcript, score, None, ended_by=PASSED
        )
        self._answered(question, transcript, score, attempt_id, None, passed=True)

    def _rescore(self, question: Question, text: str) -> None:
        last = self._last
        if last is None:
            self._score_and_save(question, Transcript.typed(text), None)
            return
        text = text.strip()
        if not text:
            self._emit(ev.Notice("The corrected transcript was empty, so the score was kept."))
            self._set_phase(Phase.FEEDBACK)
            return
        corrected = last.transcript.corrected(text)
        score = self._score(question, corrected)
        if isinstance(score, str):
            self._fail(
                SayitoutError(
                    f"The corrected answer could not be scored: {score}",
                    "the earlier score is kept",
                ),
                "Not rescored",
            )
            self._set_phase(Phase.FEEDBACK)
            return
        score = carry_follow_ups(score, last.score)
        self._saver.rescore(last.attempt_id, score, corrected_text=text)
        for i in range(len(self.attempts) - 1, -1, -1):
            if self.attempts[i].question.id == question.id:
                old = self.attempts[i]
                self.attempts[i] = Attempted(question, score, old.attempt_id, old.typed)
                break
        self._last = ev.AnswerScored(
            index=last.index,
            question=question,
            transcript=corrected,
            score=score,
            attempt_id=last.attempt_id,
            attempt_number=last.attempt_number,
            previous=last.previous,
            rescored=True,
            recording_path=last.recording_path,
        )
        self._emit(self._last)
        self._set_phase(Phase.FEEDBACK)

    def _model_answer(self, question: Question, speak: bool) -> None:
        rubric = self.services.bank.rubric(question.id)
        self._emit(ev.ModelAnswerShown(question.id, rubric.model_answer))
        if speak:
            before = self.phase
            self._reader.read("model_answer", rubric.model_answer)
            self._set_phase(before)
