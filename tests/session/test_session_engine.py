"""The session engine, driven with typed answers and scripted audio (no models)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.errors import ModelError, UsageError
from sayitout.session import events as ev
from sayitout.session.engine import SessionEngine
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

Q1, Q2, Q3 = "dl-loss-stuck-at-chance", "dl-val-loss-rises", "dl-noisy-loss"
GOOD = "It's at chance level, the natural log of ten, so I'd overfit a single batch first"


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def make_services(
    bank, *, sources=(), mic_reason=None, transcriber=None, speaker=None, store=True, tmp_path: Path
):
    return SessionServices(
        settings=Settings(),
        bank_loader=lambda: bank,
        scorer=KeywordScorer(),
        transcriber=transcriber if transcriber is not None else FakeTranscriber(),
        microphones=ScriptedMicrophones(sources, mic_reason),
        speaker=speaker,
        store_opener=(lambda: Store.open(tmp_path / "db.sqlite")) if store else None,
        recordings_dir=tmp_path / "rec",
    )


def run(services, plan) -> tuple[SessionEngine, Events]:
    events = Events()
    engine = SessionEngine(services, plan, events)
    engine.start()
    return engine, events


def test_typed_session_saves_each_attempt_and_summarises(bank, tmp_path):
    services = make_services(bank, mic_reason="no microphone found", tmp_path=tmp_path)
    plan = SessionPlan(question_ids=(Q1, Q2), count=2)
    engine, events = run(services, plan)

    why = events.wait(ev.SpokenAnswersUnavailable)
    assert "no microphone" in why.reason
    started = events.wait(ev.SessionStarted)
    assert [q.id for q in started.questions] == [Q1, Q2]
    assert not started.can_speak_answers
    events.phase(ev.Phase.AWAITING_ANSWER)

    engine.type_answer(GOOD)
    scored = events.wait(ev.AnswerScored)
    assert scored.question.id == Q1 and scored.transcript.model == "typed"
    assert scored.score.score > 0 and scored.attempt_id is not None
    # Saved at once, before the session ends.
    store = Store.open(tmp_path / "db.sqlite")
    assert store.attempt(scored.attempt_id).score == scored.score.score

    engine.next_question()
    events.wait(ev.QuestionShown, where=lambda e: e.index == 1)
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer("I don't know")
    events.wait(ev.AnswerScored, where=lambda e: e.question.id == Q2)
    engine.next_question()
    finished = events.wait(ev.SessionFinished)
    assert not finished.quit_early
    summary = finished.summary
    assert [o.question_id for o in summary.outcomes] == [Q1, Q2]
    assert summary.outcomes[1].score == 0
    assert summary.most_missed, "missed key points are listed"
    assert engine.join(5)
    assert len(store.attempts()) == 2
    assert store.session(engine.session_id).finished_at is not None


def test_spoken_answers_record_transcribe_score_and_retry(bank, tmp_path):
    sources = [
        ScriptedSource("a.wav", GOOD),
        ScriptedSource("b.wav", "I think it is the natural log"),
    ]
    transcriber = FakeTranscriber()
    voice = FakeSpeaker()
    services = make_services(
        bank, sources=sources, transcriber=transcriber, speaker=voice, tmp_path=tmp_path
    )
    engine, events = run(services, SessionPlan(question_ids=(Q1,), count=1))

    shown = events.wait(ev.QuestionShown)
    assert voice.spoken == [shown.question.text]
    started = events.wait(ev.RecordingStarted)
    assert started.source == "a.wav"
    assert events.wait(ev.RecordingProgress).level == 0.5
    assert events.wait(ev.PartialTranscript).text == "partial 1"
    stopped = events.wait(ev.RecordingStopped)
    assert stopped.reason is ev.StopReason.SILENCE and stopped.path.exists()
    first = events.wait(ev.AnswerScored)
    assert first.recording_path == stopped.path
    assert "natural log" in transcriber.terms[0], "rubric terms go to the transcriber"

    engine.try_again()
    second = events.wait(ev.AnswerScored)
    assert second.attempt_number == 2 and second.score.score < first.score.score

    engine.edit_transcript(GOOD)
    edited = events.wait(ev.AnswerScored)
    assert edited.rescored and edited.attempt_id == second.attempt_id
    assert edited.score.score == first.score.score
    store = Store.open(tmp_path / "db.sqlite")
    record = store.attempt(second.attempt_id)
    assert record.text == GOOD and record.score == edited.score.score

    engine.show_model_answer()
    shown_answer = events.wait(ev.ModelAnswerShown)
    assert shown_answer.text == bank.rubric(Q1).model_answer
    assert voice.spoken[-1] == shown_answer.text

    engine.next_question()
    summary = events.wait(ev.SessionFinished).summary
    assert summary.outcomes[0].attempts == 2
    assert summary.outcomes[0].score == edited.score.score
    assert summary.delivery.spoken_answers == 0  # the fake scorer gives no delivery


def test_stop_key_ends_recording_and_time_limit_stops_it(bank, tmp_path):
    sources = [
        ScriptedSource("mic", GOOD, wait_for_stop=True),
        ScriptedSource("mic", GOOD, wait_for_stop=True),
    ]
    services = make_services(bank, sources=sources, tmp_path=tmp_path)
    plan = SessionPlan(question_ids=(Q1,), count=1, answer_limit_s=5)
    engine, events = run(services, plan)
    events.wait(ev.RecordingStarted)
    engine.stop_recording()
    assert events.wait(ev.RecordingStopped).reason is ev.StopReason.KEY
    events.wait(ev.AnswerScored)
    engine.try_again()
    stopped = events.wait(ev.RecordingStopped, timeout=15)
    assert stopped.reason is ev.StopReason.TIME_LIMIT
    engine.quit()
    assert events.wait(ev.SessionFinished).quit_early


def test_switching_to_typing_mid_recording_discards_the_audio(bank, tmp_path):
    sources = [ScriptedSource("mic", GOOD, wait_for_stop=True)]
    services = make_services(bank, sources=sources, tmp_path=tmp_path)
    engine, events = run(services, SessionPlan(question_ids=(Q1,), count=1))
    events.wait(ev.RecordingStarted)
    engine.cancel_recording()
    stopped = events.wait(ev.RecordingStopped)
    assert stopped.reason is ev.StopReason.CANCELLED
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(GOOD)
    scored = events.wait(ev.AnswerScored)
    assert scored.transcript.model == "typed"
    engine.quit()
    events.wait(ev.SessionFinished)
    assert not list((tmp_path / "rec").rglob("*.flac"))


def test_quit_mid_session_keeps_completed_attempts(bank, tmp_path):
    services = make_services(bank, mic_reason="no microphone", tmp_path=tmp_path)
    engine, events = run(services, SessionPlan(question_ids=(Q1, Q2, Q3), count=3))
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer(GOOD)
    events.wait(ev.AnswerScored)
    engine.next_question()
    events.wait(ev.QuestionShown, where=lambda e: e.index == 1)
    engine.quit()
    finished = events.wait(ev.SessionFinished)
    assert finished.quit_early
    assert [o.question_id for o in finished.summary.outcomes] == [Q1, Q2]
    assert finished.summary.outcomes[1].score is None
    assert len(Store.open(tmp_path / "db.sqlite").attempts()) == 1


def test_files_running_out_falls_back_to_typing(bank, tmp_path):
    services = make_services(bank, sources=[ScriptedSource("a.wav", GOOD)], tmp_path=tmp_path)
    engine, events = run(services, SessionPlan(question_ids=(Q1, Q2), count=2))
    events.wait(ev.AnswerScored)
    engine.next_question()
    why = events.wait(ev.SpokenAnswersUnavailable)
    assert "--mic-file" in why.reason
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.type_answer("overfit a single batch")
    events.wait(ev.AnswerScored, where=lambda e: e.question.id == Q2)
    engine.quit()
    events.wait(ev.SessionFinished)


def test_speech_model_failure_means_typed_answers(bank, tmp_path):
    transcriber = FakeTranscriber(fail=ModelError("tiny.en is missing", "reinstall sayitout"))
    services = make_services(
        bank, sources=[ScriptedSource("a.wav", GOOD)], transcriber=transcriber, tmp_path=tmp_path
    )
    loaded: list[ev.Event] = []
    services.warm_up(loaded.append)
    failed = [e for e in loaded if isinstance(e, ev.ModelFailed)]
    assert failed and failed[0].name == "speech" and failed[0].hint == "reinstall sayitout"
    assert any(isinstance(e, ev.ModelReady) and e.name == "scoring" for e in loaded)
    engine, events = run(services, SessionPlan(question_ids=(Q1,), count=1))
    assert "speech model" in events.wait(ev.SpokenAnswersUnavailable).reason
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.quit()
    events.wait(ev.SessionFinished)


def test_no_speech_heard_is_not_scored(bank, tmp_path):
    services = make_services(bank, sources=[ScriptedSource("quiet.wav", "")], tmp_path=tmp_path)
    engine, events = run(services, SessionPlan(question_ids=(Q1,), count=1))
    events.wait(ev.NoSpeechHeard)
    events.phase(ev.Phase.NO_SPEECH)
    assert services.scorer.calls == 0
    engine.quit()
    events.wait(ev.SessionFinished)
    assert Store.open(tmp_path / "db.sqlite").attempts() == []


def test_previous_attempt_and_previous_session_are_reported(bank, tmp_path):
    for answer in ("I don't know", GOOD):
        services = make_services(bank, mic_reason="no microphone", tmp_path=tmp_path)
        engine, events = run(services, SessionPlan(question_ids=(Q1,), count=1))
        events.phase(ev.Phase.AWAITING_ANSWER)
        engine.type_answer(answer)
        scored = events.wait(ev.AnswerScored)
        engine.next_question()
        summary = events.wait(ev.SessionFinished).summary
        engine.join(5)
        services.close()
    assert scored.previous is not None and scored.previous.score == 0
    assert bank.rubric(Q1).key_points[0].text in scored.previous.missed
    assert summary.previous_mean == 0.0 and summary.change == summary.mean_score


def test_thinking_time_counts_down_and_can_be_cut_short(bank, tmp_path):
    services = make_services(bank, sources=[ScriptedSource("a.wav", GOOD)], tmp_path=tmp_path)
    plan = SessionPlan(question_ids=(Q1,), count=1, thinking_s=30)
    engine, events = run(services, plan)
    tick = events.wait(ev.ThinkingTick)
    assert tick.total_s == 30 and tick.remaining_s <= 30
    engine.start_recording()
    events.wait(ev.RecordingStarted, timeout=3)
    events.wait(ev.AnswerScored)
    engine.quit()
    events.wait(ev.SessionFinished)


def test_replay_and_skip_question_audio(bank, tmp_path):
    voice = FakeSpeaker(seconds=30)
    services = make_services(bank, mic_reason="no mic", speaker=voice, tmp_path=tmp_path)
    engine, events = run(services, SessionPlan(question_ids=(Q1,), count=1))
    events.wait(ev.SpeakingStarted)
    engine.skip_speech()
    assert events.wait(ev.SpeakingFinished, timeout=3).skipped
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.replay_question()
    events.wait(ev.SpeakingStarted, timeout=3)
    engine.skip_speech()
    events.wait(ev.SpeakingFinished, timeout=3)
    events.phase(ev.Phase.AWAITING_ANSWER)
    assert len(voice.spoken) == 2
    engine.quit()
    events.wait(ev.SessionFinished)


def test_plan_picks_by_topic_order_and_rejects_bad_input(bank):
    from sayitout.session.plan import pick_questions

    picked = pick_questions(bank, SessionPlan(topics=("memory",), count=50, order="in-order"))
    assert picked and all("memory" in q.topics for q in picked)
    a = pick_questions(bank, SessionPlan(count=5, order="random", seed=1))
    b = pick_questions(bank, SessionPlan(count=5, order="random", seed=1))
    assert [q.id for q in a] == [q.id for q in b]
    with pytest.raises(UsageError):
        pick_questions(bank, SessionPlan(topics=("astrology",)))
    with pytest.raises(UsageError):
        pick_questions(bank, SessionPlan(deck="nope"))
    with pytest.raises(UsageError):
        SessionPlan(count=0)


@pytest.mark.parametrize("error", [OverflowError("int too large to convert to float"), None])
def test_an_answer_the_scorer_chokes_on_is_saved_unscored_and_the_session_goes_on(
    bank, tmp_path, error
):
    error = error or ModelError("the rubric could not be embedded")
    answer = "I would say the loss is 1e999"
    sources = [ScriptedSource("a.wav", answer), ScriptedSource("b.wav", GOOD)]
    services = make_services(bank, sources=sources, tmp_path=tmp_path)
    real_score = services.scorer.score
    calls = []

    def score(rubric, answer):
        calls.append(answer.text)
        if len(calls) == 1:
            raise error
        return real_score(rubric, answer)

    services.scorer.score = score
    engine, events = run(services, SessionPlan(question_ids=(Q1, Q2), count=2))
    failed = events.wait(ev.AnswerNotScored)
    assert failed.question.id == Q1 and failed.attempt_id is not None
    assert failed.transcript.text == answer and str(error) in failed.reason
    told = events.wait(ev.SessionFailed)
    assert "could not be scored" in told.message and "saved" in told.message
    events.phase(ev.Phase.AWAITING_ANSWER)
    # The attempt is on disk with its transcript, recording and the reason.
    store = Store.open(tmp_path / "db.sqlite")
    record = store.attempt(failed.attempt_id)
    assert record.text == answer and record.recording_exists
    assert record.answer_score.failed and str(error) in record.answer_score.failed
    # ... and the session carries on: the next question is asked, answered and scored.
    engine.next_question()
    scored = events.wait(ev.AnswerScored)
    assert scored.question.id == Q2 and scored.score.failed is None
    engine.next_question()
    events.wait(ev.SessionFinished)
    assert engine.join(5)


def test_a_short_answer_is_shown_not_scored_then_retried_or_kept(bank, tmp_path):
    sources = [
        ScriptedSource("a.wav", "natural log"),
        ScriptedSource("b.wav", "the log"),
        ScriptedSource("c.wav", GOOD),
    ]
    services = make_services(bank, sources=sources, tmp_path=tmp_path)
    engine, events = run(services, SessionPlan(question_ids=(Q1,)))
    short = events.wait(ev.AnswerTooShort)
    assert short.heard == "natural log" and short.words == 2 and not short.echo
    events.phase(ev.Phase.NO_SPEECH)
    store = Store.open(tmp_path / "db.sqlite")
    assert store.attempts() == [], "nothing is saved silently"
    first = store.new_recording_path(Q1).parent
    [dropped] = list(first.glob("*.flac"))
    engine.try_again()  # the short answer is not kept: its recording goes too
    second = events.wait(ev.AnswerTooShort)
    assert second.heard == "the log"
    assert not dropped.exists()
    engine.keep_answer()  # ... or the candidate keeps it: scored and saved
    kept = events.wait(ev.AnswerScored)
    assert kept.transcript.text == "the log" and kept.attempt_id is not None
    assert [a.id for a in store.attempts()] == [kept.attempt_id]
    engine.try_again()
    scored = events.wait(ev.AnswerScored)
    assert scored.transcript.text == GOOD and scored.attempt_number == 2
    engine.quit()
    assert engine.join(5)


def test_only_the_end_of_the_question_heard_is_the_apps_own_voice(bank):
    from sayitout.session.recording_turn import heard_only_the_question

    question = bank.question(Q1).text
    tail = " ".join(question.split()[-6:])
    assert heard_only_the_question(tail, question)
    assert heard_only_the_question(tail.upper() + ".", question)
    assert not heard_only_the_question(GOOD, question)
    assert not heard_only_the_question("", question)


def test_recording_starts_once_the_question_can_no_longer_be_heard(bank, tmp_path):
    from sayitout.session.recording_turn import ECHO_GUARD_S

    spoken_at: list[float] = []

    class Timed(FakeSpeaker):
        def speak(self, text, cancel=None):
            done = super().speak(text, cancel)
            spoken_at.append(time.monotonic())
            return done

    recorded_at: list[float] = []

    class Source(ScriptedSource):
        def record(self, path, **kw):
            recorded_at.append(time.monotonic())
            return super().record(path, **kw)

    services = make_services(
        bank, sources=[Source("a.wav", GOOD)], speaker=Timed(), tmp_path=tmp_path
    )
    engine, events = run(services, SessionPlan(question_ids=(Q1,)))
    events.wait(ev.AnswerScored)
    guard = ECHO_GUARD_S + services.settings.audio.pre_roll_s
    assert recorded_at[0] - spoken_at[0] >= guard - 0.01
    engine.quit()
    assert engine.join(5)
