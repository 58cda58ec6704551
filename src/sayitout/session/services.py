"""Everything a session needs, in one object.

:func:`sayitout.session.wiring.build_services` builds it from ``Settings`` with the
real speech, scoring and storage packages; tests pass their own pieces. Models are
not loaded here: :meth:`SessionServices.warm_up` loads them (in the background).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sayitout.errors import SayitoutError
from sayitout.session.events import Event, ModelFailed, ModelLoading, ModelReady, Notice

if TYPE_CHECKING:
    from sayitout.config import Settings
    from sayitout.session.ports import AnswerScorer, Microphones, Recognizer, Voice


@dataclass
class SessionServices:
    settings: Settings
    bank_loader: Callable[[], Any]
    """Returns the question bank (``sayitout.bank.loader.load_bank``)."""
    scorer: AnswerScorer
    recognizer: Recognizer | None
    """None when speech recognition is not available at all."""
    microphones: Microphones
    voice: Voice | None
    """None for silence (``--tts none``)."""
    store_opener: Callable[[], Any] | None = None
    """Opens the attempt store; None keeps nothing (tests of the engine alone)."""
    recordings_dir: Path | None = None
    failed: dict[str, SayitoutError] = field(default_factory=dict)
    """Models that failed to load, by name (``speech``, ``scoring``, ``voice``)."""
    _bank: Any = None
    _store: Any = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def bank(self) -> Any:
        with self._lock:
            if self._bank is None:
                self._bank = self.bank_loader()
            return self._bank

    @property
    def bank_if_loaded(self) -> Any:
        """The bank when it is already loaded, else None (never blocks)."""
        return self._bank

    @property
    def store(self) -> Any:
        """The store, opened on first use (None when there is none)."""
        with self._lock:
            if self._store is None and self.store_opener is not None:
                self._store = self.store_opener()
            return self._store

    def close(self) -> None:
        with self._lock:
            store, self._store = self._store, None
        if store is not None and hasattr(store, "close"):
            store.close()
        if self.voice is not None:
            self.voice.stop()
            close = getattr(self.voice, "close", None)
            if close is not None:
                close()

    def spoken_answers_unavailable(self, *, block: bool = True) -> tuple[str, str | None] | None:
        """Why answers must be typed (no microphone, no speech model), or None.

        ``block=False`` never waits for the microphone check (opening the sound library
        takes a while): a microphone not checked yet counts as available.
        """
        if self.recognizer is None:
            return ("speech recognition is not available", "answers are typed instead")
        if "speech" in self.failed:
            err = self.failed["speech"]
            return (f"the speech model failed to load: {err.message}", err.hint)
        if not block and not getattr(self.microphones, "checked", True):
            return None
        return self.microphones.unavailable()

    def warm_up(
        self,
        emit: Callable[[Event], None],
        cancel: threading.Event | None = None,
        *,
        speech: bool = True,
        scoring: bool = True,
        voice: bool = True,
    ) -> None:
        """Check the microphone and load the models now, reporting each step.

        The voice starts loading first, in its own thread (``prepare``), so it is ready
        for the first question even while the bigger models are still loading.
        """
        prepare_voice = getattr(self.voice, "prepare", None)
        if voice and prepare_voice is not None:
            with contextlib.suppress(Exception):  # the voice job below reports it
                prepare_voice()
        problem = self.microphones.unavailable()
        if problem is None:
            emit(ModelReady("microphone"))
        else:
            emit(ModelFailed("microphone", problem[0], problem[1]))
        jobs: list[tuple[str, Callable[[], object], str]] = []
        if speech and self.recognizer is not None and problem is None:
            jobs.append(("speech", self.recognizer.load, self.recognizer.model_name))
        if scoring:
            jobs.append(("scoring", self.scorer.load, self.scorer.model_name))
        load_voice = getattr(self.voice, "load", None)
        if voice and load_voice is not None:
            jobs.append(("voice", load_voice, getattr(self.voice, "model_name", "")))
        for name, load, detail in jobs:
            if cancel is not None and cancel.is_set():
                return
            emit(ModelLoading(name, detail))
            started = time.perf_counter()
            try:
                load()
            except SayitoutError as exc:
                self.failed[name] = exc
                emit(ModelFailed(name, exc.message, exc.hint))
                continue
            except Exception as exc:  # a model library failing in a way nobody foresaw
                err = SayitoutError(
                    f"{detail or name} could not be loaded: {exc}",
                    "run `sayitout doctor` to check the models",
                )
                self.failed[name] = err
                emit(ModelFailed(name, err.message, err.hint))
                continue
            self.failed.pop(name, None)
            emit(ModelReady(name, detail, time.perf_counter() - started))
            notice = getattr(self.voice, "notice", None) if name == "voice" else None
            if notice:
                emit(Notice(f"Voice: {notice}"))
