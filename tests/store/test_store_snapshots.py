"""Snapshots of the history and attempt screens at 80x24 (the app's other screens are
in tests/tui). The history is synthetic with fixed dates, so the pictures hold still.

Update after an intended change with ``pytest tests/store --snapshot-update`` and look
at the report before committing.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from textual.app import App

from sayitout.store import Store
from sayitout.store.synthetic import fill_history, sample_questions
from sayitout.tui.screens.attempt import AttemptScreen
from sayitout.tui.screens.history import HistoryScreen

SIZE = (80, 24)
END = datetime(2026, 5, 1, 9, tzinfo=UTC)


class Host(App):
    def __init__(self, screen: Any) -> None:
        super().__init__()
        self._first = screen

    def on_mount(self) -> None:
        self.push_screen(self._first)


class SilentPlayer:
    def play(self, audio: Any, sample_rate: int) -> None:
        pass

    def stop(self) -> None:
        pass


@pytest.fixture
def history(store: Store) -> Store:
    fill_history(store, sample_questions(), 40, end=END, days=10, seed=3)
    return store


async def _settle(pilot: Any) -> None:
    app = pilot.app
    for _ in range(3):
        await pilot.pause()
        await app.workers.wait_for_complete()
    app.clear_notifications()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def test_snapshot_history(snap_compare, history: Store) -> None:
    app = Host(HistoryScreen(history, None))
    assert snap_compare(app, terminal_size=SIZE, run_before=_settle)


def test_snapshot_attempt(snap_compare, history: Store) -> None:
    latest = history.attempts(limit=1)[0]
    app = Host(AttemptScreen(history, latest.id, SilentPlayer()))
    assert snap_compare(app, terminal_size=SIZE, run_before=_settle)
