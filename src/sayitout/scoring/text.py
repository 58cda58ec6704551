"""Words, windows and content-word stems of an answer, without relying on punctuation.

Transcripts from speech recognition have little or unreliable punctuation, so key
points are matched against sliding windows of words (several sizes, with a stride).
When the text does have sentence punctuation, whole sentences are added as extra
windows; nothing depends on them.
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from sayitout.scoring.lexicon import NOT_WORDS, NUMBER_WORDS, UNITS, wordset
from sayitout.scoring.respelling import Respelling, respell

_WORD_RE = re.compile(r"\S+?(?=(?<=[^\W\d_]{3})\((?=[^\W\d_]{2}))|\S+")
"""A word runs to the next space, or to a parenthesis opened on a word right after
another: in typed notes "split(originals) → augment(train only)" says "split
(originals)". A call with nothing in its parentheses ("model.eval()") and a formula
("F(x) + x", "max(0,x)") stay one word."""
_STRIP = ".,;:!?\"'()[]{}…“”‘’`"
_SENTENCE_MARKS = (".", "!", "?", ";")
"""What ends a sentence, for every reader of the scorer (``SENTENCE_END``,
``ends_sentence``, ``sentences``). A semicolon ends one too: it joins two statements
("loss scaling won't help; lower the learning rate")."""
SENTENCE_END = re.compile(rf"[{''.join(_SENTENCE_MARKS)}]+(?=\s|$)")
"""Where a sentence ends in running text: its marks, then a space or the end."""
_SENTENCE_SPLIT = re.compile(rf"(?<=[{''.join(_SENTENCE_MARKS)}])\s+")
STEP_ARROWS = ("→", "->", "=>", "⇒", "⟶")
"""Arrows between the steps of a typed answer ("loss / 4 → backward → step every 4th"):
each ends the step before it."""

#: Window sizes in words and their strides: short clauses, clauses, long sentences.
WINDOW_SPECS: tuple[tuple[int, int], ...] = ((8, 4), (16, 8))
#: Sizes used when the answer is long: fewer, larger windows keep it fast.
LONG_WINDOW_SPECS: tuple[tuple[int, int], ...] = ((16, 8),)
#: Above this many words the long specs are used.
LONG_ANSWER_WORDS = 250
#: Words beyond this are not windowed (the rest of the answer is still used for numbers).
MAX_WINDOW_WORDS = 1500

STOPWORDS = wordset(
    """a an the and or but if then so of to in on at by for with from into onto over under as
    is are was were be been being am do does did doing have has had having it its it's this that
    these those there here i i'm i'd i'll i've me my we we're our us you you're your he she they
    them their what which who whom whose when where why how all any both each few other some such
    only own same than too very can could should would will just also about up out off again
    further once um uh erm er ah hmm mm like yeah okay ok well basically really actually kind sort
    know mean gonna wanna thing things stuff something get got go going one way lot bit s t don
    doesn didn isn aren wasn weren won wouldn shouldn couldn because since while"""
)


_LINE_BREAKS = re.compile(r"\r\n?|[\u2028\u2029\x85]")
_SPACES = re.compile(r"[\t\x0b\x0c\xa0\u1680\u2000-\u200a\u202f\u205f\u3000]")


def _nonchar(c: str) -> bool:
    o = ord(c)
    return 0xFDD0 <= o <= 0xFDEF or (o & 0xFFFE) == 0xFFFE


def clean_text(text: str) -> str:
    """Any text made safe to score, changing nothing a person could see or meant.

    Lone surrogates ("\\ud800", from bad JSON or invalid UTF-8 read with
    ``surrogateescape``) become U+FFFD (a pair is joined into its character); line
    breaks become ``\\n`` and odd spaces a space; control and format characters and
    noncharacters (NUL, zero-width spaces, a BOM, U+FFFF) are dropped; the result is
    NFC. The scorer calls this once, at its entry, on every answer.
    """
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if any("\ud800" <= c <= "\udfff" for c in text):
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    text = _SPACES.sub(" ", _LINE_BREAKS.sub("\n", text))
    if not text.isprintable():
        text = "".join(
            c
            for c in text
            if c == "\n" or (unicodedata.category(c) not in ("Cc", "Cf") and not _nonchar(c))
        )
    return unicodedata.normalize("NFC", text)


_MARKUP = re.compile(
    r"(?<![\w*])\*\*(?=\S)([^*\n]+?)(?<=\S)\*\*(?![\w*])"  # **bold**, not 2**24
    r"|(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])"  # *italic*, not 3 * 3 or 4096*4096
    r"|`([^`\n]*)`"  # `code`
)


def unmarked(text: str) -> str:
    """``text`` without the marks a typed answer may carry from Markdown: bold, italic
    and code marks ("**Lower the learning rate**", "`model.eval()`") go, their words
    stay. An asterisk between numbers multiplies and stays ("4096*4096", "2**24")."""
    if "*" not in text and "`" not in text:
        return text  # most answers: nothing to look for
    for _ in range(2):  # "**bold with *italic* inside**"
        text = _MARKUP.sub(lambda m: next(g for g in m.groups() if g is not None), text)
    return text


@dataclass(frozen=True)
class Span:
    """One word of the answer: its normalised form and character offsets."""

    norm: str
    start: int
    end: int


@dataclass(frozen=True)
class Window:
    """A run of consecutive words, with its text and character span in the answer."""

    text: str
    start: int
    end: int
    first: int
    """Index of the first word."""
    last: int
    """Index of the last word (inclusive)."""


def normalise_word(raw: str) -> str:
    return raw.strip(_STRIP).lower().replace("’", "'")


def without_possessive(word: str) -> str:
    """``word`` without a possessive ending ("norm's" -> "norm", "BN’s" -> "BN")."""
    return word[:-2] if word.endswith(("'s", "’s")) and len(word) > 2 else word


def ends_sentence(raw: str) -> bool:
    """Whether a raw word ends its sentence ("it.", "right?", "(done.)", "help;")."""
    return raw.rstrip("\"')]").endswith(_SENTENCE_MARKS)


def closes_clause(raw: str, marks: tuple[str, ...]) -> bool:
    """Whether a raw word ends its clause: it ends in one of ``marks`` (behind a closing
    quote or bracket: "group norm,”") or ends its sentence. Each claim reader passes
    the marks it cuts at."""
    return raw.rstrip("\"')]”’").endswith(marks) or ends_sentence(raw)


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences: at the space after each sentence end."""
    return [s for s in _SENTENCE_SPLIT.split(text) if s]


