"""AnswerRecorder on synthesised answers fed through the array/file microphone."""

from __future__ import annotations

import stat
import threading

import numpy as np
import pytest
import soundfile as sf

from sayitout.config import AudioSettings
from sayitout.errors import AudioError
from sayitout.speech.audio import (
    AnswerRecorder,
    ArrayMicrophone,
    DeviceLost,
    FileMicrophone,
    Recording,
)
from support.audio import answer_path

SR = 16_000


@pytest.fixture(scope="module")
def answer(say, quiet, room):
    """Two sentences with a 2 s thinking pause, then a long silence (in room noise)."""
    first = say("Batch normalization normalizes the activations of each layer.")
    second = say("It lets you train with a higher learning rate.")
    parts = [quiet(0.8), first, quiet(2.0), second, quiet(6.0)]
    audio = np.concatenate(parts) + room(sum(p.size for p in parts) / SR)
    first_start = 0.8
    first_end = first_start + first.size / SR
    second_start = first_end + 2.0
    second_end = second_start + second.size / SR
    return audio.astype(np.float32), (first_start, first_end, second_start, second_end)


def record(audio, settings=None, **kw) -> tuple[Recording, list]:
    segments: list[tuple[float, np.ndarray]] = []
    rec = AnswerRecorder(
        ArrayMicrophone(audio, speed=0),
        settings or AudioSettings(),
        on_segment=lambda s, a: segments.append((s, a)),
        **kw,
    )
    return rec.record(path=answer_path()), segments


def test_ends_on_silence_after_speech_not_during_thinking_pause(answer):
    audio, (_, _, _, speech_end) = answer
    r, _ = record(audio, AudioSettings(silence_timeout_s=4.0))
    assert r.ended_by == "silence"
    # ended about 4 s after the last word, not in the 2 s pause
    assert speech_end + 3.5 <= r.duration_s <= speech_end + 4.6


def test_shorter_timeout_cuts_during_the_pause(answer):
    audio, (_, first_end, second_start, _) = answer
    r, _ = record(audio, AudioSettings(silence_timeout_s=1.0))
    assert r.ended_by == "silence"
    assert first_end < r.duration_s < second_start


def test_segments_cover_the_speech_with_pre_roll(answer):
    audio, (s1, e1, s2, e2) = answer
    r, segs = record(audio, AudioSettings(silence_timeout_s=4.0, pre_roll_s=0.3))
    assert len(segs) == 2 and len(r.segments) == 2
    (a_start, a_audio), (b_start, b_audio) = segs
    # pre-roll: each segment starts before its first word, so nothing is clipped
    assert s1 - 0.45 <= a_start <= s1
    assert s2 - 0.45 <= b_start <= s2
    assert a_start + a_audio.size / SR >= e1 - 0.1
    assert b_start + b_audio.size / SR >= e2 - 0.1
    # the segment audio is the recording's audio at that place
    i = round(a_start * SR)
    np.testing.assert_array_equal(a_audio, r.audio[i : i + a_audio.size])
    assert r.speech_s > 0.5 * ((e1 - s1) + (e2 - s2))


def test_flac_written_before_return(answer):
    audio, _ = answer
    r, _ = record(audio)
    assert r.path.suffix == ".flac" and r.path.is_file()
    data, sr = sf.read(r.path, dtype="float32")
    assert sr == SR
    assert data.size == r.audio.size
    np.testing.assert_allclose(data, r.audio, atol=2 / 32768)
    assert r.duration_s == pytest.approx(data.size / SR)
    # the candidate's voice: readable by its owner only
    assert stat.S_IMODE(r.path.stat().st_mode) == 0o600


def test_max_duration(answer):
    audio, _ = answer
    r, _ = record(audio, AudioSettings(max_answer_s=5.0))
    assert r.ended_by == "time_limit"
    assert r.duration_s == pytest.approx(5.0, abs=0.01)


def test_max_answer_override(answer):
    audio, _ = answer
    rec = AnswerRecorder(ArrayMicrophone(audio, speed=0), AudioSettings())
    r = rec.record(path=answer_path(), max_answer_s=2.5)
    assert r.ended_by == "time_limit" and r.duration_s == pytest.approx(2.5, abs=0.01)


def test_eof_ends_like_a_key_press_and_keeps_the_tail(say, quiet):
    audio = np.concatenate([quiet(0.5), say("Use gradient clipping.")])  # ends mid-speech
    r, segs = record(audio)
    assert r.ended_by == "end_of_input"
    assert len(segs) == 1 and r.segments[-1].final
    start, seg_audio = segs[0]
    assert start + seg_audio.size / SR == pytest.approx(r.duration_s, abs=0.01)


class _Counting(ArrayMicrophone):
    """Sets an event after ``n`` chunks (a key press / cancel at a known moment)."""

    def __init__(self, audio, event: threading.Event, n: int) -> None:
        super().__init__(audio, speed=0)
        self.event, self.n, self.count = event, n, 0

    def read(self, timeout):
        self.count += 1
        if self.count == self.n:
            self.event.set()
        return super().read(timeout)


def test_key_press_stops_and_keeps_speech(answer):
    audio, _ = answer
    stop = threading.Event()
    segs = []
    rec = AnswerRecorder(_Counting(audio, stop, 40), on_segment=lambda s, a: segs.append(s))
    r = rec.record(path=answer_path(), stop=stop)
    assert r.ended_by == "key"
    assert r.duration_s == pytest.approx(40 * 0.064, abs=0.07)
    assert segs and r.segments[-1].final  # speech in progress handed on as the tail


