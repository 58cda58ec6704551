"""Recover answers whose recording reached the disk but whose attempt was never saved.

A recording is written to disk *before* it is transcribed (streamed as FLAC while the
candidate speaks), so a crash, a power cut or a kill between recording and saving
leaves an *orphan*: a file under the recordings dir that no attempt refers to. Its
name carries the question id (``<stamp>_<question-id>.flac``, see
:mod:`sayitout.store.recordings`), so it can still be transcribed, scored against
that question's rubric and attached as an attempt.

The other thing a failure can leave behind is a typed answer that ``score --save``
scored but could not store (the database locked, damaged or on a full disk): it is
kept as a text file in the data dir's ``unsaved/`` folder (:mod:`sayitout.store.unsaved`).
:func:`recover_unsaved` scores and saves those, with the time they were given, and
removes each file once its attempt is saved (an answer already saved is recognised,
so running it twice saves nothing twice).

Front ends:

- ``sayitout recover [--list] [--yes] [--discard]`` (:mod:`sayitout.cli.recover_cmd`):
  recordings and kept answers.
- The app, at start: ``pending_recoveries()`` and ``pending_kept_answers()`` are cheap
  (a directory walk and one query, no model loads); when either returns anything, show
  :func:`offer_message` with yes/no, and on yes call :func:`recover_with_services` in a
  worker thread (it uses the app's store, bank and scorer; the speech model is shared
  process-wide) with a ``progress`` callback.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sayitout.errors import SayitoutError

if TYPE_CHECKING:
    from sayitout.config import Settings
    from sayitout.session.services import SessionServices
    from sayitout.speech.transcript import Transcript
    from sayitout.store import OrphanRecording, Store
    from sayitout.store.unsaved import UnsavedAnswer


class Outcome(enum.StrEnum):
    RECOVERED = "recovered"
    """Transcribed, scored and saved as an attempt."""
    NO_QUESTION = "no-question"
    """The file name does not say which question it answered."""
    UNKNOWN_QUESTION = "unknown-question"
    """The question is no longer in the bank (its deck was removed or renamed)."""
    UNREADABLE = "unreadable"
    """The file holds no decodable audio (e.g. killed before the first frame was written)."""
    NO_SPEECH = "no-speech"
    """The recording holds no speech (or the kept answer no text): nothing to score."""
    FAILED = "failed"
    """Transcribing, scoring or saving failed (the message says why); the file is kept."""


UNUSABLE = (Outcome.NO_QUESTION, Outcome.UNKNOWN_QUESTION, Outcome.UNREADABLE, Outcome.NO_SPEECH)


@dataclass(frozen=True)
class RecoveryResult:
    path: Path
    question_id: str | None
    outcome: Outcome
    message: str
    attempt_id: int | None = None
    score: int | None = None
    discarded: bool = False


Progress = Callable[[int, int, "RecoveryResult"], None]
"""``(done, total, result)`` after each recording."""


def pending_recoveries(store: Store | None = None) -> list[OrphanRecording]:
    """Recordings on disk that no attempt refers to, oldest first (cheap: no models).

    Empty (0-byte) files are left out: nothing was recorded in them, so there is nothing
    to offer (:func:`recover` deletes them). Opens the default store when none is given;
    raises :class:`StorageError` when the database cannot be opened.
    """
    if store is not None:
        return [o for o in store.orphan_recordings() if o.size > 0]
    from sayitout.store import Store

    with Store.open() as opened:
        return [o for o in opened.orphan_recordings() if o.size > 0]


def pending_kept_answers() -> list[UnsavedAnswer]:
    """Typed answers ``score --save`` kept in ``unsaved/`` that can be saved without asking
    anything (those scored against a ``--rubric`` file need their file: ``sayitout
    recover`` says how). Cheap: a directory listing, no models."""
    from sayitout.store.unsaved import NO_QUESTION, unsaved_answers

    return [a for a in unsaved_answers() if a.question_id != NO_QUESTION and a.size > 0]


def offer_message(orphans: Sequence[OrphanRecording], kept: Sequence[UnsavedAnswer] = ()) -> str:
    """What to ask the candidate at start when answers were recorded (or typed) but not
    saved."""
    parts: list[str] = []
    n = len(orphans)
    if n:
        known = sum(o.question_id is not None for o in orphans)
        when = min(o.modified for o in orphans).astimezone().strftime("%Y-%m-%d %H:%M")
        what = "answer was" if n == 1 else "answers were"
        text = (
            f"{n} recorded {what} not saved (sayitout stopped before scoring "
            f"{'it' if n == 1 else 'them'}; the oldest is from {when})."
        )
        if known < n:
            text += f" ({n - known} cannot be matched to a question and will be kept as files.)"
        parts.append(text)
    if kept:
        k = len(kept)
        when = min(a.given_at for a in kept).astimezone().strftime("%Y-%m-%d %H:%M")
        parts.append(
            f"{k} typed answer{'s were' if k != 1 else ' was'} scored but not saved "
            f"(the history could not be written; the oldest is from {when})."
        )
    verb = "Transcribe, score and save" if n else "Score and save"
    return " ".join(parts) + f" {verb} {'it' if n + len(kept) == 1 else 'them'} now?"


def recover_with_services(
    services: SessionServices,
    progress: Progress | None = None,
    kept: Sequence[UnsavedAnswer] = (),
) -> list[RecoveryResult]:
    """:func:`recover` with a session's services (its store, bank, transcriber and
    scorer), then :func:`recover_unsaved` for the ``kept`` answers; ``progress`` counts
    both together."""
    store = services.store
    if store is None:
        return []
    orphans = store.orphan_recordings()
    total = len(orphans) + len(kept)

    def counted_from(offset: int) -> Progress | None:
        """``progress`` over both kinds: this kind's items come after ``offset`` others."""
        if progress is None:
            return None
        report = progress
        return lambda done, _total, result: report(offset + done, total, result)

    results = recover(
        store,
        orphans,
        bank=services.bank,
        settings=services.settings,
        transcriber=services.transcriber,
        scorer=services.scorer,
        progress=counted_from(0),
    )
    if kept:
        results += recover_unsaved(
            store,
            kept,
            bank=services.bank,
            settings=services.settings,
            scorer=services.scorer,
            progress=counted_from(len(orphans)),
        )
    return results


