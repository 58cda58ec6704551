"""The real audio path: a virtual PulseAudio sound card (null sink + its monitor).

What plays through :class:`Player` into the null sink comes back through PortAudio's
``pulse``/``default`` device into :class:`MicrophoneSource`, so the recorder, the
endpointing and the TTS run exactly as with a sound card. Needs
``scripts/audio-loop.sh`` (pulseaudio, pulseaudio-utils, libasound2-plugins).
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
import soundfile as sf

from sayitout.config import AudioSettings, SpeechSettings
from sayitout.speech.audio import (
    AnswerRecorder,
    ArrayMicrophone,
    FileMicrophone,
    MicrophoneSource,
    Player,
    check_audio,
    list_devices,
)
from sayitout.speech.tts import make_speaker
from support.audio import answer_path

pytestmark = pytest.mark.audio
SR = 16_000
ANSWER = [
    "Each GPU sees eight times sixteen, which is one hundred and twenty eight.",
    "Data parallelism multiplies that by four.",
    "So the effective batch size is five hundred and twelve.",
]


@pytest.fixture(scope="module")
def answer_audio(say, quiet):
    """A spoken answer with a 1.5 s thinking pause between its sentences."""
    a, b, c = (say(s) for s in ANSWER)
    return np.concatenate([a, quiet(0.4), b, quiet(1.5), c]).astype(np.float32)


def _loop_device() -> str | None:
    """ALSA's ``pulse`` device when there is one (always the sound server), else the default."""
    return "pulse" if any(d.name == "pulse" for d in list_devices()) else None


def record_while(play, settings: AudioSettings, **kw):
    """Start recording from the loop's input, run ``play()``, return the recording."""
    settings = settings.model_copy(update={"input_device": _loop_device()})
    segments: list[tuple[float, np.ndarray]] = []
    levels: list[float] = []
    ready = threading.Event()
    rec = AnswerRecorder(
        MicrophoneSource(settings.input_device),
        settings,
        on_segment=lambda s, a: segments.append((s, a)),
        on_level=levels.append,
        on_start=ready.set,
        **kw,
    )
    out: dict = {}
    t = threading.Thread(target=lambda: out.setdefault("r", rec.record(path=answer_path())))
    t.start()
    assert ready.wait(10), "no audio came from the microphone"
    time.sleep(0.2)
    play()
    t.join(60)
    assert not t.is_alive(), "the recorder did not stop"
    return out["r"], segments, levels


def test_pulse_devices_are_seen(audio_loop):
    names = [d.name for d in list_devices()]
    assert "pulse" in names or "default" in names
    checks = {name: (ok, detail) for name, ok, detail in check_audio()}
    assert checks["audio library (PortAudio)"][0]
    assert checks["audio input device"][0], checks["audio input device"][1]
    assert checks["audio output device"][0], checks["audio output device"][1]


def _transcriber():
    try:
        from sayitout.speech.asr import Transcriber
    except ImportError:
        pytest.skip("the ASR module is not there yet")
    return Transcriber().load()


def test_played_answer_is_recorded_and_ends_on_silence(audio_loop, answer_audio):
    settings = AudioSettings(silence_timeout_s=2.5, max_answer_s=40)
    player = Player(_loop_device())
    r, segments, levels = record_while(lambda: player.play(answer_audio, SR), settings)
    speech_s = answer_audio.size / SR
    assert r.ended_by == "silence"
    # ended 2.5 s after the last word (measured on the recording itself: a loaded machine
    # may drop input blocks, so wall-clock lengths are not compared)
    assert 2.5 - 0.2 - 0.1 <= r.duration_s - r.segments[-1].end_s <= 2.5 + 0.1
    assert r.path.is_file() and sf.info(str(r.path)).frames == r.audio.size
    assert r.peak_dbfs > -12
    assert max(levels) > -30
    # the speech came back: the pause splits it (a busy machine's playback underruns may
    # add a split, so the count is not pinned)
    assert 2 <= len(segments) <= 4
    covered = sum(a.size for _, a in segments) / SR
    assert covered > 0.85 * speech_s - 1.5
    # as much speech came back as was played (VAD-measured on both sides; gaps from
    # playback underruns on a busy machine are a few ms each and do not matter here)
    played = AnswerRecorder(ArrayMicrophone(answer_audio, speed=0), settings).record(
        path=answer_path()
    )
    assert r.speech_s == pytest.approx(played.speech_s, rel=0.25)