def test_cancel_hands_nothing_on(answer):
    audio, _ = answer
    cancel = threading.Event()
    segs = []
    rec = AnswerRecorder(_Counting(audio, cancel, 40), on_segment=lambda s, a: segs.append(s))
    r = rec.record(path=answer_path(), cancel=cancel)
    assert r.ended_by == "cancelled"
    assert segs == []
    assert r.path.is_file()  # what was said is still on disk


def test_level_callback_is_rate_limited_and_tracks_speech(answer):
    audio, _ = answer
    levels: list[float] = []
    rec = AnswerRecorder(
        ArrayMicrophone(audio, speed=0), on_level=levels.append, level_interval_s=0.0
    )
    r = rec.record(path=answer_path())
    assert len(levels) > 20
    assert max(levels) > -30 and min(levels) < -50  # speech vs room noise
    assert r.peak_dbfs > -10
    few: list[float] = []
    AnswerRecorder(
        ArrayMicrophone(audio, speed=0), on_level=few.append, level_interval_s=3600
    ).record(path=answer_path())
    assert len(few) <= 1


def test_no_speech_timeout(quiet, room):
    r, segs = record(room(8.0), no_speech_timeout_s=3.0)
    assert r.ended_by == "silence" and segs == []
    assert r.duration_s == pytest.approx(3.0, abs=0.1)
    assert not r.has_speech


class _Vanishing(ArrayMicrophone):
    def __init__(self, audio, after: int) -> None:
        super().__init__(audio, speed=0)
        self.after, self.count = after, 0

    def read(self, timeout):
        self.count += 1
        if self.count > self.after:
            raise DeviceLost("The microphone (test) stopped sending audio")
        return super().read(timeout)


def test_device_lost_keeps_what_was_recorded(answer):
    audio, _ = answer
    segs = []
    rec = AnswerRecorder(_Vanishing(audio, 50), on_segment=lambda s, a: segs.append(s))
    r = rec.record(path=answer_path())
    assert r.ended_by == "device_lost"
    assert "stopped sending audio" in (r.error or "")
    assert r.duration_s == pytest.approx(50 * 0.064, abs=0.01)
    assert sf.info(str(r.path)).frames == r.audio.size
    assert segs  # the speech so far still goes to the transcriber


def test_a_failing_segment_consumer_does_not_lose_the_recording(answer):
    audio, _ = answer

    def broken(start, a):
        raise RuntimeError("consumer bug")

    r = AnswerRecorder(ArrayMicrophone(audio, speed=0), on_segment=broken).record(
        path=answer_path()
    )
    assert r.ended_by == "silence" and len(r.segments) == 2


def test_ten_minute_answer(say, room):
    words = say("And that is why the learning rate matters so much.")
    block = np.concatenate([words, np.zeros(SR, dtype=np.float32)])
    reps = int(600 * SR / block.size) + 1
    audio = np.tile(block, reps)[: 600 * SR] + room(600.0)
    r, segs = record(audio.astype(np.float32), AudioSettings(max_answer_s=900))
    assert r.ended_by == "end_of_input"
    assert r.duration_s == pytest.approx(600.0, abs=0.1)
    assert sf.info(str(r.path)).duration == pytest.approx(600.0, abs=0.1)
    assert len(segs) > 100  # speech kept flowing to the transcriber


def test_file_microphone_runs_in_real_time(tmp_path, say, quiet):
    audio = np.concatenate([quiet(0.3), say("Hello."), quiet(0.3)])
    path = tmp_path / "a.wav"
    sf.write(path, audio, SR)
    import time

    t0 = time.monotonic()
    r = AnswerRecorder(FileMicrophone(path, speed=2.0), AudioSettings()).record(path=answer_path())
    took = time.monotonic() - t0
    assert r.ended_by == "end_of_input"
    assert r.duration_s == pytest.approx(audio.size / SR, abs=0.07)
    assert took >= 0.8 * audio.size / SR / 2.0


def test_file_microphone_errors_before_recording(tmp_path):
    bad = tmp_path / "empty.wav"
    bad.write_bytes(b"")
    rec = AnswerRecorder(FileMicrophone(bad), AudioSettings())
    with pytest.raises(AudioError, match=r"empty\.wav"):
        rec.record(path=answer_path())
    assert not (tmp_path / "rec").exists() or not list((tmp_path / "rec").iterdir())


def test_the_open_stretch_is_handed_over_while_it_is_spoken(say, quiet):
    long = say("Gradient clipping rescales the whole gradient when its norm is too big.")
    audio = np.concatenate([quiet(0.5), long, quiet(5.0)]).astype(np.float32)
    opened: list[tuple[float, int]] = []
    _, segments = record(
        audio,
        AudioSettings(silence_timeout_s=1.5),
        on_open=lambda s, a: opened.append((s, a.size)),
        open_every_s=1.0,
    )
    assert len(opened) >= 2, opened
    # Each hand-over starts where the stretch starts and grows as it is spoken.
    assert len({s for s, _ in opened}) == 1 and opened[0][0] == pytest.approx(segments[0][0])
    assert [n for _, n in opened] == sorted(n for _, n in opened)
    assert opened[-1][1] <= segments[0][1].size
