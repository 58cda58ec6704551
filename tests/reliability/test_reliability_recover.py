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
        from sayitout.speech.asr.synth import speak_answer

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
        assert len(pending_recoveries(store)) == 5

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
        assert nameless.exists() and empty.exists() and gone.exists()
        assert len(store.orphan_recordings()) == 3
