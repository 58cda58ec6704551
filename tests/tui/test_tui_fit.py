"""The screens fit the terminal: at 80x24 the score card's verdict and checklist are in
view without scrolling, `m` brings the model answer into view, nothing floats over the
card, and Home uses the rows a 120x40 terminal gives it."""

from __future__ import annotations

import pytest

from sayitout.bank.loader import load_bank
from sayitout.config import Settings
from sayitout.session.events import Phase
from sayitout.tui import make_app
from sayitout.tui.screens.home import HomeScreen
from sayitout.tui.screens.settings import SettingsScreen
from support.tui import (
    Q1,
    answer_for,
    fake_services,
    in_phase,
    screen_app,
    session_app,
    show,
    text_of,
    type_answer,
    wait_until,
)


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def visible(screen, widget) -> bool:
    """Whether the widget's top rows are inside the screen (not scrolled away)."""
    region = widget.region
    return region.height > 0 and 0 <= region.y < screen.size.height - 1


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_score_card_checklist_in_view(bank, tmp_path, size):
    app = session_app(bank, tmp_path)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, in_phase(app, Phase.AWAITING_ANSWER), what="question")
        await type_answer(pilot, answer_for(bank, Q1))
        await pilot.pause()
        card = app.screen.query_one("#card")
        rubric = bank.rubric(Q1)
        text = text_of(card)
        # every key point is one checklist line, numbered, in the first rows of the card
        for i in range(1, len(rubric.key_points) + 1):
            assert f" {i} " in text
        lines_needed = 2 + len(rubric.key_points) + 2  # verdict, checklist, border
        assert card.region.y + lines_needed <= size[1] - 1, "checklist below the fold"
        assert not app._notifications, "a toast floats over the card"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_model_answer_key_scrolls_to_it(bank, tmp_path, size):
    app = session_app(bank, tmp_path)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, in_phase(app, Phase.AWAITING_ANSWER), what="question")
        await type_answer(pilot, answer_for(bank, Q1))
        await pilot.press("m")
        panel = app.screen.query_one("#model-answer")
        await wait_until(pilot, lambda: panel.display and panel.size.height, what="model answer")
        await pilot.pause(0.2)
        assert visible(app.screen, panel), panel.region


async def test_settings_shows_at_once(bank, tmp_path):
    services = fake_services(bank, tmp_path, mic_reason="no input device was found")
    app = make_app(Settings(), services=services, load_models=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), what="home")
        await pilot.press("o")
        await pilot.pause(0.3)
        assert isinstance(app.screen, SettingsScreen)
        assert app.screen.query_one("#tts").region.height > 0


async def test_typed_attempt_offers_no_playback_keys(bank, tmp_path):
    from sayitout.store import Store
    from sayitout.tui.screens.attempt import AttemptScreen
    from support.synthetic import make_score, make_transcript

    store = Store.open(tmp_path / "db.sqlite")
    text = "lower the learning rate"
    score = make_score("q", text, [("lr", "Lower the learning rate", "covered")])
    aid = store.save_attempt(None, "q", "d", make_transcript(text, model="typed"), score, None)

    screen = AttemptScreen(store, aid)
    app = screen_app(bank, tmp_path / "app")
    async with app.run_test(size=(80, 24)) as pilot:
        await show(pilot, screen)
        await wait_until(pilot, lambda: screen.record is not None)
        shown = {b.binding.action for b in screen.active_bindings.values() if b.enabled}
        assert "toggle_play" not in shown and "rewind" not in shown
        assert "back" in shown
        assert "Typed answer" in text_of(screen.query_one("#playback"))
    store.close()


def test_number_line_drops_a_reason_that_repeats_it():
    from sayitout.scoring.result import NumericResult
    from sayitout.tui.widgets.score_card import number_line

    def n(reason: str, correct: bool, heard: float = 2.3) -> NumericResult:
        return NumericResult(2.3, 0.05, "", heard, None, f"{heard:g}", correct, reason)

    assert number_line(n("Right: 2.3.", True))[1] is None
    assert number_line(n("Heard 5 as your answer, but it is 2.3.", False, 5))[1] is None
    kept = "Right value, 2.3; say the unit too (nats)."
    assert number_line(n(kept, True))[1] == kept
    converted = "Heard 2300 m, which is 2.3 km; the answer is 2.3 km."
    assert number_line(n(converted, True))[1] == converted


def test_a_volunteered_point_reads_as_made_in_the_reply_above():
    from sayitout.scoring.result import FollowUpResult
    from sayitout.tui.widgets.score_card import follow_up_row

    reply = "One tenth, so the loss is minus the log of a tenth."
    asked = FollowUpResult("p1", "What probability?", reply, "covered", 0.8, reply, 7.0)
    also = FollowUpResult(
        "p2",
        "What probability?",
        reply,
        "covered",
        0.7,
        "the loss is minus the log",
        9.0,
        volunteered=True,
    )
    assert follow_up_row(asked)[1].plain.startswith("follow-up: What probability?")
    cell = follow_up_row(also)[1].plain
    assert cell.startswith('also made in that reply: "the loss is minus the log"')
    assert "What probability?" not in cell and "+9 prompted" in cell


def test_a_misconception_row_shows_its_cost_before_the_quote():
    """At 80 columns the quote is cut at the card's edge: the points come first."""
    from sayitout.scoring.result import MisconceptionResult
    from sayitout.tui.widgets.score_card import misconception_row

    said = "The loss is noisy because the learning rate is too low, so I would raise it. " * 3
    m = MisconceptionResult("raise-lr", "Raise the LR.", "Lower it.", 0.7, said, None, 30)
    row = misconception_row(m).plain
    assert row.startswith('−30 said: "The loss is noisy'), row
