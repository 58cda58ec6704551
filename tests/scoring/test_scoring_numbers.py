"""Spoken numbers, units and the choice of the final stated answer (pure Python)."""

from __future__ import annotations

import math

import pytest

from sayitout.bank.models import NumericAnswer, NumericMistake
from sayitout.scoring.numbers import find_numbers, judge, same_number
from sayitout.scoring.numbers.canonical import canonical_numbers
from sayitout.scoring.numbers.values import last_place
from sayitout.scoring.text import looks_english, words


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("seven point five times ten to the minus five", 7.5e-5, None),
        ("three e minus four", 3e-4, None),
        ("3e-4", 3e-4, None),
        ("0.0003", 3e-4, None),
        ("7.5 × 10^-5", 7.5e-5, None),
        ("7.5x10⁻⁵", 7.5e-5, None),
        ("ten to the minus five", 1e-5, None),
        (
            "sixteen million seven hundred eighty one thousand three hundred and twelve",
            16781312,
            None,
        ),
        ("16,781,312", 16781312, None),
        # thousands grouped by spaces: a thin or no-break space, or two plain-space groups
        ("16 781 312", 16781312, None),
        ("73\u202f856", 73856, None),
        ("8 16 4", 4, None),
        ("about forty one point seven minutes", 41.7, "minutes"),
        ("a hundred and twelve gigs", 112, "GB"),
        ("fourteen gigabytes", 14, "GB"),
        ("112 GB", 112, "GB"),
        ("two point three", 2.3, None),
        ("point zero six three", 0.063, None),
        ("one over sixteen", 0.0625, None),
        ("1/16", 0.0625, None),
        ("seventy three thousand eight hundred fifty six", 73856, None),
        ("16.8 million", 16.8e6, None),
        ("seven billion parameters", 7e9, "parameters"),
        ("7B params", 7e9, "parameters"),
        ("twenty five hundred seconds", 2500, "seconds"),
        ("ten twenty four", 1024, None),
        ("eighty one point two percent", 81.2, "percent"),
        ("81.2%", 81.2, "percent"),
        ("half of three e minus four", 1.5e-4, None),
        ("five hundred and twelve", 512, None),
        ("two point three oh three", 2.303, None),
        ("four oh nine six", 4096, None),
        ("two point three, two point three oh", 2.3, None),
        ("about two point three — two-point-three-oh-two", 2.302, None),
        ("about thirty three and a half million parameters", 33.5e6, "parameters"),
        ("five twelve", 512, None),
        # a hesitation after "and" does not end the number; a sentence break does
        ("five hundred and, uh, twelve", 512, None),
        ("twelve. Five-twelve", 512, None),
        # nor after a scale word or "hundred", where a smaller number goes on; a number
        # as large as the scale said after a pause is the number said again
        (
            "sixteen million, uh, seven hundred eighty-one thousand three hundred twelve",
            16781312,
            None,
        ),
        ("five hundred, um, twelve", 512, None),
        ("sixteen million, sixteen million", 16e6, None),
        ("two thousand, uh, two thousand steps", 2000, "steps"),
        ("two hundred, two hundred and fifty", 250, None),
        # a transcript may write the unit's prefix as a word of its own
        ("so the answer is 112 Giga bytes", 112, "GB"),
        ("three hundred milli seconds", 300, "milliseconds"),
        ("eighty one point two per cent", 81.2, "percent"),
    ],
)
def test_spoken_and_written_forms(text: str, value: float, unit: str | None) -> None:
    found = find_numbers(text)
    assert found, text
    m = found[-1]
    assert math.isclose(m.value, value, rel_tol=1e-9), (text, m)
    assert m.unit == unit
    assert m.text.endswith(text.split()[-1])


def test_an_and_after_a_comma_adds_no_fraction() -> None:
    """ "forty-one and two-thirds" is one number; "zero, and one-half times ..." two."""
    assert [m.value for m in find_numbers("which is zero, and one-half times one")][:2] == [
        0.0,
        0.5,
    ]
    assert find_numbers("forty-one and two-thirds minutes")[0].value == pytest.approx(41.667, 1e-4)


@pytest.mark.parametrize(
    "text",
    [
        "Times seven billion is, um, a hundred and, a hundred and twelve gigabytes.",
        "So that's a hundred and, uh, a hundred and twelve gigabytes, before activations.",
    ],
)
def test_a_number_cut_off_and_said_again_is_one_number(text: str) -> None:
    """A number cut off after "and" and started again is the number said again: its
    dangling "and" does not make that number the operand of a sum (a strong disfluent
    answer was read as "two bytes" and scored 30)."""
    said = [m for m in find_numbers(text) if m.unit == "GB"]
    assert [(m.value, m.operand) for m in said] == [(112, False)]
    assert judge(GB, text).correct


@pytest.mark.parametrize(
    "text", ["about two point, two point three", "two point, uh, two point three"]
)
def test_a_number_cut_off_after_point_is_said_again_whole(text: str) -> None:
    """ "two point, two point three": the cut-off "point" does not take the first word
    said again as its decimals (2.2)."""
    assert [m.value for m in find_numbers(text)] == [2.3]
    assert judge(LOSS, text).correct


def test_a_repeat_with_nothing_cut_off_keeps_both_numbers() -> None:
    """ "two, two and a half" may be a list, and "sixteen, sixteen bytes" says one
    number twice: without a dangling "and" nothing is dropped."""
    assert [m.value for m in find_numbers("sizes two, two and a half, and three")] == [2, 2.5, 3]
    assert [m.value for m in find_numbers("that's sixteen, sixteen bytes")] == [16, 16]


@pytest.mark.parametrize("arrow", ["->", "=>", "→", "⇒"])
def test_a_typed_arrow_between_steps_is_no_minus(arrow: str) -> None:
    """ "1/16 = 0.0625 -> 0.063": the typed arrow leads to the rounding, as "→" does; its
    hyphen is no minus (a strong terse answer was heard as 0.0625 - 0.063 and scored 27)."""
    text = f"2/512 = 1/256 {arrow} sqrt {arrow} 1/16 = 0.0625 {arrow} 0.063."
    assert all(m.value > 0 for m in find_numbers(text))
    assert judge(HE, text).correct


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("2,500 s / 60", 41.667, "minutes"),
        ("2500 seconds divided by 60", 41.667, "minutes"),
        ("41.7 min × 60", 2502, "seconds"),
        ("90 minutes / 60", 1.5, "hours"),
        # no count of one time unit in another: the time keeps its unit
        ("2500 s / 2", 1250, "seconds"),
        ("2500 s / 59", 42.373, "seconds"),
    ],
)
def test_a_time_over_sixty_is_converted(text: str, value: float, unit: str) -> None:
    """ "2,500 s / 60" divides seconds by the seconds in a minute: 41.67 minutes, not 41.67
    seconds (a strong typed answer, "2,500 s / 60 ≈ 41.7 min per pass", was heard as
    41.67 seconds, 0.69 minutes, and scored 30)."""
    chain = find_numbers(text)[-1]
    assert chain.computed and chain.unit == unit
    assert chain.value == pytest.approx(value, abs=1e-3)
    typed = "Time = 10⁹ / 4×10⁵ = 2,500 s. 2,500 s / 60 ≈ 41.7 min per pass."
    assert judge(MINUTES, typed).correct