def breaks_sentence(text: str) -> bool:
    """Whether a sentence ends inside ``text``: on any of its words but the last."""
    return any(ends_sentence(w) for w in text.split()[:-1])


def ends_clause_at(punct: str) -> Callable[[str], bool]:
    """A clause-end test for ``clause_words`` and the roles reader: a raw word ending in
    one of ``punct`` (each reader keeps its own set), or a hyphen standing alone, which is
    a dash ("the card - try more workers"); a hyphen inside or at the end of a word
    ("two-") is not."""
    return lambda raw: raw[-1:] in punct or raw == "-"


def clause_words(
    text: str, links: Collection[str], ends_clause: Callable[[str], bool]
) -> list[list[str]]:
    """``text``'s normalised words, cut into clauses: before a word in ``links`` (which
    is dropped) and after a raw word for which ``ends_clause`` holds (its punctuation).
    The switch and cadence readers (``phases``, ``cadence``) read clauses this way, each
    with its own links and clause ends."""
    return [[w for w, _ in c] for c in clause_tokens(text, links, ends_clause)]


def clause_tokens(
    text: str, links: Collection[str], ends_clause: Callable[[str], bool]
) -> list[list[tuple[str, str]]]:
    """``clause_words`` with each normalised word's raw form beside it (its punctuation
    still on: the trend reader reads where a clause ends inside a piece)."""
    out: list[list[tuple[str, str]]] = [[]]
    for raw in text.split():
        w = normalise_word(raw)
        if w in links and out[-1]:
            out.append([])
            continue
        if w:
            out[-1].append((w, raw))
        if ends_clause(raw) and out[-1]:
            out.append([])
    return [c for c in out if c]


def words(text: str) -> list[Span]:
    """The whitespace-separated words of ``text`` with their offsets (empty words dropped)."""
    out = []
    for m in _WORD_RE.finditer(text):
        norm = normalise_word(m.group())
        if norm:
            out.append(Span(norm, m.start(), m.end()))
    return out


def _window(text: str, ws: list[Span], i: int, j: int) -> Window:
    start, end = ws[i].start, ws[j].end
    return Window(text[start:end].strip(_STRIP + " "), start, end, i, j)


def windows(text: str, ws: list[Span] | None = None) -> tuple[list[Window], bool]:
    """Sliding word windows (plus punctuation sentences, if any), deduplicated.

    Returns the windows and whether the answer was truncated for windowing.
    """
    ws = words(text) if ws is None else ws
    truncated = len(ws) > MAX_WINDOW_WORDS
    ws = ws[:MAX_WINDOW_WORDS]
    n = len(ws)
    if n == 0:
        return [], False
    specs = LONG_WINDOW_SPECS if n > LONG_ANSWER_WORDS else WINDOW_SPECS
    seen: set[tuple[int, int]] = set()
    out: list[Window] = []

    def add(i: int, j: int) -> None:
        if (i, j) not in seen:
            seen.add((i, j))
            out.append(_window(text, ws, i, j))

    def raw(i: int) -> str:
        return text[ws[i].start : ws[i].end]

    for size, stride in specs:
        if n <= size:
            add(0, n - 1)
            continue
        starts = list(range(0, n - size + 1, stride))
        if starts[-1] != n - size:
            starts.append(n - size)  # always reach the end of the answer
        for i in starts:
            add(i, i + size - 1)
    # Sentences, when the text has punctuation: a bonus, never required.
    for first, last in _runs(n, lambda i: ends_sentence(raw(i))):
        if 3 <= last - first + 1 <= 30:
            add(first, last)
    if n <= LONG_ANSWER_WORDS and _as_notes(ws):
        # the items of a list of notes, each too short for a window of its own ("group
        # split by original image, augment train only, dedupe val"); in prose a clause
        # cut out of its sentence loses what governs it ("I'd make it bigger, | strip
        # out the dropout")
        def item_ends(i: int) -> bool:
            return raw(i).endswith(_ITEM_ENDS) or (i + 1 < n and text[ws[i + 1].start] in "→")

        for first, last in _runs(n, item_ends):
            if 3 <= last - first + 1 < WINDOW_SPECS[0][0]:
                add(first, last)
    return out, truncated


