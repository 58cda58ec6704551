"""Answers recorded by an earlier run but never scored are offered at start (issue 6)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.recovery import Outcome, recovery_report
from sayitout.speech.transcript import Transcript
from sayitout.store import AttemptFilter, Store
from sayitout.tui import make_app
from sayitout.tui.screens.confirm import ConfirmDialog
from sayitout.tui.screens.home import HomeScreen
from support.tui import fake_services, text_of, wait_until

QID = "dl-loss-stuck-at-chance"
SPEECH = Path(__file__).resolve().parents[2] / "../shared/speech"
CLIP = SPEECH / "jfk_inaugural.wav"


@pytest.fixture(scope="module")
def bank():
    return load_bank()


@pytest.fixture
def orphan(tmp_path) -> Path:
    """A real spoken answer left as FLAC where the store writes recordings, never saved."""
    if not CLIP.is_file():
        pytest.skip(f"real speech clips not found at {SPEECH} (shared/ beside the repo)")
    import soundfile as sf

    audio, sr = sf.read(CLIP, dtype="float32")
    with Store.open(tmp_path / "db.sqlite") as store:  # the same store fake_services opens
        path = store.new_recording_path(QID)
        sf.write(path, audio, sr, format="FLAC")
        os.utime(path, (time.time() - 60, time.time() - 60))  # written by an earlier run
        assert [o.path for o in store.orphan_recordings()] == [path]
    return path


class _CannedTranscriber:
    """Stands in for Whisper in the fast test (the e2e test below uses the real one)."""

    def __init__(self, settings) -> None:
        self.settings = settings

    def transcribe(self, audio, *, terms=()):
        assert len(audio) > 16000  # the recording's audio really was read
        return Transcript(
            text="It is at chance level, the natural log of ten, so overfit a single batch.",
            words=[],
            duration=len(audio) / 16000,
            model="canned",
            device="cpu",
        )


async def _start_and_answer(app, key: str):
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), what="offer")
        assert "1 recorded answer was not saved" in text_of(
            app.screen.query_one("#confirm-message")
        )
        await pilot.press(key)
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        if key == "y":
            await wait_until(
                pilot,
                lambda: (
                    app.status.recovery is None
                    and any("Recovered" in (n.title or "") for n in app._notifications)
                ),
                timeout=120,
                what="recovery to finish",
            )
        return [(n.title, n.message) for n in app._notifications]


async def test_accepting_the_offer_saves_the_attempt(bank, tmp_path, orphan):
    services = fake_services(bank, tmp_path)
    services.transcriber = _CannedTranscriber(None)  # recovery uses the app's transcriber
    app = make_app(Settings(), services=services, load_models=False)
    notes = await _start_and_answer(app, "y")
    title, message = notes[-1]
    assert title == "Recovered 1 of 1 unsaved answer"
    assert message.startswith(f"Saved to history: {QID} ")
    with Store.open(tmp_path / "db.sqlite") as store:
        [summary] = store.attempts(AttemptFilter(question_id=QID))
        assert summary.ended_by == "recovered"
        attempt = store.attempt(summary.id)
        assert Path(attempt.recording_path) == orphan
        assert "chance level" in attempt.transcript.text
        assert store.orphan_recordings() == []


async def test_declining_leaves_the_recording_for_next_time(bank, tmp_path, orphan):
    services = fake_services(bank, tmp_path)
    app = make_app(Settings(), services=services, load_models=False)
    notes = await _start_and_answer(app, "n")
    assert any(title == "Unsaved answers kept" for title, _ in notes)
    assert orphan.is_file()
    with Store.open(tmp_path / "db.sqlite") as store:
        assert store.attempts() == []
        assert [o.path for o in store.orphan_recordings()] == [orphan]
    # ...and the next start offers it again.
    app = make_app(Settings(), services=fake_services(bank, tmp_path), load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), what="offer")


async def test_no_offer_without_orphans(bank, tmp_path):
    app = make_app(Settings(), services=fake_services(bank, tmp_path), load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.screen.decks, what="home data")
        await pilot.pause(0.3)
        assert isinstance(app.screen, HomeScreen)


@pytest.mark.e2e
async def test_recovery_with_the_real_speech_model(bank, tmp_path, orphan):
    from sayitout.speech.asr import Transcriber

    services = fake_services(bank, tmp_path)
    services.transcriber = Transcriber(Settings().asr)  # recovery uses the app's transcriber
    app = make_app(Settings(), services=services, load_models=False)
    await _start_and_answer(app, "y")
    with Store.open(tmp_path / "db.sqlite") as store:
        [summary] = store.attempts(AttemptFilter(question_id=QID))
        attempt = store.attempt(summary.id)
        assert "ask not what your country" in attempt.transcript.text.lower()


def test_report_says_why_others_were_not_recovered():
    def r(outcome, message, score=None, qid=QID):
        return SimpleNamespace(
            outcome=outcome, message=message, score=score, question_id=qid, discarded=False
        )

    title, text, severity = recovery_report(
        [
            r(Outcome.RECOVERED, "saved as attempt 3 (score 80)", 80),
            r(Outcome.NO_SPEECH, "no speech was heard in the recording"),
            r(Outcome.NO_SPEECH, "no speech was heard in the recording"),
        ]
    )
    assert title == "Recovered 1 of 3 unsaved answers"
    assert f"{QID} 80/100" in text
    assert "2 not recovered: no speech was heard in the recording." in text
    assert "2 files are kept" in text
    assert severity == "warning"
    assert recovery_report([r(Outcome.FAILED, "transcription failed: boom")])[2] == "error"


async def test_offer_waits_until_home_when_the_app_opens_into_a_session(bank, tmp_path, orphan):
    from sayitout.session.plan import SessionPlan
    from sayitout.tui.screens.session import SessionScreen
    from sayitout.tui.screens.summary import SummaryScreen

    services = fake_services(bank, tmp_path, mic_reason="no microphone")
    plan = SessionPlan(question_ids=(QID,), count=1)
    app = make_app(Settings(), plan=plan, services=services, load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SessionScreen), what="session")
        await pilot.pause(0.5)
        assert not any(isinstance(s, ConfirmDialog) for s in app.screen_stack)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), what="offer")


async def test_a_recording_still_being_written_is_not_offered(bank, tmp_path, orphan):
    os.utime(orphan)  # modified just now: another window may be recording it
    app = make_app(Settings(), services=fake_services(bank, tmp_path), load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.screen.decks, what="home data")
        await pilot.pause(0.3)
        assert isinstance(app.screen, HomeScreen)


async def test_a_typed_answer_score_could_not_save_is_offered_and_saved(bank, tmp_path):
    """`score --save` keeps an answer it could not store in unsaved/; the app offers it at
    start like an orphan recording, and saving it removes the kept file."""
    from sayitout.store.unsaved import keep_unsaved_answer, unsaved_answers

    kept = keep_unsaved_answer(QID, "It is at chance level: the loss is ln 10, about 2.3.")
    app = make_app(Settings(), services=fake_services(bank, tmp_path), load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), what="offer")
        message = text_of(app.screen.query_one("#confirm-message"))
        assert "1 typed answer was scored but not saved" in message
        assert "Score and save it now?" in message and "recorded" not in message
        await pilot.press("y")
        await wait_until(
            pilot,
            lambda: any("Recovered" in (n.title or "") for n in app._notifications),
            timeout=60,
            what="recovery to finish",
        )
    assert not kept.exists() and unsaved_answers() == []
    with Store.open(tmp_path / "db.sqlite") as store:
        [summary] = store.attempts(AttemptFilter(question_id=QID))
        assert "chance level" in store.attempt(summary.id).transcript.text
