"""The Markdown report: the same content as the HTML one, for sharing as text."""

from __future__ import annotations

import re

from sayitout.report.data import Point, QuestionLine, ReportData, point_label, point_note
from sayitout.report.dates import day

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|>~])")
_BLOCKS = "▁▂▃▄▅▆▇█"


def md_escape(text: str) -> str:
    """Text that renders as itself: Markdown syntax and HTML characters neutralised."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return " ".join(text.split())  # no line breaks that would end a table row or a quote


def sparkline(values: list[float], lo: float, hi: float) -> str:
    if not values:
        return ""
    span = (hi - lo) or 1.0
    return "".join(
        _BLOCKS[min(len(_BLOCKS) - 1, max(0, int((v - lo) / span * len(_BLOCKS))))] for v in values
    )


def _recent(points: list[Point], n: int = 60) -> list[float]:
    return [p.value for p in points[-n:]]


def _bar(value: float, top: float, width: int = 20) -> str:
    filled = round(width * value / top) if top else 0
    return "█" * filled + "·" * (width - filled)


def render_markdown(d: ReportData) -> str:
    lines = ["# Your interview practice", ""]
    span = ""
    if d.first_at and d.last_at:
        span = f" · {day(d.first_at)} – {day(d.last_at)}"
    lines += [f"_{md_escape(d.filter_text.capitalize())}{span}_", ""]
    if d.empty and d.filter_text != "all attempts":
        lines += [
            f"**No attempts match** these filters ({md_escape(d.filter_text)}). "
            "Try a wider date range or another deck.",
            "",
        ]
        return "\n".join(lines) + _footer(d)
    if d.empty:
        lines += [
            "**No attempts yet.** Answer a few questions with `sayitout practice` and your "
            "progress will show up here: scores over time, topics, delivery, and the key "
            "points to work on.",
            "",
        ]
        return "\n".join(lines) + _footer(d)
    assert d.mean_score is not None
    lines += [
        "| answers | questions | sessions | latest session score | mean score "
        f"| last {d.recent_count:,} answers | time speaking |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {d.attempts:,} | {d.questions:,} | {d.sessions:,} | "
        f"{'–' if d.session_score is None else f'{d.session_score:.0f}'} | {d.mean_score:.0f} | "
        f"{_recent_text(d)} | {d.speaking_s / 60:,.0f} min |",
        "",
        "## Score over time",
        "",
        f"`{sparkline(_recent(d.score_series), 0, 100)}` (0–100, {_per(d)}, oldest to newest)",
        "",
        *([md_escape(d.scorer_note), ""] if d.scorer_note else []),
    ]
    lines += _series_table(d.score_series, "score", "{:.0f}", by_attempt=d.bucket == "session")
    lines += [
        "",
        f"## Score by {d.topic_label}",
        "",
        f"| {d.topic_label} | score | answers | |",
        "| --- | ---: | ---: | --- |",
    ]
    for topic, mean, n in d.topic_scores:
        lines.append(f"| {md_escape(topic)} | {mean:.0f} | {n} | `{_bar(mean, 100)}` |")
    lines += ["", "## Delivery", ""]
    if d.mean_wpm is not None:
        lines += [
            f"- Pace: mean {d.mean_wpm:.0f} words/min (comfortable: 120–160) "
            f"`{sparkline(_recent(d.wpm_series), 80, 200)}`",
            f"- Filler words: mean {d.mean_fillers or 0:.1f} per minute (aim: under 2) "
            f"`{sparkline(_recent(d.filler_series), 0, 8)}`",
            "",
        ]
        lines += _series_table(
            d.wpm_series, "words/min", "{:.0f}", d.filler_series, by_attempt=d.bucket == "session"
        )
    else:
        lines.append("No spoken answers yet (typed answers have no delivery figures).")
    lines += ["", "## Key points most often missed", ""]
    if d.missed:
        lines += ["| key point | question | missed |", "| --- | --- | ---: |"]
        for m in d.missed:
            lines.append(
                f"| {md_escape(m.miss.text)} | `{md_escape(m.miss.question_id)}` | "
                f"{m.miss.missed} / {m.miss.seen} |"
            )
    else:
        lines.append("None missed: every key point has been covered.")
    lines += _ledger(d)
    lines += ["", "## Strongest questions", "", *_question_table(d.strongest)]
    lines += ["", "## Weakest questions", "", *_question_table(d.weakest)]
    lines += ["", "## Latest answers", "", "Words that earned a key point are in **bold**.", ""]
    lines += _answers(d)
    return "\n".join(lines) + _footer(d)


def _ledger(d: ReportData) -> list[str]:
    """The coach's mistake ledger: what keeps coming back."""
    if d.ledger is None:
        return []
    lines = ["", "## Mistake ledger", ""]
    if not d.ledger.entries:
        return [*lines, f"Nothing repeats in your last {d.ledger.attempts_read} answers."]
    lines += [
        "| entry | questions | times | last seen | attempts |",
        "| --- | --- | ---: | --- | --- |",
    ]
    for e in d.ledger.entries:
        questions = ", ".join(f"`{md_escape(q)}`" for q in e.question_ids[:3])
        attempts = ", ".join(f"#{a}" for a in e.attempt_ids[:8])
        lines.append(
            f"| {md_escape(e.title)}: {md_escape(e.detail)} | {questions} | {e.count} | "
            f"{e.last_seen.astimezone():%Y-%m-%d %H:%M} | {attempts} |"
        )
    return lines


