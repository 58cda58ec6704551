"""Playback through sounddevice that starts fast and stops at once.

:meth:`Player.stream` opens an output stream fed piece by piece (the TTS hands it one
sentence at a time); :meth:`Player.play` plays one array. :meth:`Player.stop` silences
everything this player is playing, from any thread.
"""

from __future__ import annotations

import collections
import contextlib
import threading
import time

import numpy as np

from sayitout.errors import AudioError
from sayitout.speech.audio.devices import (
    NO_OUTPUT_FIX,
    Device,
    resolve_device,
    sounddevice,
    supports_rate,
)
from sayitout.speech.audio.resample import resample

PLAYBACK_LATENCY_S = 0.25


class PlaybackStream:
    """One open output stream; write audio to it, then :meth:`finish` and :meth:`wait`."""

    def __init__(self, player: Player, sample_rate: int) -> None:
        sd = sounddevice()
        self.player = player
        self.sample_rate = int(sample_rate)
        dev, rate = player._resolve(self.sample_rate)
        self.device = dev
        self.device_rate = rate
        self._lock = threading.Lock()
        self._queue: collections.deque[np.ndarray] = collections.deque()
        self._finished = False  # no more writes
        self._done = threading.Event()  # playback over (drained, stopped, or failed)
        self._stopped = False
        self._closed = False
        self.first_sound_at: float | None = None
        """``time.monotonic()`` when the first non-silent block went to the device."""
        self.samples_played = 0
        try:
            self._stream = sd.OutputStream(
                device=dev.index,
                samplerate=rate,
                channels=1,
                dtype="float32",
                callback=self._callback,
                finished_callback=self._done.set,
                # 0.25 s of buffer: the first sound still comes at once (PortAudio starts
                # playing as soon as data is there); 0.1 s and "low" lost audio on a busy machine.
                latency=PLAYBACK_LATENCY_S,
            )
            self._stream.start()
        except Exception as exc:
            raise AudioError(
                f"Cannot play sound on {dev.describe()}: {exc}", NO_OUTPUT_FIX
            ) from exc

    def _callback(self, outdata, frames, time_info, status) -> None:  # PortAudio thread
        sd = sounddevice()
        out = outdata[:, 0]
        filled = 0
        with self._lock:
            if self._stopped:
                outdata.fill(0)
                raise sd.CallbackAbort
            while filled < frames and self._queue:
                head = self._queue[0]
                n = min(frames - filled, head.size)
                out[filled : filled + n] = head[:n]
                filled += n
                if n == head.size:
                    self._queue.popleft()
                else:
                    self._queue[0] = head[n:]
            drained = self._finished and not self._queue
        out[filled:] = 0
        if filled and self.first_sound_at is None and np.any(out[:filled] != 0):
            self.first_sound_at = time.monotonic()
        self.samples_played += filled
        if drained:
            raise sd.CallbackStop

    def write(self, audio: np.ndarray) -> None:
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        if self.device_rate != self.sample_rate:
            audio = resample(audio, self.sample_rate, self.device_rate)
        with self._lock:
            if self._finished:
                raise AudioError("Audio was written to a playback stream after finish()")
            if audio.size:
                self._queue.append(audio)

    def finish(self) -> None:
        with self._lock:
            self._finished = True

    def wait(self, cancel: threading.Event | None = None, timeout: float | None = None) -> bool:
        """Block until playback ends; True if it played to the end.

        A set ``cancel`` event stops playback at once and returns False.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._done.wait(0.02):
            if cancel is not None and cancel.is_set():
                self.abort()
                return False
            if deadline is not None and time.monotonic() > deadline:
                return False
        self._close()
        return not self._stopped

    def abort(self) -> None:
        """Stop at once, from any thread, without ever blocking the caller.

        The callback now writes silence and raises ``CallbackAbort``, so the stream ends
        itself within one buffer. Calling ``Pa_AbortStream`` directly from here could
        deadlock inside ALSA's pulse plugin while the callback ran (seen in the audio-loop
        tests), so the PortAudio calls that may block run on a daemon thread.
        """
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
            self._queue.clear()
        threading.Thread(target=self._shut_down, name="sayitout-playback-stop", daemon=True).start()

    def _shut_down(self) -> None:
        if not self._done.wait(1.0):  # the callback did not end it: force it
            with contextlib.suppress(Exception):
                self._stream.abort(ignore_errors=True)
        self._done.set()
        self._close()

    def _close(self) -> None:
        with self._lock:  # wait() and a stop may both get here: close once
            if self._closed:
                return
            self._closed = True
        with contextlib.suppress(Exception):
            self._stream.close(ignore_errors=True)
        self.player._forget(self)

    @property
    def stopped(self) -> bool:
        return self._stopped


class Player:
    """Plays audio on an output device (``device``: index, name, part of a name, None)."""

    def __init__(self, device: str | int | None = None) -> None:
        self.device = device
        self._lock = threading.Lock()
        self._streams: list[PlaybackStream] = []
        self._rates: dict[int, tuple[Device, int]] = {}

    def _resolve(self, sample_rate: int) -> tuple[Device, int]:
        """The output device and the rate to open it at (looked up once per rate:
        querying ALSA devices takes a noticeable fraction of a second)."""
        with self._lock:
            hit = self._rates.get(sample_rate)
        if hit is not None:
            return hit
        dev = resolve_device(self.device, "output")
        rate = sample_rate
        if not supports_rate(dev, rate, "output"):
            rate = int(dev.default_samplerate)
        with self._lock:
            self._rates[sample_rate] = (dev, rate)
        return dev, rate

    def forget_devices(self) -> None:
        """Look the device up again next time (after a device change or failure)."""
        with self._lock:
            self._rates.clear()

    def stream(self, sample_rate: int) -> PlaybackStream:
        try:
            s = PlaybackStream(self, sample_rate)
        except AudioError:
            self.forget_devices()
            raise
        with self._lock:
            self._streams.append(s)
        return s

    def play(
        self,
        audio: np.ndarray,
        sample_rate: int,
        *,
        blocking: bool = True,
        cancel: threading.Event | None = None,
    ) -> PlaybackStream:
        """Play one array; with ``blocking`` wait for the end (or ``cancel``)."""
        s = self.stream(sample_rate)
        s.write(audio)
        s.finish()
        if blocking:
            s.wait(cancel)
        return s

    def stop(self) -> None:
        """Stop everything this player is playing, at once."""
        with self._lock:
            streams = list(self._streams)
        for s in streams:
            s.abort()

    def _forget(self, s: PlaybackStream) -> None:
        with self._lock:
            if s in self._streams:
                self._streams.remove(s)

    @property
    def playing(self) -> bool:
        with self._lock:
            return bool(self._streams)
