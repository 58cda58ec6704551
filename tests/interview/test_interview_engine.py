"""The mock-interview engine: no feedback until the end, timing on a fake clock, the
report card, bad plans, and an interview cut short (fake models, a real Store)."""

from __future__ import annotations

import threading

import pytest

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.errors import UsageError
from sayitout.session import events as ev
from sayitout.session.interview import InterviewEngine, InterviewPlan, check_deck_fits
from sayitout.session.interview_report import grade_for
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

Q1, Q2, Q3 = "dl-loss-stuck-at-chance", "dl-val-loss-rises", "dl-noisy-loss"
CHANCE_ONLY = "It's at chance level, the natural log of ten."
OVERFIT = "I would overfit a single batch to see whether it can learn at all."


class FakeClock:
    """Monotonic time that moves only when the engine waits (or the test says so)."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.waits: list[float] = []
        self.lock = threading.Lock()

    def monotonic(self) -> float:
        with self.lock:
            return self.now

    def wait(self, event: threading.Event, seconds: float) -> bool:
        if event.is_set():
            return True
        with self.lock:
            self.now += seconds
            self.waits.append(seconds)
        return event.is_set()

    def advance(self, seconds: float) -> None:
        with self.lock:
            self.now += seconds


class ClockVoice(FakeSpeaker):
    """Reading a question aloud takes ``seconds`` of fake time."""

    def __init__(self, clock: FakeClock, seconds: float) -> None:
        super().__init__()
        self.clock = clock
        self.talk_s = seconds

    def speak(self, text: str, cancel: threading.Event | None = None) -> bool:
        self.spoken.append(text)
        self.clock.advance(self.talk_s)
        return True


@pytest.fixture(scope="module")
def bank():
    return load_bank(user=False)


def start(bank, tmp_path, plan, *, sources=None, voice=None, clock=None, db="db.sqlite"):
    services = SessionServices(
        settings=Settings(),
        bank_loader=lambda: bank,
        scorer=KeywordScorer(),
        transcriber=FakeTranscriber(),
        microphones=ScriptedMicrophones(
            sources or [], None if sources is not None else "no microphone found"
        ),
        speaker=voice,
        store_opener=lambda: Store.open(tmp_path / db),
        recordings_dir=tmp_path / "rec",
    )
    events = Events()
    clock = clock or FakeClock()
    engine = InterviewEngine(services, plan, events, monotonic=clock.monotonic, wait=clock.wait)
    engine.start()
    return engine, events


def test_questions_in_a_row_with_no_feedback_then_the_report_card(bank, tmp_path):
    plan = InterviewPlan(question_ids=(Q1, Q2, Q3), count=3, thinking_s=0, follow_ups=1)
    engine, events = start(bank, tmp_path, plan)
    events.wait(ev.QuestionShown, where=lambda e: e.index == 0)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(CHANCE_ONLY)
    asked = events.wait(ev.FollowUpAsked)  # the interviewer probes the missed point
    assert asked.key_point_id == "overfit-one-batch"
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(OVERFIT)
    taken = events.wait(ev.InterviewAnswerTaken)
    assert (taken.index, taken.total, taken.follow_ups) == (0, 3, 1)
    events.wait(ev.QuestionShown, where=lambda e: e.index == 1)  # straight on: no card
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.pass_question()
    assert events.wait(ev.InterviewAnswerTaken, where=lambda e: e.index == 1).passed
    events.wait(ev.QuestionShown, where=lambda e: e.index == 2)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer("First lower learning rate by three, it is overshooting.")
    events.wait(ev.InterviewAnswerTaken, where=lambda e: e.index == 2)
    finished = events.wait(ev.InterviewFinished)
    assert engine.join(5)
    # nothing was scored on screen before the end
    assert events.of(ev.AnswerScored) == [] and events.of(ev.ModelAnswerShown) == []
    report = finished.report
    assert not finished.incomplete and not report.incomplete
    assert [q.question_id for q in report.questions] == [Q1, Q2, Q3]
    first, second, third = report.questions
    assert first.follow_ups[0].status == "covered"
    assert first.score > first.unprompted
    assert second.passed and second.score == 0
    assert report.overall == round((first.score + 0 + third.score) / 3, 1)
    assert report.grade == grade_for(report.overall)
    assert len(report.fixes) == 3
    assert report.fixes[0].startswith("Learn an answer to: ")  # the pass comes first
    assert report.previous is None
    with Store.open(tmp_path / "db.sqlite") as store:
        session = store.session(engine.session_id)
        assert session.kind == "interview" and session.finished_at is not None
        assert session.attempt_count == 3
        assert [a.ended_by for a in store.attempts(oldest_first=True)][1] == "passed"


def test_second_interview_compares_with_the_previous_one(bank, tmp_path):
    plan = InterviewPlan(
        deck="deep-learning", question_ids=(Q1,), count=1, thinking_s=0, follow_ups=0
    )
    scores = []
    for answer in ("no idea really", CHANCE_ONLY + " " + OVERFIT):
        engine, events = start(bank, tmp_path, plan)
        events.phase(ev.Phase.AWAITING_ANSWER)
        engine.type_answer(answer)
        report = events.wait(ev.InterviewFinished).report
        engine.join(5)
        scores.append(report.overall)
    assert report.previous is not None and report.previous.overall == scores[0]
    assert report.change == scores[1] - scores[0] > 0


def test_thinking_countdown_and_the_30_second_warning_on_a_fake_clock(bank, tmp_path):
    clock = FakeClock()
    source = ScriptedSource("a.wav", CHANCE_ONLY, wait_for_stop=True)
    plan = InterviewPlan(question_ids=(Q1,), count=1, thinking_s=10, follow_ups=0)
    engine, events = start(bank, tmp_path, plan, sources=[source], clock=clock)
    shown = events.wait(ev.QuestionShown)
    assert shown.answer_limit_s == bank.question(Q1).answer_seconds
    ticks = [events.wait(ev.ThinkingTick) for _ in range(3)]
    assert ticks[0].total_s == 10 and ticks[0].remaining_s == 10
    assert ticks[1].remaining_s == pytest.approx(9.75)
    events.wait(ev.RecordingStarted)
    assert sum(clock.waits) == pytest.approx(10)  # the countdown ran on the fake clock
    # the source reports its own elapsed time; feed the hook as the recorder would
    engine._on_progress(10, 90)
    assert events.of(ev.AnswerTimeWarning) == []
    engine._on_progress(61, 90)
    warning = events.wait(ev.AnswerTimeWarning)
    assert warning.remaining_s == 29
    engine._on_progress(70, 90)
    engine.stop_recording()
    events.wait(ev.InterviewFinished)
    assert len(events.of(ev.AnswerTimeWarning)) == 1
    engine.join(5)


def test_minutes_budget_shares_answer_time_and_ends_when_time_is_up(bank, tmp_path):
    clock = FakeClock()
    voice = ClockVoice(clock, seconds=60)  # reading each question eats 60 s of the budget
    plan = InterviewPlan(
        question_ids=(Q1, Q2, Q3), count=3, minutes=2.5, thinking_s=5, follow_ups=0
    )
    assert plan.answer_limit(90, 180) == pytest.approx(40)  # 150 s / 3 - 5 - 5
    engine, events = start(bank, tmp_path, plan, voice=voice, clock=clock)
    for i in range(2):
        shown = events.wait(ev.QuestionShown, where=lambda e, i=i: e.index == i)
        assert shown.answer_limit_s == pytest.approx(40)
        events.phase(ev.Phase.AWAITING_ANSWER)
        engine.type_answer(CHANCE_ONLY)
        events.wait(ev.InterviewAnswerTaken, where=lambda e, i=i: e.index == i)
    finished = events.wait(ev.InterviewFinished)
    notice = [n for n in events.of(ev.Notice) if "Time is up" in n.message]
    assert notice, "the candidate is told why the interview ended"
    assert finished.report.time_up and not finished.report.incomplete
    assert len(finished.report.questions) == 2  # the third was never asked
    engine.join(5)


def test_quit_mid_interview_keeps_answers_and_marks_it_incomplete(bank, tmp_path):
    plan = InterviewPlan(question_ids=(Q1, Q2, Q3), count=3, thinking_s=0, follow_ups=0)
    engine, events = start(bank, tmp_path, plan)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(CHANCE_ONLY)
    events.wait(ev.QuestionShown, where=lambda e: e.index == 1)
    engine.quit()
    finished = events.wait(ev.InterviewFinished)
    assert finished.incomplete and finished.report.incomplete
    assert [q.score is not None for q in finished.report.questions] == [True, False]
    engine.join(5)
    with Store.open(tmp_path / "db.sqlite") as store:
        session = store.session(engine.session_id)
        assert session.kind == "interview" and session.finished_at is None
        assert session.attempt_count == 1
        # one session score: the card's figure is History's, the unanswered one not in it
        report = finished.report
        assert report.overall == round(session.session_score, 1) == report.questions[0].score
        assert report.unanswered == 1


def test_the_card_and_history_agree_with_follow_ups_and_a_pass(bank, tmp_path):
    plan = InterviewPlan(question_ids=(Q1, Q2, Q3), count=3, thinking_s=0, follow_ups=1)
    engine, events = start(bank, tmp_path, plan)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(CHANCE_ONLY)
    events.wait(ev.FollowUpAsked)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(OVERFIT)  # prompted credit is part of the stored score too
    events.wait(ev.QuestionShown, where=lambda e: e.index == 1)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.pass_question()  # a pass counts 0 in both
    events.wait(ev.QuestionShown, where=lambda e: e.index == 2)
    engine.quit()  # the third is reached but left unanswered
    report = events.wait(ev.InterviewFinished).report
    engine.join(5)
    first = report.questions[0]
    assert first.score is not None and first.score > first.unprompted
    assert report.overall == round(first.score / 2, 1)
    with Store.open(tmp_path / "db.sqlite") as store:
        assert report.overall == round(store.session(engine.session_id).session_score, 1)


@pytest.mark.parametrize(
    ("kwargs", "message", "hint"),
    [
        ({"minutes": 0.5}, "--minutes 0.5 is too short for one question", "--minutes 1"),
        ({"minutes": 2, "count": 5}, "--minutes 2 is too short for 5 questions", "--count 2"),
        ({"minutes": -1}, "--minutes must be more than 0", None),
        ({"follow_ups": 3}, "--follow-ups must be 0, 1 or 2", None),
        ({"count": 0}, "--count must be at least 1", None),
    ],
)
def test_bad_interview_plans_say_what_to_change(kwargs, message, hint):
    with pytest.raises(UsageError) as info:
        InterviewPlan(**kwargs)
    assert message in info.value.message
    if hint:
        assert hint in info.value.hint


def test_an_interview_longer_than_the_deck_is_refused(bank, tmp_path):
    with pytest.raises(UsageError) as info:
        check_deck_fits(bank, InterviewPlan(deck="deep-learning", count=40))
    assert info.value.message == "--count 40 is more than the 33 questions in deck 'deep-learning'"
    assert info.value.hint.startswith("use --count 33 or fewer")
    engine, events = start(bank, tmp_path, InterviewPlan(deck="deep-learning", count=40))
    failed = events.wait(ev.SessionFailed)
    assert "--count 40 is more than" in failed.message
    events.wait(ev.InterviewFinished)
    engine.join(5)
