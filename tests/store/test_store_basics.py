from __future__ import annotations

import json
import sqlite3
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sayitout.errors import StorageError, UsageError
from sayitout.store import AttemptFilter, Store, coverage_of
from sayitout.store.schema import schema_version
from support.synthetic import make_score, make_transcript

KPS = [("lower-lr", "Lower the learning rate", "covered"), ("clip", "Clip gradients", "missed")]


def save(store: Store, qid: str = "dl-fp16-nan", score: int | None = None, **kw) -> int:
    text = kw.pop("text", "I would lower the learning rate and check the data")
    sc = make_score(qid, text, kw.pop("kps", KPS), score=score)
    return store.save_attempt(
        kw.pop("session_id", None),
        qid,
        kw.pop("deck", "deep-learning"),
        make_transcript(text),
        sc,
        kw.pop("recording_path", None),
        **kw,
    )


def test_open_creates_private_dir_and_wal(home: Path) -> None:
    with Store.open() as s:
        assert s.path == home / "data" / "sayitout.db"
        assert stat.S_IMODE((home / "data").stat().st_mode) == 0o700
        assert s.version == schema_version()
        conn = sqlite3.connect(s.path)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        conn.close()
        assert s._conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert s._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert s.integrity_check() == "ok"
        assert stat.S_IMODE(s.path.stat().st_mode) == 0o600
        rec = s.new_recording_path("dl-fp16-nan")
        assert stat.S_IMODE(s.recordings_dir.stat().st_mode) == 0o700
        assert stat.S_IMODE(rec.parent.stat().st_mode) == 0o700


def test_save_and_read_back_everything(store: Store) -> None:
    sid = store.start_session("deep-learning", {"count": 5, "order": "due"})
    rec = store.new_recording_path("dl-fp16-nan")
    rec.write_bytes(b"fLaC")
    aid = save(store, session_id=sid, recording_path=rec, ended_by="silence")
    store.finish_session(sid)
    a = store.attempt(aid)
    assert a.question_id == "dl-fp16-nan"
    assert a.summary.session_id == sid and a.summary.deck == "deep-learning"
    assert a.transcript.words and a.transcript.words[0].text == "I"
    assert a.transcript.model == "tiny.en" and a.summary.asr_model == "tiny.en"
    assert a.summary.embedding_model == "all-MiniLM-L6-v2"
    assert a.answer_score.key_points[0].evidence_span is not None
    assert a.score == 50 and a.summary.coverage == 0.5
    assert a.summary.wpm == 140.0 and a.summary.ended_by == "silence"
    assert a.recording_path == rec and a.recording_exists
    assert [h.reason for h in a.score_history] == ["initial"]
    # recordings are stored relative to the recordings dir, so the data dir can move
    raw = store._conn.execute("SELECT recording_path FROM attempts").fetchone()[0]
    assert not Path(raw).is_absolute()
    sess = store.session(sid)
    assert sess.finished_at is not None and sess.attempt_count == 1 and sess.settings["count"] == 5


def test_rescore_keeps_history_and_correction(store: Store) -> None:
    aid = save(store)
    better = make_score("dl-fp16-nan", "fixed", [(k, t, "covered") for k, t, _ in KPS])
    store.rescore(aid, better)
    store.rescore(aid, better, corrected_text="I would use loss scaling")
    a = store.attempt(aid)
    assert a.score == 100 and a.text == "I would use loss scaling"
    assert a.transcript.text.startswith("I would lower")  # the raw transcript is kept
    assert [(h.reason, h.score) for h in a.score_history] == [
        ("initial", 50),
        ("rescore", 100),
        ("correction", 100),
    ]
    assert all(st == "covered" for _, _, st in store.key_points(aid))
    with pytest.raises(UsageError):
        store.rescore(9999, better)