def describe(orphan: OrphanRecording) -> str:
    """One line for a listing: when, which question, how big."""
    when = orphan.modified.astimezone().strftime("%Y-%m-%d %H:%M")
    qid = orphan.question_id or "(question unknown)"
    return f"{when}  {qid:<36} {orphan.size / 1024:7.1f} KiB  {orphan.path}"


def recover(
    store: Store,
    orphans: Sequence[OrphanRecording] | None = None,
    *,
    bank: Any = None,
    settings: Settings | None = None,
    transcriber: Any = None,
    scorer: Any = None,
    discard_unusable: bool = False,
    progress: Progress | None = None,
) -> list[RecoveryResult]:
    """Transcribe and score each orphan and save it as an attempt.

    The attempt gets the recording's own time (its file's modification time), no
    session, and ``ended_by="recovered"``. A recording that cannot become an attempt
    is kept (and reported) unless ``discard_unusable`` is set, in which case files
    with no question id, no readable audio or no speech are deleted; empty (0-byte)
    files hold nothing and are always deleted. Transcribing or scoring failures never
    delete anything.
    """
    todo = list(store.orphan_recordings() if orphans is None else orphans)
    if bank is None and todo:
        from sayitout.app_factory import load_bank

        bank = load_bank()
    models = _Models(settings, transcriber, scorer, bank)
    results: list[RecoveryResult] = []
    for i, orphan in enumerate(todo, 1):
        result = _recover_one(store, orphan, bank, models)
        empty = orphan.size == 0  # killed as the file was created: it holds nothing at all
        if (discard_unusable or empty) and result.outcome in UNUSABLE:
            try:
                store.discard_recording(orphan.path)
                result = RecoveryResult(
                    result.path, result.question_id, result.outcome, result.message, discarded=True
                )
            except SayitoutError as exc:
                result = RecoveryResult(
                    result.path,
                    result.question_id,
                    result.outcome,
                    f"{result.message}; could not delete it: {exc.message}",
                )
        results.append(result)
        if progress is not None:
            progress(i, len(todo), result)
    return results


def _in_bank(bank: Any, qid: str) -> tuple[Any, str] | None:
    """The question's rubric and deck, or None when the bank no longer has it."""
    try:
        return bank.rubric(qid), bank.deck_of(qid)
    except SayitoutError:
        return None


def _not_in_bank(qid: str) -> str:
    return f"question {qid!r} is not in the question bank any more (was its deck removed?)"


def _why(exc: Exception) -> str:
    return exc.message if isinstance(exc, SayitoutError) else f"{type(exc).__name__}: {exc}"


