"""Files and terminals: long recordings decode in pieces, damaged samples name the file,
a killed report leaves nothing behind, the app without a terminal says what to use."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import textwrap
import wave
from pathlib import Path

import numpy as np
import pytest

from sayitout.errors import AudioError, UsageError
from sayitout.speech.audio.decode import TARGET_RATE, iter_audio_windows, load_audio

REPO_ROOT = Path(__file__).resolve().parents[2]


def _wav(path: Path, audio: np.ndarray) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(TARGET_RATE)
        w.writeframes((np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes())
    return path


def test_long_files_come_in_pieces_cut_in_the_quiet(tmp_path: Path) -> None:
    t = np.arange(70 * TARGET_RATE) / TARGET_RATE
    audio = 0.3 * np.sin(2 * np.pi * 220 * t)
    audio[(t > 27.0) & (t < 27.6)] = 0.0  # a pause between words near the first cut
    path = _wav(tmp_path / "long.wav", audio)
    pieces = list(iter_audio_windows(path, window_s=30, search_s=5))
    assert len(pieces) == 3
    whole = load_audio(path)
    assert np.array_equal(np.concatenate([a for _, a in pieces]), whole)
    offsets = [o for o, _ in pieces]
    assert offsets[0] == 0 and 27.0 < offsets[1] < 27.6
    assert all(a.size <= 30 * TARGET_RATE for _, a in pieces)
    for (o, a), (nxt, _) in itertools.pairwise(pieces):
        assert abs(o + a.size / TARGET_RATE - nxt) < 1e-9


def test_a_short_file_is_one_piece(tmp_path: Path) -> None:
    path = _wav(tmp_path / "short.wav", np.full(TARGET_RATE, 0.1))
    ((offset, audio),) = list(iter_audio_windows(path))
    assert offset == 0 and audio.size == TARGET_RATE


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("rate", [16000, 44100])
def test_nan_or_infinite_samples_name_the_file(tmp_path: Path, bad: float, rate: int) -> None:
    import soundfile as sf

    audio = (0.2 * np.sin(np.arange(rate * 2) / 9)).astype("float32")
    audio[rate] = bad
    path = tmp_path / "float-answer.wav"
    sf.write(str(path), audio, rate, subtype="FLOAT")
    with pytest.raises(AudioError, match=r"float-answer\.wav") as info:
        load_audio(path)
    assert "NaN or infinity" in info.value.message and "1.0 s" in info.value.message


def test_a_report_killed_by_sigterm_leaves_no_temporary_file(tmp_path: Path) -> None:
    """The write is made to send SIGTERM to its own process half-way."""
    script = textwrap.dedent(
        f"""
        import os, signal, time
        from pathlib import Path
        from sayitout.report import export

        real_fdopen = os.fdopen

        class Dying:
            def __init__(self, f):
                self.f = f
            def __enter__(self):
                return self
            def __exit__(self, *a):
                self.f.close()
            def write(self, text):
                self.f.write(text[: len(text) // 2])
                self.f.flush()
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)

        def fdopen(fd, *a, **k):  # only the report's own temporary file dies
            f = real_fdopen(fd, *a, **k)
            name = os.readlink(f"/proc/self/fd/{{fd}}")
            return Dying(f) if ".sayitout-report-" in name else f

        export.os.fdopen = fdopen
        export._atomic_write(Path({str(tmp_path / "report.html")!r}), "x" * 100000)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "src")}
    proc = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 128 + signal.SIGTERM, proc.stderr
    assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_practice_without_a_terminal_exits_with_what_to_use() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT / "src"), "HF_HUB_OFFLINE": "1"}
    for argv in (["practice"], []):
        proc = subprocess.run(
            [sys.executable, "-m", "sayitout", *argv],
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2, proc.stderr
        assert "--mic-file" in proc.stderr and "sayitout score" in proc.stderr
        assert "terminal" in proc.stderr


def test_require_terminal_names_the_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from sayitout.cli.practice_cmd import require_terminal

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Tty())
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    with pytest.raises(UsageError, match="output is not one"):
        require_terminal("practice")
    monkeypatch.setattr(sys, "stdout", Tty())
    require_terminal("practice")
