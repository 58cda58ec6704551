"""Recording files: where new ones go, how they are stored, which ones no attempt refers to.

A recording is named ``YYYYMMDD-HHMMSS-ffffff_<question-id>.flac`` inside a
``YYYY-MM`` folder, so an orphan found after a crash still says which question
it answered (``_`` never appears in a question id).
"""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime
from pathlib import Path

from sayitout.locations import ensure_dir
from sayitout.store.records import OrphanRecording
from sayitout.store.timefmt import now_utc


class RecordingPaths:
    """Recording paths as stored: relative to the recordings dir when inside it, so the
    data dir can move; absolute otherwise."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def relative(self, path: Path | str | None) -> str | None:
        if path is None or str(path) == "":
            return None
        p = Path(path).expanduser().absolute()
        try:
            return p.relative_to(self.root.absolute()).as_posix()
        except ValueError:
            return str(p)

    def absolute(self, stored: str | None) -> Path | None:
        if not stored:
            return None
        p = Path(stored)
        return p if p.is_absolute() else self.root.absolute() / p


AUDIO_SUFFIXES = (".flac", ".wav", ".ogg", ".mp3")
_NAME = re.compile(r"^\d{8}-\d{6}-\d{6}(?:-[0-9a-f]{4})?_(?P<qid>[a-z0-9][a-z0-9-]*)$")


def new_recording_path(root: Path, question_id: str, when: datetime | None = None) -> Path:
    when = (when or now_utc()).astimezone(UTC)
    ensure_dir(root)  # created 0700 itself (mkdir's parents=True would not apply the mode)
    folder = ensure_dir(root / when.strftime("%Y-%m"))
    stamp = when.strftime("%Y%m%d-%H%M%S-%f")
    path = folder / f"{stamp}_{question_id}.flac"
    if path.exists():
        path = folder / f"{stamp}-{secrets.token_hex(2)}_{question_id}.flac"
    return path


def question_of(path: Path) -> str | None:
    m = _NAME.match(path.stem)
    return m.group("qid") if m else None


def orphans(root: Path, attached: set[Path | None]) -> list[OrphanRecording]:
    if not root.is_dir():
        return []
    found: list[OrphanRecording] = []
    for path in root.rglob("*"):
        if path.suffix.lower() not in AUDIO_SUFFIXES or path.name.startswith("."):
            continue
        absolute = path.absolute()
        if absolute in attached:
            continue
        try:
            st = path.stat()
        except OSError:
            continue
        if not path.is_file():
            continue
        found.append(
            OrphanRecording(
                path=absolute,
                size=st.st_size,
                modified=datetime.fromtimestamp(st.st_mtime, UTC),
                question_id=question_of(path),
            )
        )
    return sorted(found, key=lambda o: (o.modified, str(o.path)))


def orphans_older_than(
    root: Path, attached: set[Path | None], min_age_s: float
) -> list[OrphanRecording]:
    """:func:`orphans`, skipping files written in the last ``min_age_s`` seconds: with two
    sayitout windows open, one's recording in progress is not the other's orphan."""
    found = orphans(root, attached)
    if min_age_s > 0:
        cutoff = now_utc().timestamp() - min_age_s
        found = [o for o in found if o.modified.timestamp() <= cutoff]
    return found
