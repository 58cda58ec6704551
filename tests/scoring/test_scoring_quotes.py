"""Evidence quotes read well: whole clauses, no dangling last word (pure Python)."""

from __future__ import annotations

import pytest

from sayitout.scoring.text import breaks_sentence, ends_sentence, sentences, tidy_quote, words


@pytest.mark.parametrize(
    ("text", "last", "quote"),
    [
        # a clause break followed only by function words: end at the break
        ("The learning rate is too high, so I would drop it", 7, "The learning rate is too high"),
        # a dangling last word: extend to the word it needs
        (
            "LayerNorm uses the batch statistics, BatchNorm works per example, so at inference",
            7,
            "LayerNorm uses the batch statistics, BatchNorm works per example",
        ),
        # no leading "and"
        ("and see if the NaNs go away, then I look", 8, "see if the NaNs go away"),
        # a direction after the break is content: kept
        ("change is the learning rate. I lower it", 7, "change is the learning rate. I lower it"),
        # a dangling word at the very end of the answer: trimmed
        ("I would lower the", 3, "I would lower"),
    ],
)
def test_tidy_quote(text: str, last: int, quote: str) -> None:
    ws = words(text)
    w = tidy_quote(text, ws, 0, last)
    assert w.text == quote
    assert text[w.start : w.end].strip(".,") == w.text


def test_quote_of_a_cut_window_in_the_engine(scorer, lr_rubric) -> None:
    r = scorer.score(
        lr_rubric, "The learning rate is too high, so I would drop it and add gradient clipping"
    )
    for kp in r.key_points:
        if kp.evidence:
            assert kp.evidence.split()[-1].lower() not in {"so", "i", "the", "and", "per"}
            assert r.answer[kp.evidence_span[0] : kp.evidence_span[1]].strip(".,") == kp.evidence


def test_a_number_in_words_is_quoted_whole() -> None:
    text = "so the loss should be log of ten which is two point three oh three, if you see"
    ws = words(text)
    assert tidy_quote(text, ws, 4, 11).text == "log of ten which is two point three oh three"


def test_one_reading_of_where_a_sentence_ends() -> None:
    # a semicolon ends a sentence for every reader, as a full stop does
    assert ends_sentence("help;") and ends_sentence("(done.)") and not ends_sentence("2.5")
    assert sentences("Loss scaling won't help; lower it. Then retry!") == [
        "Loss scaling won't help;",
        "lower it.",
        "Then retry!",
    ]
    # inside a window: on any word but its last
    assert breaks_sentence("won't help; lower the learning rate")
    assert not breaks_sentence("lower the learning rate.")
    assert not breaks_sentence("a learning rate of 2.5e-4 works")
