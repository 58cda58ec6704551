"""Where an answer's audio comes from: the microphone, or a file played in real time.

Both sources yield 16 kHz mono float32 chunks through the same small interface,
:class:`AudioSource`, so the recorder, the app and the tests do not care which it is.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from sayitout.errors import AudioError
from sayitout.speech.audio.decode import TARGET_RATE, iter_audio_blocks
from sayitout.speech.audio.devices import (
    NO_INPUT_FIX,
    Device,
    resolve_device,
    sounddevice,
    supports_rate,
)
from sayitout.speech.audio.resample import StreamResampler

SAMPLE_RATE = TARGET_RATE


class EndOfAudio(Exception):
    """The source has nothing more to give (a file microphone reached its end)."""


class DeviceLost(AudioError):
    """The input device stopped delivering audio (unplugged, server gone)."""


@runtime_checkable
class AudioSource(Protocol):
    """16 kHz mono float32 audio, chunk by chunk."""

    @property
    def sample_rate(self) -> int: ...

    @property
    def name(self) -> str:
        """What the candidate knows it by (the device's name, the file's name)."""
        ...

    def start(self) -> None:
        """Begin capturing (or playing the file); errors here are :class:`AudioError`."""

    def read(self, timeout: float) -> np.ndarray:
        """The next chunk, or an empty array if none came within ``timeout`` seconds.

        Raises :class:`EndOfAudio` when a file runs out and :class:`DeviceLost` when a
        device stops working.
        """

    def stop(self) -> None:
        """Release the device; safe to call twice."""


class MicrophoneSource:
    """A sounddevice input stream at 16 kHz mono.

    If the device cannot record at 16 kHz it records at its own rate and the stream is
    resampled. ``device`` is an index, a name, part of a name, or None (the default).

    Opening an input can take a second or more before audio flows (PulseAudio on a busy
    machine was measured at 0.1 to 2 s), so a caller can :meth:`start` it early, e.g.
    while the question is read out; a later :meth:`start` (the recorder's) then keeps
    only the last ``pre_roll_s`` of what was captured, so the first word is never lost.
    A device that sends nothing for ``stall_timeout_s`` (``start_timeout_s`` before the
    first audio) is reported as lost.
    """

    def __init__(
        self,
        device: str | int | None = None,
        *,
        block_s: float = 0.032,
        stall_timeout_s: float = 2.0,
        start_timeout_s: float = 6.0,
        pre_roll_s: float = 0.3,
    ) -> None:
        self.device_spec = device
        self.sample_rate = SAMPLE_RATE
        self.block_s = block_s
        self.stall_timeout_s = stall_timeout_s
        self.start_timeout_s = start_timeout_s
        self.pre_roll_s = pre_roll_s
        self._got_data = False
        self.name = "microphone"
        self.device: Device | None = None
        self.capture_rate = SAMPLE_RATE
        self.overflows = 0
        self._q: queue.Queue[np.ndarray] = queue.Queue()
        self._stream = None
        self._resampler: StreamResampler | None = None
        self._stopping = False
        self._finished = threading.Event()
        self._last_data = 0.0

    def __enter__(self) -> MicrophoneSource:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _callback(self, indata, frames, time_info, status) -> None:  # PortAudio thread
        if status and status.input_overflow:
            self.overflows += 1
        self._q.put(indata[:, 0].copy())

    def _on_finished(self) -> None:
        self._finished.set()

    @property
    def started(self) -> bool:
        return self._stream is not None and bool(self._stream.active)

    def _keep_only_pre_roll(self) -> None:
        chunks: list[np.ndarray] = []
        while True:
            try:
                chunks.append(self._q.get_nowait())
            except queue.Empty:
                break
        keep = round(self.pre_roll_s * self.capture_rate)
        kept: list[np.ndarray] = []
        for c in reversed(chunks):
            if keep <= 0:
                break
            kept.insert(0, c[-keep:])
            keep -= min(keep, c.size)
        for c in kept:
            self._q.put(c)

    def start(self) -> None:
        if self.started:  # opened early: keep just the pre-roll
            self._keep_only_pre_roll()
            return
        sd = sounddevice()
        self.device = resolve_device(self.device_spec, "input")
        self.name = f"microphone {self.device.name}"
        rate = SAMPLE_RATE
        if not supports_rate(self.device, SAMPLE_RATE, "input"):
            rate = int(self.device.default_samplerate)
        self.capture_rate = rate
        self._resampler = StreamResampler(rate, SAMPLE_RATE) if rate != SAMPLE_RATE else None
        self._stopping = False
        self._got_data = False
        self._finished.clear()
        try:
            stream = sd.InputStream(
                device=self.device.index,
                samplerate=rate,
                channels=1,
                dtype="float32",
                blocksize=max(1, round(rate * self.block_s)),
                callback=self._callback,
                finished_callback=self._on_finished,
            )
            stream.start()
            self._stream = stream
        except Exception as exc:  # sd.PortAudioError and friends
            self._stream = None
            raise AudioError(
                f"Cannot record from {self.device.describe()}: {exc}", NO_INPUT_FIX
            ) from exc
        self._last_data = time.monotonic()

    def read(self, timeout: float) -> np.ndarray:
        if self._stream is None:
            raise AudioError("The microphone was read before it was started")
        try:
            chunk = self._q.get(timeout=timeout)
        except queue.Empty:
            chunk = None
        now = time.monotonic()
        if chunk is None:
            limit = self.stall_timeout_s if self._got_data else self.start_timeout_s
            stalled = now - self._last_data > limit
            if self._finished.is_set() or not self._stream.active or stalled:
                raise DeviceLost(
                    f"The microphone ({self.device.name if self.device else '?'}) stopped "
                    "sending audio",
                    "check the device is plugged in; what was recorded so far is kept",
                )
            return np.zeros(0, dtype=np.float32)
        self._last_data = now
        self._got_data = True
        if self._resampler is not None:
            chunk = self._resampler.push(chunk)
        return chunk

    def stop(self) -> None:
        self._stopping = True
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.abort(ignore_errors=True)
                stream.close(ignore_errors=True)
            except Exception:  # a vanished device may fail to close; nothing to do
                pass


class ArrayMicrophone:
    """Plays audio (16 kHz mono) into the recorder in real time, chunk by chunk.

    ``speed`` scales the pace: 1.0 is real time, 4.0 four times faster, 0 no pacing at
    all (for tests that only check logic). Raises :class:`EndOfAudio` at the end.
    """

    def __init__(
        self,
        audio: np.ndarray | None = None,
        *,
        speed: float = 1.0,
        chunk_s: float = 0.064,
        name: str = "array",
    ) -> None:
        self.sample_rate = SAMPLE_RATE
        self.speed = speed
        self.chunk = max(1, round(chunk_s * SAMPLE_RATE))
        self.name = name
        self._audio = None if audio is None else np.asarray(audio, dtype=np.float32).reshape(-1)
        self._blocks: Iterator[np.ndarray] | None = None
        self._buf = np.zeros(0, dtype=np.float32)
        self._sent = 0
        self._t0 = 0.0
        self._ended = False
        self._stopped = False

    def _open_blocks(self) -> Iterator[np.ndarray]:
        assert self._audio is not None
        return iter([self._audio])

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self._blocks = self._open_blocks()
        self._buf = np.zeros(0, dtype=np.float32)
        self._fill()  # decoding errors surface here, before recording begins
        self._sent = 0
        self._ended = False
        self._stopped = False
        self._t0 = time.monotonic()

    def _fill(self) -> None:
        while self._buf.size < self.chunk and self._blocks is not None:
            try:
                block = next(self._blocks)
            except StopIteration:
                self._blocks = None
                break
            self._buf = np.concatenate([self._buf, block]) if self._buf.size else block

    def read(self, timeout: float) -> np.ndarray:
        if self._stopped or (self._blocks is None and self._buf.size == 0):
            raise EndOfAudio(self.name)
        if self.speed > 0:
            due = self._t0 + (self._sent + self.chunk) / SAMPLE_RATE / self.speed
            wait = due - time.monotonic()
            if wait > timeout:
                time.sleep(max(0.0, timeout))
                return np.zeros(0, dtype=np.float32)
            if wait > 0:
                time.sleep(wait)
        self._fill()
        chunk, self._buf = self._buf[: self.chunk], self._buf[self.chunk :]
        self._sent += chunk.size
        return chunk

    def stop(self) -> None:
        self._stopped = True
        self._blocks = None
        self._buf = np.zeros(0, dtype=np.float32)


class FileMicrophone(ArrayMicrophone):
    """A file in place of the microphone: decoded to 16 kHz mono, played in real time.

    Any format :mod:`sayitout.speech.audio.decode` reads. The file running out is the
    same as the candidate pressing the key (``EndOfAudio``).
    """

    def __init__(self, path: Path | str, *, speed: float = 1.0, chunk_s: float = 0.064) -> None:
        super().__init__(None, speed=speed, chunk_s=chunk_s, name=f"file {Path(path).name}")
        self.path = Path(path)

    def _open_blocks(self) -> Iterator[np.ndarray]:
        return iter_audio_blocks(self.path)


def make_source(
    mic_file: Path | str | None = None, device: str | int | None = None, speed: float = 1.0
) -> AudioSource:
    """The file microphone when a file is given, else the real one."""
    if mic_file is not None:
        return FileMicrophone(mic_file, speed=speed)
    return MicrophoneSource(device)
