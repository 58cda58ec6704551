"""Answers that were scored but could not be stored: kept on disk so nothing is lost.

When the database is locked by another program, damaged, or on a full or read-only
disk, ``score --save`` still prints the score; the answer text goes to a file of its
own (owner-only), ``<data dir>/unsaved/<UTC stamp>-<pid>_<question id>.txt``, so the
user can save it later with one command, or with ``sayitout recover``
(:func:`sayitout.recovery.recover_unsaved`), which finds them with
:func:`unsaved_answers`.
"""

from __future__ import annotations

import os
import re
import shlex
import tempfile
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sayitout.errors import StorageError
from sayitout.locations import ensure_dir, locations
from sayitout.store.timefmt import now_utc

_STAMP = "%Y%m%d-%H%M%S-%f"
_NAME = re.compile(r"^(?P<stamp>\d{8}-\d{6}-\d{6})-\d+_(?P<qid>.+)\.txt$")
NO_QUESTION = "answer"
"""The name's question part for an answer scored against a ``--rubric`` file."""


@dataclass(frozen=True)
class UnsavedAnswer:
    """An answer kept in a file because it could not be saved to the history."""

    path: Path
    question_id: str
    """The question it answered (:data:`NO_QUESTION` when scored against a rubric file)."""
    given_at: datetime
    """When it was scored (from the file name; the file's time if the name has none)."""
    size: int

    def read(self) -> str:
        """The answer's text (raises :class:`OSError` when the file cannot be read)."""
        return self.path.read_text(encoding="utf-8", errors="surrogateescape")


def keep_unsaved_answer(question_id: str, text: str) -> Path:
    """Write ``text`` to ``<data dir>/unsaved/`` (else the temporary directory) and
    return the file. Raises :class:`OSError` only when neither place is writable."""
    stamp = now_utc().strftime(_STAMP)
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


def unsaved_answers() -> list[UnsavedAnswer]:
    """Every kept answer (both places :func:`keep_unsaved_answer` writes to), oldest
    first. Files that are not kept answers are left out; folders that cannot be read
    count as empty."""
    found: list[UnsavedAnswer] = []
    for folder in _folders():
        try:
            paths = sorted(folder.glob("*.txt"))
        except OSError:
            continue
        for path in paths:
            match = _NAME.match(path.name)
            if match is None:
                continue
            try:
                st = path.stat()
            except OSError:
                continue
            try:
                given = datetime.strptime(match["stamp"], _STAMP).replace(tzinfo=UTC)
            except ValueError:
                given = datetime.fromtimestamp(st.st_mtime, UTC)
            found.append(UnsavedAnswer(path, match["qid"], given, st.st_size))
    return sorted(found, key=lambda a: (a.given_at, a.path.name))


def _folders() -> list[Path]:
    """Where kept answers may be, without creating anything."""
    folders: list[Path] = []
    with suppress(StorageError, OSError):
        folders.append(locations().data_dir / "unsaved")
    folders.append(Path(tempfile.gettempdir()) / f"sayitout-unsaved-{os.getuid()}")
    return [f for f in folders if _is_dir(f)]


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


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
