"""Recordings left without an attempt are found, transcribed, scored and attached."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from sayitout.cli import main
from sayitout.recovery import Outcome, pending_recoveries, recover
from sayitout.store import Store

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
