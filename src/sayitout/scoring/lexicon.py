"""The words scoring reads numbers and their context by: one place for every word list.

Number words (``SMALL_NUMBERS``, ``TENS``, ``SCALES``, ``ORDINALS``...), units and the
quantity each measures (``UNITS``), and the words around a number that say how it was
meant: an answer cue ("so", "that's"), an approximation ("about"), a name ("ResNet
fifty"), a hypothetical ("if you see six"), a correction ("no wait"). The number parser
(``scoring.numbers``), the text helpers (``scoring.text``) and delivery
(``scoring.delivery``) all take their number words from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


def wordset(words: str) -> frozenset[str]:
    """A set of words written as one whitespace-separated string."""
    return frozenset(words.split())


NOT_WORDS = wordset(
    "not no never cannot cant dont doesnt didnt isnt arent wasnt shouldnt mustnt couldnt wont"
)
"""Words that deny what follows them, with any word ending in "n't" (``denies``): the
plain negations that the order and phase checks read. (``polarity`` also counts cues
such as "without", "avoid" and "take out".)"""


def denies(word: str) -> bool:
    """Whether a (normalised) word is a plain negation: ``NOT_WORDS`` or "...n't"."""
    return word in NOT_WORDS or word.endswith("n't")


INSTEAD = frozenset(("instead of", "rather than"))
"""Two-word phrases after which a clause says what it does not do ("applied straight to
the weights, instead of being folded into the gradient"; "the running mean rather than
the batch statistics"): the roles and switch readers turn what follows them over."""


def instead_at(words: Sequence[str], i: int) -> bool:
    """Whether ``words[i]`` and the word after it are one of ``INSTEAD``."""
    return " ".join(words[i : i + 2]) in INSTEAD


NOISE_WORDS = wordset("noise variance randomness jitter")
"""Nouns for the noise (of a gradient, of small batches), which say nothing of its way
without a word before them."""
LESS_WORDS = wordset(
    """less lower reduced no fewer little lose loses losing lost remove removes removing
    reduce reduces reducing cut cuts kill kills"""
)
"""Words that make something less, or take it away."""


def owns_what_is_lost(words: Sequence[str], i: int) -> bool:
    """The (normalised) word at ``i`` names the owner of a noise that is lost ("you lose
    the useful noise of *small* batches, which ..."): what the words after it say is of
    the thing that lost it or of the owner, and the sentence does not say which ("...,
    which pushes you into sharp minima that generalise worse" against "..., which tends
    to lead to solutions that generalise better"), and "small" says nothing of which way
    the batch should go."""
    before = list(words[max(0, i - 7) : i])
    if "of" not in before[-2:]:
        return False
    at = len(before) - 1 - before[::-1].index("of")
    # a noise word within the three words before "of", lost within the three before it
    return any(
        before[k] in NOISE_WORDS and any(x in LESS_WORDS for x in before[max(0, k - 3) : k])
        for k in range(max(0, at - 3), at)
    )


# ---- number words ------------------------------------------------------------------------

SMALL_NUMBERS: dict[str, int] = {
    "zero": 0,
    "oh": 0,
    "nought": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
"""Zero to nineteen (and "oh", "nought")."""
TENS: dict[str, int] = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fourty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
SCALE_WORDS: dict[str, float] = {
    "thousand": 1e3,
    "million": 1e6,
    "billion": 1e9,
    "trillion": 1e12,
}
"""Scale words that build a spoken cardinal ("seventy three thousand")."""
SCALES: dict[str, float] = {**SCALE_WORDS, "k": 1e3, "mil": 1e6, "m": 1e6, "bn": 1e9, "b": 1e9}
"""Every word that multiplies the number before it ("16.8 million", "7 bn")."""
SUFFIX_SCALES: dict[str, float] = {"k": 1e3, "m": 1e6, "b": 1e9, "bn": 1e9, "t": 1e12}
"""Letters glued to digits: "7B", "50k"."""
FRACTIONS_OF: dict[str, float] = {"half": 0.5, "quarter": 0.25, "third": 1 / 3, "tenth": 0.1}
"""Fractions of a number: "half of three e minus four"."""
MULTIPLES: dict[str, float] = {"twice": 2.0, "double": 2.0, "triple": 3.0, "thrice": 3.0}
_ORDINALS_ONE: dict[str, int] = {
    "half": 2,
    "third": 3,
    "quarter": 4,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "thirtieth": 30,
    "fortieth": 40,
    "fiftieth": 50,
    "sixtieth": 60,
    "seventieth": 70,
    "eightieth": 80,
    "ninetieth": 90,
    "hundredth": 100,
    "thousandth": 1000,
    "millionth": 1_000_000,
}
ORDINALS: dict[str, int] = {
    **_ORDINALS_ONE,
    **{k + "s": v for k, v in _ORDINALS_ONE.items() if k != "half"},
    "halves": 2,
}
"""Ordinal denominators: "one sixteenth", "a tenth", "three eighths", "two thirds".
("second" is a unit of time, never a denominator; "first" is never one either.)"""

NUMBER_WORDS: frozenset[str] = frozenset(
    {*SMALL_NUMBERS, *TENS, "hundred", *SCALE_WORDS, *ORDINALS, "point", "half", "quarter"}
)
"""Every word that is part of a spelled-out number. Matching compares numbers by value
(see ``matching.number_tokens``), so these are never content words: "one tenth", "0.1"
and "1/10" say the same thing."""

# ---- symbols -----------------------------------------------------------------------------

TIMES = wordset("times x × * ·")
"""Multiplication, said or typed."""
DIVIDED = wordset("over / ÷")
"""Division ("divided by" is two words)."""
SQRT = wordset("sqrt √")
"""A square root typed as a function or sign ("root" and "square root of" are words)."""


# ---- units -------------------------------------------------------------------------------


class Unit(NamedTuple):
    quantity: str
    """What it measures: ``bytes``, ``time``, ``ratio``, ``count``, ``loss``."""
    factor: float
    """How many of the quantity's base unit one of it is (GB: 1e9 bytes)."""
    canonical: str
    """The name a result shows (``GB``, ``minutes``)."""


UNITS: dict[str, Unit] = {}
"""Every spelling of a unit -> the unit."""


def _units(quantity: str, factor: float, canonical: str, *names: str) -> None:
    for name in (canonical, *names):
        UNITS[name] = Unit(quantity, factor, canonical)


_units("bytes", 1e9, "GB", "gb", "gigabyte", "gigabytes", "gig", "gigs", "gbs", "gibs", "g")
_units("bytes", 1e6, "MB", "mb", "megabyte", "megabytes", "megs", "meg")
_units("bytes", 1e12, "TB", "tb", "terabyte", "terabytes")
_units("bytes", 1.0, "bytes", "byte")
_units("time", 1.0, "seconds", "second", "sec", "secs", "s")
_units("time", 60.0, "minutes", "minute", "min", "mins")
_units("time", 3600.0, "hours", "hour", "hr", "hrs", "h")
_units("time", 86400.0, "days", "day")
_units("time", 1e-3, "milliseconds", "millisecond", "ms")
_units("ratio", 0.01, "percent", "%", "per-cent", "pc")
_units("count", 1.0, "parameters", "parameter", "params", "param", "weights")
_units("count", 1.0, "tokens", "token")
_units("count", 1.0, "steps", "step", "iterations", "iteration")
_units("count", 1.0, "examples", "example", "samples", "sample", "images", "sequences")
_units("loss", 1.0, "nats", "nat")

COUNTED_THINGS = wordset("gpus gpu layers epochs bits biases bias channels filters")
"""Things a number counts that are not an answer's unit ("eight GPUs")."""

# ---- how a number is introduced ----------------------------------------------------------

NAME_BEFORE = wordset(
    """resnet resnets vgg gpt llama bert top fp bf int uint float version v mistral
    phi qwen gemma opus claude gemini mobilenet efficientnet densenet inception yolo"""
)
"""A number right after these is part of a name ("ResNet fifty", "top one", "fp 16")."""
COUNTER_NOUNS = wordset("batch batches step steps epoch epochs iteration iterations layer gpu")
"""After a preposition, a number right after these names which one ("on batch 1", "at
step 500", "until epoch five", "the value for batch 1"): a label, not an amount."""
COUNTER_PLACES = wordset("on at after from until till by in since before for")
NAME_AFTER = wordset("grad grads shot shots hot padding decimal decimals places significant sig dp")
"""... and a number right before these ("zero grad", "one hot", "zero shot"), or a
precision ("to three decimals", "0.063 to three places", "two significant figures")."""
ORDINAL_ENDINGS = wordset("st nd")
"""Glued to digits, these make an ordinal ("the 2nd half", "1st epoch"): no quantity.
("16th" is read as the fraction's denominator it usually is.)"""
DESCRIPTION_BEFORE = wordset("a an one single each every another any")
"""Before a number with a unit and a noun, these make it a description of the noun ("a 24
GB card", "it won't fit one 80 GB GPU", "a single 40 GB card")."""
HYPOTHETICAL = wordset(
    """if unless anything instead rather not isn't isnt wasn't aren't arent weren't
    doesn't doesnt never otherwise whereas versus vs"""
)
"""A number after these (within the same clause) is hypothetical or contrasted, not the
answer: "if you see six or seven", "anything like five", "rather than ten", "not 0",
"the logits aren't near zero"."""
READING = wordset("means meant indicates suggests signals implies")
"""A number right before one of these is a reading something is judged by, given as an
example ("something like 8 or 15 means the logits are too large"), not a result."""
READING_AFTER_WOULD = wordset("mean indicate suggest signal imply")
"""... as are these after "would" ("a loss of 5 would mean ...")."""
HYPOTHETICAL_BREAK = wordset(
    "so but then therefore thus answer answer's equals = get gets gives which"
)
"""... unless one of these comes between the cue and the number."""
CUES: tuple[tuple[str, ...], ...] = (
    ("answer", "is"),
    ("answer's",),
    ("that's",),
    ("thats",),
    ("that", "is"),
    ("it's",),
    ("which", "is"),
    ("which", "gives"),
    ("which", "comes", "to"),
    ("would", "be"),
    ("will", "be"),
    ("should", "be"),
    ("comes", "to"),
    ("comes", "out", "to"),
    ("i'd", "say"),
    ("i", "get"),
    ("you", "get"),
    ("we", "get"),
    ("get",),
    ("total", "of"),
    ("total", "is"),
    ("land", "at"),
    ("lands", "at"),
    ("landing", "at"),
    ("end", "up", "at"),
    ("ends", "up", "at"),
    ("comes", "out", "at"),
    ("works", "out", "at"),
    ("equals",),
    ("=",),
    ("≈",),
    ("is", "just"),
    ("it", "is"),
    ("more", "precisely"),
    ("more", "exactly"),
    ("so",),
)
"""Words that introduce a result ("so", "that's", "the answer is", "more precisely")."""
STRONG_CUES = wordset("answer so that's thats equals = ≈ gives giving comes")
EQUALS = wordset("equals = ≈")
"""Result cues that are an equation's sign: inside a reason they belong to the reason."""
BECAUSE = wordset("because since")
"""The reason words that are never also something else ("cos" is a cosine too)."""
APPROX = wordset("about around roughly approximately approx like ~ nearly almost just under over")
"""Approximation words before a number belong to its text."""
HESITATIONS = wordset("um uh erm er ah")
"""Sounds a speaker makes while thinking; a number said around one is still one number
("five hundred and, uh, twelve")."""
FILLERS = HESITATIONS | wordset("like you know basically")
OPERAND_BEFORE = wordset(
    """step steps epoch layer of over by times from out than because since divided multiply
    multiplied log ln into with minus plus and at factor"""
)
"""A number after these is an operand or a label ("of ten", "step five hundred",
"factor 2")."""
RESULT_AT = wordset(
    """land lands landing landed up out it is sits you're we're it's are start starts started
    begin begins began"""
)
"""A number after "at" and these is the result arrived at, not an operand ("you land at
112 GB", "it ends up at 16.8 million", "comes out at 2.3", "that puts it at 7.5e-5",
"the learning rate is at 7.5e-5", "add those up and you're at 112 GB"), or the value a
quantity starts at ("the loss starts at about 2.3")."""
PLACING = wordset("put puts putting brings bring bringing places place placing")
"""A number after "at" is the result arrived at when one of these comes earlier in its
sentence, within eight words and with no number between: "that puts the total, before
activations, at 112 GB" (``numbers.mentions._placed_at``)."""
RESULT_OF = wordset("loss entropy total batch")
"""A number after "of" and these is the result said, not an operand ("a loss of roughly
2.30", "a total of 16,781,312", "an effective batch of five hundred twelve")."""
OPERATOR_AFTER = wordset("times divided over / x × * plus minus + ·")
"""Operators: a number after these is an operand, and so is a number before these ("two
thousand divided by")."""
SYMBOLS = wordset("pi π")
"""Symbols of a formula that are no number read here: "pi over two" is an expression."""
REFERENCE_AFTER = wordset("is was comes came accounts there here in")
"""After "the" and a number, these make it a reference to a number said before, not a
result ("the two is there because ReLU zeroes half its inputs")."""
CORRECTIONS = wordset("actually wait sorry correction scratch oops mean no")
"""A later number after these replaces an earlier answer ("no wait, it's 112")."""
JUSTIFYING = wordset("because since cause cos cuz given")
"""A clause opened by these gives a reason: its numbers are the reason's quantities, not
the answer ("about 2.3, because each class gets one tenth")."""
JUSTIFICATION = wordset("because since as cause cos given that's from")
"""After a leading answer, these start its justification ("14 GB because ...")."""
PREAMBLE = wordset(
    """so um uh erm er ah well okay ok yeah right it's its it is that's thats the answer
    answer's my final i'd i say would be about around roughly approximately approx like
    just it'll will should comes to out i get you we total of exactly you'd youd expect
    see"""
)
"""Words that may come before an answer said first ("So, um, it's about 14 GB.", "You'd
expect roughly 2.303.")."""
