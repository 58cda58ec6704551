"""One session score everywhere (issue 12 §4): the mean of each question's best attempt."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sayitout.report.data import collect
from sayitout.report.markdown import render_markdown
from sayitout.store import AttemptFilter, Store, session_score
from support.synthetic import make_score, make_transcript

T0 = datetime(2026, 11, 1, 9, tzinfo=UTC)


def save(
    store: Store, sid: int | None, qid: str, score: int, minute: int, scorer: str = "v2"
) -> int:
    return store.save_attempt(
        sid,
        qid,
        "demo",
        make_transcript("answer"),
        make_score(qid, "answer", [("a", "A", "covered")], score=score),
        created_at=T0 + timedelta(minutes=minute),
        scorer_version=scorer,
    )


def test_the_definition() -> None:
    assert session_score([]) is None
    # q1 tried three times (best 80), q2 once (40): (80 + 40) / 2, not the mean of all four.
    assert session_score([("q1", 20), ("q1", 80), ("q1", 50), ("q2", 40)]) == 60


def test_store_summary_and_reports_agree(store: Store) -> None:
    """The session that showed 60 in the summary, 39 on Home and 'Mean 39' in History."""
    sid = store.start_session("demo", started_at=T0)
    tries = [("q1", 20), ("q1", 80), ("q2", 40), ("q3", 10), ("q3", 30), ("q2", 55)]
    for i, (qid, score) in enumerate(tries):
        save(store, sid, qid, score, i, scorer="" if i < 2 else "v2")
    want = session_score(tries)
    assert want == (80 + 55 + 30) / 3
    [record] = store.sessions(include_cli=False)
    assert record.session_score == want and record.attempt_count == 6
    assert store.session(sid).session_score == want

    from sayitout.session.summary import summarise

    class Q:
        def __init__(self, qid: str) -> None:
            self.id, self.text = qid, qid

    class Attempted:
        def __init__(self, qid: str, score: int) -> None:
            self.question = Q(qid)
            self.score = make_score(qid, "answer", [("a", "A", "covered")], score=score)
            self.verdict = ""

    summary = summarise(sid, "demo", [Q("q1"), Q("q2"), Q("q3")], [Attempted(*t) for t in tries])  # type: ignore[arg-type]
    assert summary.mean_score is not None and round(summary.mean_score, 2) == round(want, 2)

    data = collect(store, AttemptFilter())
    assert data.session_score == want
    assert [v for _, v in data.scorer_changes] == ["", "v2"]
    assert "scorer changed" in data.scorer_note and "sayitout rescore" in data.scorer_note
    md = render_markdown(data)
    assert f"| {want:.0f} |" in md and "The scorer changed" in md


def test_command_line_attempts_use_the_same_definition(store: Store) -> None:
    for i, (qid, score) in enumerate([("q1", 10), ("q1", 90), ("q2", 50)]):
        save(store, None, qid, score, i)
    [cli] = store.sessions()
    assert cli.id is None and cli.session_score == 70 and cli.attempt_count == 3
    assert collect(store, AttemptFilter()).scorer_changes == []  # one scorer: no note
