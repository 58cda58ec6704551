"""Charts people can read: a scale above every point, labels that never overlap, one
point per session with its spread, colours from the stylesheet (light, dark, print)."""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime, timedelta

from sayitout.report.data import Point
from sayitout.report.html import CSS, data_table
from sayitout.report.svg import CHAR_W, line_chart, nice_ticks

T0 = datetime(2026, 5, 1, 9, tzinfo=UTC)


def test_ticks_reach_above_the_highest_point():
    assert nice_ticks(0, 9, (0, 2, 4, 6))[-1] >= 9
    assert nice_ticks(80, 230, (80, 120, 160, 200)) == [80, 120, 160, 200, 240]
    many = nice_ticks(0, 34, (0, 2, 4, 6, 8, 10, 12))
    assert many[-1] >= 34 and len(many) <= 7  # the step grows instead of crowding


def _labels(svg: str) -> list[tuple[float, str]]:
    return [
        (float(x), text)
        for x, text in re.findall(
            r'<text x="([\d.]+)" y="\d+" text-anchor="middle" '
            r'class="ch-muted">([^<]+)</text>',
            svg,
        )
    ]


def test_x_labels_never_overlap_even_when_narrow():
    points = [Point(T0 + timedelta(hours=7 * i), 50 + i % 30, 3, 40, 90) for i in range(200)]
    for width in (300, 520, 940):
        labels = _labels(line_chart(points, label="s", y_min=0, y_max=100,
                                    y_ticks=(0, 50, 100), color="#000", width=width))  # fmt: skip
        assert labels
        spans = sorted((x - len(t) * CHAR_W / 2, x + len(t) * CHAR_W / 2) for x, t in labels)
        for (_, right), (left, _) in itertools.pairwise(spans):
            assert right <= left, f"labels overlap at width {width}"


def test_a_single_point_is_labelled_with_its_day_not_a_time():
    svg = line_chart([Point(T0, 52.0, 3, 20, 83)], label="score", y_min=0, y_max=100,
                     y_ticks=(0, 50, 100), color="#000")  # fmt: skip
    assert [t for _, t in _labels(svg)] == [T0.astimezone().strftime("%Y-%m-%d")]


def test_points_above_the_usual_top_get_a_tick():
    points = [Point(T0, 9.0, 1), Point(T0 + timedelta(days=1), 3.0, 1)]
    svg = line_chart(points, label="fillers", y_min=0, y_max=6, y_ticks=(0, 2, 4, 6),
                     color="#000")  # fmt: skip
    assert ">10</text>" in svg or ">8</text>" in svg


def test_spread_is_drawn_and_tabled():
    points = [Point(T0 + timedelta(days=i), 60, 4, 30, 90) for i in range(3)]
    svg = line_chart(points, label="s", y_min=0, y_max=100, y_ticks=(0, 100), color="#000")
    assert "<polygon" in svg  # lowest-to-highest band
    table = data_table(points, "Score over time", "")
    assert "30–90" in table and "sr-only" in table


def test_stylesheet_has_dark_scheme_and_print_rules():
    assert "prefers-color-scheme: dark" in CSS and "@media print" in CSS
    assert ".ch-muted" in CSS and ".ch-grid" in CSS  # chart text and grid follow the scheme