@pytest.mark.e2e
def test_recorded_answer_transcribes_and_scores(audio_loop, answer_audio):
    transcriber = _transcriber()
    player = Player(_loop_device())
    # Half a second of lead-in: on a loaded machine the sound server can swallow the
    # first moments of a new playback stream, and the first word is one this test checks.
    lead_in = np.zeros(SR // 2, dtype=np.float32)
    r, _, _ = record_while(
        lambda: player.play(np.concatenate([lead_in, answer_audio]), SR),
        AudioSettings(silence_timeout_s=2.0, max_answer_s=40),
    )
    try:
        from sayitout.bank.loader import load_bank
        from sayitout.scoring import Scorer
    except ImportError:
        pytest.skip("scoring is not there yet")
    rubric = load_bank().rubric("dl-effective-batch")
    transcript = transcriber.transcribe(r.audio, terms=rubric.all_terms())
    text = transcript.text.lower()
    for word in ("batch", "512", "gpu", "128", "parallel"):
        assert word in text, text
    score = Scorer(device="cpu").score(rubric, transcript)
    print(f"loop transcript: {transcript.text!r}; score {score.score:.0f}")
    assert score.numeric is not None and score.numeric.correct
    assert score.score >= 50


def test_tts_speaks_into_the_recorder(audio_loop, tmp_path):
    from sayitout.speech.tts import SynthCache

    speaker = make_speaker(
        SpeechSettings(), Player(_loop_device()), cache=SynthCache(tmp_path / "tts")
    )
    assert speaker.backend == "piper", speaker.notice
    speaker.load()
    text = "Why do transformers use a warmup? Explain briefly."
    r, segments, _ = record_while(
        lambda: speaker.speak(text), AudioSettings(silence_timeout_s=1.5, max_answer_s=40)
    )
    uncached = speaker.last_first_sound_s
    assert r.ended_by == "silence" and segments
    expected, sr = speaker.synthesize(text)
    assert sum(a.size for _, a in segments) / SR > 0.7 * expected.size / sr
    speaker.speak(text)  # now every sentence comes from the cache
    cached = speaker.last_first_sound_s
    print(f"time to first sound: uncached {uncached:.3f} s, cached {cached:.3f} s")
    assert uncached is not None and cached is not None
    speaker.close()


def test_stop_silences_at_once(audio_loop, tmp_path):
    from sayitout.speech.tts import SynthCache

    speaker = make_speaker(
        SpeechSettings(), Player(_loop_device()), cache=SynthCache(tmp_path / "tts")
    )
    speaker.load()
    result: dict = {}
    text = "This is a long question. It goes on and on. It has many sentences. Stop it now."
    t = threading.Thread(target=lambda: result.setdefault("ok", speaker.speak(text)))
    t.start()
    deadline = time.monotonic() + 10
    while speaker.last_first_sound_s is None and time.monotonic() < deadline:
        stream = speaker._stream
        if stream is not None and stream.first_sound_at is not None:
            break
        time.sleep(0.01)
    t0 = time.monotonic()
    speaker.stop()
    t.join(5)
    assert not t.is_alive() and result["ok"] is False
    assert time.monotonic() - t0 < 0.3
    cancel = threading.Event()
    cancel.set()
    assert speaker.speak(text, cancel) is False
    speaker.close()


def test_file_microphone_loop(audio_loop, tmp_path, answer_audio):
    """The same answer through --mic-file: played in real time into the recorder."""
    path = tmp_path / "answer.flac"
    sf.write(path, np.concatenate([answer_audio, np.zeros(SR * 3, np.float32)]), SR)
    segs = []
    rec = AnswerRecorder(
        FileMicrophone(path),
        AudioSettings(silence_timeout_s=2.0, max_answer_s=40),
        on_segment=lambda s, a: segs.append((s, a)),
    )
    t0 = time.monotonic()
    r = rec.record(path=answer_path())
    assert time.monotonic() - t0 > 0.9 * (answer_audio.size / SR + 2.0)  # real time
    assert r.ended_by == "silence" and len(segs) >= 2  # the 1.5 s pause splits
    try:
        from sayitout.speech.asr import IncrementalTranscriber
    except ImportError:
        return
    transcriber = _transcriber()
    inc = IncrementalTranscriber(transcriber)
    for start, audio in segs:
        inc.add_segment(start, audio)
    text = inc.finish(duration=r.duration_s).text.lower()
    assert "batch" in text and "parallel" in text


def test_sound_server_dying_mid_answer_keeps_the_recording(audio_loop, tmp_path):
    """A second, private sound server is killed while recording: ``device-lost``."""
    import os
    import signal
    import subprocess
    from pathlib import Path

    import sounddevice as sd

    script = Path(__file__).resolve().parents[3] / "scripts" / "audio-loop.sh"
    runtime = tmp_path / "victim"
    env = {**os.environ, "SAYITOUT_PULSE_DIR": str(runtime)}
    subprocess.run([str(script), "start"], env=env, check=True, capture_output=True, timeout=60)
    saved = os.environ["PULSE_SERVER"]
    os.environ["PULSE_SERVER"] = f"unix:{runtime}/pulse/native"
    sd._terminate()
    sd._initialize()
    try:
        ready = threading.Event()
        rec = AnswerRecorder(
            MicrophoneSource(_loop_device()), AudioSettings(max_answer_s=30), on_start=ready.set
        )
        out: dict = {}
        t = threading.Thread(target=lambda: out.setdefault("r", rec.record(path=answer_path())))
        t.start()
        assert ready.wait(10)
        time.sleep(1.0)
        os.kill(int((runtime / "pulse" / "pid").read_text()), signal.SIGKILL)
        t0 = time.monotonic()
        t.join(15)
        assert not t.is_alive()
        r = out["r"]
        assert r.ended_by == "device_lost" and "stopped sending audio" in r.error
        assert time.monotonic() - t0 < 3.0  # noticed within the stall timeout
        assert r.duration_s >= 0.9
        assert sf.info(str(r.path)).frames == r.audio.size  # kept on disk
    finally:
        subprocess.run([str(script), "stop"], env=env, capture_output=True, timeout=60)
        os.environ["PULSE_SERVER"] = saved
        sd._terminate()
        sd._initialize()
