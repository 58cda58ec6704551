"""The end-of-session summary."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from sayitout.report.bands import score_style
from sayitout.session.summary import SessionSummary
from sayitout.tui.screens.coach import FocusPanel


def _fmt(value: float | None, unit: str = "", digits: int = 0) -> str:
    return "–" if value is None else f"{value:.{digits}f}{unit}"


class SummaryScreen(Screen):
    CSS_PATH = "summary.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "app.go_home", "Home"),
        Binding("h", "app.history", "History"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, summary: SessionSummary, quit_early: bool = False) -> None:
        super().__init__()
        self.summary = summary
        self.quit_early = quit_early

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="summary-body"):
            yield Static(self._headline(), id="headline")
            yield DataTable(id="outcomes", cursor_type="row", zebra_stripes=True)
            yield Static(self._missed(), id="missed")
            yield Static(self._delivery(), id="delivery")
            services = getattr(self.app, "services", None)
            if services is not None:
                yield FocusPanel(services, id="focus")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "sayitout"
        self.sub_title = "session summary"
        table = self.query_one(DataTable)
        table.add_columns("#", "Score", "Tries", "Question")
        for i, o in enumerate(self.summary.outcomes, 1):
            score = (
                Text(f"{o.score:>3}", style=score_style(o.score))
                if o.score is not None
                else Text("  –", style="dim")
            )
            room = max(30, self.app.size.width - 26)
            text = o.text if len(o.text) <= room else o.text[: room - 1] + "…"
            table.add_row(str(i), score, str(o.attempts), text)

    def _headline(self) -> Text:
        s = self.summary
        text = Text()
        if not s.answered:
            text.append("No answers were scored in this session.", style="bold")
            return text
        mean = s.mean_score or 0.0
        text.append(f"Session score {mean:.0f}/100", style=score_style(int(mean)))
        text.append(f"  ·  {s.answered} of {len(s.outcomes)} answered")
        if self.quit_early:
            text.append("  ·  ended early (answers so far are saved)", style="dim")
        if s.change is not None:
            sign = "+" if s.change >= 0 else "−"
            style = "green" if s.change >= 0 else "red"
            text.append(f"\nPrevious session: {s.previous_mean:.0f}/100  ")
            text.append(f"({sign}{abs(s.change):.0f})", style=style)
        elif s.answered:
            text.append(
                "\nYour first session on this deck: nothing to compare with yet.", style="dim"
            )
        return text

    def _missed(self) -> Group:
        title = Text("Key points most often missed", style="bold underline")
        if not self.summary.most_missed:
            none = " none: every key point was covered" if self.summary.answered else " –"
            return Group(title, Text(none))
        table = Table.grid(padding=(0, 1))
        table.add_column(width=4, no_wrap=True)
        table.add_column(ratio=1)
        for m in self.summary.most_missed:
            mark = Text(f"✘{'×' + str(m.times) if m.times > 1 else ''}", style="red")
            cell = Text(m.text)
            if m.reversed_times:
                share = "" if m.reversed_times == m.times else f" ({m.reversed_times} of {m.times})"
                cell.append(f"  said the other way round{share}", style="yellow")
            cell.append(f"  ({m.question_id})", style="dim")
            table.add_row(mark, cell)
        return Group(title, table)

    def _delivery(self) -> Text:
        d = self.summary.delivery
        text = Text.assemble(("Delivery (spoken answers)", "bold underline"), "\n")
        if not d.spoken_answers:
            text.append(" – no spoken answers")
            return text
        text.append(
            f" {_fmt(d.words_per_minute)} words/min · {_fmt(d.fillers_per_minute, '', 1)} "
            f"fillers/min · {_fmt(d.long_pauses, '', 1)} long pauses per answer · first word "
            f"after {_fmt(d.time_to_first_word_s, ' s', 1)}"
        )
        return text