def test_a_time_times_zero_is_read_without_an_error() -> None:
    """ "5 minutes × 0" is no conversion: the count of one time unit in another is never 0."""
    assert find_numbers("5 minutes × 0")[-1].value == 0


def test_rates_are_not_times() -> None:
    (m,) = find_numbers("fifty thousand tokens a second")
    assert m.quantity == "rate"
    assert m.value == 50000


def test_lone_one_is_not_a_number() -> None:
    assert find_numbers("the one that works is the first one") == []


MINUTES = NumericAnswer(value=41.667, tolerance=0.5, unit="minutes", accept_units=["min"])
LR = NumericAnswer(value=7.5e-5, tolerance=1e-6, unit="")
HALFWAY = NumericAnswer(value=1.5e-4, tolerance=1e-6, unit="")
GB = NumericAnswer(value=112, tolerance=1, unit="GB", accept_units=["gigabytes"])


@pytest.mark.parametrize(
    ("numeric", "text", "correct"),
    [
        # intermediate numbers along the way do not count; the final stated one does
        (
            MINUTES,
            "eight GPUs times fifty thousand tokens a second is four hundred thousand tokens per "
            "second so a billion over that is twenty five hundred seconds which is about forty "
            "one point seven minutes",
            True,
        ),
        (MINUTES, "so about forty one point seven", True),  # no unit: judged on the value
        (MINUTES, "it's twenty five hundred seconds", True),  # same quantity, converted
        (MINUTES, "so twenty five hundred minutes", False),  # right digits, wrong unit
        (MINUTES, "forty one point seven seconds", False),
        (MINUTES, "it takes forty one point seven gigabytes", False),  # another quantity
        (
            MINUTES,
            "first I thought forty two minutes but no it's three hundred thirty three minutes",
            False,
        ),
        (MINUTES, "a billion over fifty thousand is twenty thousand seconds", False),
        (
            LR,
            "it's linear so at step five hundred you're five hundred over two thousand of the way "
            "so a quarter of three e minus four is um seven point five e minus five",
            True,
        ),
        (LR, "a quarter of three e minus four", True),
        (LR, "half of three e minus four", False),
        (LR, "the peak is three e minus four", False),
        (GB, "a hundred and twelve gigs", True),
        (GB, "seven billion times two bytes is fourteen gigabytes", False),
        (GB, "the answer is 112 GB because 7 billion times 16 bytes", True),
        # tiny.en wrote this: "Giga" alone was no unit, and "4 bytes" was judged instead
        (GB, "Adam's two moments take 4 bytes each, so the answer is 112 Giga bytes.", True),
        # the unit forgotten after "the answer is": the answer all the same
        (GB, "Adam's two moments take 4 bytes each, so the answer is 112.", True),
        (GB, "the answer is 112, since 16 bytes times 7 billion is 112 GB", True),
        (GB, "it's 4 bytes each, so the answer is 16.", False),
    ],
)
def test_judge_final_answer(numeric: NumericAnswer, text: str, correct: bool) -> None:
    result = judge(numeric, text)
    assert result.correct is correct, result
    assert result.reason.endswith(".")
    assert result.heard_text


def test_no_number_heard() -> None:
    result = judge(MINUTES, "I would need a calculator for that")
    assert not result.correct
    assert result.heard is None
    assert "No number" in result.reason


def test_conversion_is_explained() -> None:
    result = judge(MINUTES, "twenty five hundred seconds")
    assert "2,500 seconds is 41.67 minutes" in result.reason


def test_bare_scale_word_is_not_a_number() -> None:
    assert find_numbers("it needs millions of examples") == []
    assert find_numbers("a million")[0].value == 1e6


def test_vague_number_is_not_an_answer() -> None:
    result = judge(
        MINUTES, "two thousand five hundred seconds which is like forty something minutes"
    )
    assert not result.correct
    assert "exact number" in result.reason


@pytest.mark.parametrize(
    ("text", "vague", "approximate"),
    [
        ("forty or so minutes", True, False),
        ("forty-ish minutes", True, False),
        # a number said to its decimals is approximate: "or so" and "-ish" hedge it
        ("2.30 or so, in nats", False, True),
        ("about 0.06-ish", False, True),
    ],
)
def test_or_so_is_vague_on_a_whole_number_only(text: str, vague: bool, approximate: bool) -> None:
    (m,) = find_numbers(text)
    assert (m.vague, m.approximate) == (vague, approximate)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (41.7, 41.667, True),
        (16.8e6, 16_781_312, True),
        (16_777_216, 16_781_312, False),
        (0.063, 0.0625, True),
        (40, 41.667, False),
        (42, 41.667, True),
        (2500, 2500.0, True),
    ],
)
def test_same_number_at_stated_precision(a: float, b: float, same: bool) -> None:
    assert same_number(a, b) is same


# ---- reported grading mistakes ------------------------------------------------------
LOSS = NumericAnswer(value=2.302585, tolerance=0.005, unit="", accept_units=["nats"])
BATCH = NumericAnswer(
    value=512, tolerance=0, unit="", accept_units=["examples", "samples", "sequences"]
)
CONV = NumericAnswer(value=73856, tolerance=50, unit="", accept_units=["parameters", "weights"])
HE = NumericAnswer(value=0.0625, tolerance=0.001, unit="", accept_units=[])