class _Models:
    """The speech and embedding models, built on first need (not at all when no orphan
    needs them)."""

    def __init__(
        self,
        settings: Settings | None,
        transcriber: Any | None,
        scorer: Any | None,
        bank: Any = None,
    ) -> None:
        from sayitout.session.services import Lazy

        def load() -> Settings:
            from sayitout.config import load_settings

            return settings or load_settings()

        def new_transcriber() -> Any:
            from sayitout.app_factory import build_transcriber

            return build_transcriber(self.settings.get().asr)

        def new_scorer() -> Any:
            from sayitout.app_factory import build_scorer

            return build_scorer(
                self.settings.get().scoring, (lambda: bank) if bank is not None else None
            )

        self.settings = Lazy(load)
        self.transcriber = Lazy.of(transcriber) if transcriber else Lazy(new_transcriber)
        self.scorer = Lazy.of(scorer) if scorer else Lazy(new_scorer)


def _recover_one(
    store: Store, orphan: OrphanRecording, bank: Any, models: _Models
) -> RecoveryResult:
    from sayitout.speech.audio.decode import load_audio

    qid = orphan.question_id
    path = orphan.path

    def result(outcome: Outcome, message: str, **kw: Any) -> RecoveryResult:
        return RecoveryResult(path, qid, outcome, message, **kw)

    if qid is None:
        return result(
            Outcome.NO_QUESTION,
            "the file name does not say which question this answers, so it cannot be scored",
        )
    found = _in_bank(bank, qid)
    if found is None:
        return result(Outcome.UNKNOWN_QUESTION, _not_in_bank(qid))
    rubric, deck = found
    try:
        audio = load_audio(path)
    except SayitoutError as exc:
        return result(Outcome.UNREADABLE, f"no audio could be read: {exc.message}")
    try:
        transcript = models.transcriber.get().transcribe(audio, terms=rubric.all_terms())
    except Exception as exc:  # a model failing must not stop the other recoveries
        return result(Outcome.FAILED, f"transcription failed: {_why(exc)}")
    if transcript.is_empty:
        return result(Outcome.NO_SPEECH, "no speech was heard in the recording")
    return _score_and_save(
        store,
        qid,
        deck,
        rubric,
        transcript,
        models,
        result,
        recording=path,
        created_at=orphan.modified,
        ended_by="recovered",
    )


def _score_and_save(
    store: Store,
    qid: str,
    deck: str,
    rubric: Any,
    transcript: Transcript,
    models: _Models,
    result: Callable[..., RecoveryResult],
    *,
    recording: Path | None,
    created_at: datetime,
    ended_by: str | None = None,
) -> RecoveryResult:
    """Score a recovered answer and save it as an attempt with no session."""
    try:
        scorer = models.scorer.get()
        score = scorer.score(rubric, transcript)
    except Exception as exc:  # a model failing must not stop the other recoveries
        return result(Outcome.FAILED, f"scoring failed: {_why(exc)}")
    try:
        attempt_id = store.save_attempt(
            None,
            qid,
            deck,
            transcript,
            score,
            recording,
            transcript.model,
            score.embedding_model or scorer.model_name,
            score.rubric_version,
            ended_by=ended_by,
            created_at=created_at,
        )
    except SayitoutError as exc:
        return result(Outcome.FAILED, f"saving failed: {exc.message}")
    return result(
        Outcome.RECOVERED,
        f"saved as attempt {attempt_id} (score {score.score})",
        attempt_id=attempt_id,
        score=int(score.score),
    )


def describe_unsaved(answer: UnsavedAnswer) -> str:
    """One line for a listing: when, which question, how big."""
    from sayitout.store.unsaved import NO_QUESTION

    when = answer.given_at.astimezone().strftime("%Y-%m-%d %H:%M")
    qid = "(a --rubric file)" if answer.question_id == NO_QUESTION else answer.question_id
    return f"{when}  {qid:<36} {answer.size / 1024:7.1f} KiB  {answer.path}"


def recover_unsaved(
    store: Store,
    answers: Sequence[UnsavedAnswer] | None = None,
    *,
    bank: Any = None,
    settings: Settings | None = None,
    scorer: Any = None,
    discard_unusable: bool = False,
    progress: Progress | None = None,
) -> list[RecoveryResult]:
    """Score each kept answer, save it as an attempt given when it was first scored (no
    session), and remove its file once saved.

    An answer already in the history (same question, same time, same text: an earlier
    run saved it but could not remove the file) is not saved again; its file goes. An
    answer that cannot be scored is kept, unless it is empty and ``discard_unusable``
    is set. Answers scored against a ``--rubric`` file are always kept: the message
    gives the command that saves one.
    """
    from sayitout.store.unsaved import unsaved_answers

    todo = list(unsaved_answers() if answers is None else answers)
    if bank is None and todo:
        from sayitout.app_factory import load_bank

        bank = load_bank()
    models = _Models(settings, None, scorer, bank)
    results: list[RecoveryResult] = []
    for i, answer in enumerate(todo, 1):
        result = _recover_unsaved_one(store, answer, bank, models)
        if result.outcome is Outcome.NO_SPEECH and discard_unusable:
            result = _remove_kept(answer, result)
        results.append(result)
        if progress is not None:
            progress(i, len(todo), result)
    return results


