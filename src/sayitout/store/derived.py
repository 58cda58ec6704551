"""Values computed from the stored attempts, kept until the data changes.

The scheduler replays every attempt into FSRS cards; that takes a while on a long
history, so the result is kept with the store's :meth:`revision` and rebuilt only
when a save, a rescore or another process's commit changes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


@dataclass(frozen=True, eq=False)
class DerivedKey(Generic[T_co]):
    """Names one derived value and carries its type: ``DerivedKey[dict[str, Card]]("fsrs")``."""

    name: str


class DerivedValues:
    """Derived values of one store, each with the revision it was computed at."""

    def __init__(self) -> None:
        self._values: dict[DerivedKey[object], tuple[object, object]] = {}

    def get(self, key: DerivedKey[T], revision: object, build: Callable[[], T]) -> T:
        hit = self._values.get(key)
        if hit is not None and hit[0] == revision:
            return cast(T, hit[1])
        fresh = build()
        self._values[key] = (revision, fresh)
        return fresh

    def clear(self) -> None:
        self._values.clear()
