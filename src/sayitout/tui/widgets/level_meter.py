"""A one-line input level meter with elapsed and remaining time."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


def clock(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.5))
    return f"{seconds // 60}:{seconds % 60:02d}"


class LevelMeter(Widget):
    """``● REC  █████░░░░░  0:12 / 1:30  (1:18 left)``."""

    DEFAULT_CSS = """
    LevelMeter { height: 1; width: 1fr; }
    """

    level: reactive[float] = reactive(0.0)
    elapsed: reactive[float] = reactive(0.0)
    limit: reactive[float] = reactive(0.0)
    frozen: bool = False
    """Snapshot tests hold the meter still."""

    def render(self) -> Text:
        width = max(10, min(30, self.size.width - 32))
        level = 0.0 if self.frozen else max(0.0, min(1.0, self.level))
        filled = round(level * width)
        colour = "green" if level < 0.7 else ("yellow" if level < 0.9 else "red")
        text = Text()
        text.append("● REC ", style="bold red")
        text.append("█" * filled, style=colour)
        text.append("░" * (width - filled), style="dim")
        elapsed = 0.0 if self.frozen else self.elapsed
        text.append(f"  {clock(elapsed)} / {clock(self.limit)}")
        text.append(f"  ({clock(max(0.0, self.limit - elapsed))} left)", style="dim")
        return text
