"""Every path sayitout reads or writes, in one place.

``SAYITOUT_HOME`` points the whole data, config and cache tree elsewhere
(the tests use it). Nothing here touches the disk at import time.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from sayitout.errors import StorageError

APP = "sayitout"
_PACKAGE_DIR = Path(__file__).resolve().parent
_REPO_ROOT = _PACKAGE_DIR.parents[1]


@dataclass(frozen=True)
class Locations:
    data_dir: Path
    config_dir: Path
    cache_dir: Path

    @property
    def config_file(self) -> Path:
        return self.config_dir / "config.toml"

    @property
    def database(self) -> Path:
        return self.data_dir / "sayitout.db"

    @property
    def recordings_dir(self) -> Path:
        return self.data_dir / "recordings"

    @property
    def user_bank_dir(self) -> Path:
        """Where users keep their own decks (same layout as the built-in bank)."""
        return self.data_dir / "bank"

    @property
    def exports_dir(self) -> Path:
        return self.data_dir / "exports"

    @property
    def logs_dir(self) -> Path:
        """What the app logs, e.g. the audio libraries' messages while it runs."""
        return self.data_dir / "logs"


def locations() -> Locations:
    """Resolve the directories now (the environment may change between calls)."""
    home = os.environ.get("SAYITOUT_HOME")
    if home:
        root = Path(home).expanduser()
        return Locations(root / "data", root / "config", root / "cache")
    return Locations(
        Path(platformdirs.user_data_dir(APP)),
        Path(platformdirs.user_config_dir(APP)),
        Path(platformdirs.user_cache_dir(APP)),
    )


def ensure_dir(path: Path) -> Path:
    """Create ``path`` readable by its owner only; a clear error if that fails."""
    try:
        _mkdirs_owner_only(path)
    except OSError as exc:
        raise StorageError(
            f"Cannot create the directory {path}: {exc.strerror or exc}",
            "check the path and its permissions, or set SAYITOUT_HOME to a writable directory",
        ) from exc
    if not os.access(path, os.R_OK | os.X_OK):
        raise unreadable(path, PermissionError(13, "Permission denied", str(path)))
    return path


def _mkdirs_owner_only(path: Path) -> None:
    """``mkdir -p`` where every directory created is 0700 whatever the umask
    (``Path.mkdir(parents=True)`` gives the parents the umask's mode, 0777 under umask 000)."""
    missing: list[Path] = []
    p = path
    while True:
        try:
            if p.is_dir():
                break
        except PermissionError as exc:  # a directory on the way cannot be searched
            raise unreadable(p, exc) from exc
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        try:
            d.mkdir(mode=0o700)
        except FileExistsError:
            if not d.is_dir():
                raise
            continue  # another process made it first
        # mode is masked by the umask, which can only remove bits: 0700 or less.


def private_umask() -> None:
    """Make every file and directory this process creates owner-only, whatever the
    user's umask (recordings, reports, imported decks, temporary files)."""
    os.umask(os.umask(0o077) | 0o077)


def readable_dir(path: Path) -> bool:
    """Whether ``path`` is a directory; ``False`` when it does not exist.

    A directory that exists but cannot be read (mode 000, or a parent without
    search permission) is a :class:`StorageError` naming it, not a ``PermissionError``
    traceback from deep inside whichever command looked first.
    """
    try:
        if not path.is_dir():
            return False
        if os.access(path, os.R_OK | os.X_OK):
            return True
        exc: OSError = PermissionError(13, "Permission denied", str(path))
    except PermissionError as err:
        exc = err
    raise unreadable(path, exc)


def unreadable(path: Path, exc: OSError) -> StorageError:
    """The message for a directory of sayitout's that the user's account cannot read."""
    where = Path(exc.filename) if exc.filename else path
    for ancestor in (*reversed(where.parents), where):  # the first one that blocks the way
        if not os.access(ancestor, os.R_OK | os.X_OK):
            where = ancestor
            break
    return StorageError(
        f"Cannot read {where}: {exc.strerror or exc}",
        f"give your account access to it (for example 'chmod u+rwx {where}'), "
        "or set SAYITOUT_HOME to a directory you own",
    )


def content_dir(name: str) -> Path:
    """A built-in content directory: ``question_bank``, ``rubrics`` or ``assets``.

    An installed wheel carries them under ``sayitout/_content``; a source checkout
    (including an editable install) has them at the repository root.
    """
    packaged = _PACKAGE_DIR / "_content" / name
    return packaged if packaged.is_dir() else _REPO_ROOT / name


def builtin_bank_root() -> Path:
    """The directory holding ``question_bank/`` and ``rubrics/`` of the built-in bank."""
    return content_dir("question_bank").parent
