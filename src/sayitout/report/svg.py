"""Small, dependency-free SVG charts, drawn as strings for inline use in HTML.

Every piece of text passes through :func:`html.escape`. Colours of text, grid and axes
come from CSS classes (``.ch-*``) so that the report's light and dark schemes and its
print style restyle the charts; the series colours are the caller's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape

from sayitout.report.bands import score_color
from sayitout.report.data import Point

FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif\""
CHAR_W = 6.6
"""Roughly how wide one character of the 12 px chart font is, in SVG units."""

__all__ = ["Band", "bar_chart", "line_chart", "moving_average", "nice_ticks", "score_color"]


@dataclass(frozen=True)
class Band:
    low: float
    high: float
    label: str


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _date_label(at: datetime, span_days: float, one_point: bool = False) -> str:
    local = at.astimezone()
    if one_point:  # nothing to tell apart: say which day
        return local.strftime("%Y-%m-%d")
    if span_days < 2:
        return local.strftime("%H:%M")
    if span_days > 400:
        return local.strftime("%Y-%m")
    return local.strftime("%m-%d")


def moving_average(values: Sequence[float], window: int) -> list[float]:
    out, total = [], 0.0
    for i, v in enumerate(values):
        total += v
        if i >= window:
            total -= values[i - window]
        out.append(total / min(i + 1, window))
    return out


def nice_ticks(lo: float, hi: float, ticks: Sequence[float], most: int = 7) -> list[float]:
    """``ticks`` within ``lo..hi``, extended by their own step until one is at or above
    ``hi`` (a point above the top tick always has a scale); the step doubles while
    that would take more than ``most`` ticks."""
    base = sorted(t for t in ticks if lo <= t <= hi) or [lo]
    step = (base[-1] - base[-2]) if len(base) > 1 else max(1.0, (hi - lo) / 4 or 1.0)
    start = base[0]
    while True:
        count = max(1, math.ceil((hi - start) / step - 1e-9)) + 1
        if count <= most:
            return [start + k * step for k in range(count)]
        step *= 2


def _svg_open(width: int, height: int, label: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="100%" role="img" aria-label="{escape(label)}" class="chart" {FONT} '
        'font-size="12">',
        f"<title>{escape(label)}</title>",
    ]


def _no_data(parts: list[str], x: float, y: float) -> str:
    parts.append(
        f'<text x="{x}" y="{y}" text-anchor="middle" class="ch-muted">'
        "No data for this chart yet</text></svg>"
    )
    return "".join(parts)


def line_chart(
    points: Sequence[Point],
    *,
    label: str,
    y_min: float,
    y_max: float,
    y_ticks: Sequence[float],
    color: str,
    unit: str = "",
    by_time: bool = True,
    band: Band | None = None,
    width: int = 940,
    height: int = 260,
    point_name: str = "session",
) -> str:
    """A line over time: each point's mean, its spread (lowest to highest) as a shaded
    band, and a 7-point moving average when there are many points."""
    left, right, top, bottom = 44, 16, 14, 30
    pw, ph = width - left - right, height - top - bottom
    parts = _svg_open(width, height, label)
    if not points:
        return _no_data(parts, width / 2, height / 2)
    highs = [p.high if p.high is not None else p.value for p in points]
    lows = [p.low if p.low is not None else p.value for p in points]
    ticks = nice_ticks(min(y_min, min(lows)), max(y_max, max(highs)), y_ticks)
    y_lo, y_hi = min(y_min, min(lows), ticks[0]), ticks[-1]
    span_y = (y_hi - y_lo) or 1.0

    def y(v: float) -> float:
        return top + ph - (v - y_lo) / span_y * ph

    t0, t1 = points[0].at.timestamp(), points[-1].at.timestamp()
    n = len(points)

    def x(i: int) -> float:
        if n == 1:
            return left + pw / 2
        if by_time and t1 > t0:
            return left + (points[i].at.timestamp() - t0) / (t1 - t0) * pw
        return left + i / (n - 1) * pw

    if band is not None:
        yb1, yb2 = y(min(band.high, y_hi)), y(max(band.low, y_lo))
        parts.append(
            f'<rect x="{left}" y="{yb1:.1f}" width="{pw}" height="{yb2 - yb1:.1f}" '
            f'class="ch-band"><title>{escape(band.label)}</title></rect>'
        )
    for t in ticks:
        parts.append(
            f'<line x1="{left}" x2="{left + pw}" y1="{y(t):.1f}" y2="{y(t):.1f}" '
            f'class="ch-grid"/><text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end" '
            f'class="ch-muted">{_fmt(t)}</text>'
        )
    parts.append(
        f'<line x1="{left}" x2="{left + pw}" y1="{top + ph}" y2="{top + ph}" class="ch-axis"/>'
    )
    parts += _x_labels(points, x, height, left, left + pw)
    coords = [(x(i), y(p.value)) for i, p in enumerate(points)]
    spread = [i for i, p in enumerate(points) if p.count > 1 and p.low is not None]
    if len(spread) > 1:
        upper = " ".join(f"{coords[i][0]:.1f},{y(highs[i]):.1f}" for i in range(n))
        lower = " ".join(f"{coords[i][0]:.1f},{y(lows[i]):.1f}" for i in reversed(range(n)))
        parts.append(
            f'<polygon points="{upper} {lower}" fill="{color}" opacity="0.13">'
            "<title>lowest to highest answer</title></polygon>"
        )
    elif spread:  # a single point with a spread: a whisker
        i = spread[0]
        parts.append(
            f'<line x1="{coords[i][0]:.1f}" x2="{coords[i][0]:.1f}" y1="{y(highs[i]):.1f}" '
            f'y2="{y(lows[i]):.1f}" stroke="{color}" stroke-width="6" opacity="0.25"/>'
        )
    busy = n > 20
    line = " ".join(f"{a:.1f},{b:.1f}" for a, b in coords)
    parts.append(
        f'<polyline points="{line}" fill="none" stroke="{color}" '
        f'stroke-width="{1.2 if busy else 2}" opacity="{0.45 if busy else 1}"/>'
    )
    if busy:
        avg = moving_average([p.value for p in points], 7)
        avg_line = " ".join(f"{coords[i][0]:.1f},{y(v):.1f}" for i, v in enumerate(avg))
        parts.append(
            f'<polyline points="{avg_line}" fill="none" stroke="{color}" stroke-width="2.5"/>'
        )
    if n <= MAX_DOTS:
        for (cx, cy), p in zip(coords, points, strict=True):
            parts.append(
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.5" fill="{color}">'
                f"<title>{escape(point_tip(p, unit, point_name))}</title></circle>"
            )
    parts.append("</svg>")
    return "".join(parts)


def point_tip(p: Point, unit: str = "", point_name: str = "session") -> str:
    what = "1 answer" if p.count == 1 else f"{p.count} answers"
    spread = ""
    if p.count > 1 and p.low is not None and p.high is not None:
        spread = f", {_fmt(p.low)}–{_fmt(p.high)}"
    return (
        f"{p.at.astimezone():%Y-%m-%d %H:%M}: {_fmt(p.value)}{unit} ({point_name}, {what}{spread})"
    )


def _x_labels(points: Sequence[Point], x, height: int, x_min: float, x_max: float) -> list[str]:
    """Date labels that never overlap: each placed only if it clears the one before
    (measured by its text width), the first and last always tried first."""
    n = len(points)
    span_days = (points[-1].at.timestamp() - points[0].at.timestamp()) / 86400
    texts = [_date_label(p.at, span_days, one_point=n == 1) for p in points]
    order = [0, n - 1] if n > 1 else [0]
    if n > 2:
        step = max(1, math.ceil((n - 1) / 6))
        order += list(range(step, n - 1, step))
    placed: list[tuple[float, float, int]] = []
    for i in order:
        w = len(texts[i]) * CHAR_W
        cx = min(max(x(i), x_min + w / 2), x_max - w / 2)
        a, b = cx - w / 2 - 8, cx + w / 2 + 8
        if any(a < pb and pa < b for pa, pb, _ in placed):
            continue
        if any(texts[j] == texts[i] for _, _, j in placed):
            continue  # two sessions on one day: one label
        placed.append((a, b, i))
    out = []
    for a, b, i in sorted(placed):
        out.append(
            f'<text x="{(a + b) / 2:.1f}" y="{height - 9}" text-anchor="middle" '
            f'class="ch-muted">{escape(texts[i])}</text>'
        )
    return out


MAX_DOTS = 120


def bar_chart(
    items: Sequence[tuple[str, float, str]],
    *,
    label: str,
    max_value: float,
    color: str | Sequence[str],
    width: int = 940,
    label_width: int = 300,
    row: int = 26,
) -> str:
    """Horizontal bars: ``(label, value, text shown after the bar)`` per row."""
    height = max(row * len(items) + 8, 40)
    parts = _svg_open(width, height, label)
    if not items:
        return _no_data(parts, width / 2, 24)
    bar_w = width - label_width - 150  # room for the value text after the longest bar
    max_chars = int(label_width / CHAR_W)
    for i, (name, value, text) in enumerate(items):
        top = 4 + i * row
        shown = name if len(name) <= max_chars else name[: max_chars - 1] + "…"
        fill = color if isinstance(color, str) else color[i % len(color)]
        w = max(2.0, bar_w * (value / max_value if max_value else 0))
        parts.append(
            f"<g><title>{escape(name)}: {escape(text)}</title>"
            f'<text x="{label_width - 8}" y="{top + row / 2 + 4:.1f}" text-anchor="end" '
            f'class="ch-ink">{escape(shown)}</text>'
            f'<rect x="{label_width}" y="{top + 4}" width="{w:.1f}" height="{row - 8}" rx="3" '
            f'fill="{fill}"/>'
            f'<text x="{label_width + w + 6:.1f}" y="{top + row / 2 + 4:.1f}" class="ch-ink">'
            f"{escape(text)}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)
