"""Record one spoken answer, end it at the right moment, and keep it on disk.

How an answer ends (``Recording.ended_by``, a :class:`StopReason`):

- ``KEY``: the candidate pressed the key (the ``stop`` event was set);
- ``SILENCE``: speech was heard, then ``silence_timeout_s`` of silence followed;
- ``TIME_LIMIT``: the answer reached ``max_answer_s``;
- ``END_OF_INPUT``: a file microphone ran out (treated like a key press);
- ``CANCELLED``: the ``cancel`` event was set (the caller abandons the answer; the
  audio is still written, nothing is handed on);
- ``DEVICE_LOST``: the microphone stopped sending audio; what came before is kept.

Why the silence timeout defaults to 4 s: in an interview people stop to think in the
middle of an answer ("so the second reason is... hmm..."), and pauses of 2 to 3 s are
ordinary. A timeout at 1 to 2 s, usual for voice assistants, would cut candidates off
mid-thought, which is worse than waiting: they can always end sooner with the key.
Stretches of speech are closed after a much shorter pause (0.6 s, a breath between
sentences) and handed to ``on_segment``, so transcription runs while the candidate is
still talking and only the last stretch is left when the answer ends.

The audio goes to a FLAC file chunk by chunk as it arrives, so a crash keeps what was
said; the file is complete and closed before :meth:`AnswerRecorder.record` returns.
"""

from __future__ import annotations

import bisect
import logging
import math
import os
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from sayitout.config import AudioSettings
from sayitout.errors import StorageError
from sayitout.locations import ensure_dir
from sayitout.speech.audio.sources import SAMPLE_RATE, AudioSource, DeviceLost, EndOfAudio
from sayitout.speech.callbacks import DbfsCallback, SegmentCallback, StartCallback
from sayitout.speech.recording import SILENCE_DBFS, Recording, SpeechSegment, StopReason
from sayitout.speech.vad import Endpointer, Segment, StreamingVad, VadConfig

log = logging.getLogger(__name__)


def rms_dbfs(audio: np.ndarray) -> float:
    """Root-mean-square level in dB relative to full scale (floor -100 dB)."""
    if audio.size == 0:
        return SILENCE_DBFS
    rms = float(np.sqrt(np.mean(np.square(audio, dtype=np.float64))))
    return max(SILENCE_DBFS, 20.0 * math.log10(rms)) if rms > 0 else SILENCE_DBFS


class _Chunks:
    """The recorded chunks in a list (no repeated concatenation), sliceable by sample."""

    def __init__(self) -> None:
        self.chunks: list[np.ndarray] = []
        self.offsets: list[int] = []  # start sample of each chunk
        self.total = 0

    def append(self, chunk: np.ndarray) -> None:
        self.chunks.append(chunk)
        self.offsets.append(self.total)
        self.total += chunk.size

    def slice(self, start: int, end: int) -> np.ndarray:
        start, end = max(0, start), min(end, self.total)
        if end <= start:
            return np.zeros(0, dtype=np.float32)
        i = bisect.bisect_right(self.offsets, start) - 1
        parts = []
        while i < len(self.chunks) and self.offsets[i] < end:
            off = self.offsets[i]
            c = self.chunks[i]
            parts.append(c[max(0, start - off) : min(c.size, end - off)])
            i += 1
        return np.concatenate(parts) if len(parts) > 1 else parts[0].copy()

    def all(self) -> np.ndarray:
        if not self.chunks:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate(self.chunks)


class _FlacWriter:
    def __init__(self, path: Path) -> None:
        import soundfile as sf

        ensure_dir(path.parent)
        try:
            # Owner-only from the first byte: a recording is the candidate's own voice.
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
            self._f = sf.SoundFile(
                str(path), "w", samplerate=SAMPLE_RATE, channels=1, format="FLAC", subtype="PCM_16"
            )
        except Exception as exc:
            raise StorageError(
                f"Cannot write the recording {path}: {exc}",
                "check free disk space and the data dir's permissions",
            ) from exc
        self.path = path
        self.failed: str | None = None

    def write(self, chunk: np.ndarray) -> None:
        if self.failed:
            return
        try:
            self._f.write(np.clip(chunk, -1.0, 1.0))
        except Exception as exc:  # disk full: keep recording in memory, report at the end
            self.failed = str(exc)
            log.error("writing %s failed: %s", self.path, exc)

    def close(self) -> None:
        try:
            self._f.close()
        except Exception as exc:
            self.failed = self.failed or str(exc)


