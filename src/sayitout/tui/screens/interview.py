"""The mock-interview screen: the session screen without feedback, plus the countdown,
the answer timer with its 30-second warning, and the report card at the end."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from sayitout.session import events as ev
from sayitout.session.events import Phase
from sayitout.session.interview import InterviewEngine
from sayitout.tui.screens.session import SessionScreen
from sayitout.tui.widgets.level_meter import clock

if TYPE_CHECKING:
    from sayitout.session.interview import InterviewPlan
    from sayitout.session.services import SessionServices

_ASKING_PHASES = {Phase.ASKING, Phase.THINKING, Phase.RECORDING, Phase.AWAITING_ANSWER}


class InterviewScreen(SessionScreen):
    """Runs an :class:`InterviewEngine`. No score, transcript or model answer is shown
    until the report card."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "skip", "Skip reading", tooltip="Stop reading aloud"),
        Binding("p", "replay", "Replay", tooltip="Hear the question again"),
        Binding("r", "record", "Answer now", tooltip="Start answering (ends thinking time)"),
        Binding("enter", "stop", "Done", tooltip="End your answer now"),
        Binding("t", "type", "Type", tooltip="Type your answer instead of speaking"),
        Binding("i", "pass_question", "I don't know", tooltip="Pass on this question"),
        Binding("n", "next", "Skip", tooltip="Leave this question unanswered"),
        Binding("escape", "quit_session", "End", tooltip="End the interview; answers are kept"),
    ]

    def __init__(self, services: SessionServices, plan: InterviewPlan) -> None:
        super().__init__(services, plan.session_plan())
        self.interview_plan = plan
        self.interview_engine = InterviewEngine(services, plan, self._from_engine)
        self.engine = self.interview_engine
        self.answered = 0
        self.report_event: ev.InterviewFinished | None = None

    def on_mount(self) -> None:
        super().on_mount()
        self.sub_title = "mock interview"

    def _show_SessionStarted(self, event: ev.SessionStarted) -> None:
        super()._show_SessionStarted(event)
        budget = self.interview_plan.minutes
        self.sub_title = f"mock interview · {event.deck} · {self.total} questions" + (
            f" · {budget:g} min" if budget else ""
        )

    def _show_QuestionShown(self, event: ev.QuestionShown) -> None:
        super()._show_QuestionShown(event)
        progress = Text()
        progress.append(f"Interview question {event.index + 1} of {event.total}", style="bold")
        progress.append(f"   answer time {clock(event.answer_limit_s)}", style="dim")
        left = self.interview_engine.time_left_s()
        if left is not None:
            progress.append(f" · {clock(max(0.0, left))} left in the interview", style="dim")
        self.query_one("#progress", Static).update(progress)

    def _show_ThinkingTick(self, event: ev.ThinkingTick) -> None:
        status = self.query_one("#status", Static)
        status.display = True
        status.update(
            Text(
                f"Think: {clock(event.remaining_s)}. Recording starts when it reaches zero "
                "(r to start now).",
                style="bold cyan",
            )
        )

    def _show_AnswerTimeWarning(self, event: ev.AnswerTimeWarning) -> None:
        status = self.query_one("#status", Static)
        status.display = True
        status.update(
            Text(f"⏱ {event.remaining_s:.0f} seconds left: start wrapping up.", style="bold red")
        )
        self.notify(f"{event.remaining_s:.0f} seconds left", severity="warning", timeout=4)

    def _show_Listening(self, event: ev.Listening) -> None:
        super()._show_Listening(event)

    def _show_PartialTranscript(self, event: ev.PartialTranscript) -> None:
        pass  # an interviewer does not show you your words as you speak

    def _show_FollowUpScored(self, event: ev.FollowUpScored) -> None:
        self.follow_up = False  # and no feedback until the end

    def _show_AnswerScored(self, event: ev.AnswerScored) -> None:
        pass  # the interview engine never sends one; never show a score mid-interview

    def _show_InterviewAnswerTaken(self, event: ev.InterviewAnswerTaken) -> None:
        self.answered += 1
        word = "Pass noted" if event.passed else "Answer saved"
        self.notify(f"{word}. {event.total - event.index - 1} to go.", timeout=2)

    def _show_SessionFinished(self, event: ev.SessionFinished) -> None:
        pass  # an interview ends with InterviewFinished

    def _show_InterviewFinished(self, event: ev.InterviewFinished) -> None:
        if self.report_event is not None:
            return
        self.report_event = event
        if self.dialogs == 0 and self.app.screen is self:
            self._leave()

    def on_screen_resume(self) -> None:
        if self.report_event is not None and self.dialogs == 0:
            self.call_after_refresh(self._leave)

    def _dialog_closed(self, _result: object) -> None:
        self.dialogs -= 1
        if self.dialogs == 0 and self.report_event is not None:
            self.call_after_refresh(self._leave)

    def _leave(self) -> None:
        from sayitout.tui.screens.interview_report import InterviewReportScreen

        event = self.report_event
        if event is None or self.app.screen is not self:
            return
        if not event.report.questions:  # nothing was asked: back to where we came from
            self.app.pop_screen()
            return
        self.app.switch_screen(InterviewReportScreen(event.report, self.services))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next":
            return self.phase in _ASKING_PHASES | {Phase.NO_SPEECH}
        return super().check_action(action, parameters)
