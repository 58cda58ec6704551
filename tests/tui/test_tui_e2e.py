"""A whole three-question session in the app with real models and --mic-file answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from sayitout.config import Settings
from sayitout.session.events import Phase
from sayitout.session.plan import SessionPlan
from sayitout.store import Store
from sayitout.tui import make_app
from sayitout.tui.messages import ModelEvent, SessionEvent
from sayitout.tui.screens.session import SessionScreen
from sayitout.tui.screens.summary import SummaryScreen
from support.tui import text_of, wait_until

pytestmark = pytest.mark.e2e

ANSWERS = {
    "dl-loss-stuck-at-chance": "The loss is two point three, which is the natural log of ten, "
    "so it is at chance level. First I would try to overfit a single small batch. If it "
    "cannot, there is a bug, so I would check that zero grad, backward and the optimizer "
    "step are called.",
    "dl-val-loss-rises": "That is overfitting. The model memorises the training set after "
    "epoch five. I would use early stopping at the best validation checkpoint, and add "
    "regularisation like weight decay, dropout or data augmentation.",
    "dl-initial-loss": "It should be about two point three, the natural log of ten.",
}


@pytest.fixture(scope="session")
def answer_wavs(tmp_path_factory) -> list[Path]:
    """The answers spoken by the bundled piper voice (cached across runs by the synth)."""
    sf = pytest.importorskip("soundfile")
    try:
        from support.speech_synth import speak_answer
    except ImportError as exc:  # pragma: no cover
        pytest.skip(f"piper synthesis unavailable: {exc}")
    out = tmp_path_factory.mktemp("answers")
    paths = []
    for qid, text in ANSWERS.items():
        path = out / f"{qid}.wav"
        sf.write(path, speak_answer(text), 16000)
        paths.append(path)
    return paths


async def test_three_question_session_with_real_models(answer_wavs, sayitout_home):
    plan = SessionPlan(question_ids=tuple(ANSWERS), count=3)
    app = make_app(Settings(), plan=plan, mic_files=answer_wavs, tts="none")
    messages: list = []
    shown: dict[str, int] = {}
    numeric_right = None
    async with app.run_test(size=(100, 30), message_hook=messages.append) as pilot:
        for i in range(3):
            await wait_until(
                pilot,
                lambda i=i: (
                    isinstance(app.screen, SessionScreen)
                    and app.screen.index == i
                    and app.screen.phase is Phase.FEEDBACK
                ),
                timeout=600,
                what=f"the score of answer {i + 1}",
            )
            scored = app.screen.last_scored
            card = text_of(app.screen.query_one("#card"))
            assert f"{scored.score.score}/100" in card
            assert all(kp.text[:30] in card for kp in scored.score.key_points)  # the checklist
            shown[scored.question.id] = scored.score.score
            if scored.score.numeric is not None:
                numeric_right = scored.score.numeric.correct
                assert "number:" in card
            await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        summary = app.screen.summary
        assert [o.score for o in summary.outcomes] == [shown[q] for q in ANSWERS]
        assert summary.delivery.spoken_answers == 3
    # The answers are right, so they score well.
    assert shown["dl-loss-stuck-at-chance"] >= 50
    assert shown["dl-val-loss-rises"] >= 50
    assert shown["dl-initial-loss"] >= 50
    assert numeric_right is True, "2.3 heard and judged right"
    events = [type(m.event).__name__ for m in messages if isinstance(m, SessionEvent)]
    assert events.count("PartialTranscript") >= 1, "words appear while answering"
    ready = {
        m.event.name
        for m in messages
        if isinstance(m, ModelEvent) and type(m.event).__name__ == "ModelReady"
    }
    assert {"speech", "scoring"} <= ready
    store = Store.open(sayitout_home / "data" / "sayitout.db")
    attempts = store.attempts()
    assert sorted((a.question_id, a.score) for a in attempts) == sorted(shown.items())
    for a in attempts:
        assert a.recording_path is not None and a.recording_path.is_file()
        assert a.asr_model == "tiny.en"
