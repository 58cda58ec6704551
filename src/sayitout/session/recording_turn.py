"""One spoken answer: recorded from an answer source while it is transcribed.

The engine decides whether an answer can be spoken at all (a microphone, a speech
model, a file left to play); :class:`RecordingTurn` then records it, shows the words
as they are heard, waits until the app's own voice can no longer reach the microphone,
and hands back the transcript and the recording, or None with the phase set to say
what happens next. It also holds a spoken answer too short to score until the
candidate keeps it or answers again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sayitout.errors import SayitoutError
from sayitout.session import events as ev
from sayitout.session.commands import CommandQueue
from sayitout.session.events import Phase
from sayitout.speech.recording import StopReason

if TYPE_CHECKING:
    from sayitout.config import AudioSettings
    from sayitout.session.ports import AnswerSource, IncrementalTranscriber
    from sayitout.speech.recording import Recording
    from sayitout.speech.transcript import LiveWords, Transcript

ECHO_GUARD_S = 0.45
"""After the app stops speaking, how long its voice may still reach the microphone
(output and input latency, the room). Recording starts this long plus the pre-roll
after playback ended, so the pre-roll the microphone keeps never holds the question."""
MIN_ANSWER_WORDS = 5
"""A spoken answer with fewer words is shown, not scored (retry, type, or keep it)."""
PROGRESS_EVERY_S = 0.1
"""How often recording progress (level, elapsed time) is reported."""

Heard = tuple["Transcript", "Recording"]
"""A spoken answer: what was heard and its recording."""
Progress = Callable[[float, float], None]
"""``(elapsed seconds, limit seconds)`` with each recording progress update."""


class RecordingTurn:
    """Records and transcribes the engine's spoken answers, one at a time.

    ``stop`` ends the answer now (the key press); ``cancel`` abandons it. Both are set
    from front-end threads; the engine clears them when a new answer may start.
    """

    def __init__(
        self,
        audio: AudioSettings,
        commands: CommandQueue,
        emit: Callable[[ev.Event], None],
        set_phase: Callable[[Phase], None],
    ) -> None:
        self._audio = audio
        self._commands = commands
        self._emit = emit
        self._set_phase = set_phase
        self.stop = threading.Event()
        self.cancel = threading.Event()
        self._quiet_at = 0.0
        """``time.monotonic()`` from which the app's own voice can no longer be heard."""
        self._short: Heard | None = None
        """A spoken answer too short to score, until the candidate decides."""

    def spoke(self) -> None:
        """The app just stopped speaking: its voice may reach the microphone a while yet."""
        self._quiet_at = time.monotonic() + ECHO_GUARD_S

    def live_words(self, words: LiveWords) -> None:
        """The words heard so far, for the front end (the transcriber's partial callback)."""
        self._emit(ev.PartialTranscript(words.text, words.tentative, words.behind))

    def record(
        self,
        source: AnswerSource,
        live: IncrementalTranscriber,
        path: Path,
        limit: float,
        index: int,
        on_progress: Progress,
    ) -> Heard | None:
        """Record one answer from ``source`` into ``path`` while ``live`` transcribes it;
        None when there is none to score (cancelled, failed, nothing heard), with the
        phase set to say what happens next."""
        self.stop.clear()
        self._commands.check_quit()
        last_progress = 0.0

        def on_level(level: float, elapsed: float) -> None:
            nonlocal last_progress
            now = time.monotonic()
            if now - last_progress >= PROGRESS_EVERY_S:
                last_progress = now
                self._emit(ev.RecordingProgress(level, elapsed, limit))
                on_progress(elapsed, limit)

        self._set_phase(Phase.RECORDING)
        self._emit(ev.RecordingStarted(limit, source.name))
        self._wait_for_quiet()
        try:
            recording = source.record(
                path,
                limit_s=limit,
                stop=self.stop,
                cancel=self.cancel,
                on_level=on_level,
                on_segment=live.add_segment,
                on_start=lambda: self._emit(ev.Listening(source.name)),
                on_open=live.preview,
            )
        except SayitoutError as exc:
            live.cancel()
            self._emit(ev.SessionFailed.of(exc))
            self._set_phase(Phase.AWAITING_ANSWER)
            return None
        self._emit(ev.RecordingStopped(recording.ended_by, recording.path, recording.duration_s))
        if recording.error:
            self._emit(ev.Notice(recording.error, "what was recorded is kept and scored"))
        if recording.ended_by is StopReason.CANCELLED:
            live.cancel()
            if recording.path is not None:
                recording.path.unlink(missing_ok=True)
            self._commands.check_quit()
            self._set_phase(Phase.AWAITING_ANSWER)
            return None
        self._set_phase(Phase.PROCESSING)
        self._emit(ev.Processing("transcribing"))
        try:
            transcript = live.finish(duration=recording.duration_s)
        except SayitoutError as exc:
            self._emit(ev.SessionFailed.of(exc))
            self._set_phase(Phase.AWAITING_ANSWER)
            return None
        if transcript.is_empty:
            self._emit(ev.NoSpeechHeard(index, recording.path))
            self._set_phase(Phase.NO_SPEECH)
            return None
        return transcript, recording

    def _wait_for_quiet(self) -> None:
        """Until the question read aloud can no longer reach the microphone (plus the
        pre-roll it keeps): the app must never hear itself. The microphone, opened while
        the question was read, stays open, so the answer's first word is not cut."""
        if self._quiet_at <= 0.0:
            return
        wait = self._quiet_at + self._audio.pre_roll_s - time.monotonic()
        if wait > 0:
            self.cancel.wait(wait)

    # --- an answer too short to score ------------------------------------------------------

    def worth_scoring(self, heard: Heard, question_text: str, index: int) -> bool:
        """An answer of almost nothing (or the app's own voice heard back) is shown, not
        scored: it is held until the candidate keeps it or answers again."""
        transcript = heard[0]
        echo = heard_only_the_question(transcript.text, question_text)
        words = len(transcript.text.split())
        if echo or words < MIN_ANSWER_WORDS:
            self._short = heard
            self._emit(ev.AnswerTooShort(index, transcript.text, words, echo))
            self._set_phase(Phase.NO_SPEECH)
            return False
        return True

    def take_short(self) -> Heard | None:
        """The short answer the candidate chose to keep (None when there is none)."""
        short, self._short = self._short, None
        return short

    def drop_short(self) -> None:
        """Forget a short answer the candidate did not keep: it is not an attempt, so its
        recording goes too (else it would come back as an unsaved answer)."""
        short = self.take_short()
        if short is not None and short[1].path is not None:
            short[1].path.unlink(missing_ok=True)


def _words(text: str) -> list[str]:
    return ["".join(c for c in w.lower() if c.isalnum()) for w in text.split()]


def heard_only_the_question(heard: str, question: str, tail_words: int = 12) -> bool:
    """Whether every word heard is one of the last words of the question: the app's own
    voice reaching the microphone, not an answer."""
    said = [w for w in _words(heard) if w]
    tail = {w for w in _words(question)[-tail_words:] if w}
    return bool(said) and all(w in tail for w in said)