def _runs(n: int, ends: Callable[[int], bool]) -> list[tuple[int, int]]:
    """(first, last) indices of the runs of ``n`` words cut after each word where ``ends``
    holds, and after the last word."""
    out: list[tuple[int, int]] = []
    first = 0
    for i in range(n):
        if ends(i) or i == n - 1:
            out.append((first, i))
            first = i + 1
    return out


_ITEM_ENDS = (",", ";", ":", ".", "?", "!")
NOTES_STOPWORDS = 0.25
"""Notes are written with few function words: under this share of stopwords (typed and
terse answers on dev are 4-17 %, spoken prose 30-55 %)."""


def _as_notes(ws: list[Span]) -> bool:
    """Whether the words read as notes rather than prose."""
    return sum(w.norm in STOPWORDS for w in ws) < NOTES_STOPWORDS * len(ws)


#: A quote should not end on these ("... works per", "... so I"): they need what follows.
_DANGLING = wordset(
    """a an the and or but so to of in on at by for with from into onto than as per i we you
    they he she i'd we'd you'd i'll we'll i'm we're is are was were be been would will can
    could should my your our their its very um uh erm er like because which when if then also
    just whether"""
)
#: ... nor start on these ("and see if the NaNs go away").
_LEADING = wordset(
    "and or but so then also um uh erm er ah like because well okay ok yeah be is are was were"
)
_CLAUSE_END = ",.;:!?…"


def tidy_quote(text: str, ws: list[Span], first: int, last: int) -> Window:
    """The words ``first..last`` as a quote that reads well: no leading "and"/"so"/"um",
    cut at a clause break near either end ("The learning rate is too high, so I" -> "The
    learning rate is too high"), and never ending on a word that needs what follows
    ("BatchNorm works per" -> "BatchNorm works per example", up to three more words)."""
    last = min(last, len(ws) - 1)

    def ends_clause(k: int) -> bool:
        return text[ws[k].end - 1] in _CLAUSE_END

    # a clause break in the first two words: start after it ("it. The rate is too high")
    for k in range(first, min(first + 2, last - 3)):
        if ends_clause(k):
            first = k + 1
    # a clause break followed by at most three function words ("so I"): end there
    for k in range(last - 1, max(first + 2, last - 4), -1):
        if ends_clause(k):
            tail = [w.norm for w in ws[k + 1 : last + 1]]
            if all(w in STOPWORDS or w in _DANGLING for w in tail):
                last = k
            break
    while last - first >= 3 and ws[first].norm in _LEADING:
        first += 1
    extended = 0
    while (
        ws[last].norm in _DANGLING and not ends_clause(last) and last + 1 < len(ws) and extended < 3
    ):
        last += 1
        extended += 1
    # a number said in words is quoted whole ("two point" -> "two point three oh three")
    extended = 0
    while (
        last + 1 < len(ws)
        and extended < 6
        and not ends_clause(last)
        and (ws[last].norm in ("point", "oh") or ws[last].norm in NUMBER_WORDS)
        and (ws[last + 1].norm in NUMBER_WORDS or ws[last + 1].norm in ("oh", "point"))
    ):
        last += 1
        extended += 1
    while ws[last].norm in _DANGLING and last - first >= 3:
        last -= 1
    return _window(text, ws, first, last)


