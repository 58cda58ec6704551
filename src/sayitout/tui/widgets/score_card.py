"""The score card shown after each answer.

Built to fit a 80x24 terminal: the score and verdict, then one line per key point (a
checklist), the number and any misconception as checklist lines too, delivery on one
line and what changed since last time on one line. The quotes that earned each point,
the corrections and notes follow under "Details", where scrolling finds them.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from sayitout.report.bands import score_style
from sayitout.scoring.result import (
    AnswerScore,
    DeliveryMetrics,
    FollowUpResult,
    KeyPointResult,
    MisconceptionResult,
    NumericResult,
)
from sayitout.session.events import AnswerScored
from sayitout.session.followups import PROMPTED_WORTH

MARKS = {
    "covered": ("✔", "green"),
    "partial": ("◐", "yellow"),
    "missed": ("✘", "red"),
}
"""Key point status -> (mark, colour); the attempt screen uses the same marks."""
PROMPTED_MARK = ("↪", "magenta")
"""A key point the answer lacked and a follow-up reply made (``prompted_points``)."""


def _quote(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _one_line(*parts: tuple[str, str] | str) -> Text:
    """A line cut with an ellipsis at the card's edge instead of wrapping."""
    line = Text.assemble(*parts)
    line.no_wrap = True
    line.overflow = "ellipsis"
    return line


def _checklist() -> Table:
    """Two columns, mark and text: a wrapped text keeps its indent."""
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(width=2, no_wrap=True)
    grid.add_column(ratio=1)
    return grid


def delivery_line(d: DeliveryMetrics) -> Text:
    line = Text()
    line.append(f"{d.words_per_minute:.0f} words/min", style="bold")
    pace = d.words_per_minute
    if d.words:
        hint = "fast" if pace > 180 else ("slow" if pace < 110 else "good pace")
        line.append(f" ({hint})", style="dim")
    line.append(" · ")
    line.append(f"{d.filler_count} filler{'s' if d.filler_count != 1 else ''}")
    if d.fillers:
        top = ", ".join(f"{w}×{n}" for w, n in sorted(d.fillers.items(), key=lambda i: -i[1])[:3])
        line.append(f" ({top})", style="dim")
    line.append(" · ")
    pauses = len(d.long_pauses)
    line.append(f"{pauses} long pause{'s' if pauses != 1 else ''}")
    if d.time_to_first_word_s is not None:
        line.append(f" · first word after {d.time_to_first_word_s:.1f} s")
    line.append(f" · {d.duration_s:.0f} s")
    return line


def number_line(n: NumericResult) -> tuple[Text, str | None]:
    """The number's checklist text, and the scorer's reason when it adds something."""
    expected = f"{n.expected:g}" + (f" {n.unit}" if n.unit else "")
    if n.heard is None:
        return Text.assemble("no number heard; ", (f"expected {expected}", "dim")), None
    heard = n.heard_text or f"{n.heard:g} {n.heard_unit or ''}".strip()
    text = Text(f'heard "{heard}", ')
    if n.correct:
        text.append("right", style="green")
    else:
        text.append(f"expected {expected}")
        if n.tolerance:
            text.append(f" ± {n.tolerance:g}", style="dim")
    # "Right: 2.3." under "heard 2.3, right" says nothing new; a unit hint or a
    # conversion does.
    reason = n.reason.strip()
    restates = (reason.startswith("Right:") and " is " not in reason) or (
        "but it is" in reason and "which is" not in reason
    )  # a conversion ("512 m is 0.512 km") or a unit hint is kept
    says_more = bool(reason) and not restates
    return text, reason if says_more else None


def _last_time(scored: AnswerScored, numbers: dict[str, int]) -> Text | None:
    """ "Last time 62 → 71 · now covered: 2 · still missing: 3, 4" on one line."""
    prev = scored.previous
    if prev is None:
        return None
    s = scored.score
    now_missed = {kp.text for kp in s.key_points if kp.status != "covered"}
    fixed = [t for t in prev.missed if t not in now_missed]
    still = [t for t in prev.missed if t in now_missed]
    line = Text.assemble(("Last time ", "bold"), (f"{prev.score}", score_style(prev.score)))
    line.append(" → ")
    line.append(f"{s.score}", style=score_style(s.score))

    def names(texts: list[str]) -> str:
        return ", ".join(f"#{numbers[t]}" if t in numbers else _quote(t, 30) for t in texts)

    if fixed:
        line.append(" · now covered: ", style="green")
        line.append(names(fixed))
    if still:
        line.append(" · still missing: ", style="yellow")
        line.append(names(still))
    if not prev.missed:
        line.append(" · nothing was missed then", style="dim")
    line.no_wrap = True
    line.overflow = "ellipsis"
    return line


