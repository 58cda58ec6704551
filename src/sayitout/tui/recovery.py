"""What to tell the candidate after recovering unsaved answers (no Textual here)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from sayitout.recovery import Outcome


def recovery_report(results: Sequence[Any]) -> tuple[str, str, str]:
    """``(title, message, severity)`` for the notification after recovery."""
    total = len(results)
    ok = [r for r in results if r.outcome is Outcome.RECOVERED]
    if not total:
        return ("Nothing to recover", "The recordings were already saved.", "information")
    title = f"Recovered {len(ok)} of {total} unsaved answer{'s' if total != 1 else ''}"
    lines: list[str] = []
    if ok:
        scores = ", ".join(f"{r.question_id} {r.score}/100" for r in ok[:4])
        more = f" and {len(ok) - 4} more" if len(ok) > 4 else ""
        lines.append(f"Saved to history: {scores}{more}.")
    failed = [r for r in results if r.outcome is not Outcome.RECOVERED]
    reasons = Counter(r.message for r in failed)
    for message, n in reasons.most_common(3):
        lines.append(f"{n} not recovered: {message}." if n > 1 else f"Not recovered: {message}.")
    if len(reasons) > 3:
        lines.append(f"{len(reasons) - 3} other problem(s): run `sayitout recover --list`.")
    kept = [r for r in failed if not r.discarded]
    if kept:
        lines.append(
            f"{len(kept)} file{'s are' if len(kept) != 1 else ' is'} kept; "
            "`sayitout recover` retries or discards them."
        )
    severity = "information" if not failed else ("warning" if ok else "error")
    return (title, "\n".join(lines), severity)
