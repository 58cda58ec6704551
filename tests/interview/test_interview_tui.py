"""The interview screens, the report card, the coach and the upgraded answer in the app:
pilot tests (keys as a user presses them) and snapshots at 80x24."""

from __future__ import annotations

import dataclasses
import threading
from datetime import UTC, datetime, timedelta

import pytest
from textual.widgets import Static, TextArea

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.session.events import Phase
from sayitout.session.interview import InterviewPlan
from sayitout.store import Store
from sayitout.tui import make_app
from sayitout.tui.screens.coach import CoachScreen
from sayitout.tui.screens.home import HomeScreen
from sayitout.tui.screens.interview import InterviewScreen
from sayitout.tui.screens.interview_report import InterviewReportScreen, render_report
from sayitout.tui.screens.upgraded import UpgradedAnswerScreen
from sayitout.tui.widgets.level_meter import LevelMeter
from support.synthetic import make_score, make_transcript
from support.tui import ScriptedSource, fake_services, hold_still, text_of, wait_until

SIZE = (80, 24)
Q1, Q2 = "dl-loss-stuck-at-chance", "dl-noisy-loss"
CHANCE_ONLY = "It's at chance level, the natural log of ten."
T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def bank():
    return load_bank(user=False)


def interview_app(bank, tmp_path, plan, *, sources=()):
    mic = None if sources else "no input device was found"
    services = fake_services(bank, tmp_path, sources=sources, mic_reason=mic)
    return make_app(Settings(), plan=plan, services=services, load_models=False)


def in_phase(app, phase: Phase):
    return lambda: isinstance(app.screen, InterviewScreen) and app.screen.phase is phase


async def type_text(pilot, text: str) -> None:
    await pilot.press("t")
    await wait_until(pilot, lambda: pilot.app.screen.query(TextArea), what="answer box")
    pilot.app.screen.query_one(TextArea).insert(text)
    await pilot.press("ctrl+s")


async def run_interview(pilot, app) -> None:
    """Question 1 typed with its follow-up answered, question 2 passed."""
    await wait_until(pilot, in_phase(app, Phase.AWAITING_ANSWER), what="question 1")
    await type_text(pilot, CHANCE_ONLY)
    await wait_until(
        pilot,
        lambda: (
            "Follow-up:" in text_of(app.screen.query_one("#question"))
            and app.screen.phase is Phase.AWAITING_ANSWER
        ),
        what="the follow-up",
    )
    assert not app.screen.query_one("#card").display  # no score card, ever
    await type_text(pilot, "I would overfit a single batch first.")
    await wait_until(
        pilot,
        lambda: app.screen.index == 1 and app.screen.phase is Phase.AWAITING_ANSWER,
        what="question 2",
    )
    assert not app.screen.query_one("#card").display
    await pilot.press("i")  # "I don't know"
    await wait_until(
        pilot, lambda: isinstance(app.screen, InterviewReportScreen), what="the report card"
    )


async def test_typed_interview_with_follow_up_and_pass_ends_on_the_report(bank, tmp_path):
    plan = InterviewPlan(question_ids=(Q1, Q2), count=2, thinking_s=0, follow_ups=1)
    app = interview_app(bank, tmp_path, plan)
    async with app.run_test(size=SIZE) as pilot:
        await run_interview(pilot, app)
        report = app.screen.report
        card = text_of(app.screen.query_one("#report"))
        assert report.questions[1].passed
        assert report.questions[0].follow_ups[0].status == "covered"
        assert "Top three things to fix" in card and "passed" in card
        assert "Follow-up: What quick experiment" in card
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")


