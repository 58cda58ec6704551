"""Helpers for the app's pilot and snapshot tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from sayitout.config import Settings
from sayitout.session.services import SessionServices
from support.fakes import (
    FakeTranscriber,
    KeywordScorer,
    ScriptedMicrophones,
    ScriptedSource,
)

__all__ = ["ScriptedSource", "fake_services", "wait_until"]


def fake_services(
    bank,
    tmp_path: Path,
    *,
    sources=(),
    mic_reason: str | None = None,
    settings: Settings | None = None,
) -> SessionServices:
    from sayitout.store import Store

    return SessionServices(
        settings=settings or Settings(),
        bank_loader=lambda: bank,
        scorer=KeywordScorer(),
        transcriber=FakeTranscriber(),
        microphones=ScriptedMicrophones(list(sources), mic_reason),
        speaker=None,
        store_opener=lambda: Store.open(tmp_path / "db.sqlite"),
        recordings_dir=tmp_path / "rec",
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
