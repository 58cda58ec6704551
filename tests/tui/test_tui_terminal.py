"""The app quits when its terminal goes away, instead of running on without one."""

from __future__ import annotations

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.tui import make_app
from sayitout.tui.screens.home import HomeScreen
from support.tui import fake_services, wait_until


async def test_the_app_quits_once_its_terminal_is_gone(tmp_path):
    """Under ``make run`` a closed terminal window sends the app no hang-up: its input
    just ends, and Textual's input loop would spin on it at full speed."""
    alive = [True]
    services = fake_services(load_bank(), tmp_path)
    app = make_app(Settings(), services=services, load_models=False, terminal=lambda: alive[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        await pilot.pause(1.2)
        assert app.is_running, "still running while the terminal is there"
        alive[0] = False
        await wait_until(pilot, lambda: not app.is_running, timeout=5, what="the app to quit")


async def test_an_app_started_without_a_terminal_keeps_running(tmp_path):
    """Tests and pipes start without a terminal: that is no reason to quit."""
    services = fake_services(load_bank(), tmp_path)
    app = make_app(Settings(), services=services, load_models=False, terminal=lambda: False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        await pilot.pause(1.5)
        assert app.is_running
