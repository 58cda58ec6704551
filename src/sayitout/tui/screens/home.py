"""Home: the decks with question and due counts, recent scores, the start form, and
(where the terminal has the rows) what is due, the weakest topics and the score trend.

Home gets its services and the app's status through its constructor and talks to the
app with messages (:mod:`sayitout.tui.messages`)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Select, Static

from sayitout.errors import SayitoutError, UsageError
from sayitout.report.dates import when
from sayitout.session.plan import ORDERS, Order, SessionPlan
from sayitout.store.session_score import SESSION_SCORE_LABEL
from sayitout.tui.messages import Failed, HomeData, HomeReady, HomeResumed, StartSession
from sayitout.tui.screens.coach import FocusPanel
from sayitout.tui.widgets.insights import Insights, load_insights
from sayitout.tui.widgets.model_status import AppStatus, status_line

if TYPE_CHECKING:
    from sayitout.session.services import SessionServices

_ORDER_LABELS = {"due": "Due first", "random": "Random", "in-order": "In order"}


def load_home_data(services: SessionServices, now: datetime | None = None) -> HomeData:
    """Decks, due counts and recent session scores (runs in a worker thread)."""
    bank = services.bank
    try:
        store = services.store
    except SayitoutError:
        store = None
    now = now or services.clock()
    rows: list[dict[str, Any]] = []
    for deck_id, deck in bank.decks.items():
        questions = bank.questions(deck=deck_id)
        due = new = None
        last: list[int] = []
        if store is not None:
            due, new = _due_counts(store, questions, now)
            last = [
                round(s.session_score)
                for s in store.sessions(deck=deck_id, limit=5, include_cli=False)
                if s.session_score is not None
            ]
        rows.append(
            {
                "id": deck_id,
                "title": deck.title,
                "questions": len(questions),
                "due": due,
                "new": new,
                "last": list(reversed(last)),
            }
        )
    recent: list[str] = []
    if store is not None:
        for s in store.sessions(limit=4, include_cli=False):
            if s.session_score is None:
                continue
            recent.append(
                f"{when(s.started_at)} {s.deck}: {SESSION_SCORE_LABEL.lower()} "
                f"{s.session_score:.0f}/100 "
                f"({s.attempt_count} answer{'s' if s.attempt_count != 1 else ''})"
            )
    insights = load_insights(store, bank, now)
    return HomeData(rows, recent, bank.topics(), len(bank.errors), insights)


def _due_counts(store, questions, now) -> tuple[int | None, int | None]:
    """(due, new) from the spaced-repetition schedule."""
    try:
        from sayitout.schedule import counts
    except ImportError:
        return None, None
    try:
        c = counts(store, questions, now)
    except SayitoutError:
        return None, None
    return c.due, c.new


class HomeScreen(Screen):
    CSS_PATH = "home.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start session"),
        Binding("i", "interview", "Mock interview"),
        Binding("c", "coach", "Coach"),
        Binding("h", "app.history", "History"),
        Binding("o", "app.settings", "Settings"),
        Binding("question_mark", "app.help", "Help"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self, services: SessionServices, status: AppStatus | None = None) -> None:
        super().__init__()
        self.services = services
        self.status = status or AppStatus()
        self.decks: list[str] = []
        self.topics: list[str] = []

    def compose(self) -> ComposeResult:
        practice = self.services.settings.practice
        yield Header()
        with Vertical(id="home-body"):
            yield DataTable(id="decks", cursor_type="row", zebra_stripes=True)
            yield Static("Loading the question bank…", id="recent")
            yield FocusPanel(self.services, hint="(c: coach)", id="focus")
            with Grid(id="form"):
                with Vertical():
                    yield Label("Questions")
                    yield Input(str(practice.count), id="count", type="integer")
                with Vertical():
                    yield Label("Order")
                    yield Select(
                        [(_ORDER_LABELS[o], o) for o in ORDERS],
                        value=practice.order,
                        allow_blank=False,
                        id="order",
                    )
                with Vertical():
                    yield Label("Topics (comma separated)")
                    yield Input("", id="topics", placeholder="all topics")
                with Vertical():
                    yield Label("Answer limit (s)")
                    limit = practice.answer_limit_s
                    yield Input(
                        "" if limit is None else f"{limit:g}",
                        id="limit",
                        placeholder="per question",
                        type="number",
                    )
                with Vertical():
                    yield Label("Thinking time (s)")
                    yield Input(f"{practice.thinking_s:g}", id="thinking", type="number")
                with Vertical(id="start-cell"):
                    yield Label(" ")
                    yield Button("Start ▶", id="start", variant="success")
            yield Insights(id="insights")
            yield Static("", id="models")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "sayitout"
        self.sub_title = "spoken interview practice"
        table = self.query_one("#decks", DataTable)
        table.add_columns("Deck", "Questions", "Due", "New", "Last sessions")
        self.refresh_models()
        # After the first paint: the worker's imports (YAML, pydantic models, SQLite)
        # hold the GIL and would otherwise delay the first frame.
        self.call_after_refresh(self.load_data)

    def on_resize(self) -> None:
        self.refresh_models()  # the line's parts are packed to the width

    def on_screen_resume(self) -> None:
        self.load_data()
        self.query_one(FocusPanel).reload()
        self.refresh_models()
        self.post_message(HomeResumed())  # e.g. offer answers found while a session ran

    @work(thread=True, exclusive=True, exit_on_error=False, group="home")
    def load_data(self) -> None:
        try:
            self.post_message(load_home_data(self.services))
        except SayitoutError as exc:
            self.post_message(Failed.from_error(exc))

    @on(HomeData)
    def _show_data(self, message: HomeData) -> None:
        table = self.query_one("#decks", DataTable)
        cursor = table.cursor_row
        table.clear()
        self.decks = []
        for row in message.rows:
            due = "–" if row["due"] is None else str(row["due"])
            new = "–" if row["new"] is None else str(row["new"])
            last = " ".join(str(s) for s in row["last"]) or "none yet"
            table.add_row(Text(row["title"], style="bold"), str(row["questions"]), due, new, last)
            self.decks.append(row["id"])
        if len(message.rows) > 1:
            total = sum(r["questions"] for r in message.rows)
            table.add_row(Text("All decks", style="italic"), str(total), "", "", "")
            self.decks.append("")
        if self.decks:
            table.move_cursor(row=min(cursor, len(self.decks) - 1))
        self.topics = message.topics
        recent = Text()
        if message.recent:
            recent.append("Recent: ", style="bold")
            recent.append(" · ".join(message.recent))
        else:
            recent.append("No sessions yet. Pick a deck and press Start (ctrl+s).", style="dim")
        if message.problems:
            recent.append(
                f"\n{message.problems} bank problem(s): run `sayitout check`.", style="yellow"
            )
        self.query_one("#recent", Static).update(recent)
        if message.insights is not None:
            self.query_one(Insights).show(message.insights)
        self.post_message(HomeReady())

    @on(Failed)
    def _load_failed(self, message: Failed) -> None:
        # Shown here, and left to bubble up: the app opens the error dialog.
        self.query_one("#recent", Static).update(Text(message.message, style="red"))
        self.post_message(HomeReady())

    def refresh_models(self) -> None:
        # Never open the sound library here (UI thread): the warm-up worker checks the
        # microphone and this line is redrawn when it has.
        why = self.services.spoken_answers_unavailable(block=False)
        widget = self.query_one("#models", Static)
        width = widget.content_size.width or self.size.width - 2
        widget.update(status_line(self.status, None if why is None else why[0], width))

    def plan_from_form(self) -> SessionPlan:
        """The plan the form describes; a :class:`UsageError` names a bad field."""
        count_text = self.query_one("#count", Input).value.strip()
        try:
            count = int(count_text)
        except ValueError:
            raise UsageError("How many questions: enter a whole number, like 5.") from None
        topics = tuple(
            t.strip() for t in self.query_one("#topics", Input).value.split(",") if t.strip()
        )
        unknown = [t for t in topics if self.topics and t.lower() not in self.topics]
        if unknown:
            raise UsageError(
                f"Unknown topic: {', '.join(unknown)}.", "Topics: " + ", ".join(self.topics)
            )
        limit_text = self.query_one("#limit", Input).value.strip()
        thinking_text = self.query_one("#thinking", Input).value.strip() or "0"
        try:
            limit = float(limit_text) if limit_text else None
            thinking = float(thinking_text)
        except ValueError:
            raise UsageError("Times are in seconds, like 90.") from None
        table = self.query_one("#decks", DataTable)
        deck = self.decks[table.cursor_row] if self.decks else None
        chosen = self.query_one("#order", Select).value
        order: Order = next((o for o in ORDERS if o == chosen), "due")
        return SessionPlan(
            deck=deck or None,
            count=count,
            topics=topics,
            order=order,
            answer_limit_s=limit,
            thinking_s=thinking,
            follow_ups=self.services.settings.practice.follow_ups,
        )

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            plan = self.plan_from_form()
        except UsageError as exc:
            self.notify(
                exc.message + (f"\n{exc.hint}" if exc.hint else ""),
                title="Cannot start",
                severity="error",
            )
            return
        self.post_message(StartSession(plan))

    def action_interview(self) -> None:
        """A mock interview on the chosen deck, with the form's count and thinking time."""
        from sayitout.session.interview import DEFAULT_THINKING_S, InterviewPlan, check_deck_fits

        try:
            form = self.plan_from_form()
            plan = InterviewPlan(
                deck=form.deck,
                count=form.count,
                thinking_s=form.thinking_s or DEFAULT_THINKING_S,
                follow_ups=form.follow_ups,
            )
            bank = self.services.bank_if_loaded
            if bank is not None:
                check_deck_fits(bank, plan, count_name="Questions:")
        except UsageError as exc:
            self.notify(
                exc.message + (f"\n{exc.hint}" if exc.hint else ""),
                title="Cannot start the interview",
                severity="error",
            )
            return
        self.post_message(StartSession(plan))

    def action_coach(self) -> None:
        from sayitout.tui.screens.coach import CoachScreen

        self.app.push_screen(CoachScreen(self.services))

    @on(DataTable.RowSelected, "#decks")
    def _deck_chosen(self) -> None:
        self.query_one("#count", Input).focus()