@pytest.mark.parametrize(
    "text",
    [
        "zero grad",
        "call zero_grad",
        "zero-shot",
        "one-hot",
        "ResNet fifty",
        "fp16",
        "bf16",
        "int8",
        "top one accuracy",
        "top five",
        "GPT four",
        "on batch 1",
        "at step five hundred",
        "until epoch 5",
        "the sanity-check value for batch 1",
    ],
)
def test_numbers_in_names_are_not_numbers(text: str) -> None:
    assert find_numbers(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [("so you're at a quarter of the top: 0.000075.", 7.5e-5), ("the version, 2", 2.0)],
)
def test_a_mark_after_a_name_word_ends_the_name(text: str, value: float) -> None:
    assert [m.value for m in find_numbers(text)][-1] == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("one sixteenth", 0.0625),
        ("a sixteenth", 0.0625),
        ("one over sixteen", 0.0625),
        ("three eighths", 0.375),
        ("an eighth", 0.125),
    ],
)
def test_ordinal_fractions(text: str, value: float) -> None:
    found = find_numbers(text)
    assert [round(m.value, 6) for m in found] == [value]


def test_one_second_is_still_a_time() -> None:
    (m,) = find_numbers("it takes one second")
    assert (m.value, m.unit) == (1, "seconds")


@pytest.mark.parametrize(
    ("numeric", "text", "correct"),
    [
        # a name said after the answer is not the answer
        (LOSS, "it should be about two point three oh three and remember to call zero grad", True),
        # hypothetical numbers after the answer do not displace it
        (
            LOSS,
            "two point three oh three which is log of ten if you see something like six or "
            "seven your init is off",
            True,
        ),
        (LOSS, "so about two point three oh three anything like five means a bug", True),
        (LOSS, "it's two point three oh three rather than something like zero", True),
        (LOSS, "if it's ten your init is off but it should be two point three", True),
        (LOSS, "if it's ten your init is off but it should be two point three oh three", True),
        # a later final answer beats an earlier cued number, with or without a unit
        (
            BATCH,
            "so that's 128 examples per GPU times four GPUs times one accumulation step so "
            "the effective batch is 512",
            True,
        ),
        (
            CONV,
            "three by three by sixty four is five seventy six weights per filter times one "
            "twenty eight plus biases so seventy three thousand eight hundred fifty six",
            True,
        ),
        (HE, "the std is root of two over fan in which is a sixteenth", True),
        (HE, "so one sixteenth", True),
    ],
)
def test_reported_final_answer_mistakes(numeric: NumericAnswer, text: str, correct: bool) -> None:
    result = judge(numeric, text)
    assert result.correct is correct, result


# ---- hyphenated, typed and symbolic forms (issue 9 §5) --------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("forty-one point seven minutes", 41.7),
        ("seventy-three thousand eight hundred fifty-six", 73856),
        ("one thousand and twenty-four", 1024),
        ("seventy three thousand eight fifty six", 73856),
        ("Seventy-three eight fifty-six.", 73856),  # thousands said without "thousand"
        ("sixteen seven eighty one", 16781),
        ("One-and-a-half times ten to the minus four", 1.5e-4),
        ("three-e-minus-four", 3e-4),
        ("16,781,312", 16781312),
        ("1,0000", 0),  # not a thousands group: "1" then "0000"
        ("4096 x 4096", 4096 * 4096),
        ("4096×4096", 4096 * 4096),
        ("4,096 * 4,096 + 4,096", 16781312),
        ("four thousand ninety six squared plus four thousand ninety six", 16781312),
        ("4096² + 4096", 16781312),
        ("three times three times sixty four times one twenty eight", 73728),
        ("1/16", 0.0625),
        ("1/16th", 0.0625),
        ("one sixteenth", 0.0625),
        ("two thirds", 2 / 3),
        ("three quarters", 0.75),
        ("a tenth", 0.1),
        ("1-10", 0.1),
        ("sqrt(2/512)", 0.0625),
        ("√(2/512)", 0.0625),
        ("the square root of two over five twelve", 0.0625),
        ("root two over two", math.sqrt(2) / 2),
        ("one over root two", 1 / math.sqrt(2)),
        ("ln(10)", math.log(10)),
        ("-ln(1/10)", math.log(10)),
        ("-2.5", -2.5),
        ("2,500 s", 2500),
        ("half a million", 500_000),
        ("two to the twelve", 4096),
        ("2 to the power of 10", 1024),
        ("one in ten", 0.1),
        ("1/16th of a second", 0.0625),
        ("2^12", 4096),
        ("41⅔ minutes", 125 / 3),  # vulgar fractions, after a whole number or alone
        ("½", 0.5),
        ("about 2½ GB", 2.5),
    ],
)
def test_hyphenated_typed_and_symbolic_forms(text: str, value: float) -> None:
    found = find_numbers(text)
    assert found, text
    assert math.isclose(found[-1].value, value, rel_tol=1e-9, abs_tol=1e-12), (text, found)


def test_a_range_with_a_unit_is_not_a_fraction() -> None:
    assert [m.value for m in find_numbers("5-10 minutes")] == [5, 10]


GB14 = NumericAnswer(value=14, tolerance=0.5, unit="GB", accept_units=["gigabytes"])
GB112 = NumericAnswer(value=112, tolerance=1, unit="GB", accept_units=["gigabytes"])
FC = NumericAnswer(value=16781312, tolerance=2000, unit="", accept_units=["parameters"])


