"""Fixtures every test area shares.

Every test runs with ``SAYITOUT_HOME`` in its own temporary directory, so no test
reads or writes the real user's data, config or cache.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from sayitout.bank.models import Rubric

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_SPEECH = REPO_ROOT.parent / "shared" / "speech"

# Offline, always: a test that tries to reach a model hub fails instead of downloading.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# Synthesised speech is cached across tests (and runs) in the real temporary directory:
# fix it here, before each test gets a temporary directory of its own (below).
os.environ.setdefault(
    "SAYITOUT_SYNTH_CACHE", str(Path(tempfile.gettempdir()) / "sayitout-synth-cache")
)


@pytest.fixture(autouse=True)
def sayitout_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    home = tmp_path_factory.mktemp("sayitout-home")
    monkeypatch.setenv("SAYITOUT_HOME", str(home))
    # The temporary directory is a fallback place for kept answers (store.unsaved): give
    # each test its own, so one test's leftovers are never offered to another.
    tmp = home / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return home


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_speech() -> Path:
    """The real human speech clips with reference transcripts (``../shared/speech``)."""
    if not (SHARED_SPEECH / "manifest.jsonl").exists():
        pytest.skip(f"no real speech clips at {SHARED_SPEECH}")
    return SHARED_SPEECH


@pytest.fixture(scope="session")
def deck_rubric() -> Callable[[str], Rubric]:
    """``deck_rubric(question_id)``: the built-in deck's rubric for that question, the
    bank read once per session."""
    from sayitout.bank.loader import load_bank

    return load_bank(user=False).rubric