def test_queries_filters_and_paging(store: Store) -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(30):
        save(
            store,
            qid=f"q{i % 3}",
            score=i * 3,
            deck="a" if i % 2 else "b",
            created_at=t0 + timedelta(days=i),
        )
    assert len(store.attempts()) == 30
    newest = store.attempts(limit=5)
    assert [a.score for a in newest] == [87, 84, 81, 78, 75]
    assert [a.score for a in store.attempts(limit=5, offset=5)] == [72, 69, 66, 63, 60]
    assert {a.question_id for a in store.attempts(AttemptFilter(question_id="q1"))} == {"q1"}
    assert {a.question_id for a in store.attempts(AttemptFilter(question_ids=("q0", "q2")))} == {
        "q0",
        "q2",
    }
    assert store.attempts(AttemptFilter(question_ids=())) == []
    assert all(a.deck == "a" for a in store.attempts(AttemptFilter(deck="a")))
    assert all(
        40 <= a.score <= 60 for a in store.attempts(AttemptFilter(min_score=40, max_score=60))
    )
    assert len(store.attempts(AttemptFilter(since=t0 + timedelta(days=25)))) == 5
    assert store.count_attempts(AttemptFilter(deck="a")) == 15
    assert store.attempts(oldest_first=True)[0].score == 0
    stats = store.question_stats()
    assert (
        stats["q0"].attempts == 10 and stats["q0"].last_score == 81 and stats["q0"].best_score == 81
    )
    last = store.last_attempt("q2")
    assert last is not None and last.score == 87
    assert store.last_attempt("never") is None
    prev = store.previous_attempts(last.id)
    assert [p.score for p in prev][:2] == [78, 69]
    assert len(store.score_timeline()) == 30


def test_sessions_newest_first_with_cli_pseudo_session(store: Store) -> None:
    s1 = store.start_session("deep-learning", {})
    save(store, session_id=s1)
    s2 = store.start_session("other", {})
    save(store, session_id=s2)
    save(store, session_id=s2)
    save(store)  # a command-line attempt, no session
    rows = store.sessions()
    assert rows[0].id is None and rows[0].attempt_count == 1
    assert [r.id for r in rows[1:]] == [s2, s1]
    assert rows[1].attempt_count == 2
    assert [r.id for r in store.sessions(include_cli=False)] == [s2, s1]
    assert [r.id for r in store.sessions(deck="other", include_cli=False)] == [s2]
    assert len(store.attempts(AttemptFilter(cli_only=True))) == 1


def test_key_point_misses(store: Store) -> None:
    for _ in range(3):
        save(store)
    save(
        store, kps=[("lower-lr", "Lower the learning rate", "missed"), ("clip", "Clip", "covered")]
    )
    misses = store.key_point_misses()
    assert (misses[0].key_point_id, misses[0].missed, misses[0].seen) == ("clip", 3, 4)
    assert misses[1].key_point_id == "lower-lr" and misses[1].miss_rate == 0.25


def test_delete_attempt_cascades(store: Store) -> None:
    rec = store.new_recording_path("dl-fp16-nan")
    rec.write_bytes(b"x")
    aid = save(store, recording_path=rec)
    store.delete_attempt(aid, delete_recording=True)
    assert not rec.exists()
    assert store._conn.execute("SELECT COUNT(*) FROM scores").fetchone()[0] == 0
    assert store._conn.execute("SELECT COUNT(*) FROM attempt_key_points").fetchone()[0] == 0


def test_orphan_recordings(store: Store) -> None:
    kept = store.new_recording_path("dl-fp16-nan")
    kept.write_bytes(b"fLaC")
    save(store, recording_path=kept)
    lost = store.new_recording_path("dl-val-loss-rises")
    lost.write_bytes(b"fLaC-lost")
    (store.recordings_dir / "notes.txt").write_text("not audio")
    orphans = store.orphan_recordings()
    assert [o.path for o in orphans] == [lost.absolute()]
    assert orphans[0].question_id == "dl-val-loss-rises" and orphans[0].size == 9
    assert store.orphan_recordings(min_age_s=3600) == []  # just written: maybe still recording
    with pytest.raises(UsageError):
        store.discard_recording(kept)
    store.discard_recording(lost)
    assert not lost.exists() and store.orphan_recordings() == []


def test_coverage_partial_counts_half() -> None:
    sc = make_score("q", "a", [("a", "A", "covered"), ("b", "B", "partial"), ("c", "C", "missed")])
    assert coverage_of(sc) == 0.5


def test_score_json_is_the_full_contract(store: Store) -> None:
    aid = save(store)
    raw = store._conn.execute("SELECT score_json FROM attempts WHERE id = ?", (aid,)).fetchone()[0]
    assert json.loads(raw)["key_points"][1]["status"] == "missed"


def test_unknown_attempt_is_a_usage_error(store: Store) -> None:
    with pytest.raises(UsageError, match="No attempt with id 42"):
        store.attempt(42)


def test_not_a_database_gives_storage_error(tmp_path: Path) -> None:
    bad = tmp_path / "sayitout.db"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StorageError) as err:
        Store.open(bad)
    assert "not a sayitout database" in err.value.message and err.value.hint
