"""What runs before the first screen: nothing that opens the sound system or loads
models on the UI thread; the models start loading once Home has filled in."""

from __future__ import annotations

import threading

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.tui import make_app
from sayitout.tui.screens.home import HomeScreen
from support.tui import fake_services, wait_until


class _UncheckedMicrophones:
    """Like ``LiveMicrophones`` before its first check (which opens PortAudio: slow)."""

    checked = False

    def __init__(self) -> None:
        self.threads: list[str] = []

    def unavailable(self):
        if not self.checked:  # the slow first check; later calls return the cached answer
            self.threads.append(threading.current_thread().name)
            self.checked = True
        return None

    def next_source(self):
        return None


async def test_home_paints_without_checking_the_microphone_and_models_follow(tmp_path):
    services = fake_services(load_bank(), tmp_path)
    mics = _UncheckedMicrophones()
    services.microphones = mics
    decks_when_models_started: list[list[str]] = []
    app = make_app(Settings(), services=services, load_models=True)
    real_warm_up = services.warm_up

    def warm_up(emit, *args, **kwargs):
        decks_when_models_started.append(list(app.screen_stack[1].decks))
        real_warm_up(emit, *args, **kwargs)

    services.warm_up = warm_up
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        await wait_until(pilot, lambda: app.model_status.get("scoring") == "ready", what="models")
    main = threading.main_thread().name
    assert len(mics.threads) == 1 and mics.threads != [main], "checked once, off the UI thread"
    assert decks_when_models_started == [["deep-learning"]], "models start once Home is filled"
