"""The callbacks recording and transcription report through, named once.

The speech package calls them (the answer recorder, the microphones, the incremental
transcriber) and the session engine hands them in through its ports
(:mod:`sayitout.session.ports`), so both import them from here: the session may import
speech, never the other way round. Light on purpose: nothing is imported at run time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from sayitout.speech.transcript import LiveWords

LevelCallback = Callable[[float, float], None]
"""``(level 0..1, elapsed seconds)``, several times a second while recording."""
DbfsCallback = Callable[[float], None]
"""``(input level in dBFS)``: the answer recorder's raw meter reading."""
SegmentCallback = Callable[[float, "np.ndarray"], None]
"""``(start offset in seconds, 16 kHz mono float32 speech)``: a stretch of speech (closed
by a pause, or the one still being spoken)."""
StartCallback = Callable[[], None]
"""The answer's first audio is kept: the moment to say "listening"."""
PartialCallback = Callable[["LiveWords"], None]
"""The words heard so far in the answer being recorded."""

__all__ = [
    "DbfsCallback",
    "LevelCallback",
    "PartialCallback",
    "SegmentCallback",
    "StartCallback",
]