def _recent_text(d: ReportData) -> str:
    if d.recent_mean is None:
        return "–"
    if d.first_mean is None or d.attempts < 4:
        return f"{d.recent_mean:.0f}"
    return f"{d.recent_mean:.0f} ({d.recent_mean - d.first_mean:+.0f})"


def _per(d: ReportData) -> str:
    means = {"session": "session means", "day": "daily means", "week": "weekly means"}
    return means[point_label(d)] + point_note(d)


def _series_table(
    points: list[Point],
    name: str,
    fmt: str,
    second: list[Point] | None = None,
    *,
    by_attempt: bool,
) -> list[str]:
    """The last 12 points as a table: the chart's numbers, readable in text."""
    recent = points[-12:]
    if not recent:
        return []
    head = f"| when | {name} | answers |" + (" fillers/min |" if second is not None else "")
    rule = "| --- | ---: | ---: |" + (" ---: |" if second is not None else "")
    extra = {p.at: p.value for p in second or []}
    out = ["Most recent:", "", head, rule]
    for p in recent:
        when = p.at.astimezone().strftime("%Y-%m-%d %H:%M" if by_attempt else "%Y-%m-%d")
        row = f"| {when} | {fmt.format(p.value)} | {p.count} |"
        if second is not None:
            v = extra.get(p.at)
            row += f" {'' if v is None else f'{v:.1f}'} |"
        out.append(row)
    return out


def _question_table(lines: list[QuestionLine]) -> list[str]:
    out = ["| question | latest | mean | tries |", "| --- | ---: | ---: | ---: |"]
    for q in lines:
        label = f"[{md_escape(q.question_id)}](#attempt-{q.latest_attempt_id})"
        out.append(f"| {label} | {q.latest_score} | {q.mean_score:.0f} | {q.attempts} |")
    return out


def _answers(d: ReportData) -> list[str]:
    from sayitout.report.highlight import highlight_markdown

    out: list[str] = []
    mark = {"covered": "✓", "partial": "~", "missed": "✗"}
    groups = [("Weakest questions", d.weakest), ("Strongest questions", d.strongest)]
    ordered = [(title, line) for title, lines in groups for line in lines]
    shown: str | None = None
    for title, line in ordered:
        rec = d.latest.get(line.question_id)
        if rec is None:
            continue
        if title != shown:
            out += [f"#### {title}", ""]
            shown = title
        sc = rec.answer_score
        text = sc.answer or rec.text
        out += [
            f'<a id="attempt-{rec.id}"></a>',
            "",
            f"### {md_escape(line.question_id)} — {rec.score}/100",
            "",
        ]
        if line.question:
            out += [f"_{md_escape(line.question)}_", ""]
        out += [f"> {highlight_markdown(sc, text) if text.strip() else '(no words heard)'}", ""]
        for k in sc.key_points:
            out.append(f"- {mark.get(k.status, '?')} {md_escape(k.text)}")
        if sc.numeric is not None:
            out.append(f"- {'✓' if sc.numeric.correct else '✗'} {md_escape(sc.numeric.reason)}")
        for m in sc.misconceptions:
            out.append(f"- ! {md_escape(m.text)} — {md_escape(m.correction)}")
        out.append("")
    return out


def _footer(d: ReportData) -> str:
    return f"\n---\nMade by sayitout on {d.generated_at.astimezone():%Y-%m-%d %H:%M}.\n"
