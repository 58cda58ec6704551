"""The coach: mistake ledger, next-session focus and the upgraded answer, on a real Store."""

from __future__ import annotations

import dataclasses
import time
from datetime import timedelta

from sayitout.bank.loader import load_bank
from sayitout.coach import build_ledger, focus_for, next_focus, upgrade_answer
from sayitout.coach.ledger import filler_clusters
from sayitout.scoring.result import AnswerScore, MisconceptionResult
from sayitout.speech.transcript import Transcript, Word
from sayitout.store import Store
from support.coach import T0, save
from support.synthetic import fill_history, make_score, sample_questions


def test_repeated_misconception_and_missed_point_enter_the_ledger(store: Store) -> None:
    a1 = save(store, "q1", ("covered", "missed"), minutes=0, misconception="only-sgd")
    save(store, "q2", ("covered", "covered"), minutes=1)
    a3 = save(store, "q1", ("covered", "missed"), minutes=2, misconception="only-sgd")
    save(store, "q3", ("missed", "covered"), minutes=3)  # missed once only: not a habit
    ledger = build_ledger(store)
    kinds = {e.key: e for e in ledger.entries}
    mis = kinds["misconception:q1:only-sgd"]
    assert mis.count == 2 and mis.attempt_ids == (a3, a1)
    assert mis.title == 'You said "Warmup is only for SGD"'
    assert mis.detail == "Actually: It helps Adam too"
    assert mis.last_seen == T0 + timedelta(minutes=2)
    missed = kinds["missed_point:q1:kp-b"]
    assert missed.count == 2 and missed.question_ids == ("q1",)
    assert "missed 2 of 2 times on q1" in missed.detail
    assert "missed_point:q3:kp-a" not in kinds
    assert ledger.attempts_read == 4


def test_a_point_said_the_other_way_round_twice_enters_the_ledger(store: Store) -> None:
    a1 = save(store, "q1", ("covered", "missed"), minutes=0, reversed_point="kp-b")
    save(store, "q1", ("covered", "missed"), minutes=1)
    a3 = save(store, "q1", ("covered", "missed"), minutes=2, reversed_point="kp-b")
    ledger = build_ledger(store)
    kinds = {e.key: e for e in ledger.entries}
    turned = kinds["reversed_point:q1:kp-b"]
    assert turned.count == 2 and turned.attempt_ids == (a3, a1)
    assert turned.title == "You say it the other way round: Point B about warmup"
    assert turned.detail == "Last time: You said B."
    # the attempts that said it the other way round are not counted as leaving it out
    assert "missed_point:q1:kp-b" not in kinds
    drill = next_focus(ledger)[0]
    assert drill.source == "reversed_point" and drill.question_ids == ("q1",)
    assert drill.title == "Say it the right way round: Point B about warmup"


def test_a_point_covered_last_time_has_left_the_ledger(store: Store) -> None:
    save(store, "q1", ("covered", "missed"), minutes=0)
    save(store, "q1", ("covered", "missed"), minutes=1)
    save(store, "q1", ("covered", "covered"), minutes=2)
    assert build_ledger(store).of_kind("missed_point") == ()


def test_delivery_habits_fast_pace_slow_start_long_answers_and_fillers(store: Store) -> None:
    for i in range(3):
        save(
            store,
            f"q{i}",
            ("covered", "covered"),
            minutes=i,
            wpm=200,
            first_word_s=5.5,
            duration_s=150,
            fillers=20,
        )
    save(store, "q9", ("covered", "covered"), minutes=9, wpm=140)
    ledger = build_ledger(store)
    by_kind = {e.kind: e for e in ledger.delivery}
    assert set(by_kind) == {"pace_fast", "slow_start", "long_answers"}
    assert by_kind["pace_fast"].title == "You speak fast (200 words a minute)"
    assert by_kind["slow_start"].count == 3
    assert "5.5 s" in by_kind["slow_start"].title
    assert by_kind["long_answers"].question_ids == ("q2", "q1", "q0")


def test_filler_clusters_come_from_word_timings() -> None:
    words = [
        Word(w, i * 0.5, i * 0.5 + 0.3)
        for i, w in enumerate(
            [
                "so",
                "um",
                "the",
                "uh",
                "model",
                "um",
                "learns",
                "and",
                "then",
                "much",
                "later",
                "we",
                "uh",
                "see",
            ]
        )
    ]
    spread = [Word(w.text, w.start * 20, w.end * 20) for w in words]
    assert filler_clusters(Transcript(" ".join(w.text for w in words), tuple(words))) == 1
    assert filler_clusters(Transcript(" ".join(w.text for w in words), tuple(spread))) == 0
    assert filler_clusters(Transcript("typed um uh um")) is None


def test_passes_and_wrong_numbers(store: Store) -> None:
    save(store, "n1", ("covered", "covered"), minutes=0, numeric_ok=False)
    save(store, "n2", ("covered", "covered"), minutes=1, numeric_ok=False)
    save(store, "n3", ("covered", "covered"), minutes=2, numeric_ok=True)
    save(store, "p1", ("missed", "missed"), minutes=3, ended_by="passed")
    ledger = build_ledger(store)
    assert ledger.of_kind("wrong_number")[0].question_ids == ("n2", "n1")
    passed = ledger.of_kind("passed")[0]
    assert passed.title == "You passed on one question" and passed.question_ids == ("p1",)
    assert ledger.of_kind("missed_point") == ()  # a pass is not counted as missed points


