"""Reading audio files: every common format to 16 kHz mono, and clear errors for bad files."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
import soundfile as sf

from sayitout.errors import AudioError
from sayitout.speech.audio import StreamResampler, audio_info, load_audio, resample

SR = 16_000


def tone(freq: float, seconds: float, rate: int, channels: int = 1) -> np.ndarray:
    t = np.arange(round(seconds * rate)) / rate
    mono = (0.5 * np.sin(2 * np.pi * freq * t)).astype(np.float32)
    return mono if channels == 1 else np.stack([mono] * channels, axis=1)


def dominant_freq(audio: np.ndarray, rate: int = SR) -> float:
    spectrum = np.abs(np.fft.rfft(audio * np.hanning(audio.size)))
    return float(np.fft.rfftfreq(audio.size, 1 / rate)[np.argmax(spectrum)])


@pytest.mark.parametrize(
    ("rate", "channels", "fmt"),
    [
        (8000, 2, "WAV"),
        (96000, 1, "WAV"),
        (44100, 2, "FLAC"),
        (48000, 1, "OGG"),
        (22050, 1, "WAV"),
        (16000, 1, "FLAC"),
    ],
)
def test_resampled_to_16k_mono(tmp_path, rate, channels, fmt):
    path = tmp_path / f"t.{fmt.lower()}"
    sf.write(path, tone(440, 2.0, rate, channels), rate, format=fmt)
    audio = load_audio(path)
    assert audio.dtype == np.float32 and audio.ndim == 1
    assert audio.size == pytest.approx(2.0 * SR, abs=SR * 0.02)
    assert dominant_freq(audio) == pytest.approx(440, abs=5)
    assert 0.3 < np.abs(audio).max() <= 0.6


def test_96k_content_above_8k_is_filtered_not_aliased(tmp_path):
    path = tmp_path / "hi.wav"
    sf.write(path, tone(12_000, 1.0, 96_000), 96_000)  # above the 16 kHz Nyquist limit
    audio = load_audio(path)
    assert np.sqrt(np.mean(audio**2)) < 0.01  # removed, not folded down to 4 kHz


def test_stereo_is_averaged(tmp_path):
    left = tone(440, 1.0, SR)
    stereo = np.stack([left, np.zeros_like(left)], axis=1)
    path = tmp_path / "s.wav"
    sf.write(path, stereo, SR)
    assert np.abs(load_audio(path)).max() == pytest.approx(0.25, abs=0.01)


def test_mp3_and_m4a_when_tools_allow(tmp_path):
    wav = tmp_path / "t.wav"
    sf.write(wav, tone(440, 1.0, 44100), 44100)
    mp3 = tmp_path / "t.mp3"
    sf.write(mp3, tone(440, 1.0, 44100), 44100, format="MP3")
    assert dominant_freq(load_audio(mp3)) == pytest.approx(440, abs=5)
    if shutil.which("ffmpeg"):
        m4a = tmp_path / "t.m4a"
        subprocess.run(["ffmpeg", "-loglevel", "error", "-i", str(wav), str(m4a)], check=True)
        assert dominant_freq(load_audio(m4a)) == pytest.approx(440, abs=5)


def test_empty_file(tmp_path):
    path = tmp_path / "empty.wav"
    path.write_bytes(b"")
    with pytest.raises(AudioError, match=r"empty\.wav.*empty") as info:
        load_audio(path)
    assert info.value.hint


def test_missing_file(tmp_path):
    with pytest.raises(AudioError, match=r"not found.*nope\.wav"):
        load_audio(tmp_path / "nope.wav")


def test_directory(tmp_path):
    with pytest.raises(AudioError, match="directory"):
        load_audio(tmp_path)


def test_not_audio(tmp_path):
    path = tmp_path / "notes.wav"
    path.write_text("these are my interview notes, not a recording\n" * 20)
    with pytest.raises(AudioError, match=r"notes\.wav") as info:
        load_audio(path)
    assert "convert" in (info.value.hint or "")


def test_zero_seconds(tmp_path):
    path = tmp_path / "zero.wav"
    sf.write(path, np.zeros(0, dtype=np.float32), SR)
    with pytest.raises(AudioError, match=r"zero\.wav.*no audio"):
        load_audio(path)


def test_truncated_file_keeps_what_is_there(tmp_path):
    path = tmp_path / "cut.wav"
    sf.write(path, tone(440, 2.0, SR), SR, subtype="PCM_16")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # header still claims 2 s
    audio = load_audio(path)
    assert 0.8 * SR < audio.size < 1.2 * SR


def test_truncated_header_is_an_error(tmp_path):
    path = tmp_path / "stub.flac"
    sf.write(path, tone(440, 1.0, SR), SR, format="FLAC")
    path.write_bytes(path.read_bytes()[:20])
    with pytest.raises(AudioError, match=r"stub\.flac"):
        load_audio(path)


def test_audio_info(tmp_path):
    path = tmp_path / "i.wav"
    sf.write(path, tone(440, 1.5, 8000, 2), 8000)
    seconds, rate, channels = audio_info(path)
    assert seconds == pytest.approx(1.5) and rate == 8000 and channels == 2


@pytest.mark.parametrize("src", [48_000, 44_100, 22_050, 8_000, 16_000])
def test_stream_resampler_equals_whole_array(src):
    rng = np.random.default_rng(src)
    x = (rng.standard_normal(src * 2) * 0.1).astype(np.float32)
    whole = resample(x, src, SR)
    rs = StreamResampler(src, SR)
    out, i = [], 0
    while i < x.size:
        n = int(rng.integers(1, 5000))
        out.append(rs.push(x[i : i + n]))
        i += n
    out.append(rs.flush())
    streamed = np.concatenate(out)
    assert streamed.size == whole.size
    np.testing.assert_allclose(streamed, whole, atol=1e-5)
