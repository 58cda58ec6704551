"""The data dir (issue 13 §5): an unreadable one gives a clean message from every
command; under umask 000 everything sayitout creates is owner-only. (The History
screen's six-digit attempt counts: tests/tui/test_tui_history.py.)"""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from sayitout.cli import main
from sayitout.errors import StorageError
from sayitout.locations import ensure_dir, readable_dir

COMMANDS = [
    ["check"],
    ["questions"],
    ["report", "--format", "md", "-o", "-"],
    ["config"],
    ["history"],
    ["history", "--json"],
    ["score", "dl-fp16-nan", "--text", "loss scaling", "--save"],
]


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue() + err.getvalue()


@pytest.fixture
def blocked_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data dir the account cannot read, as mode 000 gives a user that is not root
    (root reads everything, so the refusal is simulated at the os.stat/os.access level)."""
    home = tmp_path / "home"
    data = home / "data"
    data.mkdir(parents=True)
    monkeypatch.setenv("SAYITOUT_HOME", str(home))
    real_stat, real_access = os.stat, os.access

    def inside(path: Any) -> bool:
        return str(path).startswith(str(data) + os.sep)

    def fake_stat(path: Any, *args: Any, **kw: Any) -> os.stat_result:
        if inside(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kw)

    def fake_access(path: Any, mode: int, *args: Any, **kw: Any) -> bool:
        if str(path) == str(data) or inside(path):
            return False
        return real_access(path, mode, *args, **kw)

    monkeypatch.setattr(os, "stat", fake_stat)
    monkeypatch.setattr(os, "access", fake_access)
    return data


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_unreadable_data_dir_gives_a_clean_message(argv: list[str], blocked_data_dir: Path) -> None:
    code, output = _run(argv)
    assert "Traceback" not in output and "PermissionError" not in output, output
    if argv[0] == "config":  # config does not read the data dir
        assert code == 0, output
        return
    assert code == 1, output
    assert f"Cannot read {blocked_data_dir}: Permission denied" in output, output
    assert "SAYITOUT_HOME" in output


def test_readable_dir_names_the_directory_that_blocks(blocked_data_dir: Path) -> None:
    assert readable_dir(blocked_data_dir.parent) is True
    assert readable_dir(blocked_data_dir.parent / "missing") is False
    with pytest.raises(StorageError, match=f"Cannot read {blocked_data_dir}:"):
        readable_dir(blocked_data_dir / "bank")
    with pytest.raises(StorageError, match=f"Cannot read {blocked_data_dir}:"):
        ensure_dir(blocked_data_dir / "recordings")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a mode-000 directory")
def test_mode_000_data_dir_for_real(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "home" / "data"
    data.mkdir(parents=True)
    data.chmod(0)
    monkeypatch.setenv("SAYITOUT_HOME", str(tmp_path / "home"))
    try:
        for argv in (["check"], ["history"]):
            code, output = _run(argv)
            assert code == 1 and f"Cannot read {data}" in output, output
    finally:
        data.chmod(0o700)


def test_everything_created_is_owner_only_under_umask_000(tmp_path: Path) -> None:
    home = tmp_path / "new" / "home"
    deck = tmp_path / "deck.txt"
    deck.write_text("What is overfitting?\nWhat does a learning rate do?\n", encoding="utf-8")
    go = tmp_path / "go"
    go.touch()
    driver = Path(__file__).with_name("concurrency_driver.py")
    env = {
        **os.environ,
        "SAYITOUT_HOME": str(home),
        "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"),
        "HF_HUB_OFFLINE": "1",
    }
    for argv in (
        ["history", "--json"],
        ["import", str(deck), "--deck", "mine"],
        ["score", "dl-fp16-nan", "--save", "--text", "loss scaling"],
        ["report", "--format", "md", "-o", str(home / "data" / "r.md")],
    ):
        done = subprocess.run(
            [sys.executable, str(driver), str(go), *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=lambda: os.umask(0),
        )
        assert done.returncode == 0, done.stderr
    created = [home, *home.rglob("*")]
    assert len(created) > 8
    assert home.parent.stat().st_mode & 0o077 == 0  # the missing parent too
    loose = [
        f"{stat.filemode(p.stat().st_mode)} {p}"
        for p in created
        if p.stat().st_mode & 0o077 and p.suffix not in (".md",)  # reports are for sharing
    ]
    assert not loose, loose
