"""The incremental worker's logic, with a stand-in transcriber (no model needed)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from sayitout.config import AsrSettings
from sayitout.errors import ModelError
from sayitout.speech.asr import DecodeOptions, IncrementalTranscriber
from sayitout.speech.transcript import Transcript, Word

SR = 16_000


class FakeTranscriber:
    """Says "w<N>" for every non-zero second of audio, at that second."""

    model_name = "fake"
    device = "cpu"
    compute_type = "int8"

    def __init__(self, delay: float = 0.0, fail_on: int | None = None) -> None:
        self.settings = AsrSettings()
        self.options = DecodeOptions()
        self.delay = delay
        self.fail_on = fail_on
        self.calls: list[tuple[float, float]] = []
        self.options_used: list[DecodeOptions] = []
        self.gate = threading.Event()
        self.gate.set()

    def load(self):
        return self

    def transcribe(self, audio, *, terms=(), offset=0.0, cancel=None, options=None) -> Transcript:
        self.gate.wait(5)
        time.sleep(self.delay)
        self.calls.append((offset, audio.size / SR))
        self.options_used.append(options)
        if self.fail_on is not None and len(self.calls) == self.fail_on:
            raise ModelError("decoder broke")
        words = []
        for sec in range(int(np.ceil(audio.size / SR))):
            block = audio[sec * SR : (sec + 1) * SR]
            if np.any(block != 0):
                label = f"w{round(float(np.max(block)) * 100)}"
                words.append(Word(label, offset + sec, offset + sec + 0.5))
        return Transcript(" ".join(w.text for w in words), tuple(words), audio.size / SR)


def seg(tag: int, seconds: float = 1.0) -> np.ndarray:
    return np.full(int(seconds * SR), tag / 100, dtype=np.float32)


def test_segments_are_decoded_in_the_background_and_merged_in_order():
    fake = FakeTranscriber()
    inc = IncrementalTranscriber(fake, ["AdamW"])
    for n, start in enumerate((0.0, 2.0), 1):
        inc.add_segment(start, seg(n))
        deadline = time.monotonic() + 5
        while len(fake.calls) < n and time.monotonic() < deadline:
            time.sleep(0.01)
    assert len(fake.calls) == 2, "segments should be decoded before finish()"
    t = inc.finish(seg(3), tail_start_s=4.0, duration=5.5)
    assert t.text == "w1 w2 w3"
    assert [w.start for w in t.words] == [0.0, 2.0, 4.0]
    assert t.duration == 5.5 and t.model == "fake" and t.meta["incremental"]
    assert t.meta["segments"] == 3


def test_a_backlog_is_decoded_in_one_call_with_gaps_kept():
    fake = FakeTranscriber()
    fake.gate.clear()  # the worker is busy while three segments queue up
    inc = IncrementalTranscriber(fake)
    inc.add_segment(0.0, seg(1))
    time.sleep(0.05)
    inc.add_segment(3.0, seg(2))
    inc.add_segment(5.0, seg(3))
    inc.add_segment(7.0, seg(4))
    fake.gate.set()
    t = inc.finish()
    assert t.text == "w1 w2 w3 w4"
    assert [w.start for w in t.words] == [0.0, 3.0, 5.0, 7.0]
    assert len(fake.calls) == 2  # the first alone, then the three waiting ones together
    assert fake.calls[1] == (3.0, 5.0)


def test_far_apart_segments_are_not_joined():
    fake = FakeTranscriber()
    fake.gate.clear()
    inc = IncrementalTranscriber(fake)
    inc.add_segment(0.0, seg(1))
    time.sleep(0.05)
    inc.add_segment(10.0, seg(2))
    inc.add_segment(40.0, seg(3))  # a long thinking pause
    fake.gate.set()
    t = inc.finish()
    assert [w.start for w in t.words] == [0.0, 10.0, 40.0]
    assert len(fake.calls) == 3


def test_worker_error_is_raised_by_finish():
    inc = IncrementalTranscriber(FakeTranscriber(fail_on=1))
    inc.add_segment(0.0, seg(1))
    with pytest.raises(ModelError, match="decoder broke"):
        inc.finish()


def test_no_segments_is_an_empty_transcript():
    t = IncrementalTranscriber(FakeTranscriber()).finish(duration=3.0)
    assert t.is_empty and t.duration == 3.0 and t.meta["no_speech"]


def test_cancel_drops_pending_work_and_returns_at_once():
    fake = FakeTranscriber(delay=0.2)
    inc = IncrementalTranscriber(fake)
    for i in range(5):
        inc.add_segment(i * 30.0, seg(i + 1))
    t0 = time.monotonic()
    inc.cancel()
    assert time.monotonic() - t0 < 0.1
    inc.add_segment(200.0, seg(9))  # ignored after cancel
    time.sleep(0.5)
    assert len(fake.calls) <= 2


def test_usable_as_the_recorder_callback():
    fake = FakeTranscriber()
    inc = IncrementalTranscriber(fake)
    callback = inc.add_segment
    callback(1.0, seg(5))
    assert inc.finish().text == "w5"


def test_the_open_stretch_is_shown_early_then_replaced_when_it_closes():
    from sayitout.speech.transcript import LiveWords

    fake = FakeTranscriber()
    seen: list[LiveWords] = []
    inc = IncrementalTranscriber(fake, on_partial=seen.append)
    inc.add_segment(0.0, seg(1))
    _wait(lambda: seen)
    inc.preview(2.0, seg(2, 1.5))  # still being spoken
    _wait(lambda: len(seen) >= 2)
    assert seen[-1] == LiveWords("w1", "w2 w2") and seen[-1].text == "w1 w2 w2"
    inc.add_segment(2.0, seg(3, 2.0))  # the pause closed it: its own decode replaces it
    _wait(lambda: len(seen) >= 3)
    assert seen[-1] == LiveWords("w1 w3 w3")
    inc.preview(2.5, seg(4))  # a stale preview (inside a closed stretch) is dropped
    t = inc.finish(duration=5.0)
    assert t.text == "w1 w3 w3" and seen[-1].tentative == ""
    assert t.meta["previews"] == 1


def test_decodes_while_the_answer_is_spoken_are_one_greedy_pass():
    """No temperature fallback: it once held the worker for 7 s on a 3.6 s stretch, the
    last one, which the candidate waits for. A preview also needs no word timings."""
    fake = FakeTranscriber()
    seen: list[object] = []
    inc = IncrementalTranscriber(fake, on_partial=seen.append)
    inc.preview(0.0, seg(1, 1.5))
    _wait(lambda: seen)
    inc.add_segment(0.0, seg(2, 2.0))
    inc.finish(duration=2.0)
    preview, closed = fake.options_used
    assert preview.temperatures == closed.temperatures == (0.0,)
    assert preview.word_timestamps is False and closed.word_timestamps is True


def test_previews_stop_when_the_worker_is_busy_and_say_so():
    from sayitout.speech.asr import incremental

    fake = FakeTranscriber(delay=0.3)
    seen = []
    inc = IncrementalTranscriber(fake, on_partial=seen.append)
    inc._busy.append((time.perf_counter(), incremental.BUSY_WINDOW_S))  # a busy CPU
    inc.preview(0.0, seg(1))
    _wait(lambda: seen)
    assert seen[-1].behind and seen[-1].tentative == ""
    assert inc.previews == 0 and inc.previews_skipped == 1
    inc.finish()


def test_no_preview_after_the_answer_ended_and_none_without_a_listener():
    fake = FakeTranscriber()
    inc = IncrementalTranscriber(fake)
    inc.preview(0.0, seg(1))  # nobody shows live words: nothing to decode
    assert inc.finish().text == "" and fake.calls == []
    seen = []
    inc = IncrementalTranscriber(fake, on_partial=seen.append)
    inc.finish()
    inc.preview(0.0, seg(1))
    assert fake.calls == [] and seen == []


def _wait(ready, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not ready():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)
