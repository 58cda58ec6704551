"""Follow-up turns and passes in the session engine (fake models, a real Store)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.schedule import schedule
from sayitout.session import events as ev
from sayitout.session.engine import SessionEngine
from sayitout.session.followups import PROMPTED_WORTH, credit_for
from sayitout.session.plan import SessionPlan
from sayitout.session.services import SessionServices
from sayitout.store import Store
from support.fakes import (
    Events,
    FakeSpeaker,
    FakeTranscriber,
    KeywordScorer,
    ScriptedMicrophones,
    ScriptedSource,
)

Q1 = "dl-loss-stuck-at-chance"
CHANCE_ONLY = "It's at chance level, the natural log of ten."
OVERFIT = "I would overfit a single batch to see whether it can learn at all."


@pytest.fixture(scope="module")
def bank():
    return load_bank(user=False)


def start(bank, tmp_path: Path, *, follow_ups: int = 1, sources=None, voice=None):
    services = SessionServices(
        settings=Settings(),
        bank_loader=lambda: bank,
        scorer=KeywordScorer(),
        transcriber=FakeTranscriber(),
        microphones=ScriptedMicrophones(sources or [], None if sources else "no microphone found"),
        speaker=voice,
        store_opener=lambda: Store.open(tmp_path / "db.sqlite"),
        recordings_dir=tmp_path / "rec",
    )
    plan = SessionPlan(question_ids=(Q1,), count=1, follow_ups=follow_ups)
    events = Events()
    engine = SessionEngine(services, plan, events)
    engine.start()
    return engine, events


def test_missed_point_is_followed_up_and_earns_prompted_credit(bank, tmp_path):
    voice = FakeSpeaker()
    engine, events = start(bank, tmp_path, voice=voice)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(CHANCE_ONLY)
    asked = events.wait(ev.FollowUpAsked)
    rubric = bank.rubric(Q1)
    # the heaviest missed point with a follow-up is asked about first, spoken like a question
    assert asked.key_point_id == "overfit-one-batch"
    assert asked.text == rubric.key_points[1].follow_ups[0]
    assert (asked.number, asked.limit) == (1, 1)
    events.phase(ev.Phase.AWAITING_ANSWER)
    assert asked.text in voice.spoken
    engine.type_answer(OVERFIT)
    followed = events.wait(ev.FollowUpScored)
    assert followed.result.status == "covered" and followed.result.answer == OVERFIT
    scored = events.wait(ev.AnswerScored)
    base = scored.score.unprompted_score
    expected = round(credit_for(rubric, rubric.key_points[1], "covered"))
    total = sum(k.weight for k in rubric.key_points)
    assert expected == round(100 * PROMPTED_WORTH * 3 / total)
    assert scored.score.score == base + expected
    assert scored.score.follow_ups[0].credit == expected
    # the main answer's own key point statuses are untouched: it was still missed unprompted
    assert {k.id: k.status for k in scored.score.key_points}["overfit-one-batch"] == "missed"
    # ... but the verdict counts it as made when prompted, and names a point never made
    assert scored.score.prompted_points == {"overfit-one-batch"}
    assert "(1 more when prompted); you missed: " in scored.score.verdict
    assert rubric.key_points[1].text[:30].lower() not in scored.score.verdict.lower()
    engine.next_question()
    events.wait(ev.SessionFinished)
    engine.join(5)
    with Store.open(tmp_path / "db.sqlite") as store:
        record = store.attempt(scored.attempt_id)
        assert record.score == scored.score.score
        assert record.answer_score.follow_ups[0].key_point_id == "overfit-one-batch"
        assert [h.reason for h in record.score_history] == ["initial", "rescore"]


def test_no_follow_up_when_the_setting_is_zero(bank, tmp_path):
    engine, events = start(bank, tmp_path, follow_ups=0)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(CHANCE_ONLY)
    scored = events.wait(ev.AnswerScored)
    assert scored.score.follow_ups == ()
    assert events.of(ev.FollowUpAsked) == []
    engine.close()


def test_two_follow_ups_and_a_passed_one(bank, tmp_path):
    engine, events = start(bank, tmp_path, follow_ups=2)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(CHANCE_ONLY)
    first = events.wait(ev.FollowUpAsked)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.pass_question()  # "I don't know" on a follow-up skips it, no credit
    skipped = events.wait(ev.FollowUpScored)
    assert skipped.result.status == "missed" and skipped.result.credit == 0
    second = events.wait(ev.FollowUpAsked)
    assert second.number == 2 and second.key_point_id != first.key_point_id
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer("zero grad then backward then optimiser step")
    events.wait(ev.FollowUpScored)
    scored = events.wait(ev.AnswerScored)
    assert [f.status for f in scored.score.follow_ups] == ["missed", "covered"]
    engine.close()


def test_spoken_follow_up_is_answered_by_the_next_mic_file(bank, tmp_path):
    sources = [ScriptedSource("one.wav", CHANCE_ONLY), ScriptedSource("two.wav", OVERFIT)]
    engine, events = start(bank, tmp_path, sources=sources)
    events.wait(ev.FollowUpAsked)
    followed = events.wait(ev.FollowUpScored)
    assert followed.result.status == "covered"
    assert followed.result.recording is not None
    scored = events.wait(ev.AnswerScored)
    assert scored.transcript.text == CHANCE_ONLY
    engine.close()
    with Store.open(tmp_path / "db.sqlite") as store:
        assert store.orphan_recordings() == []  # the reply's recording belongs to the attempt
        assert len(store.attempts()) == 1


def test_pass_is_stored_as_a_failed_passed_attempt_with_the_model_answer(bank, tmp_path):
    engine, events = start(bank, tmp_path)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.pass_question()
    scored = events.wait(ev.AnswerScored)
    assert scored.passed and scored.score.score == 0
    shown = events.wait(ev.ModelAnswerShown)
    assert shown.text == bank.rubric(Q1).model_answer
    assert events.of(ev.FollowUpAsked) == []
    engine.pass_question()  # a second pass on an answered question changes nothing
    notice = events.wait(ev.Notice)
    assert "already answered" in notice.message
    engine.next_question()
    events.wait(ev.SessionFinished)
    engine.join(5)
    with Store.open(tmp_path / "db.sqlite") as store:
        [attempt] = store.attempts()
        assert attempt.ended_by == "passed" and attempt.score == 0
        [entry] = schedule(store, [Q1])
        assert entry.state == "learning"  # rated Again: back within minutes
        assert (entry.due - attempt.created_at).total_seconds() < 15 * 60


def test_a_reply_that_makes_the_next_point_too_is_not_asked_it(bank, tmp_path):
    """Asked how to tell a bug from tuning, the reply also says how to check the loop:
    that point earns prompted credit as volunteered, and the second follow-up goes to
    the next point still open."""
    engine, events = start(bank, tmp_path, follow_ups=2)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(CHANCE_ONLY)
    first = events.wait(ev.FollowUpAsked)
    assert first.key_point_id == "overfit-one-batch"
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(OVERFIT + " And check zero grad, backward, optimiser step in the loop.")
    followed = events.wait(ev.FollowUpScored)
    assert followed.result.key_point_id == "overfit-one-batch"  # the asked point's turn
    second = events.wait(ev.FollowUpAsked)
    assert second.key_point_id not in ("overfit-one-batch", "check-update-loop")
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.pass_question()
    scored = events.wait(ev.AnswerScored)
    turns = [(f.key_point_id, f.volunteered, f.status) for f in scored.score.follow_ups]
    assert turns[:2] == [
        ("overfit-one-batch", False, "covered"),
        ("check-update-loop", True, "covered"),
    ]
    assert {"overfit-one-batch", "check-update-loop"} <= scored.score.prompted_points
    engine.next_question()
    events.wait(ev.SessionFinished)
    engine.join(5)
    with Store.open(tmp_path / "db.sqlite") as store:
        kept = store.attempt(scored.attempt_id).answer_score.follow_ups
        assert [f.volunteered for f in kept] == [False, True, False]
        assert kept[1].recording is None  # the asked turn holds the reply's recording
