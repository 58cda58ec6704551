"""Answers that were scored but could not be stored: kept on disk so nothing is lost.

When the database is locked by another program, damaged, or on a full or read-only
disk, ``score --save`` still prints the score; the answer text goes to a file of its
own (owner-only) so the user can save it later with one command.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from contextlib import suppress
from pathlib import Path

from sayitout.errors import StorageError
from sayitout.locations import ensure_dir, locations
from sayitout.store.timefmt import now_utc


def keep_unsaved_answer(question_id: str, text: str) -> Path:
    """Write ``text`` to ``<data dir>/unsaved/`` (else the temporary directory) and
    return the file. Raises :class:`OSError` only when neither place is writable."""
    stamp = now_utc().strftime("%Y%m%d-%H%M%S-%f")
    name = f"{stamp}-{os.getpid()}_{question_id}.txt"
    last: OSError | None = None
    for folder in _candidates():
        try:
            path = folder / name
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            return path
        except OSError as exc:
            last = exc
    assert last is not None
    raise last


def _candidates() -> list[Path]:
    found: list[Path] = []
    with suppress(StorageError, OSError):
        found.append(ensure_dir(locations().data_dir / "unsaved"))
    with suppress(StorageError, OSError):
        found.append(ensure_dir(Path(tempfile.gettempdir()) / f"sayitout-unsaved-{os.getuid()}"))
    return found


def retry_command(question_id: str | None, rubric: str | None, kept: Path) -> str:
    """The command that saves a kept answer."""
    what = shlex.quote(question_id) if question_id else f"--rubric {shlex.quote(rubric or '')}"
    return f"sayitout score {what} --save --text - < {shlex.quote(str(kept))}"
