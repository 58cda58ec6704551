"""Helpers for the app's pilot and snapshot tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from rich.cells import cell_len
from textual.widgets import DataTable, TextArea

from sayitout.config import Settings
from sayitout.session.events import Phase
from sayitout.session.plan import SessionPlan
from sayitout.session.services import SessionServices
from sayitout.tui import make_app
from sayitout.tui.screens.home import HomeScreen
from sayitout.tui.screens.session import SessionScreen
from sayitout.tui.widgets.level_meter import LevelMeter
from support.fakes import (
    FakeTranscriber,
    KeywordScorer,
    ScriptedMicrophones,
    ScriptedSource,
)

__all__ = [
    "Q1",
    "ScriptedSource",
    "answer_for",
    "fake_services",
    "hold_still",
    "in_phase",
    "screen_app",
    "session_app",
    "show",
    "text_of",
    "type_answer",
    "wait_until",
]


def fake_services(
    bank,
    tmp_path: Path,
    *,
    sources=(),
    mic_reason: str | None = None,
    settings: Settings | None = None,
    clock=None,
) -> SessionServices:
    from sayitout.store import Store

    held = {"clock": clock} if clock is not None else {}
    return SessionServices(
        settings=settings or Settings(),
        bank_loader=lambda: bank,
        scorer=KeywordScorer(),
        transcriber=FakeTranscriber(),
        microphones=ScriptedMicrophones(list(sources), mic_reason),
        speaker=None,
        store_opener=lambda: Store.open(tmp_path / "db.sqlite"),
        recordings_dir=tmp_path / "rec",
        **held,
    )


async def wait_until(
    pilot, condition: Callable[[], bool], timeout: float = 20.0, what: str = "condition"
) -> None:
    """Let the app run until ``condition()`` holds (instead of sleeping a fixed time)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await pilot.pause(0.05)
    await pilot.pause()


def home_shown(app) -> bool:
    """Home shows its decks, the deck table laid out for them. The rows arrive at once,
    but the table measures its columns when the app is next idle: a snapshot taken in
    between (on a busy machine) has every column at its header's width."""
    screen = app.screen
    if not isinstance(screen, HomeScreen) or not screen.decks:
        return False
    table = screen.query_one("#decks", DataTable)
    first = table.ordered_columns[0]
    widest = max(cell_len(str(table.get_row_at(r)[0])) for r in range(table.row_count))
    return first.content_width >= widest


def text_of(widget) -> str:
    """The plain text a Static shows (Rich renderables rendered without styles)."""
    import io

    from rich.console import Console

    content = widget.content
    if isinstance(content, str):
        return content
    console = Console(width=200, file=io.StringIO(), color_system=None)
    with console.capture() as capture:
        console.print(content)
    return capture.get()


# --- the session screen's pilot steps (snapshot and fit tests) ------------------------

Q1 = "dl-loss-stuck-at-chance"


async def hold_still(pilot) -> None:
    """No blinking cursors, no toasts, a frozen level meter."""
    app = pilot.app
    for widget in app.screen.query("Input, TextArea"):
        widget.cursor_blink = False
    for meter in app.screen.query(LevelMeter):
        meter.frozen = True
        meter.refresh()
    app.clear_notifications()
    for notice in app.screen.query("#notice"):  # the session's timed one-line notices
        notice.display = False
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def answer_for(bank, qid: str) -> str:
    return " ".join(bank.rubric(qid).all_terms()[:4])


def session_app(bank, tmp_path, *, question_ids=(Q1,), sources=(), theme="dark"):
    mic = None if sources else "no input device was found"
    services = fake_services(bank, tmp_path, sources=sources, mic_reason=mic)
    settings = Settings(theme=theme)
    plan = SessionPlan(question_ids=question_ids, count=len(question_ids))
    return make_app(settings, plan=plan, services=services, load_models=False)


def screen_app(bank, tmp_path: Path):
    """The real app on fake services, opening on Home, for the tests of one screen: the
    test opens its screen with :func:`show`."""
    return make_app(Settings(), services=fake_services(bank, tmp_path), load_models=False)


async def show(pilot, screen) -> None:
    """Open ``screen`` over Home, as the app opens History or an attempt (screens take
    their store, bank and player through their constructors), and let it load."""
    from sayitout.tui.screens.home import HomeScreen

    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home screen")
    await app.workers.wait_for_complete()
    app.push_screen(screen)
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


def in_phase(app, phase: Phase):
    return lambda: isinstance(app.screen, SessionScreen) and app.screen.phase is phase


async def type_answer(pilot, text: str) -> None:
    await pilot.press("t")
    await wait_until(pilot, lambda: pilot.app.screen.query(TextArea), what="answer box")
    pilot.app.screen.query_one(TextArea).insert(text)
    await pilot.press("ctrl+s")
    await wait_until(pilot, in_phase(pilot.app, Phase.FEEDBACK), what="score card")