class AnswerRecorder:
    """Records one answer from an :class:`AudioSource` with voice-activity endpointing.

    ``on_level(dbfs)`` gets the input level at most every ``level_interval_s``;
    ``on_segment(start_s, audio)`` gets each stretch of speech as soon as a pause closes
    it, and the last one when recording stops. Both are called from the thread that
    runs :meth:`record`; keep them quick (hand work to a queue).

    ``on_start()`` is called when the first audio arrives (a microphone may take a
    moment to open): the moment to show "listening".

    ``on_open(start_s, audio)`` gets the stretch still being spoken, from its start,
    every ``open_every_s`` of recording while one is open (for words shown as they are
    said; the closed stretch follows through ``on_segment`` as usual).

    ``no_speech_timeout_s`` ends a recording in which nobody has spoken at all after
    that long (ended_by ``silence``); None waits for the key or ``max_answer_s``.
    """

    def __init__(
        self,
        source: AudioSource,
        settings: AudioSettings | None = None,
        *,
        on_level: DbfsCallback | None = None,
        on_segment: SegmentCallback | None = None,
        vad_config: VadConfig | None = None,
        level_interval_s: float = 0.05,
        no_speech_timeout_s: float | None = None,
        poll_s: float = 0.05,
        on_start: StartCallback | None = None,
        on_open: SegmentCallback | None = None,
        open_every_s: float = 1.2,
    ) -> None:
        self.source = source
        self.on_open = on_open
        self.open_every_s = open_every_s
        self.settings = settings or AudioSettings()
        self.on_level = on_level
        self.on_segment = on_segment
        self.on_start = on_start
        base = vad_config or VadConfig()
        self.vad_config = VadConfig(
            **{
                **base.__dict__,
                "silence_timeout_s": self.settings.silence_timeout_s,
                "pre_roll_s": self.settings.pre_roll_s,
            },
        )
        self.level_interval_s = level_interval_s
        self.no_speech_timeout_s = no_speech_timeout_s
        self.poll_s = poll_s
        self.vad = StreamingVad()  # loads the model now, not when the candidate speaks

    def _emit_segment(self, seg: Segment, chunks: _Chunks, out: list[SpeechSegment]) -> None:
        out.append(SpeechSegment(seg.start_s, seg.end_s, seg.final))
        if self.on_segment is None:
            return
        try:
            self.on_segment(seg.start_s, chunks.slice(seg.start, seg.end))
        except Exception:  # a consumer's bug must not lose the recording
            log.exception("on_segment callback failed")

    def _emit_open(self, endpointer: Endpointer, chunks: _Chunks) -> None:
        start = endpointer.open_start()
        if start is None or self.on_open is None:
            return
        try:
            self.on_open(start / SAMPLE_RATE, chunks.slice(start, chunks.total))
        except Exception:  # a consumer's bug must not lose the recording
            log.exception("on_open callback failed")

    def _emit_level(self, level: float) -> None:
        if self.on_level is None:
            return
        try:
            self.on_level(level)
        except Exception:
            log.exception("on_level callback failed")

    def record(
        self,
        stop: threading.Event | None = None,
        cancel: threading.Event | None = None,
        *,
        path: Path,
        max_answer_s: float | None = None,
    ) -> Recording:
        """Record until the answer ends into ``path``; return it once the file is written.

        Name ``path`` with :func:`sayitout.store.recordings.new_recording_path` (its
        name says which question it answers, so a crash cannot orphan it for good).
        ``max_answer_s`` overrides the setting (e.g. a question's own time limit).
        """
        stop = stop or threading.Event()
        cancel = cancel or threading.Event()
        max_s = max_answer_s if max_answer_s is not None else self.settings.max_answer_s
        max_samples = round(max_s * SAMPLE_RATE)
        self.vad.reset()
        endpointer = Endpointer(self.vad_config)
        chunks = _Chunks()
        segments: list[SpeechSegment] = []
        started_at = datetime.now(UTC)
        ended_by = StopReason.KEY
        error: str | None = None
        peak = 0.0
        level_sq, level_n, level_t = 0.0, 0, time.monotonic()
        open_every = round(self.open_every_s * SAMPLE_RATE)
        opened_at = 0

        self.source.start()
        try:
            writer = _FlacWriter(path)
        except BaseException:
            self.source.stop()
            raise
        try:
            while True:
                if cancel.is_set():
                    ended_by = StopReason.CANCELLED
                    break
                if stop.is_set():
                    ended_by = StopReason.KEY
                    break
                if chunks.total >= max_samples:
                    ended_by = StopReason.TIME_LIMIT
                    break
                try:
                    chunk = self.source.read(self.poll_s)
                except EndOfAudio:
                    ended_by = StopReason.END_OF_INPUT
                    break
                except DeviceLost as exc:
                    ended_by, error = StopReason.DEVICE_LOST, exc.message
                    log.warning("%s", exc.message)
                    break
                if chunk.size == 0:
                    continue
                chunk = np.asarray(chunk, dtype=np.float32).reshape(-1)
                if chunks.total == 0 and self.on_start is not None:
                    try:
                        self.on_start()
                    except Exception:
                        log.exception("on_start callback failed")
                if chunks.total + chunk.size > max_samples:
                    chunk = chunk[: max_samples - chunks.total]
                chunks.append(chunk)
                writer.write(chunk)
                peak = max(peak, float(np.max(np.abs(chunk))))
                level_sq += float(np.sum(np.square(chunk, dtype=np.float64)))
                level_n += chunk.size
                now = time.monotonic()
                if now - level_t >= self.level_interval_s:
                    rms = math.sqrt(level_sq / max(1, level_n))
                    self._emit_level(20 * math.log10(rms) if rms > 1e-5 else SILENCE_DBFS)
                    level_sq, level_n, level_t = 0.0, 0, now
                for seg in endpointer.update(self.vad.push(chunk)):
                    self._emit_segment(seg, chunks, segments)
                    opened_at = chunks.total  # a fresh open stretch waits its turn
                if (
                    self.on_open is not None
                    and endpointer.speaking  # in a pause the stretch is about to close
                    and chunks.total - opened_at >= open_every
                ):
                    opened_at = chunks.total
                    self._emit_open(endpointer, chunks)
                if endpointer.finished:
                    ended_by = StopReason.SILENCE
                    break
                if (
                    self.no_speech_timeout_s is not None
                    and not endpointer.heard_speech
                    and not endpointer.speaking
                    and chunks.total >= self.no_speech_timeout_s * SAMPLE_RATE
                ):
                    ended_by = StopReason.SILENCE
                    break
        finally:
            self.source.stop()
            writer.close()
        if ended_by is not StopReason.CANCELLED:
            tail = endpointer.flush(chunks.total)
            if tail is not None:
                self._emit_segment(tail, chunks, segments)
        if writer.failed and error is None:
            error = f"the recording could not be fully written to {path}: {writer.failed}"
        return Recording(
            audio=chunks.all(),
            sample_rate=SAMPLE_RATE,
            path=path,
            duration_s=chunks.total / SAMPLE_RATE,
            segments=tuple(segments),
            ended_by=ended_by,
            speech_s=endpointer.speech_frames * 512 / SAMPLE_RATE,
            source=self.source.name,
            started_at=started_at,
            peak_dbfs=20 * math.log10(peak) if peak > 1e-5 else SILENCE_DBFS,
            error=error,
        )
