"""Property tests for reading numbers, judging them, and the scorer's entry.

Two kinds:

* **Oracle**: a number written out by ``num2words`` (a dev dependency: an independent
  number-to-words generator) or by Python's own formatting must read back as the number
  it was made from: cardinals ("seventy-three thousand, eight hundred and fifty-six"),
  decimals ("forty-one point seven"), ordinal fractions ("three sixteenths"), products
  ("four thousand and ninety-six times four thousand and ninety-six"), digits with
  thousands separators and exponents. Skipped when num2words is not installed.
* **Robustness**: arbitrary Unicode (lone surrogates, control characters), numbers of
  any magnitude and form, fed to the number reader, the judge, ``same_number``,
  ``format_number``, the scorer's text clean-up and the scorer itself: never an
  exception, always a result, never an infinite or NaN value.
"""

from __future__ import annotations

import math
import unicodedata

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sayitout.bank.models import NumericAnswer
from sayitout.scoring.lexicon import ORDINALS
from sayitout.scoring.numbers import find_numbers, format_number, judge, same_number
from sayitout.scoring.text import clean_text, content_stems, windows, words

_SETTINGS = settings(max_examples=300, deadline=None)


def _only_value(text: str) -> float:
    found = find_numbers(text)
    assert found, text
    return found[-1].value


# ---- oracle: num2words -------------------------------------------------------------------


def _n2w():
    return pytest.importorskip("num2words").num2words


@_SETTINGS
@given(st.integers(min_value=0, max_value=10**15 - 1).filter(lambda n: n != 1))
def test_cardinals_in_words_read_back(n: int) -> None:
    """Every whole number below a quadrillion, as num2words writes it (hyphens, "and",
    commas). A lone "one" is a pronoun ("the one that works"), so 1 is left out."""
    text = _n2w()(n)
    assert [m.value for m in find_numbers(text)] == [n], text


@_SETTINGS
@given(st.integers(min_value=2, max_value=10**9), st.sampled_from(["", " minutes", " GB"]))
def test_cardinals_without_and_or_hyphens_read_back(n: int, unit: str) -> None:
    """The same without "and", commas or hyphens, as a speech recogniser writes them."""
    text = _n2w()(n).replace(" and ", " ").replace(",", "").replace("-", " ") + unit
    found = find_numbers(text)
    assert [m.value for m in found] == [n], text


@_SETTINGS
@given(
    st.integers(min_value=0, max_value=999_999),
    st.integers(min_value=0, max_value=9999),
)
def test_decimals_in_words_read_back(whole: int, frac: int) -> None:
    """ "forty-one point seven", "zero point zero six two five"."""
    value = float(f"{whole}.{frac:04d}".rstrip("0").rstrip(".") or "0")
    assume(value != 1)
    text = _n2w()(value)
    assert math.isclose(_only_value(text), value, rel_tol=1e-12), text


_DENOMINATORS = sorted(
    {v for k, v in ORDINALS.items() if not k.endswith("s") and k not in ("half", "quarter")}
)


@_SETTINGS
@given(st.integers(min_value=1, max_value=19), st.sampled_from(_DENOMINATORS))
def test_ordinal_fractions_read_back(num: int, den: int) -> None:
    """ "one sixteenth", "three eighths", "a tenth"."""
    n2w = _n2w()
    ordinal = n2w(den, to="ordinal").replace("one ", "")  # "one hundredth" -> "hundredth"
    for text in (f"{n2w(num)} {ordinal}{'s' if num > 1 else ''}",) + (
        (f"a {ordinal}",) if num == 1 else ()
    ):
        assert math.isclose(_only_value(text), num / den, rel_tol=1e-12), text


@_SETTINGS
@given(st.integers(min_value=2, max_value=99_999), st.integers(min_value=2, max_value=99_999))
def test_products_read_back(a: int, b: int) -> None:
    """ "4096 x 4096", "4,096 × 4,096", "four thousand and ninety-six times ...": the
    chain's value comes after its operands."""
    n2w = _n2w()
    for text in (f"{a} x {b}", f"{a:,} × {b:,}", f"{a}*{b}", f"{n2w(a)} times {n2w(b)}"):
        found = find_numbers(text)
        assert found[-1].computed, text
        assert found[-1].value == a * b, text


@_SETTINGS
@given(st.integers(min_value=2, max_value=10**12))
def test_grouped_digits_read_back(n: int) -> None:
    assert _only_value(f"{n:,}") == n
    assert _only_value(f"it is {n:,} parameters") == n


@_SETTINGS
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_python_floats_read_back(x: float) -> None:
    """Any finite float as Python writes it ("1e-05", "-2.5", "1.7976931348623157e+308")."""
    assume(x != 1)
    text = repr(x)
    assert _only_value(text) == x, text


@_SETTINGS
@given(
    st.sampled_from(
        [
            "zero point zero six two five",
            "0.0625",
            "1/16",
            "one sixteenth",
            "a sixteenth",
            "one over sixteen",
            "sqrt(2/512)",
            "√(2/512)",
            "the square root of two over five twelve",
            "1-16",
        ]
    ),
    st.sampled_from(["0.1", "one tenth", "a tenth", "1/10", "1-10", "point one", "one over ten"]),
)
def test_equivalent_forms_read_the_same(sixteenth: str, tenth: str) -> None:
    assert math.isclose(_only_value(sixteenth), 1 / 16)
    assert math.isclose(_only_value(tenth), 0.1)


# ---- robustness --------------------------------------------------------------------------