_NUMERAL = re.compile(r"^[\d.,]+$")
_SUFFIXES = (
    "izations",
    "isations",
    "ization",
    "isation",
    "ational",
    "izing",
    "ising",
    "izers",
    "isers",
    "ations",
    "izer",
    "iser",
    "ized",
    "ised",
    "izes",
    "ises",
    "ation",
    "ating",
    "ated",
    "ates",
    "ize",
    "ise",
    "ate",
    "ings",
    "ing",
    "ies",
    "ied",
    "ers",
    "er",
    "ed",
    "es",
    "ly",
    "s",
)
#: Suffixes that make a word family's verb and noun meet ("normalize", "normalisation",
#: "saturate", "saturation", "optimizer"): they need a longer stem left over.
_FAMILY = frozenset(s for s in _SUFFIXES if s.startswith(("iz", "is", "at")))


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix-stripping stemmer: "scaling"/"scale"/"scaled" meet, and so do word
    families ("normalize"/"normalization"/"normalise", "saturate"/"saturation",
    "optimizer"/"optimization", "initialize"/"initialization")."""
    w = word.lower().strip(_STRIP)
    if len(w) <= 3 or any(c.isdigit() for c in w):
        return w
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= (4 if suf in _FAMILY else 3):
            w = w[: -len(suf)]
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]  # "clipp" -> "clip"
    return w


#: Abbreviations candidates type and say, with the words they stand for: "lower LR, clip
#: grads" states "lower the learning rate" and "clip the gradients".
SHORT_FORMS: dict[str, tuple[str, ...]] = {
    "lr": ("learn", "rat"),
    "lrs": ("learn", "rat"),
    "grad": ("gradient",),
    "grads": ("gradient",),
    "val": ("valid",),
    "param": ("paramet",),
    "params": ("paramet",),
    "hparams": ("hyperparamet",),
    "wd": ("weight", "decay"),
    "init": ("initial",),
    "aug": ("augment",),
    "augs": ("augment",),
    "beta1": ("beta",),
    "beta2": ("beta",),
    "ckpt": ("checkpoint",),
    "ckpts": ("checkpoint",),
    "prod": ("production",),
    "acc": ("accuracy",),
    "ep": ("epoch",),
    "bs": ("batch", "siz"),
    "reg": ("regular",),
}


class PlainForm(NamedTuple):
    """How people say one of the field's terms without it."""

    pattern: re.Pattern[str]
    """The plain words, on lower-cased text."""
    stems: tuple[str, ...]
    """The term's stems, added to the answer words that say it (lexical support)."""
    term: str | None
    """The term, shown to the embedding model after the plain words (``name_terms``);
    None where the term there would change what the words say ("randomly switch off
    units" followed by "dropout" reads as switching dropout off)."""
    own: bool = True
    """Whether the plain words keep their own stems too. A compound that only names the
    term does not ("the learning signal" is the gradient, and no "learn": it would
    otherwise support "the shortcut learns the residual")."""


