"""The interview report card: grade, each question, delivery, top fixes, and progress."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from sayitout.report.bands import score_style
from sayitout.store.session_score import SESSION_SCORE_LABEL
from sayitout.tui.screens.coach import FocusPanel
from sayitout.tui.widgets.level_meter import clock

if TYPE_CHECKING:
    from sayitout.session.interview_report import InterviewReport
    from sayitout.session.services import SessionServices

_GRADE_STYLE = {"A": "bold green", "B": "bold green", "C": "bold yellow", "D": "bold red"}
_MARK = {"covered": ("✔", "green"), "partial": ("◐", "yellow"), "missed": ("✘", "red")}


def render_report(report: InterviewReport) -> Group:
    parts: list[RenderableType] = []
    head = Text()
    head.append(f" {report.grade} ", style=_GRADE_STYLE.get(report.grade, "bold red") + " reverse")
    head.append(f"  {SESSION_SCORE_LABEL} {report.overall:.0f}/100", style="bold")
    head.append(f"  ·  {report.answered} of {report.planned} answered")
    if report.elapsed_s:
        head.append(f"  ·  {clock(report.elapsed_s)}", style="dim")
    parts.append(head)
    if report.unanswered:
        n = report.unanswered
        parts.append(
            Text(
                f"The {'question' if n == 1 else f'{n} questions'} left unanswered "
                f"{'is' if n == 1 else 'are'} not in the score (as in History); "
                "a pass counts 0.",
                style="dim",
            )
        )
    if report.incomplete:
        parts.append(Text("Ended early: the answers given are saved.", style="yellow"))
    elif report.time_up:
        parts.append(Text("Time ran out before the last questions.", style="yellow"))
    if report.previous is not None and report.change is not None:
        prev = report.previous
        sign, style = ("+", "green") if report.change >= 0 else ("−", "red")
        line = Text("Previous interview on this deck: ")
        line.append(f"{prev.grade}, {prev.overall:.0f}/100 ", style="bold")
        line.append(f"({sign}{abs(report.change):.0f})", style=style)
        line.append(f"  {prev.when.astimezone().strftime('%d %b %H:%M')}", style="dim")
        parts.append(line)
    else:
        parts.append(Text("Your first mock interview on this deck.", style="dim"))

    parts.append(Text("\nTop three things to fix", style="bold underline"))
    if report.fixes:
        fixes = Table.grid(padding=(0, 1))
        fixes.add_column(width=3, no_wrap=True, justify="right")
        fixes.add_column(ratio=1)
        for i, fix in enumerate(report.fixes, 1):
            fixes.add_row(Text(f"{i}."), Text(fix))
        parts.append(fixes)
    else:
        parts.append(Text(" Nothing stands out: keep it up.", style="green"))

    parts.append(Text("\nQuestions", style="bold underline"))
    for q in report.questions:
        line = Text()
        if q.passed:
            line.append("passed ", style="bold yellow")
        elif q.score is None:
            line.append("unanswered ", style="bold red")
        else:
            line.append(f"{q.score}/100 ", style=score_style(q.score))
            if q.follow_ups and q.unprompted is not None and q.score != q.unprompted:
                line.append(f"({q.unprompted} + {q.score - q.unprompted} prompted) ", style="dim")
        line.append(q.text)
        row = Table.grid(padding=(0, 1))
        row.add_column(width=3, no_wrap=True, justify="right")
        row.add_column(ratio=1)
        row.add_row(Text(f"{q.index + 1}.", style="bold"), line)
        parts.append(row)
        if q.key_points:
            grid = Table.grid(padding=(0, 1))
            grid.add_column(width=5, no_wrap=True, justify="right")
            grid.add_column(ratio=1)
            for text, status in q.key_points:
                mark, colour = _MARK.get(status, ("?", ""))
                grid.add_row(Text(mark, style=colour), Text(text, style="dim"))
            parts.append(grid)
        for f in q.follow_ups:
            mark, colour = _MARK.get(f.status, ("?", ""))
            if f.volunteered:  # made in the reply above, unasked
                follow = Text("      Also made in that reply: ", style="magenta")
                follow.append(f'"{f.evidence or f.answer}"', style="italic")
            else:
                follow = Text("      Follow-up: ", style="magenta")
                follow.append(f.question, style="italic")
            follow.append(f"  {mark}", style=colour)
            if f.credit:
                follow.append(f" +{f.credit:g}", style="green")
            parts.append(follow)

    d = report.delivery
    parts.append(Text("\nDelivery across the interview", style="bold underline"))
    if not d.spoken_answers:
        parts.append(Text(" No spoken answers (typed only).", style="dim"))
    else:

        def fmt(value: float | None, unit: str = "", digits: int = 0) -> str:
            return "–" if value is None else f"{value:.{digits}f}{unit}"

        parts.append(
            Text(
                f" {fmt(d.words_per_minute)} words/min · {d.filler_count} fillers "
                f"({fmt(d.fillers_per_minute, '', 1)}/min) · longest answer "
                f"{fmt(d.longest_monologue_s, ' s')} · first word after "
                f"{fmt(d.time_to_first_word_s, ' s', 1)} on average"
            )
        )
    return Group(*parts)


class InterviewReportScreen(Screen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "app.go_home", "Home"),
        Binding("h", "app.history", "History"),
        Binding("q", "app.quit", "Quit"),
    ]
    DEFAULT_CSS = """
    InterviewReportScreen #report-body { padding: 1 1 0 1; }
    """

    def __init__(self, report: InterviewReport, services: SessionServices | None = None) -> None:
        super().__init__()
        self.report = report
        self.services = services

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="report-body"):
            yield Static(render_report(self.report), id="report")
            if self.services is not None:
                yield FocusPanel(self.services, id="focus")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "sayitout"
        self.sub_title = f"interview report card · {self.report.deck}"