@pytest.mark.parametrize(
    ("numeric", "text", "correct"),
    [
        # the answer said first counts, wherever the justification's numbers end
        (
            GB14,
            "Fourteen gigabytes. Each parameter takes two bytes in bf16, times seven billion.",
            True,
        ),
        (
            GB14,
            "fourteen gigabytes because each parameter takes two bytes times seven billion",
            True,
        ),
        (GB14, "So, um, about 14 GB: two bytes per weight times 7B.", True),
        (GB112, "112 GB. Per parameter it's 2 + 2 + 4 + 4 + 4 = 16 bytes, times 7 billion.", True),
        (
            FC,
            "16,781,312. That's 4096 x 4096 weights, which is 16,777,216, plus 4,096 biases.",
            True,
        ),
        (
            BATCH,
            "Five hundred and twelve. Eight times sixteen is 128 per GPU, times four GPUs.",
            True,
        ),
        (
            HE,
            "Zero point zero six three. It's the square root of two over five hundred and twelve.",
            True,
        ),
        # ... also after the question read back
        (
            GB14,
            "How much memory do the weights of a 7B model take in bf16? Fourteen gigabytes. "
            "Each parameter takes two bytes, times seven billion.",
            True,
        ),
        # ... and a wrong answer said first stays wrong
        (GB14, "7 GB, because bf16 is one byte per weight.", False),
        (FC, "8,192. It's 4,096 inputs plus 4,096 outputs.", False),
        # a correction replaces the answer said first
        (GB14, "Fourteen gigabytes. No wait, it's twenty eight gigabytes.", False),
        (GB14, "Twenty eight gigabytes. Actually, fourteen gigabytes.", True),
        # an approximate first answer is refined by a later exact one in the same unit
        (
            MINUTES,
            "About forty minutes. 8 x 50,000 is 400,000 tokens a second, a billion over "
            "that is 2,500 seconds, which is 41.7 minutes.",
            True,
        ),
        # a disfluent answer: a comma is a pause, not the end of an answer said first
        (
            BATCH,
            "Uh, so, um, eight, uh, eight per micro batch, and, uh, sixteen of those, so, "
            "um, one twenty eight, and there's four GPUs, so, uh, times four, five hundred twelve.",
            True,
        ),
        # the answer as an expression
        (FC, "it's 4096 x 4096 + 4096", True),
        (FC, "4096 squared plus 4096", True),
        (HE, "so the std is sqrt(2/512)", True),
        (HE, "the square root of two over five twelve", True),
        (
            LOSS,
            "ln(10) ≈ 2.303. With 10 classes p = 1/10 on the correct label, so CE = -ln(1/10).",
            True,
        ),
        # hypothetical numbers after an answer said first still never count
        (LOSS, "Two point three oh three. If you see something like six, your init is off.", True),
        (GB14, "Fourteen gigabytes. In fp32 it would be 28 GB if you didn't use bf16.", True),
        # a reason's numbers after the result never replace it, wherever the result sits
        (LOSS, "You should see ln 10, about 2.3, since each class gets one tenth.", True),
        (LOSS, "The loss is about 2.3 because each class gets probability one tenth.", True),
        # ... a reason said first ends at its comma; a result cued in it still counts
        (LOSS, "Since each class gets one tenth, the loss is 2.3.", True),
        (LOSS, "Each class gets one tenth, because the loss is so 0.1 for each.", False),
        (LOSS, "It's 0.1, because each class gets 0.1.", False),
        # an equation inside a reason after the result is the reason's, not the answer
        (LOSS, "CE = -ln(1/10) = ln 10 ≈ 2.303, since uniform init → p = 0.1 for the class.", True),
        (LOSS, "since p equals point one the loss equals two point three", True),
        (LOSS, "It's 2.303? No: since p = 0.1, the loss is 0.1.", False),
        # an amount for each of something, or a working in parentheses, is not the total
        (
            GB112,
            "14 plus 14 plus 28 plus 56 gives 112 gigabytes, sixteen bytes a parameter.",
            True,
        ),
        (FC, "It's 16,781,312 weights (4,096 × 4,096 = 16,777,216, plus 4,096).", True),
        (GB112, "Sixteen bytes per parameter.", False),
        # ... and so is a check of the result said after it
        (
            LR,
            "500/2000 = 1/4 -> lr = 3e-4 / 4 = 7.5e-5. Sanity: step 1000 -> 1.5e-4, "
            "step 2000 -> full 3e-4.",
            True,
        ),
        (LR, "It's 7.5e-5. As a check, at step 2000 it reaches the full 3e-4.", True),
        (LR, "It's 7.5e-5. Check: at step 2000 you'd be at the full 3e-4.", True),
        (LR, "7.5e-5. Just to check, at step 2000 the rate is 3e-4.", True),
        # a check runs on past a semicolon, to its sentence's end
        (
            HE,
            "σ = √(1/256) = 1/16 = 0.0625 ≈ 0.063 (3 d.p.). Check: 0.0625² = 1/256 ✓; the "
            "factor 2 makes up for ReLU, so 512 · (1/256) · ½ = 1 keeps the variance steady.",
            True,
        ),
        # a comparison with another choice, after the result, is that choice's number,
        # even where it rounds a number of its own ("√(1/512) ≈ 0.044")
        (
            HE,
            "Std = √(1/256) = 1/16 = 0.0625, so σ ≈ 0.063. Quick check: 0.0625² = 1/256 ✓. "
            "For comparison, Xavier with 1/fan_in would give √(1/512) ≈ 0.044.",
            True,
        ),
        (HE, "It's 0.0625. Compared with Xavier's √(1/512) ≈ 0.044, it's √2 bigger.", True),
        # a share of the result said after it is the part's number, not the answer
        (
            GB112,
            "Sixteen bytes times seven billion is one hundred twelve gigabytes. Of that, "
            "the optimizer side, master weights plus the two moments, is eighty-four "
            "gigabytes on its own.",
            True,
        ),
        (GB112, "It's 112 GB. Out of those sixteen bytes, twelve are optimizer state.", True),
        # a check with no result before it is the only answer said
        (LR, "Sanity check: at step 2000 it reaches 3e-4.", False),
        # a lead said again, rounded, after a comma still leads: the working's numbers
        # after it ("..., the 2 compensating for ReLU") never displace it
        (
            HE,
            "0.0625, about 0.063. He init uses std = √(2/n_in) = √(2/512) = 1/16, the 2 "
            "compensating for ReLU zeroing half the activations.",
            True,
        ),
        # an approximate lead is refined by the first result that says it exactly
        (
            FC,
            "About 16.8 million — exactly 16,781,312. So 4,096 squared = 16,777,216 weights, "
            "plus one bias for each output.",
            True,
        ),
        # "cos" in an equation is a cosine, not "because"
        (LR, "lr(t) = ½ · 3e-4 · (1 + cos(π·t/T)) → at 500: lr = 0.25 · 3e-4 = 7.5e-5", True),
        # a computation whose result is said next does not lead: it goes on
        (
            BATCH,
            "So it's eight times sixteen, that's 128 on each GPU, then times four GPUs, so 512.",
            True,
        ),
        # "half of the 3e-4 peak" is an operand; "..., which is zero" stays in the reason
        (
            NumericAnswer(value=1.5e-4, tolerance=1e-6, unit=""),
            "It's 1.5e-4, half of the 3e-4 peak, because the cosine term is cos of ninety "
            "degrees, which is zero, leaving one half times the peak.",
            True,
        ),
        # "the two" names a number said before; it is no result
        (
            HE,
            "Two over 512 is one over 256, and its root is 0.0625. The two is there for ReLU.",
            True,
        ),
        # ... and so does "the 2" after an operand 2, whatever follows it
        (
            HE,
            "σ = √(2/n_in) = √(2/512) = √(1/256) = 1/16 = 0.0625 ≈ 0.063. Why the 2: ReLU "
            "zeroes roughly half of its inputs, so the weight variance is doubled.",
            True,
        ),
        # a cue ends with its sentence: the next sentence's "Factor 2" is a remark
        (
            HE,
            "std = √(2/512) = 1/16 = 0.0625 ≈ 0.063. Factor 2 makes up for ReLU zeroing "
            "about half the activations.",
            True,
        ),
        # a range whose start is said in words: "from peak to 0" ends at a bound
        (
            NumericAnswer(value=1.5e-4, tolerance=1e-6, unit=""),
            "½ · 3e-4 = 1.5e-4. Check: midpoint of a cosine from peak to 0 is exactly half "
            "the peak.",
            True,
        ),
        # where a quantity moves to after a start said in the same sentence is the end of
        # a movement, not the value at the start
        (LOSS, "The loss begins around 0 and then climbs toward log ten, about 2.3.", False),
        (LOSS, "It starts at about 2.3 and falls toward zero as the model learns.", True),
        (LOSS, "You'd see 2.3 at the start, and it should drop to 0.5 as it learns.", True),
        # ... but a value at a named moment is one ("decays to 1.5e-4 halfway")
        (
            NumericAnswer(value=1.5e-4, tolerance=1e-6, unit=""),
            "It starts at 3e-4 and decays to 1.5e-4 halfway through.",
            True,
        ),
        # both ends of a range said "between" after the result leave it standing
        (
            NumericAnswer(value=1.5e-4, tolerance=1e-6, unit=""),
            "Exactly half the starting rate, 0.00015. The curve is symmetric, so halfway "
            "through it sits exactly midway between 0.0003 and zero.",
            True,
        ),
        # ... but the answer said as a result in the next sentence still counts
        (HE, "He scales by a factor of two. So it's 0.0625.", True),
        # a rubric with no unit (as `sayitout import` drafts a count): the count said as
        # the result is the answer, a count in the working is not
        (
            NumericAnswer(value=16781312, tolerance=1680, unit=""),
            "W: 4096·4096 = 16,777,216; b: 4096; total = 16,781,312 parameters.",
            True,
        ),
        (LR, "The fraction done times the peak: step 500 over 2,000 steps, times 3e-4.", False),
        # digits said one at a time end at a comma: 2.3 said twice, not 2.32 then 0.3
        (LOSS, "So it's about two point three, two point three oh.", True),
        # and at a dash: 2.3, then 2.302 to three places, not 2.32 then 0.302
        (
            LOSS,
            "it's ln ten, about two point three — two-point-three-oh-two to three places.",
            True,
        ),
        # a loss is always per example: "nats per example" is its unit, not an amount each
        (LOSS, "p = 0.1 each → loss = log 10 ≈ 2.30 nats per example", True),
        # "a loss of ..." says the result; "log of 0.1" is an operand
        (LOSS, "Minus the log of 0.1 is ln 10, so expect a loss of roughly 2.30.", True),
        (LOSS, "Each class gets 0.1, so you'd see a loss of about 1.0.", False),
        # "You'd expect" may come before an answer said first
        (LOSS, "You'd expect roughly 2.303. Each class gets one-tenth of the mass.", True),
        # the number said in the accepted unit is the answer; a bare one after it is working
        (LOSS, "L = ln(10) ≈ 2.3026 nats. Each of the 10 classes gets p ≈ 0.1.", True),
        # a share of a thing named after it describes that thing, not a result
        (LR, "lr(500) = 3e-4 × 500/2000 = 7.5e-5, i.e. a quarter of the peak.", True),
        (LR, "At step 500 the rate is a quarter of the peak.", False),
        (LOSS, "L ≈ 3.3 nats. Each of the 10 classes gets p ≈ 0.1, so ln 10.", False),
        # a lead made exact after its comma is the answer; the working after it is not
        (
            NumericAnswer(value=1.5e-4, tolerance=1e-6, unit=""),
            "1.5e-4, exactly half the peak. The schedule is one half of 3e-4 times one plus "
            "the cosine of pi times the fraction done; halfway the cosine is zero.",
            True,
        ),
        (
            LOSS,
            "You'd expect roughly two point three, more precisely two point three zero three. "
            "Every one of the ten classes gets about zero point one probability.",
            True,
        ),
        (
            LOSS,
            "You'd expect roughly two point three, more precisely four point six. Every one of "
            "the ten classes gets about zero point one probability.",
            False,
        ),
    ],
)
def test_answer_first_and_expressions(numeric: NumericAnswer, text: str, correct: bool) -> None:
    result = judge(numeric, text)
    assert result.correct is correct, result


