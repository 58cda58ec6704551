"""Small, dependency-free SVG charts, drawn as strings for inline use in HTML.

Every piece of text passes through :func:`html.escape`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape

from sayitout.report.data import Point

FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif\""


@dataclass(frozen=True)
class Band:
    low: float
    high: float
    label: str


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _date_label(at: datetime, span_days: float) -> str:
    local = at.astimezone()
    if span_days < 2:
        return local.strftime("%d %b %H:%M")
    if span_days > 400:
        return local.strftime("%b %Y")
    return local.strftime("%d %b")


def moving_average(values: Sequence[float], window: int) -> list[float]:
    out, total = [], 0.0
    for i, v in enumerate(values):
        total += v
        if i >= window:
            total -= values[i - window]
        out.append(total / min(i + 1, window))
    return out


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
    point_name: str = "attempt",
) -> str:
    """A line over time (or over attempt order), with a 7-point moving average when busy."""
    left, right, top, bottom = 44, 16, 14, 30
    pw, ph = width - left - right, height - top - bottom
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="100%" role="img" aria-label="{escape(label)}" {FONT} font-size="12">',
        f"<title>{escape(label)}</title>",
    ]
    if not points:
        parts.append(
            f'<text x="{width / 2}" y="{height / 2}" text-anchor="middle" fill="#667">'
            "No data for this chart yet</text></svg>"
        )
        return "".join(parts)
    y_hi = max(y_max, max(p.value for p in points))
    y_lo = min(y_min, min(p.value for p in points))
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
            f'fill="#2e7d32" opacity="0.10"><title>{escape(band.label)}</title></rect>'
        )
    for t in y_ticks:
        if y_lo <= t <= y_hi:
            parts.append(
                f'<line x1="{left}" x2="{left + pw}" y1="{y(t):.1f}" y2="{y(t):.1f}" '
                f'stroke="#e3e6eb"/><text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end" '
                f'fill="#667">{_fmt(t)}</text>'
            )
    parts.append(
        f'<line x1="{left}" x2="{left + pw}" y1="{top + ph}" y2="{top + ph}" stroke="#99a"/>'
    )
    # x labels: up to 6, evenly spread over the points
    span_days = (t1 - t0) / 86400
    if n == 1:
        picks = [0]
    else:
        picks = sorted({round(k * (n - 1) / 5) for k in range(6)}) if n > 6 else list(range(n))
    last_x = -1e9
    for i in picks:
        xi = x(i)
        if xi - last_x < 70:
            continue
        last_x = xi
        anchor = "start" if i == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"
        parts.append(
            f'<text x="{xi:.1f}" y="{height - 9}" text-anchor="{anchor}" fill="#667">'
            f"{escape(_date_label(points[i].at, span_days))}</text>"
        )
    coords = [(x(i), y(p.value)) for i, p in enumerate(points)]
    busy = n > 20
    line = " ".join(f"{a:.1f},{b:.1f}" for a, b in coords)
    parts.append(
        f'<polyline points="{line}" fill="none" stroke="{color}" '
        f'stroke-width="{1.2 if busy else 2}" opacity="{0.35 if busy else 1}"/>'
    )
    if busy:
        avg = moving_average([p.value for p in points], 7)
        avg_line = " ".join(f"{coords[i][0]:.1f},{y(v):.1f}" for i, v in enumerate(avg))
        parts.append(
            f'<polyline points="{avg_line}" fill="none" stroke="{color}" stroke-width="2.5"/>'
        )
    if n <= MAX_DOTS:
        for (cx, cy), p in zip(coords, points, strict=True):
            what = point_name if p.count == 1 else f"{p.count} attempts"
            tip = f"{p.at.astimezone():%Y-%m-%d %H:%M}: {_fmt(p.value)}{unit} ({what})"
            parts.append(
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.5" fill="{color}">'
                f"<title>{escape(tip)}</title></circle>"
            )
    parts.append("</svg>")
    return "".join(parts)


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
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="100%" role="img" aria-label="{escape(label)}" {FONT} font-size="12">',
        f"<title>{escape(label)}</title>",
    ]
    if not items:
        parts.append(
            f'<text x="{width / 2}" y="24" text-anchor="middle" fill="#667">'
            "No data for this chart yet</text></svg>"
        )
        return "".join(parts)
    bar_w = width - label_width - 150  # room for the value text after the longest bar
    max_chars = int(label_width / 6.6)
    for i, (name, value, text) in enumerate(items):
        top = 4 + i * row
        shown = name if len(name) <= max_chars else name[: max_chars - 1] + "…"
        fill = color if isinstance(color, str) else color[i % len(color)]
        w = max(2.0, bar_w * (value / max_value if max_value else 0))
        parts.append(
            f"<g><title>{escape(name)}: {escape(text)}</title>"
            f'<text x="{label_width - 8}" y="{top + row / 2 + 4:.1f}" text-anchor="end" '
            f'fill="#223">{escape(shown)}</text>'
            f'<rect x="{label_width}" y="{top + 4}" width="{w:.1f}" height="{row - 8}" rx="3" '
            f'fill="{fill}"/>'
            f'<text x="{label_width + w + 6:.1f}" y="{top + row / 2 + 4:.1f}" fill="#223">'
            f"{escape(text)}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def score_color(score: float) -> str:
    """Red below 40, amber to 65, green above: the FSRS rating bands."""
    if score < 40:
        return "#c62828"
    if score < 65:
        return "#ef8f00"
    if score < 85:
        return "#2e7d32"
    return "#1b5e20"
