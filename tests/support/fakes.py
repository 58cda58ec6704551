"""Stand-ins for the models, the speaker and the microphone, and an event recorder, for
the engine and app tests."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from sayitout.scoring.result import AnswerScore, KeyPointResult
from sayitout.session import events as ev
from sayitout.session.ports import IncrementalTranscriber, Microphones, Speaker, Transcriber
from sayitout.speech.recording import Recording, StopReason
from sayitout.speech.transcript import LiveWords, Transcript, Word


class KeywordScorer:
    """Covered when any of a key point's first three words appears in the answer."""

    model_name = "keyword-fake"

    def __init__(self) -> None:
        self.loaded = False
        self.calls = 0

    def warm_up(self) -> None:
        self.loaded = True

    def score(self, rubric, answer) -> AnswerScore:
        self.calls += 1
        text = answer if isinstance(answer, str) else answer.text
        low = text.lower()
        results = []
        for kp in rubric.key_points:
            hit = any(t.lower() in low for t in kp.terms) or kp.id.replace("-", " ") in low
            results.append(
                KeyPointResult(
                    kp.id,
                    kp.text,
                    kp.weight,
                    "covered" if hit else "missed",
                    1.0 if hit else 0.0,
                    text if hit else None,
                )
            )
        covered = sum(r.weight for r in results if r.status == "covered")
        total = sum(r.weight for r in results)
        score = round(100 * covered / total)
        return AnswerScore(
            rubric.question_id,
            score,
            f"{score}/100",
            tuple(results),
            None,
            (),
            None,
            text,
            rubric.version,
            self.model_name,
        )


class ScriptedSource:
    """Plays a scripted answer: a few level updates, one speech segment, then stops."""

    def __init__(
        self,
        name: str,
        text: str,
        seconds: float = 0.2,
        reason: StopReason = StopReason.SILENCE,
        wait_for_stop: bool = False,
        open_s: float = 0.0,
    ) -> None:
        self.name = name
        self.text = text
        self.seconds = seconds
        self.reason = reason
        self.wait_for_stop = wait_for_stop
        self.open_s = open_s
        """How long the "device" takes to deliver its first audio (then ``on_start``)."""

    def record(
        self,
        path: Path,
        *,
        limit_s: float,
        stop: threading.Event,
        cancel: threading.Event,
        on_level,
        on_segment,
        on_start,
        on_open=None,
    ) -> Recording:
        start = time.monotonic()
        if self.open_s:
            cancel.wait(self.open_s)
        on_start()
        reason = self.reason
        while True:
            elapsed = time.monotonic() - start
            on_level(0.5, elapsed)
            if cancel.is_set():
                return Recording(None, elapsed, StopReason.CANCELLED)
            if stop.is_set():
                reason = StopReason.KEY
                break
            if not self.wait_for_stop and elapsed >= self.seconds:
                break
            if elapsed >= limit_s:
                reason = StopReason.TIME_LIMIT
                break
            time.sleep(0.02)
        FakeTranscriber.last_text = self.text
        on_segment(0.0, np.zeros(1600, dtype=np.float32))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"fLaC" + self.text.encode())
        return Recording(path, time.monotonic() - start, reason)


class ScriptedMicrophones(Microphones):
    def __init__(self, sources: Sequence[ScriptedSource], reason: str | None = None) -> None:
        self.sources = list(sources)
        self.reason = reason

    def unavailable(self):
        return (self.reason, "type your answers") if self.reason else None

    def next_source(self):
        return self.sources.pop(0) if self.sources else None


class EarlyMicrophones(ScriptedMicrophones):
    """Records when the engine asks for the microphone to be opened early and closed."""

    def __init__(self, sources, log: list[str]) -> None:
        super().__init__(sources)
        self.log = log

    def prepare(self) -> None:
        self.log.append("prepare")

    def release(self) -> None:
        self.log.append("release")

    def next_source(self):
        self.log.append("next_source")
        return super().next_source()


class FakeLive(IncrementalTranscriber):
    """Reads the "recording" back: a scripted source writes its text into the file."""

    def __init__(self, on_partial: Callable[[str], None] | None) -> None:
        self.on_partial = on_partial
        self.segments = 0
        self.cancelled = False

    def add_segment(self, start_s: float, audio) -> None:
        self.segments += 1
        if self.on_partial is not None:
            self.on_partial(LiveWords(f"partial {self.segments}"))

    def finish(self, *, duration: float | None = None) -> Transcript:
        text = FakeTranscriber.last_text
        words = tuple(Word(w, i * 0.4, i * 0.4 + 0.3) for i, w in enumerate(text.split()))
        return Transcript(text, words, duration or 0.0, model="fake-asr")

    def cancel(self) -> None:
        self.cancelled = True


class FakeTranscriber(Transcriber):
    model_name = "fake-asr"
    last_text = ""
    """What the last scripted source "said" (the fakes share it, as the real recorder
    and transcriber share the audio)."""

    def __init__(self, fail: Exception | None = None) -> None:
        self.fail = fail
        self.terms: list[list[str]] = []

    def warm_up(self) -> None:
        if self.fail:
            raise self.fail

    def live(self, terms, on_partial=None) -> FakeLive:
        self.terms.append(list(terms))
        return FakeLive(on_partial)

    def transcribe(self, audio, *, terms=()) -> Transcript:
        return FakeLive(None).finish(duration=len(audio) / 16000)


class FakeSpeaker(Speaker):
    backend = "fake"
    notice = None

    def __init__(self, seconds: float = 0.0, log: list[str] | None = None) -> None:
        self.spoken: list[str] = []
        self.seconds = seconds
        self.log = log if log is not None else []
        self.warmed: list[str] = []

    def speak(self, text: str, cancel: threading.Event | None = None) -> bool:
        self.spoken.append(text)
        self.log.append("speak")
        if cancel is not None:
            cancel.wait(self.seconds)
        return not (cancel is not None and cancel.is_set())

    def warm(self, texts: list[str]) -> None:
        self.warmed.extend(texts)

    def stop(self) -> None:
        pass


class Events:
    """Collects events from the engine thread; ``wait`` replaces sleeps."""

    def __init__(self) -> None:
        self.q: queue.Queue[ev.Event] = queue.Queue()
        self.seen: list[ev.Event] = []

    def __call__(self, event: ev.Event) -> None:
        self.q.put(event)

    def wait(self, kind: type, timeout: float = 10.0, where=lambda e: True):
        for e in self.seen:
            if isinstance(e, kind) and where(e) and not getattr(e, "_used", False):
                object.__setattr__(e, "_used", True)
                return e
        while True:
            e = self.q.get(timeout=timeout)
            self.seen.append(e)
            if isinstance(e, kind) and where(e):
                object.__setattr__(e, "_used", True)
                return e

    def phase(self, phase: ev.Phase, timeout: float = 10.0) -> None:
        self.wait(ev.PhaseChanged, timeout, lambda e: e.phase is phase)

    def of(self, kind: type) -> list:
        while True:
            try:
                self.seen.append(self.q.get_nowait())
            except queue.Empty:
                break
        return [e for e in self.seen if isinstance(e, kind)]
