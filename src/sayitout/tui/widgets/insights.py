"""Home's lower panels: what is due, the weakest topics, and the session-score trend.

``load_insights`` runs in Home's worker thread (no Textual); ``Insights`` draws it in
three columns that use whatever rows the terminal leaves below the start form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from sayitout.errors import SayitoutError
from sayitout.report.bands import score_style

_SPARK = "▁▂▃▄▅▆▇█"


@dataclass(frozen=True)
class DueQuestion:
    question_id: str
    text: str
    last_score: int | None


@dataclass(frozen=True)
class HomeInsights:
    due: list[DueQuestion] = field(default_factory=list)
    due_total: int = 0
    weakest: list[tuple[str, float, int]] = field(default_factory=list)
    """``(topic, mean of each question's latest score, questions answered)``, weakest first."""
    trend: list[int] = field(default_factory=list)
    """Session scores, oldest first (the last 30 sessions)."""


def load_insights(store: Any, bank: Any, now: datetime, *, limit: int = 12) -> HomeInsights:
    """Due questions (most overdue first), weakest topics and the score trend."""
    if store is None:
        return HomeInsights()
    questions = bank.questions()
    due: list[DueQuestion] = []
    due_total = 0
    try:
        stats = store.question_stats()
    except SayitoutError:
        stats = {}
    try:
        from sayitout.schedule import schedule

        entries = [e for e in schedule(store, questions, now) if e.status == "due"]
        entries.sort(key=lambda e: -e.overdue_s)
        due_total = len(entries)
        by_id = {q.id: q for q in questions}
        for e in entries[:limit]:
            st = stats.get(e.question_id)
            due.append(
                DueQuestion(
                    e.question_id,
                    by_id[e.question_id].text if e.question_id in by_id else e.question_id,
                    st.last_score if st else None,
                )
            )
    except (ImportError, SayitoutError):
        pass
    topics: dict[str, list[int]] = {}
    for q in questions:
        st = stats.get(q.id)
        if st is None:
            continue
        for t in q.topics:
            topics.setdefault(t, []).append(st.last_score)
    weakest = sorted(
        ((t, sum(s) / len(s), len(s)) for t, s in topics.items()), key=lambda r: (r[1], r[0])
    )[:limit]
    trend: list[int] = []
    try:
        sessions = store.sessions(limit=30, include_cli=False)
    except SayitoutError:
        sessions = []
    for s in reversed(sessions):
        if s.session_score is not None:
            trend.append(round(s.session_score))
    return HomeInsights(due, due_total, weakest, trend)


def sparkline(values: list[int], width: int) -> Text:
    """One character per value (the most recent ``width``), each coloured by its band."""
    out = Text()
    for v in values[-width:]:
        out.append(_SPARK[min(len(_SPARK) - 1, max(0, v * len(_SPARK) // 101))], score_style(v))
    return out


def _title(text: str) -> Text:
    return Text(text, style="bold underline")


def _cut(text: str) -> Text:
    line = Text(text)
    line.no_wrap = True
    line.overflow = "ellipsis"
    return line


class Insights(Horizontal):
    """Three columns: due now, weakest topics, score trend."""

    DEFAULT_CSS = """
    Insights { height: 1fr; min-height: 0; }
    Insights > Static { width: 1fr; height: 1fr; padding: 0 1 0 0; overflow: hidden hidden; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="due-list")
        yield Static("", id="weak-topics")
        yield Static("", id="trend")

    def show(self, data: HomeInsights) -> None:
        due = Table.grid(padding=(0, 1), expand=True)
        due.add_column(width=3, no_wrap=True, justify="right")
        due.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        for d in data.due:
            score = (
                Text("new", style="dim")
                if d.last_score is None
                else Text(f"{d.last_score}", style=score_style(d.last_score))
            )
            due.add_row(score, _cut(d.text))
        title = f"Due now ({data.due_total})" if data.due_total else "Due now"
        body: Any = due if data.due else Text("nothing due: well kept up", style="dim")
        self.query_one("#due-list", Static).update(Group(_title(title), body))

        weak = Table.grid(padding=(0, 1), expand=True)
        weak.add_column(width=3, no_wrap=True, justify="right")
        weak.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        for topic, mean, n in data.weakest:
            weak.add_row(Text(f"{mean:.0f}", style=score_style(mean)), _cut(f"{topic} ({n})"))
        body = weak if data.weakest else Text("no answers yet", style="dim")
        self.query_one("#weak-topics", Static).update(Group(_title("Weakest topics"), body))

        trend_widget = self.query_one("#trend", Static)
        if data.trend:
            width = max(8, trend_widget.size.width - 1 or 30)
            last = data.trend[-1]
            lines = [
                _title("Session scores"),
                sparkline(data.trend, width),
                Text.assemble(
                    ("latest ", "dim"),
                    (f"{last}", score_style(last)),
                    (f" · best {max(data.trend)} · {len(data.trend)} sessions", "dim"),
                ),
            ]
            trend_widget.update(Group(*lines))
        else:
            trend_widget.update(Group(_title("Session scores"), Text("none yet", style="dim")))
