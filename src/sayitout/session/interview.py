"""The mock interview: questions in a row in the interviewer's voice, no feedback until
the end.

Each question is read aloud, a thinking-time countdown runs, then the answer is recorded
against a visible timer (a warning is shown 30 seconds before the limit; nothing is
spoken over an answer). Missed key points with a follow-up are probed, as in practice.
Nothing is scored on screen until the last answer: then the report card
(:mod:`~sayitout.session.interview_report`). With ``--minutes`` the interview has a time
budget: each answer gets its share, and when too little time is left for another
question the interview ends there.

The interview is a session of kind ``interview`` in the store: its attempts are saved one
by one as they are given (a crash keeps them; the session then shows as incomplete), and
History, reports and the review schedule include them like any other.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sayitout.errors import SayitoutError, UsageError
from sayitout.session import events as ev
from sayitout.session.answer_flow import Listener
from sayitout.session.commands import Keep, Next, Pass, Record, Replay, Typed
from sayitout.session.engine import SessionEngine
from sayitout.session.events import Phase
from sayitout.session.interview_report import (
    InterviewReport,
    build_report,
    previous_interview,
)
from sayitout.session.plan import SessionPlan
from sayitout.session.services import SessionServices
from sayitout.session.summary import summarise
from sayitout.speech.transcript import Transcript

if TYPE_CHECKING:
    from sayitout.bank.models import Question
    from sayitout.scoring.result import AnswerScore
    from sayitout.session.recording_turn import Heard
    from sayitout.speech.recording import Recording

log = logging.getLogger(__name__)

MIN_ANSWER_S = 30.0
"""The shortest answer time an interview question gets."""
ASK_S = 5.0
"""Allowance for reading a question aloud, in the time budget."""
WARNING_S = 30.0
"""The answer timer warns this long before the limit."""
DEFAULT_THINKING_S = 10.0
_TICK_S = 0.25

Wait = Callable[[threading.Event, float], bool]


@dataclass(frozen=True)
class InterviewPlan:
    deck: str | None = None
    count: int = 5
    minutes: float | None = None
    """The interview's time budget; None: each question's suggested answer time."""
    thinking_s: float = DEFAULT_THINKING_S
    follow_ups: int = 1
    question_ids: tuple[str, ...] = ()
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.count < 1:
            raise UsageError(f"--count must be at least 1, not {self.count}")
        if self.thinking_s < 0:
            raise UsageError("--thinking cannot be negative")
        if not 0 <= self.follow_ups <= 2:
            raise UsageError(f"--follow-ups must be 0, 1 or 2, not {self.follow_ups}")
        if self.minutes is None:
            return
        if self.minutes <= 0:
            raise UsageError(f"--minutes must be more than 0, not {self.minutes:g}")
        need = self.min_question_s
        budget = self.minutes * 60
        parts = (
            f"{self.thinking_s:g} s to think, {MIN_ANSWER_S:g} s to answer, "
            f"about {ASK_S:g} s to hear it"
        )
        if budget < need:
            raise UsageError(
                f"--minutes {self.minutes:g} is too short for one question: a question "
                f"needs at least {need:g} s ({parts})",
                f"use --minutes {math.ceil(need / 60)} or more, or a shorter --thinking",
            )
        if budget < need * self.count:
            fits = int(budget // need)
            raise UsageError(
                f"--minutes {self.minutes:g} is too short for {self.count} questions: each "
                f"needs at least {need:g} s ({parts})",
                f"use --minutes {math.ceil(need * self.count / 60)}, or --count {fits}",
            )

    @property
    def min_question_s(self) -> float:
        return self.thinking_s + MIN_ANSWER_S + ASK_S

    def session_plan(self) -> SessionPlan:
        return SessionPlan(
            deck=self.deck,
            count=self.count,
            order="random",
            thinking_s=self.thinking_s,
            question_ids=self.question_ids,
            seed=self.seed,
            follow_ups=self.follow_ups,
        )

    def answer_limit(self, answer_seconds: float, max_answer_s: float) -> float:
        limit = float(answer_seconds)
        if self.minutes is not None:
            share = self.minutes * 60 / self.count - self.thinking_s - ASK_S
            limit = min(limit, max(MIN_ANSWER_S, share))
        return float(min(limit, max_answer_s))


def check_deck_fits(bank: Any, plan: InterviewPlan, count_name: str = "--count") -> None:
    """An interview longer than the deck is refused with what would fit (``count_name``:
    what the front end calls the number of questions)."""
    if plan.question_ids:
        for qid in plan.question_ids:
            bank.rubric(qid)  # unknown or unusable ids say so
        return
    available = len(bank.questions(deck=plan.deck))
    where = f"deck '{plan.deck}'" if plan.deck else "the question bank"
    if available == 0:
        raise UsageError(
            f"{where} has no questions ready to practise", "run `sayitout check` to see why"
        )
    if plan.count > available:
        raise UsageError(
            f"{count_name} {plan.count} is more than the {available} questions in {where}",
            f"use {count_name} {available} or fewer, or add questions to the deck",
        )


def _wait(event: threading.Event, seconds: float) -> bool:
    return event.wait(seconds)


class InterviewEngine(SessionEngine):
    """Runs one mock interview; see the module docstring. Commands are the session
    engine's (``type_answer``, ``pass_question``, ``stop_recording``, ``quit``...)."""

    kind = "interview"

    def __init__(
        self,
        services: SessionServices,
        plan: InterviewPlan,
        listener: Listener,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        monotonic: Callable[[], float] = time.monotonic,
        wait: Wait = _wait,
    ) -> None:
        super().__init__(services, plan.session_plan(), listener, clock=clock)
        self.interview = plan
        self._monotonic = monotonic
        self._wait = wait
        self._began_s: float | None = None
        self._warned = False
        self._reached = 0
        self._time_up = False
        self.report: InterviewReport | None = None

    # --- time ---------------------------------------------------------------------------

    def time_left_s(self) -> float | None:
        """Seconds left in the interview's budget (None without ``--minutes``)."""
        if self.interview.minutes is None or self._began_s is None:
            return None
        return self.interview.minutes * 60 - (self._monotonic() - self._began_s)

    def _on_progress(self, elapsed: float, limit: float) -> None:
        if not self._warned and limit > WARNING_S and limit - elapsed <= WARNING_S:
            self._warned = True
            self._emit(ev.AnswerTimeWarning(max(0.0, limit - elapsed)))

    def _record_answer(self, question: Question, limit: float) -> Heard | None:
        self._warned = False
        return super()._record_answer(question, limit)

    # --- the thread ---------------------------------------------------------------------

    def _begin(self) -> None:
        check_deck_fits(self.services.bank, self.interview)
        super()._begin()
        self._began_s = self._monotonic()

    def _question_turn(self, question: Question) -> None:
        self._last = None
        left = self.time_left_s()
        if self._time_up or (left is not None and left < self.interview.min_question_s):
            if not self._time_up:
                self._time_up = True
                self._emit(
                    ev.Notice("Time is up: the interview ends here.", severity="information")
                )
            return
        self._reached = self._index + 1
        max_s = self.services.settings.audio.max_answer_s
        limit = self.interview.answer_limit(question.answer_seconds, max_s)
        self._emit(ev.QuestionShown(self._index, len(self.questions), question, self.deck, limit))
        self._turn.cancel.clear()
        if self._typed_only is None:
            with contextlib.suppress(Exception):  # the recorder reports a real fault
                self.services.microphones.prepare()
        try:
            self._reader.read("question", question.text)
            if self._think() and self._can_record():
                self._record_and_score(question, limit)
                if self._last is not None:
                    return
            self._await_answer(question, limit)
        finally:
            self.services.microphones.release()  # opened early and not used: closed again

    def _can_record(self) -> bool:
        if self._typed_only is not None:
            self._set_phase(Phase.AWAITING_ANSWER)
            return False
        if self.services.microphones.remaining == 0:
            self._out_of_sources()
            return False
        return True

    def _think(self) -> bool:
        """The thinking countdown; False when the candidate chose to type or pass."""
        total = self.plan.thinking_s
        if self._turn.cancel.is_set():
            return False
        if total > 0:
            self._think_done.clear()
            self._set_phase(Phase.THINKING)
            end = self._monotonic() + total
            while not self._think_done.is_set():
                remaining = end - self._monotonic()
                if remaining <= 0:
                    break
                self._emit(ev.ThinkingTick(remaining, total))
                self._wait(self._think_done, min(_TICK_S, remaining))
            self._commands.check_quit()
        return not self._turn.cancel.is_set()

    def _await_answer(self, question: Question, limit: float) -> None:
        """Wait for a typed answer, a new recording, a pass or a skip."""
        if self.phase not in (Phase.NO_SPEECH, Phase.AWAITING_ANSWER):
            self._set_phase(Phase.AWAITING_ANSWER)
        while True:
            match self._commands.next():
                case Typed(text=text):
                    typed = Transcript.typed(text)
                    if typed.is_empty:
                        self._emit(ev.Notice("The typed answer was empty: type it again, or pass."))
                        continue
                    self._score_and_save(question, typed, None)
                case Record():
                    self._turn.cancel.clear()
                    if not self._can_record():
                        continue
                    self._record_and_score(question, limit)
                case Keep():
                    self._keep_short(question)
                case Pass():
                    self._pass(question)
                case Next():
                    return  # left unanswered: counts 0 in the report
                case Replay():
                    before = self.phase
                    self._reader.read("question", question.text)
                    self._set_phase(before)
                case _:  # no feedback, corrections or model answers until the report
                    continue
            if self._last is not None:
                return

    def _answered(
        self,
        question: Question,
        transcript: Transcript,
        score: AnswerScore,
        attempt_id: int | None,
        recording: Recording | None,
        passed: bool = False,
    ) -> None:
        """Kept for the report; nothing about the score is shown now."""
        self._keep(question, transcript, score, attempt_id, passed)
        self._last = ev.AnswerScored(
            self._index, question, transcript, score, attempt_id, 1, passed=passed
        )
        self._emit(
            ev.InterviewAnswerTaken(self._index, len(self.questions), passed, len(score.follow_ups))
        )

    def _finish(self, quit_early: bool) -> None:
        store = self._store
        previous = None
        if store is not None:
            previous = previous_interview(store, self.deck, self.session_id)
            if self.session_id is not None and not quit_early:
                with contextlib.suppress(SayitoutError):
                    store.finish_session(self.session_id)
            # an interview quit or killed part-way keeps finished_at empty: "incomplete"
        elapsed = None if self._began_s is None else self._monotonic() - self._began_s
        self.report = build_report(
            self.session_id,
            self.deck,
            self.questions,
            self.attempts,
            reached=self._reached,
            planned=len(self.questions),
            incomplete=quit_early,
            previous=previous,
            time_up=self._time_up,
            elapsed_s=elapsed,
        )
        self.summary = summarise(
            self.session_id, self.deck, self.questions, self.attempts, None, self._reached
        )
        self._set_phase(Phase.FINISHED)
        self._emit(ev.InterviewFinished(self.report, quit_early))
