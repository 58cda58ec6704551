"""Reading aloud for the session engine: questions, follow-ups and model answers.

:class:`QuestionReader` builds the services' speaker on first need, synthesises ahead
what will be read, and reads one text at a time, interruptibly. A voice that fails is
reported once (a :class:`~sayitout.session.events.Notice`) and the session goes on in
silence: reading aloud is never what stops a session.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from sayitout.errors import SayitoutError
from sayitout.session import events as ev
from sayitout.session.commands import CommandQueue
from sayitout.session.events import Phase

if TYPE_CHECKING:
    from sayitout.session.ports import Speaker
    from sayitout.session.services import SessionServices


class QuestionReader:
    """Reads the session's texts aloud through the services' speaker (if any)."""

    def __init__(
        self,
        services: SessionServices,
        commands: CommandQueue,
        emit: Callable[[ev.Event], None],
        set_phase: Callable[[Phase], None],
        spoke: Callable[[], None],
    ) -> None:
        """``spoke`` is called each time reading ends (the microphone may hear it a while
        yet)."""
        self._services = services
        self._commands = commands
        self._emit = emit
        self._set_phase = set_phase
        self._spoke = spoke
        self.cancel = threading.Event()
        """Set to stop reading now (``skip``); cleared when the next reading starts."""

    def speaker(self) -> Speaker | None:
        """The speaker when texts are read aloud and its voice works, else None."""
        services = self._services
        if not services.has_speaker or "voice" in services.failed:
            return None
        try:
            return services.speaker
        except SayitoutError as exc:
            services.failed["voice"] = exc
            self._emit(ev.Notice(f"Questions will not be read aloud: {exc.message}", exc.hint))
        except Exception as exc:  # a voice library failing in a way nobody foresaw
            services.failed["voice"] = SayitoutError(str(exc))
            self._emit(ev.Notice(f"Questions will not be read aloud: {exc}"))
        return None

    def skip(self) -> None:
        """Stop reading aloud now (any thread)."""
        self.cancel.set()
        speaker = self.speaker()
        if speaker is not None:
            speaker.stop()

    def warm(self, texts: list[str]) -> None:
        """Synthesise ahead what will be read, so reading starts at once (best effort)."""
        speaker = self.speaker()
        if speaker is None or not texts:
            return
        try:
            speaker.warm(texts)
        except Exception as exc:
            self._services.failed["voice"] = SayitoutError(str(exc))
            self._emit(ev.Notice(f"Questions will not be read aloud: {exc}"))

    def read(self, what: str, text: str) -> None:
        """Read ``text`` aloud until done or skipped (``what``: ``question``,
        ``follow_up`` or ``model_answer``); raises :class:`~sayitout.session.commands.Quit`
        when the candidate quits meanwhile."""
        self._commands.check_quit()
        speaker = self.speaker()
        if speaker is None:
            return
        self.cancel.clear()
        if what in ("question", "follow_up"):  # the interviewer is asking
            self._set_phase(Phase.ASKING)
        self._emit(ev.SpeakingStarted(what))
        try:
            speaker.speak(text, self.cancel)
        except SayitoutError as exc:
            self._services.failed["voice"] = exc
            self._emit(ev.Notice(f"Speech output stopped: {exc.message}", exc.hint))
        except Exception as exc:
            self._emit(ev.Notice(f"Speech output stopped: {exc}", "run `sayitout doctor`"))
        finally:
            self._spoke()
        self._emit(ev.SpeakingFinished(what, skipped=self.cancel.is_set()))
        self._commands.check_quit()
