"""A dialog that says what failed and how to fix it; the app keeps running behind it."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ErrorDialog(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter", "close", "Close")]
    DEFAULT_CSS = """
    ErrorDialog { align: center middle; }
    ErrorDialog > Vertical {
        width: 80%; max-width: 90; height: auto; max-height: 90%;
        border: thick $error; background: $surface; padding: 1 2;
    }
    ErrorDialog #error-title { text-style: bold; color: $error; margin-bottom: 1; }
    ErrorDialog #error-hint { margin-top: 1; }
    ErrorDialog Button { margin-top: 1; }
    """

    def __init__(self, title: str, message: str, hint: str | None = None) -> None:
        super().__init__()
        self.error_title = title
        self.message = message
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.error_title, id="error-title")
            yield Static(Text(self.message), id="error-message")
            if self.hint:
                hint = Text.assemble(("How to fix it: ", "bold"))
                hint.append(self.hint)
                yield Static(hint, id="error-hint")
            yield Button("OK", id="ok", variant="error")

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    @on(Button.Pressed)
    def action_close(self) -> None:
        self.dismiss(None)
