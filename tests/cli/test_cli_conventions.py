"""The command line behaves like a well-made tool: did-you-mean, --verbose/--quiet,
shell completion, colour only where wanted, and one meaning per flag."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from sayitout.cli import build_parser, main
from sayitout.cli.style import paint, use_colour


def test_mistyped_command_suggests_the_right_one(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["scroe", "x"])
    assert exit_info.value.code == 2
    assert "did you mean 'score'?" in capsys.readouterr().err


def test_help_has_examples_locations_and_exit_codes(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SAYITOUT_HOME", str(tmp_path))
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and "exit codes:" in out
    assert str(tmp_path) in out  # where settings and history live, resolved


def test_quiet_and_verbose_accepted_before_and_after_the_command(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SAYITOUT_HOME", str(tmp_path))
    for argv in (["-q", "config", "--path"], ["config", "--quiet", "--path"],
                 ["config", "--verbose", "--path"], ["-v", "config", "--path"]):  # fmt: skip
        assert main(argv) == 0
        assert capsys.readouterr().out.strip().endswith("config.toml")


def test_quiet_silences_notes_but_not_errors(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SAYITOUT_HOME", str(tmp_path))
    assert main(["-q", "history", "--attempt", "999"]) == 2
    assert "sayitout:" in capsys.readouterr().err


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_name_every_command(capsys, shell):
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    sub = next(a for a in build_parser()._actions if hasattr(a, "choices") and a.choices)
    for command in sub.choices:
        assert command in script
    assert "answer-limit" in script and "since" in script


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completion_completes_commands_and_options(capsys):
    assert main(["completion", "bash"]) == 0
    script = capsys.readouterr().out

    def complete(*words: str) -> list[str]:
        line = " ".join(f"'{w}'" for w in words)
        run = (
            f"{script}\nCOMP_WORDS=(sayitout {line}); COMP_CWORD={len(words)}; "
            '_sayitout; printf "%s\\n" "${COMPREPLY[@]}"'
        )
        return subprocess.run(["bash", "-c", run], capture_output=True, text=True).stdout.split()

    assert complete("sco") == ["score"]
    assert "--batch" in complete("score", "--ba")
    assert complete("history", "--sin") == ["--since"]


def test_colour_honours_no_color(monkeypatch):
    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour(Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Tty())
    assert paint("PASS", "green", enabled=False) == "PASS"
    assert paint("PASS", "green", enabled=True) == "\033[32mPASS\033[0m"


def test_practice_limit_is_now_answer_limit_and_the_old_name_still_works(capsys):
    parser = build_parser()
    args = parser.parse_args(["practice", "--answer-limit", "90"])
    assert args.answer_limit == 90
    args = parser.parse_args(["practice", "--limit", "45"])
    assert args.answer_limit == 45
    assert "--answer-limit" in capsys.readouterr().err  # the deprecation note


def test_score_text_on_the_cpu_never_imports_torch(tmp_path):
    """The cold start of `sayitout score --text` stays short: MiniLM runs on NumPy."""
    import os
    import sys

    code = (
        "import sys\n"
        "from sayitout.cli import main\n"
        "rc = main(['score', 'dl-noisy-loss', '--text', 'lower the learning rate', '--device', "
        "'cpu', '--json'])\n"
        "heavy = sorted(m for m in ('torch', 'sentence_transformers', 'transformers') "
        "if m in sys.modules)\n"
        "print('HEAVY', heavy, rc)\n"
    )
    env = {**os.environ, "SAYITOUT_HOME": str(tmp_path), "HF_HUB_OFFLINE": "1"}
    env.pop("SAYITOUT_EMBEDDER", None)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert "HEAVY [] 0" in out.stdout, out.stdout + out.stderr
