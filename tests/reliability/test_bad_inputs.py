"""Every bad input in the catalogue gets a clear message, the right exit code, no traceback.

The cases live in ``bad_inputs_catalogue.py`` (one table); ``render_doc.py`` turns the
same table plus the figures recorded here into ``docs/reliability.md``.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reliability.bad_inputs_catalogue import CASES, Case
from reliability.results_file import record_case

REPO_ROOT = Path(__file__).resolve().parents[2]


def _run_inprocess(
    argv: list[str], env: dict[str, str], monkeypatch: pytest.MonkeyPatch, stdin: bytes = b""
) -> tuple[int, str]:
    from sayitout.cli import main

    for k, v in env.items():
        monkeypatch.setenv(k, v)
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue() + err.getvalue()


def _run_subprocess(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> tuple[int, str]:
    full = {**os.environ, **env, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "sayitout", *argv],
        capture_output=True,
        env=full,
        input=stdin,
        timeout=300,
        cwd=REPO_ROOT,
    )
    return proc.returncode, (proc.stdout + proc.stderr).decode("utf-8", "replace")


def _headline(output: str, expect: tuple[str, ...]) -> str:
    """The output line that best shows the message: the most expected words, else an error."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    if not lines:
        return ""

    def rank(ln: str) -> tuple[int, int]:
        low = ln.lower()
        hits = sum(n.lower() in low for n in expect)
        return hits, int("error" in low or low.startswith("sayitout:"))

    best = max(lines, key=rank)
    return best if rank(best) != (0, 0) else lines[0]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    argv, env = case.build(tmp_path)
    if case.subprocess:
        code, output = _run_subprocess(argv, env, case.stdin)
    else:
        code, output = _run_inprocess(argv, env, monkeypatch, case.stdin)
    first = _headline(output, case.expect)
    record_case(
        "bad_inputs",
        case.id,
        {"exit": code, "message": first.replace(str(tmp_path), "<tmp>")[:200], "passed": False},
    )
    assert "Traceback" not in output, output
    assert code == case.exit, f"exit {code}, expected {case.exit}:\n{output}"
    lowered = output.lower()
    for needle in case.expect:
        assert needle.lower() in lowered, f"{needle!r} not in:\n{output}"
    if case.after is not None:
        problem = case.after(tmp_path)
        assert problem is None, f"{problem}:\n{output}"
    if case.id == "home-missing":
        data = Path(env["SAYITOUT_HOME"]) / "data"
        assert data.is_dir() and (data.stat().st_mode & 0o077) == 0, oct(data.stat().st_mode)
    record_case(
        "bad_inputs",
        case.id,
        {"exit": code, "message": first.replace(str(tmp_path), "<tmp>")[:200], "passed": True},
    )


def test_catalogue_is_big_enough() -> None:
    assert len(CASES) >= 30
    assert len({c.id for c in CASES}) == len(CASES)
    assert sum(c.subprocess for c in CASES) >= 3