def test_focus_picks_at_most_three_distinct_drills_content_first(store: Store) -> None:
    for m in range(2):
        save(store, "q1", ("covered", "missed"), minutes=m, misconception="only-sgd")
        save(store, "q2", ("missed", "covered"), minutes=10 + m)
        save(store, "n1", ("covered", "covered"), minutes=20 + m, numeric_ok=False, wpm=220)
        save(store, "n2", ("covered", "covered"), minutes=30 + m, numeric_ok=False, wpm=220)
    ledger = build_ledger(store)
    drills = next_focus(ledger, due=["q7", "q8"])
    assert len(drills) == 3
    assert drills[0].title == 'Stop saying "Warmup is only for SGD"'
    assert drills[0].question_ids == ("q1",)
    assert drills[1].title == "Two questions where you keep leaving out a key point"
    assert set(drills[1].question_ids) == {"q1", "q2"}
    assert drills[2].title == "Two questions where your final number was wrong"
    assert drills[2].question_ids == ("n2", "n1")
    # unknown questions (deleted from the bank) are dropped; a due drill fills in
    only_due = next_focus(ledger, due=["q7", "q8"], known={"q7", "q8"})
    assert [(d.title, d.question_ids) for d in only_due] == [
        ("Two questions due for review", ("q7", "q8"))
    ]


def test_focus_on_an_empty_history_is_the_due_list_only(store: Store) -> None:
    assert next_focus(build_ledger(store)) == []
    bank = load_bank(user=False)
    ledger, drills = focus_for(store, bank, deck="deep-learning")
    assert ledger.entries == () and drills == []  # nothing attempted: nothing due yet


def test_ledger_on_a_large_history_is_quick(store: Store) -> None:
    fill_history(store, sample_questions(), 2000, per_session=10, end=T0)
    start = time.perf_counter()
    ledger = build_ledger(store)
    elapsed = time.perf_counter() - start
    assert ledger.attempts_read == 300
    assert ledger.entries  # synthetic candidates miss points again and again
    assert elapsed < 10  # generous: a shared, loaded machine; bench figures live elsewhere


# ------------------------------------------------------------------ upgraded answer


def _score_for(rubric, answer: str, covered: dict[str, str], mis=()) -> AnswerScore:
    base = make_score(
        rubric.question_id,
        answer,
        [(kp.id, kp.text, "covered" if kp.id in covered else "missed") for kp in rubric.key_points],
    )
    kps = []
    for kp in base.key_points:
        if kp.id in covered:
            start = answer.index(covered[kp.id])
            kp = dataclasses.replace(
                kp, evidence=covered[kp.id], evidence_span=(start, start + len(covered[kp.id]))
            )
        else:
            kp = dataclasses.replace(kp, evidence=None, evidence_span=None)
        kps.append(kp)
    return dataclasses.replace(base, key_points=tuple(kps), misconceptions=tuple(mis))


def test_upgraded_answer_weaves_missing_points_in_rubric_order(deck_rubric) -> None:
    rubric = deck_rubric("dl-deep-plain-network")
    answer = (
        "Um, it's not overfitting, it's worse on the training set too. "
        "So, uh, you add skip connections, like in ResNet."
    )
    score = _score_for(
        rubric,
        answer,
        {
            "degradation-not-overfitting": "it's not overfitting",
            "residual-connections": "you add skip connections",
        },
    )
    up = upgrade_answer(score, rubric)
    kinds = [(s.kind, s.key_point_id) for s in up.segments]
    assert kinds[:2] == [("own", None), ("own", None)]
    added = [s.key_point_id for s in up.added]
    assert added == ["identity-is-easy", "gradient-highway", "norm-and-init"]
    assert up.segments[0].text == "It's not overfitting, it's worse on the training set too."
    assert up.segments[1].text.startswith("So, you add skip connections")  # 'uh' dropped
    # the added sentences come from the model answer, not the bare key point text
    model = rubric.model_answer
    assert any(s.text in model for s in up.added)
    assert up.text.startswith("It's not overfitting")
    assert "[+ " in up.marked


def test_upgraded_answer_places_a_leading_point_before_the_sentence_that_follows_it(
    deck_rubric,
) -> None:
    rubric = deck_rubric("dl-deep-plain-network")
    answer = "Add residual connections, that's what ResNet did."
    score = _score_for(rubric, answer, {"residual-connections": "Add residual connections"})
    up = upgrade_answer(score, rubric)
    assert up.segments[0].kind == "added"
    assert up.segments[0].key_point_id == "degradation-not-overfitting"
    assert up.segments[1].kind == "own"


def test_upgraded_answer_marks_a_misconception_and_adds_its_correction(deck_rubric) -> None:
    rubric = deck_rubric("dl-adamw-vs-l2")
    answer = "They are mathematically identical. AdamW decouples weight decay."
    mis = MisconceptionResult(
        "same-thing",
        "same",
        "They differ for adaptive optimisers.",
        0.9,
        "They are mathematically identical",
        (0, 33),
        15,
    )
    score = _score_for(
        rubric, answer, {"decoupled-weight-decay": "AdamW decouples weight decay"}, mis=[mis]
    )
    up = upgrade_answer(score, rubric)
    assert up.segments[0].kind == "wrong"
    assert up.segments[1].text == "They differ for adaptive optimisers."
    assert "mathematically identical" not in up.text


def test_upgraded_empty_answer_is_the_missing_points(deck_rubric) -> None:
    rubric = deck_rubric("dl-initial-loss")
    score = _score_for(rubric, "", {})
    up = upgrade_answer(score, rubric)
    assert [s.kind for s in up.segments] == ["added"] * len(rubric.key_points)


def test_one_misconception_in_two_questions_rubrics_counts_across_them(store: Store) -> None:
    save(store, "q1", ("covered", "covered"), minutes=0, misconception="only-sgd")
    save(store, "q2", ("covered", "covered"), minutes=1, misconception="sgd-only")
    [entry] = build_ledger(store).of_kind("misconception")
    assert entry.count == 2 and entry.question_ids == ("q2", "q1")