_DETERMINERS = r"(?:(?:the|its|each|every|a|one|any|single|individual) ){0,2}"
PLAIN_FORMS: tuple[PlainForm, ...] = tuple(
    PlainForm(re.compile(rf"\b(?:{pattern})\b"), *rest)
    for pattern, *rest in (
        # the learning rate, as the size of a step
        (
            rf"step ?sizes?|size of {_DETERMINERS}(?:steps?|updates?)"
            rf"|(?:smaller|bigger|larger|tiny|small|big|large|huge) (?:overall )?(?:steps|updates)"
            rf"|{_DETERMINERS}(?:steps?|updates?) (?:are |is )?(?:too |way too )?"
            rf"(?:big|large|small|smaller|bigger|larger)"
            rf"|how (?:big|large|far) {_DETERMINERS}(?:steps?|updates?)",
            ("learn", "rat"),
            "learning rate",
        ),
        (
            r"memori[sz]\w*|(?:learn\w*|know\w*) (?:\w+ ){0,4}by heart",
            ("overfit", "memor"),
            "overfitting",
        ),
        (
            r"held[- ]out|(?:data|examples?) it (?:has|hasn't|has not) (?:never )?seen",
            ("valid",),
            "validation",
        ),
        (
            r"(?:evaluation|eval|test|testing|inference|prediction) (?:setting|state)"
            r"|(?:training|train|practice|learning) (?:setting|state)",
            ("mod",),
            "mode",
        ),
        (
            r"(?:randomly|random) (?:switch|turn|shut|zero|drop|knock|silence)\w* (?:off|out)?",
            ("dropout",),
            None,
        ),
        (
            r"(?:average|averaging|averaged) (?:each |every |the )?(?:updates? |steps? )?"
            r"over more examples"
            r"|more examples (?:per|in each|for each|before each) (?:step|update|group)"
            r"|(?:bigger|larger) groups? of examples",
            ("batch", "larg"),
            "larger batch",
        ),
        (
            rf"(?:cap|limit|clamp|ceiling|maximum)\w* (?:on )?{_DETERMINERS}"
            rf"(?:how (?:big|large|far) {_DETERMINERS})?(?:updates?|gradients?|steps?"
            r"|push(?:es)?|nudges?|shoves?|kicks?|jolts?|jumps?|moves?)",
            ("gradient", "clip"),
            "gradient clipping",
        ),
        (r"brain ?float|(?:the )?other (?:16|sixteen)[- ]bit (?:format|type)", ("bf16",), "bf16"),
        (r"half[- ](?:precision|size)", ("fp16",), "fp16"),
        (
            r"loss (?:multiplier|scale factor)|multipl\w* the loss"
            r"|scal\w* (?:up )?(?:the|its) loss",
            ("los", "scal"),
            "loss scaling",
        ),
        (
            r"full(?:[- ]size)? (?:32-bit |thirty-two-bit )?(?:precision|format)"
            r"|(?:32|thirty-two)-bit precision",
            ("fp32",),
            "fp32",
        ),
        (
            r"short ?cuts?|skip (?:paths?|routes?)|bypass(?:es)?",
            ("skip", "connection", "residual"),
            "residual skip connections",
        ),
        (
            r"ramp\w* up|(?:gentle|gentler|gradual|softer|slower) (?:start|beginning|opening)"
            r"|eas(?:e|es|ing) (?:in|into (?:it|them))\b",
            ("warmup",),
            "warmup",
        ),
        # the learning rate named too: MiniLM puts "start with tiny steps warmup" at 0.48
        # from "start with a small learning rate, raise it slowly", and at 0.69 with it
        (
            r"(?:start|begin)\w* (?:off )?(?:with )?(?:tiny|small|very small|little)"
            r" (?:steps|updates)",
            ("warmup", "learn", "rat"),
            "learning rate warmup",
        ),
        (
            r"guess\w* (?:evenly|randomly|at random|uniformly)|no better than (?:a )?guess\w*",
            ("chanc",),
            "chance",
        ),
        (r"(?:varied|altered|flipped|cropped|distorted) copies", ("augment",), "augmentation"),
        # a split, as the sides the data goes to
        (
            r"(?:on|to|into|onto) (?:the same|one|a single|its own|one and the same)"
            r" side(?: only)?",
            ("split",),
            "of the split",
        ),
        (
            r"augs?|(?:examples|pictures|images|photos|inputs) (?:are |get |were )?(?:messed with"
            r"|distorted|warped|jittered|perturbed)",
            ("augment",),
            "augmentation",
        ),
        # the seventh round's additions, by the same rule
        (
            r"in[- ]between (?:results|values|outputs)|intermediate (?:results|values|outputs)"
            r"|what (?:each|every) layer (?:produces|outputs|computes)",
            ("activ",),
            "activations",
        ),
        (
            r"(?:add|adds|adding|sum|sums|summing|collect\w*|pil\w*) up (?:the )?"
            r"(?:corrections|gradients|updates|changes)"
            r"|(?:corrections|gradients|updates|changes) (?:\w+ ){0,3}(?:add|pile|build) up",
            ("gradient", "accumul"),
            "gradient accumulation",
        ),
        (
            r"running averages? of (?:the )?(?:squared )?(?:gradients?|gradient sizes?|updates)"
            r"|(?:average|history) of (?:past |recent )?(?:squared )?gradients?"
            r"|how big (?:its|the|each weight's) (?:updates|gradients) (?:have )?(?:usually )?been"
            r"|how (?:big|large) (?:\w+(?:'s)? ){0,2}(?:gradients?|updates?|changes|steps?)"
            r" (?:usually|typically|normally|tend to be)"
            r"|how (?:big|large) typical (?:gradients|updates|changes|steps) are"
            r"|running (?:estimates?|guess(?:es)?) of how (?:big|large)"
            r"|(?:optimi[sz]er's|its) (?:sense|guess|idea) of how (?:big|large)",
            ("adam", "moment", "estim"),
            "Adam moment estimates",
        ),
        (
            r"(?:spill|spills|spilled|spilling|go|goes|went|blow|blows|blew|turn|turns|turned)"
            r" (?:over )?(?:into|to) infinity"
            r"|too (?:big|large) (?:for|to) (?:the format|fit|store)",
            ("overflow",),
            "overflow",
        ),
        (
            r"round\w* (?:down )?to zero|(?:tiny|small) (?:values|numbers|updates) vanish",
            ("underflow",),
            "underflow",
        ),
        (r"not[- ]a[- ]number", ("nan",), "NaN"),
        (
            r"keep[- ]the[- ]weights[- ]small|pull\w* (?:the )?weights? (?:toward|towards|to) zero"
            r"|shrink\w* (?:the |every |each )?weights?",
            ("weight", "decay"),
            "weight decay",
        ),
        (
            r"(?:saved|stored|kept) (?:running )?(?:averages|statistics|stats)"
            r"|averages? (?:it )?(?:saved|stored|kept) (?:during|from) training",
            ("run", "averag", "statistic"),
            "running average statistics",
        ),
        (
            r"(?:whatever|the) examples (?:happen to be |that happen to be )?in the (?:current )?"
            r"(?:group|batch|mini-?batch)",
            ("batch", "statistic"),
            "batch statistics",
        ),
        (
            r"labels? (?:got |get |are |were |being )?(?:scrambled|shuffled|mixed up|misaligned)"
            r"|(?:right|correct) answers? (?:still )?(?:lined|line) up"
            r"|(?:answers?|labels?) (?:are |is )?(?:still |actually )?(?:attached|matched|paired"
            r"|tied) (?:to|with) (?:the )?(?:right|correct)"
            r"|answers? (?:[\w'’]+ ){0,3}(?:paired|matched|lined up|line up|belongs? to"
            r"|c[oa]me apart from) (?:\w+ ){0,3}(?:inputs?|pictures?|images?|examples?)"
            r"|(?:examples|inputs|images|pictures) next to their answers",
            ("label",),
            "labels",
        ),
        (
            r"handful of (?:\w+ )?(?:examples|samples|images|inputs|pictures)",
            ("small", "batch"),
            "small batch",
        ),
        (
            r"(?:decent|healthy|reasonable|reasonably (?:big|large)|sizeable|sizable"
            r"|(?:big|large) enough) (?:batch|batches|batch sizes?)",
            ("big", "larg", "batch"),
            "large batch",
        ),
        (
            r"(?:work|works|do|does|did) (?:well )?on (?:new|unseen|fresh)"
            r" (?:data|examples|photos)",
            ("general",),
            "generalize",
        ),
        # the tenth round's additions, by the same rule
        (
            r"which way (?:to|each weight should|the weights should|it should) (?:move|change|go)"
            r"|how (?:much|far) each weight should (?:move|change)",
            ("gradient",),
            "gradient",
        ),
        (
            r"(?:adjustable|learned|learnable) numbers|the numbers it learns",
            ("weight", "paramet"),
            "weights",
        ),
        (r"running (?:total|sum)", ("gradient", "accumul"), "gradient accumulation"),
        (r"coin[- ]?flips?|random guessing", ("chanc",), "chance"),
        (
            r"(?:passes|pass|rounds?) (?:over|through) (?:the |all the )?(?:data|dataset|examples)",
            ("epoch",),
            "epoch",
        ),
        (
            r"(?:kept|held|set) (?:aside|back|apart)",
            ("valid",),
            "validation",
        ),
        # the twenty-second round's additions, by the same rule
        (
            r"(?:the )?plumbing|something(?:'s| is| in (?:the |your )?\w+ is) broken",
            ("bug",),
            "a bug",
        ),
        (
            r"(?:learn|teach|fit)\w* (?:it )?(?:just |only )?(?:a |one )?(?:tiny |small )?"
            r"(?:handful|dozen|few|couple) (?:of )?examples",
            ("overfit", "batch"),
            "overfit a tiny batch",
        ),
        # the gradient, as what tells each weight how to change
        (r"(?:learning|error|training|correction) signals?", ("gradient",), "gradient", False),
        # the fifty-first round's additions, by the same rule
        (r"rein(?:s|ed|ing)? (?:it|the model|them|things) in", ("regular",), "regularisation"),
        (
            r"when (?:people|users|customers) (?:actually |really )?use it"
            r"|when it (?:actually |really )?runs for real"
            r"|when it['’]?s (?:actually |really )?(?:in use|serving|live|deployed)",
            ("production",),
            "in production",
        ),
        (
            r"(?:clean|prepar|shap|format)\w* and (?:clean|prepar|shap|format)\w*"
            r" (?:the |its |your )?(?:inputs?|data|images|requests)"
            r"|(?:code|steps?|pipeline) that (?:cleans|prepares|shapes|formats)"
            r" (?:the |its )?(?:inputs?|data|images)",
            ("preproces",),
            "preprocessing",
        ),
        # a technique named after what it is not about: label smoothing softens the
        # targets, and says nothing of whether the labels are right
        (r"label[- ]smooth\w*|smooth\w* (?:the |of (?:the )?)?labels", ("smooth",), None, False),
        # the fifty-second round's additions, by the same rule: what fits on the card is
        # what fits in its memory
        (
            r"fit(?:s|ting)? (?:on|in|into|onto) (?:the |one |a |your |a single )?(?:card|gpu)",
            ("memory",),
            "GPU memory",
        ),
        (
            r"(?:randomness|jitter|wobble|noisiness)(?: \w+){0,3} (?:of|in|from)(?: \w+){0,2}"
            r" (?:small|smaller|tiny) batch(?:es)?",
            ("gradient", "nois"),
            "gradient noise",
        ),
    )
)
"""Plain words for the field's terms ("smaller steps" for the learning rate, "memorising"
for overfitting, "shortcuts" for skip connections): they add the term's stems to the
answer's words that say them (``said_terms``), so an answer told without the jargon
shares the key point's words, and the embedding model reads the term after them
(``name_terms``). Written from how people explain these ideas, not from answers."""


