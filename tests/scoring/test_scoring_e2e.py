"""End to end: a spoken answer (bundled piper voice) -> real ASR -> scored, via the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sayitout.cli import main, score_cmds

pytestmark = pytest.mark.e2e
FIXTURES = Path(__file__).parent / "fixtures"


def test_spoken_answer_is_transcribed_and_scored(
    scorer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    synth = pytest.importorskip("support.speech_synth")
    sf = pytest.importorskip("soundfile")
    audio = synth.speak_answer(
        "The loss is jumping around because the learning rate is too high. "
        "I would lower the learning rate by ten times, and add gradient clipping."
    )
    wav = tmp_path / "answer.wav"
    sf.write(wav, audio, synth.SAMPLE_RATE)
    monkeypatch.setattr(score_cmds, "_scorer", lambda args: scorer)
    rc = main(
        ["score", "--rubric", str(FIXTURES / "lr-too-high.yaml"), "--audio", str(wav), "--json"]
    )
    assert rc == 0
    d = json.loads(capsys.readouterr().out)
    assert "learning rate" in d["transcript"]["text"].lower()
    assert d["transcript"]["words"]
    assert d["delivery"]["words"] >= 15
    assert 80 <= d["delivery"]["words_per_minute"] <= 260
    statuses = {k["id"]: k["status"] for k in d["key_points"]}
    assert statuses["lower-lr"] == "covered"
    assert not d["misconceptions"]
    assert d["score"] >= 60
