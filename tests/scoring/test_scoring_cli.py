"""``sayitout score``: single answers, ad-hoc rubrics, audio, --save and batch mode.

The CLI builds its own Scorer; the tests hand it the session's (already loaded) one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sayitout.cli import main, score_cmds
from sayitout.speech.transcript import Transcript, Word

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def shared_scorer(scorer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(score_cmds, "_scorer", lambda args: scorer)


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        [
            "score",
            "--rubric",
            str(FIXTURES / "lr-too-high.yaml"),
            "--text",
            "I'd lower the learning rate and add gradient clipping",
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert out.startswith("test-lr-too-high: ")
    assert "Key points:" in out
    assert "[x] covered" in out
    assert '"' in out  # the quote that earned the credit


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        [
            "score",
            "--rubric",
            str(FIXTURES / "pass-minutes.yaml"),
            "--json",
            "--text",
            "so about forty one point seven minutes",
        ]
    )
    assert rc == 0
    d = json.loads(capsys.readouterr().out)
    for key in ("score", "verdict", "key_points", "numeric", "misconceptions"):
        assert key in d
    assert {"id", "status", "similarity", "evidence"} <= set(d["key_points"][0])
    assert d["numeric"]["correct"] is True
    assert "transcript" not in d


QUESTION = "Should you lower the learning rate when the loss swings wildly from step to step"


def test_an_adhoc_rubric_is_told_its_question(capsys: pytest.CaptureFixture[str]) -> None:
    rubric = str(FIXTURES / "lr-too-high.yaml")
    read_back = QUESTION.lower()  # typed back, without the question mark
    assert main(["score", "--rubric", rubric, "--json", "--text", read_back]) == 0
    unknown = json.loads(capsys.readouterr().out)
    argv = ["score", "--rubric", rubric, "--question", QUESTION + "?", "--json"]
    assert main([*argv, "--text", read_back]) == 0
    told = json.loads(capsys.readouterr().out)
    assert told["score"] < unknown["score"]
    assert main(["score", "dl-noisy-loss", "--question", "x", "--text", "hi"]) == 2
    assert "--question goes with --rubric" in capsys.readouterr().err


def test_a_batch_line_can_carry_its_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = str(FIXTURES / "lr-too-high.yaml")
    lines = [
        {"rubric": rubric, "answer": QUESTION.lower()},
        {"rubric": rubric, "question": QUESTION + "?", "answer": QUESTION.lower()},
    ]
    batch = tmp_path / "in.jsonl"
    batch.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["score", "--batch", str(batch)]) == 0
    unknown, told = (json.loads(x) for x in capsys.readouterr().out.splitlines())
    assert told["score"] < unknown["score"]
    assert main(["score", "--batch", str(batch), "--question", "x"]) == 2


def test_bank_question(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["score", "dl-noisy-loss", "--json", "--text", "lower the learning rate"])
    assert rc == 0
    assert json.loads(capsys.readouterr().out)["question_id"] == "dl-noisy-loss"


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "no-such-question", "--text", "hi"],
        ["score", "dl-noisy-loss"],
        ["score", "--text", "hi"],
        ["score", "dl-noisy-loss", "--text", "hi", "-o", "x.jsonl"],
        ["score", "--batch", "missing.jsonl"],
        ["score", "--rubric", "missing.yaml", "--text", "hi"],
        ["score", "dl-noisy-loss", "--audio", "missing.wav"],
    ],
)
def test_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("sayitout: ")
    assert "Traceback" not in err


def test_malformed_rubric_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("question_id: x\nkey_points: [\n")
    assert main(["score", "--rubric", str(bad), "--text", "hi"]) == 2
    assert "bad.yaml" in capsys.readouterr().err


def test_audio_adds_transcript_and_delivery(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    audio = tmp_path / "answer.wav"
    audio.write_bytes(b"RIFF")
    seen: dict = {}

    def fake_transcribe(path: Path, rubric) -> Transcript:
        seen["terms"] = rubric.all_terms()
        words = [
            Word(w, 0.6 + 0.4 * i, 0.9 + 0.4 * i)
            for i, w in enumerate(["um", "lower", "the", "learning", "rate"])
        ]
        return Transcript(
            text="um lower the learning rate", words=tuple(words), duration=3.0, model="tiny.en"
        )

    monkeypatch.setattr(score_cmds, "_transcribe", fake_transcribe)
    rc = main(
        ["score", "--rubric", str(FIXTURES / "lr-too-high.yaml"), "--audio", str(audio), "--json"]
    )
    assert rc == 0
    d = json.loads(capsys.readouterr().out)
    assert d["transcript"]["text"] == "um lower the learning rate"
    assert d["delivery"]["fillers"] == {"um": 1}
    assert "learning rate" in seen["terms"]


def test_save_stores_the_attempt(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["score", "dl-noisy-loss", "--save", "--text", "lower the learning rate"])
    assert rc == 0
    assert "saved as attempt" in capsys.readouterr().err
    from sayitout.store import Store

    store = Store.open()
    try:
        last = store.last_attempt("dl-noisy-loss")
    finally:
        store.close()
    assert last is not None


def test_batch_with_a_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "in.jsonl"
    lines = [
        {"question_id": "dl-noisy-loss", "answer": "lower the learning rate"},
        "this is not json",
        {"rubric": str(FIXTURES / "pass-minutes.yaml"), "answer": "about forty two minutes"},
        {"question_id": "no-such-question", "answer": "x"},
        {"answer": "no question"},
        {"rubric": "pass-minutes.yaml", "answer": "twenty five hundred minutes"},
    ]
    (tmp_path / "pass-minutes.yaml").write_text((FIXTURES / "pass-minutes.yaml").read_text())
    batch.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n\n")
    out = tmp_path / "out.jsonl"
    rc = main(["score", "--batch", str(batch), "-o", str(out)])
    assert rc == 1
    results = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(results) == 6
    assert results[0]["question_id"] == "dl-noisy-loss"
    assert results[1] == {"line": 2, "error": results[1]["error"]}
    assert "JSON" in results[1]["error"]
    assert results[2]["numeric"]["correct"] is True
    assert results[3]["line"] == 4 and "no-such-question" in results[3]["error"]
    assert results[4]["line"] == 5
    assert results[5]["numeric"]["correct"] is False  # rubric path relative to the batch file
    assert "3 of 6 lines" in capsys.readouterr().err


def test_batch_all_good_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "in.jsonl"
    batch.write_text(json.dumps({"question_id": "dl-noisy-loss", "answer": "lower it"}) + "\n")
    assert main(["score", "--batch", str(batch)]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert "score" in json.loads(line)