@pytest.mark.parametrize(
    "text", ["one tenth", "0.1", "1/10", "a tenth", "1-10", "point one", "one in ten", "10%"]
)
def test_equivalent_forms_judge_the_same(text: str) -> None:
    ratio = NumericAnswer(value=0.1, tolerance=0.001, unit="")
    result = judge(ratio, f"each class gets {text}")
    assert result.correct, result
    assert result.heard == pytest.approx(0.1)


def test_a_huge_number_is_a_wrong_answer() -> None:
    for text in ("the loss is 1e999", "9" * 320, "1e999/1e999", "ten to the power of 999"):
        result = judge(LOSS, text)
        assert not result.correct
    assert same_number(1e308 * 10, 1e308 * 10)
    assert not same_number(float("inf"), 2.0)
    assert not same_number(float("nan"), float("nan"))


# ---- one spelling per number for the embedding model (issue 12 §3) ----------------------


@pytest.mark.parametrize(
    ("text", "respelled"),
    [
        ("each class gets one tenth", "each class gets 0.1"),
        ("each class gets a tenth", "each class gets 0.1"),
        ("each class gets 1/10", "each class gets 0.1"),
        ("each class gets 1-10", "each class gets 0.1"),
        ("each class gets point one", "each class gets 0.1"),
        ("about forty-one point seven minutes", "about 41.7 minutes"),
        ("seven point five times ten to the minus five", "7.5e-05"),
        ("16,781,312 parameters", "16781312 parameters"),
        # more than a number keeps its words; names are not numbers
        ("half of three e minus four", "half of three e minus four"),
        ("sqrt(2/512)", "sqrt(2/512)"),
        ("fp16 and zero grad, the one that works", "fp16 and zero grad, the one that works"),
    ],
)
def test_numbers_respelled_for_the_model(text: str, respelled: str) -> None:
    assert canonical_numbers(text).text == respelled


def test_respelled_offsets_map_spans() -> None:
    text = "so about forty one point seven minutes ok"
    c = canonical_numbers(text)
    assert c.text == "so about 41.7 minutes ok"
    start, end = text.index("about"), text.index(" ok")
    assert c.text[c.offset(start) : c.offset(end)] == "about 41.7 minutes"
    assert c.offset(len(text)) == len(c.text)


