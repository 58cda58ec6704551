"""The plain data of bank files that parsed cleanly, kept between runs.

Parsing YAML is most of the time it takes to load a bank (10,000 rubric files: about a
second). Every command loads the bank, and the files rarely change, so the data of
each file that parsed without a problem is kept in ``<cache dir>/bank-files.json``,
keyed by the file's path, size, modification and change times and inode. A file that
changed is parsed again. The data still goes through validation on every load; only
the parsing is saved. The cache is an optimisation and never an error: a cache that
cannot be read or written is ignored.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

VERSION = 1
_Stamp = list[int]


def _stamp(path: Path) -> _Stamp | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _round_trips(data: Any) -> bool:
    """True when JSON gives ``data`` back exactly (no dates, no non-text keys)."""
    try:
        return bool(json.loads(json.dumps(data, allow_nan=False)) == data)
    except (TypeError, ValueError, RecursionError):
        return False


class ParseCache:
    """Parsed data by file, loaded once per bank load and saved if anything changed."""

    def __init__(self, file: Path | None) -> None:
        self.file = file
        self._old: dict[str, list[Any]] = {}
        self._new: dict[str, list[Any]] = {}
        self._dirty = False
        if file is None:
            return
        try:
            raw = json.loads(file.read_text(encoding="utf-8"))
            if raw.get("version") == VERSION and isinstance(raw.get("files"), dict):
                self._old = raw["files"]
        except (OSError, ValueError, AttributeError, RecursionError):
            self._old = {}

    def get(self, path: Path) -> tuple[bool, Any]:
        """``(True, data)`` when ``path`` is unchanged since it was cached."""
        key = os.path.abspath(path)
        entry = self._old.get(key)
        if entry is None or not isinstance(entry, list) or len(entry) != 2:
            return False, None
        if entry[0] != _stamp(path):
            return False, None
        self._new[key] = entry
        return True, entry[1]

    def put(self, path: Path, data: Any) -> None:
        stamp = _stamp(path)
        if stamp is None or not _round_trips(data):
            return
        self._new[os.path.abspath(path)] = [stamp, data]
        self._dirty = True

    def save(self, roots: list[Path]) -> None:
        """Write the entries used now, and the old ones of other bank dirs still there."""
        if self.file is None:
            return
        inside = [os.path.abspath(r) + os.sep for r in roots]
        dropped = [k for k in self._old if k not in self._new and k.startswith(tuple(inside))]
        if not self._dirty and not dropped:
            return
        files = {
            k: v
            for k, v in self._old.items()
            if k not in self._new and not k.startswith(tuple(inside)) and os.path.exists(k)
        }
        files.update(self._new)
        with contextlib.suppress(OSError):
            self.file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            for stale in self.file.parent.glob(".bank-files-*"):  # left by a killed run
                with contextlib.suppress(OSError):
                    if time.time() - stale.stat().st_mtime > 60:
                        stale.unlink()
            fd, tmp = tempfile.mkstemp(prefix=".bank-files-", dir=self.file.parent)
            try:
                text = json.dumps({"version": VERSION, "files": files}, separators=(",", ":"))
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(text)  # json.dump to a file would skip the C encoder
                os.replace(tmp, self.file)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
