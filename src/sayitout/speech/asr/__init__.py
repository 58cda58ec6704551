"""Local speech recognition: :class:`Transcriber`, :class:`IncrementalTranscriber`,
:func:`transcribe_file`. Model resolution lives in :mod:`sayitout.speech.models`."""

from sayitout.speech.asr.incremental import IncrementalTranscriber
from sayitout.speech.asr.transcriber import (
    FILLER_PROMPT,
    DecodeOptions,
    Transcriber,
    build_hotwords,
    build_prompt,
    transcribe_file,
)

__all__ = [
    "FILLER_PROMPT",
    "DecodeOptions",
    "IncrementalTranscriber",
    "Transcriber",
    "build_hotwords",
    "build_prompt",
    "transcribe_file",
]
