"""Keep what C libraries print on file descriptor 2 off a full-screen app.

ALSA (``ALSA lib pcm.c:8526:(snd_pcm_recover) underrun occurred``) and PortAudio
(``Expression 'alsa_snd_pcm_hw_params_set_period_size_near' failed``) write straight
to descriptor 2, under Python's ``sys.stderr``. While a Textual app owns the screen
those lines land on top of it. :func:`native_stderr_to` points descriptor 2 at a log
file for the length of a block and gives Python (and so Textual, which draws on
``sys.__stderr__``) a copy of the terminal's descriptor, so the app is drawn as before
and a traceback printed after it ends is seen. On the way out descriptor 2 is the
terminal again.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from sayitout.errors import SayitoutError
from sayitout.locations import ensure_dir

MAX_LOG_BYTES = 1_000_000
"""A log grown past this is moved aside (``.1``) when the next run starts."""


def _open_log(path: Path) -> int:
    ensure_dir(path.parent)
    with contextlib.suppress(OSError):
        if path.stat().st_size > MAX_LOG_BYTES:
            os.replace(path, path.with_name(path.name + ".1"))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.write(fd, f"--- sayitout {time.strftime('%Y-%m-%d %H:%M:%S')} pid {os.getpid()}\n".encode())
    return fd


@contextlib.contextmanager
def native_stderr_to(path: Path) -> Iterator[Path | None]:
    """Send descriptor 2 to ``path`` while the block runs; Python's stderr stays on the
    terminal. Yields the log's path, or ``None`` when it could not be opened (then
    nothing changes: noise on the screen is better than no app)."""
    original = sys.__stderr__
    if original is None:
        yield None
        return
    try:
        original.flush()
        log_fd = _open_log(path)
    except (OSError, ValueError, SayitoutError):
        yield None
        return
    saved = os.dup(2)
    terminal = os.fdopen(
        saved,
        "w",
        encoding=getattr(original, "encoding", None) or "utf-8",
        errors="backslashreplace",
        buffering=1,  # line buffered, as stderr on a terminal
    )
    os.dup2(log_fd, 2)
    os.close(log_fd)
    was_stderr = sys.stderr
    fault_log = faulthandler.is_enabled()
    setattr(sys, "__stderr__", terminal)  # noqa: B010 (typeshed marks it Final)
    if was_stderr is original:  # not when --quiet has put /dev/null there
        sys.stderr = terminal
    if fault_log:  # a crash's stack still reaches the person who saw it
        faulthandler.enable(file=terminal)
    try:
        yield path
    finally:
        with contextlib.suppress(OSError, ValueError):
            terminal.flush()
        os.dup2(terminal.fileno(), 2)
        setattr(sys, "__stderr__", original)  # noqa: B010
        if sys.stderr is terminal:
            sys.stderr = was_stderr
        if fault_log:
            faulthandler.enable(file=original)
        terminal.close()