class SaidTerms(NamedTuple):
    """The field's terms an answer's words stand for (``said_terms``)."""

    stems: list[frozenset[str]]
    """Per word, the stems of the terms it also stands for."""
    term_only: frozenset[int]
    """Indices of the words that only name a term (``PlainForm.own``): their own stems
    are no content of the answer."""


def said_terms(text: str, ws: list[Span]) -> SaidTerms:
    """Per word of an answer ``text`` (its words ``ws``): the stems of the terms it also
    stands for: ``PLAIN_FORMS``, and a hyphenated word's parts joined ("warm-up" meets
    "warmup"); and which words only name a term. Only an answer's words get them: a
    rubric sentence keeps its own stems, so an answer that says the term itself loses
    nothing. The plain forms are searched once for both."""
    out: list[set[str]] = [set() for _ in ws]
    for k, w in enumerate(ws):
        joined = w.norm.replace("-", "")
        if joined != w.norm and joined.isalpha() and joined not in STOPWORDS:
            out[k].add(stem(joined))
    term_only: set[int] = set()
    for form, k in _plain_words(text, ws):
        out[k].update(form.stems)
        if not form.own:
            term_only.add(k)
    return SaidTerms([frozenset(x) for x in out], frozenset(term_only))


def _plain_words(text: str, ws: list[Span]) -> Iterator[tuple[PlainForm, int]]:
    """Each plain form said in ``text`` with the index of each of its words in ``ws``."""
    lowered = text.lower()
    ends = [w.end for w in ws]
    for form in PLAIN_FORMS:
        for m in form.pattern.finditer(lowered):
            k = bisect.bisect_right(ends, m.start())  # the first word ending after it starts
            while k < len(ws) and ws[k].start < m.end():
                yield form, k
                k += 1


