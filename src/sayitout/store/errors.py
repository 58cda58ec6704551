"""Turning SQLite and file-system failures into messages a person can act on."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from sayitout.errors import StorageError


def storage_error(action: str, path: Path, exc: BaseException) -> StorageError:
    """A :class:`StorageError` saying what failed (``action``), where, and how to fix it."""
    text = str(exc).lower()
    err = getattr(exc, "errno", None)
    if "full" in text or err == errno.ENOSPC:
        why, hint = "the disk is full", "free some disk space and try again"
    elif (
        "readonly" in text or "read-only" in text or err in (errno.EROFS, errno.EACCES, errno.EPERM)
    ):
        why = "the data directory or database is read-only"
        hint = f"make {path.parent} writable, or set SAYITOUT_HOME to a writable directory"
    elif "locked" in text or "busy" in text:
        why = "another program holds the database locked"
        hint = "close other sayitout windows and try again"
    elif "not a database" in text or "malformed" in text or "corrupt" in text:
        why = "the file is not a sayitout database or is damaged"
        hint = f"move {path} aside (sayitout starts a new one); keep it if you want to recover it"
    elif "unable to open" in text and not os.access(path.parent, os.W_OK):
        # SQLite says only "unable to open"; the usual cause is a read-only directory.
        why = "the data directory is read-only"
        hint = f"make {path.parent} writable, or set SAYITOUT_HOME to a writable directory"
    elif "unable to open" in text:
        why = "the database file cannot be opened"
        hint = f"check that {path.parent} exists and is writable, or set SAYITOUT_HOME"
    else:
        # Not a permission problem (those are caught above): do not blame permissions.
        why = str(exc) or type(exc).__name__
        hint = "try again; if it happens again, run 'sayitout doctor' and report this message"
    return StorageError(f"Could not {action} ({path}): {why}", hint)


def is_storage_failure(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.Error | OSError)
