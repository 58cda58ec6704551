"""History: sessions newest first and their attempts, filterable by deck, topic and score.

Built for big histories: the sessions list and each page of attempts load in worker
threads and arrive as messages; the attempts table loads 200 rows at a time as the
cursor nears the end, so 10,000 attempts open and scroll without a stall.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label, ProgressBar, Select, Static

from sayitout.errors import SayitoutError
from sayitout.report.bands import BANDS, score_style
from sayitout.report.dates import when
from sayitout.store import AttemptFilter, AttemptSummary, SessionRecord, Store
from sayitout.store.records import PASSED
from sayitout.tui.messages import Failed

PAGE = 200
"""Attempts fetched per query."""
PREFETCH = 120
"""Fetch the next page when the cursor is this close to the last loaded row (a few
screens ahead, so paging down never waits for the database)."""
SCORE_BANDS: dict[str, tuple[int | None, int | None]] = {
    label: (low, high) for label, low, high in BANDS
}
ALL = "all"
CLI = "cli"


@dataclass(frozen=True)
class HistoryFilter:
    deck: str | None = None
    topic: str | None = None
    band: str | None = None
    session: str = ALL
    """``all``, ``cli`` (command-line attempts) or a session id as text."""


def attempt_cells(a: AttemptSummary) -> tuple[Any, ...]:
    """The attempts table's cells for one attempt."""
    score = Text(f"{a.score:>3}", style=score_style(a.score))
    if a.ended_by == PASSED:
        score = Text("pass", style="yellow")
    cover = "" if a.coverage is None else f"{round(100 * a.coverage)}%"
    wpm = "" if a.wpm is None else f"{a.wpm:.0f}"
    fill = "" if a.fillers_per_min is None else f"{a.fillers_per_min:.1f}"
    if a.recording_path is None:
        audio = Text("typed", style="dim")
    else:
        audio = Text("yes") if a.recording_path.is_file() else Text("gone", style="yellow")
    return when(a.created_at), score, a.question_id, cover, wpm, fill, audio


# ------------------------------------------------------------------------- messages
class SessionsLoaded(Message):
    def __init__(self, generation: int, sessions: list[SessionRecord], total: int) -> None:
        super().__init__()
        self.generation, self.sessions, self.total = generation, sessions, total


class AttemptsPage(Message):
    """A page of attempts with their table cells already built (off the UI thread)."""

    def __init__(
        self,
        generation: int,
        offset: int,
        rows: list[AttemptSummary],
        cells: list[tuple[Any, ...]],
        total: int,
    ) -> None:
        super().__init__()
        self.generation, self.offset, self.rows, self.total = generation, offset, rows, total
        self.cells = cells


class ReportProgress(Message):
    def __init__(self, fraction: float, stage: str) -> None:
        super().__init__()
        self.fraction, self.stage = fraction, stage

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, ReportProgress)


class ReportDone(Message):
    def __init__(self, path: Path | None, error: str | None = None) -> None:
        super().__init__()
        self.path, self.error = path, error


# --------------------------------------------------------------------------- screen
NARROW_COLUMNS = 130


