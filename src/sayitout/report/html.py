"""The HTML report: one self-contained file (inline CSS and SVG; no scripts, no network)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from sayitout.report.bands import score_color
from sayitout.report.data import Point, QuestionLine, ReportData, point_label, point_note
from sayitout.report.dates import day, when
from sayitout.report.highlight import highlight_html
from sayitout.report.svg import Band, bar_chart, line_chart

CSS = """
:root { color-scheme: light dark;
        --ink:#1d2430; --muted:#5f6b7a; --line:#e3e6eb; --bg:#f6f7f9; --card:#fff;
        --accent:#3056d3; --good:#2e7d32; --bad:#c62828; --warn:#ef8f00; --quote:#fafbfc;
        --axis:#99a3ad; --band:rgba(46,125,50,.12); --mark-ok:#c8ecd0; --mark-part:#fff0c2;
        --mark-ink:#1d2430; }
@media (prefers-color-scheme: dark) {
  :root { --ink:#e4e8ee; --muted:#9aa5b4; --line:#2c333d; --bg:#11151a; --card:#1a1f26;
          --accent:#8ea8ff; --good:#66bb6a; --bad:#ef6b6b; --warn:#ffb74d; --quote:#151a20;
          --axis:#5b6673; --band:rgba(102,187,106,.14); --mark-ok:#2f5e37; --mark-part:#6b5a1e;
          --mark-ink:#e4e8ee; }
}
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink);
       font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 28px 24px 60px; }
header h1 { margin: 0 0 4px; font-size: 26px; }
header p { margin: 0; color: var(--muted); }
section { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
          padding: 18px 22px; margin: 18px 0; }
h2 { font-size: 18px; margin: 0 0 4px; }
h3 { font-size: 16px; margin: 0 0 6px; }
.sub { color: var(--muted); margin: 0 0 12px; font-size: 13px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px;
         margin-top: 18px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
        padding: 12px 14px; }
.card .v { font-size: 24px; font-weight: 650; }
.card .k { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.up { color: var(--good); } .down { color: var(--bad); }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
@media (max-width: 800px) { .grid2 { grid-template-columns: 1fr; } }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line);
         vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12px; text-transform: uppercase; }
