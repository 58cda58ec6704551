"""Pilot and snapshot tests of the History and Attempt screens, each opened over Home in
the real app (``make_app`` on fake services), as the app opens them; the screens take
their store, bank and player through their constructors."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf
from textual.app import App
from textual.widgets import DataTable, Select, Static

from sayitout.bank.loader import Bank, load_bank
from sayitout.store import EVERY_ATTEMPT, AttemptFilter, Store
from sayitout.tui.screens.attempt import AttemptScreen, time_at
from sayitout.tui.screens.history import PAGE, HistoryScreen
from support.synthetic import (
    SampleQuestion,
    fill_history,
    make_score,
    make_transcript,
    sample_questions,
)
from support.tui import screen_app, show

T0 = datetime(2026, 5, 1, 9, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(tmp_path / "sayitout.db")
    yield s
    s.close()


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank()


@pytest.fixture
def app(bank: Bank, tmp_path: Path) -> App:
    return screen_app(bank, tmp_path / "app")


class FakePlayer:
    def __init__(self) -> None:
        self.played: list[tuple[int, int]] = []
        self.stopped = 0

    def play(self, audio: Any, sample_rate: int) -> None:
        self.played.append((len(audio), sample_rate))

    def stop(self) -> None:
        self.stopped += 1


class FakeBank:
    def __init__(self) -> None:
        self.decks = {"demo": None, "demo-two": None}

    def topics(self) -> list[str]:
        return ["even", "odd"]

    def questions(self, topics=None, ready_only=True):
        class Q:
            def __init__(self, i: int) -> None:
                self.id = f"demo-q{i:02d}"

        want = set(topics or [])
        return [Q(i) for i in range(12) if ("even" if i % 2 == 0 else "odd") in want]

    def question(self, qid: str):
        class Q:
            text = f"What is {qid}?"

        return Q()


async def settle(pilot: Any, app: App) -> None:
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


@pytest.fixture
def big(store: Store) -> Store:
    fill_history(store, sample_questions(), 3 * PAGE + 50, end=T0, days=20)
    return store


async def test_history_pages_load_as_you_scroll(big: Store, app: App) -> None:
    screen = HistoryScreen(big, FakeBank())
    async with app.run_test(size=(140, 40)) as pilot:
        await show(pilot, screen)
        attempts = screen.query_one("#attempts", DataTable)
        sessions = screen.query_one("#sessions", DataTable)
        assert screen.total_rows == 3 * PAGE + 50
        assert attempts.row_count == PAGE  # only the first page
        assert sessions.row_count == 1 + (3 * PAGE + 50 + 9) // 10
        # newest first
        first = big.attempts(limit=1)[0]
        assert screen.selected_attempt_id() == first.id
        attempts.focus()
        for _ in range(4):
            attempts.move_cursor(row=attempts.row_count - 1)
            await settle(pilot, app)
        assert attempts.row_count == 3 * PAGE + 50
        assert "650 of 650" in str(screen.query_one("#status", Static).content)


async def test_history_filters_by_session_deck_topic_and_score(big: Store, app: App) -> None:
    screen = HistoryScreen(big, FakeBank())
    async with app.run_test(size=(140, 40)) as pilot:
        await show(pilot, screen)
        sessions = screen.query_one("#sessions", DataTable)
        sessions.move_cursor(row=1)  # the newest session
        await settle(pilot, app)
        newest = big.sessions(include_cli=False)[0]
        assert screen.total_rows == newest.attempt_count
        sessions.move_cursor(row=0)  # all sessions again
        await settle(pilot, app)
        screen.query_one("#band", Select).value = "below 40"
        await settle(pilot, app)
        assert screen.total_rows == big.count_attempts(AttemptFilter(max_score=39))
        screen.query_one("#topic", Select).value = "even"
        await settle(pilot, app)
        even = [f"demo-q{i:02d}" for i in range(0, 12, 2)]
        assert screen.total_rows == big.count_attempts(
            AttemptFilter(max_score=39, question_ids=even)
        )
        screen.query_one("#deck", Select).value = "demo-two"
        await settle(pilot, app)
        want = big.count_attempts(AttemptFilter(max_score=39, question_ids=even, deck="demo-two"))
        assert screen.total_rows == want


async def test_history_empty_and_export(store: Store, tmp_path: Path, app: App) -> None:
    screen = HistoryScreen(store, None, report_dir=tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await show(pilot, screen)
        assert "No attempts yet" in str(screen.query_one("#status", Static).content)
        await pilot.press("e")
        await settle(pilot, app)
        written = list(tmp_path.glob("sayitout-report-*.html"))
        assert len(written) == 1 and "No attempts yet" in written[0].read_text()


async def test_history_shows_six_digit_counts_whole(store: Store, app: App) -> None:
    store.count_attempts = lambda where=EVERY_ATTEMPT: 200_001
    screen = HistoryScreen(store, None)
    async with app.run_test(size=(140, 30)) as pilot:
        await show(pilot, screen)
        table = screen.query_one("#sessions", DataTable)
        cell = str(table.get_row_at(0)[2])
        assert cell == "200,001"
        column = next(c for c in table.columns.values() if str(c.label) == "Ans")
        assert column.width >= len(cell)


def _recorded_attempt(store: Store, with_file: bool = True) -> int:
    text = "First we lower the learning rate. Then we clip the gradients to stop spikes."
    kps = [
        ("lr", "Lower the learning rate", "covered"),
        ("clip", "Clip the gradients", "covered"),
        ("warm", "Add a warmup", "missed"),
    ]
    earlier = make_score("dl-loss-spikes", "no idea", [(k, t, "missed") for k, t, _ in kps])
    store.save_attempt(
        None,
        "dl-loss-spikes",
        "deep-learning",
        make_transcript("no idea"),
        earlier,
        None,
        created_at=T0 - timedelta(days=3),
    )
    path = store.new_recording_path("dl-loss-spikes")
    transcript = make_transcript(text, wpm=120)  # half a second per word
    if with_file:
        sr = 16000
        sf.write(path, np.zeros(int(sr * (transcript.duration or 1)), dtype="float32"), sr)
    return store.save_attempt(
        None,
        "dl-loss-spikes",
        "deep-learning",
        transcript,
        make_score("dl-loss-spikes", text, kps),
        path,
        created_at=T0,
    )


async def test_attempt_screen_shows_evidence_missed_and_earlier(store: Store, app: App) -> None:
    aid = _recorded_attempt(store)
    player = FakePlayer()
    screen = AttemptScreen(store, aid, player)
    async with app.run_test(size=(120, 50)) as pilot:
        await show(pilot, screen)
        text = screen.transcript_text()
        styled = {str(text)[s.start : s.end] for s in text.spans if "green" in str(s.style)}
        assert any("lower" in chunk for chunk in styled)
        assert any("clip" in chunk for chunk in styled)
        keypoints = screen.keypoints_text().plain
        assert "Add a warmup" in keypoints and "Missed 1 of 3" in keypoints
        earlier = screen.query_one("#earlier", DataTable)
        assert earlier.row_count == 2  # this one and the earlier one
        assert screen.audio_note == ""
        # play from the start, then stop
        await pilot.press("space")
        await settle(pilot, app)
        assert len(player.played) == 1 and player.played[0][1] == 16000
        full = player.played[0][0]
        # key point 2's words start at "clip", word 9 at 4.0 s; playback starts 0.3 s before
        await pilot.press("2")
        await settle(pilot, app)
        started_at = (full - player.played[-1][0]) / 16000
        assert 3.65 <= started_at <= 3.75
        await pilot.press("space")
        await settle(pilot, app)
        assert not screen.playing


async def test_attempt_screen_audio_gone(store: Store, app: App) -> None:
    aid = _recorded_attempt(store, with_file=False)
    player = FakePlayer()
    screen = AttemptScreen(store, aid, player)
    async with app.run_test(size=(120, 50)) as pilot:
        await show(pilot, screen)
        assert "The audio is gone" in screen.audio_note
        assert "The audio is gone" in str(screen.query_one("#playback", Static).content)
        await pilot.press("space")
        await settle(pilot, app)
        assert player.played == []


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_attempt_screen_offers_no_playback_without_sound_out(
    store: Store, size: tuple[int, int], app: App
) -> None:
    """On a machine with no sound out, as the real app finds it at start-up."""
    aid = _recorded_attempt(store)
    screen = AttemptScreen(store, aid)  # no player given: the real one would be built
    async with app.run_test(size=size) as pilot:
        app.status.sound_out = "No audio output device was found"
        await show(pilot, screen)
        line = str(screen.query_one("#playback", Static).content)
        assert "No playback: no audio output device was found." in line
        keys = {b.binding.action for b in screen.active_bindings.values() if b.enabled}
        assert not {"toggle_play", "seek(-5)", "seek(5)", "rewind"} & keys
        await pilot.press("space")
        await settle(pilot, app)
        assert not screen.playing and screen.player is None


async def test_attempt_screen_unknown_id(store: Store, app: App) -> None:
    screen = AttemptScreen(store, 12345, FakePlayer())
    async with app.run_test() as pilot:
        await show(pilot, screen)
        assert "No attempt with id 12345" in str(screen.query_one("#headline", Static).content)


def test_time_at_maps_text_offsets_to_word_times() -> None:
    t = make_transcript("alpha beta gamma delta", wpm=60)  # one word a second
    assert time_at(t, "alpha beta gamma delta", 11) == 2.0
    assert time_at(t, "alpha beta gamma delta", 0) == 0.0


def test_sample_question_type() -> None:
    assert SampleQuestion("a", "d", ()).id == "a"


async def test_enter_opens_the_attempt_and_escape_comes_back(store: Store, app: App) -> None:
    aid = _recorded_attempt(store)
    screen = HistoryScreen(store, None)
    async with app.run_test(size=(130, 36)) as pilot:
        await show(pilot, screen)
        assert screen.selected_attempt_id() == aid  # newest first
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, AttemptScreen) and app.screen.attempt_id == aid
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen is screen


# ------------------------------------------------------------------------ snapshots
# 80x24, a synthetic history with fixed dates so the pictures hold still. After an
# intended change: ``pytest tests/tui/test_tui_history.py --snapshot-update``, and look at
# the report.
SNAPSHOT_SIZE = (80, 24)


@pytest.fixture
def small_history(store: Store) -> Store:
    fill_history(store, sample_questions(), 40, end=T0, days=10, seed=3)
    return store


def _showing(screen: Any) -> Callable[[Any], Awaitable[None]]:
    """Open ``screen`` over Home, then let everything settle (a picture that holds still)."""

    async def run_before(pilot: Any) -> None:
        await show(pilot, screen)
        for _ in range(3):
            await settle(pilot, pilot.app)
        pilot.app.clear_notifications()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    return run_before


def test_snapshot_history(snap_compare, small_history: Store, app: App) -> None:
    screen = HistoryScreen(small_history, None)
    assert snap_compare(app, terminal_size=SNAPSHOT_SIZE, run_before=_showing(screen))


def test_snapshot_attempt(snap_compare, small_history: Store, app: App) -> None:
    latest = small_history.attempts(limit=1)[0]
    screen = AttemptScreen(small_history, latest.id, FakePlayer())
    assert snap_compare(app, terminal_size=SNAPSHOT_SIZE, run_before=_showing(screen))