@pytest.mark.parametrize(
    ("text", "last"),
    [
        # the root or the chain of something that is no number is not evaluated
        ("the standard deviation is root of two over fan in", 2),
        ("sqrt(2/fan_in)", 2),
        ("cos of pi over four times three e minus four", 3e-4),
        ("one over the square root of five twelve", 1 / math.sqrt(512)),
    ],
)
def test_partial_expressions_are_not_evaluated(text: str, last: float) -> None:
    assert math.isclose(find_numbers(text)[-1].value, last, rel_tol=1e-9), find_numbers(text)


@pytest.mark.parametrize(
    "text",
    [
        "3 x 3 x 64 x 128 + 128 = 73,856",
        "three times three times sixty four times one twenty eight plus the biases one twenty "
        "eight so seventy three thousand eight hundred fifty six",
        "3x3 conv: 3*3*64*128 weights + 128 biases = 73,856 params total for the layer",
    ],
)
def test_number_heavy_english_is_english(text: str) -> None:
    assert looks_english(words(text))


@pytest.mark.parametrize(
    ("text", "correct", "close"),
    [
        ("around forty minutes", False, True),  # 4 % off: a near miss
        ("about 13 GB", False, False),  # another quantity, never close
        ("thirty-eight minutes", False, True),  # 8.8 % off
        ("thirty-five minutes", False, False),  # 16 % off: wrong
        ("2,400 seconds", False, True),  # converted: 40 minutes
        ("about forty one point seven minutes", True, False),
    ],
)
def test_a_near_miss_number_is_close_not_right(text: str, correct: bool, close: bool) -> None:
    numeric = NumericAnswer(value=41.667, tolerance=0.5, unit="minutes", accept_units=["min"])
    got = judge(numeric, text)
    assert (got.correct, got.close) == (correct, close), got.reason
    if close:
        assert "close, but the answer is 41.67 minutes" in got.reason


def test_a_near_miss_earns_part_of_the_numbers_share(scorer, minutes_rubric) -> None:
    right, close, wrong = scorer.score_many(
        [
            (minutes_rubric, "about forty one point seven minutes"),
            (minutes_rubric, "around forty minutes"),
            (minutes_rubric, "around twenty minutes"),
        ]
    )
    assert right.score > close.score > wrong.score
    assert close.numeric is not None and close.numeric.close
    assert close.verdict.startswith("Close, but not the number: 40 minutes")