td code { white-space: nowrap; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
.pill { display: inline-block; min-width: 38px; text-align: center; border-radius: 999px;
        color: #fff; font-weight: 650; padding: 0 8px; font-size: 13px; }
.answer { border-top: 1px solid var(--line); padding-top: 14px; margin-top: 14px; }
h3.group { margin: 18px 0 6px; color: var(--muted); font-size: 13px; text-transform: uppercase;
           letter-spacing: .05em; }
h3.group + .answer { border-top: 0; margin-top: 0; padding-top: 4px; }
.q { color: var(--muted); margin: 0 0 8px; }
blockquote { margin: 8px 0; padding: 10px 14px; background: var(--quote); border-left: 3px solid
             var(--line); white-space: pre-wrap; overflow-wrap: anywhere; }
mark { color: var(--mark-ink); }
mark.covered { background: var(--mark-ok); padding: 0 2px; border-radius: 3px; }
mark.partial { background: var(--mark-part); padding: 0 2px; border-radius: 3px; }
svg.chart { display: block; max-width: 100%; height: auto; }
.ch-muted { fill: var(--muted); } .ch-ink { fill: var(--ink); }
.ch-grid { stroke: var(--line); } .ch-axis { stroke: var(--axis); } .ch-band { fill: var(--band); }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
           overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
details.data { margin-top: 6px; font-size: 13px; }
details.data summary { color: var(--muted); cursor: pointer; }
ul.kps { margin: 6px 0; padding-left: 0; list-style: none; }
ul.kps li { margin: 2px 0; }
.st { display: inline-block; width: 1.3em; font-weight: 700; }
.st.covered { color: var(--good); } .st.partial { color: var(--warn); }
.st.missed { color: var(--bad); }
.meta { color: var(--muted); font-size: 13px; }
.empty { text-align: center; padding: 50px 20px; }
.empty p { color: var(--muted); }
footer { color: var(--muted); font-size: 12px; text-align: center; margin-top: 24px; }
@media print {
  :root { --ink:#000; --muted:#444; --line:#ccc; --bg:#fff; --card:#fff; --quote:#fff;
          --axis:#888; --mark-ink:#000; --mark-ok:#c8ecd0; --mark-part:#fff0c2; }
  @page { margin: 14mm; }
  body { background: #fff; color: #000; font-size: 11pt; }
  main { max-width: none; padding: 0; }
  section, .card { border-color: #ccc; box-shadow: none; }
  section, .answer, tr, svg.chart { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  .cards { grid-template-columns: repeat(3, 1fr); }
  .grid2 { grid-template-columns: 1fr 1fr; }
  details.data { display: none; }
  .pill, mark { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  a { color: inherit; }
}
"""

STATUS_MARK = {"covered": "✓", "partial": "~", "missed": "✗"}


def render_html(data: ReportData) -> str:
    body = _empty(data) if data.empty else _full(data)
    made = day(data.generated_at)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">"
        f"<title>sayitout progress report — {made}"
        f"</title><style>{CSS}</style></head><body><main>{body}"
        f"<footer>Made by sayitout on {when(data.generated_at)}. "
        "Everything in this file stays on your computer.</footer></main></body></html>\n"
    )


def _header(data: ReportData) -> str:
    span = ""
    if data.first_at and data.last_at:
        span = f" · {day(data.first_at)} – {day(data.last_at)}"
    return (
        "<header><h1>Your interview practice</h1>"
        f"<p>{escape(data.filter_text.capitalize())}{escape(span)}</p></header>"
    )


def _empty(data: ReportData) -> str:
    if data.filter_text != "all attempts":
        return (
            _header(data) + '<section class="empty"><h2>No attempts match</h2>'
            f"<p>Nothing was practised with these filters ({escape(data.filter_text)}). "
            "Try a wider date range or another deck.</p></section>"
        )
    return (
        _header(data) + '<section class="empty"><h2>No attempts yet</h2>'
        "<p>Answer a few questions with <code>sayitout practice</code> and your progress "
        "will show up here: scores over time, topics, delivery, and the key points to "
        "work on.</p></section>"
    )


def _card(value: str, key: str, extra: str = "") -> str:
    return f'<div class="card"><div class="v">{value}{extra}</div><div class="k">{key}</div></div>'


def _full(d: ReportData) -> str:
    assert d.mean_score is not None
    change = ""
    if d.first_mean is not None and d.recent_mean is not None and d.attempts >= 4:
        delta = d.recent_mean - d.first_mean
        cls = "up" if delta >= 0 else "down"
        change = f' <span class="{cls}" style="font-size:14px">{delta:+.0f}</span>'
    minutes = d.speaking_s / 60
    cards = "".join(
        [
            _card(f"{d.attempts:,}", "answers"),
            _card(f"{d.questions:,}", "questions"),
            _card(f"{d.sessions:,}", "sessions")
            if d.session_score is None
            else _card(
                f"{d.session_score:.0f}",
                f"latest session score · {d.sessions:,} session{'s' if d.sessions != 1 else ''}",
            ),
            _card(f"{d.mean_score:.0f}", "mean score"),
            _card(
                f"{d.recent_mean:.0f}" if d.recent_mean is not None else "–",
                f"mean of the last {d.recent_count:,} answer{'s' if d.recent_count != 1 else ''}",
                change,
            ),
            _card(
                f"{minutes:,.0f} min" if minutes >= 1 else f"{d.speaking_s:.0f} s", "time speaking"
            ),
        ]
    )
    return (
        _header(d)
        + f'<div class="cards">{cards}</div>'
        + _score_section(d)
        + _topics_section(d)
        + _delivery_section(d)
        + _missed_section(d)
        + _ledger_section(d)
        + _questions_section(d)
        + _answers_section(d)
    )


def _per(d: ReportData) -> str:
    text = (
        f"Each point is one {point_label(d)}'s mean; the shaded band runs from its lowest to "
        f"its highest answer{point_note(d)}"
    )
    if len(d.score_series) > 20:
        text += "; the bold line is a 7-point moving average"
    return text


def data_table(
    points: Sequence[Point], caption: str, unit: str, *, digits: int = 0, visible: bool = False
) -> str:
    """The figures behind a chart, for screen readers (and, opened, for anyone)."""
    rows = "".join(
        f'<tr><td>{escape(when(p.at))}</td><td class="n">{p.value:.{digits}f}</td>'
        f'<td class="n">{"" if p.low is None else f"{p.low:.{digits}f}–{p.high:.{digits}f}"}</td>'
        f'<td class="n">{p.count}</td></tr>'
        for p in points
    )
    table = (
        f"<table><caption>{escape(caption)}</caption><thead><tr><th>When</th>"
        f'<th class="n">Mean{escape(unit)}</th><th class="n">Range</th>'
        f'<th class="n">Answers</th></tr></thead><tbody>{rows}</tbody></table>'
    )
    if not points:
        return ""
    if visible:
        return f'<details class="data"><summary>The figures</summary>{table}</details>'
    return f'<div class="sr-only">{table}</div>'


def _score_section(d: ReportData) -> str:
    chart = line_chart(
        d.score_series,
        label="Score over time",
        y_min=0,
        y_max=100,
        y_ticks=(0, 25, 50, 75, 100),
        color="#3056d3",
        by_time=True,
        point_name=d.bucket,
    )
    return (
        '<section id="scores"><h2>Score over time</h2>'
        f'<p class="sub">{_per(d)} (score 0–100).</p>{chart}'
        f"{data_table(d.score_series, 'Score over time', '', visible=True)}"
        + (f'<p class="sub" id="scorer-note">{escape(d.scorer_note)}</p>' if d.scorer_note else "")
        + "</section>"
    )


def _topics_section(d: ReportData) -> str:
    items = [
        (t, m, f"{m:.0f} ({n} answer{'' if n == 1 else 's'})") for t, m, n in d.topic_scores[:14]
    ]
    colors = [score_color(m) for _, m, _ in items]
    chart = bar_chart(items, label=f"Score by {d.topic_label}", max_value=100, color=colors)
    more = ""
    if len(d.topic_scores) > 14:
        more = f'<p class="sub">The 14 weakest of {len(d.topic_scores)} shown.</p>'
    return (
        f'<section id="topics"><h2>Score by {escape(d.topic_label)}</h2>'
        f'<p class="sub">Mean score of every answer on each {escape(d.topic_label)}, '
        f"weakest first.</p>{chart}{more}{_topic_table(d)}</section>"
    )


def _topic_table(d: ReportData) -> str:
    rows = "".join(
        f'<tr><td>{escape(t)}</td><td class="n">{m:.0f}</td><td class="n">{n}</td></tr>'
        for t, m, n in d.topic_scores
    )
    return (
        f'<div class="sr-only"><table><caption>Score by {escape(d.topic_label)}</caption>'
        f'<thead><tr><th>{escape(d.topic_label.capitalize())}</th><th class="n">Mean score</th>'
        f'<th class="n">Answers</th></tr></thead><tbody>{rows}</tbody></table></div>'
    )


def _delivery_section(d: ReportData) -> str:
    by_time = True
    wpm = line_chart(
        d.wpm_series,
        label="Pace, words per minute",
        y_min=80,
        y_max=200,
        y_ticks=(80, 120, 160, 200),
        color="#6a3fb5",
        unit=" wpm",
        by_time=by_time,
        band=Band(120, 160, "comfortable 120–160"),
        width=520,
        height=220,
        point_name=d.bucket,
    )
    fill = line_chart(
        d.filler_series,
        label="Filler words per minute",
        y_min=0,
        y_max=6,
        y_ticks=(0, 2, 4, 6, 8, 10, 12),
        color="#d35400",
        unit="/min",
        by_time=by_time,
        band=Band(0, 2, "under 2 a minute"),
        width=520,
        height=220,
        point_name=d.bucket,
    )
    means = []
    if d.mean_wpm is not None:
        means.append(f"mean pace {d.mean_wpm:.0f} words/min")
    if d.mean_fillers is not None:
        means.append(f"{d.mean_fillers:.1f} fillers/min")
    return (
        '<section id="delivery"><h2>Delivery</h2>'
        f'<p class="sub">{escape(", ".join(means).capitalize() or "No spoken answers yet")}. '
        "Typed answers are left out.</p>"
        f'<div class="grid2"><div><h3>Pace</h3><p class="sub">Words per minute; the green band '
        f"is a comfortable 120–160.</p>{wpm}"
        f"{data_table(d.wpm_series, 'Pace, words per minute', ' words/min')}</div>"
        f'<div><h3>Filler words</h3><p class="sub">Per minute ("um", "uh", "like"...); '
        f"the green band is under 2.</p>{fill}"
        f"{data_table(d.filler_series, 'Filler words per minute', '/min', digits=1)}"
        "</div></div></section>"
    )


def _missed_section(d: ReportData) -> str:
    if not d.missed:
        return (
            '<section id="missed"><h2>Key points most often missed</h2>'
            '<p class="sub">None missed: every key point has been covered.</p></section>'
        )
    top = max(m.miss.missed for m in d.missed)
    items = [
        (m.miss.text, float(m.miss.missed), f"{m.miss.missed} of {m.miss.seen}") for m in d.missed
    ]
    chart = bar_chart(
        items, label="Key points most often missed", max_value=top, color="#c62828", label_width=380
    )
    rows = "".join(
        f"<tr><td>{escape(m.miss.text)}</td><td>{_qlink(m.miss.question_id, m.question)}</td>"
        f'<td class="n">{m.miss.missed} / {m.miss.seen}</td></tr>'
        for m in d.missed
    )
    return (
        '<section id="missed"><h2>Key points most often missed</h2>'
        '<p class="sub">How many answers left each point out, out of the answers to its '
        f"question.</p>{chart}<table><thead><tr><th>Key point</th><th>Question</th>"
        f'<th class="n">Missed</th></tr></thead><tbody>{rows}</tbody></table></section>'
    )


def _ledger_section(d: ReportData) -> str:
    """The coach's mistake ledger: what keeps coming back, with counts and attempts."""
    ledger = d.ledger
    if ledger is None:
        return ""
    head = (
        '<section id="ledger"><h2>Mistake ledger</h2>'
        f'<p class="sub">What keeps coming back in your last {ledger.attempts_read} answers: '
        "misconceptions stated more than once, key points said the other way round or missed "
        "again and again, and delivery habits.</p>"
    )
    if not ledger.entries:
        return head + '<p class="sub">Nothing repeats: no entries.</p></section>'
    rows = "".join(
        f'<tr><td><strong>{escape(e.title)}</strong><br><span class="sub">'
        f"{escape(e.detail)}</span></td>"
        f"<td>{' '.join(_qlink(q, d.question_text.get(q, q)) for q in e.question_ids[:3])}</td>"
        f'<td class="n">{e.count}</td>'
        f"<td>{e.last_seen.astimezone():%Y-%m-%d %H:%M}</td>"
        f"<td>{escape(', '.join(f'#{a}' for a in e.attempt_ids[:8]))}</td></tr>"
        for e in ledger.entries
    )
    return (
        head + '<table><thead><tr><th>Entry</th><th>Questions</th><th class="n">Times</th>'
        f"<th>Last seen</th><th>Attempts</th></tr></thead><tbody>{rows}</tbody></table></section>"
    )


def _qlink(qid: str, text: str) -> str:
    title = f' title="{escape(text)}"' if text else ""
    return f"<code{title}>{escape(qid)}</code>"


def _pill(score: float) -> str:
    return f'<span class="pill" style="background:{score_color(score)}">{score:.0f}</span>'


def _question_table(lines: list[QuestionLine]) -> str:
    rows = "".join(
        f'<tr><td><a href="#attempt-{q.latest_attempt_id}">{escape(q.question_id)}</a>'
        f'<div class="meta">{escape(_short(q.question, 110))}</div></td>'
        f'<td class="n">{_pill(q.latest_score)}</td><td class="n">{q.mean_score:.0f}</td>'
        f'<td class="n">{q.attempts}</td></tr>'
        for q in lines
    )
    return (
        '<table><thead><tr><th>Question</th><th class="n">Latest</th><th class="n">Mean</th>'
        f'<th class="n">Tries</th></tr></thead><tbody>{rows}</tbody></table>'
    )


def _questions_section(d: ReportData) -> str:
    return (
        '<section id="questions"><div class="grid2">'
        f"<div><h2>Strongest questions</h2>"
        f'<p class="sub">By latest score.</p>{_question_table(d.strongest)}</div>'
        f"<div><h2>Weakest questions</h2>"
        f'<p class="sub">Practise these next.</p>{_question_table(d.weakest)}</div>'
        "</div></section>"
    )


def _answers_section(d: ReportData) -> str:
    weak = "".join(_answer_block(d, line) for line in d.weakest)
    strong = "".join(_answer_block(d, line) for line in d.strongest)
    return (
        '<section id="answers"><h2>Latest answers</h2>'
        '<p class="sub">The words that earned each key point are '
        '<mark class="covered">highlighted</mark> (<mark class="partial">partly</mark>); '
        "✗ marks a key point the answer missed.</p>"
        + (f'<h3 class="group">Weakest questions</h3>{weak}' if weak else "")
        + (f'<h3 class="group">Strongest questions</h3>{strong}' if strong else "")
        + "</section>"
    )


def _answer_block(d: ReportData, line: QuestionLine) -> str:
    rec = d.latest.get(line.question_id)
    if rec is None:
        return ""
    sc = rec.answer_score
    text = sc.answer or rec.text
    kps = "".join(
        f'<li><span class="st {k.status}">{STATUS_MARK.get(k.status, "?")}</span>'
        f"{escape(k.text)}"
        + (f' — <em class="why">not counted: {escape(k.reason)}</em>' if k.reason else "")
        + "</li>"
        for k in sc.key_points
    )
    if sc.numeric is not None:
        mark = "covered" if sc.numeric.correct else "missed"
        kps += (
            f'<li><span class="st {mark}">{STATUS_MARK[mark]}</span>'
            f"{escape(sc.numeric.reason)}</li>"
        )
    for m in sc.misconceptions:
        kps += (
            f'<li><span class="st missed">!</span>{escape(m.text)} — '
            f"<em>{escape(m.correction)}</em></li>"
        )
    meta = [when(rec.created_at)]
    if sc.delivery:
        meta.append(f"{sc.delivery.words_per_minute:.0f} words/min")
        meta.append(f"{sc.delivery.fillers_per_minute:.1f} fillers/min")
    if rec.transcript_corrected is not None:
        meta.append("transcript corrected by hand")
    body = highlight_html(sc, text) if text.strip() else "<em>(no words heard)</em>"
    return (
        f'<div class="answer" id="attempt-{rec.id}"><h3>{escape(line.question_id)} '
        f"{_pill(rec.score)}</h3>"
        + (f'<p class="q">{escape(line.question)}</p>' if line.question else "")
        + f'<p class="meta">{escape(" · ".join(meta))}</p>'
        f'<blockquote>{body}</blockquote><ul class="kps">{kps}</ul></div>'
    )


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"
