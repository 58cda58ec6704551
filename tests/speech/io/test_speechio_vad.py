"""Streaming Silero VAD and the endpointing rules."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sayitout.speech.vad import FRAME, FRAME_S, Endpointer, StreamingVad, VadConfig


def probs(*runs: tuple[float, float]) -> np.ndarray:
    """Frame probabilities from (seconds, probability) runs."""
    return np.concatenate([np.full(round(s / FRAME_S), p, dtype=np.float32) for s, p in runs])


def test_streaming_matches_whole_file_pass(say, quiet):
    from faster_whisper.vad import get_vad_model

    audio = np.concatenate([quiet(0.5), say("The gradient vanishes in deep networks."), quiet(0.7)])
    padded = np.pad(audio, (0, FRAME - audio.size % FRAME))
    reference = get_vad_model()(padded).reshape(-1)
    vad = StreamingVad()
    rng = np.random.default_rng(3)
    out, i = [], 0
    while i < padded.size:
        n = int(rng.integers(1, 4000))
        out.append(vad.push(padded[i : i + n]))
        i += n
    streamed = np.concatenate(out)
    assert streamed.shape == reference.shape
    np.testing.assert_allclose(streamed, reference, atol=1e-5)
    assert (streamed > 0.5).any() and (streamed[:10] < 0.5).all()


def test_reset_forgets_state(say):
    vad = StreamingVad()
    speech = say("Hello there.")
    first = vad.push(speech)
    vad.reset()
    assert vad.frames_done == 0
    np.testing.assert_allclose(vad.push(speech), first, atol=1e-6)


def test_silence_timeout_ends_only_after_long_silence():
    ep = Endpointer(VadConfig(silence_timeout_s=4.0))
    ep.update(probs((1.0, 0.0), (2.0, 0.9), (2.0, 0.05), (1.5, 0.9)))  # 2 s thinking pause
    assert not ep.finished
    ep.update(probs((3.9, 0.05)))
    assert not ep.finished
    ep.update(probs((0.2, 0.05)))
    assert ep.finished


def test_no_speech_never_finishes_on_silence():
    ep = Endpointer(VadConfig(silence_timeout_s=1.0))
    ep.update(probs((10.0, 0.0)))
    assert not ep.finished and not ep.heard_speech


def test_a_click_does_not_arm_the_timeout():
    ep = Endpointer(VadConfig(silence_timeout_s=1.0, min_speech_s=0.25))
    segs = ep.update(probs((0.5, 0.0), (0.064, 0.9), (3.0, 0.0)))
    assert not ep.finished and segs == []


def test_segments_close_after_short_pause_with_pre_and_post_roll():
    cfg = VadConfig(segment_pause_s=0.6, pre_roll_s=0.3, post_roll_s=0.2)
    ep = Endpointer(cfg)
    segs = ep.update(probs((1.0, 0.0), (1.0, 0.9), (0.4, 0.0), (1.0, 0.9), (1.0, 0.0)))
    # the 0.4 s pause does not split; the 1.0 s silence closes one segment
    assert len(segs) == 1
    seg = segs[0]
    assert seg.start_s == pytest.approx(1.0 - 0.3, abs=FRAME_S)
    assert seg.end_s == pytest.approx(3.4 + 0.2, abs=2 * FRAME_S)


def test_hysteresis_keeps_speech_between_thresholds():
    ep = Endpointer(VadConfig(threshold=0.5, neg_threshold=0.35, segment_pause_s=0.3))
    segs = ep.update(probs((1.0, 0.9), (1.0, 0.4), (1.0, 0.0)))
    assert len(segs) == 1
    assert segs[0].end_s == pytest.approx(2.0 + 0.2, abs=2 * FRAME_S)


def test_long_monologue_is_split_at_a_short_pause():
    cfg = VadConfig(max_segment_s=10.0, split_pause_s=0.15, segment_pause_s=0.6)
    ep = Endpointer(cfg)
    segs = ep.update(probs((6.0, 0.9), (0.3, 0.1), (8.0, 0.9), (1.0, 0.0)))
    assert len(segs) == 2
    assert 6.0 <= segs[0].end_s <= 6.3  # cut inside the pause
    assert segs[1].start_s == pytest.approx(segs[0].end_s)  # contiguous, no overlap


def test_monologue_without_pauses_is_still_cut():
    ep = Endpointer(VadConfig(max_segment_s=5.0))
    segs = ep.update(probs((12.0, 0.9)))
    assert len(segs) >= 2
    assert all(b.start >= a.end for a, b in itertools.pairwise(segs))


def test_flush_keeps_speech_in_progress_to_the_last_sample():
    ep = Endpointer(VadConfig())
    ep.update(probs((0.5, 0.0), (1.0, 0.9)))
    total = ep.frames * FRAME + 100  # a partial frame that the VAD has not seen
    seg = ep.flush(total)
    assert seg is not None and seg.final
    assert seg.end == total
    assert ep.flush(total) is None


def test_segments_never_overlap():
    ep = Endpointer(VadConfig(segment_pause_s=0.1, pre_roll_s=0.5, post_roll_s=0.5))
    segs = ep.update(probs((1.0, 0.9), (0.2, 0.0), (1.0, 0.9), (0.2, 0.0), (1.0, 0.9), (1, 0.0)))
    assert len(segs) == 3
    assert all(b.start >= a.end for a, b in itertools.pairwise(segs))
