"""Sound in and out: devices, playback, the microphone, the file microphone, recording.

Nothing here imports sounddevice at import time: without the PortAudio library the
file microphone, decoding and recording from files still work, and the functions that
need a sound card raise :class:`~sayitout.errors.AudioError` with the fix.
"""

from sayitout.speech.audio.decode import TARGET_RATE, audio_info, iter_audio_blocks, load_audio
from sayitout.speech.audio.devices import Device, check_audio, list_devices, resolve_device
from sayitout.speech.audio.player import PlaybackStream, Player
from sayitout.speech.audio.recorder import AnswerRecorder, rms_dbfs
from sayitout.speech.audio.resample import StreamResampler, resample
from sayitout.speech.audio.sources import (
    ArrayMicrophone,
    AudioSource,
    DeviceLost,
    EndOfAudio,
    FileMicrophone,
    MicrophoneSource,
    make_source,
)
from sayitout.speech.recording import Recording, SpeechSegment, StopReason

SAMPLE_RATE = TARGET_RATE

__all__ = [
    "SAMPLE_RATE",
    "AnswerRecorder",
    "ArrayMicrophone",
    "AudioSource",
    "Device",
    "DeviceLost",
    "EndOfAudio",
    "FileMicrophone",
    "MicrophoneSource",
    "PlaybackStream",
    "Player",
    "Recording",
    "SpeechSegment",
    "StopReason",
    "StreamResampler",
    "audio_info",
    "check_audio",
    "iter_audio_blocks",
    "list_devices",
    "load_audio",
    "make_source",
    "resample",
    "resolve_device",
    "rms_dbfs",
]