def _recover_unsaved_one(
    store: Store, answer: UnsavedAnswer, bank: Any, models: _Models
) -> RecoveryResult:
    import shlex

    from sayitout.speech.transcript import Transcript
    from sayitout.store import AttemptFilter
    from sayitout.store.unsaved import NO_QUESTION

    qid = answer.question_id
    path = answer.path

    def result(outcome: Outcome, message: str, **kw: Any) -> RecoveryResult:
        return RecoveryResult(path, qid, outcome, message, **kw)

    found = _in_bank(bank, qid)
    if found is None and qid == NO_QUESTION:
        return result(
            Outcome.NO_QUESTION,
            "it was scored against a --rubric file, which recover cannot know; save it "
            f"with: sayitout score --rubric FILE --save --text - < {shlex.quote(str(path))}",
        )
    if found is None:
        return result(Outcome.UNKNOWN_QUESTION, _not_in_bank(qid))
    rubric, deck = found
    try:
        text = answer.read().strip()
    except OSError as exc:
        return result(Outcome.FAILED, f"the file cannot be read: {exc.strerror or exc}")
    if not text:
        return result(Outcome.NO_SPEECH, "the kept answer is empty: nothing to score")
    transcript = Transcript.typed(text)
    around = AttemptFilter(
        question_id=qid,
        cli_only=True,
        since=answer.given_at - timedelta(seconds=1),
        until=answer.given_at + timedelta(seconds=1),
    )
    try:
        for earlier in store.attempts(around):
            if store.attempt(earlier.id).transcript.text == transcript.text:
                return _remove_kept(
                    answer,
                    result(
                        Outcome.RECOVERED,
                        f"already saved as attempt {earlier.id}",
                        attempt_id=earlier.id,
                        score=earlier.score,
                    ),
                )
    except SayitoutError as exc:
        return result(Outcome.FAILED, f"the history cannot be read: {exc.message}")
    saved = _score_and_save(
        store,
        qid,
        deck,
        rubric,
        transcript,
        models,
        result,
        recording=None,
        created_at=answer.given_at,
    )
    return _remove_kept(answer, saved) if saved.outcome is Outcome.RECOVERED else saved


def _remove_kept(answer: UnsavedAnswer, result: RecoveryResult) -> RecoveryResult:
    """``result`` with the kept answer's file removed (or why it could not be)."""
    try:
        answer.path.unlink(missing_ok=True)
    except OSError as exc:
        return dataclasses.replace(
            result,
            message=f"{result.message}; {answer.path} could not be removed "
            f"({exc.strerror or exc}): delete it yourself",
        )
    return dataclasses.replace(result, discarded=True)


def recovery_report(
    results: Sequence[Any],
) -> tuple[str, str, Literal["information", "warning", "error"]]:
    """``(title, message, severity)`` for the notification after recovery."""
    total = len(results)
    ok = [r for r in results if r.outcome is Outcome.RECOVERED]
    if not total:
        return ("Nothing to recover", "The recordings were already saved.", "information")
    title = f"Recovered {len(ok)} of {total} unsaved answer{'s' if total != 1 else ''}"
    lines: list[str] = []
    if ok:
        scores = ", ".join(f"{r.question_id} {r.score}/100" for r in ok[:4])
        more = f" and {len(ok) - 4} more" if len(ok) > 4 else ""
        lines.append(f"Saved to history: {scores}{more}.")
    failed = [r for r in results if r.outcome is not Outcome.RECOVERED]
    reasons = Counter(r.message for r in failed)
    for message, n in reasons.most_common(3):
        lines.append(f"{n} not recovered: {message}." if n > 1 else f"Not recovered: {message}.")
    if len(reasons) > 3:
        lines.append(f"{len(reasons) - 3} other problem(s): run `sayitout recover --list`.")
    kept = [r for r in failed if not r.discarded]
    if kept:
        lines.append(
            f"{len(kept)} file{'s are' if len(kept) != 1 else ' is'} kept; "
            "`sayitout recover` retries or discards them."
        )
    severity: Literal["information", "warning", "error"] = (
        "information" if not failed else ("warning" if ok else "error")
    )
    return (title, "\n".join(lines), severity)


__all__ = [
    "UNUSABLE",
    "Outcome",
    "RecoveryResult",
    "describe",
    "describe_unsaved",
    "offer_message",
    "pending_kept_answers",
    "pending_recoveries",
    "recover",
    "recover_unsaved",
    "recover_with_services",
    "recovery_report",
]
