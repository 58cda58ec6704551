"""The CSV export: one row per attempt, for people's own analysis (the JSON report
holds the same rows under ``attempts``)."""

from __future__ import annotations

import csv
import io
from typing import Any

from sayitout.report.rows import COLUMNS

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    if isinstance(value, list | tuple):
        value = ";".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        # A spreadsheet would run "=..." as a formula: keep user text as text.
        return "'" + value
    return value


def render_csv(rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(row.get(k)) for k in COLUMNS})
    return buf.getvalue()
