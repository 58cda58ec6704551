from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sayitout.report.export import render, write_report
from sayitout.report.rows import COLUMNS, Filters
from sayitout.store import Store
from support.synthetic import (
    SampleQuestion,
    fill_history,
    make_score,
    make_transcript,
    sample_questions,
)

HOSTILE = 'I think <script>alert("x")</script> & **bold** | pipe =SUM(A1) [link](http://x)'
T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)


def hostile_attempt(store: Store, when: datetime = T0) -> int:
    kps = [
        ("kp-<b>", "Say <img src=x onerror=alert(1)>", "covered"),
        ("kp-2", "Mention the loss & scaling", "missed"),
    ]
    sc = make_score("q-<evil>", HOSTILE, kps, score=30)
    return store.save_attempt(
        None, "q-<evil>", "deck<i>", make_transcript(HOSTILE), sc, None, created_at=when
    )


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """121 attempts, built once per module: the tests that use it only read."""
    store = Store.open(tmp_path_factory.mktemp("history") / "sayitout.db")
    fill_history(store, sample_questions(), 120, end=T0 + timedelta(days=30), days=30)
    hostile_attempt(store, T0 + timedelta(days=31))
    yield store
    store.close()


def test_html_is_self_contained_with_charts(history: Store) -> None:
    html = render(history, "html", Filters())
    assert html.startswith("<!DOCTYPE html>")
    assert html.count("<svg") >= 5  # score, topics, pace, fillers, missed key points
    for title in ("Score over time", "Score by", "Pace", "Filler words", "most often missed"):
        assert title in html
    # nothing loaded from anywhere: no scripts, no external URLs, a strict CSP
    assert "<script" not in html.lower().replace("&lt;script", "")
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert "default-src 'none'" in html


def test_html_escapes_every_user_text(history: Store) -> None:
    html = render(history, "html", Filters())
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "<script" not in html.lower() and "<evil>" not in html and "<i>" not in html


def test_strongest_and_weakest_link_to_latest_transcripts(history: Store) -> None:
    html = render(history, "html", Filters())
    links = set(re.findall(r'href="#(attempt-\d+)"', html))
    anchors = set(re.findall(r'id="(attempt-\d+)"', html))
    assert links and links <= anchors
    assert '<mark class="covered"' in html


def test_markdown_has_the_same_content_escaped(history: Store) -> None:
    md = render(history, "md", Filters())
    for title in (
        "## Score over time",
        "## Score by deck",
        "## Delivery",
        "## Key points most often missed",
        "## Strongest questions",
        "## Weakest questions",
        "## Latest answers",
    ):
        assert title in md
    assert "<script>" not in md and "&lt;script&gt;" in md
    assert "\\*\\*bold\\*\\*" in md and "\\| pipe" in md
    links = set(re.findall(r"\(#(attempt-\d+)\)", md))
    assert links and all(f'<a id="{a}"></a>' in md for a in links)


def test_csv_one_row_per_attempt(history: Store) -> None:
    text = render(history, "csv", Filters())
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 121 and list(rows[0]) == list(COLUMNS)
    evil = rows[-1]
    assert evil["question_id"] == "q-<evil>" and evil["key_points_missed"] == "kp-2"
    assert evil["answer"] == HOSTILE  # does not start with '=', so kept as is
    assert rows[0]["created_at"] < rows[-1]["created_at"]


def test_csv_neutralises_formulas(store: Store) -> None:
    text = '=HYPERLINK("http://evil")'
    store.save_attempt(None, "q", "d", make_transcript(text), make_score("q", text, []), None)
    row = next(csv.DictReader(io.StringIO(render(store, "csv", Filters()))))
    assert row["answer"].startswith("'=")


def _json_rows(store: Store, filters: Filters) -> list[dict]:
    report = json.loads(render(store, "json", filters))
    assert report["schema"] == "sayitout.report" and report["schema_version"] == 1
    return report["attempts"]


def test_json_rows_and_filters(history: Store) -> None:
    rows = _json_rows(history, Filters())
    assert len(rows) == 121 and set(rows[0]) == set(COLUMNS)
    since = T0 + timedelta(days=31)
    assert len(_json_rows(history, Filters(since=since))) == 1
    only = _json_rows(history, Filters(deck="demo-two"))
    assert only and {r["deck"] for r in only} == {"demo-two"}


