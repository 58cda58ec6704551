"""No PortAudio, no devices, bad device names: clear errors with the fix, never a crash."""

from __future__ import annotations

import sys

import numpy as np
import pytest
import soundfile as sf

from sayitout.config import AudioSettings
from sayitout.errors import AudioError
from sayitout.speech.audio import (
    AnswerRecorder,
    Device,
    FileMicrophone,
    MicrophoneSource,
    Player,
    check_audio,
)
from sayitout.speech.audio import devices as dev
from support.audio import answer_path


class _NoPortAudio:
    """An import hook that fails like sounddevice does without libportaudio2."""

    def find_spec(self, name, path=None, target=None):
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return None


@pytest.fixture
def no_portaudio(monkeypatch):
    monkeypatch.delitem(sys.modules, "sounddevice", raising=False)
    hook = _NoPortAudio()
    sys.meta_path.insert(0, hook)
    yield
    sys.meta_path.remove(hook)


def test_no_portaudio_is_a_clear_error(no_portaudio):
    with pytest.raises(AudioError, match="PortAudio") as info:
        MicrophoneSource().start()
    assert "libportaudio2" in info.value.hint and "--mic-file" in info.value.hint
    with pytest.raises(AudioError, match="PortAudio"):
        Player().play(np.zeros(100, np.float32), 16000)


def test_no_portaudio_in_doctor(no_portaudio):
    checks = check_audio()
    assert checks[0][0] == "audio library (PortAudio)" and checks[0][1] is False
    assert "apt-get install libportaudio2" in checks[0][2]


def test_file_microphone_works_without_portaudio(no_portaudio, tmp_path):
    path = tmp_path / "a.wav"
    sf.write(path, np.zeros(16000, np.float32), 16000)
    r = AnswerRecorder(FileMicrophone(path, speed=0), AudioSettings()).record(path=answer_path())
    assert r.ended_by == "end_of_input" and r.duration_s == pytest.approx(1.0, abs=0.01)


def _fake_devices(monkeypatch, devices):
    monkeypatch.setattr(dev, "list_devices", lambda: devices)


def test_no_input_device(monkeypatch):
    _fake_devices(monkeypatch, [Device(0, "Speakers", "ALSA", 0, 2, 48000.0, False, True)])
    with pytest.raises(AudioError, match="No audio input device") as info:
        dev.resolve_device(None, "input")
    assert "--mic-file" in info.value.hint
    assert dev.resolve_device(None, "output").name == "Speakers"


def test_device_by_index_name_and_part(monkeypatch):
    devices = [
        Device(0, "Built-in Microphone", "Core Audio", 2, 0, 48000.0, True, False),
        Device(1, "USB Headset", "Core Audio", 1, 2, 44100.0, False, True),
    ]
    _fake_devices(monkeypatch, devices)
    assert dev.resolve_device(None, "input").index == 0
    assert dev.resolve_device(1, "input").name == "USB Headset"
    assert dev.resolve_device("1", "input").name == "USB Headset"
    assert dev.resolve_device("usb", "input").index == 1
    assert dev.resolve_device("Built-in Microphone", "input").index == 0
    with pytest.raises(AudioError, match="no audio input device number 7") as info:
        dev.resolve_device(7, "input")
    assert "USB Headset" in info.value.hint
    with pytest.raises(AudioError, match="matches 'bluetooth'"):
        dev.resolve_device("bluetooth", "input")
    with pytest.raises(AudioError, match="no audio output device number 0"):
        dev.resolve_device(0, "output")  # a microphone only
