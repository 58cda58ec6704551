"""Figures the reliability tests and benches write for ``render_doc.py``.

Everything lands in ``build/reliability.json`` (git-ignored), one key per source,
merged so that a partial run keeps the figures of the others.
"""

from __future__ import annotations

import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
RESULTS = Path(
    os.environ.get("SAYITOUT_RELIABILITY_RESULTS", REPO_ROOT / "build" / "reliability.json")
)
_lock = threading.Lock()


def load() -> dict[str, Any]:
    try:
        return json.loads(RESULTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def record(key: str, value: Any) -> None:
    """Merge ``value`` under ``key`` (with the time it was recorded)."""
    with _lock:
        data = load()
        if isinstance(value, dict):
            value = {**value, "recorded_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}
        data[key] = value
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        tmp = RESULTS.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True), encoding="utf-8")
        os.replace(tmp, RESULTS)


def record_case(group: str, case_id: str, value: dict[str, Any]) -> None:
    """One row of a table (e.g. a bad-input case and what happened)."""
    with _lock:
        data = load()
        data.setdefault(group, {})[case_id] = value
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        tmp = RESULTS.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True), encoding="utf-8")
        os.replace(tmp, RESULTS)
