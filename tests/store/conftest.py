from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sayitout.store import Store


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SAYITOUT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def store(home: Path) -> Iterator[Store]:
    s = Store.open()
    yield s
    s.close()
