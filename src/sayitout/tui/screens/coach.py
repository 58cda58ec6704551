"""The coach: next-session focus (drills that start a session) and the mistake ledger.

Also the one-line focus panel shown on Home. Both load in a worker thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from sayitout.coach import Drill, Ledger, focus_for
from sayitout.errors import SayitoutError
from sayitout.tui.messages import StartSession

if TYPE_CHECKING:
    from sayitout.session.services import SessionServices


class CoachLoaded(Message):
    def __init__(self, ledger: Ledger | None, drills: list[Drill], error: str | None = None):
        super().__init__()
        self.ledger, self.drills, self.error = ledger, drills, error


def load_coach(services: SessionServices) -> CoachLoaded:
    """The ledger and drills from the store (runs in a worker thread)."""
    try:
        store = services.store
        if store is None:
            return CoachLoaded(None, [], "no history is kept in this run")
        ledger, drills = focus_for(store, services.bank, now=services.clock())
    except SayitoutError as exc:
        return CoachLoaded(None, [], exc.message)
    return CoachLoaded(ledger, drills)


def render_ledger(ledger: Ledger) -> Group:
    parts: list = [Text("Mistake ledger", style="bold underline")]
    if not ledger.entries:
        parts.append(
            Text(
                f"Nothing repeats yet ({ledger.attempts_read} answers read): "
                "mistakes show here once they come back.",
                style="dim",
            )
        )
        return Group(*parts)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=4, no_wrap=True)
    grid.add_column(ratio=1)
    for e in ledger.entries:
        cell = Text(e.title, style="bold")
        cell.append(f"\n{e.detail}", style="dim")
        when = e.last_seen.astimezone().strftime("%d %b %H:%M")
        ids = ", ".join(f"#{a}" for a in e.attempt_ids[:6])
        more = f" +{len(e.attempt_ids) - 6}" if len(e.attempt_ids) > 6 else ""
        cell.append(f"\nlast {when} · attempts {ids}{more}", style="dim italic")
        grid.add_row(Text(f"×{e.count}", style="red" if not e.is_delivery else "yellow"), cell)
    parts.append(grid)
    parts.append(Text(f"From your last {ledger.attempts_read} answers.", style="dim"))
    return Group(*parts)


def focus_line(message: CoachLoaded, hint: str = "") -> Text:
    """The focus panel: the drills in one or two lines, then ``hint`` (a key to press)."""
    text = Text("Focus next: ", style="bold")
    if message.error or message.ledger is None:
        return text.append("–", style="dim")
    if not message.drills:
        return text.append("answer a few questions and your drills appear here.", style="dim")
    for i, d in enumerate(message.drills, 1):
        if i > 1:
            text.append("  ·  ", style="dim")
        text.append(f"{i}. {d.title}")
    return text.append(f"   {hint}" if hint else "", style="dim")


class FocusPanel(Static):
    """On Home: the next-session focus, loaded off the UI thread."""

    DEFAULT_CSS = """
    FocusPanel { height: auto; max-height: 2; }
    """

    def __init__(self, services: SessionServices, *, hint: str = "", **kwargs: Any) -> None:
        super().__init__(Text("Focus next: …", style="dim"), **kwargs)
        self.services = services
        self.hint = hint
        """Shown after the drills where a key opens the coach (Home: "(c: coach)")."""
        self.loaded = False
        """Whether the drills have been shown once."""

    def on_mount(self) -> None:
        self.call_after_refresh(self.reload)

    @work(thread=True, exclusive=True, exit_on_error=False, group="focus-panel")
    def reload(self) -> None:
        self.post_message(load_coach(self.services))

    @on(CoachLoaded)
    def _loaded(self, message: CoachLoaded) -> None:
        message.stop()
        self.update(focus_line(message, self.hint))
        self.loaded = True


class CoachScreen(Screen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("enter", "drill", "Start drill", show=True),
        Binding("r", "reload", "Refresh"),
    ]
    DEFAULT_CSS = """
    CoachScreen #coach-body { padding: 0 1; }
    CoachScreen #drills { height: auto; max-height: 6; margin-top: 1; }
    CoachScreen #why { color: $text-muted; margin-bottom: 1; }
    """

    def __init__(self, services: SessionServices) -> None:
        super().__init__()
        self.services = services
        self.drills: list[Drill] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="coach-body"):
            yield Static(Text("Next-session focus", style="bold underline"), id="focus-title")
            yield DataTable(id="drills", cursor_type="row", zebra_stripes=True)
            yield Static("", id="why")
            yield Static(Text("Reading your history…", style="dim"), id="ledger")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "sayitout"
        self.sub_title = "coach"
        table = self.query_one("#drills", DataTable)
        table.add_columns("Drill", "Questions")
        self.action_reload()

    @work(thread=True, exclusive=True, exit_on_error=False, group="coach")
    def action_reload(self) -> None:
        self.post_message(load_coach(self.services))

    @on(CoachLoaded)
    def _loaded(self, message: CoachLoaded) -> None:
        table = self.query_one("#drills", DataTable)
        table.clear()
        self.drills = message.drills
        for d in message.drills:
            table.add_row(Text(d.title, style="bold"), " ".join(d.question_ids))
        if message.error or message.ledger is None:
            self.query_one("#ledger", Static).update(Text(message.error or "", style="red"))
            return
        if not message.drills:
            table.add_row(Text("No drills yet: practise a few questions first.", style="dim"))
        self.query_one("#ledger", Static).update(render_ledger(message.ledger))

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_drill(self) -> None:
        from sayitout.session.plan import SessionPlan

        table = self.query_one("#drills", DataTable)
        if not self.drills or table.cursor_row >= len(self.drills):
            return
        drill = self.drills[table.cursor_row]
        plan = SessionPlan(
            question_ids=drill.question_ids,
            count=len(drill.question_ids),
            follow_ups=self.services.settings.practice.follow_ups,
        )
        self.app.pop_screen()
        self.app.post_message(StartSession(plan))

    @on(DataTable.RowHighlighted, "#drills")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        why = self.query_one("#why", Static)
        if event.cursor_row < len(self.drills):
            reason = self.drills[event.cursor_row].reason.rstrip(".")
            why.update(Text(f"Why: {reason}. Enter starts it."))
        else:
            why.update("")

    @on(DataTable.RowSelected, "#drills")
    def _row_selected(self) -> None:
        self.action_drill()
