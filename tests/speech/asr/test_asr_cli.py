"""``sayitout transcribe`` and ``sayitout doctor``."""

from __future__ import annotations

import json
import wave

import numpy as np
import pytest

from sayitout.cli import main


def write_wav(path, audio: np.ndarray, rate: int = 16_000) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes((audio * 32767).astype("<i2").tobytes())


def bad_files(tmp_path):
    empty = tmp_path / "empty.wav"
    empty.write_bytes(b"")
    text = tmp_path / "notes.wav"
    text.write_text("these are my notes, not audio\n" * 20)
    zero = tmp_path / "zero.wav"
    write_wav(zero, np.zeros(0, dtype=np.float32))
    good = tmp_path / "good.wav"
    write_wav(good, np.zeros(16_000, dtype=np.float32))
    truncated = tmp_path / "truncated.wav"
    truncated.write_bytes(good.read_bytes()[:30])  # cut inside the header
    return {
        "empty": empty,
        "text": text,
        "zero": zero,
        "truncated": truncated,
        "missing": tmp_path / "missing.wav",
    }


@pytest.mark.parametrize("kind", ["empty", "text", "zero", "truncated", "missing"])
def test_bad_audio_file_is_a_clear_error(tmp_path, capsys, kind):
    path = bad_files(tmp_path)[kind]
    assert main(["transcribe", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sayitout: ") and path.name in err
    assert "fix:" in err
    assert "Traceback" not in err


def test_bad_beam_is_a_usage_error(tmp_path, capsys):
    assert main(["transcribe", str(tmp_path / "x.wav"), "--beam", "0"]) == 2
    assert "--beam" in capsys.readouterr().err


@pytest.mark.e2e
def test_transcribe_json(shared_speech, capsys):
    clip = shared_speech / "jfk_inaugural.wav"
    assert main(["transcribe", str(clip), "--json", "--model", "tiny.en", "--beam", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "ask not what your country" in out["text"].lower()
    assert out["model"] == "tiny.en" and out["device"] in ("cpu", "cuda")
    assert out["duration"] == pytest.approx(11.0, abs=0.1)
    assert out["beam_size"] == 1
    words = out["words"]
    assert len(words) > 15 and all({"text", "start", "end", "probability"} <= set(w) for w in words)


@pytest.mark.e2e
def test_transcribe_text_and_silence(shared_speech, tmp_path, capsys):
    assert main(["transcribe", str(shared_speech / "cmu_goforward.wav")]) == 0
    assert "forward" in capsys.readouterr().out.lower()
    silent = tmp_path / "silent.wav"
    write_wav(silent, np.zeros(3 * 16_000, dtype=np.float32))
    assert main(["transcribe", str(silent)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "no speech detected" in captured.err


def test_doctor_exit_codes_follow_typed_practice(monkeypatch, capsys):
    from sayitout.cli import speech_cmds as sc

    def fake_checks(fail_scoring: bool):
        def report():
            rep = sc._Report()
            rep.add(sc.PASS, "data dir writable", "/tmp/x")
            if fail_scoring:
                rep.add(sc.FAIL, "scoring model", "cannot load", "reinstall it")
            rep.add(sc.WARN, "audio input device", "none found", "plug in a microphone")
            return rep

        return report

    monkeypatch.setattr(sc, "doctor_report", fake_checks(False))
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "WARN  audio input device" in out and "fix: plug in a microphone" in out
    monkeypatch.setattr(sc, "doctor_report", fake_checks(True))
    assert main(["doctor"]) == 1
    assert "FAIL  scoring model" in capsys.readouterr().out


def test_doctor_reports_an_unwritable_data_dir(monkeypatch, tmp_path):
    from sayitout.cli import speech_cmds as sc

    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("SAYITOUT_HOME", str(blocker))  # a file where a directory should be
    rep = sc._Report()
    sc._check_data_dir(rep)
    assert rep.rows[0]["status"] == sc.FAIL and rep.rows[0]["fix"]


@pytest.mark.e2e
def test_doctor_for_real(capsys, monkeypatch):
    monkeypatch.delenv("SAYITOUT_EMBEDDER", raising=False)
    code = main(["doctor", "--json"])
    out = json.loads(capsys.readouterr().out)
    names = {r["check"]: r for r in out["checks"]}
    for check in ("speech model tiny.en", "speech model base", "data dir writable", "GPU"):
        assert names[check]["status"] == "PASS", names[check]
    assert any(name.startswith("scoring model") for name in names)
    scoring = names["scoring model all-MiniLM-L6-v2"]
    assert scoring["status"] == "PASS" and "(int8)" in scoring["detail"], scoring
    assert any(name.startswith("TTS") for name in names)
    assert any(name.startswith("audio") for name in names)
    assert code == (1 if any(r["status"] == "FAIL" for r in out["checks"]) else 0)
