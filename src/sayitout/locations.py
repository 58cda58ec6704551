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
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise StorageError(
            f"Cannot create the directory {path}: {exc.strerror or exc}",
            "check the path and its permissions, or set SAYITOUT_HOME to a writable directory",
        ) from exc
    return path


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
