"""The coach's tests run on a real Store in their own data dir."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sayitout.store import Store


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setenv("SAYITOUT_HOME", str(tmp_path / "home"))
    s = Store.open()
    yield s
    s.close()
