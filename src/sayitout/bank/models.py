"""The validated shapes of decks, questions and rubrics.

A deck lives in ``question_bank/<deck>.yaml``; each question's rubric in
``rubrics/<deck>/<question-id>.yaml``. Unknown keys are errors, so a typo in a
field name is caught rather than silently ignored.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
_ID_RE = re.compile(ID_PATTERN)
MAX_FOLLOW_UPS = 2
"""Follow-up questions a key point may have."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_id(value: str) -> str:
    if not _ID_RE.match(value):
        raise ValueError(f"{value!r} is not a valid id: use lower-case letters, digits and hyphens")
    return value


class Question(_Strict):
    id: str
    """Stable, readable id, unique across all decks (e.g. ``dl-fp16-nan``)."""
    text: str = Field(min_length=1)
    """The question, word for word, as it is read aloud."""
    kind: Literal["open", "numeric"] = "open"
    """``numeric`` questions have a single right number (with a unit) in the rubric."""
    topics: list[str] = Field(default_factory=list)
    """Short topic tags for filtering (e.g. ``optimisation``, ``memory``)."""
    answer_seconds: int = Field(90, ge=10, le=1800)
    """Suggested answer time."""

    _id = field_validator("id")(_check_id)


class Deck(_Strict):
    id: str
    """The deck's id; must match the file name (``deep-learning.yaml`` -> ``deep-learning``)."""
    title: str
    description: str = ""
    questions: list[Question] = Field(min_length=1)

    _id = field_validator("id")(_check_id)

    @model_validator(mode="after")
    def _unique_question_ids(self) -> Deck:
        seen: set[str] = set()
        for q in self.questions:
            if q.id in seen:
                raise ValueError(f"question id {q.id!r} appears more than once")
            seen.add(q.id)
        return self


class KeyPoint(_Strict):
    id: str
    """Stable id within the rubric (e.g. ``lower-lr``)."""
    text: str = Field(min_length=1)
    """What a good answer says, in one plain sentence."""
    weight: float = Field(1.0, gt=0, le=10)
    """Relative importance; the weights of a rubric are normalised when scoring."""
    paraphrases: list[str] = Field(default_factory=list)
    """Other ways a candidate might say it, in spoken style."""
    terms: list[str] = Field(default_factory=list)
    """Technical terms the speech recogniser must get right (fed to it as hotwords)."""
    follow_ups: list[str] = Field(default_factory=list, max_length=MAX_FOLLOW_UPS)
    """Questions an interviewer asks when an answer misses this point, in the order asked
    ("What happens to the gradient if you remove the skip connections?")."""

    _id = field_validator("id")(_check_id)

    @field_validator("follow_ups")
    @classmethod
    def _follow_ups_not_blank(cls, value: list[str]) -> list[str]:
        if any(not text.strip() for text in value):
            raise ValueError("a follow-up question is empty: write the question or remove it")
        return [text.strip() for text in value]


class Misconception(_Strict):
    id: str
    text: str = Field(min_length=1)
    """The wrong statement, as a weak candidate would say it."""
    paraphrases: list[str] = Field(default_factory=list)
    correction: str = ""
    """What is actually true; shown as feedback when the misconception is stated."""
    penalty: float = Field(20.0, ge=0, le=100)
    """Points taken off the overall score (0-100) when stated."""

    _id = field_validator("id")(_check_id)


class NumericMistake(_Strict):
    """A wrong result candidates reach by a known slip, and what the slip is."""

    value: float
    """The wrong result, in the rubric's unit."""
    why: str = Field(min_length=1)
    """What gives it, said to the candidate ("one bias per input channel; a conv layer has
    one per output channel, 128")."""
    partial: bool = False
    """Whether it still earns near-miss credit (most of the work right, as with a
    forgotten bias); a wrong computation earns none, however close its value."""
    tolerance: float | None = Field(None, ge=0)
    """Absolute tolerance for recognising it; the rubric's own when left out."""


class NumericAnswer(_Strict):
    value: float
    """The right answer, in ``unit``."""
    tolerance: float = Field(ge=0)
    """Absolute tolerance, in ``unit``: answers within ``value ± tolerance`` are right."""
    unit: str = ""
    """The unit the answer is given in (``GB``, ``minutes``, ``parameters``...); empty for a
    pure number. A right number with the wrong unit is wrong."""
    accept_units: list[str] = Field(default_factory=list)
    """Other spellings of ``unit`` that count as the same unit (``gigabytes``, ``gig``)."""
    mistakes: list[NumericMistake] = Field(default_factory=list)
    """Known wrong results and the slip behind each: the feedback names the slip."""

    @model_validator(mode="after")
    def _mistakes_are_wrong(self) -> NumericAnswer:
        for m in self.mistakes:
            if abs(m.value - self.value) <= self.tolerance:
                raise ValueError(
                    f"the mistake {m.value:g} is within the tolerance of the right answer "
                    f"{self.value:g}: give a wrong value, or narrow the tolerance"
                )
        return self


class Rubric(_Strict):
    question_id: str
    version: int = Field(1, ge=1)
    """Bump when the key points change, so old scores can be told apart."""
    key_points: list[KeyPoint] = Field(min_length=1)
    misconceptions: list[Misconception] = Field(default_factory=list)
    numeric: NumericAnswer | None = None
    hotwords: list[str] = Field(default_factory=list)
    """Extra terms for the speech recogniser, beyond the key points' ``terms``."""
    model_answer: str = Field(min_length=1)
    """A strong answer, written to be read aloud."""
    question: str = Field("", exclude=True, repr=False)
    """The question's text, filled in from the deck when the bank loads the rubric (a
    rubric file does not hold it): the scorer needs it to tell a read-back of the
    question from an answer, and discounts the words every answer on the topic repeats.
    Not part of the rubric's content: excluded from its dumps (``rubric_key`` adds it)."""

    follow_ups: None = Field(None, exclude=True, repr=False)
    """Not a rubric field: follow-up questions belong to the key point they probe. Declared
    only so a misplaced ``follow_ups`` is reported at its own line with how to fix it."""

    @field_validator("question", mode="before")
    @classmethod
    def _question_comes_from_the_deck(cls, value: object) -> object:
        if value:
            raise ValueError(
                "a rubric does not hold its question: the question's text is in the deck "
                "file (question_bank/<deck>.yaml); remove 'question' from the rubric"
            )
        return value

    @field_validator("follow_ups", mode="before")
    @classmethod
    def _follow_ups_belong_to_key_points(cls, value: object) -> None:
        if value is None:
            return None
        raise ValueError(
            "follow-up questions must belong to a key point: move each one under the key "
            "point it probes (key_points: - id: ... follow_ups: [...])"
        )

    @model_validator(mode="after")
    def _unique_ids(self) -> Rubric:
        for label, items in (
            ("key point", self.key_points),
            ("misconception", self.misconceptions),
        ):
            seen: set[str] = set()
            for item in items:
                if item.id in seen:
                    raise ValueError(f"{label} id {item.id!r} appears more than once")
                seen.add(item.id)
        return self

    def all_terms(self) -> list[str]:
        """Every term the recogniser should know, deduplicated, in rubric order."""
        terms: dict[str, None] = {}
        for kp in self.key_points:
            terms.update(dict.fromkeys(kp.terms))
        terms.update(dict.fromkeys(self.hotwords))
        return list(terms)
