"""A yes/no question (e.g. "recover the answers that were not saved?")."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmDialog(ModalScreen[bool]):
    """Dismisses with True (``y`` / Yes) or False (``n`` / Esc / No)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    DEFAULT_CSS = """
    ConfirmDialog { align: center middle; }
    ConfirmDialog > Vertical {
        width: 80%; max-width: 90; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    ConfirmDialog #confirm-title { text-style: bold; margin-bottom: 1; }
    ConfirmDialog Horizontal { height: auto; margin-top: 1; }
    ConfirmDialog Button { margin-right: 2; }
    """

    def __init__(self, title: str, message: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.confirm_title = title
        self.message = message
        self.yes_label = yes
        self.no_label = no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.confirm_title), id="confirm-title")
            yield Static(Text(self.message), id="confirm-message")
            with Horizontal():
                yield Button(f"{self.yes_label} (y)", id="yes", variant="success")
                yield Button(f"{self.no_label} (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
