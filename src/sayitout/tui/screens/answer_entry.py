"""A dialog to type an answer, or to correct a transcript before rescoring."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Label, TextArea


class AnswerEntry(ModalScreen[str | None]):
    """Returns the text (stripped), or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Submit", priority=True),
        Binding("escape", "cancel", "Cancel"),
    ]
    DEFAULT_CSS = """
    AnswerEntry { align: center middle; }
    AnswerEntry > Vertical {
        width: 90%; max-width: 110; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    AnswerEntry TextArea { height: 10; }
    AnswerEntry #buttons { height: auto; align-horizontal: right; }
    AnswerEntry Button { margin-left: 1; }
    """

    def __init__(self, title: str, text: str, submit_label: str = "Score it") -> None:
        super().__init__()
        self.heading = title
        self.text = text
        self.submit_label = submit_label

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"[b]{self.heading}[/b]")
            yield TextArea(self.text, id="answer", soft_wrap=True, show_line_numbers=False)
            with Horizontal(id="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(self.submit_label, id="submit", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)

    @on(Button.Pressed, "#submit")
    def action_submit(self) -> None:
        text = self.query_one(TextArea).text.strip()
        if not text:
            self.notify("Nothing to score yet: type your answer first.", severity="warning")
            return
        self.dismiss(text)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
