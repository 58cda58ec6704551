"""The score card shown after each answer: score, key points with quotes, number,
misconceptions, delivery, and what was missed last time."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from sayitout.scoring.result import AnswerScore, DeliveryMetrics
from sayitout.session.events import AnswerScored

_MARKS = {
    "covered": ("✔ covered", "green"),
    "partial": ("◐ partly ", "yellow"),
    "missed": ("✘ missed ", "red"),
}


def score_style(score: int) -> str:
    return "bold green" if score >= 75 else ("bold yellow" if score >= 50 else "bold red")


def _quote(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


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


def render_score(scored: AnswerScored) -> Group:
    s: AnswerScore = scored.score
    parts: list[Text | Table] = []
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
    parts.append(Text("Key points", style="bold underline"))
    points = Table.grid(padding=(0, 1))
    points.add_column(width=10, no_wrap=True)
    points.add_column(ratio=1)
    for kp in s.key_points:
        mark, colour = _MARKS.get(kp.status, (kp.status, ""))
        cell = Text(kp.text)
        if kp.evidence and kp.status != "missed":
            cell.append(f'\nyou said: "{_quote(kp.evidence)}"', style="italic dim")
        points.add_row(Text(mark, style=colour), cell)
    parts.append(points)
    if s.numeric is not None:
        n = s.numeric
        line = Text.assemble(("Number: ", "bold"))
        if n.heard is None:
            line.append("no number heard", style="red")
        else:
            heard = n.heard_text or f"{n.heard:g} {n.heard_unit or ''}".strip()
            line.append(f'heard "{heard}" ')
            line.append(
                "✔ right" if n.correct else "✘ wrong", style="green" if n.correct else "red"
            )
        expected = f"{n.expected:g}" + (f" {n.unit}" if n.unit else "")
        line.append(f" (expected {expected} ± {n.tolerance:g})", style="dim")
        parts.append(line)
        if n.reason:
            parts.append(Text(f"     {n.reason}", style="dim"))
    if s.misconceptions:
        parts.append(Text("Misconceptions stated", style="bold underline"))
        for m in s.misconceptions:
            line = Text.assemble((" ✘ ", "red"))
            line.append(f'"{_quote(m.evidence)}"')
            line.append(f"  −{m.penalty:g}", style="red")
            parts.append(line)
            if m.correction:
                parts.append(Text(f"     In fact: {m.correction}", style="dim"))
    if s.follow_ups:
        parts.extend(follow_up_lines(s))
    if s.delivery is not None and s.delivery.words:
        parts.append(Text("Delivery", style="bold underline"))
        parts.append(delivery_line(s.delivery))
    if scored.previous is not None:
        prev = scored.previous
        line = Text.assemble(("Last time: ", "bold"))
        line.append(f"{prev.score}/100", style=score_style(prev.score))
        parts.append(line)
        now_missed = {kp.text for kp in s.key_points if kp.status != "covered"}
        for text in prev.missed:
            fixed = text not in now_missed
            mark = " ✔ now covered: " if fixed else " ✘ missed again: "
            parts.append(Text(mark + text, style="green" if fixed else "yellow"))
    for note in s.notes:
        parts.append(Text(f"Note: {note}", style="dim italic"))
    return Group(*parts)


def follow_up_lines(s: AnswerScore) -> list[Text]:
    """The follow-up turns: what was asked, what the reply said, the prompted credit."""
    out = [Text("Follow-up", style="bold underline")]
    for f in s.follow_ups:
        out.append(Text.assemble(("Q: ", "bold"), (f.question, "italic")))
        mark, colour = _MARKS.get(f.status, (f.status, ""))
        line = Text.assemble((mark, colour), " ")
        line.append(f'"{_quote(f.answer)}"' if f.answer else "(passed)", style="dim")
        if f.credit:
            line.append(f"  +{f.credit:g} prompted (60% of unprompted)", style="green")
        out.append(line)
    return out


class ScoreCard(Static):
    """Shows one :class:`AnswerScored`."""

    DEFAULT_CSS = """
    ScoreCard { height: auto; padding: 0 1; }
    """

    def show(self, scored: AnswerScored) -> None:
        self.update(render_score(scored))
