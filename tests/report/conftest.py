from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sayitout.store import Store


@pytest.fixture
def store(sayitout_home: Path) -> Iterator[Store]:
    s = Store.open()
    yield s
    s.close()
