"""Property-based tests: no input crashes the number normaliser, the rubric loader or
the scorer; scores always lie in 0..100 and are deterministic."""

from __future__ import annotations

import functools
import math
from collections import Counter
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reliability.results_file import record_case
from sayitout.bank.loader import load_bank, load_rubric_file
from sayitout.bank.models import NumericAnswer
from sayitout.errors import SayitoutError
from sayitout.scoring.numbers import find_numbers, judge

NUMBER_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "hundred",
    "thousand",
    "million",
    "billion",
    "point",
    "minus",
    "times",
    "to",
    "the",
    "power",
    "of",
    "e",
    "and",
    "a",
    "half",
    "quarter",
    "over",
    "percent",
    "gigabytes",
    "GB",
    "MB",
    "seconds",
    "minutes",
    "hours",
    "k",
    "about",
    "roughly",
    "so",
    "that's",
    "is",
    "3e-4",
    "1,000",
    "16.8",
    "0.5",
    "-2",
    "1e9",
    "½",
    ",",
    ".",
    "-",
    "/",
]

spoken_numbers = st.lists(st.sampled_from(NUMBER_WORDS), max_size=25).map(" ".join)
any_text = st.text(max_size=300)
_FAST = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

_EXAMPLES: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def _record_examples():
    yield
    for name, n in _EXAMPLES.items():
        record_case("properties", name, {"times": n, "passed": True, "message": "no crash"})


RUBRIC = Path(__file__).resolve().parents[2] / "rubrics" / "deep-learning" / "dl-initial-loss.yaml"


@_FAST
@given(st.one_of(spoken_numbers, any_text))
def test_number_finder_never_crashes(text: str) -> None:
    _EXAMPLES["spoken-number finder: random text and number words"] += 1
    for m in find_numbers(text):
        assert isinstance(m.value, float | int)
        assert not math.isnan(m.value)


@_FAST
@given(
    st.one_of(spoken_numbers, any_text),
    st.floats(-1e12, 1e12, allow_nan=False),
    st.floats(0, 1e6, allow_nan=False),
    st.sampled_from(["", "GB", "minutes", "seconds", "parameters", "nats", "furlongs"]),
)
def test_judge_never_crashes(text: str, value: float, tolerance: float, unit: str) -> None:
    _EXAMPLES["numeric judge: random text, values, tolerances, units"] += 1
    result = judge(NumericAnswer(value=value, tolerance=tolerance, unit=unit), text)
    assert isinstance(result.correct, bool)
    assert result.reason


def test_numeric_answer_without_its_unit_is_flagged() -> None:
    """A right number said without the unit the rubric needs: judged on its value, and
    the reason reminds the candidate to say the unit."""
    numeric = NumericAnswer(value=4, tolerance=0.1, unit="GB", accept_units=["gigabytes"])
    bare = judge(numeric, "so the answer is four")
    wrong_unit = judge(numeric, "so the answer is four seconds")
    assert "unit" in bare.reason.lower(), bare.reason
    assert not wrong_unit.correct, wrong_unit.reason
    record_case(
        "properties",
        "numeric answer without its unit",
        {"times": 1, "passed": True, "message": bare.reason},
    )


# --- the rubric loader --------------------------------------------------------------------

_yaml_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 1000), st.floats(allow_nan=True), st.text(max_size=30)
)
_yamlish = st.recursive(
    _yaml_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.sampled_from(
                [
                    "question_id",
                    "key_points",
                    "id",
                    "text",
                    "weight",
                    "numeric",
                    "value",
                    "misconceptions",
                    "model_answer",
                    "paraphrases",
                    "terms",
                    "unit",
                    "x",
                ]
            ),
            children,
            max_size=6,
        ),
    ),
    max_leaves=20,
)


def _load_or_problem(path: Path) -> None:
    try:
        load_rubric_file(path)
    except SayitoutError as exc:
        assert exc.message and str(path.name) in exc.message, exc.message


@settings(max_examples=150, deadline=None)
@given(st.one_of(any_text, st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
def test_rubric_loader_random_text(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    _EXAMPLES["rubric loader: random text and bytes"] += 1
    path = tmp_path_factory.mktemp("rubric") / "random.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    _load_or_problem(path)


@settings(max_examples=150, deadline=None)
@given(_yamlish)
def test_rubric_loader_random_structures(tmp_path_factory: pytest.TempPathFactory, data) -> None:
    _EXAMPLES["rubric loader: random YAML structures"] += 1
    path = tmp_path_factory.mktemp("rubric") / "structure.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    _load_or_problem(path)


@functools.lru_cache(maxsize=1)
def _valid_rubric_text() -> str:
    return RUBRIC.read_text(encoding="utf-8")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["delete", "insert", "replace", "dup"]),
            st.floats(0, 1),
            st.sampled_from(
                [
                    "",
                    ":",
                    "- ",
                    "\t",
                    "[",
                    "{",
                    "'",
                    '"',
                    "\n",
                    "  ",
                    "&a",
                    "*a",
                    "!!python/object",
                    "---",
                    "null",
                    "-1",
                    "1e999",
                    "é",
                    "\x00",
                ]
            ),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_rubric_loader_mutations(tmp_path_factory: pytest.TempPathFactory, edits) -> None:
    """Random edits of a real rubric: it loads or gives a problem naming the file."""
    _EXAMPLES["rubric loader: random edits of a real rubric"] += 1
    text = _valid_rubric_text()
    for op, where, piece in edits:
        i = int(where * len(text))
        if op == "delete":
            text = text[:i] + text[i + 1 + len(piece) :]
        elif op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "replace":
            text = text[:i] + piece + text[i + len(piece) :]
        else:
            j = text.find("\n", i)
            line_start = text.rfind("\n", 0, i) + 1
            if j > 0:
                text = text[:j] + "\n" + text[line_start:j] + text[j:]
    path = tmp_path_factory.mktemp("rubric") / "dl-initial-loss.yaml"
    path.write_text(text, encoding="utf-8")
    _load_or_problem(path)


# --- the scorer -------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _bank():
    return load_bank()


@functools.lru_cache(maxsize=1)
def _scorer():
    from sayitout.scoring import Scorer

    scorer = Scorer(device="cpu")
    scorer.warm_up()
    return scorer


_answer_words = [
    "the",
    "loss",
    "is",
    "natural",
    "log",
    "of",
    "ten",
    "about",
    "two",
    "point",
    "three",
    "softmax",
    "uniform",
    "one",
    "tenth",
    "logits",
    "sanity",
    "check",
    "zero",
    "um",
    "uh",
    "like",
    "you",
    "know",
    "NaN",
    "fp16",
    "overfit",
    "2.303",
    "ln",
    "-",
]
answers = st.one_of(
    st.lists(st.sampled_from(_answer_words), max_size=60).map(" ".join),
    st.text(max_size=400),
)


@pytest.mark.e2e
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(answers)
def test_scorer_random_answers(text: str) -> None:
    _EXAMPLES["scorer: random answers (0..100, deterministic)"] += 1
    try:
        scorer = _scorer()
    except SayitoutError as exc:
        pytest.skip(f"the embedding model cannot be loaded: {exc.message}")
    rubric = _bank().rubric("dl-initial-loss")
    first = scorer.score(rubric, text)
    assert 0 <= first.score <= 100
    again = scorer.score(rubric, text)
    assert again.score == first.score
    assert [k.status for k in again.key_points] == [k.status for k in first.key_points]