def name_terms(text: str) -> Respelling:
    """``text`` as the embedding model reads an answer: each field term said in plain
    words (``PLAIN_FORMS``) named right after them ("I'd make the steps smaller learning
    rate first"). MiniLM puts "take smaller steps" far from "lower the learning rate"
    (cosine 0.25 against an off-topic baseline of 0.38); with the term beside the words
    it can see they say the same. Only the embedding sees this: quotes, lexical support
    and every check read the answer as said."""
    lowered = text.lower()
    said = sorted(
        (
            (m.start(), m.end(), term)
            for pattern, _, term, _ in PLAIN_FORMS
            if term
            for m in pattern.finditer(lowered)
        ),
        key=lambda s: (s[0], -s[1], s[2]),  # the longest of those said from one place
    )
    edits, end = [], -1
    for start, stop, term in said:
        if start >= end:  # plain words inside others already named name nothing more
            edits.append((stop, stop, f" {term}"))
            end = stop
    for m in _CALLED.finditer(text):  # "-ln(0.1)": "minus ln of (0.1)"
        edits.append((m.start(), m.end(), f"{_called(m)} of ("))
    for m in _MOMENTS.finditer(text):  # "Adam's v̂": "Adam's v̂ (second moment estimate)"
        edits.append((m.end(), m.end(), f" ({_moment(m)})"))
    for m in _ARROWS.finditer(text):  # "LR ↓", "↑N": the embedder reads the word too
        word = ARROW_WORDS[m.group()]
        if m.end() < len(text) and text[m.end()].isalnum():
            edits.append((m.start(), m.start(), f"{word} "))  # glued to a word: before it
        else:
            edits.append((m.end(), m.end(), f" {word}"))
    return respell(text, edits)


_FUNCTION_WORDS = {"ln": "ln", "log": "log", "sqrt": "square root", "exp": "exp"}
_CALLED = re.compile(r"(?<![\w.])([-−])?(ln|log|sqrt|exp)\(", re.IGNORECASE)
"""A function of the field's arithmetic called in typed notation ("-ln(0.1)",
"sqrt(2/512)"): MiniLM reads "-ln(0.1" as next to nothing, and "minus ln of (0.1)"
as what a speaker says."""


def _called(m: re.Match[str]) -> str:
    minus = "minus " if m.group(1) else ""
    return f"{minus}{_FUNCTION_WORDS[m.group(2).lower()]}"


def called_words(raw: str) -> str:
    """The words a typed call of a function says before its number ("-ln(0.1)" -> "minus
    ln"), or "" for a word that calls none."""
    m = _CALLED.match(raw)
    return _called(m) if m else ""


_MOMENTS = re.compile(
    r"(?<![^\W\d_])(?P<name>[mv])(?:(?P<hat>\u0302|_?hat)(?:_?t\b|\u209c)?|_t\b|\u209c)"
    r"(?![^\W_])",
    re.IGNORECASE,
)
"""Adam's moments in typed notation: "m̂" and "v̂" (estimates, with a hat), "m_t", "vₜ",
"v_hat". MiniLM reads "Adam's v̂ₜ comes from few samples" as next to nothing about
"Adam's moment estimates are poor at first"; the words the symbol stands for let the two
meet (``moment_words``, ``name_terms``)."""
_MOMENT_NAMES = {"m": "first moment", "v": "second moment"}


def moment_words(text: str) -> str:
    """What the Adam moment symbols in ``text`` say ("√v̂" -> "second moment estimate"),
    one phrase after another, or "" when it writes none."""
    return " ".join(_moment(m) for m in _MOMENTS.finditer(text))


