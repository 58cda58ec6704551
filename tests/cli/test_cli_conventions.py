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
    # an option's values: its choices, or the bank's decks, questions and topics
    assert complete("report", "--format", "") == ["html", "md", "csv", "json"]
    assert complete("practice", "--deck", "") == ["deep-learning"]
    assert "dl-noisy-loss" in complete("practice", "--question", "dl-no")
    assert "overfitting" in complete("practice", "--topic", "over")


@pytest.mark.skipif(shutil.which("fish") is None, reason="no fish")
def test_fish_completion_completes_commands_options_and_values(capsys, tmp_path):
    assert main(["completion", "fish"]) == 0
    script = tmp_path / "sayitout.fish"
    script.write_text(capsys.readouterr().out)

    def complete(line: str) -> list[str]:
        run = f"source {script}; complete -C '{line}'"
        out = subprocess.run(["fish", "-c", run], capture_output=True, text=True).stdout
        return [row.split("\t")[0] for row in out.splitlines()]

    assert complete("sayitout hist") == ["history"]
    assert complete("sayitout history --sin") == ["--since"]
    assert complete("sayitout report --format ") == ["csv", "html", "json", "md"]
    assert complete("sayitout practice --deck ") == ["deep-learning"]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="no zsh")
def test_zsh_completion_script_parses(capsys, tmp_path):
    assert main(["completion", "zsh"]) == 0
    script = tmp_path / "_sayitout"
    script.write_text(capsys.readouterr().out)
    done = subprocess.run(["zsh", "-n", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "'--format[report format (default\\: html)]:format:(html md csv json)'" in (
        script.read_text()
    )


def test_a_mistyped_option_suggests_the_right_one_with_the_commands_usage(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["history", "--sinse", "3d"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: sayitout history")  # the command's usage, not the top's
    assert "did you mean '--since' for '--sinse'?" in err
    assert "run 'sayitout history --help'" in err


def test_q_is_quiet_and_the_old_question_short_name_still_works_with_a_note(capsys):
    parser = build_parser()
    args = parser.parse_args(["practice", "--question", "dl-noisy-loss", "--quiet"])
    assert args.question == ["dl-noisy-loss"] and args.quiet
    args = parser.parse_args(["practice", "-q", "dl-noisy-loss", "-q", "dl-initial-loss"])
    assert args.question == ["dl-noisy-loss", "dl-initial-loss"]
    assert "-q is now --question" in capsys.readouterr().err
    args = parser.parse_args(["transcribe", "a.wav", "-q", "dl-noisy-loss"])
    assert args.question == "dl-noisy-loss"


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
