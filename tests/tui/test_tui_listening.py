"""The session screen says "listening" only once the microphone's first audio arrives."""

from __future__ import annotations

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.session.plan import SessionPlan
from sayitout.tui import make_app
from support.tui import ScriptedSource, fake_services, text_of, wait_until


async def test_status_waits_for_the_microphone_before_saying_listening(tmp_path):
    source = ScriptedSource(
        "slow mic", "I think it is the natural log", wait_for_stop=True, open_s=1.0
    )
    services = fake_services(load_bank(), tmp_path, sources=[source])
    plan = SessionPlan(question_ids=("dl-loss-stuck-at-chance",), count=1, thinking_s=0)
    app = make_app(Settings(), plan=plan, services=services, load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:

        def status() -> str:
            return text_of(app.screen.query_one("#status")) if app.screen.query("#status") else ""

        await wait_until(pilot, lambda: "Opening the microphone" in status(), what="opening")
        await wait_until(pilot, lambda: "Listening: answer now" in status(), what="listening")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen.last_scored is not None, what="scored")
