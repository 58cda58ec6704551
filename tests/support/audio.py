"""Where tests record to."""

from __future__ import annotations

import itertools
from pathlib import Path

from sayitout.locations import locations
from sayitout.store.recordings import new_recording_path

_count = itertools.count(1)


def answer_path(question_id: str = "test-question") -> Path:
    """A fresh recording path in this test's data dir, named as the store names one."""
    return new_recording_path(locations().recordings_dir, f"{question_id}-{next(_count)}")
