"""The engine with the real recorder playing WAV files as the microphone.

Speech recognition and scoring are stand-ins here (the app's e2e test runs the real
ones); what is checked is the audio path: files played one per answer, level and
speech segments reported, the FLAC on disk before transcription starts, and the
attempt saved with its recording.
"""

from __future__ import annotations

import queue
from pathlib import Path

from sayitout.app_factory import build_services
from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.session import events as ev
from sayitout.session.engine import SessionEngine
from sayitout.session.plan import SessionPlan
from sayitout.session.ports import IncrementalTranscriber, Transcriber
from sayitout.speech.transcript import Transcript
from sayitout.store import Store
from support.fakes import KeywordScorer


class _Live(IncrementalTranscriber):
    def __init__(self, log: dict, recordings: Path) -> None:
        self.log = log
        self.recordings = recordings

    def add_segment(self, start_s: float, audio) -> None:
        self.log["segments"].append((start_s, len(audio)))

    def finish(self, *, duration: float | None = None) -> Transcript:
        import soundfile as sf

        # The recording is complete on disk before transcription starts.
        done = {path for path, _, _ in self.log["flac"]}
        [path] = [p for p in self.recordings.rglob("*.flac") if p not in done]
        info = sf.info(str(path))
        self.log["flac"].append((path, info.format, info.duration))
        return Transcript("overfit a single batch at chance level", model="stand-in")

    def cancel(self) -> None:
        self.log["cancelled"] += 1


class StandInTranscriber(Transcriber):
    model_name = "stand-in"

    def __init__(self, recordings: Path) -> None:
        self.log = {"segments": [], "flac": [], "cancelled": 0}
        self.recordings = recordings

    def warm_up(self) -> None:
        pass

    def live(self, terms, on_partial=None) -> _Live:
        return _Live(self.log, self.recordings)


def test_mic_files_are_recorded_to_flac_and_saved(shared_speech, tmp_path):
    clips = [shared_speech / "cmu_goforward.wav", shared_speech / "libritts_260-123286.wav"]
    services = build_services(Settings(), mic_files=clips, tts="none", mic_speed=4.0)
    assert services.store is not None
    transcriber = StandInTranscriber(services.store.recordings_dir)
    services.transcriber = transcriber
    services.scorer = KeywordScorer()
    bank = load_bank()
    plan = SessionPlan(question_ids=("dl-loss-stuck-at-chance", "dl-val-loss-rises"), count=2)
    events: queue.Queue = queue.Queue()
    engine = SessionEngine(services, plan, events.put)
    engine.start()
    seen: list = []
    while True:
        e = events.get(timeout=60)
        seen.append(e)
        if isinstance(e, ev.AnswerScored):
            engine.next_question()
        if isinstance(e, ev.SessionFinished):
            break
    engine.join(5)
    services.close()

    started = [e for e in seen if isinstance(e, ev.RecordingStarted)]
    assert [s.source for s in started] == [c.name for c in clips]
    stopped = [e for e in seen if isinstance(e, ev.RecordingStopped)]
    assert all(s.reason is ev.StopReason.END_OF_INPUT for s in stopped)
    assert any(isinstance(e, ev.RecordingProgress) and e.level > 0 for e in seen)
    assert transcriber.log["segments"], "speech segments reach the transcriber while recording"
    assert [f[1] for f in transcriber.log["flac"]] == ["FLAC", "FLAC"]
    assert 2.0 < transcriber.log["flac"][0][2] < 4.0  # goforward is 2.8 s
    store = Store.open()
    attempts = sorted(store.attempts(), key=lambda a: a.id)
    assert [a.question_id for a in attempts] == list(plan.question_ids)
    assert [a.recording_path for a in attempts] == [f[0] for f in transcriber.log["flac"]]
    assert all(a.ended_by == "end_of_input" for a in attempts)
    assert bank.deck_of(attempts[0].question_id) == attempts[0].deck
