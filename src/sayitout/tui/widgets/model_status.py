"""The app-wide state Home's bottom line shows: each model's loading state, what does
not work on this machine (no microphone, no sound out) and any recovery in progress.
The app owns one :class:`AppStatus` and hands it to Home.

This line is where start-up notices live: a toast would float over Home's form.
"""

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
    voice: str | None = None
    """Why questions are not read aloud (the voice failed to load), or None."""
    sound_out: str | None = None
    """Why nothing can be played (no audio output device), or None (fine, or not known)."""
    notice: str | None = None
    """The latest start-up notice that is not one of the above (e.g. about the voice)."""


def _reason(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].lower() + text[1:]


def status_line(status: AppStatus, typed_reason: str | None, width: int = 0) -> Text:
    """The line's parts, each kept whole: when they do not fit in ``width`` columns the
    next part starts a new line rather than breaking mid-phrase."""
    parts: list[Text] = []
    for name, label in _LABELS:
        state = status.models.get(name, "waiting")
        if name == "speech" and typed_reason is not None and state == "waiting":
            continue  # answers are typed: the speech model is not loaded at all
        parts.append(Text(f"{label}: ", style="dim").append(state, style=_STYLES.get(state, "dim")))
    if typed_reason is not None:
        parts.append(Text(f"answers typed: {_reason(typed_reason)}", style="yellow"))
    if status.voice is not None:
        parts.append(Text(f"not read aloud: {_reason(status.voice)}", style="yellow"))
    elif status.sound_out is not None:
        parts.append(Text(f"no playback: {_reason(status.sound_out)}", style="yellow"))
    if status.notice:
        parts.append(Text(status.notice, style="yellow"))
    if status.recovery:
        parts.append(Text(status.recovery, style="bold yellow"))
    line, used = Text(), 0
    for part in parts:
        if used and width and used + _GAP + part.cell_len > width:
            line.append("\n")
            used = 0
        elif used:
            line.append(" " * _GAP)
            used += _GAP
        line.append_text(part)
        used += part.cell_len
    return line


_GAP = 3
