"""While the app runs, C libraries' stderr lines go to a log, not over the screen."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sayitout.native_stderr import MAX_LOG_BYTES, native_stderr_to

ALSA = b"ALSA lib pcm.c:8526:(snd_pcm_recover) underrun occurred\n"


def test_native_lines_go_to_the_log_and_python_still_reaches_the_terminal(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "logs" / "audio.log"
    before = sys.__stderr__
    with native_stderr_to(log) as where:
        assert where == log
        os.write(2, ALSA)  # what ALSA and PortAudio do: write(2, ...) under Python
        sys.__stderr__.write("drawn by the app\n")  # Textual draws on sys.__stderr__
        sys.__stderr__.flush()
    os.write(2, b"after the app\n")
    err = capfd.readouterr().err
    assert "underrun" not in err
    assert "drawn by the app" in err and "after the app" in err
    assert "underrun occurred" in log.read_text()
    assert sys.__stderr__ is before  # put back as it was
    assert oct(log.stat().st_mode & 0o777) == "0o600"


def test_a_traceback_after_the_block_reaches_the_terminal(tmp_path: Path) -> None:
    """The process as a user runs it: the native line is logged, the crash is seen."""
    log = tmp_path / "audio.log"
    script = textwrap.dedent(
        f"""
        import os
        from pathlib import Path
        from sayitout.native_stderr import native_stderr_to
        with native_stderr_to(Path({str(log)!r})):
            os.write(2, {ALSA!r})
            raise RuntimeError("something broke in the app")
        """
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "Traceback" in done.stderr and "something broke in the app" in done.stderr
    assert "underrun" not in done.stderr
    assert "underrun occurred" in log.read_text()


def test_a_log_that_cannot_be_opened_changes_nothing(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with native_stderr_to(blocker / "audio.log") as where:
        assert where is None
        os.write(2, b"still on the terminal\n")
    assert "still on the terminal" in capfd.readouterr().err


def test_a_long_log_is_moved_aside(tmp_path: Path) -> None:
    log = tmp_path / "audio.log"
    log.write_bytes(b"x" * (MAX_LOG_BYTES + 1))
    with native_stderr_to(log):
        os.write(2, ALSA)
    assert (tmp_path / "audio.log.1").stat().st_size > MAX_LOG_BYTES
    assert log.stat().st_size < 1000 and "underrun" in log.read_text()
