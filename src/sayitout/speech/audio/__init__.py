"""Sound in and out: devices, playback, the microphone, the file microphone, recording.

Nothing here imports sounddevice at import time: without the PortAudio library the
file microphone, decoding and recording from files still work, and the functions that
need a sound card raise :class:`~sayitout.errors.AudioError` with the fix.
"""

from sayitout.speech.audio.decode import TARGET_RATE, audio_info, iter_audio_blocks, load_audio
from sayitout.speech.audio.devices import Device, check_audio, list_devices, resolve_device
from sayitout.speech.audio.player import PlaybackStream, Player
from sayitout.speech.audio.recorder import (
    ENDED_BY,
    AnswerRecorder,
    Recording,
    SpeechSegment,
    new_recording_path,
    rms_dbfs,
)
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

SAMPLE_RATE = TARGET_RATE

__all__ = [
    "ENDED_BY",
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
    "StreamResampler",
    "audio_info",
    "check_audio",
    "iter_audio_blocks",
    "list_devices",
    "load_audio",
    "make_source",
    "new_recording_path",
    "resample",
    "resolve_device",
    "rms_dbfs",
]
