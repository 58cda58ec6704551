"""A three-question mock interview in the app, real models, spoken --mic-file answers, and
one follow-up answered by the next file; then the report card and what was stored.

The questions are seed questions copied into a test deck, with follow-ups kept on the
first question only: which file answers which turn is then fixed, whatever the
recogniser makes of the other answers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sayitout.config import Settings
from sayitout.session.interview import InterviewPlan
from sayitout.store import Store
from sayitout.tui import make_app
from sayitout.tui.messages import SessionEvent
from sayitout.tui.screens.interview_report import InterviewReportScreen
from support.seed_bank import seed_deck
from support.tui import text_of, wait_until

pytestmark = pytest.mark.e2e

SEEDS = {
    "iv-chance": "dl-loss-stuck-at-chance",
    "iv-bf16": "dl-7b-bf16-weights",
    "iv-initial-loss": "dl-initial-loss",
}
TURNS = [
    # the first answer leaves out the heaviest point: overfitting a single batch
    "The loss is two point three, which is the natural log of ten, so the model is at "
    "chance level and predicts uniform probabilities.",
    # ... which the follow-up asks about, and the next file answers
    "I would try to overfit a single small batch. If the loss cannot be driven near zero, "
    "it is a bug in the code, not a tuning problem.",
    # "fourteen gigabytes" at the very end: tiny.en hears "40 gigabytes" on some CPUs
    # after "so the weights take" (a two-core AMD EPYC, 2026-12-06), not after "need"
    "bf16 stores each parameter in sixteen bits, which is two bytes. Seven billion "
    "parameters times two bytes is fourteen billion bytes, so the weights alone need "
    "fourteen gigabytes.",
    "With ten classes and uniform predictions each class gets a probability of one tenth. "
    "The loss is minus the log of one tenth, the natural log of ten, about two point three.",
]


@pytest.fixture(scope="module")
def interview_bank(tmp_path_factory) -> Path:
    """Three seed questions in a deck of their own; only the first keeps its follow-ups."""

    def follow_ups_on_the_first_only(new_id: str, _question: dict, rubric: dict) -> None:
        if new_id != "iv-chance":
            for kp in rubric["key_points"]:
                kp.pop("follow_ups", None)

    root = tmp_path_factory.mktemp("bank")
    return seed_deck(root, "iv", "Interview test", SEEDS, follow_ups_on_the_first_only)


@pytest.fixture(scope="module")
def turn_wavs(tmp_path_factory) -> list[Path]:
    """The turns spoken by the bundled piper voice."""
    sf = pytest.importorskip("soundfile")
    try:
        from support.speech_synth import speak_answer
    except ImportError as exc:  # pragma: no cover
        pytest.skip(f"piper synthesis unavailable: {exc}")
    out = tmp_path_factory.mktemp("turns")
    paths = []
    for i, text in enumerate(TURNS):
        path = out / f"turn-{i + 1}.wav"
        sf.write(path, speak_answer(text), 16000)
        paths.append(path)
    return paths


async def test_three_question_interview_with_a_follow_up(interview_bank, turn_wavs, sayitout_home):
    plan = InterviewPlan(deck="iv", count=3, thinking_s=0, follow_ups=1, question_ids=tuple(SEEDS))
    app = make_app(
        Settings(), plan=plan, mic_files=turn_wavs, tts="none", bank_dirs=[interview_bank]
    )
    messages: list = []
    async with app.run_test(size=(80, 24), message_hook=messages.append) as pilot:
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, InterviewReportScreen),
            timeout=900,
            what="the report card",
        )
        report = app.screen.report
        card = text_of(app.screen.query_one("#report"))
    # (a message can reach the hook more than once: count each event once)
    events = {id(m.event): m.event for m in messages if isinstance(m, SessionEvent)}
    names = [type(e).__name__ for e in events.values()]
    # no feedback until the end
    assert "AnswerScored" not in names and "ModelAnswerShown" not in names
    assert names.count("FollowUpAsked") == 1
    assert names.count("InterviewAnswerTaken") == 3
    assert not report.incomplete
    first, second, third = report.questions
    [follow] = first.follow_ups
    assert follow.key_point_id == "overfit-one-batch"
    assert follow.status in ("covered", "partial"), follow
    assert "single" in follow.answer.lower() and follow.credit > 0
    assert first.score == first.unprompted + follow.credit
    assert second.score >= 60 and third.score >= 50, report
    assert report.delivery.spoken_answers == 3
    assert report.delivery.longest_monologue_s > 3
    assert f"Session score {report.overall:.0f}/100" in card
    assert "Follow-up:" in card
    with Store.open(sayitout_home / "data" / "sayitout.db") as store:
        [session] = store.sessions(include_cli=False)
        assert session.kind == "interview" and session.finished_at is not None
        attempts = store.attempts(oldest_first=True)
        assert [a.question_id for a in attempts] == list(SEEDS)
        record = store.attempt(attempts[0].id)
        assert record.answer_score.follow_ups[0].recording is not None
        assert store.orphan_recordings() == []
        assert all(a.asr_model == "tiny.en" for a in attempts)