@pytest.mark.parametrize(
    ("numeric", "text", "correct"),
    [
        # a unit stays in its sentence: "73,856. Weights are ..." leads with a bare count
        (CONV, "73,856. Weights are 3 × 3 × 64 × 128 = 73,728, one bias each, so plus 128.", True),
        # a number after an operator is an operand, however a result cue came before it
        (CONV, "3 × 3 × 64 × 128 = 73,728 weights, so plus 128", False),
        # a precision is no number: "to three decimals"
        (HE, "the square root of 2/512 is 0.0625, so 0.063 to three decimals", True),
        (HE, "1/16 = 0.0625, so 0.063 to three places.", True),
        (HE, "one sixteenth, which is 0.063 rounded to 3 decimal places", True),
        # a compound duration, a mixed number
        (MINUTES, "2,500 seconds, which is forty-one minutes forty seconds", True),
        (MINUTES, "2500 s, so forty-one and two-thirds minutes", True),
        (MINUTES, "that's forty one minutes and forty seconds", True),
        (MINUTES, "about forty minutes and then forty seconds of overhead", False),
        # an ordinal is no quantity
        (LR, "at step 500 it's 7.5e-5, in the 1st half of the warmup", True),
        # a rounding of the result said after it leaves the exact result standing
        (FC, "4096 × 4096 + 4096 = 16,781,312 params (≈16.8M)", True),
        (FC, "4096 × 4096 = 16,777,216 (≈16.8M)", False),
        (LOSS, "p = 1/10 for every class → CE = −ln(1/10) = ln 10 ≈ 2.303", True),
        (MINUTES, "2,500 s = 41.67 min, so roughly 42 minutes", True),
        # ... when only the rounding names the count, too
        (
            FC,
            "Weights 4,096 × 4,096 = 16,777,216; bias 4,096 (one per output) → total = "
            "16,781,312 ≈ 16.8M params.",
            True,
        ),
        (FC, "4,096 × 4,096 = 16,777,216 ≈ 16.8M params", False),
        # "that puts it at" says the result, not an operand
        (
            LR,
            "Five hundred out of two thousand steps is a quarter of warmup, so the learning "
            "rate is a quarter of the 3e-4 peak. That puts it at 7.5e-5.",
            True,
        ),
        (LR, "a quarter of the way in, the learning rate is at 7.5e-5", True),
        # ... unless it is a correction
        (FC, "16,781,312, no wait, 16.8 million", False),
        # a number that describes something else does not replace the answer
        (GB14, "7e9 × 2 B = 14 GB, so it won't fit a 12 GB card but fits a 24 GB one.", True),
        (GB14, "seven billion times two bytes, so you need a 14 GB card", True),
        (GB14, "it needs 28 GB, so a 14 GB card won't do", False),
        # ... nor does a part of it said after it
        (
            GB112,
            "Sixteen bytes a parameter, so a hundred and twelve gigabytes. Broken down, "
            "eighty-four gigabytes of that is the master weights and the two moments.",
            True,
        ),
        (GB112, "It's eighty-four gigabytes of that, so the answer is 84 GB.", False),
        # the end of a range after the result does not replace it; a range alone may
        (LR, "at step 500: 7.5e-5. Afterwards it keeps rising from 7.5e-5 to 3e-4", True),
        (LR, "it's 7.5e-5 at that point, as it climbs from 0 to 3e-4", True),
        (LR, "the rate goes 0 → 7.5e-5 by step 500", True),
        (LR, "it ramps from 0 to 3e-4, so at step 500 it's 3e-4", False),
        # a spoken number does not run on across a sentence break
        (LOSS, "ln ten is about two point three. Two point three zero. So roughly 2.30.", True),
        # a computation followed by a comma goes on; it does not lead as the answer
        (FC, "so it's 4096 times 4096, which is 2 to the 24, plus the biases, so 16,781,312", True),
        (FC, "4096 times 4096. Each output has its weights, then plus the biases.", False),
        # so does a power ("4096 squared, which is ...")
        (FC, "It's 4096 squared, which is 16,777,216, plus 4096 biases, so 16,781,312.", True),
        (FC, "It's 4096 squared, which is 16,777,216, minus one per output, so 16,773,120", False),
        # a number said of something the answer is not ("aren't near zero"), and which
        # one of a series ("on batch 1", "at step five hundred"), never displace it
        (
            LOSS,
            "−ln(1/10) ≈ 2.3026, so expect ~2.30 on batch 1. If you see 5 or 10 instead, "
            "the logits aren't near zero at init.",
            True,
        ),
        (LOSS, "it's ln 10, about 2.3, and it doesn't go to zero", True),
        # a list of numbers after a hypothetical one is hypothetical too
        (LOSS, "about 2.30; if you see something far off, like 5 or 0.5, the init is off", True),
        (LOSS, "ln 10 ≈ 2.303. If batch 1 shows something far off, like 5+ or ≈0, fix it", True),
        # a reading given as an example ("8 or 15 means ...") is no result either, nor is
        # the list it closes; a reading alone still is one
        (
            LOSS,
            "−ln(1/10) = ln 10 ≈ 2.303. Uniform outputs put p = 0.1 on the true class, so "
            "the first-batch loss should read ~2.30; something like 8 or 15 means the "
            "initial logits are too large.",
            True,
        ),
        (LOSS, "about 2.3, which is ln 10; a loss of, say, 5 or 8 would mean a bad init", True),
        (LOSS, "ln 10, so 2.3; a first loss of 7 means the logits are too big", True),
        (LOSS, "a first loss of 2.3 means the predictions are uniform", True),
        (LOSS, "a first loss of 7 means the predictions are uniform", False),
        (BATCH, "times four GPUs, so five hundred and, uh, twelve. Five-twelve.", True),
        (LR, "it's 7.5e-5 at step five hundred", True),
        (LR, "so 7.5e-5, reached after step 500", True),
        # a cosine's value said after the result is a step of the working ...
        (
            HALFWAY,
            "Half the peak, so one point five e minus four. At the halfway mark the cosine "
            "of ninety degrees is zero.",
            True,
        ),
        # ... and so is one said on the way to it
        (HALFWAY, "t = 0.5 → cos(π/2) = 0 → η = 1.5e-4", True),
        (
            HALFWAY,
            "Exactly half the peak, so one-point-five-e-minus-four. The schedule multiplies the "
            "peak by one-half times one plus the cosine, and at the midpoint that cosine is zero.",
            True,
        ),
        # a relative clause's "which is" gives the cosine's value, and an "and" after its
        # comma goes on to the next clause: "zero, and one-half" is not zero and a half
        (
            HALFWAY,
            "Half the peak, so one point five e minus four. The factor is the cosine of pi "
            "over two, a right angle, which is zero, and one-half times one plus zero leaves "
            "half the peak.",
            True,
        ),
        (HALFWAY, "halfway the cosine is zero, so the rate is zero", False),
        (HALFWAY, "the rate there is the peak times zero, which is zero", False),
        (HALFWAY, "the cosine of ninety degrees is zero, so the rate is zero", False),
        # a unit's definition after the answer says what the unit is, not the answer
        (
            GB14,
            "seven billion times two is fourteen billion bytes, which is 14 GB, "
            "with 1 GB as 10⁹ bytes",
            True,
        ),
        (GB14, "Fourteen gigabytes, where a gigabyte is a billion bytes.", True),
        (GB14, "14 GB (taking 1 GB = 10^9 bytes).", True),
        (GB14, "it's 1 GB, since a parameter is 2 bytes", False),
        # "land at" arrives at a result; "at" alone names an operand ("at step 500")
        (GB112, "sixteen bytes a weight, and with seven billion weights you land at 112 GB", True),
        (GB112, "sixteen bytes each; it comes out at 112 GB before activations", True),
        (GB112, "fourteen GB apiece, so 28 more. Add those up and you're at 112 GB.", True),
        (GB112, "so 28 more; add it all and it's at 112 GB", True),
        # a placing verb earlier in the clause does the same, however far the "at"
        (
            GB112,
            "the bf16 weights and gradients are 2 bytes apiece. Sixteen bytes per parameter "
            "across seven billion parameters puts the total, before activations, at 112 GB.",
            True,
        ),
        (GB112, "sixteen bytes a weight, which puts the whole model at roughly 112 GB", True),
        # ... but not across a number or a sentence: "put" there places something else
        (GB112, "put the 16 bytes at 2 bytes per weight", False),
        # a number with its unit between a determiner and a noun describes the thing
        (GB112, "That's 112 GB, so it won't fit one 80 GB GPU.", True),
        (GB112, "112 GB in all, which is more than a single 80 GB card holds", True),
        (GB112, "112 GB; each 80 GB GPU takes part of it", True),
        (GB112, "it needs one 80 GB card", False),
        # "a batch of" names the size said, as "a loss of" does
        (
            BATCH,
            "Eight times sixteen is one twenty-eight per device, times four devices: an "
            "effective batch of five hundred twelve.",
            True,
        ),
        (BATCH, "eight times sixteen is 128 per GPU, so a batch of 128 for each", False),
        # a product said as the size of a thing describes it ("a 3×3 window") ...
        (CONV, "3 · 3 · 64 · 128 + 128 = 73,856. Each filter covers a 3×3 window.", True),
        (FC, "a 4096 × 4096 matrix plus 4096 biases, so 16,781,312", True),
        # ... and a number of the working named again after the result is no result
        (
            CONV,
            "3 · 3 · 64 · 128 + 128 = 73,856. Each of the 128 filters spans all 64 input channels.",
            True,
        ),
        (LR, "a quarter of the way, and a quarter of 3e-4 is 7.5e-5", True),
        # a step the working went past, named again after the result, is no result ...
        (
            HE,
            "2/512 = 1/256 → σ = √(1/256) = 1/16 ≈ 0.063. The factor 2 makes up for ReLU "
            "zeroing ~½ the pre-activations. E.g. w ~ N(0, 0.0625²), i.e. variance 1/256 ≈ 0.0039.",
            True,
        ),
        (HE, "the variance is 1/256, so σ = √(1/256) = 0.0625; that variance 1/256", True),
        # ... but a result said again is the answer, and so is a step a wrong answer goes
        # back to
        (LOSS, "ln 10 ≈ 2.303. p = 0.1 on the true class, so the mean is 2.303 too.", True),
        (BATCH, "8 × 16 = 128, × 4 = 512 in all, so 128", False),
        # a fraction of a thing describes it ("half the peak")
        (HALFWAY, "1.5e-4: the cosine term is zero, so half the peak", True),
        # a spoken number said again after a comma is said again, not run on
        (MINUTES, "over sixty that's, um, forty-one, forty-one and two thirds minutes", True),
        (FC, "sixteen million, seven hundred eighty-one thousand, three hundred twelve", True),
        # a list of readings closed by a comma ("twenty-three, or even five, means ...")
        (
            LOSS,
            "you should see right around two point three; something like twenty-three, or "
            "even five, means the output layer starts out far too confident.",
            True,
        ),
    ],
)
def test_which_number_is_the_answer(numeric: NumericAnswer, text: str, correct: bool) -> None:
    result = judge(numeric, text)
    assert result.correct is correct, result


