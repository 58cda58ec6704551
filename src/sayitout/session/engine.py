"""The practice-session state machine.

One engine walks one session: ask each question (read aloud, skippable and
replayable), optional thinking time, record the answer while transcribing it,
score it, save the attempt at once, then wait for the candidate: try again, next,
edit the transcript and rescore, type the answer instead, hear the model answer.

The engine runs on its own thread. Front ends call the command methods (any
thread) and receive :mod:`~sayitout.session.events` through the listener, called
from the engine's threads. Blocking steps (speech, recording, thinking) watch
``threading.Event`` objects, so a command interrupts them at once.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sayitout.errors import SayitoutError
from sayitout.session import events as ev
from sayitout.session.events import Attempted, Phase
from sayitout.session.followups import (
    FOLLOW_UP_ANSWER_S,
    already_credited,
    follow_up_candidates,
    score_reply,
    with_follow_up,
)
from sayitout.session.plan import SessionPlan, pick_questions
from sayitout.session.services import SessionServices
from sayitout.session.summary import SessionSummary, summarise
from sayitout.speech.recording import StopReason
from sayitout.store.records import PASSED

if TYPE_CHECKING:
    from sayitout.bank.models import Question, Rubric
    from sayitout.scoring.result import AnswerScore
    from sayitout.session.ports import Speaker
    from sayitout.speech.recording import Recording
    from sayitout.speech.transcript import LiveWords, Transcript
    from sayitout.store import Store

log = logging.getLogger(__name__)

Listener = Callable[[ev.Event], None]
_PROGRESS_EVERY_S = 0.1
ECHO_GUARD_S = 0.45
"""After the app stops speaking, how long its voice may still reach the microphone
(output and input latency, the room). Recording starts this long plus the pre-roll
after playback ended, so the pre-roll the microphone keeps never holds the question."""
MIN_ANSWER_WORDS = 5
"""A spoken answer with fewer words is shown, not scored (retry, type, or keep it)."""


# --- commands: what front ends ask for, queued for the engine thread ------------------------


@dataclass(frozen=True)
class _Replay:
    """Read the question again."""


@dataclass(frozen=True)
class _Record:
    """Record an answer (again)."""

    again: bool = False


@dataclass(frozen=True)
class _Typed:
    text: str


@dataclass(frozen=True)
class _Edit:
    text: str


@dataclass(frozen=True)
class _ModelAnswer:
    speak: bool


@dataclass(frozen=True)
class _Keep:
    """Score a short answer anyway."""


@dataclass(frozen=True)
class _Next:
    """On to the next question."""


@dataclass(frozen=True)
class _Pass:
    """ "I don't know": pass on the question (or on a follow-up)."""


@dataclass(frozen=True)
class _QuitCommand:
    """End the session."""


_Command = _Replay | _Record | _Typed | _Edit | _ModelAnswer | _Keep | _Next | _Pass | _QuitCommand


class _Quit(Exception):
    """Unwinds the engine thread when the candidate quits."""


class SessionEngine:
    """Runs one practice session; see the module docstring."""

    kind = "practice"
    """The session's kind, stored with it (a mock interview is ``interview``)."""

    def __init__(
        self,
        services: SessionServices,
        plan: SessionPlan,
        listener: Listener,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.services = services
        self.plan = plan
        self._listener = listener
        self._clock = clock
        self._commands: queue.Queue[_Command] = queue.Queue()
        self._speech_cancel = threading.Event()
        self._think_done = threading.Event()
        self._rec_stop = threading.Event()
        self._rec_cancel = threading.Event()
        self._quitting = threading.Event()
        self._thread: threading.Thread | None = None
        self.phase = Phase.STARTING
        self.session_id: int | None = None
        self.deck = plan.deck or ""
        self.questions: list[Question] = []
        self.attempts: list[Attempted] = []
        self.summary: SessionSummary | None = None
        self._index = 0
        self._last: ev.AnswerScored | None = None
        self._tries: dict[str, int] = {}
        self._previous: dict[str, ev.PreviousAttempt | None] = {}
        self._typed_only: tuple[str, str | None] | None = None
        self._sources_left = True
        self._quiet_at = 0.0
        """``time.monotonic()`` from which the app's own voice can no longer be heard."""
        self._short: tuple[Transcript, Recording] | None = None
        """A spoken answer too short to score, until the candidate decides."""

    # --- lifecycle ----------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="sayitout-session", daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> bool:
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def close(self, timeout: float = 5.0) -> None:
        """Quit (keeping what was saved) and wait for the engine thread."""
        self.quit()
        self.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def can_speak_answers(self) -> bool:
        return self._typed_only is None and self._sources_left

    # --- commands (any thread) ---------------------------------------------------------

    def skip_speech(self) -> None:
        """Stop reading the question (or the model answer) aloud."""
        self._speech_cancel.set()
        speaker = self._built_speaker()
        if speaker is not None:
            speaker.stop()

    stop_audio = skip_speech

    def replay_question(self) -> None:
        self.skip_speech()
        self._commands.put(_Replay())

    def start_recording(self) -> None:
        """End thinking time now, or record (again) when waiting for an answer."""
        if self.phase is Phase.THINKING:
            self._think_done.set()
        elif self.phase is Phase.ASKING:
            self.skip_speech()
        else:
            self._commands.put(_Record())

    def stop_recording(self) -> None:
        """End the answer now (the key press); it is then transcribed and scored."""
        self._rec_stop.set()

    def cancel_recording(self) -> None:
        """Abandon the answer being recorded (or about to be) and wait for a typed one."""
        self._rec_cancel.set()
        self._think_done.set()
        self.skip_speech()

    def type_answer(self, text: str) -> None:
        """Answer by typing: scored and saved as a new attempt."""
        if self.phase in (Phase.RECORDING, Phase.THINKING, Phase.ASKING):
            self.cancel_recording()
        self._commands.put(_Typed(text))

    def edit_transcript(self, text: str) -> None:
        """Correct the last answer's transcript and rescore it (same attempt)."""
        self._commands.put(_Edit(text))

    def try_again(self) -> None:
        self._commands.put(_Record(again=True))

    def show_model_answer(self, speak: bool = True) -> None:
        self._commands.put(_ModelAnswer(speak))

    def pass_question(self) -> None:
        """ "I don't know": saved as a passed attempt (a fail for scheduling); during a
        follow-up, skips the follow-up."""
        if self.phase in (Phase.RECORDING, Phase.THINKING, Phase.ASKING):
            self.cancel_recording()
        self._commands.put(_Pass())

    def keep_answer(self) -> None:
        """Score and save the short answer just heard (after :class:`ev.AnswerTooShort`)."""
        self._commands.put(_Keep())

    def next_question(self) -> None:
        if self.phase in (Phase.RECORDING, Phase.THINKING, Phase.ASKING):
            self.cancel_recording()
        self._commands.put(_Next())

    def quit(self) -> None:
        """End the session early; attempts already completed stay saved."""
        self._quitting.set()
        self.cancel_recording()
        self._commands.put(_QuitCommand())

    # --- helpers ---------------------------------------------------------------------------

    def _emit(self, event: ev.Event) -> None:
        try:
            self._listener(event)
        except Exception:  # a front end's bug must not kill the session
            log.exception("session listener failed on %r", event)

    def _fail(self, exc: SayitoutError, title: str | None = None) -> None:
        """Tell the front end a step failed; the session goes on."""
        self._emit(ev.SessionFailed(exc.message, exc.hint, title or exc.title))

    def _set_phase(self, phase: Phase) -> None:
        self.phase = phase
        self._emit(ev.PhaseChanged(phase))

    def _settle(self) -> None:
        """Back to waiting: on the last score when there is one, else for an answer."""
        self._set_phase(Phase.FEEDBACK if self._last else Phase.AWAITING_ANSWER)

    def _next_command(self) -> _Command:
        command = self._commands.get()
        if isinstance(command, _QuitCommand):
            raise _Quit
        return command

    def _check_quit(self) -> None:
        if self._quitting.is_set():
            raise _Quit

    @property
    def _store(self) -> Store | None:
        return self.services.store

    def _built_speaker(self) -> Speaker | None:
        """The speaker when questions are read aloud and its voice works, else None."""
        if not self.services.has_speaker or "voice" in self.services.failed:
            return None
        try:
            return self.services.speaker
        except SayitoutError as exc:
            self.services.failed["voice"] = exc
            self._emit(ev.Notice(f"Questions will not be read aloud: {exc.message}", exc.hint))
        except Exception as exc:  # a voice library failing in a way nobody foresaw
            self.services.failed["voice"] = SayitoutError(str(exc))
            self._emit(ev.Notice(f"Questions will not be read aloud: {exc}"))
        return None

    # --- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        quit_early = False
        try:
            self._begin()
            while self._index < len(self.questions):
                self._question_turn(self.questions[self._index])
                self._index += 1
        except _Quit:
            quit_early = True
        except SayitoutError as exc:
            self._fail(exc)
            quit_early = True
        except Exception as exc:
            log.exception("session failed")
            self._emit(ev.SessionFailed(f"The session stopped: {exc}", None, "Unexpected error"))
            quit_early = True
        self._finish(quit_early)

    def _begin(self) -> None:
        services = self.services
        bank = services.bank
        store = self._open_store()
        self.questions = pick_questions(bank, self.plan, store, self._clock())
        decks = {bank.deck_of(q.id) for q in self.questions}
        self.deck = self.plan.deck or (decks.pop() if len(decks) == 1 else "mixed")
        self._warm_speech([q.text for q in self.questions])
        self._typed_only = services.spoken_answers_unavailable()
        if self._typed_only is not None:
            self._emit(ev.SpokenAnswersUnavailable(*self._typed_only))
        if store is not None:
            try:
                self.session_id = store.start_session(self.deck, self._settings_snapshot())
            except SayitoutError as exc:
                self._fail(exc)
        self._emit(
            ev.SessionStarted(
                self.session_id, self.deck, tuple(self.questions), self._typed_only is None
            )
        )

    def _open_store(self) -> Store | None:
        try:
            return self.services.store
        except SayitoutError as exc:
            self._fail(exc)
            self.services.drop_store()
            return None

    def _warm_speech(self, texts: list[str]) -> None:
        """Synthesise ahead what will be read, so reading starts at once (best effort)."""
        speaker = self._built_speaker()
        if speaker is None or not texts:
            return
        try:
            speaker.warm(texts)
        except Exception as exc:
            self.services.failed["voice"] = SayitoutError(str(exc))
            self._emit(ev.Notice(f"Questions will not be read aloud: {exc}"))

    def _settings_snapshot(self) -> dict[str, Any]:
        s = self.services.settings
        return {
            "count": self.plan.count,
            "topics": list(self.plan.topics),
            "order": self.plan.order,
            "answer_limit_s": self.plan.answer_limit_s,
            "thinking_s": self.plan.thinking_s,
            "kind": self.kind,
            "follow_ups": self.follow_up_limit,
            "asr_model": s.asr.model,
            "tts": s.speech.tts,
        }

    def _finish(self, quit_early: bool) -> None:
        store = self._store
        previous_mean = None
        if store is not None and self.session_id is not None:
            previous_mean = _previous_session_mean(store, self.session_id, self.deck)
            with contextlib.suppress(SayitoutError):
                store.finish_session(self.session_id)
        asked = min(self._index + (1 if quit_early else 0), len(self.questions))
        self.summary = summarise(
            self.session_id, self.deck, self.questions, self.attempts, previous_mean, asked
        )
        self._set_phase(Phase.FINISHED)
        self._emit(ev.SessionFinished(self.summary, quit_early))

    # --- one question ------------------------------------------------------------------

    def _question_turn(self, question: Question) -> None:
        self._last = None
        if question.id not in self._previous:
            self._previous[question.id] = self._load_previous(question.id)
        limit = self.plan.limit_for(question, self.services.settings.audio.max_answer_s)
        self._emit(ev.QuestionShown(self._index, len(self.questions), question, self.deck, limit))
        self._rec_cancel.clear()
        self._prepare_turn(question)
        try:
            self._speak("question", question.text)
            self._think_then_answer(question, limit)
            while True:
                command = self._next_command()
                if isinstance(command, _Next):
                    return
                self._handle(command, question, limit)
        finally:
            self._drop_short()
            self.services.microphones.release()  # opened early and not used: closed again

    def _prepare_turn(self, question: Question) -> None:
        """Open the microphone while the question is read (so the first word is not lost
        to a slow device start) and synthesise this question's model answer ahead."""
        if self._typed_only is None:
            try:
                self.services.microphones.prepare()
            except Exception:  # the recorder's own start reports it properly
                log.debug("opening the microphone early failed", exc_info=True)
        try:
            model_answer = self.services.bank.rubric(question.id).model_answer
        except SayitoutError:
            return
        self._warm_speech([model_answer])

    def _handle(self, command: _Command, question: Question, limit: float) -> None:
        if not isinstance(command, _Keep | _Replay | _ModelAnswer):
            self._drop_short()
        match command:
            case _Replay():
                before = self.phase
                self._speak("question", question.text)
                self._set_phase(before)
            case _Record(again=again):
                self._rec_cancel.clear()
                if again and self._typed_only is not None:
                    self._set_phase(Phase.AWAITING_ANSWER)
                else:
                    self._record_and_score(question, limit)
            case _Typed(text=text):
                self._score_and_save(question, _typed_transcript(text), None)
            case _Edit(text=text):
                self._rescore(question, text)
            case _ModelAnswer(speak=speak):
                self._model_answer(question, speak=speak)
            case _Pass():
                self._pass(question)
            case _Keep():
                if self._short is not None:
                    (transcript, recording), self._short = self._short, None
                    self._score_and_save(question, transcript, recording)

    def _out_of_sources(self) -> None:
        self._sources_left = False
        self._typed_only = ("there are no more answer files to play", None)
        self._emit(
            ev.SpokenAnswersUnavailable(
                "every --mic-file answer has been played",
                "type the rest of your answers (t), or start again with more files",
            )
        )
        self._set_phase(Phase.AWAITING_ANSWER)

    def _think_then_answer(self, question: Question, limit: float) -> None:
        thinking = self.plan.thinking_s
        if self._typed_only is None and self.services.microphones.remaining == 0:
            self._out_of_sources()  # no thinking countdown before an answer nobody can record
            return
        if self._typed_only is not None or self._rec_cancel.is_set():
            self._set_phase(Phase.AWAITING_ANSWER)
            return
        if thinking > 0:
            self._think_done.clear()
            self._set_phase(Phase.THINKING)
            end = time.monotonic() + thinking
            while not self._think_done.is_set():
                remaining = end - time.monotonic()
                if remaining <= 0:
                    break
                self._emit(ev.ThinkingTick(remaining, thinking))
                self._think_done.wait(min(0.25, remaining))
            self._check_quit()
            if self._rec_cancel.is_set():
                self._set_phase(Phase.AWAITING_ANSWER)
                return
        self._record_and_score(question, limit)

    def _speak(self, what: str, text: str) -> None:
        self._check_quit()
        speaker = self._built_speaker()
        if speaker is None:
            return
        self._speech_cancel.clear()
        if what in ("question", "follow_up"):  # the interviewer is asking
            self._set_phase(Phase.ASKING)
        self._emit(ev.SpeakingStarted(what))
        try:
            speaker.speak(text, self._speech_cancel)
        except SayitoutError as exc:
            self.services.failed["voice"] = exc
            self._emit(ev.Notice(f"Speech output stopped: {exc.message}", exc.hint))
        except Exception as exc:
            self._emit(ev.Notice(f"Speech output stopped: {exc}", "run `sayitout doctor`"))
        finally:
            self._quiet_at = time.monotonic() + ECHO_GUARD_S
        self._emit(ev.SpeakingFinished(what, skipped=self._speech_cancel.is_set()))
        self._check_quit()

    # --- recording ------------------------------------------------------------------------

    def _recording_path(self, question: Question) -> Path:
        """Where this answer's audio goes, named as the store names every recording."""
        store = self._store
        if store is not None:
            return store.new_recording_path(question.id, self._clock())
        from sayitout.locations import locations
        from sayitout.store.recordings import new_recording_path

        base = self.services.recordings_dir or locations().recordings_dir
        return new_recording_path(base, question.id, self._clock())

    def _record_and_score(self, question: Question, limit: float) -> None:
        heard = self._record_answer(question, limit)
        if heard is not None and self._worth_scoring(question, *heard):
            self._score_and_save(question, *heard)

    def _worth_scoring(
        self, question: Question, transcript: Transcript, recording: Recording
    ) -> bool:
        """An answer of almost nothing (or the app's own voice heard back) is shown, not
        scored: it is held until the candidate keeps it or answers again."""
        echo = heard_only_the_question(transcript.text, question.text)
        words = len(transcript.text.split())
        if echo or words < MIN_ANSWER_WORDS:
            self._short = (transcript, recording)
            self._emit(ev.AnswerTooShort(self._index, transcript.text, words, echo))
            self._set_phase(Phase.NO_SPEECH)
            return False
        return True

    def _on_progress(self, elapsed: float, limit: float) -> None:
        """Called with each recording progress update (the interview warns near the end)."""

    def _record_answer(
        self, question: Question, limit: float
    ) -> tuple[Transcript, Recording] | None:
        """Record and transcribe one answer; None when there is none to score (cancelled,
        nothing heard, no microphone), with the phase set to say what happens next."""
        if self._typed_only is not None:
            self._set_phase(Phase.AWAITING_ANSWER)
            return None
        source = self.services.microphones.next_source()
        if source is None:
            self._out_of_sources()
            return None
        rubric = self.services.bank.rubric(question.id)
        try:
            transcriber = self.services.transcriber
            assert transcriber is not None  # else answers would be typed only
            live = transcriber.live(rubric.all_terms(), self._live_words)
        except SayitoutError as exc:
            self.services.failed["speech"] = exc
            self._typed_only = (f"the speech model failed to load: {exc.message}", exc.hint)
            self._emit(ev.SpokenAnswersUnavailable(*self._typed_only))
            self._set_phase(Phase.AWAITING_ANSWER)
            return None
        path = self._recording_path(question)
        self._rec_stop.clear()
        self._check_quit()
        last_progress = 0.0

        def on_level(level: float, elapsed: float) -> None:
            nonlocal last_progress
            now = time.monotonic()
            if now - last_progress >= _PROGRESS_EVERY_S:
                last_progress = now
                self._emit(ev.RecordingProgress(level, elapsed, limit))
                self._on_progress(elapsed, limit)

        self._set_phase(Phase.RECORDING)
        self._emit(ev.RecordingStarted(limit, source.name))
        self._wait_for_quiet()
        try:
            recording = source.record(
                path,
                limit_s=limit,
                stop=self._rec_stop,
                cancel=self._rec_cancel,
                on_level=on_level,
                on_segment=live.add_segment,
                on_start=lambda: self._emit(ev.Listening(source.name)),
                on_open=live.preview,
            )
        except SayitoutError as exc:
            live.cancel()
            self._fail(exc)
            self._set_phase(Phase.AWAITING_ANSWER)
            return None
        self._emit(ev.RecordingStopped(recording.ended_by, recording.path, recording.duration_s))
        if recording.error:
            self._emit(ev.Notice(recording.error, "what was recorded is kept and scored"))
        if recording.ended_by is StopReason.CANCELLED:
            live.cancel()
            if recording.path is not None:
                recording.path.unlink(missing_ok=True)
            self._check_quit()
            self._set_phase(Phase.AWAITING_ANSWER)
            return None
        self._set_phase(Phase.PROCESSING)
        self._emit(ev.Processing("transcribing"))
        try:
            transcript = live.finish(duration=recording.duration_s)
        except SayitoutError as exc:
            self._fail(exc)
            self._set_phase(Phase.AWAITING_ANSWER)
            return None
        if transcript.is_empty:
            self._emit(ev.NoSpeechHeard(self._index, recording.path))
            self._set_phase(Phase.NO_SPEECH)
            return None
        return transcript, recording

    def _live_words(self, words: LiveWords) -> None:
        self._emit(ev.PartialTranscript(words.text, words.tentative, words.behind))

    def _wait_for_quiet(self) -> None:
        """Until the question read aloud can no longer reach the microphone (plus the
        pre-roll it keeps): the app must never hear itself. The microphone, opened while
        the question was read, stays open, so the answer's first word is not cut."""
        if self._quiet_at <= 0.0:
            return
        pre_roll = self.services.settings.audio.pre_roll_s
        wait = self._quiet_at + pre_roll - time.monotonic()
        if wait > 0:
            self._rec_cancel.wait(wait)

    def _drop_short(self) -> None:
        """Forget a short answer the candidate did not keep: it is not an attempt, so its
        recording goes too (else it would come back as an unsaved answer)."""
        short, self._short = self._short, None
        if short is not None and short[1].path is not None:
            short[1].path.unlink(missing_ok=True)

    # --- scoring and saving ------------------------------------------------------------------

    def _score(self, question: Question, answer: Transcript) -> AnswerScore | str:
        """The answer's score, or why it could not be scored (never raises: one answer
        the scorer chokes on must not end the session)."""
        self._set_phase(Phase.PROCESSING)
        self._emit(ev.Processing("scoring"))
        if "scoring" in self.services.failed:
            return f"the scoring model is not available ({self.services.failed['scoring']})"
        try:
            rubric = self.services.bank.rubric(question.id)
            return self.services.scorer.score(rubric, answer)
        except SayitoutError as exc:
            return exc.message
        except Exception as exc:  # a scorer bug on this one answer
            log.exception("scoring %s failed", question.id)
            return f"{type(exc).__name__}: {exc}"

    def _score_and_save(
        self, question: Question, transcript: Transcript, recording: Recording | None
    ) -> None:
        if transcript.is_empty:
            self._emit(ev.Notice("The typed answer was empty, so nothing was scored."))
            self._settle()
            return
        score = self._score(question, transcript)
        if isinstance(score, str):
            self._save_unscored(question, transcript, recording, score)
            return
        attempt_id = self._save(question, transcript, score, recording)
        score = self._follow_ups(question, score, attempt_id)
        self._answered(question, transcript, score, attempt_id, recording)

    def _answered(
        self,
        question: Question,
        transcript: Transcript,
        score: AnswerScore,
        attempt_id: int | None,
        recording: Recording | None,
        passed: bool = False,
    ) -> None:
        """An answer is scored and saved: keep it for the summary and show the score."""
        self._tries[question.id] = self._tries.get(question.id, 0) + 1
        self._keep(question, transcript, score, attempt_id, passed)
        self._last = ev.AnswerScored(
            index=self._index,
            question=question,
            transcript=transcript,
            score=score,
            attempt_id=attempt_id,
            attempt_number=self._tries[question.id],
            previous=self._previous.get(question.id),
            recording_path=recording.path if recording else None,
            passed=passed,
        )
        self._emit(self._last)
        if passed:
            self._model_answer(question, speak=False)  # offered at once
        self._set_phase(Phase.FEEDBACK)

    def _keep(
        self,
        question: Question,
        transcript: Transcript,
        score: AnswerScore,
        attempt_id: int | None,
        passed: bool,
    ) -> None:
        """Keep the attempt for the end-of-session summary (or the interview report)."""
        self.attempts.append(
            Attempted(
                question,
                score,
                attempt_id,
                typed=transcript.model == "typed",
                extra={"passed": True} if passed else {},
            )
        )

    # --- follow-ups and passes ---------------------------------------------------------------

    @property
    def follow_up_limit(self) -> int:
        return self.plan.follow_ups

    def _follow_ups(
        self, question: Question, score: AnswerScore, attempt_id: int | None
    ) -> AnswerScore:
        """Ask about missed key points that have a follow-up (up to the plan's limit);
        each reply's prompted credit is added to the score and the stored attempt."""
        limit = self.follow_up_limit
        if limit <= 0:
            return score
        try:
            rubric = self.services.bank.rubric(question.id)
        except SayitoutError:
            return score
        asked = 0
        for kp, text in list(follow_up_candidates(score, rubric)):
            if asked >= limit:
                break
            if already_credited(score, kp.id):
                continue
            asked += 1
            self._emit(ev.FollowUpAsked(self._index, question, kp.id, text, asked, limit))
            self._speak("follow_up", text)
            reply, recording = self._follow_up_reply(question, text)
            self._set_phase(Phase.PROCESSING)
            self._emit(ev.Processing("scoring"))
            try:
                result = score_reply(
                    self.services.scorer,
                    rubric,
                    kp,
                    text,
                    reply,
                    recording=self._stored_name(recording.path if recording else None),
                )
            except Exception as exc:  # the answer is saved; a failed follow-up ends them
                log.exception("scoring a follow-up of %s failed", question.id)
                self._emit(ev.Notice(f"The follow-up reply could not be scored: {exc}"))
                break
            score = with_follow_up(score, result)
            self._store_rescore(attempt_id, score)
            self._emit(ev.FollowUpScored(self._index, score.follow_ups[-1]))
        return score

    def _follow_up_reply(
        self, question: Question, text: str
    ) -> tuple[Transcript | None, Recording | None]:
        """The reply to a follow-up: recorded when answers are spoken (the next --mic-file),
        else typed. ``(None, None)`` when the candidate passes or moves on."""
        heard = None
        if self._typed_only is None:
            heard = self._record_answer(question, FOLLOW_UP_ANSWER_S)
        if heard is not None and heard_only_the_question(heard[0].text, text):
            self._emit(ev.Notice("Only the follow-up question itself was heard: answer again."))
            heard = None  # the app's own voice, not a reply (a short reply is fine)
        if heard is not None:
            return heard
        if self.phase not in (Phase.NO_SPEECH, Phase.AWAITING_ANSWER):
            self._set_phase(Phase.AWAITING_ANSWER)
        while True:
            match self._next_command():
                case _Typed(text=typed_text):
                    typed = _typed_transcript(typed_text)
                    if not typed.is_empty:
                        return typed, None
                    self._emit(ev.Notice("The typed reply was empty: type it again, or pass."))
                case _Record():
                    self._rec_cancel.clear()
                    heard = self._record_answer(question, FOLLOW_UP_ANSWER_S)
                    if heard is not None:
                        return heard
                case _Replay():
                    before = self.phase
                    self._speak("follow_up", text)
                    self._set_phase(before)
                case _Pass() | _Next():
                    return None, None
                case _:
                    pass  # corrections and model answers wait until the follow-up is done

    def _pass(self, question: Question) -> None:
        if self._last is not None:
            self._emit(ev.Notice("This question is already answered: press n for the next one."))
            self._set_phase(Phase.FEEDBACK)
            return
        try:
            rubric = self.services.bank.rubric(question.id)
        except SayitoutError as exc:
            self._fail(exc)
            return
        from sayitout.speech.transcript import Transcript

        transcript = Transcript(text="", model="passed")
        score = passed_score(rubric, self.services.scorer.model_name)
        attempt_id = self._save(question, transcript, score, None, ended_by=PASSED)
        self._answered(question, transcript, score, attempt_id, None, passed=True)

    def _stored_name(self, path: Path | None) -> str | None:
        """A follow-up recording as the store refers to recordings (relative when inside)."""
        if path is None:
            return None
        root = getattr(self._store, "recordings_dir", None)
        if root is not None:
            with contextlib.suppress(ValueError):
                return str(Path(path).relative_to(root))
        return str(path)

    def _store_rescore(self, attempt_id: int | None, score: AnswerScore) -> None:
        store = self._store
        if store is None or attempt_id is None:
            return
        try:
            store.rescore(attempt_id, score)
        except SayitoutError as exc:
            self._fail(exc)

    def _save_unscored(
        self,
        question: Question,
        transcript: Transcript,
        recording: Recording | None,
        reason: str,
    ) -> None:
        """Keep an answer whose scoring failed: saved with its transcript and recording,
        its score marked failed with the reason (a rescore replaces it), and go on."""
        from sayitout.scoring.result import AnswerScore

        try:
            version = self.services.bank.rubric(question.id).version
        except SayitoutError:
            version = 1
        placeholder = AnswerScore.not_scored(question.id, transcript.text, reason, version)
        attempt_id = self._save(question, transcript, placeholder, recording)
        self._tries[question.id] = self._tries.get(question.id, 0) + 1
        kept = "saved" if attempt_id is not None else "kept on screen only"
        self._emit(ev.AnswerNotScored(self._index, question, transcript, reason, attempt_id))
        self._emit(
            ev.SessionFailed(
                f"Your answer was {kept}, but it could not be scored: {reason}",
                "try again, type it (t), or go on; a saved answer can be rescored later",
                "Answer not scored",
            )
        )
        self._settle()

    def _save(
        self,
        question: Question,
        transcript: Transcript,
        score: AnswerScore,
        recording: Recording | None,
        *,
        ended_by: str | None = None,
    ) -> int | None:
        store = self._store
        if store is None:
            return None
        self._emit(ev.Processing("saving"))
        try:
            return store.save_attempt(
                self.session_id,
                question.id,
                self.services.bank.deck_of(question.id),
                transcript,
                score,
                recording.path if recording else None,
                transcript.model,
                score.embedding_model or self.services.scorer.model_name,
                score.rubric_version,
                ended_by=ended_by or (recording.ended_by.value if recording else "typed"),
            )
        except SayitoutError as exc:
            self._fail(exc)
            return None

    def _rescore(self, question: Question, text: str) -> None:
        last = self._last
        if last is None:
            self._score_and_save(question, _typed_transcript(text), None)
            return
        text = text.strip()
        if not text:
            self._emit(ev.Notice("The corrected transcript was empty, so the score was kept."))
            self._set_phase(Phase.FEEDBACK)
            return
        corrected = _corrected_transcript(last.transcript, text)
        score = self._score(question, corrected)
        if isinstance(score, str):
            self._fail(
                SayitoutError(
                    f"The corrected answer could not be scored: {score}",
                    "the earlier score is kept",
                ),
                "Not rescored",
            )
            self._set_phase(Phase.FEEDBACK)
            return
        covered = {kp.id for kp in score.key_points if kp.status == "covered"}
        for follow_up in last.score.follow_ups:  # the follow-up turns still happened
            if follow_up.key_point_id not in covered:
                score = with_follow_up(score, follow_up)
        store = self._store
        if store is not None and last.attempt_id is not None:
            try:
                store.rescore(last.attempt_id, score, corrected_text=text)
            except SayitoutError as exc:
                self._fail(exc)
        for i in range(len(self.attempts) - 1, -1, -1):
            if self.attempts[i].question.id == question.id:
                old = self.attempts[i]
                self.attempts[i] = Attempted(question, score, old.attempt_id, old.typed)
                break
        self._last = ev.AnswerScored(
            index=last.index,
            question=question,
            transcript=corrected,
            score=score,
            attempt_id=last.attempt_id,
            attempt_number=last.attempt_number,
            previous=last.previous,
            rescored=True,
            recording_path=last.recording_path,
        )
        self._emit(self._last)
        self._set_phase(Phase.FEEDBACK)

    def _model_answer(self, question: Question, speak: bool) -> None:
        rubric = self.services.bank.rubric(question.id)
        self._emit(ev.ModelAnswerShown(question.id, rubric.model_answer))
        if speak:
            before = self.phase
            self._speak("model_answer", rubric.model_answer)
            self._set_phase(before)

    def _load_previous(self, question_id: str) -> ev.PreviousAttempt | None:
        store = self._store
        if store is None:
            return None
        try:
            record = store.last_attempt(question_id)
        except SayitoutError:
            return None
        if record is None:
            return None
        score = record.answer_score
        missed = tuple(kp.text for kp in score.key_points if kp.status != "covered")
        return ev.PreviousAttempt(score.score, record.created_at, missed)


def passed_score(rubric: Rubric, embedding_model: str = "") -> AnswerScore:
    """The score of a pass: nothing said, every key point missed, 0 (FSRS: Again)."""
    from sayitout.scoring.result import AnswerScore, KeyPointResult

    return AnswerScore(
        question_id=rubric.question_id,
        score=0,
        verdict="Passed: you said you don't know. Hear the model answer, then try it again.",
        key_points=tuple(
            KeyPointResult(kp.id, kp.text, kp.weight, "missed", 0.0, None, None)
            for kp in rubric.key_points
        ),
        numeric=None,
        misconceptions=(),
        delivery=None,
        answer="",
        rubric_version=rubric.version,
        embedding_model=embedding_model,
    )


def _words(text: str) -> list[str]:
    return ["".join(c for c in w.lower() if c.isalnum()) for w in text.split()]


def heard_only_the_question(heard: str, question: str, tail_words: int = 12) -> bool:
    """Whether every word heard is one of the last words of the question: the app's own
    voice reaching the microphone, not an answer."""
    said = [w for w in _words(heard) if w]
    tail = {w for w in _words(question)[-tail_words:] if w}
    return bool(said) and all(w in tail for w in said)


def _typed_transcript(text: str) -> Transcript:
    from sayitout.speech.transcript import Transcript

    return Transcript.typed(text)


def _corrected_transcript(original: Transcript, text: str) -> Transcript:
    """The corrected text. The word timings stay: they describe how the answer was
    delivered (pace, pauses), which a corrected spelling does not change."""
    from sayitout.speech.transcript import Transcript

    return Transcript(
        text=text,
        words=original.words,
        duration=original.duration,
        model=original.model,
        device=original.device,
        language=original.language,
        meta={**original.meta, "corrected": True},
    )


def _previous_session_mean(store: Store, session_id: int, deck: str) -> float | None:
    """The session score of the latest earlier session on the same deck with attempts."""
    try:
        records = store.sessions(deck=deck, include_cli=False)
    except SayitoutError:
        return None
    earlier = [
        r for r in records if r.id is not None and r.id < session_id and r.session_score is not None
    ]
    if not earlier:
        return None
    latest = max(earlier, key=lambda r: r.id or 0)
    return float(latest.session_score) if latest.session_score is not None else None
