"""The session screen shows words as they are said, and a short answer for what it is."""

from __future__ import annotations

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.session import events as ev
from sayitout.session.events import Phase
from sayitout.session.plan import SessionPlan
from sayitout.store import Store
from sayitout.tui import make_app
from support.tui import ScriptedSource, fake_services, text_of, wait_until

QID = "dl-loss-stuck-at-chance"


def _app(tmp_path, *sources):
    services = fake_services(load_bank(), tmp_path, sources=list(sources))
    plan = SessionPlan(question_ids=(QID,), count=1)
    return make_app(Settings(), plan=plan, services=services, load_models=False)


async def test_a_short_answer_is_shown_with_what_to_do_and_can_be_kept(tmp_path):
    app = _app(tmp_path, ScriptedSource("a.wav", "natural log"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(
            pilot, lambda: getattr(app.screen, "phase", None) is Phase.NO_SPEECH, what="short"
        )
        status = text_of(app.screen.query_one("#status"))
        assert "Only 2 words heard" in status and "k to keep" in status
        assert "natural log" in text_of(app.screen.query_one("#transcript"))
        with Store.open(tmp_path / "db.sqlite") as store:
            assert store.attempts() == []
        await pilot.press("k")
        await wait_until(pilot, lambda: app.screen.last_scored is not None, what="kept")
        assert app.screen.last_scored.transcript.text == "natural log"


async def test_tentative_words_are_shown_after_the_confirmed_ones(tmp_path):
    app = _app(tmp_path, ScriptedSource("a.wav", "x", wait_for_stop=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(
            pilot, lambda: getattr(app.screen, "phase", None) is Phase.RECORDING, what="rec"
        )
        screen = app.screen
        screen._show_PartialTranscript(ev.PartialTranscript("It is the natural", "natural"))
        await pilot.pause()
        assert text_of(screen.query_one("#live")).startswith("It is the natural …")
        screen._show_PartialTranscript(ev.PartialTranscript("It is", behind=True))
        await pilot.pause()
        live = text_of(screen.query_one("#live"))
        assert live.startswith("It is") and "words appear at each pause" in live
        await pilot.press("escape")
