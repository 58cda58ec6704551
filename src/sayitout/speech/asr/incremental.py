"""Transcribe an answer while it is being spoken.

The recorder closes a stretch of speech at each short pause and hands it over
(``on_segment(start_s, audio)``); :class:`IncrementalTranscriber` queues it for one
background worker thread, which decodes it with the question's terms and shifts its
word times to the recording's timeline. When the answer ends only the last stretch is
left to decode, so the score can follow about a second after the candidate stops. Every
decode here is one greedy pass (``LIVE_TEMPERATURES``): Whisper's temperature fallback
could take several seconds over one short stretch.

If the worker falls behind (a slow machine, a busy CPU), it takes every stretch waiting
in the queue at once and decodes them as one piece of audio, with the pauses between
them filled with silence: fewer calls, and word times stay on the same timeline.

Words as they are said: the recorder also hands over the stretch still being spoken
every second or so (:meth:`IncrementalTranscriber.preview`). When the worker has
nothing else to do and has been idle enough of the last seconds, it decodes that open
stretch and reports its words as *tentative*; the closed stretch's own decode replaces
them. Previews never delay a closed stretch (those go first, and a queued preview is
dropped when one arrives), and none is started once the answer has ended. When the
computer is too busy, previews stop and ``LiveWords.behind`` says so.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np

from sayitout.speech.asr.transcriber import (
    SAMPLE_RATE,
    DecodeOptions,
    Transcriber,
    as_audio_array,
)
from sayitout.speech.callbacks import PartialCallback
from sayitout.speech.transcript import LiveWords, Transcript, Word

log = logging.getLogger(__name__)

_MAX_FILL_GAP_S = 8.0
"""Stretches further apart than this are decoded separately, not joined with silence."""
_MAX_BATCH_S = 26.0
"""Joined stretches stay within one short-context window."""
PREVIEW_MAX_S = 10.0
"""An open stretch longer than this is not previewed (its decode would take too long)."""
BUSY_WINDOW_S = 8.0
BUSY_LIMIT = 0.6
"""Previews run only while the worker was busy for less than this share of the last
``BUSY_WINDOW_S`` seconds: the closed stretches must keep up first."""


@dataclass
class _Piece:
    start_s: float
    audio: np.ndarray

    @property
    def end_s(self) -> float:
        return self.start_s + self.audio.size / SAMPLE_RATE


@dataclass
class _Done:
    start_s: float
    end_s: float
    transcript: Transcript
    pieces: int


LIVE_TEMPERATURES: tuple[float, ...] = (0.0,)
"""Every decode while the answer is spoken is one greedy pass, without Whisper's
temperature fallback (``DecodeOptions.temperatures``). A stretch whose greedy decode
looped ("Up to fp5, fp5, fp5, ..." for "Up to epoch five", the question's terms in the
prompt) was decoded again at 0.2, 0.4, ... 0.8, five candidates each: the last stretch
of ``bench/latency.py``'s answer took 4.4 to 7.2 s that way, and the score came up to
4.2 s after the stop instead of about 0.5 s. Open stretches, which end mid-word, did it
in one preview of fourteen. The transcriber's plain retry (``Transcriber.transcribe``:
once more without the terms) undoes such a loop in one more greedy pass."""

_PREVIEW_OPTIONS = DecodeOptions(word_timestamps=False, temperatures=LIVE_TEMPERATURES)
"""Early words need no timings (the closed stretch's decode brings them): cheaper."""


@dataclass
class _Preview:
    """The open stretch so far (decoded only if nothing else is waiting)."""

    start_s: float
    audio: np.ndarray


_STOP = object()


class IncrementalTranscriber:
    """Decode closed stretches of speech in the background; ``finish`` merges them.

    Usable directly as the recorder's ``on_segment`` callback::

        inc = transcriber.live(rubric.all_terms())
        recorder = AnswerRecorder(..., on_segment=inc.add_segment)
        recording = recorder.record(stop, path=path)
        transcript = inc.finish(duration=recording.duration_s)

    ``on_partial(words)`` gets the :class:`LiveWords` heard so far each time a stretch
    is decoded (from the worker thread; keep it quick).
    """

    def __init__(
        self,
        transcriber: Transcriber,
        terms: Iterable[str] = (),
        on_partial: PartialCallback | None = None,
    ) -> None:
        self.transcriber = transcriber
        self.terms = list(terms)
        self.on_partial = on_partial
        self._tentative = ""
        self._behind = False
        self._busy: deque[tuple[float, float]] = deque()  # (end time, seconds) of decodes
        self.previews = 0
        """Open stretches decoded early (words shown before a pause closed them)."""
        self.previews_skipped = 0
        self._queue: queue.Queue[_Piece | object] = queue.Queue()
        self._done: list[_Done] = []
        self._error: BaseException | None = None
        self._cancel = threading.Event()
        self._finished = False
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._busy_s = 0.0
        self._calls = 0

    # -- input -----------------------------------------------------------------------
    def add_segment(self, start_s: float, audio: np.ndarray) -> None:
        """Queue one closed stretch of speech (16 kHz mono) that starts at ``start_s``."""
        if self._finished or self._cancel.is_set():
            return
        a = as_audio_array(audio).copy()
        if a.size == 0:
            return
        self._ensure_thread()
        self._queue.put(_Piece(float(start_s), a))

    __call__ = add_segment

    def preview(self, start_s: float, audio: np.ndarray) -> None:
        """The stretch still being spoken, from ``start_s`` (decoded if time allows)."""
        if self.on_partial is None or self._finished or self._cancel.is_set():
            return
        a = as_audio_array(audio)
        if a.size == 0 or a.size > PREVIEW_MAX_S * SAMPLE_RATE:
            return
        self._ensure_thread()
        self._queue.put(_Preview(float(start_s), a.copy()))

    def _ensure_thread(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="sayitout-asr", daemon=True)
                self._thread.start()

    # -- worker ----------------------------------------------------------------------
    def _take_batch(self) -> tuple[list[_Piece], _Preview | None, bool]:
        """Block for one item, then take whatever else is already waiting: the closed
        stretches, the newest preview, and whether the stop marker came."""
        items = [self._queue.get()]
        while True:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                break
        pieces = [i for i in items if isinstance(i, _Piece)]
        previews = [i for i in items if isinstance(i, _Preview)]
        return pieces, (previews[-1] if previews else None), any(i is _STOP for i in items)

    def _work(self) -> None:
        try:
            self.transcriber.load()
        except BaseException as exc:  # reported by finish()
            self._error = exc
        stop = False
        while not stop:
            pieces, preview, stop = self._take_batch()
            if self._error is not None or self._cancel.is_set():
                continue
            for group in _group(pieces):
                if self._cancel.is_set():
                    break
                try:
                    self._decode(group)
                except BaseException as exc:  # keep draining; finish() re-raises
                    log.exception("incremental transcription failed")
                    self._error = exc
            if preview is not None and not pieces and not stop:
                self._maybe_preview(preview)

    def _busy_share(self, now: float) -> float:
        while self._busy and self._busy[0][0] < now - BUSY_WINDOW_S:
            self._busy.popleft()
        return sum(seconds for _, seconds in self._busy) / BUSY_WINDOW_S

    def _maybe_preview(self, preview: _Preview) -> None:
        """Decode the open stretch when the worker is keeping up, else say it is behind."""
        if self._finished or not self._queue.empty():
            return  # the answer ended, or a closed stretch is waiting: that comes first
        if any(d.end_s > preview.start_s + 0.01 for d in self._done):
            return  # already covered by a closed stretch
        if self._busy_share(time.perf_counter()) > BUSY_LIMIT:
            self.previews_skipped += 1
            if not self._behind:
                self._behind = True
                self._report()
            return
        t0 = time.perf_counter()
        try:
            transcript = self.transcriber.transcribe(
                preview.audio,
                terms=self.terms,
                offset=preview.start_s,
                cancel=self._cancel,
                options=_PREVIEW_OPTIONS,
            )
        except Exception:  # a preview is only a courtesy; the closed stretch decides
            log.debug("preview decode failed", exc_info=True)
            return
        elapsed = time.perf_counter() - t0
        self._busy.append((time.perf_counter(), elapsed))
        self.previews += 1
        if self._finished or any(d.end_s > preview.start_s + 0.01 for d in self._done):
            return
        self._tentative = transcript.text.strip()
        self._behind = False
        self._report()

    def _decode(self, group: list[_Piece]) -> None:
        start = group[0].start_s
        if len(group) == 1:
            audio = group[0].audio
        else:
            total = round((group[-1].end_s - start) * SAMPLE_RATE)
            audio = np.zeros(total, dtype=np.float32)
            for piece in group:
                i = max(0, round((piece.start_s - start) * SAMPLE_RATE))
                n = min(piece.audio.size, total - i)
                audio[i : i + n] = piece.audio[:n]
        t0 = time.perf_counter()
        transcript = self.transcriber.transcribe(
            audio,
            terms=self.terms,
            offset=start,
            cancel=self._cancel,
            options=replace(self.transcriber.options, temperatures=LIVE_TEMPERATURES),
        )
        elapsed = time.perf_counter() - t0
        self._busy_s += elapsed
        self._busy.append((time.perf_counter(), elapsed))
        self._calls += 1
        self._done.append(_Done(start, start + audio.size / SAMPLE_RATE, transcript, len(group)))
        if self.on_partial is not None:
            self._tentative = ""  # the closed stretch replaces the early words
            self._report()

    def heard(self) -> str:
        """The words of every stretch decoded so far, in order."""
        done = sorted(self._done, key=lambda d: d.start_s)
        return " ".join(d.transcript.text.strip() for d in done if d.transcript.text.strip())

    def _report(self) -> None:
        if self.on_partial is None:
            return
        try:
            self.on_partial(LiveWords(self.heard(), self._tentative, self._behind))
        except Exception:  # a listener's bug must not stop transcription
            log.exception("on_partial callback failed")

    # -- output ----------------------------------------------------------------------
    @property
    def pending(self) -> int:
        """Stretches queued and not yet taken by the worker."""
        return self._queue.qsize()

    def finish(
        self,
        tail_audio: np.ndarray | None = None,
        *,
        tail_start_s: float | None = None,
        duration: float | None = None,
        timeout: float | None = None,
    ) -> Transcript:
        """Wait for every queued stretch (plus an optional last one) and merge them.

        ``duration`` is the whole recording's length (default: the end of the last
        stretch). Raises the worker's error, if it had one.
        """
        if tail_audio is not None and np.asarray(tail_audio).size:
            if tail_start_s is None:
                tail_start_s = max((d.end_s for d in self._done), default=0.0)
            self.add_segment(tail_start_s, tail_audio)
        t0 = time.perf_counter()
        pending_at_finish = self.pending
        self._finished = True
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join(timeout)
            if self._thread.is_alive():
                from sayitout.errors import ModelError

                raise ModelError(
                    f"Transcription did not finish within {timeout:.0f} s",
                    'try a smaller model (asr.model = "tiny.en") or beam size 1',
                )
        if self._error is not None:
            raise self._error
        return self._merge(duration, time.perf_counter() - t0, pending_at_finish)

    def cancel(self) -> None:
        """Stop decoding; queued stretches are dropped. Does not wait."""
        self._cancel.set()
        self._finished = True
        if self._thread is not None:
            self._queue.put(_STOP)

    def _merge(self, duration: float | None, wait_s: float, pending: int) -> Transcript:
        self.transcriber.load()
        done = sorted(self._done, key=lambda d: d.start_s)
        texts = [d.transcript.text for d in done if d.transcript.text]
        words: list[Word] = [w for d in done for w in d.transcript.words]
        end = max((d.end_s for d in done), default=0.0)
        return Transcript(
            text=" ".join(texts).strip(),
            words=tuple(words),
            duration=round(duration if duration is not None else end, 3),
            model=self.transcriber.model_name,
            device=self.transcriber.device,
            language="en",
            meta={
                "incremental": True,
                "segments": sum(d.pieces for d in done),
                "calls": self._calls,
                "decode_s": round(self._busy_s, 3),
                "finish_wait_s": round(wait_s, 3),
                "pending_at_finish": pending,
                "previews": self.previews,
                "previews_skipped": self.previews_skipped,
                "beam_size": self.transcriber.settings.beam_size,
                "compute_type": self.transcriber.compute_type,
                "no_speech": not texts,
            },
        )


def _group(batch: list[_Piece]) -> list[list[_Piece]]:
    """Join neighbouring stretches (close in time, short in total) into one call."""
    groups: list[list[_Piece]] = []
    for piece in sorted(batch, key=lambda p: p.start_s):
        if groups:
            last = groups[-1]
            gap = piece.start_s - last[-1].end_s
            if gap <= _MAX_FILL_GAP_S and piece.end_s - last[0].start_s <= _MAX_BATCH_S:
                last.append(piece)
                continue
        groups.append([piece])
    return groups