def test_snapshot_interview_report_card(snap_compare, bank, tmp_path):
    plan = InterviewPlan(question_ids=(Q1, Q2), count=2, thinking_s=0, follow_ups=1)
    app = interview_app(bank, tmp_path, plan)

    async def run_before(pilot):
        await run_interview(pilot, app)
        screen = app.screen
        screen.report = dataclasses.replace(screen.report, elapsed_s=95.0)  # hold time still
        screen.query_one("#report", Static).update(render_report(screen.report))
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_interview_thinking_countdown(snap_compare, bank, tmp_path):
    plan = InterviewPlan(question_ids=(Q1,), count=1, thinking_s=30, follow_ups=1)
    sources = [ScriptedSource("answer.wav", CHANCE_ONLY, wait_for_stop=True)]
    services = fake_services(bank, tmp_path, sources=sources)
    app = make_app(Settings(), services=services, load_models=False)

    async def run_before(pilot):
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        screen = InterviewScreen(services, plan)
        screen.engine._monotonic = lambda: 0.0  # the countdown holds at 0:30
        screen.engine._wait = lambda event, s: event.wait(0.05)
        await app.push_screen(screen)
        await wait_until(
            pilot,
            lambda: "Think: 0:30" in text_of(app.screen.query_one("#status")),
            what="the countdown",
        )
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_interview_answer_timer_warning(snap_compare, bank, tmp_path):
    plan = InterviewPlan(question_ids=(Q1,), count=1, thinking_s=0, follow_ups=0)
    sources = [ScriptedSource("answer.wav", CHANCE_ONLY, wait_for_stop=True)]
    app = interview_app(bank, tmp_path, plan, sources=sources)

    async def run_before(pilot):
        await wait_until(pilot, in_phase(app, Phase.RECORDING), what="recording")
        app.screen.engine._on_progress(61.0, 90.0)  # as the recorder reports it
        await wait_until(
            pilot,
            lambda: "seconds left" in text_of(app.screen.query_one("#status")),
            what="the warning",
        )
        meter = app.screen.query_one(LevelMeter)
        meter.elapsed, meter.level = 61.0, 0.4
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def seeded_store(bank, tmp_path) -> list[int]:
    """Two answers to Q1 that miss the same point and state the same misconception."""
    rubric = bank.rubric(Q1)
    mis = rubric.misconceptions[0]
    ids = []
    with Store.open(tmp_path / "db.sqlite") as store:
        for i in range(2):
            answer = (
                "It's at chance level, the natural log of ten. "
                f"{mis.text} So I would check the labels line up with the inputs."
            )
            score = make_score(
                Q1,
                answer,
                [
                    (
                        kp.id,
                        kp.text,
                        "covered" if kp.id in ("chance-level", "check-labels-inputs") else "missed",
                    )
                    for kp in rubric.key_points
                ],
                wpm=200,
            )
            from sayitout.scoring.result import MisconceptionResult

            start = answer.index(mis.text)
            score = dataclasses.replace(
                score,
                misconceptions=(
                    MisconceptionResult(
                        mis.id,
                        mis.text,
                        mis.correction,
                        0.9,
                        mis.text,
                        (start, start + len(mis.text)),
                        mis.penalty,
                    ),
                ),
            )
            ids.append(
                store.save_attempt(
                    None,
                    Q1,
                    "deep-learning",
                    make_transcript(answer, 200),
                    score,
                    created_at=T0 + timedelta(days=i),
                )
            )
    return ids


def test_snapshot_coach_screen(snap_compare, bank, tmp_path):
    seeded_store(bank, tmp_path)
    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    app = make_app(Settings(), services=services, load_models=False)

    async def run_before(pilot):
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, CoachScreen), what="coach")
        await wait_until(pilot, lambda: app.screen.drills, what="drills")
        await hold_still(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_coach_drill_starts_a_session_with_its_questions(bank, tmp_path):
    seeded_store(bank, tmp_path)
    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    app = make_app(Settings(), services=services, load_models=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        await wait_until(
            pilot, lambda: "Stop saying" in text_of(app.screen.query_one("#focus")), what="focus"
        )
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, CoachScreen), what="coach")
        await wait_until(pilot, lambda: app.screen.drills, what="drills")
        assert app.screen.drills[0].question_ids == (Q1,)
        await pilot.press("enter")
        await wait_until(
            pilot,
            lambda: (
                type(app.screen).__name__ == "SessionScreen"
                and app.screen.phase is Phase.AWAITING_ANSWER
            ),
            what="the drill's session",
        )
        assert app.screen.plan.question_ids == (Q1,)
        assert app.screen.plan.follow_ups == 1


