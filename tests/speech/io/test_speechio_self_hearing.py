"""The app never hears itself, through the real audio loop (issue 12 §1).

The whole session engine runs as the app does (``app_factory.build_services``): the
question is read aloud by piper into the virtual sound card's null sink, the microphone
is that sink's monitor, opened early while the question is read, and Whisper
transcribes what it records. Everything the app plays comes straight back into the
microphone, as with a laptop's speakers and no headset, so any of the question's
voice kept in a recording would reach the transcript.
"""

from __future__ import annotations

import queue
import threading
import time

import pytest

from sayitout.app_factory import build_services
from sayitout.config import Settings
from sayitout.session import events as ev
from sayitout.session.engine import SessionEngine
from sayitout.session.plan import SessionPlan
from sayitout.speech.audio import Player, list_devices
from support.fakes import KeywordScorer

pytestmark = [pytest.mark.audio, pytest.mark.e2e]

QUESTION = "dl-initial-loss"  # "... on the very first batch? (Natural log.)"
ANSWER = "About two point three, since there are ten classes and the model guesses evenly."


def _words(text: str) -> set[str]:
    return {"".join(c for c in w.lower() if c.isalnum()) for w in text.split()} - {""}


def test_the_question_read_aloud_never_reaches_a_transcript(audio_loop, say, tmp_path):
    device = "pulse" if any(d.name == "pulse" for d in list_devices()) else None
    settings = Settings()
    settings = settings.model_copy(
        update={
            "audio": settings.audio.model_copy(
                update={"input_device": device, "output_device": device, "silence_timeout_s": 1.5}
            ),
            "asr": settings.asr.model_copy(update={"device": "cpu"}),
        }
    )
    services = build_services(settings, tts="piper")
    services.scorer = KeywordScorer()
    services.warm_up(lambda e: None, scoring=False)
    assert not services.failed, services.failed
    assert services.speaker is not None and services.speaker.backend == "piper"

    events: queue.Queue[ev.Event] = queue.Queue()
    engine = SessionEngine(
        services, SessionPlan(question_ids=(QUESTION, QUESTION), count=2), events.put
    )
    candidate = Player(device)
    answer = say(ANSWER)

    def wait_for(*kinds: type) -> ev.Event:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            event = events.get(timeout=120)
            if isinstance(event, kinds):
                return event
        raise AssertionError(f"no {kinds} within 120 s")

    engine.start()
    try:
        # 1. The candidate says nothing: the question's end must not be heard as an answer.
        wait_for(ev.SpeakingFinished)
        wait_for(ev.Listening)
        time.sleep(3.0)
        engine.stop_recording()
        silent = wait_for(ev.NoSpeechHeard, ev.AnswerTooShort, ev.AnswerScored)
        heard = getattr(silent, "heard", "") or getattr(
            getattr(silent, "transcript", None), "text", ""
        )
        assert isinstance(silent, ev.NoSpeechHeard), f"the app heard itself: {heard!r}"

        # 2. The candidate answers right after the question: only the answer is heard.
        engine.next_question()
        wait_for(ev.SpeakingFinished)
        wait_for(ev.Listening)
        threading.Thread(target=lambda: candidate.play(answer, 16_000, blocking=True)).start()
        scored = wait_for(ev.AnswerScored, ev.AnswerTooShort, ev.NoSpeechHeard)
        assert isinstance(scored, ev.AnswerScored), scored
        text = scored.transcript.text
        print(f"heard: {text!r}")
        assert "three" in _words(text) or "2.3" in text, text
        # The words the question ends with ("... on the very first batch? (Natural log.)"),
        # which a recording that began during the question would start with.
        tail = " ".join(services.bank.question(QUESTION).text.split()[-8:])
        leaked = _words(text) & (_words(tail) - _words(ANSWER))
        assert not leaked, f"the question leaked into {text!r}: {leaked}"
    finally:
        engine.close()
        candidate.stop()
        services.close()
