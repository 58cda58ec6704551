"""The one progress line of long CLI work: rate and time left, on a terminal only."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sayitout.cli.progress import Progress, duration, loading, on_terminal, stages


class Tty(io.StringIO):
    """A terminal, as far as ``isatty`` tells."""

    def isatty(self) -> bool:
        return True


def clock(*times: float):
    it = iter(times)
    return lambda: next(it)


def test_rate_and_time_left_from_the_first_update_on() -> None:
    out = Tty()
    bar = Progress("scoring", 100, unit="lines", stream=out, clock=clock(0.0, 10.0, 15.0, 30.0))
    bar.update(25)  # the first chunk waited for the model: its rate is from the start
    assert out.getvalue().endswith("scoring 25/100 lines · 2.5 lines/s · about 30 s left")
    bar.update(50)  # from then on, the rate since the first update
    assert out.getvalue().endswith("scoring 50/100 lines · 5.0 lines/s · about 10 s left")
    bar.update(100)
    assert out.getvalue().endswith("scoring 100/100 lines · 3.8 lines/s")  # nothing left
    bar.close()
    assert out.getvalue().endswith("\r\x1b[K")  # the line is cleared: the terminal is as before


def test_the_last_figures_can_stay_as_a_summary() -> None:
    out = Tty()
    bar = Progress("scoring", 4, unit="lines", stream=out, clock=clock(0.0, 1.0, 2.0, 2.0))
    bar.update(1)
    bar.update(4)
    bar.close(keep=True)
    # 3 lines in the second since the first update
    assert out.getvalue().endswith("\r\x1b[Kscoring 4/4 lines · 3.0 lines/s\n")


def test_under_a_second_left_reads_plainly() -> None:
    out = Tty()
    bar = Progress("scoring", 100, stream=out, clock=clock(0.0, 1.0))
    bar.update(99)
    assert out.getvalue().endswith("under 1 s left")
    assert "about under" not in out.getvalue()


def test_without_a_known_end_there_is_a_rate_but_no_time_left() -> None:
    out = Tty()
    bar = Progress("scoring", unit="lines", stream=out, clock=clock(0.0, 4.0))
    bar.update(8)
    assert out.getvalue().endswith("scoring 8 lines · 2.0 lines/s")
    assert "left" not in out.getvalue()


def test_nothing_before_the_first_item_is_done_but_the_count() -> None:
    out = Tty()
    bar = Progress("rescoring", unit="attempts", stream=out, clock=clock(0.0, 1.0))
    bar.update(0, 300)
    assert out.getvalue().endswith("rescoring 0/300 attempts")


def test_a_custom_rate_reads_as_given() -> None:
    out = Tty()
    bar = Progress("transcribing", 600, unit="s", rate_unit="× real time", stream=out)
    bar.clock, bar.started = clock(10.0, 20.0), 0.0
    bar.update(30)
    bar.update(90)
    assert out.getvalue().endswith(
        "transcribing 90/600 s · 6.0 × real time · about 1 min 25 s left"
    )


def test_not_a_terminal_gets_nothing() -> None:
    out = io.StringIO()  # a pipe or a file: isatty() is False
    with Progress("scoring", 10, stream=out) as bar:
        for n in range(11):
            bar.update(n)
    with loading("loading the model", stream=out):
        pass
    assert out.getvalue() == ""
    assert not on_terminal(out) and on_terminal(Tty()) and not on_terminal(None)


def test_quick_updates_are_drawn_at_most_ten_times_a_second_but_the_last_always() -> None:
    out = Tty()
    times = [0.0] + [1.0 + i * 0.001 for i in range(100)]
    bar = Progress("scoring", 100, stream=out, clock=clock(*times))
    for n in range(1, 101):
        bar.update(n)
    drawn = out.getvalue().count("\r\x1b[K")
    assert drawn == 2  # the first, then the last (100/100) at once
    assert out.getvalue().rsplit("\r\x1b[K", 1)[1].startswith("scoring 100/100 · ")


def test_a_closed_terminal_stops_the_line_without_an_error() -> None:
    out = Tty()
    out.close()
    bar = Progress("scoring", 10, stream=out, enabled=True)
    bar.update(1)  # ValueError: I/O operation on closed file, swallowed
    bar.close()
    assert not bar.enabled


def test_report_stages_show_percent_and_time_left() -> None:
    out = Tty()
    bar = Progress("writing the report", stream=out, clock=clock(0.0, 1.0, 2.0))
    show = stages(bar, "writing the report")
    show(0.25, "reading attempts")
    assert out.getvalue().endswith("writing the report: reading attempts 25% · about 3 s left")
    show(0.5, "scoring topics")
    assert out.getvalue().endswith("writing the report: scoring topics 50% · about 2 s left")


def test_loading_counts_seconds_on_a_terminal_and_clears_the_line() -> None:
    out = Tty()
    with loading("loading the scoring model", stream=out):
        time.sleep(0.6)
    text = out.getvalue()
    assert "loading the scoring model…" in text and "loading the scoring model… 0 s" in text
    assert text.endswith("\r\x1b[K")


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0.2, "under 1 s"), (25, "25 s"), (185, "3 min 05 s"), (3720, "1 h 02 min")],
)
def test_durations_read_naturally(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def _report(args: list[str], home: Path, *, tty: bool) -> str:
    """Run ``sayitout report`` with stderr on a pseudo-terminal (or a pipe); its stderr."""
    env = {**os.environ, "SAYITOUT_HOME": str(home), "PYTHONPATH": os.pathsep.join(sys.path)}
    if not tty:
        done = subprocess.run(
            [sys.executable, "-m", "sayitout", *args], env=env, capture_output=True, timeout=120
        )
        return done.stderr.decode()
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sayitout", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=child,
    )
    os.close(child)
    chunks = []
    while True:
        try:
            data = os.read(main, 4096)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(main)
    return b"".join(chunks).decode()


def test_report_shows_progress_on_a_terminal_only(tmp_path: Path) -> None:
    """As a user: the line shows on a terminal; a pipe and --quiet get none."""
    out = tmp_path / "r.csv"
    on_tty = _report(["report", "--format", "csv", "-o", str(out)], tmp_path, tty=True)
    assert "writing the report: reading attempts 10%" in on_tty
    assert on_tty.rstrip("\r\n").endswith("\x1b[K")  # cleared before the summary line
    piped = _report(["report", "--format", "csv", "-o", str(out)], tmp_path, tty=False)
    assert "writing the report" not in piped
    quiet = _report(["--quiet", "report", "--format", "csv", "-o", str(out)], tmp_path, tty=True)
    assert "writing the report" not in quiet
