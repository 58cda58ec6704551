from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Rating

from sayitout.schedule import counts, due_questions, missed_last_time, rating_for, schedule
from sayitout.schedule.fsrs_schedule import all_cards
from sayitout.store import Store
from support.synthetic import make_score, make_transcript

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)


def attempt(store: Store, qid: str, score: int, when: datetime, kps=None) -> int:
    kps = kps or [("a", "Point A", "covered"), ("b", "Point B", "missed")]
    return store.save_attempt(
        None,
        qid,
        "deck",
        make_transcript("some answer"),
        make_score(qid, "answer", kps, score=score),
        None,
        created_at=when,
    )


@pytest.mark.parametrize(
    ("score", "rating"),
    [
        (0, Rating.Again),
        (39, Rating.Again),
        (40, Rating.Hard),
        (64, Rating.Hard),
        (65, Rating.Good),
        (84, Rating.Good),
        (85, Rating.Easy),
        (100, Rating.Easy),
    ],
)
def test_rating_bands(score: int, rating: Rating) -> None:
    assert rating_for(score) == rating


def test_order_due_most_overdue_first_then_new_then_later(store: Store) -> None:
    # q-weak failed long ago: most overdue. q-meh failed more recently: due, less overdue.
    attempt(store, "q-weak", 10, NOW - timedelta(days=30))
    attempt(store, "q-meh", 20, NOW - timedelta(days=2))
    # q-strong aced yesterday: not due for days.
    attempt(store, "q-strong", 100, NOW - timedelta(days=1))
    questions = ["q-strong", "q-new1", "q-meh", "q-new2", "q-weak"]
    assert due_questions(store, questions, NOW) == [
        "q-weak",
        "q-meh",
        "q-new1",
        "q-new2",
        "q-strong",
    ]
    entries = {e.question_id: e for e in schedule(store, questions, NOW)}
    assert entries["q-new1"].status == "new" and entries["q-new1"].due is None
    assert entries["q-strong"].status == "later" and entries["q-strong"].overdue_s < 0
    c = counts(store, questions, NOW)
    assert (c.due, c.new, c.learned, c.total) == (2, 2, 1, 5)


def test_due_questions_returns_the_objects_given(store: Store) -> None:
    class Q:
        def __init__(self, id: str) -> None:
            self.id = id

    qs = [Q("a"), Q("b")]
    attempt(store, "b", 0, NOW - timedelta(days=10))
    assert [q.id for q in due_questions(store, qs, NOW)] == ["b", "a"]


def test_low_score_comes_back_sooner_than_high(store: Store) -> None:
    attempt(store, "low", 30, NOW)
    attempt(store, "high", 95, NOW)
    e = {x.question_id: x for x in schedule(store, ["low", "high"], NOW)}
    assert e["low"].due is not None and e["high"].due is not None
    assert e["low"].due < e["high"].due


def test_rescore_changes_the_schedule(store: Store) -> None:
    aid = attempt(store, "q", 10, NOW - timedelta(days=3))
    assert schedule(store, ["q"], NOW)[0].status == "due"
    store.rescore(aid, make_score("q", "x", [("a", "A", "covered")], score=100))
    assert schedule(store, ["q"], NOW)[0].status == "later"


def test_missed_last_time(store: Store) -> None:
    assert missed_last_time(store, "q") == []
    first = attempt(
        store,
        "q",
        40,
        NOW - timedelta(days=2),
        kps=[("a", "Point A", "missed"), ("b", "Point B", "partial"), ("c", "Point C", "covered")],
    )
    second = attempt(store, "q", 90, NOW, kps=[("a", "Point A", "covered"), ("b", "B", "covered")])
    assert missed_last_time(store, "q") == []
    earlier = missed_last_time(store, "q", before=second)
    assert [(m.id, m.text) for m in earlier] == [("a", "Point A")]
    assert [m.id for m in missed_last_time(store, "q", before=second, include_partial=True)] == [
        "a",
        "b",
    ]
    assert missed_last_time(store, "q", before=first) == []


def test_cards_are_cached_until_the_data_changes(store: Store) -> None:
    aid = attempt(store, "q", 10, NOW - timedelta(days=3))
    schedule(store, ["q"], NOW)
    cards = all_cards(store)
    schedule(store, ["q"], NOW)
    assert all_cards(store) is cards  # reused
    store.rescore(aid, make_score("q", "x", [("a", "A", "covered")], score=100))
    assert schedule(store, ["q"], NOW)[0].status == "later"
    assert all_cards(store) is not cards


def test_another_connection_invalidates_the_cache(store: Store) -> None:
    attempt(store, "q", 10, NOW - timedelta(days=3))
    assert schedule(store, ["q"], NOW)[0].status == "due"
    other = Store.open(store.path)
    other.save_attempt(
        None,
        "q",
        "deck",
        make_transcript("x"),
        make_score("q", "x", [], score=100),
        None,
        created_at=NOW - timedelta(days=1),
    )
    other.close()
    assert schedule(store, ["q"], NOW)[0].status == "later"