def test_snapshot_upgraded_answer(snap_compare, bank, tmp_path):
    [first, _] = seeded_store(bank, tmp_path)
    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    app = make_app(Settings(), services=services, load_models=False)

    async def run_before(pilot):
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        with Store.open(tmp_path / "db.sqlite") as store:
            record = store.attempt(first)
        screen = UpgradedAnswerScreen(record, bank.rubric(Q1), bank.question(Q1).text)
        await app.push_screen(screen)
        await hold_still(pilot)
        upgraded = screen.upgraded
        assert [s.kind for s in upgraded.segments].count("wrong") == 1
        assert len(upgraded.added) >= 3

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_upgraded_answer_reads_aloud_on_request(bank, tmp_path):
    [first, _] = seeded_store(bank, tmp_path)

    class Voice:
        def __init__(self) -> None:
            self.spoken: list[str] = []
            self.done = threading.Event()

        def speak(self, text, cancel=None) -> bool:
            self.spoken.append(text)
            self.done.set()
            return True

        def stop(self) -> None:
            pass

    voice = Voice()
    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    app = make_app(Settings(), services=services, load_models=False)
    async with app.run_test(size=SIZE) as pilot:
        with Store.open(tmp_path / "db.sqlite") as store:
            record = store.attempt(first)
        screen = UpgradedAnswerScreen(
            record, bank.rubric(Q1), bank.question(Q1).text, lambda: voice
        )
        await app.push_screen(screen)
        await pilot.press("r")
        await wait_until(pilot, voice.done.is_set, what="the voice")
        assert voice.spoken == [screen.upgraded.text]
        assert bank.rubric(Q1).misconceptions[0].text not in voice.spoken[0]


async def test_practice_follow_up_and_pass_on_the_session_screen(bank, tmp_path):
    from sayitout.session.plan import SessionPlan
    from sayitout.tui.screens.session import SessionScreen

    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    plan = SessionPlan(question_ids=(Q1, Q2), count=2, follow_ups=1)
    app = make_app(Settings(), plan=plan, services=services, load_models=False)

    def phase(p: Phase):
        return lambda: isinstance(app.screen, SessionScreen) and app.screen.phase is p

    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, phase(Phase.AWAITING_ANSWER), what="question 1")
        await type_text(pilot, CHANCE_ONLY)
        await wait_until(
            pilot,
            lambda: "Answer the follow-up" in text_of(app.screen.query_one("#status")),
            what="the follow-up prompt",
        )
        assert "Follow-up: What quick experiment" in text_of(app.screen.query_one("#question"))
        await type_text(pilot, "I would overfit a single batch first.")
        await wait_until(pilot, phase(Phase.FEEDBACK), what="the score card")
        card = text_of(app.screen.query_one("#card"))
        assert "when prompted" in card and "follow-up: What quick experiment" in card
        # the key point the reply made is marked as made when prompted, not missed
        assert "↪" in card and "prompted: " in card
        assert "prompted (60% of unprompted)" in card
        await pilot.press("n")
        await wait_until(
            pilot,
            lambda: app.screen.index == 1 and app.screen.phase is Phase.AWAITING_ANSWER,
            what="question 2",
        )
        await pilot.press("i")
        await wait_until(pilot, phase(Phase.FEEDBACK), what="the pass")
        assert "You passed" in text_of(app.screen.query_one("#transcript"))
        assert app.screen.query_one("#model-answer").display
        assert app.screen.last_scored.passed


async def test_home_i_starts_a_mock_interview_and_refuses_one_longer_than_the_deck(bank, tmp_path):
    from textual.widgets import Input

    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    app = make_app(Settings(), services=services, load_models=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.decks, what="decks"
        )
        app.screen.query_one("#count", Input).value = "40"
        app.screen.query_one("#decks").focus()
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert any("Questions: 40 is more than the 33" in n.message for n in app._notifications)
        app.screen.query_one("#count", Input).value = "2"
        app.screen.query_one("#decks").focus()
        await pilot.press("i")
        await wait_until(
            pilot, lambda: isinstance(app.screen, InterviewScreen), what="the interview screen"
        )
        assert app.screen.interview_plan.count == 2
        assert app.screen.interview_plan.thinking_s == 10  # the form's 0 means the default
        assert app.screen.interview_plan.follow_ups == 1
