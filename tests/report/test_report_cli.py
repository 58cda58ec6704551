from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sayitout.cli import main
from sayitout.store import Store
from support.synthetic import make_score, make_transcript

KPS = [("a", "Lower the learning rate", "covered"), ("b", "Clip the gradients", "missed")]


def seed(n: int = 3, qid: str = "dl-fp16-nan", days_ago: float = 0, rec: bool = False) -> list[int]:
    ids = []
    with Store.open() as store:
        for i in range(n):
            text = f"Answer {i}: lower the learning rate"
            path = None
            if rec:
                path = store.new_recording_path(qid)
                path.write_bytes(b"fLaC")
            ids.append(
                store.save_attempt(
                    None,
                    qid,
                    "deep-learning",
                    make_transcript(text),
                    make_score(qid, text, KPS, score=40 + i),
                    path,
                    created_at=datetime.now(UTC) - timedelta(days=days_ago, minutes=n - i),
                )
            )
    return ids


def test_history_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history"]) == 0
    assert "No attempts yet" in capsys.readouterr().out


def test_history_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    seed(3)
    seed(2, qid="dl-val-loss-rises", days_ago=10)
    assert main(["history", "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert "dl-fp16-nan" in out and "2 of 5 attempts shown" in out
    assert main(["history", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 5 and rows[0]["score"] == 42  # newest first
    assert rows[0]["question"].startswith("Training in fp16")  # from the built-in bank
    assert main(["history", "--json", "--since", "7d"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 3
    assert main(["history", "--json", "--question", "dl-val-loss-rises"]) == 0
    assert {r["question_id"] for r in json.loads(capsys.readouterr().out)} == {"dl-val-loss-rises"}
    assert main(["history", "--json", "--min-score", "41"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 3


def test_history_topic_filter_uses_the_bank(capsys: pytest.CaptureFixture[str]) -> None:
    seed(1)
    seed(1, qid="dl-val-loss-rises")
    assert main(["history", "--json", "--topic", "overfitting"]) == 0
    assert {r["question_id"] for r in json.loads(capsys.readouterr().out)} == {"dl-val-loss-rises"}
    assert main(["history", "--topic", "no-such-topic"]) == 2
    assert "No question has the topic" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["2026-13-01", "last week", "7x", "yesterdayish"])
def test_history_bad_date_exits_2_with_the_format(
    bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["history", "--since", bad])
    assert exit_.value.code == 2
    assert "YYYY-MM-DD" in capsys.readouterr().err


def test_history_one_attempt_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    (aid,) = seed(1, rec=True)
    assert main(["history", "--attempt", str(aid)]) == 0
    out = capsys.readouterr().out
    assert "Score 40/100" in out and "✓ Lower the learning rate" in out and "✗ Clip" in out
    assert "audio file is gone" not in out
    with Store.open() as store:
        path = store.attempt(aid).recording_path
    assert path is not None
    path.unlink()
    assert main(["history", "--attempt", str(aid), "--json"]) == 0
    detail = json.loads(capsys.readouterr().out)
    assert detail["recording_exists"] is False and detail["score_detail"]["score"] == 40
    assert main(["history", "--attempt", str(aid)]) == 0
    assert "the audio file is gone" in capsys.readouterr().out
    assert main(["history", "--attempt", "999"]) == 2
    assert "No attempt with id 999" in capsys.readouterr().err


def test_history_marks_points_made_when_prompted(capsys: pytest.CaptureFixture[str]) -> None:
    """A point a follow-up reply made reads "prompted", and one made in a reply about
    another point reads as also made there, not as a second follow-up."""
    import dataclasses

    from sayitout.scoring.result import FollowUpResult

    qid, text = "dl-fp16-nan", "lower the learning rate"
    reply = "I'd clip the gradients, and add warmup."
    score = make_score(qid, text, [*KPS, ("c", "Add warmup", "missed")], score=40)
    asked = FollowUpResult("b", "What stops one bad batch?", reply, "covered", 0.8, reply, 5.0)
    also = dataclasses.replace(asked, key_point_id="c", evidence="add warmup", volunteered=True)
    score = dataclasses.replace(score, score=50, follow_ups=(asked, also))
    with Store.open() as store:
        aid = store.save_attempt(None, qid, "deep-learning", make_transcript(text), score, None)
    assert main(["history", "--attempt", str(aid)]) == 0
    out = capsys.readouterr().out
    assert "↪ prompted: Clip the gradients" in out and "↪ prompted: Add warmup" in out
    assert out.count("Follow-up: ") == 1 and 'also made: "add warmup" (+5 prompted)' in out


def test_report_command_writes_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(3)
    monkeypatch.chdir(tmp_path)
    assert main(["report"]) == 0
    written = list(tmp_path.glob("sayitout-report-*.html"))
    assert len(written) == 1 and "<svg" in written[0].read_text()
    assert main(["report", "--format", "csv", "-o", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out.csv").read_text().count("\n") == 4
    capsys.readouterr()
    assert main(["report", "--format", "json", "-o", "-"]) == 0
    assert len(json.loads(capsys.readouterr().out)["attempts"]) == 3
    assert main(["report", "-o", str(tmp_path / "nope" / "r.html")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_report_empty_history_is_friendly(tmp_path: Path) -> None:
    out = tmp_path / "r.md"
    assert main(["report", "--format", "md", "-o", str(out)]) == 0
    assert "No attempts yet" in out.read_text()