def _moment(m: re.Match[str]) -> str:
    name = _MOMENT_NAMES[m.group("name").lower()]
    return f"{name} estimate" if m.group("hat") else name


ARROW_WORDS = {"↑": "up", "↓": "down"}
_ARROWS = re.compile(f"[{''.join(ARROW_WORDS)}]")
"""Arrows that say which way something goes in typed notes ("LR ↓", "num_workers ↑",
"train ↓, val ↑"). MiniLM reads an arrow as next to nothing; the word beside it lets
"num_workers ↑" meet "use more workers"."""


_KEEPS_WHOLE = STOPWORDS | NOT_WORDS
"""Words that keep an identifier whole ("no_grad", "is_training")."""


def _identifier_parts(chunks: list[str]) -> list[str]:
    """The chunks as normalised words, each code identifier of content words split into
    them ("num_workers=8" -> "num", "workers", "8"; "clip_grad_norm_" -> "clip", "grad",
    "norm"). One with a function or number word in it stays whole: "no_grad" is no
    negation of gradients, "zero_grad" no zero."""
    out: list[str] = []
    for chunk in chunks:
        word = normalise_word(chunk)
        if "_" in word:
            parts = [p for p in re.split(r"[_=]", word) if p]
            said = [w for p in parts for w in re.split(r"[^a-z0-9']+", p) if w]
            if len(parts) > 1 and not any(w in _KEEPS_WHOLE or w in NUMBER_WORDS for w in said):
                out.extend(normalise_word(p) for p in parts)  # "(params" -> "params"
                continue
        out.append(word)
    return out


_CALL = re.compile(r"[a-z]\.[a-z]")


def call_stems(raw: str) -> frozenset[str]:
    """Stems of the words a dotted call names, read as they are said ("torch.no_grad()"
    -> "torch", "no", "grad"; "model.eval()" -> "model", "eval"); none for a word that is
    no call ("e.g.", "3.5"). ``raw`` may be a word as written or already normalised
    (``Span.norm``)."""
    word = normalise_word(raw)
    if not _CALL.search(word):
        return frozenset()
    parts = re.split(r"[._()=]+", word)
    return frozenset(stem(p) for p in parts if len(p) > 1 and p not in STOPWORDS and p.isalpha())


def content_stems(text: str) -> frozenset[str]:
    """Stems of the words that carry meaning (no stopwords or fillers); a short form
    (``SHORT_FORMS``) adds the stems of the words it stands for, and a typed moment of
    Adam's those of its name (``moment_words``)."""
    out: set[str] = set()
    if said := moment_words(text):  # words with no symbols: one level deep
        out.update(content_stems(said))
    for word in _identifier_parts(re.split(r"[\s/]+", text)):
        for part in re.split(r"(?<=[a-z])-(?=[a-z])", word):
            if (
                part
                and part not in STOPWORDS
                and part not in NUMBER_WORDS
                and len(part) > 1
                and not _NUMERAL.match(part)
            ):
                out.add(stem(part))
                out.update(SHORT_FORMS.get(part, ()))
    return frozenset(out)


_ENGLISH_MARKERS = wordset(
    """the a an and is are of to it you i that this in for with be so on if we not or
    but some as at by from my your its they he she was were will would can could has
    have do does there what which when then than all more just maybe because"""
)


_ARITHMETIC = wordset("x times plus minus over divided by squared e equals sqrt ln log")


def looks_english(ws: list[Span], known: Collection[str] = frozenset()) -> bool:
    """False for text that has almost none of the commonest English function words and
    is not mostly made of the words of the rubric it answers (``known``: their stems).
    Numbers, arithmetic, units and one-letter variables ("3 x 3 x 64 x 128 + 128 =
    73,856", "three times three", "seventy-three", "7e9", "14 GB", "m + v") are left out
    of the count: number-heavy English is English. Terse notes ("compute + data budget,
    inference latency, start small") have few function words but speak the rubric's
    language; an answer in another language that borrows a few technical terms ("il faut
    ajouter du dropout") does not."""
    ws = [
        w
        for w in ws
        if any(c.isalpha() for c in w.norm)
        # "7e9", "bf16", "3x3" and the variables of "m + v" are in no language
        and not any(c.isdigit() for c in w.norm)
        and not (len(w.norm) == 1 and w.norm.isascii() and w.norm not in _ENGLISH_MARKERS)
        and not all(part in NUMBER_WORDS for part in w.norm.split("-"))
        and w.norm not in _ARITHMETIC
        and w.norm not in UNITS
    ]
    if len(ws) < 6:
        return True
    ascii_words = sum(1 for w in ws if w.norm.isascii())
    if ascii_words / len(ws) < 0.6:
        return False
    markers = sum(1 for w in ws if w.norm in _ENGLISH_MARKERS)
    if markers / len(ws) >= 0.06:
        return True
    told = sum(1 for w in ws if w.norm in _ENGLISH_MARKERS or stem(w.norm) in known)
    return told / len(ws) >= 0.5
