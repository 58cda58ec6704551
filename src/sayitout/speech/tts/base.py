"""The speaking loop shared by the backends: sentence by sentence, cached, stoppable."""

from __future__ import annotations

import logging
import queue
import threading
import time

import numpy as np

from sayitout.speech.tts.cache import SynthCache
from sayitout.speech.tts.text import sentences, speakable

log = logging.getLogger(__name__)


def _exiting() -> bool:
    """True once the main thread has finished (the interpreter is shutting down)."""
    return not threading.main_thread().is_alive()


SENTENCE_GAP_S = 0.18
"""Silence between sentences (the engines leave little of their own)."""


class SynthSpeaker:
    """Base of the backends that synthesise audio and play it with a :class:`Player`.

    Every backend is a :class:`sayitout.session.ports.Speaker`.

    Subclasses set ``backend`` and ``voice_id`` and implement :meth:`_synth_sentence`.
    """

    backend = "?"
    voice_id = ""

    def __init__(self, rate: float = 1.0, player=None, cache: SynthCache | None = None) -> None:
        self.rate = float(rate)
        self._player = player
        self.cache = cache
        self.notice: str | None = None
        self.last_first_sound_s: float | None = None
        """Seconds from the last :meth:`speak` call to its first sound reaching the device."""
        self._synth_lock = threading.Lock()
        self._halt = threading.Event()
        self._stream = None
        self._stream_lock = threading.Lock()
        self._warm_q: queue.Queue[str | None] = queue.Queue()
        self._warm_thread: threading.Thread | None = None
        self._warm_pending = 0
        self._warm_start_lock = threading.Lock()
        self._warm_done = threading.Condition()
        self._closed = False

    def prepare(self) -> None:
        """Load the engine in the background ahead of the first :meth:`speak`."""

    def warm_up(self) -> None:
        """Load the engine now (a broken voice is reported before the first question)."""

    # -- to implement -------------------------------------------------------------
    def _synth_sentence(self, text: str) -> tuple[np.ndarray, int]:
        raise NotImplementedError

    # -- synthesis ----------------------------------------------------------------
    @property
    def player(self):
        if self._player is None:
            from sayitout.speech.audio.player import Player

            self._player = Player()
        return self._player

    def _sentence_audio(self, sentence: str) -> tuple[np.ndarray, int]:
        key = None
        if self.cache is not None:
            key = SynthCache.key(self.backend, self.voice_id, self.rate, sentence)
            hit = self.cache.get(key)
            if hit is not None:
                return hit
        with self._synth_lock:  # engines are not re-entrant
            audio, sr = self._synth_sentence(sentence)
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        if self.cache is not None and key is not None:
            self.cache.put(key, audio, sr)
        return audio, sr

    def _parts(self, text: str) -> list[str]:
        return sentences(speakable(text))

    def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        pieces: list[np.ndarray] = []
        rate = 0
        for s in self._parts(text):
            audio, sr = self._sentence_audio(s)
            if rate and sr != rate:
                from sayitout.speech.audio.resample import resample

                audio = resample(audio, sr, rate)
            rate = rate or sr
            if pieces:
                pieces.append(np.zeros(round(SENTENCE_GAP_S * rate), dtype=np.float32))
            pieces.append(audio)
        if not pieces:
            return np.zeros(0, dtype=np.float32), rate or 22050
        return np.concatenate(pieces), rate

    # -- speaking -----------------------------------------------------------------
    def speak(self, text: str, cancel: threading.Event | None = None) -> bool:
        t0 = time.monotonic()
        self._halt.clear()
        self.last_first_sound_s = None
        parts = self._parts(text)
        if not parts:
            return True
        q: queue.Queue[tuple[np.ndarray, int] | BaseException | None] = queue.Queue()
        halt = self._halt

        def produce() -> None:
            try:
                for s in parts:
                    if halt.is_set() or (cancel is not None and cancel.is_set()) or _exiting():
                        break
                    q.put(self._sentence_audio(s))
            except BaseException as exc:  # handed to the speaking thread
                q.put(exc)
            finally:
                q.put(None)

        # Not a daemon: the interpreter must not exit while the engine is mid-sentence
        # (onnxruntime aborts the process); it stops between sentences.
        threading.Thread(target=produce, name=f"tts-{self.backend}").start()

        def stopped() -> bool:
            return halt.is_set() or (cancel is not None and cancel.is_set())

        stream = None
        try:
            first = True
            while True:
                if stopped():
                    return False
                try:
                    item = q.get(timeout=0.02)
                except queue.Empty:
                    continue
                if item is None:
                    break
                if isinstance(item, BaseException):
                    raise item
                audio, sr = item
                if stream is None:
                    stream = self.player.stream(sr)
                    with self._stream_lock:
                        self._stream = stream
                    if stopped():
                        return False
                elif sr != stream.sample_rate:
                    from sayitout.speech.audio.resample import resample

                    audio = resample(audio, sr, stream.sample_rate)
                if not first:
                    stream.write(np.zeros(round(SENTENCE_GAP_S * stream.sample_rate), np.float32))
                first = False
                stream.write(audio)
            if stream is None:
                return True
            stream.finish()
            while not stream.wait(timeout=0.05):
                if stopped() or stream.stopped:
                    return False
            return not stream.stopped
        finally:
            if stream is not None:
                if stream.first_sound_at is not None:
                    self.last_first_sound_s = stream.first_sound_at - t0
                if stopped():
                    stream.abort()
                with self._stream_lock:
                    self._stream = None

    def stop(self) -> None:
        self._halt.set()
        with self._stream_lock:
            stream = self._stream
        if stream is not None:
            stream.abort()

    # -- warming ------------------------------------------------------------------
    def warm(self, texts: list[str]) -> None:
        if self.cache is None or self._closed:
            return
        with self._warm_start_lock:
            for t in texts:
                with self._warm_done:
                    self._warm_pending += 1
                self._warm_q.put(t)
            if self._warm_thread is None:
                self._warm_thread = threading.Thread(
                    target=self._warm_loop, name=f"tts-warm-{self.backend}"
                )
                self._warm_thread.start()

    def _warm_done_one(self) -> None:
        with self._warm_done:
            self._warm_pending -= 1
            self._warm_done.notify_all()

    def _warm_loop(self) -> None:
        # Ends when idle, so it never keeps the interpreter alive; not a daemon, so the
        # process never exits while it is inside the engine.
        while True:
            try:
                text = self._warm_q.get(timeout=0.5)
            except queue.Empty:
                with self._warm_start_lock:
                    if self._warm_q.empty():
                        self._warm_thread = None
                        return
                continue
            if text is None or self._closed:
                if text is not None:
                    self._warm_done_one()
                self._drain_warm()
                with self._warm_start_lock:
                    self._warm_thread = None
                return
            try:
                for s in self._parts(text):
                    if self._closed or _exiting():
                        break
                    self._sentence_audio(s)
            except Exception as exc:  # warming is best effort
                log.warning("TTS warm-up failed for %r: %s", text[:40], exc)
            finally:
                self._warm_done_one()

    def _drain_warm(self) -> None:
        while True:
            try:
                item = self._warm_q.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                self._warm_done_one()

    def wait_warm(self, timeout: float | None = None) -> bool:
        """Block until queued warm-ups are done (for tests and benchmarks)."""
        with self._warm_done:
            return self._warm_done.wait_for(lambda: self._warm_pending == 0, timeout)

    def close(self) -> None:
        self._closed = True
        self.stop()
        with self._warm_start_lock:
            if self._warm_thread is not None:
                self._warm_q.put(None)


class SilentSpeaker:
    """``--tts none``: says nothing, at once. For quiet places and CI."""

    backend = "none"
    voice_id = ""

    def __init__(self, notice: str | None = None) -> None:
        self.notice = notice
        self.last_first_sound_s: float | None = None

    def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        return np.zeros(0, dtype=np.float32), 16_000

    def speak(self, text: str, cancel: threading.Event | None = None) -> bool:
        return True

    def stop(self) -> None:
        pass

    def warm(self, texts: list[str]) -> None:
        pass

    def prepare(self) -> None:
        pass

    def warm_up(self) -> None:
        pass

    def close(self) -> None:
        pass
