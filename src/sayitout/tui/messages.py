"""Messages: workers and the session engine post them to screens, and screens post
them upward to the app (which handles them) instead of calling into it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

from sayitout.session import events as ev

if TYPE_CHECKING:
    from sayitout.config import Settings
    from sayitout.session.interview import InterviewPlan
    from sayitout.session.plan import SessionPlan
    from sayitout.tui.widgets.insights import HomeInsights


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
        self,
        rows: list[dict[str, Any]],
        recent: list[str],
        topics: list[str],
        problems: int,
        insights: HomeInsights | None = None,
    ) -> None:
        super().__init__()
        self.rows = rows
        self.recent = recent
        self.topics = topics
        self.problems = problems
        self.insights = insights


class Failed(Message):
    """Something could not be loaded or done: what, why, and how to fix it.

    A screen shows it where it belongs and stops it; one that lets it bubble up has
    the app open an error dialog."""

    def __init__(self, title: str, message: str, hint: str | None = None) -> None:
        super().__init__()
        self.title = title
        self.message = message
        self.hint = hint

    @classmethod
    def from_error(cls, exc: Any) -> Failed:
        """From a :class:`~sayitout.errors.SayitoutError`."""
        return cls(exc.title, exc.message, exc.hint)


# --- screens to the app ----------------------------------------------------------------


class StartSession(Message):
    """Home's form describes a valid plan: start it."""

    def __init__(self, plan: SessionPlan | InterviewPlan) -> None:
        super().__init__()
        self.plan = plan


class HomeReady(Message):
    """Home has shown its data (or failed to): the models may load now."""


class HomeResumed(Message):
    """Home is showing again (after a session, History or Settings)."""


class SaveSettings(Message):
    """The Settings form holds valid settings: save and apply them."""

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings


class RecoveryOffer(Message):
    """Recordings from an earlier run that were never scored, and typed answers that
    ``score --save`` scored but could not save (found at start)."""

    def __init__(self, orphans: list[Any], kept: list[Any] | None = None) -> None:
        super().__init__()
        self.orphans = orphans
        self.kept = kept or []


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


class SoundOutputChecked(Message):
    """Whether sound can be played here: ``problem`` says why not (None: it can)."""

    def __init__(self, problem: str | None) -> None:
        super().__init__()
        self.problem = problem
