"""Headless practice sessions for the crash harness (run as a script, killed at random).

Builds the real services from ``Settings`` (``build_services``: faster-whisper, the
MiniLM scorer, the SQLite store under ``SAYITOUT_HOME``, FLAC recordings) with
``--mic-file``-style file microphones, and walks session after session through the
real :class:`~sayitout.session.engine.SessionEngine` without the TUI. Questions are
synthesised with the piper voice (the real TTS work) and "played" by waiting for
their duration, since the machine has no sound card.

It prints one marker per line, flushed at once, for the harness to time its kills:

    READY                     models loaded
    PHASE <phase>             the engine's phase changed
    SPEAK                     a question is being synthesised/read
    REC                       recording started
    RECSTOP <path>            the recording is on disk
    PROC <what>               transcribing | scoring | saving
    SAVED <id> <qid> <path>   an attempt is durable in the database (printed after commit)
    FAILED <message>          the engine reported a failure
    DONE                      all sessions finished
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from sayitout.session.ports import Speaker


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class HeadlessVoice(Speaker):
    """Real piper synthesis of each question; waits its duration instead of playing it."""

    backend = "piper (no playback)"
    notice = None

    def __init__(self, settings: Any, speed: float) -> None:
        from sayitout.speech.tts import make_speaker

        self._speaker = make_speaker(settings.speech.model_copy(update={"tts": "piper"}))
        self._speed = speed

    def speak(self, text: str, cancel: threading.Event | None = None) -> bool:
        audio, sr = self._speaker.synthesize(text)
        if cancel is not None:
            cancel.wait(len(audio) / max(1, sr) / self._speed)
        return True

    def stop(self) -> None:
        pass


def _die_in_save(store: Any, delay_s: float) -> None:
    original = store.save_attempt

    def save_attempt(*args: Any, **kwargs: Any) -> int:
        timer = threading.Timer(delay_s, os.kill, (os.getpid(), signal.SIGKILL))
        timer.daemon = True
        timer.start()
        return original(*args, **kwargs)

    store.save_attempt = save_attempt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--answer", action="append", default=[], metavar="QID=FILE")
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--speed", type=float, default=4.0, help="file microphone pace")
    ap.add_argument("--voice", choices=("piper", "none"), default="piper")
    ap.add_argument(
        "--die-in-save",
        type=float,
        metavar="MS",
        help="SIGKILL this process MS milliseconds after a save_attempt call starts "
        "(a kill inside the database transaction, which the harness cannot time from outside)",
    )
    args = ap.parse_args(argv)

    from sayitout.app_factory import build_services
    from sayitout.config import Settings
    from sayitout.session import events as ev
    from sayitout.session.engine import SessionEngine
    from sayitout.session.plan import SessionPlan

    pairs = [a.split("=", 1) for a in args.answer]
    qids = [q for q, _ in pairs]
    files = [Path(f) for _, f in pairs]
    settings = Settings()
    settings = settings.model_copy(
        update={
            "audio": settings.audio.model_copy(update={"silence_timeout_s": 0.8}),
            "asr": settings.asr.model_copy(update={"device": "cpu"}),
            "scoring": settings.scoring.model_copy(update={"device": "cpu"}),
        }
    )
    services = build_services(
        settings,
        mic_files=files * args.sessions,
        tts="none",
        mic_speed=args.speed,
    )
    if args.voice == "piper":
        services.speaker = HeadlessVoice(settings, args.speed)
    services.warm_up(lambda e: None, voice=False)
    if services.failed:
        for name, err in services.failed.items():
            _say(f"FAILED {name}: {err.message}")
        return 1
    _ = services.bank, services.store
    if args.die_in_save is not None:
        _die_in_save(services.store, args.die_in_save / 1000)
    _say("READY")

    engine_box: list[SessionEngine] = []

    def listener(event: ev.Event) -> None:
        engine = engine_box[0]
        if isinstance(event, ev.PhaseChanged):
            _say(f"PHASE {event.phase.value}")
        elif isinstance(event, ev.SpeakingStarted):
            _say("SPEAK")
        elif isinstance(event, ev.RecordingStarted):
            _say("REC")
        elif isinstance(event, ev.RecordingStopped):
            _say(f"RECSTOP {event.path}")
        elif isinstance(event, ev.Processing):
            _say(f"PROC {event.step}")
        elif isinstance(event, ev.AnswerScored):
            if event.attempt_id is not None:
                _say(f"SAVED {event.attempt_id} {event.question.id} {event.recording_path}")
            engine.next_question()
        elif isinstance(event, ev.NoSpeechHeard):
            _say("NOSPEECH")
            engine.next_question()
        elif isinstance(event, ev.SessionFailed):
            _say(f"FAILED {event.message}")
            engine.next_question()
        elif isinstance(event, ev.SpokenAnswersUnavailable):
            _say(f"FAILED no spoken answers: {event.reason}")
            engine.quit()

    plan = SessionPlan(
        deck=None,
        count=len(qids),
        order="in-order",
        thinking_s=0.0,
        question_ids=tuple(qids),
    )
    for _ in range(args.sessions):
        engine = SessionEngine(services, plan, listener)
        engine_box[:] = [engine]
        engine.start()
        engine.join()
    services.close()
    _say("DONE")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sys.exit(main())
