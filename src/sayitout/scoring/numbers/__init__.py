"""Spoken and written numbers, units, and judging the candidate's stated answer.

Pure Python, no model, in three steps after ``tokens`` (text -> tokens):

* ``parse``: one number from tokens ("seventy-three thousand eight hundred fifty-six",
  "7.5 × 10^-5", "sqrt(2/512)", "one sixteenth", "16,781,312");
* ``mentions``: ``find_numbers(text)``, every number stated, with its unit, span and how
  it was said (as a result, an operand, a hypothetical, the answer said first...);
* ``judge``: ``judge(numeric, text)``, the stated answer checked against the rubric;
  ``states_point_value`` for a follow-up reply that gives just a key point's value.

``values`` holds what they share: bounded values, comparison at the precision said
(``same_number``) and display (``format_number``); ``canonical`` respells plain numbers
for the embedding model. The words they read by live in
``scoring.lexicon``.
"""

from __future__ import annotations

from sayitout.scoring.numbers.judge import judge, pick_answer, states_point_value, unit_info
from sayitout.scoring.numbers.mentions import NumberMention, find_numbers
from sayitout.scoring.numbers.values import format_number, same_number, significant_digits

__all__ = [
    "NumberMention",
    "find_numbers",
    "format_number",
    "judge",
    "pick_answer",
    "same_number",
    "significant_digits",
    "states_point_value",
    "unit_info",
]
