"""``score --batch``: one result per input line, in order, whatever a line holds.

Property tests feed the line parser and the batch loop arbitrary JSON shapes and
arbitrary Unicode (surrogates, control characters, line separators inside strings);
the scorer is a stand-in here so hundreds of examples run in seconds (the real
scorer's own robustness is tested in ``test_reliability_properties.py``).
"""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reliability.results_file import record_case
from sayitout.bank.models import KeyPoint, Rubric
from sayitout.cli.score_batch import (
    BatchLine,
    BatchRubrics,
    answered_lines,
    clean_text,
    input_lines,
    parse_line,
    score_lines,
)
from sayitout.errors import ModelError, SayitoutError, UsageError
from sayitout.speech.transcript import Transcript

RUBRIC = Rubric(
    question_id="q",
    key_points=[KeyPoint(id="a", text="a point")],
    model_answer="an answer",
)
_EXAMPLES: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def _record_examples():
    yield
    for name, n in _EXAMPLES.items():
        record_case(
            "properties", name, {"times": n, "passed": True, "message": "one result per line"}
        )


class _Rubrics(BatchRubrics):
    def __init__(self) -> None:
        super().__init__([], Path("."))

    def by_id(self, qid: str) -> Rubric:
        if qid != "q":
            raise UsageError(f"no question with id '{qid}'")
        return RUBRIC


class _Result:
    def __init__(self, t: Transcript) -> None:
        self.t = t

    def to_dict(self) -> dict[str, Any]:
        t = self.t.text
        t.encode("utf-8")  # the scorer must only ever see valid Unicode
        return {"score": len(t) % 101}


def _fake_score_many(jobs: list[tuple[Rubric, Transcript]]) -> list[_Result]:
    for _, t in jobs:
        if "BOOM" in t.text:  # an answer that breaks the scorer
            raise OverflowError("cannot convert float infinity to integer")
    return [_Result(t) for _, t in jobs]


def _run(data: bytes, **kw: Any) -> tuple[list[dict[str, Any]], Any]:
    out: list[dict[str, Any]] = []
    outcome = score_lines(
        input_lines(io.BytesIO(data)), _Rubrics(), lambda: _fake_score_many, out.append, **kw
    )
    for r in out:
        json.dumps(r, ensure_ascii=False).encode("utf-8")  # every result is writable
    return out, outcome


# ------------------------------------------------------------------------ properties

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4)
    ),
    max_leaves=20,
)
word = st.fixed_dictionaries(
    {},
    optional={
        "text": json_values,
        "start": json_values,
        "end": json_values,
        "probability": json_values,
    },
)
transcript = st.fixed_dictionaries(
    {},
    optional={
        "text": st.one_of(st.text(), json_values),
        "words": st.one_of(st.lists(word, max_size=3), json_values),
        "duration": json_values,
    },
)
line_objects = st.fixed_dictionaries(
    {},
    optional={
        "question_id": st.one_of(st.just("q"), json_values),
        "rubric": json_values,
        "answer": st.one_of(st.text(), transcript, json_values),
    },
)
_PROPS = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))


def _encode(obj: Any) -> bytes:
    # allow_nan: NaN/Infinity literals are what Python's json accepts and others write
    return json.dumps(obj, ensure_ascii=False).encode("utf-8", "surrogatepass")


@_PROPS
@given(st.one_of(line_objects, json_values))
def test_any_json_shape_is_a_line_or_a_reason(obj: Any) -> None:
    _EXAMPLES["batch line parser: arbitrary JSON shapes"] += 1
    try:
        line = parse_line(_encode(obj))
    except UsageError as exc:
        assert exc.message and "\n" not in exc.message
        return
    assert isinstance(line, BatchLine)
    line.transcript().text.encode("utf-8")


@_PROPS
@given(
    st.binary(max_size=200)
    | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass"))
)
def test_any_bytes_are_a_line_or_a_reason(raw: bytes) -> None:
    _EXAMPLES["batch line parser: arbitrary bytes and Unicode"] += 1
    try:
        parse_line(raw.replace(b"\n", b" "))
    except UsageError as exc:
        assert exc.message


