"""Bundled model files are checked against pinned SHA-256 digests before loading."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sayitout import integrity
from sayitout.errors import ModelError


@pytest.mark.parametrize("name", sorted(integrity.PINNED))
def test_installed_models_match_their_pinned_digests(name: str) -> None:
    root = integrity.verify_bundled(name)
    assert all((root / rel).is_file() for rel in integrity.PINNED[name])


def _copy_of_tiny(tmp_path: Path) -> Path:
    src = integrity.package_root("whisper-tiny.en")
    dst = tmp_path / "model"
    shutil.copytree(src, dst)
    return dst


def test_a_tampered_file_refuses_to_load(tmp_path: Path) -> None:
    root = _copy_of_tiny(tmp_path)
    with (root / "vocabulary.txt").open("a") as f:
        f.write("tampered\n")
    with pytest.raises(ModelError, match=r"vocabulary\.txt.*refusing to load") as err:
        integrity.verify("whisper-tiny.en", root)
    assert "make setup" in (err.value.hint or "")


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    root = _copy_of_tiny(tmp_path)
    (root / "config.json").unlink()
    with pytest.raises(ModelError, match=r"config\.json is missing"):
        integrity.verify("whisper-tiny.en", root)
