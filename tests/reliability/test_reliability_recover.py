"""Recordings left without an attempt are found, transcribed, scored and attached; typed
answers that ``score --save`` kept in ``unsaved/`` are saved once, losing nothing."""

from __future__ import annotations

import contextlib
import io
import shutil
import sys
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from sayitout.cli import main
from sayitout.locations import locations
from sayitout.recovery import Outcome, pending_recoveries, recover, recover_unsaved
from sayitout.store import Store
from sayitout.store.unsaved import NO_QUESTION, keep_unsaved_answer, unsaved_answers
from support.fakes import KeywordScorer

ANSWER = (
    "The loss becomes NaN because fp16 overflows above sixty five thousand. "
    "Use bf16 or loss scaling."
)


@pytest.fixture(scope="module")
def spoken() -> np.ndarray:
    try:
        from support.speech_synth import speak_answer

        return speak_answer(ANSWER, pause_s=0.4)
    except Exception as exc:
        pytest.skip(f"cannot synthesise the spoken answer: {exc}")


def _cli(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = main(list(argv))
    finally:
        sys.stdin = old
    return code, out.getvalue()


def _orphans(store: Store, spoken: np.ndarray) -> dict[str, Path]:
    good = store.new_recording_path("dl-fp16-nan")
    sf.write(good, spoken, 16000, format="FLAC")
    nameless = store.recordings_dir / "stray-take.flac"
    sf.write(nameless, spoken, 16000, format="FLAC")
    empty = store.new_recording_path("dl-initial-loss")
    empty.write_bytes(b"")
    quiet = store.new_recording_path("dl-val-loss-rises")
    sf.write(quiet, np.zeros(32000, dtype=np.float32), 16000, format="FLAC")
    gone = store.new_recording_path("no-such-question")
    sf.write(gone, spoken, 16000, format="FLAC")
    return {"good": good, "nameless": nameless, "empty": empty, "quiet": quiet, "gone": gone}


@pytest.mark.e2e
def test_recover_cli_lists_asks_and_attaches(spoken: np.ndarray) -> None:
    with Store.open() as store:
        files = _orphans(store, spoken)
        assert len(store.orphan_recordings()) == 5
        assert len(pending_recoveries(store)) == 4  # the 0-byte file is not worth offering

    code, out = _cli("recover", "--list")
    assert code == 0 and "5 recordings not saved" in out and "dl-fp16-nan" in out
    assert "(question unknown)" in out
    # no terminal to ask on, no --yes: list only, change nothing
    code, out = _cli("recover")
    assert code == 0 and "sayitout recover --yes" in out
    with Store.open() as store:
        assert store.count_attempts() == 0

    code, out = _cli("recover", "--yes", "--discard")
    assert code == 0, out
    assert "Recovered 1 of 5" in out
    with Store.open() as store:
        (attempt,) = store.attempts()
        assert attempt.question_id == "dl-fp16-nan"
        assert attempt.ended_by == "recovered"
        record = store.attempt(attempt.id)
        assert "fp16" in record.transcript.text.lower() or "nan" in record.transcript.text.lower()
        assert 0 <= record.answer_score.score <= 100
        assert record.summary.recording_path == files["good"].absolute()
        # unusable ones were deleted on request; nothing is left to offer
        assert store.orphan_recordings() == []
    assert files["good"].exists()
    assert not files["empty"].exists() and not files["nameless"].exists()


def test_unusable_recordings_are_kept_and_explained(tmp_path: Path) -> None:
    """Without --discard nothing is deleted, and each reason is stated (no models needed)."""

    class NoModel:
        def transcribe(self, *a, **k):  # pragma: no cover - must not be reached
            raise AssertionError("no orphan here should reach the transcriber")

    with Store.open() as store:
        nameless = store.recordings_dir / "take.flac"
        nameless.parent.mkdir(parents=True, exist_ok=True)
        sf.write(nameless, np.zeros(1600, dtype=np.float32), 16000, format="FLAC")
        empty = store.new_recording_path("dl-initial-loss")
        empty.write_bytes(b"")
        gone = store.new_recording_path("no-such-question")
        sf.write(gone, np.zeros(1600, dtype=np.float32), 16000, format="FLAC")
        results = recover(store, transcriber=NoModel(), scorer=NoModel())
        outcomes = {r.path.name: r.outcome for r in results}
        assert outcomes[nameless.name] is Outcome.NO_QUESTION
        assert outcomes[empty.name] is Outcome.UNREADABLE
        assert outcomes[gone.name] is Outcome.UNKNOWN_QUESTION
        assert all(r.message for r in results)
        assert nameless.exists() and gone.exists()
        assert not empty.exists()  # 0 bytes: nothing was recorded, so it is cleared away
        assert len(store.orphan_recordings()) == 2


def test_app_helpers_offer_and_recover_with_services(tmp_path: Path) -> None:
    """What the app calls at start: the offer text, then recovery with its own services."""
    from sayitout.config import Settings
    from sayitout.recovery import offer_message, recover_with_services
    from sayitout.scoring.result import AnswerScore
    from sayitout.session.services import SessionServices
    from sayitout.speech.transcript import Transcript

    class Typist:  # stands in for Whisper: "hears" a fixed answer
        def transcribe(self, audio, *, terms=()):
            return Transcript(text="fp16 overflows so use bf16", duration=len(audio) / 16000)

    class Scorer:
        model_name = "stand-in"

        def load(self) -> None: ...

        def score(self, rubric, answer):
            return AnswerScore(
                rubric.question_id,
                55,
                "partial",
                (),
                None,
                (),
                None,
                answer.text,
                rubric.version,
                "stand-in",
            )

    with Store.open() as store:
        path = store.new_recording_path("dl-fp16-nan")
        sf.write(path, np.full(16000, 0.1, dtype=np.float32), 16000, format="FLAC")
        orphans = pending_recoveries(store)
    text = offer_message(orphans)
    assert text.startswith("1 recorded answer was not saved") and "Transcribe" in text

    from sayitout.bank.loader import load_bank

    services = SessionServices(
        settings=Settings(),
        bank_loader=load_bank,
        scorer=Scorer(),
        transcriber=Typist(),  # type: ignore[arg-type]
        microphones=None,  # type: ignore[arg-type]
        speaker=None,
        store_opener=Store.open,  # type: ignore[arg-type]
    )
    try:
        seen: list[tuple[int, int]] = []
        results = recover_with_services(services, lambda d, t, r: seen.append((d, t)))
    finally:
        services.close()
    assert [r.outcome for r in results] == [Outcome.RECOVERED] and seen == [(1, 1)]
    with Store.open() as store:
        (attempt,) = store.attempts()
        assert attempt.score == 55 and attempt.ended_by == "recovered"
        assert store.orphan_recordings() == []


def test_recording_cut_off_by_a_kill_still_decodes(tmp_path: Path) -> None:
    """A FLAC as it lies on disk when the process is killed a second into recording
    (no final header update, a partial last frame): its audio is still read."""
    from sayitout.speech.audio.decode import load_audio

    path = tmp_path / "live.flac"
    t = np.arange(16000 * 3) / 16000
    audio = (0.5 * np.sin(2 * np.pi * 220 * t)).astype(np.float32)
    snapshot = tmp_path / "killed.flac"
    with sf.SoundFile(
        str(path), "w", samplerate=16000, channels=1, format="FLAC", subtype="PCM_16"
    ) as f:
        for i in range(0, audio.size, 1024):
            f.write(audio[i : i + 1024])
            if i >= 16000:  # about a second in: copy what is on disk now, as a kill leaves it
                snapshot.write_bytes(path.read_bytes())
                break
    assert snapshot.stat().st_size > 100
    got = load_audio(snapshot)
    assert got.size > 8000, got.size  # more than half a second of the answer survives


# --- typed answers that ``score --save`` kept in unsaved/ (the history could not be written)

KEPT_QUESTION = "dl-fp16-nan"
KEPT_ANSWER = "Use bf16 or loss scaling: fp16 overflows above sixty five thousand."


def test_kept_answers_are_found_with_their_question_and_time() -> None:
    first = keep_unsaved_answer(KEPT_QUESTION, KEPT_ANSWER)
    second = keep_unsaved_answer(NO_QUESTION, "scored against a rubric file")
    (first.parent / "notes.txt").write_text("not a kept answer")
    found = unsaved_answers()
    assert [a.path for a in found] == [first, second]  # oldest first, others left out
    assert found[0].question_id == KEPT_QUESTION and found[0].read() == KEPT_ANSWER
    assert found[0].given_at.tzinfo is not None
    assert first.parent == locations().data_dir / "unsaved"


def test_recover_saves_kept_answers_once_and_keeps_what_it_cannot_save() -> None:
    good = keep_unsaved_answer(KEPT_QUESTION, KEPT_ANSWER)
    rubric_file = keep_unsaved_answer(NO_QUESTION, "an answer to a rubric file")
    empty = keep_unsaved_answer("dl-initial-loss", "  \n")
    gone = keep_unsaved_answer("no-such-question", "an answer to a removed question")
    backup = good.with_suffix(".bak")
    shutil.copy(good, backup)
    given = {a.path: a.given_at for a in unsaved_answers()}
    scorer = KeywordScorer()
    with Store.open() as store:
        results = {r.path: r for r in recover_unsaved(store, scorer=scorer)}
        assert results[good].outcome is Outcome.RECOVERED and results[good].attempt_id
        assert results[rubric_file].outcome is Outcome.NO_QUESTION
        assert "--rubric FILE --save --text - <" in results[rubric_file].message
        assert results[empty].outcome is Outcome.NO_SPEECH
        assert results[gone].outcome is Outcome.UNKNOWN_QUESTION
        (attempt,) = store.attempts()
        record = store.attempt(attempt.id)
        assert record.transcript.text == KEPT_ANSWER and record.transcript.model == "typed"
        assert attempt.question_id == KEPT_QUESTION and attempt.session_id is None
        assert abs(attempt.created_at - given[good]) < timedelta(seconds=1)
        # saved: its file goes; what could not be saved stays, with its text
        assert not good.exists()
        assert rubric_file.exists() and empty.exists() and gone.exists()

        # An earlier run saved it but could not remove the file: not saved twice.
        shutil.move(backup, good)
        calls = scorer.calls
        (again,) = recover_unsaved(store, [a for a in unsaved_answers() if a.path == good])
        assert again.outcome is Outcome.RECOVERED and "already saved" in again.message
        assert again.attempt_id == attempt.id and not good.exists()
        assert store.count_attempts() == 1 and scorer.calls == calls

        # --discard clears away only the empty one; the others still hold an answer
        recover_unsaved(store, scorer=scorer, discard_unusable=True)
        assert not empty.exists() and rubric_file.exists() and gone.exists()


def test_recover_cli_lists_kept_answers_and_changes_nothing_without_yes() -> None:
    kept = keep_unsaved_answer(KEPT_QUESTION, KEPT_ANSWER)
    code, out = _cli("recover", "--list")
    assert code == 0, out
    assert "1 typed answer kept when the history could not be saved" in out
    assert KEPT_QUESTION in out and str(kept) in out
    code, out = _cli("recover")  # no terminal to ask on: list only
    assert code == 0 and "sayitout recover --yes" in out
    assert kept.exists()
    with Store.open() as store:
        assert store.count_attempts() == 0


@pytest.mark.e2e
def test_recover_cli_saves_kept_answers_with_the_real_scorer() -> None:
    kept = keep_unsaved_answer(KEPT_QUESTION, KEPT_ANSWER)
    code, out = _cli("recover", "--yes")
    assert code == 0, out
    assert "[1/1] ok" in out and "Recovered 1 of 1; 0 left on disk." in out
    assert not kept.exists()
    with Store.open() as store:
        (attempt,) = store.attempts()
        assert attempt.question_id == KEPT_QUESTION and 0 <= attempt.score <= 100
    code, out = _cli("recover", "--yes")  # a second run finds nothing and saves nothing
    assert code == 0 and "No unsaved recordings or kept answers" in out
    with Store.open() as store:
        assert store.count_attempts() == 1