@_PROPS
@given(st.lists(st.one_of(line_objects, st.text(max_size=30)), min_size=1, max_size=12))
def test_one_result_per_line_in_order(items: list[Any]) -> None:
    _EXAMPLES["batch: one result per line, in order (random lines)"] += 1
    encoded = [
        _encode({"question_id": "q", "answer": x}) if isinstance(x, str) else _encode(x)
        for x in items
    ]
    results, outcome = _run(b"\n".join(encoded) + b"\n", chunk=3)
    expected = [n for n, raw in enumerate(encoded, 1) if raw.strip()]
    assert [r["line"] for r in results] == expected
    assert all(("score" in r) != ("error" in r) for r in results)
    assert outcome.failed == sum("error" in r for r in results)


@_PROPS
@given(st.text(max_size=60))
def test_any_answer_text_is_scored(text: str) -> None:
    """Surrogates, controls, U+2028, U+0085, form feed: one line, one score."""
    _EXAMPLES["batch: arbitrary Unicode answers (surrogates, separators)"] += 1
    data = _encode({"question_id": "q", "answer": text}) + b"\r\n"
    results, _ = _run(data)
    assert len(results) == 1 and results[0]["line"] == 1
    assert "score" in results[0] or "BOOM" in text


# --------------------------------------------------------------------- examples


def test_separators_inside_strings_do_not_split_lines() -> None:
    answers = ["a\u2028b", "c\u0085d", "e\x0cf\x1cg\u2029h"]
    data = "\ufeff" + "\r\n".join(
        json.dumps({"question_id": "q", "answer": a}, ensure_ascii=False) for a in answers
    )
    results, _ = _run(data.encode())
    assert [r["line"] for r in results] == [1, 2, 3]
    assert all("score" in r for r in results)


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ('{"question_id": "q", "answer": {"text": 123}}', "answer.text"),
        (
            '{"question_id": "q", "answer": {"text": "x", "words": [{"text": null}]}}',
            "words[0].text",
        ),
        (
            '{"question_id": "q", "answer": {"text": "x", '
            '"words": [{"text": "x", "start": "a", "end": 1}]}}',
            "words[0].start",
        ),
        ('{"question_id": "q", "answer": {"text": "x", "words": 7}}', "answer.words"),
        ('{"question_id": "q"}', "answer"),
        ('{"answer": "x"}', "question_id"),
        ('{"question_id": "q", "answer": null}', "answer"),
        ('"just a string"', "json object"),
        ('{"question_id": "q", "answer": "x", "n": ' + "1" * 5000 + "}", "4,300 digits"),
        ("[" * 50_000, "nested too deeply"),
        ('{"question_id": "q", "answer": {"text": "x", "duration": NaN}}', "duration"),
        ('{"question_id": "nope", "answer": "x"}', "nope"),
    ],
)
def test_wrong_shapes_get_a_reason(line: str, needle: str) -> None:
    results, outcome = _run(line.encode() + b"\n" + _encode({"question_id": "q", "answer": "ok"}))
    assert needle.lower() in results[0]["error"].lower(), results[0]
    assert results[1] == {"line": 2, "score": 2}
    assert outcome.failed == 1


def test_lone_surrogate_is_cleaned_before_scoring() -> None:
    results, _ = _run(b'{"question_id": "q", "answer": "\\ud800 lower the rate"}')
    assert "score" in results[0]
    assert clean_text("\ud800x\udfff") == "\ufffdx\ufffd"


def test_an_answer_that_breaks_the_scorer_costs_only_its_line() -> None:
    lines = [_encode({"question_id": "q", "answer": a}) for a in ("one", "BOOM 1e999", "three")]
    results, outcome = _run(b"\n".join(lines))
    assert results[0]["score"] == 3 and results[2]["score"] == 5
    assert "OverflowError" in results[1]["error"] and results[1]["line"] == 2
    assert outcome.failed == 1


def test_a_missing_model_stops_the_batch() -> None:
    def broken(_jobs):
        raise ModelError("the embedding model is missing")

    with pytest.raises(ModelError):
        score_lines(
            input_lines(io.BytesIO(_encode({"question_id": "q", "answer": "x"}))),
            _Rubrics(),
            lambda: broken,
            lambda _r: None,
        )


