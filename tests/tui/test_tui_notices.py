"""Start-up notices (no microphone, no sound out) sit on Home's bottom line, never over
its form; with no sound out, no screen offers a key that would play something."""

from __future__ import annotations

import pytest

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.errors import AudioError
from sayitout.session import events as ev
from sayitout.session.events import Phase
from sayitout.session.plan import SessionPlan
from sayitout.tui import make_app
from sayitout.tui.messages import ModelEvent, SoundOutputChecked
from sayitout.tui.screens.home import HomeScreen
from support.fakes import FakeSpeaker
from support.tui import Q1, fake_services, hold_still, in_phase, text_of, wait_until

NO_OUTPUT = "No audio output device was found"
SIZES = [(80, 24), (120, 40)]


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def _no_sound(app) -> None:
    """What the start-up checks report on a machine with no sound card."""
    app.post_message(ModelEvent(ev.ModelFailed("microphone", "No audio input device was found")))
    app.post_message(SoundOutputChecked(NO_OUTPUT))
    app.post_message(ModelEvent(ev.ModelFailed("voice", NO_OUTPUT, "connect speakers")))


def _footer_keys(app) -> set[str]:
    return {b.binding.description for b in app.screen.active_bindings.values() if b.enabled}


def _home_app(bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="No audio input device was found")
    return make_app(Settings(), services=services, load_models=False)


@pytest.mark.parametrize("size", SIZES)
async def test_start_up_notices_never_cover_the_form(bank, tmp_path, size):
    app = _home_app(bank, tmp_path)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.decks)
        _no_sound(app)
        await wait_until(pilot, lambda: app.status.voice is not None, what="the notices")
        await pilot.pause()
        assert not app._notifications, "a toast floats over Home"
        line = app.screen.query_one("#models")
        text = text_of(line)
        assert "answers typed: no audio input device was found" in text
        assert "not read aloud: no audio output device was found" in text
        form, start = app.screen.query_one("#form"), app.screen.query_one("#start")
        assert line.region.y >= form.region.bottom, "the notices line overlaps the form"
        assert start.region.bottom <= line.region.y
        assert line.region.bottom <= size[1] - 1  # above the footer, all of it on screen


def test_snapshot_home_without_sound(snap_compare, bank, tmp_path):
    app = _home_app(bank, tmp_path)

    async def run_before(pilot):
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.decks)
        _no_sound(app)
        await wait_until(pilot, lambda: app.status.voice is not None, what="the notices")
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
async def test_no_replay_when_the_voice_cannot_play(bank, tmp_path, size):
    services = fake_services(bank, tmp_path, mic_reason="No audio input device was found")
    services.speaker = FakeSpeaker()
    plan = SessionPlan(question_ids=(Q1,), count=1)
    app = make_app(Settings(), plan=plan, services=services, load_models=False)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, in_phase(app, Phase.AWAITING_ANSWER), what="question")
        assert "Replay" in _footer_keys(app)  # a voice that works: the key is there
        services.failed["voice"] = AudioError(NO_OUTPUT, "connect speakers")
        app.post_message(ModelEvent(ev.ModelFailed("voice", NO_OUTPUT, "connect speakers")))
        await wait_until(pilot, lambda: "Replay" not in _footer_keys(app), what="Replay gone")
        notice = text_of(app.screen.query_one("#notice"))
        assert "not read aloud" in notice  # and it says why
        await pilot.press("p")  # the key does nothing now
        await pilot.pause()
        assert services.speaker.spoken.count(services.bank.question(Q1).text) <= 1


async def test_a_session_started_without_a_voice_says_why_there_is_no_replay(bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="No audio input device was found")
    services.speaker = FakeSpeaker()
    services.failed["voice"] = AudioError(NO_OUTPUT, "connect speakers")
    plan = SessionPlan(question_ids=(Q1,), count=1)
    app = make_app(Settings(), plan=plan, services=services, load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, in_phase(app, Phase.AWAITING_ANSWER), what="question")
        assert "Replay" not in _footer_keys(app)
        assert "so there is no Replay" in text_of(app.screen.query_one("#notice"))