_NUMBER_PIECES = [
    "1e999",
    "-1e999",
    "1e-999",
    "9" * 320,
    "1" + "0" * 400,
    "1,000,000",
    "4096 x 4096",
    "sqrt(",
    ")",
    "(",
    "√",
    "√-4",
    "ln(0)",
    "ln(-1)",
    "exp(1e9)",
    "log10(1e308)",
    "^",
    "^999999",
    "²",
    "⁻",
    "10⁻³⁰⁰⁰",
    "ten to the",
    "ten to the minus",
    "e",
    "e minus",
    "x",
    "×",
    "/",
    "/0",
    "over zero",
    "divided by",
    "minus",
    "plus",
    "-",
    "−",
    "+",
    "1-10",
    "1-0",
    "0-0",
    "squared",
    "cubed",
    "times",
    "half of",
    "a tenth",
    "point",
    "oh",
    "and",
    "a",
    "hundred",
    "thousand",
    "trillion",
    "seventy-three",
    "forty-one",
    "one-and-a-half",
    "no wait",
    "actually",
    "so",
    "the answer is",
    "about",
    ".",
    ",",
    "GB",
    "minutes",
    "per second",
    "%",
    "\ud800",
    "\udfff",
    "\x00",
    "\x1b[31m",
    "\u2028",
    "\u200b",
    "\ufeff",
    "\uffff",
    "٣",
    "½",
    "１２",
]
_pieces = st.lists(
    st.one_of(
        st.sampled_from(_NUMBER_PIECES),
        st.integers(min_value=-(10**400), max_value=10**400).map(str),
        st.floats().map(repr),
        st.integers(min_value=-5000, max_value=5000).map(lambda k: f"1e{k}"),
    ),
    max_size=30,
).map(" ".join)
_any_text = st.one_of(
    _pieces,
    st.text(max_size=300),
    st.text(st.characters(codec=None, exclude_categories=()), max_size=100),
    st.binary(max_size=100).map(lambda b: b.decode("utf-8", "surrogateescape")),
)


@_SETTINGS
@given(_any_text)
def test_number_reader_never_fails(text: str) -> None:
    for m in find_numbers(text):
        assert math.isfinite(m.value), (text, m)
        assert 0 <= m.start <= m.end <= len(text)
        assert text[m.start : m.end] == m.text
        assert format_number(m.value)


@_SETTINGS
@given(
    _any_text,
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(min_value=0, allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "GB", "minutes", "seconds", "parameters", "nats", "furlongs"]),
)
def test_judge_never_fails(text: str, value: float, tolerance: float, unit: str) -> None:
    result = judge(NumericAnswer(value=value, tolerance=tolerance, unit=unit), text)
    assert isinstance(result.correct, bool)
    assert result.reason.endswith(".")
    assert result.heard is None or math.isfinite(result.heard)


@_SETTINGS
@given(st.floats(), st.floats())
def test_same_number_and_format_never_fail(a: float, b: float) -> None:
    assert same_number(a, b) == same_number(b, a)
    if math.isfinite(a):
        assert same_number(a, a)
    assert format_number(a)


def test_huge_numbers_are_wrong_answers_not_errors() -> None:
    loss = NumericAnswer(value=2.302585, tolerance=0.005, unit="")
    for text in ("the loss is 1e999", "9" * 320, "ten to the power of nine hundred ninety"):
        result = judge(loss, text)
        assert not result.correct
        assert result.heard is not None and math.isfinite(result.heard)
    assert "more than 1.8e308" in judge(loss, "the loss is 1e999").reason


@_SETTINGS
@given(_any_text)
def test_clean_text_makes_any_text_safe(text: str) -> None:
    cleaned = clean_text(text)
    cleaned.encode("utf-8")  # no lone surrogates left
    assert all(c == "\n" or unicodedata.category(c) not in ("Cc", "Cf", "Cs") for c in cleaned)
    assert clean_text(cleaned) == cleaned
    ws = words(cleaned)
    windows(cleaned, ws)
    content_stems(cleaned)
    find_numbers(cleaned)


def test_clean_text_keeps_what_a_person_sees() -> None:
    assert clean_text("14 GB.\r\nEach\u2028parameter\ttakes\u200b two bytes") == (
        "14 GB.\nEach\nparameter takes two bytes"
    )
    assert clean_text("a\ud800b") == "a\ufffdb"
    assert clean_text("\ud83d\ude00") == "😀"
    assert clean_text("cafe\u0301") == "café"


@pytest.fixture(scope="module")
def loss_rubric(deck_rubric):
    return deck_rubric("dl-initial-loss")


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(_any_text)
def test_scorer_entry_never_fails(scorer, loss_rubric, text: str) -> None:
    """The real scorer (model included) on any text: a score in 0..100, never a traceback."""
    result = scorer.score(loss_rubric, text)
    assert 0 <= result.score <= 100
    result.answer.encode("utf-8")


_TENTH_FORMS = ["one tenth", "a tenth", "0.1", "1/10", "1-10", "point one"]


@pytest.mark.parametrize(
    "answer",
    [
        "With ten classes and a uniform output, each class gets a probability of {X}, so the "
        "loss is minus log of {X}, which is about 2.3.",
        "The model is uniform so the true class gets {X} and cross entropy is minus log {X}. "
        "So about two point three.",
        "uniform softmax over ten classes so {X} each and the loss is about 2.3",
    ],
)
def test_equivalent_forms_score_the_same(scorer, loss_rubric, answer: str) -> None:
    """Correcting Whisper's "1-10" to "one tenth" (or typing 0.1, 1/10) never changes the
    score or a key point's status."""
    results = scorer.score_many([(loss_rubric, answer.format(X=x)) for x in _TENTH_FORMS])
    assert len({r.score for r in results}) == 1, [
        (x, r.score) for x, r in zip(_TENTH_FORMS, results, strict=True)
    ]
    assert len({tuple(k.status for k in r.key_points) for r in results}) == 1
