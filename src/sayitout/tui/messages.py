"""Messages the app's workers and the session engine post to screens."""

from __future__ import annotations

from typing import Any

from textual.message import Message

from sayitout.session import events as ev


class SessionEvent(Message):
    """One engine event, delivered on the UI thread."""

    def __init__(self, event: ev.Event) -> None:
        super().__init__()
        self.event = event

    def can_replace(self, message: Message) -> bool:
        # A flood of level updates (or partial transcripts) collapses into the latest.
        if not isinstance(message, SessionEvent):
            return False
        for kind in (ev.RecordingProgress, ev.ThinkingTick, ev.PartialTranscript):
            if isinstance(self.event, kind) and isinstance(message.event, kind):
                return True
        return False


class ModelEvent(Message):
    """A model started loading, became ready, or failed (from the warm-up worker)."""

    def __init__(self, event: ev.Event) -> None:
        super().__init__()
        self.event = event


class HomeData(Message):
    """The home screen's deck table, due counts and recent sessions, loaded off the UI thread."""

    def __init__(
        self, rows: list[dict[str, Any]], recent: list[str], topics: list[str], problems: int
    ) -> None:
        super().__init__()
        self.rows = rows
        self.recent = recent
        self.topics = topics
        self.problems = problems


class LoadFailed(Message):
    def __init__(self, title: str, message: str, hint: str | None) -> None:
        super().__init__()
        self.title = title
        self.message = message
        self.hint = hint


class RecoveryOffer(Message):
    """Recordings from an earlier run that were never scored (found at start)."""

    def __init__(self, orphans: list[Any]) -> None:
        super().__init__()
        self.orphans = orphans


class RecoveryProgress(Message):
    def __init__(self, done: int, total: int, result: Any) -> None:
        super().__init__()
        self.done = done
        self.total = total
        self.result = result


class RecoveryDone(Message):
    def __init__(
        self, results: list[Any], error: tuple[str, str, str | None] | None = None
    ) -> None:
        super().__init__()
        self.results = results
        self.error = error
