"""The app-wide state Home's bottom line shows: each model's loading state and any
recovery in progress. The app owns one :class:`AppStatus` and hands it to Home."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text

_LABELS = (("speech", "speech model"), ("scoring", "scoring model"))
_STYLES = {"ready": "green", "failed": "red", "loading": "yellow"}


@dataclass
class AppStatus:
    models: dict[str, str] = field(default_factory=dict)
    """Model name -> ``loading``, ``ready`` or ``failed`` (absent: waiting)."""
    recovery: str | None = None
    """``recovering answers 1/3…`` while unsaved answers from an earlier run are scored."""


def status_line(status: AppStatus, typed_reason: str | None) -> Text:
    line = Text()
    for name, label in _LABELS:
        state = status.models.get(name, "waiting")
        line.append(f"{label}: ", style="dim")
        line.append(state, style=_STYLES.get(state, "dim"))
        line.append("   ")
    if typed_reason is not None:
        line.append(f"answers typed: {typed_reason}", style="yellow")
    if status.recovery:
        line.append(status.recovery, style="bold yellow")
    return line
