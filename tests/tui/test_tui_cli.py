"""``sayitout practice`` and ``sayitout config``: argument checks and output."""

from __future__ import annotations

from sayitout.cli import main


def test_practice_rejects_a_missing_mic_file(capsys, tmp_path):
    code = main(["practice", "--mic-file", str(tmp_path / "nope.wav"), "--tts", "none"])
    err = capsys.readouterr().err
    assert code == 2
    assert "nope.wav" in err and "fix:" in err


def test_practice_rejects_a_bad_count(capsys):
    assert main(["practice", "--count", "0"]) == 2
    assert "--count" in capsys.readouterr().err


def test_no_command_opens_the_app(monkeypatch):
    import sayitout.cli.practice_cmd as practice

    seen = {}
    monkeypatch.setattr(practice, "_run_app", lambda args, plan: seen.setdefault("plan", plan))
    assert main([]) is not None
    assert seen == {"plan": None}


def test_config_prints_defaults_path_and_current(capsys, sayitout_home):
    assert main(["config", "--path"]) == 0
    path = capsys.readouterr().out.strip()
    assert path == str(sayitout_home / "config" / "config.toml")
    assert main(["config", "--defaults"]) == 0
    out = capsys.readouterr().out
    assert "[audio]" in out and "silence_timeout_s = 4.0" in out
    (sayitout_home / "config").mkdir(parents=True, exist_ok=True)
    (sayitout_home / "config" / "config.toml").write_text("[practice]\ncount = 7\n")
    assert main(["config"]) == 0
    assert "count = 7" in capsys.readouterr().out
    (sayitout_home / "config" / "config.toml").write_text("[practice]\ncount = 'x'\n")
    assert main(["config"]) == 2
    assert "practice.count" in capsys.readouterr().err