def render_score(scored: AnswerScored) -> Group:
    s: AnswerScore = scored.score
    parts: list[RenderableType] = []
    head = Text()
    head.append(f"{s.score}/100", style=score_style(s.score))
    head.append(f"  {s.verdict}")
    if s.follow_ups:
        prompted = s.score - s.unprompted_score
        head.append(f"  ({s.unprompted_score} + {prompted} when prompted)", style="dim")
    if scored.rescored:
        head.append("  (rescored after your correction)", style="dim italic")
    elif scored.attempt_number > 1:
        head.append(f"  (try {scored.attempt_number})", style="dim")
    parts.append(head)

    numbers = {kp.text: i for i, kp in enumerate(s.key_points, 1)}
    checklist = _checklist()
    for i, kp in enumerate(s.key_points, 1):
        mark, colour = key_point_mark(s, kp)
        if kp.id in s.prompted_points:
            line = _one_line((f"{i} ", "dim"), ("prompted: ", colour), kp.text)
        else:
            line = _one_line((f"{i} ", "dim"), kp.text)
        checklist.add_row(Text(mark, style=colour), line)
    number_reason = None
    if s.numeric is not None:
        heard, number_reason = number_line(s.numeric)
        ok = s.numeric.correct
        number_mark = Text("✔" if ok else "✘", style="green" if ok else "red")
        checklist.add_row(number_mark, _one_line(("number: ", "bold")) + heard)
    for m in s.misconceptions:
        checklist.add_row(Text("!", style="bold red"), misconception_row(m))
    parts.append(checklist)
    if s.follow_ups:
        parts.append(follow_up_lines(s))
    if s.delivery is not None and s.delivery.words:
        parts.append(_one_line(("Delivery ", "bold")) + delivery_line(s.delivery))
    last = _last_time(scored, numbers)
    if last is not None:
        parts.append(last)

    details = _details(s, number_reason)
    if details is not None:
        parts.append(Text(""))
        parts.append(details)
    return Group(*parts)


def _details(s: AnswerScore, number_reason: str | None) -> RenderableType | None:
    """What you said for each point, the number's reason, corrections and notes."""
    grid = _checklist()
    for i, kp in enumerate(s.key_points, 1):
        if kp.evidence and kp.status != "missed":
            grid.add_row(
                Text(f"{i}", style="dim"), Text(f'"{_quote(kp.evidence)}"', style="italic")
            )
        elif kp.reason and kp.status == "missed":
            # why the words that came close earned nothing, and what saying it the other
            # way round cost
            cost = (f"−{kp.penalty:g} ", "bold red") if kp.penalty else ""
            cell = Text.assemble(cost, ("Not counted: ", "bold yellow"), kp.reason)
            grid.add_row(Text(f"{i}", style="dim"), cell)
    if number_reason:
        grid.add_row(Text("#", style="dim"), Text(number_reason))
    for m in s.misconceptions:
        cell = Text(f'"{_quote(m.evidence)}"', style="italic")
        if m.correction:
            cell.append("\nIn fact: ", style="bold")
            cell.append(m.correction)
        grid.add_row(Text("!", style="red"), cell)
    for note in s.notes:
        grid.add_row(Text("·", style="dim"), Text(note, style="dim italic"))
    if not grid.rows:
        return None
    return Group(Text("What you said", style="bold underline"), grid)


def key_point_mark(s: AnswerScore, kp: KeyPointResult) -> tuple[str, str]:
    """(mark, colour) of a key point: its status's, or ``PROMPTED_MARK`` when the answer
    lacked it and a follow-up reply made it."""
    return PROMPTED_MARK if kp.id in s.prompted_points else MARKS.get(kp.status, ("?", ""))


def misconception_row(m: MisconceptionResult) -> Text:
    """A stated misconception's row: the points it cost first, so a row cut at the
    card's width still shows them, then the words that stated it."""
    return _one_line((f"−{m.penalty:g} ", "bold red"), ("said: ", "red"), f'"{_quote(m.evidence)}"')


def follow_up_row(f: FollowUpResult, quote_limit: int | None = 160) -> tuple[Text, Text]:
    """(mark, cell) of one follow-up turn: what was asked, what the reply said (cut at
    ``quote_limit`` characters; None: whole), the prompted credit."""
    mark, colour = MARKS.get(f.status, ("?", ""))
    if f.volunteered:
        # the reply above it, about another point, made this one too
        evidence = f.evidence or f.answer
        said = evidence if quote_limit is None else _quote(evidence, quote_limit)
        cell = Text.assemble(("also made in that reply: ", "bold magenta"), (f'"{said}"', "dim"))
    else:
        cell = Text.assemble(("follow-up: ", "bold magenta"), (f.question, "italic"))
        cell.append("\n")
        reply = f.answer if quote_limit is None else _quote(f.answer, quote_limit)
        cell.append(f'"{reply}"' if f.answer else "(passed)", style="dim")
    if f.credit:
        cell.append(f"  +{f.credit:g} prompted ({PROMPTED_WORTH:.0%} of unprompted)", style="green")
    return Text(mark, style=colour), cell


def follow_up_lines(s: AnswerScore) -> Table:
    """The follow-up turns (``follow_up_row``)."""
    grid = _checklist()
    for f in s.follow_ups:
        grid.add_row(*follow_up_row(f))
    return grid


class ScoreCard(Static):
    """Shows one :class:`AnswerScored`."""

    DEFAULT_CSS = """
    ScoreCard { height: auto; padding: 0 1; }
    """

    def show(self, scored: AnswerScored) -> None:
        self.update(render_score(scored))