class HistoryScreen(Screen):
    """Every stored session and attempt. ``enter`` opens an attempt in full."""

    DEFAULT_CSS = """
    HistoryScreen #filters { height: auto; padding: 0 1; }
    HistoryScreen #filters Select { width: 1fr; margin-right: 1; }
    HistoryScreen #panes { height: 1fr; }
    HistoryScreen #sessions-pane { width: 51; min-width: 30; }
    HistoryScreen #attempts-pane { width: 1fr; }
    HistoryScreen.narrow #panes { layout: vertical; }
    HistoryScreen.narrow #sessions-pane { width: 1fr; height: 7; }
    HistoryScreen.narrow #attempts-pane { width: 1fr; height: 1fr; }
    HistoryScreen .pane-title { padding: 0 1; color: $text-muted; text-style: bold; }
    HistoryScreen DataTable { height: 1fr; }
    HistoryScreen #status { height: 1; padding: 0 1; color: $text-muted; }
    HistoryScreen #report-progress { display: none; height: 1; padding: 0 1; }
    HistoryScreen #report-progress.busy { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("enter", "open", "Open attempt", show=True),
        Binding("tab", "focus_next", "Next pane", show=False),
        Binding("r", "refresh", "Refresh"),
        Binding("e", "export", "Export report"),
    ]

    def __init__(self, store: Store, bank: Any = None, *, report_dir: Path | None = None) -> None:
        super().__init__()
        self.store = store
        self.bank = bank
        self.report_dir = report_dir
        self.filter = HistoryFilter()
        self._generation = 0
        self._loaded = 0
        self._total = 0
        self._loading = False
        self._attempt_ids: list[int] = []

    # ------------------------------------------------------------------ layout
    def on_resize(self, event: events.Resize) -> None:
        # Side by side needs about 130 columns; below that the panes stack, so the
        # attempts table keeps the full width for its score and figures.
        self.set_class(event.size.width < NARROW_COLUMNS, "narrow")

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="filters"):
            yield Select([], prompt="All decks", id="deck")
            yield Select([], prompt="All topics", id="topic")
            yield Select([(k, k) for k in SCORE_BANDS], prompt="Any score", id="band")
        with Horizontal(id="panes"):
            with Vertical(id="sessions-pane"):
                yield Label("Sessions", classes="pane-title")
                yield DataTable(id="sessions", cursor_type="row", zebra_stripes=True)
            with Vertical(id="attempts-pane"):
                yield Label("Attempts", classes="pane-title", id="attempts-title")
                yield DataTable(id="attempts", cursor_type="row", zebra_stripes=True)
        yield ProgressBar(total=1.0, show_eta=False, id="report-progress")
        yield Static("Loading…", id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "sayitout"
        self.sub_title = "history"
        sessions = self.query_one("#sessions", DataTable)
        # "Ans" fits 9,999,999 attempts; "Score" is the session score (SESSION_SCORE_LABEL).
        for label, key, width in (("When", "when", 16), ("Deck", "deck", 14), ("Ans", "n", 7),
                                  ("Score", "mean", 5)):  # fmt: skip
            sessions.add_column(label, key=key, width=width)
        attempts = self.query_one("#attempts", DataTable)
        for label, key, width in (
            ("When", "when", 16), ("Score", "score", 5), ("Question", "q", 24),
            ("Cover", "cover", 5), ("WPM", "wpm", 4), ("Fill/m", "fill", 6), ("Audio", "audio", 5),
        ):  # fmt: skip
            attempts.add_column(label, key=key, width=width)
        self._fill_filter_options()
        self.reload()
        attempts.focus()

    def _fill_filter_options(self) -> None:
        decks: list[str] = []
        topics: list[str] = []
        if self.bank is not None:
            decks = list(self.bank.decks)
            try:
                topics = list(self.bank.topics())
            except Exception:
                topics = []
        self.query_one("#deck", Select).set_options((d, d) for d in decks)
        self.query_one("#topic", Select).set_options((t, t) for t in topics)
        self.query_one("#topic", Select).disabled = not topics

    # ----------------------------------------------------------------- loading
    def reload(self) -> None:
        """Reload sessions and the first page of attempts for the current filter."""
        self._restart_attempts()
        self._load_sessions(self._generation, self.filter)

    def _restart_attempts(self) -> None:
        """Empty the attempts table and load its first page; pages of an older
        generation that arrive later are dropped."""
        self._generation += 1
        self._loaded = 0
        self._total = 0
        self._attempt_ids = []
        self._loading = True
        self.query_one("#attempts", DataTable).clear()
        self._load_attempts(self._generation, self.filter, 0)

    def _store_filter(self, flt: HistoryFilter) -> AttemptFilter:
        ids = None
        if flt.topic and self.bank is not None:
            ids = tuple(q.id for q in self.bank.questions(topics=[flt.topic], ready_only=False))
        low, high = SCORE_BANDS[flt.band] if flt.band else (None, None)
        return AttemptFilter(
            deck=flt.deck,
            question_ids=ids,
            min_score=low,
            max_score=high,
            cli_only=flt.session == CLI,
            session_id=int(flt.session) if flt.session not in (ALL, CLI) else None,
        )

    @work(thread=True, exclusive=True, group="history-sessions", exit_on_error=False)
    def _load_sessions(self, generation: int, flt: HistoryFilter) -> None:
        try:
            sessions = self.store.sessions(deck=flt.deck)
            total = self.store.count_attempts(AttemptFilter(deck=flt.deck))
        except SayitoutError as exc:
            self.post_message(Failed.from_error(exc))
            return
        self.post_message(SessionsLoaded(generation, sessions, total))

    @work(thread=True, group="history-attempts", exit_on_error=False)
    def _load_attempts(self, generation: int, flt: HistoryFilter, offset: int) -> None:
        try:
            where = self._store_filter(flt)
            rows = self.store.attempts(where, limit=PAGE, offset=offset)
            total = self.store.count_attempts(where) if offset == 0 else -1
        except SayitoutError as exc:
            self.post_message(Failed.from_error(exc))
            return
        cells = [attempt_cells(a) for a in rows]  # includes a stat() per recording
        self.post_message(AttemptsPage(generation, offset, rows, cells, total))

    @on(SessionsLoaded)
    def _sessions_loaded(self, message: SessionsLoaded) -> None:
        if message.generation != self._generation:
            return
        table = self.query_one("#sessions", DataTable)
        keep = self.filter.session
        table.clear()
        table.add_row(Text("All sessions", style="bold"), "", f"{message.total:,}", "", key=ALL)
        # (the "Ans" of "All sessions" counts the deck filter only, like the sessions listed)
        rows = []
        for s in message.sessions:
            key = CLI if s.id is None else str(s.id)
            deck = "command line" if s.id is None else s.deck
            answers = f"{s.attempt_count:,}"
            if s.kind == "interview":  # a mock interview: "1/3" when it ended early
                deck = f"mock {deck}"
                if s.finished_at is None:
                    answers = f"{s.attempt_count}/{s.settings.get('count', '?')}"
            score = (
                Text(f"{s.session_score:.0f}", style=score_style(s.session_score))
                if s.session_score is not None
                else Text("–", style="dim")
            )
            rows.append(((when(s.started_at), deck, answers, score), key))
        for cells, key in rows:
            table.add_row(*cells, key=key)
        try:
            table.move_cursor(row=table.get_row_index(keep), animate=False)
        except Exception:
            table.move_cursor(row=0, animate=False)

    @on(AttemptsPage)
    def _attempts_loaded(self, message: AttemptsPage) -> None:
        if message.generation != self._generation or message.offset != self._loaded:
            return
        if message.total >= 0:
            self._total = message.total
        table = self.query_one("#attempts", DataTable)
        for a, cells in zip(message.rows, message.cells, strict=True):
            table.add_row(*cells, key=str(a.id))
            self._attempt_ids.append(a.id)
        self._loaded += len(message.rows)
        self._loading = False
        self._update_status()

    def _update_status(self) -> None:
        if self._total == 0:
            text = (
                "No attempts match these filters."
                if self.filter != HistoryFilter()
                else "No attempts yet: practise a few questions and they will show up here."
            )
        else:
            more = "" if self._loaded >= self._total else " (more load as you scroll)"
            text = f"{self._loaded:,} of {self._total:,} attempts shown{more}"
        self.query_one("#status", Static).update(text)
        title = self.query_one("#attempts-title", Label)
        title.update("Attempts" if self.filter.session == ALL else "Attempts in this session")

    def _maybe_load_more(self, row: int) -> None:
        if self._loading or self._loaded >= self._total:
            return
        if row >= self._loaded - PREFETCH:
            self._loading = True
            self._load_attempts(self._generation, self.filter, self._loaded)

    @on(DataTable.RowHighlighted, "#attempts")
    def _attempt_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._maybe_load_more(event.cursor_row)

    @on(DataTable.RowHighlighted, "#sessions")
    def _session_highlighted(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value if event.row_key is not None else ALL
        if key is None or key == self.filter.session:
            return
        self.filter = HistoryFilter(self.filter.deck, self.filter.topic, self.filter.band, key)
        self._restart_attempts()

    @on(Select.Changed)
    def _filter_changed(self, event: Select.Changed) -> None:
        value = None if event.value is Select.NULL else str(event.value)
        f = self.filter
        if event.select.id == "deck":
            f = HistoryFilter(value, f.topic, f.band, ALL)
        elif event.select.id == "topic":
            f = HistoryFilter(f.deck, value, f.band, f.session)
        elif event.select.id == "band":
            f = HistoryFilter(f.deck, f.topic, value, f.session)
        if f != self.filter:
            self.filter = f
            self.reload()

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        message.stop()  # shown here; no dialog over the list
        self._loading = False
        self.query_one("#status", Static).update(f"{message.message}")
        self.notify(
            message.message + (f"\n{message.hint}" if message.hint else ""),
            title=message.title,
            severity="error",
        )

    # ----------------------------------------------------------------- actions
    @property
    def loaded_rows(self) -> int:
        return self._loaded

    @property
    def total_rows(self) -> int:
        return self._total

    def selected_attempt_id(self) -> int | None:
        table = self.query_one("#attempts", DataTable)
        if not self._attempt_ids or table.cursor_row < 0:
            return None
        return self._attempt_ids[min(table.cursor_row, len(self._attempt_ids) - 1)]

    def action_open(self) -> None:
        attempt_id = self.selected_attempt_id()
        if attempt_id is None:
            return
        from sayitout.tui.screens.attempt import AttemptScreen

        self.app.push_screen(AttemptScreen(self.store, attempt_id, bank=self.bank))

    @on(DataTable.RowSelected, "#attempts")
    def _attempt_selected(self, _event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_refresh(self) -> None:
        self.reload()

    def action_export(self) -> None:
        """Write an HTML report of what the filters show, with a progress bar."""
        self.query_one("#report-progress", ProgressBar).add_class("busy")
        self.query_one("#report-progress", ProgressBar).update(progress=0)
        self._export(self.filter)

    def _post_report_progress(self, fraction: float, stage: str) -> None:
        self.post_message(ReportProgress(fraction, stage))

    @work(thread=True, exclusive=True, group="history-report", exit_on_error=False)
    def _export(self, flt: HistoryFilter) -> None:
        from sayitout.report.export import write_report

        filters = self._store_filter(HistoryFilter(flt.deck, flt.topic, flt.band))
        try:
            folder = self.report_dir
            if folder is None:
                from sayitout.locations import ensure_dir, locations

                folder = ensure_dir(locations().exports_dir)
            path, _ = write_report(
                self.store,
                "html",
                filters,
                bank=self.bank,
                output=folder,
                topic=flt.topic,
                progress=self._post_report_progress,
            )
        except SayitoutError as exc:
            self.post_message(ReportDone(None, exc.message))
            return
        self.post_message(ReportDone(path))

    @on(ReportProgress)
    def _report_progress(self, message: ReportProgress) -> None:
        self.query_one("#report-progress", ProgressBar).update(progress=message.fraction)
        self.query_one("#status", Static).update(f"Writing the report: {message.stage}…")

    @on(ReportDone)
    def _report_done(self, message: ReportDone) -> None:
        self.query_one("#report-progress", ProgressBar).remove_class("busy")
        self._update_status()
        if message.error:
            self.notify(message.error, title="Report not written", severity="error")
        else:
            self.notify(f"Report written to {message.path}", title="Report ready")