CONV_SLIPS = CONV.model_copy(
    update={
        "mistakes": [
            NumericMistake(value=73728, why="that leaves out the 128 biases", partial=True),
            NumericMistake(value=73792, why="that is one bias per input channel"),
        ]
    }
)


@pytest.mark.parametrize(
    ("text", "close", "reason"),
    [
        # a known wrong computation: named, and no near-miss credit however close
        (
            "3 × 3 × 64 × 128 = 73,728, plus one bias per input channel: 73,792",
            False,
            "Heard 73,792: that is one bias per input channel. The answer is 73,856.",
        ),
        # a known slip that keeps most of the work right: named, still a near miss
        (
            "3 × 3 × 64 × 128 = 73,728 parameters",
            True,
            "that leaves out the 128 biases. Close, but the answer is 73,856.",
        ),
        # an unknown near miss is a near miss as before ...
        ("about 73,900 parameters or so, 73,950", True, "close, but the answer is 73,856"),
        # ... but said to every digit, it is a wrong sum
        ("3 × 3 × 64 × 128 = 73,728, plus 128 biases: 73,586", False, "but it is 73,856"),
    ],
)
def test_known_mistakes_are_named(text: str, close: bool, reason: str) -> None:
    r = judge(CONV_SLIPS, text)
    assert not r.correct and r.close is close
    assert reason in r.reason, r.reason


@pytest.mark.parametrize(
    ("text", "close"),
    [
        # a wrong count said to every digit is a wrong sum, though the rubric names no
        # slips (an imported deck's drafted number): no near-miss credit
        ("3 × 3 × 64 × 128 = 73,728, plus one bias per input channel: 73,792", False),
        # rounded, it is still a near miss, with or without "about"
        ("about 73,900 parameters", True),
        ("74,000 parameters", True),
        ("73.9 thousand parameters", True),
        # fewer digits than the answer, but far more than a rounding of them: a wrong sum
        ("576 × 128 = 73,728, plus a bias at every kernel position, 1,152: 74,880", False),
        ("75,000 parameters", True),
        # within a rounding's reach, but the sum of two of its own numbers: a wrong sum
        (
            "576 × 128 = 73,728, and a bias per input and output channel, 64 + 128 = 192: 73,920",
            False,
        ),
        ("3 × 3 × 64 = 576, × 128 = 73,728; total 73,800", True),
    ],
)
def test_a_number_said_to_every_digit_is_no_near_miss_without_named_slips(
    text: str, close: bool
) -> None:
    r = judge(NumericAnswer(value=73856, tolerance=7.39), text)
    assert not r.correct and r.close is close, r.reason


@pytest.mark.parametrize(
    ("value", "place"),
    [(74880, 10), (40, 10), (41.7, 0.1), (7.5e-5, 1e-6), (16_800_000, 100_000), (38, 1)],
)
def test_the_last_place_is_that_of_the_last_nonzero_digit(value: float, place: float) -> None:
    assert math.isclose(last_place(value), place)


def test_the_right_answer_is_never_a_mistake() -> None:
    assert judge(CONV_SLIPS, "73,856 parameters").correct
    with pytest.raises(ValueError, match="within the tolerance of the right answer"):
        NumericAnswer(
            value=73856, tolerance=50, mistakes=[NumericMistake(value=73880, why="a slip")]
        )


def test_one_bias_for_the_whole_layer_is_a_known_mistake(deck_rubric) -> None:
    """16,777,217 is within the forgotten-bias mistake's reach, but it is another slip:
    one bias for the layer, no near-miss credit."""
    numeric = deck_rubric("dl-fc-params").numeric
    assert numeric is not None
    result = judge(numeric, "4096 × 4096 = 16,777,216, plus a single bias, so 16,777,217.")
    assert not result.correct and not result.close
    assert "one bias for the whole layer" in result.reason


@pytest.mark.parametrize(
    ("text", "aside"),
    [
        ("It's 7.5e-5. Sanity: step 2000 -> full 3e-4.", [False, True, True]),
        ("It's 7.5e-5. As a quick check, 3e-4 at the end.", [False, True]),
        ("It's 7.5e-5. To double-check, 3e-4 at the end.", [False, True]),
        ("It's 7.5e-5. Check: 3e-4 at the end.", [False, True]),
        ("It's 7.5e-5. Quick check: 3e-4 at the end.", [False, True]),
        ("It's 0.0625. By contrast, Xavier gives 0.044.", [False, True]),
        ("It's 0.0625. In comparison, Xavier gives 0.044.", [False, True]),
        # advice to check something is no check of the result
        ("It's 7.5e-5. Check the schedule, it ends at 3e-4.", [False, False]),
    ],
)
def test_a_sentence_that_checks_or_compares_the_result_is_an_aside(
    text: str, aside: list[bool]
) -> None:
    assert [m.aside for m in find_numbers(text)] == aside


@pytest.mark.parametrize("text", ["the angle is pi over two", "the angle is π/2"])
def test_a_number_over_a_symbol_is_an_operand(text: str) -> None:
    """ "pi over two" divides pi: its "over" is no "more than", and its two is no
    result (it was read as "over 2", approximately 2)."""
    (two,) = find_numbers(text)
    assert two.value == 2 and two.operand and not two.approximate


def test_an_operand_named_again_is_no_result() -> None:
    """ "the 2" after an operand 2 talks about the operand; "the 2.303" after a result
    2.303 is that result again."""
    again = find_numbers("√(2/512) = 0.0625. Why the 2: ReLU zeroes half its inputs.")[-1]
    assert again.value == 2 and again.operand
    result = find_numbers("ln 10 is 2.303, so the answer is the 2.303 figure")[-1]
    assert result.value == pytest.approx(2.303) and not result.operand


@pytest.mark.parametrize(
    ("text", "argument"),
    [("-ln(0.1)", 0.1), ("ln(10)", 10.0), ("exp(-1)", -1.0), ("2.303", None)],
)
def test_a_typed_function_keeps_what_it_was_called_on(text: str, argument: float | None) -> None:
    assert find_numbers(text)[0].argument == argument
