"""The session screen: one question at a time, from reading it aloud to the score card."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from sayitout.session import events as ev
from sayitout.session.engine import SessionEngine
from sayitout.session.events import Phase
from sayitout.tui.messages import SessionEvent
from sayitout.tui.widgets.level_meter import LevelMeter, clock
from sayitout.tui.widgets.score_card import ScoreCard

if TYPE_CHECKING:
    from textual.timer import Timer

    from sayitout.session.plan import SessionPlan
    from sayitout.session.services import SessionServices

_STOP_WORDS = {
    ev.StopReason.KEY: "you stopped",
    ev.StopReason.SILENCE: "silence",
    ev.StopReason.TIME_LIMIT: "time limit reached",
    ev.StopReason.END_OF_INPUT: "end of the answer file",
    ev.StopReason.CANCELLED: "cancelled",
    ev.StopReason.DEVICE_LOST: "the microphone stopped",
}

# Every phase of a question's turn, from asking to feedback.
_IN_A_TURN = {
    Phase.ASKING,
    Phase.THINKING,
    Phase.RECORDING,
    Phase.AWAITING_ANSWER,
    Phase.NO_SPEECH,
    Phase.FEEDBACK,
}

# Which phases each action is offered in (the footer shows only what works now).
_ACTIONS: dict[str, set[Phase]] = {
    "skip": {Phase.ASKING},
    "replay": {Phase.THINKING, Phase.AWAITING_ANSWER, Phase.FEEDBACK, Phase.NO_SPEECH},
    "record": {Phase.THINKING, Phase.AWAITING_ANSWER, Phase.NO_SPEECH},
    "stop": {Phase.RECORDING},
    "type": _IN_A_TURN,
    "again": {Phase.FEEDBACK, Phase.NO_SPEECH},
    "keep": {Phase.NO_SPEECH},
    "edit": {Phase.FEEDBACK},
    "model": {Phase.FEEDBACK},
    "next": _IN_A_TURN,
    "pass_question": {
        Phase.ASKING,
        Phase.THINKING,
        Phase.RECORDING,
        Phase.AWAITING_ANSWER,
        Phase.NO_SPEECH,
    },
    "quit_session": set(Phase) - {Phase.FINISHED},
}


def _too_short_status(event: ev.AnswerTooShort) -> str:
    what = (
        "Only the end of the question was heard"
        if event.echo
        else f"Only {event.words} word{'s' if event.words != 1 else ''} heard"
    )
    return f"{what}, so it was not scored. Press a to try again, t to type, or k to keep it."


class SessionScreen(Screen):
    """Runs a :class:`SessionEngine` and shows its events."""

    CSS_PATH = "session.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "skip", "Skip reading", tooltip="Stop reading aloud"),
        Binding("p", "replay", "Replay", tooltip="Read the question again"),
        Binding("r", "record", "Record", tooltip="Record your answer"),
        Binding("enter", "stop", "Done", tooltip="End your answer now"),
        Binding("t", "type", "Type", tooltip="Type your answer instead of speaking"),
        Binding("a", "again", "Retry", tooltip="Answer this question again"),
        Binding("e", "edit", "Edit", tooltip="Correct the transcript and rescore"),
        Binding("k", "keep", "Keep", tooltip="Score this short answer anyway"),
        Binding("m", "model", "Model answer", tooltip="Show and hear a strong answer"),
        Binding("n", "next", "Next", tooltip="Next question (the summary after the last)"),
        Binding("i", "pass_question", "I don't know", tooltip="Pass: saved as a fail"),
        Binding("escape", "quit_session", "End", tooltip="End the session; answers are kept"),
    ]

    def __init__(self, services: SessionServices, plan: SessionPlan) -> None:
        super().__init__()
        self.services = services
        self.plan = plan
        self.phase = Phase.STARTING
        self.engine = SessionEngine(services, plan, self._from_engine)
        self.last_scored: ev.AnswerScored | None = None
        self.total = 0
        self.index = 0
        self.speaking: str | None = None
        self.spoken_answers = True
        self.listening = False
        """Whether the microphone's first audio of this answer has arrived."""
        self.too_short: ev.AnswerTooShort | None = None
        """The short answer just heard, until it is kept, retried or typed."""
        self.summary_shown = False
        self.follow_up = False
        """Whether the interviewer's follow-up question is waiting for its reply."""
        self.finished: ev.SessionFinished | None = None
        self.dialogs = 0
        self._notice_timer: Timer | None = None

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="body"):
            yield Static("Choosing questions…", id="progress")
            yield Static("", id="question")
            yield Static("", id="status")
            yield LevelMeter(id="meter")
            yield Static("", id="live")
            yield ScoreCard(id="card")
            yield Static("", id="transcript")
            yield Static("", id="model-answer")
        yield Static("", id="notice")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "sayitout"
        self.sub_title = "practice session"
        for name in ("meter", "live", "card", "transcript", "model-answer"):
            self.query_one(f"#{name}").display = False
        # Home's start-up toasts (no microphone, no voice) would float over the question
        # and the score card; the session says what matters on its own notice line.
        self.app.clear_notifications()
        self.engine.start()

    def on_unmount(self) -> None:
        self.engine.close(timeout=5)

    # --- events from the engine (any thread) ------------------------------------------------

    def _from_engine(self, event: ev.Event) -> None:
        self.post_message(SessionEvent(event))

    @on(SessionEvent)
    def _on_session_event(self, message: SessionEvent) -> None:
        event = message.event
        handler = getattr(self, f"_show_{type(event).__name__}", None)
        if handler is not None:
            handler(event)

    def _show_PhaseChanged(self, event: ev.PhaseChanged) -> None:
        if event.phase is not Phase.NO_SPEECH:
            self.too_short = None
        self.phase = event.phase
        self.query_one("#meter").display = event.phase is Phase.RECORDING
        self.query_one("#live").display = event.phase in (Phase.RECORDING, Phase.PROCESSING)
        self._status_for_phase()
        self.refresh_bindings()

    def _status_for_phase(self) -> None:
        status = self.query_one("#status", Static)
        texts = {
            Phase.ASKING: ("🔊 Reading the question aloud…  (s skips)", "dim"),
            Phase.AWAITING_ANSWER: (
                ("Press r to record your answer, or t to type it.", "bold")
                if self.spoken_answers
                else ("Type your answer: press t.", "bold")
            )
            if not self.follow_up
            else (
                "Answer the follow-up: "
                + ("r to record, t to type" if self.spoken_answers else "press t to type")
                + ", i if you don't know.",
                "bold magenta",
            ),
            Phase.PROCESSING: ("Transcribing and scoring…", "bold yellow"),
            Phase.NO_SPEECH: (
                _too_short_status(self.too_short)
                if self.too_short is not None
                else "No speech was heard. Press a to try again, or t to type your answer.",
                "bold yellow",
            ),
            Phase.FEEDBACK: ("", ""),
            Phase.RECORDING: (
                ("● Listening: answer now. Press Enter when you are done.", "bold green")
                if self.listening
                else ("Opening the microphone… (wait a moment before you speak)", "bold yellow")
            ),
        }
        if self.phase in texts:
            text, style = texts[self.phase]
            status.update(Text(text, style=style))
            status.display = bool(text)

    def _show_SpokenAnswersUnavailable(self, event: ev.SpokenAnswersUnavailable) -> None:
        self.spoken_answers = False
        message = f"Answers are typed: {event.reason}."
        self.show_notice(message + (f" ({event.hint})" if event.hint else ""), warning=True)
        self._status_for_phase()

    def _show_SessionStarted(self, event: ev.SessionStarted) -> None:
        self.total = len(event.questions)
        self.sub_title = f"{event.deck} · {self.total} question{'s' if self.total != 1 else ''}"
        voice = self.services.failed.get("voice")
        if self.services.has_speaker and voice is not None:  # say why there is no Replay
            self.show_notice(
                f"Questions are not read aloud ({voice.message}), so there is no Replay.",
                warning=True,
                seconds=10,
            )

    def _can_speak(self) -> bool:
        """Whether the question can be read (again): a voice, and it loaded."""
        return self.services.has_speaker and "voice" not in self.services.failed

    def _show_QuestionShown(self, event: ev.QuestionShown) -> None:
        self.follow_up = False
        self.index = event.index
        self.last_scored = None
        topics = ", ".join(event.question.topics)
        progress = Text()
        progress.append(f"Question {event.index + 1} of {event.total}", style="bold")
        about = f"about {clock(event.answer_limit_s)}"
        # an imported question has no topics: no empty place between the dots
        progress.append(
            "   " + " · ".join(p for p in (event.question.id, topics, about) if p), style="dim"
        )
        self.query_one("#progress", Static).update(progress)
        self.query_one("#question", Static).update(Text(event.question.text, style="bold"))
        self.query_one("#live", Static).update("")
        for name in ("card", "transcript", "model-answer"):
            self.query_one(f"#{name}").display = False
        meter = self.query_one(LevelMeter)
        meter.limit = event.answer_limit_s
        meter.elapsed = 0.0
        self.query_one("#body", VerticalScroll).scroll_home(animate=False)
        self.refresh_bindings()

    def _show_FollowUpScored(self, event: ev.FollowUpScored) -> None:
        self.follow_up = False

    def _show_FollowUpAsked(self, event: ev.FollowUpAsked) -> None:
        self.follow_up = True
        text = Text(event.question.text, style="dim")
        text.append("\n\nFollow-up: ", style="bold magenta")
        text.append(event.text, style="bold")
        self.query_one("#question", Static).update(text)
        self.query_one("#live", Static).update("")

    def _show_SpeakingStarted(self, event: ev.SpeakingStarted) -> None:
        self.speaking = event.what
        if event.what == "model_answer":
            self.show_notice("Reading the model answer aloud (s stops).")
        self.refresh_bindings()

    def _show_SpeakingFinished(self, event: ev.SpeakingFinished) -> None:
        self.speaking = None
        self.refresh_bindings()

    def _show_ThinkingTick(self, event: ev.ThinkingTick) -> None:
        status = self.query_one("#status", Static)
        status.display = True
        status.update(
            Text(
                f"Thinking time: {clock(event.remaining_s)} left. Press r to start answering now.",
                style="bold cyan",
            )
        )

    def _show_RecordingStarted(self, event: ev.RecordingStarted) -> None:
        self.listening = False
        if self.too_short is not None or self.last_scored is None:
            self.query_one("#transcript").display = False  # a short answer's words go
        self._status_for_phase()
        meter = self.query_one(LevelMeter)
        meter.limit = event.limit_s
        meter.elapsed = 0.0
        meter.level = 0.0
        self.query_one("#live", Static).update(Text(f"Listening ({event.source})…", style="dim"))

    def _show_Listening(self, event: ev.Listening) -> None:
        self.listening = True
        self._status_for_phase()

    def _show_RecordingProgress(self, event: ev.RecordingProgress) -> None:
        meter = self.query_one(LevelMeter)
        meter.level = event.level
        meter.elapsed = event.elapsed_s
        meter.limit = event.limit_s

    def _show_PartialTranscript(self, event: ev.PartialTranscript) -> None:
        confirmed = event.text[: len(event.text) - len(event.tentative)].rstrip()
        live = Text(confirmed, style="italic")
        if event.tentative:
            live.append((" " if confirmed else "") + event.tentative + " …", style="italic dim")
        if event.behind:
            live.append(
                ("\n" if event.text else "")
                + "(busy computer: words appear at each pause, all of them when you stop)",
                style="dim",
            )
        self.query_one("#live", Static).update(live)

    def _show_RecordingStopped(self, event: ev.RecordingStopped) -> None:
        if event.reason is not ev.StopReason.CANCELLED:
            self.show_notice(
                f"Answer ended: {_STOP_WORDS[event.reason]} ({clock(event.duration_s)})."
            )

    def _show_Processing(self, event: ev.Processing) -> None:
        self.query_one("#status", Static).update(
            Text(f"{event.step.capitalize()}…", style="bold yellow")
        )

    def _show_NoSpeechHeard(self, event: ev.NoSpeechHeard) -> None:
        self.query_one("#live").display = False

    def _show_AnswerTooShort(self, event: ev.AnswerTooShort) -> None:
        self.too_short = event
        self._show_heard(event.heard)

    def _show_AnswerScored(self, event: ev.AnswerScored) -> None:
        self.last_scored = event
        card = self.query_one(ScoreCard)
        card.show(event)
        card.display = True
        transcript = self.query_one("#transcript", Static)
        label = "What you typed" if event.transcript.model == "typed" else "What was heard"
        if event.passed:
            label = "You passed (saved as a fail, so it comes back soon)"
        heard = Text(f"{label}: ", style="bold")
        heard.append(event.transcript.text, style="italic")
        transcript.update(heard)
        transcript.display = True
        self.query_one("#live").display = False
        self.query_one("#status").display = False
        self.query_one("#body", VerticalScroll).scroll_home(animate=False)

    def _show_AnswerNotScored(self, event: ev.AnswerNotScored) -> None:
        self._show_heard(event.transcript.text, typed=event.transcript.model == "typed")

    def _show_heard(self, text: str, *, typed: bool = False, note: str = "") -> None:
        """What was heard (or typed), below the question; the status line says what next."""
        transcript = self.query_one("#transcript", Static)
        heard = Text("What you typed: " if typed else "What was heard: ", style="bold")
        heard.append(text or "(nothing)", style="italic")
        if note:
            heard.append(f"\n{note}", style="bold yellow")
        transcript.update(heard)
        transcript.display = True
        self.query_one("#live").display = False

    def _show_ModelAnswerShown(self, event: ev.ModelAnswerShown) -> None:
        panel = self.query_one("#model-answer", Static)
        text = Text.assemble(("Model answer", "bold underline"), "\n")
        text.append(event.text)
        panel.update(text)
        panel.display = True
        # Once the panel has its size (after the next layout), bring its top into view.
        self.set_timer(0.05, self._scroll_to_model_answer)

    def _scroll_to_model_answer(self, tries: int = 20) -> None:
        panel = self.query_one("#model-answer", Static)
        body = self.query_one("#body", VerticalScroll)
        if panel.size.height == 0 and tries > 0:  # not laid out yet
            self.set_timer(0.05, lambda: self._scroll_to_model_answer(tries - 1))
            return
        body.scroll_to_widget(panel, animate=False, top=True)

    def _show_Notice(self, event: ev.Notice) -> None:
        text = event.message + (f" ({event.hint})" if event.hint else "")
        self.show_notice(text, warning=event.severity == "warning")
        self.refresh_bindings()  # e.g. the voice just failed: Replay goes

    def show_notice(self, text: str, *, warning: bool = False, seconds: float = 6.0) -> None:
        """A one-line message above the footer: toasts would cover the score card."""
        notice = self.query_one("#notice", Static)
        notice.update(Text(text, style="bold yellow" if warning else "dim"))
        notice.display = True
        if self._notice_timer is not None:
            self._notice_timer.stop()
        self._notice_timer = self.set_timer(seconds, self._clear_notice)

    def _clear_notice(self) -> None:
        self.query_one("#notice", Static).display = False

    def _show_SessionFailed(self, event: ev.SessionFailed) -> None:
        from sayitout.tui.screens.error_dialog import ErrorDialog

        self.dialogs += 1
        self.app.push_screen(
            ErrorDialog(event.title, event.message, event.hint), self._dialog_closed
        )

    def _dialog_closed(self, _result: object) -> None:
        self.dialogs -= 1
        if self.dialogs == 0 and self.finished is not None:
            self.call_after_refresh(self._leave)

    def _show_SessionFinished(self, event: ev.SessionFinished) -> None:
        if self.summary_shown:
            return
        self.summary_shown = True
        self.finished = event
        if self.dialogs == 0 and self.app.screen is self:
            self._leave()
        # else: a dialog is open (say, why the session could not start); leave on resume.

    def on_screen_resume(self) -> None:
        if self.finished is not None and self.dialogs == 0:
            self.call_after_refresh(self._leave)

    def _leave(self) -> None:
        from sayitout.tui.screens.summary import SummaryScreen

        event = self.finished
        if event is None or self.app.screen is not self:
            return
        self.finished = None
        if not event.summary.outcomes:  # nothing was asked: back to where we came from
            self.app.pop_screen()
            return
        self.app.switch_screen(SummaryScreen(event.summary, quit_early=event.quit_early))

    # --- actions -------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "skip":
            return self.speaking is not None
        if action == "replay" and not self._can_speak():
            return False  # silent (--tts none), or no voice or no sound out: nothing to replay
        if action == "keep" and self.too_short is None:
            return False
        phases = _ACTIONS.get(action)
        if phases is None:
            return True
        if self.phase not in phases:
            return False
        return not (action == "record" and not self.spoken_answers)

    def action_skip(self) -> None:
        self.engine.skip_speech()

    def action_keep(self) -> None:
        self.engine.keep_answer()

    def action_replay(self) -> None:
        self.engine.replay_question()

    def action_record(self) -> None:
        self.engine.start_recording()

    def action_stop(self) -> None:
        self.engine.stop_recording()

    def action_again(self) -> None:
        self.query_one("#model-answer").display = False
        if not self.spoken_answers:
            self.action_type()  # no microphone: trying again means typing again
            return
        self.engine.try_again()

    def action_model(self) -> None:
        self.engine.show_model_answer(speak=True)

    def action_next(self) -> None:
        self.engine.next_question()

    def action_pass_question(self) -> None:
        self.engine.pass_question()

    def action_quit_session(self) -> None:
        self.engine.quit()

    def action_type(self) -> None:
        from sayitout.tui.screens.answer_entry import AnswerEntry

        if self.phase in (Phase.ASKING, Phase.THINKING, Phase.RECORDING):
            self.engine.cancel_recording()
        title = "Type your answer"
        self.app.push_screen(AnswerEntry(title, ""), self._typed)

    def action_edit(self) -> None:
        from sayitout.tui.screens.answer_entry import AnswerEntry

        if self.last_scored is None:
            return
        self.app.push_screen(
            AnswerEntry(
                "Correct the transcript, then rescore",
                self.last_scored.transcript.text,
                submit_label="Rescore",
            ),
            self._edited,
        )

    def _typed(self, text: str | None) -> None:
        if text:
            self.engine.type_answer(text)

    def _edited(self, text: str | None) -> None:
        if text:
            self.engine.edit_transcript(text)
