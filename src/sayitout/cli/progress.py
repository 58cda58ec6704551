"""Progress on long command-line work: one stderr line, rewritten in place.

``scoring 120/1,000 lines · 35.2 lines/s · about 25 s left``, or while a model loads
``loading the speech model (tiny.en)… 3 s``. Shown only when stderr is a terminal:
piped or redirected stderr gets nothing, and so does ``--quiet`` (it swaps
``sys.stderr`` for ``/dev/null``). Every command that works for long uses this one
helper, so the line looks and behaves the same everywhere.
"""

from __future__ import annotations

import contextlib
import math
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import IO

Clock = Callable[[], float]

_CLEAR = "\r\x1b[K"
_EVERY_S = 0.1
"""Redraw at most this often (the last update always shows)."""
_TICK_S = 0.25
"""How often the line of a model load updates its seconds."""


def on_terminal(stream: IO[str] | None) -> bool:
    """Whether ``stream`` is an interactive terminal (and so may show progress)."""
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed or not a real stream
        return False


def duration(seconds: float) -> str:
    """``under 1 s``, ``25 s``, ``3 min 05 s``, ``1 h 02 min``."""
    if not math.isfinite(seconds):
        return "?"
    s = round(seconds)
    if s < 1:
        return "under 1 s"
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def _left(seconds: float) -> str:
    text = duration(seconds)
    return f"{text} left" if text.startswith("under") else f"about {text} left"


def _count(value: float) -> str:
    return f"{value:,.0f}"


class Progress:
    """How far a long piece of work has gone, with its rate and the time left.

    ``update(done)`` rewrites the line; ``close()`` clears it. The rate is measured
    from the first update on, so loading a model before the first item does not
    inflate the time left. With ``enabled`` false (stderr is not a terminal) every
    call does nothing.
    """

    def __init__(
        self,
        label: str,
        total: float | None = None,
        *,
        unit: str = "",
        rate_unit: str | None = None,
        stream: IO[str] | None = None,
        clock: Clock = time.monotonic,
        enabled: bool | None = None,
    ) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.rate_unit = rate_unit
        """How the rate reads (``× real time``); by default ``<unit>/s``."""
        self.stream = sys.stderr if stream is None else stream
        self.enabled = on_terminal(self.stream) if enabled is None else enabled
        self.clock = clock
        self.started = clock()
        self.done: float = 0
        self._base: tuple[float, float] | None = None
        self._drawn_at: float | None = None
        self.shown = False

    def line(self, now: float) -> str:
        """The text shown for the progress so far (no control characters)."""
        done, unit = self.done, f" {self.unit}" if self.unit else ""
        rate = self.rate(now)
        if self.unit == "%":  # a share of the work: how far, and the time left
            text = f"{self.label} {done:.0f}%"
            if rate > 0 and done < 100:
                text += f" · {_left((100 - done) / rate)}"
            return text
        if self.total is None:
            parts = [f"{self.label} {_count(done)}{unit}"]
        else:
            parts = [f"{self.label} {_count(done)}/{_count(self.total)}{unit}"]
        if rate > 0:
            parts.append(f"{rate:.1f} {self.rate_unit or (self.unit or 'items') + '/s'}")
            if self.total is not None and done < self.total:
                parts.append(_left((self.total - done) / rate))
        return " · ".join(parts)

    def rate(self, now: float) -> float:
        """Items a second: from the first update on once there are two, else from the start."""
        if self._base is not None and self.done > self._base[1]:
            since, base = self._base
        else:
            since, base = self.started, 0.0
        elapsed = now - since
        return (self.done - base) / elapsed if elapsed > 0 and self.done > base else 0.0

    def update(self, done: float, total: float | None = None) -> None:
        if total is not None:
            self.total = total
        if not self.enabled:
            return
        now = self.clock()
        if self._base is None and done > 0:
            self._base = (now, done)
        self.done = done
        finished = self.total is not None and done >= self.total
        if self._drawn_at is not None and now - self._drawn_at < _EVERY_S and not finished:
            return
        self._drawn_at = now
        self._write(self.line(now))

    def _write(self, text: str) -> None:
        try:
            self.stream.write(_CLEAR + text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: progress is not worth a crash
            self.enabled = False
            return
        self.shown = True

    def close(self, *, keep: bool = False) -> None:
        """Clear the line, leaving the terminal as it was; ``keep`` leaves the last
        figures on it instead, as the run's summary."""
        if self.enabled and self.shown:
            with contextlib.suppress(OSError, ValueError):
                if keep:
                    self.stream.write(_CLEAR + self.line(self.clock()) + "\n")
                else:
                    self.stream.write(_CLEAR)
                self.stream.flush()
        self.shown = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


@contextlib.contextmanager
def loading(
    what: str,
    *,
    stream: IO[str] | None = None,
    clock: Clock = time.monotonic,
    enabled: bool | None = None,
) -> Iterator[None]:
    """``loading the speech model (tiny.en)… 3 s`` while the block runs.

    A model load reports no steps of its own, so the line counts the seconds on a
    background thread and is cleared when the block ends.
    """
    out = sys.stderr if stream is None else stream
    if not (on_terminal(out) if enabled is None else enabled):
        yield
        return
    started = clock()
    stop = threading.Event()
    bar = Progress(what, stream=out, enabled=True)

    def tick() -> None:
        while not stop.wait(_TICK_S):
            bar._write(f"{what}… {clock() - started:.0f} s")

    bar._write(f"{what}…")
    ticker = threading.Thread(target=tick, name="progress-loading", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        stop.set()
        ticker.join()
        bar.close()


def stages(bar: Progress, what: str) -> Callable[[float, str], None]:
    """A ``progress(fraction, stage)`` callback (the report's) drawn on ``bar`` in percent:
    ``writing the report: scoring topics 50% · about 2 s left``."""
    bar.unit, bar.total = "%", 100

    def show(fraction: float, stage: str) -> None:
        bar.label = f"{what}: {stage}"
        bar.update(100 * fraction)

    return show