def test_interrupt_keeps_what_was_written_and_resume_goes_on(tmp_path: Path) -> None:
    lines = [_encode({"question_id": "q", "answer": "x" * k}) for k in range(1, 8)]
    data = b"\n".join(lines) + b"\n"
    out = tmp_path / "out.jsonl"
    calls = 0

    def interrupted(jobs):
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return _fake_score_many(jobs)

    with out.open("w") as f:

        def write(r: dict[str, Any]) -> None:
            f.write(json.dumps(r) + "\n")
            f.flush()

        outcome = score_lines(
            input_lines(io.BytesIO(data)), _Rubrics(), lambda: interrupted, write, chunk=2
        )
    assert outcome.interrupted and outcome.written == 4
    with out.open("a") as f:
        f.write('{"line": 5, "sco')  # a result cut off mid-write by the kill
    last, failed = answered_lines(out)
    assert (last, failed) == (4, 0)
    assert out.read_text().endswith("}\n")
    more: list[dict[str, Any]] = []
    outcome = score_lines(
        input_lines(io.BytesIO(data)),
        _Rubrics(),
        lambda: _fake_score_many,
        more.append,
        start_after=last,
    )
    assert outcome.skipped == 4 and [r["line"] for r in more] == [5, 6, 7]


def test_resume_refuses_a_file_that_is_not_batch_output(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"score": 3}\n')
    with pytest.raises(SayitoutError, match="cannot resume"):
        answered_lines(out)


@pytest.mark.e2e
def test_real_batch_keeps_going_past_every_kind_of_bad_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real CLI and scorer: 12 lines, 12 results in order, the good ones scored."""
    from sayitout.cli import main

    good = {"question_id": "dl-initial-loss", "answer": "about 2.3, the log of ten"}
    lines = [
        _encode(good),
        _encode({"question_id": "dl-initial-loss", "answer": "the loss is 1e999"}),
        _encode({"question_id": "dl-initial-loss", "answer": "9" * 320}),
        b'{"question_id": "dl-initial-loss", "answer": "\\ud800\\udfff lone"}',
        b'{"question_id": "dl-initial-loss", "answer": {"text": 123}}',
        b'{"question_id": "dl-initial-loss", "answer": {"text": "x", "words": [{"text": null}]}}',
        _encode({"question_id": "dl-initial-loss", "answer": "a\u2028b\u0085c\x0cd\x00e"}),
        b"\xff\xfe not utf-8",
        b"[" * 5000,
        _encode({"question_id": "dl-initial-loss", "answer": "\U0001f600" * 2000}),
        _encode({"question_id": "no-such-question", "answer": "x"}),
        _encode(good),
    ]
    batch = tmp_path / "in.jsonl"
    batch.write_bytes(b"\xef\xbb\xbf" + b"\r\n".join(lines) + b"\r\n")
    out = tmp_path / "out.jsonl"
    code = main(["score", "--batch", str(batch), "-o", str(out)])
    results = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r["line"] for r in results] == list(range(1, 13))
    assert code == 1 and "Traceback" not in capsys.readouterr().err
    assert "score" in results[0] and results[0]["score"] == results[11]["score"]
    for i in (3, 6, 9):
        assert "score" in results[i], results[i]
    for i in (4, 5, 7, 8, 10):
        assert "error" in results[i], results[i]


def test_result_lines_never_break_for_any_line_reader() -> None:
    from sayitout.cli.score_batch import result_line

    line = result_line({"line": 1, "evidence": "a\u2028b\u2029c\u0085d\x0ce\x1cf\u00e9"})
    assert len(line.splitlines()) == 1 and line.endswith("\n")
    assert json.loads(line)["evidence"] == "a\u2028b\u2029c\u0085d\x0ce\x1cf\u00e9"
    assert "\u00e9" in line  # readable text is kept as it is


def test_checked_stream_refuses_utf16_and_passes_lines_on() -> None:
    from sayitout.cli.score_batch import checked_stream

    with pytest.raises(UsageError, match="UTF-16"):
        list(checked_stream(io.BytesIO(b"\xff\xfe{\x00"), Path("<stdin>")))
    lines = list(input_lines(checked_stream(io.BytesIO(b'{"a": 1}\n\n{"b": 2}'), Path("x"))))
    assert lines == [(1, b'{"a": 1}'), (3, b'{"b": 2}')]


def test_a_scorer_fault_on_one_typed_answer_is_a_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sayitout.cli import main, score_cmds

    class Broken:
        def score(self, rubric: Rubric, transcript: Transcript) -> Any:
            raise OverflowError("cannot convert float infinity to integer")

    monkeypatch.setattr(score_cmds, "_scorer", lambda args: Broken())
    assert main(["score", "dl-initial-loss", "--text", "the loss is 1e999"]) == 1
    err = capsys.readouterr().err
    assert "could not score this answer (OverflowError" in err and "Traceback" not in err
