"""Your answer, upgraded: the candidate's own words with what they missed woven in
(additions marked), read aloud on request."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from sayitout.coach import UpgradedAnswer, upgrade_answer

if TYPE_CHECKING:
    from sayitout.bank.models import Rubric
    from sayitout.session.ports import Speaker
    from sayitout.store.records import AttemptRecord


def render_upgraded(upgraded: UpgradedAnswer) -> Text:
    text = Text()
    for i, seg in enumerate(upgraded.segments):
        if i:
            text.append(" ")
        if seg.kind == "added":
            text.append(f"+ {seg.text}", style="bold green")
        elif seg.kind == "wrong":
            text.append(seg.text, style="red strike")
        else:
            text.append(seg.text)
    return text


class UpgradedAnswerScreen(Screen):
    """One attempt's answer, upgraded."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("r", "read", "Read aloud"),
        Binding("s", "stop", "Stop"),
    ]
    DEFAULT_CSS = """
    UpgradedAnswerScreen #upgraded-body { padding: 1 1 0 1; }
    UpgradedAnswerScreen #upgraded-legend { color: $text-muted; margin-bottom: 1; }
    """

    def __init__(
        self,
        record: AttemptRecord,
        rubric: Rubric,
        question: str,
        voice: Callable[[], Speaker | None] | None = None,
        *,
        silent: str | None = None,
    ) -> None:
        """``voice`` builds the speaker on first use (None: silent, no read-aloud key);
        ``silent`` says why it cannot be read aloud here (no sound out), shown instead."""
        super().__init__()
        self.silent = silent
        self.record = record
        self.question = question
        self.upgraded = upgrade_answer(record.answer_score, rubric)
        self.voice = voice
        self._speaker: Speaker | None = None
        self._cancel = threading.Event()

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="upgraded-body"):
            yield Static(Text(self.question, style="bold"), id="upgraded-question")
            added = len(self.upgraded.added)
            legend = Text("Your own words, with what was missing woven in: ", style="dim").append(
                "+ added", style="bold green"
            )
            if any(s.kind == "wrong" for s in self.upgraded.segments):
                legend.append(" · ").append("wrong, dropped", style="red strike")
            legend.append(
                f" · {added} addition{'s' if added != 1 else ''}"
                + (" · r reads it aloud" if self.voice is not None else ""),
                style="dim",
            )
            if self.voice is None and self.silent:
                legend.append(f" · not read aloud: {self.silent}", style="yellow")
            yield Static(legend, id="upgraded-legend")
            yield Static(render_upgraded(self.upgraded), id="upgraded")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "sayitout"
        self.sub_title = "your answer, upgraded"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("read", "stop"):
            return self.voice is not None
        return True

    def on_unmount(self) -> None:
        self.action_stop()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_stop(self) -> None:
        self._cancel.set()
        if self._speaker is not None:
            self._speaker.stop()

    def action_read(self) -> None:
        self.action_stop()
        self._cancel = threading.Event()
        self.notify("Reading your upgraded answer (s stops).", timeout=3)
        self._speak(self.upgraded.text, self._cancel)

    @work(thread=True, exclusive=True, exit_on_error=False, group="upgraded-voice")
    def _speak(self, text: str, cancel: threading.Event) -> None:
        try:
            speaker = self.voice() if self.voice is not None else None
            if speaker is None:
                raise RuntimeError("questions are not read aloud in this run (--tts none)")
            self._speaker = speaker
            speaker.speak(text, cancel)
        except Exception as exc:  # speech output is optional: say why, never crash
            self.app.call_from_thread(
                self.notify, f"Cannot read it aloud: {exc}", severity="warning"
            )
