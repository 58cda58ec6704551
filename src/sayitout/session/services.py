"""Everything a session needs, in one object.

:func:`sayitout.app_factory.build_services` builds it from ``Settings`` with the real
speech, scoring and storage packages; tests pass their own pieces. Nothing is loaded
when it is built: each service is built on first use (:class:`Lazy`), and
:meth:`SessionServices.warm_up` loads the models in the background.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from sayitout.errors import SayitoutError
from sayitout.session.events import Event, ModelFailed, ModelLoading, ModelReady, Notice

if TYPE_CHECKING:
    from sayitout.bank.loader import Bank
    from sayitout.config import Settings
    from sayitout.session.ports import AnswerScorer, Microphones, Speaker, Transcriber
    from sayitout.store import Store

T = TypeVar("T")


class Lazy(Generic[T]):
    """A value built on first use, once, whichever thread asks first.

    A build that raises is not kept: the next :meth:`get` tries again (and raises again
    with the same clear message when the cause is still there).
    """

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._value: T | None = None
        self._lock = threading.Lock()

    @classmethod
    def of(cls, value: T) -> Lazy[T]:
        """A value that is already built."""
        lazy = cls(lambda: value)
        lazy._value = value
        return lazy

    def get(self) -> T:
        value = self._value
        if value is not None:
            return value
        with self._lock:
            if self._value is None:
                self._value = self._build()
            return self._value

    @property
    def built(self) -> T | None:
        """The value when it is already built, else None (never blocks)."""
        return self._value


def _lazy(value: T | Lazy[T]) -> Lazy[T]:
    return value if isinstance(value, Lazy) else Lazy.of(value)


class SessionServices:
    """The bank, the store, the models and the microphone a session uses.

    ``scorer``, ``transcriber`` and ``speaker`` are the objects themselves or
    :class:`Lazy` builders of them; ``transcriber=None`` means speech recognition is
    not available at all and ``speaker=None`` means silence (``--tts none``);
    ``store_opener=None`` keeps nothing (tests of the engine alone).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        bank_loader: Callable[[], Bank],
        scorer: AnswerScorer | Lazy[AnswerScorer],
        transcriber: Transcriber | Lazy[Transcriber] | None,
        microphones: Microphones,
        speaker: Speaker | Lazy[Speaker] | None,
        store_opener: Callable[[], Store] | None = None,
        recordings_dir: Path | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.settings = settings
        self.clock = clock
        """The time now, for what is due and what to practise next (tests hold it still)."""
        self.microphones = microphones
        self.recordings_dir = recordings_dir
        """Where recordings go when there is no store."""
        self.failed: dict[str, SayitoutError] = {}
        """Models that failed to load, by name (``speech``, ``scoring``, ``voice``)."""
        self.closed = threading.Event()
        """Set by :meth:`close`: a :meth:`warm_up` still running stops at its next step."""
        self._bank = Lazy(bank_loader)
        self._store = Lazy(store_opener) if store_opener is not None else None
        self.scorer = scorer  # the setters take a Lazy builder too
        self.transcriber = transcriber
        self.speaker = speaker

    # --- the services, built on first use ---------------------------------------------

    @property
    def bank(self) -> Bank:
        return self._bank.get()

    @property
    def bank_if_loaded(self) -> Bank | None:
        """The bank when it is already loaded, else None (never blocks)."""
        return self._bank.built

    @property
    def store(self) -> Store | None:
        """The store, opened on first use (None when there is none or it was dropped)."""
        return self._store.get() if self._store is not None else None

    def drop_store(self) -> None:
        """Keep nothing from now on (the store could not be opened; that was reported)."""
        self._store = None

    @property
    def scorer(self) -> AnswerScorer:
        return self._scorer.get()

    @scorer.setter
    def scorer(self, value: AnswerScorer | Lazy[AnswerScorer]) -> None:
        self._scorer = _lazy(value)

    @property
    def transcriber(self) -> Transcriber | None:
        return self._transcriber.get() if self._transcriber is not None else None

    @transcriber.setter
    def transcriber(self, value: Transcriber | Lazy[Transcriber] | None) -> None:
        self._transcriber = _lazy(value) if value is not None else None

    @property
    def speaker(self) -> Speaker | None:
        return self._speaker.get() if self._speaker is not None else None

    @speaker.setter
    def speaker(self, value: Speaker | Lazy[Speaker] | None) -> None:
        self._speaker = _lazy(value) if value is not None else None

    @property
    def has_speaker(self) -> bool:
        """Whether questions are read aloud at all (False for ``--tts none``); never builds."""
        return self._speaker is not None

    def close(self) -> None:
        self.closed.set()
        store = self._store.built if self._store is not None else None
        self._store = None
        if store is not None:
            store.close()
        speaker = self._speaker.built if self._speaker is not None else None
        if speaker is not None:
            speaker.stop()
            speaker.close()

    # --- what works -----------------------------------------------------------------------

    def spoken_answers_unavailable(self, *, block: bool = True) -> tuple[str, str | None] | None:
        """Why answers must be typed (no microphone, no speech model), or None.

        ``block=False`` never waits for the microphone check (opening the sound library
        takes a while): a microphone not checked yet counts as available.
        """
        if self._transcriber is None:
            return ("speech recognition is not available", "answers are typed instead")
        if "speech" in self.failed:
            err = self.failed["speech"]
            return (f"the speech model failed to load: {err.message}", err.hint)
        if not block and not self.microphones.checked:
            return None
        return self.microphones.unavailable()

    def warm_up(
        self,
        emit: Callable[[Event], object],
        cancel: threading.Event | None = None,
        *,
        speech: bool = True,
        scoring: bool = True,
        voice: bool = True,
    ) -> None:
        """Check the microphone and load the models now, reporting each step.

        The voice starts loading first, in its own thread (``prepare``), so it is ready
        for the first question even while the bigger models are still loading. Stops
        between steps once ``cancel`` is set or the services are closed (new settings
        replaced them).
        """

        def cancelled() -> bool:
            return self.closed.is_set() or (cancel is not None and cancel.is_set())

        if voice and self._speaker is not None:
            self._load("voice", lambda: self._speaker_prepared(), emit, quiet=True)
        problem = self.microphones.unavailable()
        if problem is None:
            emit(ModelReady("microphone"))
        else:
            emit(ModelFailed("microphone", problem[0], problem[1]))
        jobs: list[tuple[str, Callable[[], object]]] = []
        if speech and self._transcriber is not None and problem is None:
            jobs.append(("speech", lambda: self._warm(self._transcriber)))
        if scoring:
            jobs.append(("scoring", lambda: self._warm(self._scorer)))
        if voice and self._speaker is not None:
            jobs.append(("voice", lambda: self._warm(self._speaker)))
        for name, load in jobs:
            if cancelled():
                return
            self._load(name, load, emit)
            if name == "voice" and "voice" not in self.failed:
                notice = self.speaker.notice if self.speaker is not None else None
                if notice:
                    emit(Notice(f"Voice: {notice}"))

    def _speaker_prepared(self) -> None:
        speaker = self.speaker
        if speaker is not None:
            speaker.prepare()

    @staticmethod
    def _warm(service: Lazy[AnswerScorer] | Lazy[Transcriber] | Lazy[Speaker] | None) -> None:
        if service is not None:
            service.get().warm_up()

    def _load(
        self,
        name: str,
        load: Callable[[], object],
        emit: Callable[[Event], object],
        *,
        quiet: bool = False,
    ) -> None:
        """Run one loading step; its outcome is emitted (``quiet``: only a failure, kept
        for the step that reports it)."""
        detail = self._detail(name)
        if not quiet:
            emit(ModelLoading(name, detail))
        started = time.perf_counter()
        try:
            load()
        except SayitoutError as exc:
            if not quiet:
                self.failed[name] = exc
                emit(ModelFailed(name, exc.message, exc.hint))
            return
        except Exception as exc:  # a model library failing in a way nobody foresaw
            if not quiet:
                err = SayitoutError(
                    f"{detail or name} could not be loaded: {exc}",
                    "run `sayitout doctor` to check the models",
                )
                self.failed[name] = err
                emit(ModelFailed(name, err.message, err.hint))
            return
        if not quiet:
            self.failed.pop(name, None)
            emit(ModelReady(name, detail, time.perf_counter() - started))

    def _detail(self, name: str) -> str:
        """What is loading, for the front end (never builds anything)."""
        if name == "speech":
            asr = self._transcriber.built if self._transcriber is not None else None
            return asr.model_name if asr is not None else self.settings.asr.model
        if name == "scoring":
            built = self._scorer.built
            return built.model_name if built is not None else "all-MiniLM-L6-v2"
        if name == "voice":
            return self.settings.speech.tts
        return ""
