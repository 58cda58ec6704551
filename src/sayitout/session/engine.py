"""The practice-session state machine.

One engine walks one session: ask each question (read aloud, skippable and
replayable), optional thinking time, record the answer while transcribing it,
score it, save the attempt at once, then wait for the candidate: try again, next,
edit the transcript and rescore, type the answer instead, hear the model answer.

The engine runs on its own thread. Front ends call the command methods (any
thread), which queue :mod:`~sayitout.session.commands`, and receive
:mod:`~sayitout.session.events` through the listener, called from the engine's
threads. Blocking steps (speech, recording, thinking) watch ``threading.Event``
objects, so a command interrupts them at once.

This module holds the thread and each question's turn; what follows an answer
(scoring, saving, follow-ups, passes, corrections) is :mod:`~sayitout.session.answer_flow`,
which the engine builds on; recording one answer is
:mod:`~sayitout.session.recording_turn`, reading aloud :mod:`~sayitout.session.speaking`,
the store side :mod:`~sayitout.session.saving`.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sayitout.errors import SayitoutError
from sayitout.session import events as ev
from sayitout.session.answer_flow import AnswerFlow, Listener
from sayitout.session.commands import (
    Command,
    Edit,
    Keep,
    ModelAnswer,
    Next,
    Pass,
    Quit,
    QuitCommand,
    Record,
    Replay,
    Typed,
)
from sayitout.session.events import Phase
from sayitout.session.plan import SessionPlan, pick_questions
from sayitout.session.recording_turn import Heard
from sayitout.session.services import SessionServices
from sayitout.session.summary import SessionSummary, summarise
from sayitout.speech.transcript import Transcript

if TYPE_CHECKING:
    from sayitout.bank.models import Question
    from sayitout.store import Store

log = logging.getLogger(__name__)

_ANSWERING = (Phase.RECORDING, Phase.THINKING, Phase.ASKING)


class SessionEngine(AnswerFlow):
    """Runs one practice session; see the module docstring."""

    kind = "practice"
    """The session's kind, stored with it (a mock interview is ``interview``)."""

    def __init__(
        self,
        services: SessionServices,
        plan: SessionPlan,
        listener: Listener,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        super().__init__(services, plan, listener, clock)
        self._think_done = threading.Event()
        self._thread: threading.Thread | None = None
        self.summary: SessionSummary | None = None
        self._sources_left = True

    # --- lifecycle ----------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="sayitout-session", daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> bool:
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def close(self, timeout: float = 5.0) -> None:
        """Quit (keeping what was saved) and wait for the engine thread."""
        self.quit()
        self.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def can_speak_answers(self) -> bool:
        return self._typed_only is None and self._sources_left

    # --- commands (any thread) ---------------------------------------------------------

    def skip_speech(self) -> None:
        """Stop reading the question (or the model answer) aloud."""
        self._reader.skip()

    stop_audio = skip_speech

    def replay_question(self) -> None:
        self.skip_speech()
        self._commands.put(Replay())

    def start_recording(self) -> None:
        """End thinking time now, or record (again) when waiting for an answer."""
        if self.phase is Phase.THINKING:
            self._think_done.set()
        elif self.phase is Phase.ASKING:
            self.skip_speech()
        else:
            self._commands.put(Record())

    def stop_recording(self) -> None:
        """End the answer now (the key press); it is then transcribed and scored."""
        self._turn.stop.set()

    def cancel_recording(self) -> None:
        """Abandon the answer being recorded (or about to be) and wait for a typed one."""
        self._turn.cancel.set()
        self._think_done.set()
        self.skip_speech()

    def type_answer(self, text: str) -> None:
        """Answer by typing: scored and saved as a new attempt."""
        if self.phase in _ANSWERING:
            self.cancel_recording()
        self._commands.put(Typed(text))

    def edit_transcript(self, text: str) -> None:
        """Correct the last answer's transcript and rescore it (same attempt)."""
        self._commands.put(Edit(text))

    def try_again(self) -> None:
        self._commands.put(Record(again=True))

    def show_model_answer(self, speak: bool = True) -> None:
        self._commands.put(ModelAnswer(speak))

    def pass_question(self) -> None:
        """ "I don't know": saved as a passed attempt (a fail for scheduling); during a
        follow-up, skips the follow-up."""
        if self.phase in _ANSWERING:
            self.cancel_recording()
        self._commands.put(Pass())

    def keep_answer(self) -> None:
        """Score and save the short answer just heard (after :class:`ev.AnswerTooShort`)."""
        self._commands.put(Keep())

    def next_question(self) -> None:
        if self.phase in _ANSWERING:
            self.cancel_recording()
        self._commands.put(Next())

    def quit(self) -> None:
        """End the session early; attempts already completed stay saved."""
        self._commands.mark_quitting()
        self.cancel_recording()
        self._commands.put(QuitCommand())

    # --- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        quit_early = False
        try:
            self._begin()
            while self._index < len(self.questions):
                self._question_turn(self.questions[self._index])
                self._index += 1
        except Quit:
            quit_early = True
        except SayitoutError as exc:
            self._fail(exc)
            quit_early = True
        except Exception as exc:
            log.exception("session failed")
            self._emit(ev.SessionFailed(f"The session stopped: {exc}", None, "Unexpected error"))
            quit_early = True
        self._finish(quit_early)

    def _begin(self) -> None:
        services = self.services
        bank = services.bank
        store = self._open_store()
        self.questions = pick_questions(bank, self.plan, store, self._clock())
        decks = {bank.deck_of(q.id) for q in self.questions}
        self.deck = self.plan.deck or (decks.pop() if len(decks) == 1 else "mixed")
        self._reader.warm([q.text for q in self.questions])
        self._typed_only = services.spoken_answers_unavailable()
        if self._typed_only is not None:
            self._emit(ev.SpokenAnswersUnavailable(*self._typed_only))
        if store is not None:
            try:
                self.session_id = store.start_session(self.deck, self._settings_snapshot())
            except SayitoutError as exc:
                self._fail(exc)
        self._emit(
            ev.SessionStarted(
                self.session_id, self.deck, tuple(self.questions), self._typed_only is None
            )
        )

    def _open_store(self) -> Store | None:
        try:
            return self.services.store
        except SayitoutError as exc:
            self._fail(exc)
            self.services.drop_store()
            return None

    def _settings_snapshot(self) -> dict[str, Any]:
        s = self.services.settings
        return {
            "count": self.plan.count,
            "topics": list(self.plan.topics),
            "order": self.plan.order,
            "answer_limit_s": self.plan.answer_limit_s,
            "thinking_s": self.plan.thinking_s,
            "kind": self.kind,
            "follow_ups": self.follow_up_limit,
            "asr_model": s.asr.model,
            "tts": s.speech.tts,
        }

    def _finish(self, quit_early: bool) -> None:
        store = self._store
        previous_mean = None
        if store is not None and self.session_id is not None:
            previous_mean = self._saver.previous_session_mean(self.session_id, self.deck)
            with contextlib.suppress(SayitoutError):
                store.finish_session(self.session_id)
        asked = min(self._index + (1 if quit_early else 0), len(self.questions))
        self.summary = summarise(
            self.session_id, self.deck, self.questions, self.attempts, previous_mean, asked
        )
        self._set_phase(Phase.FINISHED)
        self._emit(ev.SessionFinished(self.summary, quit_early))

    # --- one question ------------------------------------------------------------------

    def _question_turn(self, question: Question) -> None:
        self._last = None
        if question.id not in self._previous:
            self._previous[question.id] = self._saver.previous_attempt(question.id)
        limit = self.plan.limit_for(question, self.services.settings.audio.max_answer_s)
        self._emit(ev.QuestionShown(self._index, len(self.questions), question, self.deck, limit))
        self._turn.cancel.clear()
        self._prepare_turn(question)
        try:
            self._reader.read("question", question.text)
            self._think_then_answer(question, limit)
            while True:
                command = self._commands.next()
                if isinstance(command, Next):
                    return
                self._handle(command, question, limit)
        finally:
            self._turn.drop_short()
            self.services.microphones.release()  # opened early and not used: closed again

    def _prepare_turn(self, question: Question) -> None:
        """Open the microphone while the question is read (so the first word is not lost
        to a slow device start) and synthesise this question's model answer ahead."""
        if self._typed_only is None:
            try:
                self.services.microphones.prepare()
            except Exception:  # the recorder's own start reports it properly
                log.debug("opening the microphone early failed", exc_info=True)
        try:
            model_answer = self.services.bank.rubric(question.id).model_answer
        except SayitoutError:
            return
        self._reader.warm([model_answer])

    def _handle(self, command: Command, question: Question, limit: float) -> None:
        if not isinstance(command, Keep | Replay | ModelAnswer):
            self._turn.drop_short()
        match command:
            case Replay():
                before = self.phase
                self._reader.read("question", question.text)
                self._set_phase(before)
            case Record(again=again):
                self._turn.cancel.clear()
                if again and self._typed_only is not None:
                    self._set_phase(Phase.AWAITING_ANSWER)
                else:
                    self._record_and_score(question, limit)
            case Typed(text=text):
                self._score_and_save(question, Transcript.typed(text), None)
            case Edit(text=text):
                self._rescore(question, text)
            case ModelAnswer(speak=speak):
                self._model_answer(question, speak=speak)
            case Pass():
                self._pass(question)
            case Keep():
                self._keep_short(question)

    def _keep_short(self, question: Question) -> None:
        """Score and save the short answer the candidate chose to keep."""
        short = self._turn.take_short()
        if short is not None:
            self._score_and_save(question, *short)

    def _out_of_sources(self) -> None:
        self._sources_left = False
        self._typed_only = ("there are no more answer files to play", None)
        self._emit(
            ev.SpokenAnswersUnavailable(
                "every --mic-file answer has been played",
                "type the rest of your answers (t), or start again with more files",
            )
        )
        self._set_phase(Phase.AWAITING_ANSWER)

    def _think_then_answer(self, question: Question, limit: float) -> None:
        thinking = self.plan.thinking_s
        if self._typed_only is None and self.services.microphones.remaining == 0:
            self._out_of_sources()  # no thinking countdown before an answer nobody can record
            return
        if self._typed_only is not None or self._turn.cancel.is_set():
            self._set_phase(Phase.AWAITING_ANSWER)
            return
        if thinking > 0:
            self._think_done.clear()
            self._set_phase(Phase.THINKING)
            end = time.monotonic() + thinking
            while not self._think_done.is_set():
                remaining = end - time.monotonic()
                if remaining <= 0:
                    break
                self._emit(ev.ThinkingTick(remaining, thinking))
                self._think_done.wait(min(0.25, remaining))
            self._commands.check_quit()
            if self._turn.cancel.is_set():
                self._set_phase(Phase.AWAITING_ANSWER)
                return
        self._record_and_score(question, limit)

    # --- recording ------------------------------------------------------------------------

    def _record_and_score(self, question: Question, limit: float) -> None:
        heard = self._record_answer(question, limit)
        if heard is not None and self._turn.worth_scoring(heard, question.text, self._index):
            self._score_and_save(question, *heard)

    def _on_progress(self, elapsed: float, limit: float) -> None:
        """Called with each recording progress update (the interview warns near the end)."""

    def _record_answer(self, question: Question, limit: float) -> Heard | None:
        """Record and transcribe one answer; None when there is none to score (cancelled,
        nothing heard, no microphone), with the phase set to say what happens next."""
        if self._typed_only is not None:
            self._set_phase(Phase.AWAITING_ANSWER)
            return None
        source = self.services.microphones.next_source()
        if source is None:
            self._out_of_sources()
            return None
        rubric = self.services.bank.rubric(question.id)
        try:
            transcriber = self.services.transcriber
            assert transcriber is not None  # else answers would be typed only
            live = transcriber.live(rubric.all_terms(), self._turn.live_words)
        except SayitoutError as exc:
            self.services.failed["speech"] = exc
            self._typed_only = (f"the speech model failed to load: {exc.message}", exc.hint)
            self._emit(ev.SpokenAnswersUnavailable(*self._typed_only))
            self._set_phase(Phase.AWAITING_ANSWER)
            return None
        path = self._saver.recording_path(question)
        return self._turn.record(source, live, path, limit, self._index, self._on_progress)