def test_json_report_has_the_html_reports_figures(history: Store) -> None:
    """The JSON report carries the summary the HTML report shows, not only raw rows."""
    report = json.loads(render(history, "json", Filters()))
    html = render(history, "html", Filters())
    summary = report["summary"]
    assert summary["answers"] == 121 and summary["questions"] >= 1
    assert f'{summary["mean_score"]:.0f}</div><div class="k">mean score' in html
    assert report["series"]["bucket"] in ("session", "day", "week")
    point = report["series"]["score"][0]
    assert set(point) == {"at", "mean", "low", "high", "answers"}
    assert point["low"] <= point["mean"] <= point["high"]
    assert report["topics"] and {"topic", "mean_score", "answers"} == set(report["topics"][0])
    assert report["weakest"] and "latest_score" in report["weakest"][0]


@pytest.mark.parametrize("fmt", ["html", "md", "csv", "json"])
def test_empty_history_is_a_friendly_report(store: Store, fmt: str) -> None:
    text = render(store, fmt, Filters())
    if fmt == "html":
        assert "No attempts yet" in text and "sayitout practice" in text
    elif fmt == "md":
        assert "No attempts yet" in text
    elif fmt == "csv":
        assert text.strip() == ",".join(COLUMNS)
    else:
        report = json.loads(text)
        assert report["attempts"] == [] and report["summary"]["answers"] == 0


def test_progress_callback_reaches_one(history: Store) -> None:
    seen: list[tuple[float, str]] = []
    render(history, "html", Filters(), progress=lambda f, s: seen.append((f, s)))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(seen) >= 4


def test_write_report_default_name_never_overwrites(
    history: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    first, _ = write_report(history, "md", Filters())
    second, _ = write_report(history, "md", Filters())
    assert first is not None and second is not None
    assert re.fullmatch(r"sayitout-report-\d{4}-\d\d-\d\d\.md", first.name)
    assert second.name == first.stem + "-2.md"
    assert first.parent == tmp_path


def test_bank_topics_and_question_text(history: Store) -> None:
    class FakeBank:
        def question(self, qid: str):
            class Q:
                text = f"What about {qid}?"
                topics = ["alpha"] if qid.endswith(("0", "2", "4")) else ["beta"]

            return Q()

    html = render(history, "html", Filters(), bank=FakeBank())
    assert "Score by topic" in html and "alpha" in html and "What about demo-q" in html


def test_question_filter_via_topic_ids(store: Store) -> None:
    qs = [SampleQuestion("a", "d", (("k", "K"),)), SampleQuestion("b", "d", (("k", "K"),))]
    fill_history(store, qs, 20, end=T0)
    rows = _json_rows(store, Filters(question_ids=("a",)))
    assert rows and {r["question_id"] for r in rows} == {"a"}


def test_empty_after_filtering_says_so(history: Store) -> None:
    later = Filters(since=T0 + timedelta(days=400))
    assert "No attempts match" in render(history, "html", later)
    assert "No attempts match" in render(history, "md", later)


def test_caption_names_what_a_point_is_when_answers_were_scored_outside_sessions(
    tmp_path: Path,
) -> None:
    store = Store.open(tmp_path / "cli.db")
    try:
        for i in range(3):
            hostile_attempt(store, T0 + timedelta(minutes=i))
        html = render(store, "html", Filters())
        md = render(store, "md", Filters())
    finally:
        store.close()
    # no session at all: the points are days, and the "recent" card says what it averages
    assert "Each point is one day&#x27;s mean" in html or "Each point is one day's mean" in html
    assert "session&#x27;s mean" not in html and "session's mean" not in html
    assert "mean of the last 1 answer<" in html
    assert "daily means" in md and "| last 1 answers |" in md


def test_caption_says_how_mixed_answers_are_grouped(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "mixed.db")
    try:
        fill_history(store, sample_questions(), 10, end=T0, days=2, per_session=5)
        hostile_attempt(store, T0 + timedelta(days=1))
        html = render(store, "html", Filters())
    finally:
        store.close()
    assert "one session&#x27;s mean" in html or "one session's mean" in html
    assert "answers scored outside a session are grouped by day" in html
