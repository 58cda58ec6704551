"""Warm start: the voice loads first, the microphone opens while the question is read,
"listening" is shown only once audio flows, and the TTS cache is filled ahead."""

from __future__ import annotations

import threading
import time

import pytest

from sayitout.app_factory import build_services
from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.session import events as ev
from sayitout.session.engine import SessionEngine
from sayitout.session.plan import SessionPlan
from sayitout.session.services import SessionServices
from sayitout.speech.microphones import LiveMicrophones
from support.fakes import (
    EarlyMicrophones,
    Events,
    FakeSpeaker,
    FakeTranscriber,
    KeywordScorer,
    ScriptedMicrophones,
    ScriptedSource,
)

Q1, Q2 = "dl-loss-stuck-at-chance", "dl-val-loss-rises"


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def services_with(bank, microphones, voice=None) -> SessionServices:
    return SessionServices(
        settings=Settings(),
        bank_loader=lambda: bank,
        scorer=KeywordScorer(),
        transcriber=FakeTranscriber(),
        microphones=microphones,
        speaker=voice,
    )


def run(services, plan) -> tuple[SessionEngine, Events]:
    events = Events()
    engine = SessionEngine(services, plan, events)
    engine.start()
    return engine, events


def test_microphone_opens_before_the_question_is_read_and_closes_after_the_turn(bank):
    log: list[str] = []
    mics = EarlyMicrophones([ScriptedSource("mic", "I think it is the natural log")], log)
    voice = FakeSpeaker(log=log)
    engine, events = run(services_with(bank, mics, voice), SessionPlan(question_ids=(Q1,)))
    events.wait(ev.AnswerScored)
    engine.next_question()
    events.wait(ev.SessionFinished)
    assert engine.join(5)
    assert log[:3] == ["prepare", "speak", "next_source"]
    assert log[-1] == "release"
    # The questions and this question's model answer were synthesised ahead.
    rubric = bank.rubric(Q1)
    assert bank.question(Q1).text in voice.warmed and rubric.model_answer in voice.warmed


def test_listening_is_reported_when_the_first_audio_arrives(bank):
    source = ScriptedSource("slow mic", "I think it is the natural log", open_s=0.4)
    engine, events = run(
        services_with(bank, ScriptedMicrophones([source])), SessionPlan(question_ids=(Q1,))
    )
    started = events.wait(ev.RecordingStarted)
    t0 = time.monotonic()
    listening = events.wait(ev.Listening)
    assert listening.source == "slow mic" and time.monotonic() - t0 >= 0.3
    events.wait(ev.AnswerScored)
    order = [type(e) for e in events.seen]
    assert order.index(ev.RecordingStarted) < order.index(ev.Listening)
    assert order.index(ev.Listening) < order.index(ev.RecordingProgress)
    assert started.source == "slow mic"
    engine.quit()
    assert engine.join(5)


class _SlowSource:
    """Stands in for ``MicrophoneSource``: opening takes a while; a second start keeps
    only the pre-roll (here: records that it was called on an open stream)."""

    def __init__(self, open_s: float = 0.3) -> None:
        self.open_s = open_s
        self.starts: list[str] = []
        self.stopped = False
        self.opened = False
        self.name = "microphone test"

    def start(self) -> None:
        if self.opened:
            self.starts.append("pre-roll")
            return
        time.sleep(self.open_s)
        self.opened = True
        self.starts.append("open")

    def stop(self) -> None:
        self.stopped = True
        self.opened = False


def test_live_microphones_open_early_and_hand_that_source_to_the_recorder(monkeypatch):
    mics = LiveMicrophones(Settings().audio)
    monkeypatch.setattr(mics, "unavailable", lambda: None)
    made: list[_SlowSource] = []
    monkeypatch.setattr(mics, "_new_source", lambda: made.append(_SlowSource()) or made[-1])

    t0 = time.monotonic()
    mics.prepare()
    mics.prepare()  # idempotent: one early source
    assert time.monotonic() - t0 < 0.2, "prepare does not wait for the device"
    assert len(made) == 1
    source = mics.next_source()
    early = source._source
    early.start()  # the recorder's start: waits for the early open, then keeps the pre-roll
    assert made[0].starts == ["open", "pre-roll"]
    early.stop()
    assert made[0].stopped
    # Without prepare, a fresh source is opened by the recorder itself.
    assert mics.next_source()._source is made[1]
    mics.release()  # nothing prepared: nothing to do


def test_a_microphone_opened_early_and_not_used_is_closed(monkeypatch):
    mics = LiveMicrophones(Settings().audio)
    monkeypatch.setattr(mics, "unavailable", lambda: None)
    slow = _SlowSource(open_s=0.2)
    monkeypatch.setattr(mics, "_new_source", lambda: slow)
    mics.prepare()
    mics.release()  # e.g. the answer was typed
    assert slow.stopped and not slow.opened


def test_voice_starts_loading_first_and_is_loaded_before_it_is_ready(monkeypatch):
    order: list[str] = []

    class Speaker:
        backend = "none"
        notice = None

        def prepare(self) -> None:
            order.append("voice.prepare")

        def warm_up(self) -> None:
            order.append("voice.load")

    import sayitout.speech.tts as tts

    monkeypatch.setattr(tts, "make_speaker", lambda settings: Speaker())
    recognizer = FakeTranscriber()
    recognizer.warm_up = lambda: order.append("speech.load")
    services = SessionServices(
        settings=Settings(),
        bank_loader=lambda: None,
        scorer=KeywordScorer(),
        transcriber=recognizer,
        microphones=ScriptedMicrophones([]),
        speaker=build_services(Settings(), tts="piper")._speaker,
    )
    seen: list[ev.Event] = []
    services.warm_up(seen.append)
    assert order == ["voice.prepare", "speech.load", "voice.load"]
    assert any(isinstance(e, ev.ModelReady) and e.name == "voice" for e in seen)


def test_a_voice_that_fails_to_load_is_reported_at_warm_up(monkeypatch):
    from sayitout.errors import ModelError

    class Speaker:
        backend = "none"
        notice = None

        def prepare(self) -> None:
            threading.Thread(target=lambda: None).start()

        def warm_up(self) -> None:
            raise ModelError("the piper voice could not be loaded", "reinstall it")

    import sayitout.speech.tts as tts

    monkeypatch.setattr(tts, "make_speaker", lambda settings: Speaker())
    speaker = build_services(Settings(), tts="piper")._speaker
    services = services_with(None, ScriptedMicrophones([]), speaker)
    seen: list[ev.Event] = []
    services.warm_up(seen.append, speech=False, scoring=False)
    [failed] = [e for e in seen if isinstance(e, ev.ModelFailed) and e.name == "voice"]
    assert "could not be loaded" in failed.message
    assert "voice" in services.failed


def test_new_settings_stop_the_old_services_loading(bank):
    loaded: list[str] = []

    class Slow(FakeTranscriber):
        def warm_up(self) -> None:
            loaded.append("speech")
            services.close()  # new settings arrive while the speech model loads

    services = services_with(bank, ScriptedMicrophones([]))
    services.transcriber = Slow()
    services.scorer.warm_up = lambda: loaded.append("scoring")
    seen: list[ev.Event] = []
    services.warm_up(seen.append)
    assert loaded == ["speech"], "the scoring model of replaced settings is not loaded"
    cancel = threading.Event()
    cancel.set()
    fresh = services_with(bank, ScriptedMicrophones([]))
    fresh.scorer.warm_up = lambda: loaded.append("fresh scoring")
    fresh.warm_up(seen.append, cancel)
    assert "fresh scoring" not in loaded
