"""Whether an answer states things, or only names or asks them.

Two kinds of answer say the rubric's words without saying anything: a bare list of terms
("fp16, NaN, loss scaling, overflow, bf16.") and the question read back ("Why is
validation loss lower than training loss?"). Embeddings and shared words rate both close
to the key points. Here:

* A *keyword list* is an answer of at least four fragments (split at commas, semicolons,
  full stops, line ends, and slashes or dashes between spaces; "..., early stopping and
  weight decay" counts its last two terms as two), nearly all of
  its words in fragments of at most ``_TERM_WORDS`` words ("Adam first and second
  moments") that hold no function word (but those a listed term holds, which are not
  counted: articles, "of", "and", "per", "in", "out"... as in "log of zero", "half an
  epoch", "bias and variance", "bytes per parameter", "fan in", "out of memory"), no verb
  cue, no comparative ("more workers", "smaller batch", "lower learning rate": a remedy,
  unless it is the only one: "..., early stopping, more data."; "lower the LR" is a
  verb), no symbol of a relation (=, →, ×, ≠ ...) and no arithmetic word beside a number
  ("times 4 GPUs"). A number is a term ("3e-4", "2,000 steps", "16,781,312"). Terse notes
  that state relations ("fp16 overflow (max 65504) → inf → NaN") are not lists. A closing
  remark that points back at the list ("...: those are the pieces on the table here.",
  "... — those are the fp16 ingredients here") names it and adds no claim, and an open
  end ("..., and so on", "..., things like that", "..., I think") adds none either; both
  are set aside, as are the words a spoken list opens on ("Okay so ...") and its
  hesitations ("Um, overfitting, dropout, uh, ..."), and a typed list's bullets. A
  parenthesis after a space holds more terms ("regularisation (dropout, weight
  decay)"), a plus between two words joins them ("Adam + L2"), and a call with no
  argument or a named one names a function ("model.eval()", "DataLoader(num_workers)").
* A word is *asked* when its sentence ends with a question mark and is a question (it
  holds a question word, or opens with an auxiliary or a guess's "maybe": an elliptical
  check in typed notes, "grads all zero? opt.step() called?", states what to check,
  but one that puts the question's own choice back, "Hmm, batch norm or layer norm?",
  asks: it holds "or" and no content word the question does not say),
  or when it is part of a run of at least ``READ_BACK_RUN`` words that the question
  itself says in that order
  (numbers compared by value, "fifty-layer" as "50-layer"; a read-back in speech often
  has no question mark, and the question's opening statement has none). Asked words
  state nothing: a window made mostly of them earns no key point and flags no
  misconception.
* A sentence in which the speaker says what the question asks ("..., and the question
  is what's going on and how to handle it", "so it's asking why") restates the question:
  all its words are asked, the situation it retells included ("validation climbs after
  epoch five" is the question's symptom, not the diagnosis). So does a sentence in the
  form of a question, with or without its question mark, whose content words are the
  question's own but one at most ("So what's going on there and what should I do about
  it."): a transcript loses the question mark. "What's happening is a bad batch" (the
  answer after a "what ... is") and "What's the latency budget, and how much data do I
  have" (questions of the candidate's own) state things.
* A *verdict* is a sentence, or what opens one before a colon, a semicolon or a dash,
  that names a choice and says it holds always and nothing more, unnegated ("Batch norm,
  always.", "Always batch norm: ...", "Biggest model, every time."): two or three
  content words and "always", "everywhere" or "every time". A misconception that says
  the choice always holds is stated by it (``verdicts``, ``Matcher._picked``).
* An *omission* is a sentence that names what someone forgot, outright ("You forgot
  torch.no_grad().", "I forgot to set the random seed"): the cause of a failure, said as
  one. A misconception that names that cause ("You forgot to wrap evaluation in torch no
  grad") is stated by it (``omissions``, ``Matcher._omitted``); "if you forgot ...", "you
  didn't forget ..." and "what did I forget?" name none.
* Words that say the speaker does not know ("I'm not sure", "I don't know what the fix
  would be", "I have no idea"), up to the end of their clause, are asked words too: they
  hedge, they state nothing. "I'm not sure of the exact rule, but double it" still states
  its second clause.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from sayitout.scoring import numbers
from sayitout.scoring.lexicon import HESITATIONS, SMALL_NUMBERS, TENS, denies
from sayitout.scoring.text import (
    SENTENCE_END,
    STEP_ARROWS,
    STOPWORDS,
    Span,
    call_stems,
    content_stems,
    ends_sentence,
    stem,
    words,
)

_UNSURE = re.compile(
    r"\b(?:i['’]?m|i am) (?:really |honestly )?not (?:really |quite )?sure\b"
    r"|\bi (?:really |honestly )?(?:don['’]?t|do not) (?:really )?know\b"
    r"|\bi(?: have|['’]ve got)? no idea\b"
    r"|\bi (?:can['’]?t|cannot|don['’]?t) remember\b"
    r"|(?:^|(?<=[.!?]\s))not sure\b"
    r"|\bi(?:['’]ve| have) (?:only|never|always)\b",
    re.IGNORECASE,
)
"""Where the speaker says they do not know (first person: "the network has no idea yet"
is a claim), or tells their own experience instead ("I've only ever trained in fp32",
"I've always just used AdamW")."""
_RESTATES = re.compile(
    r"\bthe question (?:is|here is|being|of (?:whether|what|how|why))\b"
    r"|\bthe question['’]s(?=,|\s+(?:basically|really|just|simply|essentially|kind of|sort of"
    r"|whether|what|why|how|if)\b)"
    r"|\b(?:it['’]?s|it is|you['’]?re|you are|they['’]?re|they are|we['’]?re|we are) "
    r"(?:basically |really |just )?asking\b"
    r"|\b(?:you|we|they) (?:want|wanna|['’]d like|would like) to know (?:what|why|how|which)\b"
    r"|\b(?:you|we|they) (?:want|need|['’]re after|are after|['’]re looking for) (?:the|a) "
    r"(?:usual |standard |common |typical |best )?(?:fix|answer|solution|remedy|reason|cause"
    r"|explanation)(?: for (?:it|that|this))?"
    r"(?: and (?:what|how) to (?:do|fix|handle) (?:about )?(?:it|that|this))?(?=\s*(?:[.!?]|$))"
    r"|\b(?:let me|just to|i want to|i(?:['’]d| would) like to) make sure i (?:have|['’]ve got|got"
    r"|understand|follow) (?:it|this|that|the question|you)\b"
    r"|\b(?:i|we) (?:need|have|['’]ve got|am supposed|['’]m supposed|was asked|am asked|['’]m "
    r"asked) to (?:say|explain|tell you|figure out|work out|describe) (?:what|why|how|whether)\b",
    re.IGNORECASE,
)
"""Where the speaker says what the question asks ("and the question is what's going on
and how to handle it", "so it's asking why"): the sentence around it restates the
question; so does "and you want the usual fix for that" (or "the reason and what to do
about it"), said as the end of its sentence, "I need to say what's going on and what to do
about it", and "let me make sure I have it: ..." before the question said back.
Not "you want to know whether it can overfit one batch", nor "you want a fix that keeps the
batch": advice."""
_ASK_LEAD = r"(?:(?:so|and|okay|ok|um|uh|hmm|like|well|basically)[,\s]+)*"
"""What a sentence that asks may open with ("so", "um", "like, ...") before its question
word (``_ASKS``, ``_WHICH``)."""
_ASKS = re.compile(
    r"(?:^|(?<=[.!?;]\s))" + _ASK_LEAD + r"(?P<ask>(?P<wh>(?:what|why|how)"
    r"(?:['’]s|\s+(?:is|are|should|do|does|did|can|could|would|will))\b|why\s+not\b"
    r"|whether\b)"
    r"[^.!?:;]*[.!?]?)",
    re.IGNORECASE,
)
"""A sentence in the form of a question: a question word and a verb before its subject
("so what's going on", "why would the validation loss be lower"), after a full stop or a
semicolon ("...; why is that and what would you do?"), or an indirect one that opens
the sentence ("Whether to go with batch norm or layer norm.")."""
_WHICH = re.compile(
    r"(?:^|(?<=[,.!?;]\s))"
    + _ASK_LEAD
    + r"(?P<ask>(?P<wh>which\s+(?:one|of the two|would you|should (?:i|we|you)|do you|"
    r"would i|do i)\b)[^.!?:;]*[.!?]?)",
    re.IGNORECASE,
)
"""A choice asked back, after a comma too ("Batch norm or layer norm, which would you
pick", "..., which one."): the question's words and one more at most make the sentence a
restatement (``_restating``). "Use layer norm, which is what transformers do" is no
question: "which" asks only as "which one", "which would you", "which should I"..."""
_ASK_WORDS = frozenset(
    content_stems("whether going happening done doing handle deal wrong there pick choose go")
)
"""Content words any question asks with ("what's going on there", "what should be done
about it", "how do I handle it"): a question-form sentence may hold them besides the
question's own."""
_ANSWERED = re.compile(r"\s(?:is|isn['’]t|are|aren['’]t|was|were)\s", re.IGNORECASE)
"""A "what ... is" that goes on to its answer ("what's happening is a bad batch"), read
after the question word's own verb ("why is that" asks)."""
_TRAILS_OFF = ("...", "…")
"""A sentence that trails off into the next: the two are one utterance."""
_GOES_ON = re.compile(r"\s*(?:(?:and|so|basically|okay|ok|um|uh)[,\s]+)+", re.IGNORECASE)
"""What a restating sentence may open with when it goes on from the sentence before."""
_CLAUSE_END = re.compile(r"[,;:.!?]|\s(?:but|though|although|so)\s", re.IGNORECASE)

READ_BACK_RUN = 6
"""Words in a row, said as the question says them, that make a read-back. Shorter runs
are an answer echoing the question's phrasing ("on the very first batch, ln 10")."""

_FRAGMENT_SPLIT = re.compile(r",(?!\d)|;|\.(?=\s|$)|\s[/–—-]\s|\n")
"""Where a listed term ends: a comma (not a thousands separator: "16,781,312"), a
semicolon, a full stop, a slash or a dash between spaces ("dropout / early stopping",
"fp16 - overflow"), a line's end."""
_BULLET = re.compile(r"^\s*[-*•]\s+", re.MULTILINE)
"""A bullet that opens a line of a typed list."""
_ASIDE = re.compile(r"\s\(([^()]*)\)")
"""A parenthesis after a space: what it holds are more terms ("regularisation (dropout,
weight decay)"), or a relation of their own ("(4 × 8)")."""
_JOINED = re.compile(r"(?<=[A-Za-z])\s*\+\s*(?=[A-Za-z])")
"""A plus between two words joins them as "and" does ("Adam + L2"); beside a number it
is arithmetic."""
_CALL = re.compile(r"([A-Za-z_][\w.]*)\((?:[A-Za-z_]\w*)?\)")
"""A call with no argument or a named one is the name of a function, a term
("model.eval()", "DataLoader(num_workers)"); "ln(10)", "sqrt(2/n)" compute."""
_RELATION = re.compile(r"[=→←↔≠<>×*+()^√%:]|->|(?<![A-Za-z])/|/(?![A-Za-z])")
"""A symbol that relates what a fragment names: an equation, an arrow, a ratio ("2/512").
A slash between two words joins a term ("train/validation split")."""
_ARITHMETIC = re.compile(r"\b(?:times|plus|minus|divided|equals)\b", re.IGNORECASE)
"""An arithmetic word: with a number beside it ("times 4 GPUs") it states a working, not
a term ("inputs times outputs" is a term)."""
_VERB_CUES = frozenset(
    """not never no use uses using make makes keep keeps check raise add clip
    is are was were be means cause causes""".split()  # noqa: SIM905
)
_VERB_OR_COMPARATIVE = frozenset(("lower",))
"""A word that is a verb cue before a determiner ("lower the LR") and a comparative
before a bare noun ("lower learning rate")."""
_VERB_OR_NOUN = frozenset("check clip use cause".split())  # noqa: SIM905
"""Verb cues that are also nouns: a term's head when they close a fragment of two words
or more ("sanity check", "gradient clip", "root cause"); "check the labels" acts."""
_OBJECT_OPENERS = frozenset("the a an your its it their them that this".split())  # noqa: SIM905
"""Words that open what a verb acts on."""
_COMPARATIVES = frozenset(
    "more fewer less bigger smaller larger higher lower faster slower longer shorter".split()  # noqa: SIM905
)
"""Words that make a fragment a remedy ("more workers", "smaller batch") when the list
holds two such fragments or more; one among terms is a term ("..., early stopping, more
data.")."""
_NOUN_PHRASE_WORDS = frozenset(
    "of the a an and or per in to on for with one by out only mean he over across".split()  # noqa: SIM905
)
"""Function words a listed term may hold ("log of zero", "overfit one batch", "bias and
variance", "bytes per parameter", "seconds to minutes", "4096 by 4096", "out of memory",
"weights only", "running mean", "He init", "average over the epoch", "norm across
the batch")."""


_LIST_TAG = re.compile(
    r"(?:[:;—–]|\s-{1,2}\s|[.!?](?=\s))\s*(?:and\s+|so\s+)?(?:those|these|that)(?:['’]s|\s+(?:are|were|is|was))"
    r"\s[^.!?:;]*[.!?]?\s*$"
    r"|,?\s*\b(?:and so on|and so forth|and the like|among others|etc"
    r"|(?:and\s+)?(?:things|stuff)\s+like\s+that|that\s+(?:kind|sort)\s+of\s+(?:thing|stuff)"
    r"|I\s+(?:think|guess)|you\s+know)\b\.?\s*$",
    re.IGNORECASE,
)
"""A closing remark about the list itself ("...: those are the pieces on the table here",
"... Those are the ingredients.", "... — those are the fp16 ingredients here"), after a
colon, a semicolon, a dash or a sentence end; or a list's open end ("..., and so on",
"..., things like that", "..., I think")."""
_LEAD_INS = frozenset(
    "so and but or then okay ok um uh er erm hmm hm like well right also first".split()  # noqa: SIM905
)
"""Words a sentence opens on that say nothing yet ("So, um, why ...?", "Okay so
overfitting, dropout, ...")."""
_LEAD_IN = re.compile(r"^\s*(?:(?:" + "|".join(sorted(_LEAD_INS)) + r")\b[,.]?\s*)+", re.IGNORECASE)
"""``_LEAD_INS`` that open an answer: a list said after them is still a list."""

_TERM_WORDS = 4
"""Content words a listed term may have ("Adam first and second moments")."""


def is_keyword_list(text: str) -> bool:
    """True for an answer that only lists terms (see the module docstring)."""
    fragments = []
    said = _BULLET.sub("", _LIST_TAG.sub("", _LEAD_IN.sub("", text)))
    said = _CALL.sub(r"\1", _JOINED.sub(" and ", _ASIDE.sub(r", \1,", said)))
    for f in _FRAGMENT_SPLIT.split(said):
        # a hesitation is no word of a term ("Um, overfitting, dropout, uh, early stopping")
        ws = [w for w in f.lower().split() if w.strip(".,;:!?") not in HESITATIONS]
        if ws:
            fragments.append((f, ws))
    if not fragments:
        return False
    # "..., early stopping and weight decay": the last two terms joined by "and" (not a
    # number's: "three hundred and twelve")
    last, last_words = fragments[-1]
    joined = (
        len(last_words) >= 3 and last_words.count("and") == 1 and not numbers.find_numbers(last)
    )
    if len(fragments) + joined < 4:
        return False
    listed = total = 0
    compared: list[int] = []
    for f, ws in fragments:
        total += len(ws)
        core = [w for w in ws if w not in _NOUN_PHRASE_WORDS]
        if (
            len(core) > _TERM_WORDS
            or _RELATION.search(f)
            or any(_states(w, ws[k + 1 : k + 2], k > 0) for k, w in enumerate(ws))
        ):
            continue
        if _ARITHMETIC.search(f) and numbers.find_numbers(f):
            continue  # a working: "times 4 GPUs"
        if any(w in _COMPARATIVES for w in ws):
            compared.append(len(ws))
            continue
        listed += len(ws)
    if len(compared) == 1:
        listed += compared[0]
    return total > 0 and listed / total >= 0.8


def _states(word: str, after: list[str], inside: bool) -> bool:
    """A word that makes a fragment more than a listed term: a verb cue or a function word
    other than a noun phrase's. "Lower" is a verb only before what it lowers ("lower the
    LR"); before a bare noun it compares ("lower learning rate"). "Check" closing a term
    is its noun ("sanity check"). ``after``: the word after it, if any; ``inside``:
    whether a word comes before it."""
    bare = word.strip("'\"")
    if word in _VERB_OR_COMPARATIVE:
        return bool(after) and after[0] in _OBJECT_OPENERS
    if bare in _VERB_OR_NOUN and inside and not after:
        return False
    return word in _VERB_CUES or (bare in STOPWORDS and bare not in _NOUN_PHRASE_WORDS)


def read_back_grams(question: str) -> frozenset[tuple[str, ...]]:
    """The question's runs of ``READ_BACK_RUN`` spelling-free tokens (``_tokens``): what
    a read-back of it says. Computed once per rubric (``PreparedRubric``)."""
    theirs = [t for t, _ in _tokens(words(question), numbers.find_numbers(question))]
    return frozenset(
        tuple(theirs[i : i + READ_BACK_RUN]) for i in range(len(theirs) - READ_BACK_RUN + 1)
    )


def asked_words(
    text: str,
    ws: list[Span],
    question: frozenset[tuple[str, ...]] = frozenset(),
    found: list[numbers.NumberMention] | None = None,
    asked_stems: frozenset[str] = frozenset(),
) -> list[bool]:
    """Per word of ``text`` (its words ``ws``, its numbers ``found``): whether it asks
    rather than states (see the module docstring). ``question``: the question's
    ``read_back_grams``; without them only question marks count. ``asked_stems``: the
    question's content stems; without them a sentence in the form of a question counts
    only with its question mark."""
    out = [False] * len(ws)
    if question:
        for k in _read_back(ws, question, numbers.find_numbers(text) if found is None else found):
            out[k] = True
    first = 0
    for i, w in enumerate(ws):
        chunk = text[w.start : w.end]
        if chunk in STEP_ARROWS:  # each step a sentence of its own
            first = i + 1  # "inspect the batch → grad norms exploding?": one step asks
            continue
        if ends_sentence(chunk) or i == len(ws) - 1:
            if chunk.endswith("?") and (
                _asks(ws, first, i) or _choice_asked_back(text, ws, first, i, asked_stems)
            ):
                for k in range(first, i + 1):
                    out[k] = True
            first = i + 1
    for at, until in _restating(text, asked_stems):
        ends = [e.end() for e in SENTENCE_END.finditer(text, 0, at)]
        start = ends[-1] if ends else 0
        # an ask that ends on its own mark ends there ("Why does that matter? Because
        # ..." goes on to its answer)
        end = SENTENCE_END.search(text, max(until - 1, 0))
        stop = end.end() if end else len(text)
        joined = (
            not text[start:at].strip()
            and (
                text[:start].endswith(_TRAILS_OFF)
                # "... results come out poor and noisy; why is that and what would you do?",
                # as the answer's last words (a rhetorical question goes on to its answer)
                or (text[:start].rstrip().endswith(";") and not text[stop:].strip())
            )
        )
        if _GOES_ON.fullmatch(text[start:at]) or joined:
            # "... then goes up every epoch after that. And you want to know what's going
            # on", "... rises every epoch after that... what's going on there": the
            # sentence it goes on from is the question's situation
            start = ends[-2] if len(ends) > 1 else 0
        _ask_between(out, ws, start, stop)
    for m in _UNSURE.finditer(text):
        end = _CLAUSE_END.search(text, m.end())
        _ask_between(out, ws, m.start(), end.start() if end else len(text))
    return out


_WH = frozenset("what what's whats why how how's which who where".split())  # noqa: SIM905
"""A question word anywhere in a sentence with a question mark makes it ask ("The
learning rate warms up ... over the first two thousand steps, and what is it at step five
hundred?")."""
_QUESTION_OPENERS = frozenset(
    """when whose whom is are was were do does did can could would will should shall has
    have had am may might isn't aren't wasn't weren't don't doesn't didn't can't couldn't
    won't wouldn't shouldn't hasn't haven't any anything maybe perhaps possibly""".split()  # noqa: SIM905
)
"""Words a question or a guess opens with, besides ``_WH`` ("Maybe fifty layers is just
too many?"): a sentence with a question mark that opens with none of them is elliptical
("grads all zero? opt.step() called? labels matched to inputs?"), a note of what to
check, which states it."""


def _asks(ws: list[Span], first: int, last: int) -> bool:
    """Whether the sentence of words ``first``..``last`` (it ends with a question mark)
    asks: it holds a question word, or opens, after lead-ins ("so", "um"), with an
    auxiliary or a guess's "maybe". (An arrow starts a sentence: "Can't -> pipeline bug:
    grads all zero?" opens on "pipeline".)"""
    said = [w.norm for w in ws[first : last + 1]]
    if any(w in _WH for w in said):
        return True
    opening = next((w for w in said if w not in _LEAD_INS), None)
    return opening is None or opening in _QUESTION_OPENERS


def _choice_asked_back(
    text: str, ws: list[Span], first: int, last: int, asked_stems: frozenset[str]
) -> bool:
    """Whether the elliptical sentence of words ``first``..``last`` (it ends with a
    question mark) puts the question's own choice back ("Hmm, batch norm or layer
    norm?"): it holds "or" and no content word the question does not say. A note of what
    to check ("grads all zero? labels shuffled?") holds no "or"."""
    if not asked_stems or not any(w.norm == "or" for w in ws[first : last + 1]):
        return False
    return content_stems(text[ws[first].start : ws[last].end]) <= asked_stems


def _restating(text: str, asked_stems: frozenset[str]) -> list[tuple[int, int]]:
    """Where ``text`` says what the question asks (start, end): a ``_RESTATES`` phrase,
    or a sentence in the form of a question that says nothing but the question's content
    words and one more at most."""
    found = [m.span() for m in _RESTATES.finditer(text)]
    if asked_stems:
        for m in (*_ASKS.finditer(text), *_WHICH.finditer(text)):
            ask = m.group("ask")
            extra = content_stems(ask) - asked_stems - _ASK_WORDS
            if not _ANSWERED.search(ask[len(m.group("wh")) :]) and len(extra) <= 1:
                found.append(m.span("ask"))
    return found


def _ask_between(out: list[bool], ws: list[Span], start: int, stop: int) -> None:
    """Mark as asked every word of ``ws`` that starts in ``[start, stop)``."""
    for k, w in enumerate(ws):
        if start <= w.start < stop:
            out[k] = True


def _read_back(
    ws: list[Span], grams: frozenset[tuple[str, ...]], found: list[numbers.NumberMention]
) -> set[int]:
    """Indices of the words of ``ws`` in runs of ``READ_BACK_RUN`` or more tokens that
    the question says in the same order (its ``grams``)."""
    mine = _tokens(ws, found)
    keys = [t for t, _ in mine]
    hit: set[int] = set()
    for i in range(len(keys) - READ_BACK_RUN + 1):
        if tuple(keys[i : i + READ_BACK_RUN]) in grams:
            hit.update(k for _, k in mine[i : i + READ_BACK_RUN])
    return hit


def _tokens(ws: list[Span], found: list[numbers.NumberMention]) -> list[tuple[str, int]]:
    """Spelling-free tokens of ``ws``, each with the index of its word: a stated number
    is one token of its value, a hyphenated word one token per part, other words their
    stems."""
    out: list[tuple[str, int]] = []
    k, last = 0, -1
    for i, w in enumerate(ws):
        while k < len(found) and found[k].end <= w.start:
            k += 1
        if k < len(found) and found[k].start <= w.start < found[k].end:
            if k != last:
                out.append((f"#{found[k].value:g}", i))
                last = k
            continue
        for part in re.split(r"[-/]", w.norm):
            if not part:
                continue
            digits = part.replace(",", "")
            if part in SMALL_NUMBERS or part in TENS:
                out.append((f"#{float(SMALL_NUMBERS.get(part, TENS.get(part, 0))):g}", i))
            elif re.fullmatch(r"\d+(\.\d+)?", digits):
                out.append((f"#{float(digits):g}", i))
            else:
                out.append((stem(part), i))
    return out


ABSOLUTES = frozenset(("alway", "everywher"))
"""Stems of the words that say a choice always holds (``verdicts``); "every time" too."""
_VERDICT = re.compile(r"[^.!?:;–—]+")
"""A sentence, or what opens one before a colon, a semicolon or a dash."""
_EVERY_TIME = re.compile(r"\bevery\s+(?:single\s+)?time\b", re.IGNORECASE)


class Verdict(NamedTuple):
    """A choice the answer makes outright (``verdicts``)."""

    stems: frozenset[str]
    """Its content stems, the absolute word left out."""
    span: tuple[int, int]
    """Where it is said in the text."""


def verdicts(text: str) -> list[Verdict]:
    """Each verdict the text gives (see the module docstring): "Batch norm, always. It's
    strictly better ..." gives {batch, norm}; "Not always batch norm" gives none."""
    out = []
    for m in _VERDICT.finditer(text):
        part = m.group()
        said = content_stems(_EVERY_TIME.sub(" always ", part))
        if (
            said & ABSOLUTES
            and 2 <= len(said - ABSOLUTES) <= 3
            and not any(denies(w.norm) for w in words(part))
        ):
            out.append(Verdict(said - ABSOLUTES, m.span()))
    return out


DIAGNOSES = ("overfitting", "underfitting")
"""The states a model is diagnosed with outright (``diagnoses``), besides its size
(``TOO_SMALL``, ``TOO_BIG``)."""
_PLAINLY = (
    r" (?:just |simply |clearly |definitely |basically |classic |textbook |plain |already "
    r"|obviously |a case of |pure )*"
)
_CALLS_IT = (
    r"\b(?:(?:it|that|this|the model|the network)(?:['’]s| is| was)"
    r"|means(?: that)?(?: it['’]s| it is| the model is| the model['’]s| the network is)?)"
    + _PLAINLY
)
_CAUSED_BY = (
    r"(?:(?:a |an |the )?(?:\w+ ){0,2}(?:(?<!far )(?<!way )(?<!away )from|due to|caused by"
    r"|because of|down to|(?:sign|symptom|result) of) )?"
)
"""A thing the state causes, named before it: "That's a plateau from overfitting", "it's
a classic sign of overfitting". "That's far from overfitting" names none."""
_DIAGNOSIS = re.compile(
    _CALLS_IT + _CAUSED_BY + rf"(?P<state>{'|'.join(DIAGNOSES)})\b", re.IGNORECASE
)
TOO_SMALL, TOO_BIG = "too small", "too big"
"""A model's size, diagnosed outright (``diagnoses``): only of the model, by name ("the
network is too small"), since "it's too small" is as often a learning rate or a batch. "The
model isn't too small" says none."""
_SIZED = re.compile(
    r"\b(?:(?:the|this|your|our) (?:model|network|net)(?:['’]s| is| was)"
    r"|means(?: that)?(?: the model| the network)(?:['’]s| is))"
    + _PLAINLY
    + r"(?P<state>(?:much |far |way |just )?too (?P<size>small|simple|weak|shallow|big|large)"
    r"|not (?:big|large|deep) enough|under-?powered)\b",
    re.IGNORECASE,
)
_HEDGED = re.compile(
    r"\b(?:if|unless|whether|when|once|think|thinks|thought|assume|assumes|assumed|tempting"
    r"|might|may|maybe|perhaps|could|would|not|isn['’]t|wasn['’]t|never|rather than"
    r"|instead of|or)\b",
    re.IGNORECASE,
)
"""Words before a diagnosis, in its sentence, that condition, hedge or deny it ("if it's
overfitting", "you might think it's overfitting", "it isn't overfitting")."""


class Diagnosis(NamedTuple):
    """A state the answer says the model is in, outright (``diagnoses``)."""

    state: str
    span: tuple[int, int]
    """From its sentence's start to the end of the state's word: "A flat loss at 2.30
    means it's overfitting:"."""


def diagnoses(text: str) -> list[Diagnosis]:
    """Each state the text says, outright, that the model is in: "A flat loss at 2.30
    means it's overfitting", "That's plain overfitting", "The model is just overfitting",
    "Being at chance means the model is too small". None in a sentence that conditions,
    hedges, asks or denies it before it says it ("if it's overfitting", "people assume
    it's overfitting", "is it overfitting?") or offers another right after it ("it's
    overfitting or underfitting"), nor of a state the text says anywhere the model is
    not in ("it's not overfitting")."""
    out = []
    for part in _SENTENCE.finditer(text):
        sentence = part.group()
        if sentence.rstrip().endswith("?"):
            continue
        for m in [*_DIAGNOSIS.finditer(sentence), *_SIZED.finditer(sentence)]:
            if _HEDGED.search(sentence, 0, m.start("state")) or _OR_AFTER.match(sentence, m.end()):
                continue  # ... or one of two: "it's overfitting or underfitting"
            # to the end of the word the state ends, with its mark: "overfitting:"
            end = _word_end(text, part.start() + m.end())
            out.append(Diagnosis(_state(m), (part.start(), end)))
    denied = {m.group(1).lower() for m in _DENIED_STATE.finditer(text)}
    return [d for d in out if d.state not in denied]


def _state(m: re.Match[str]) -> str:
    """The state a diagnosis names: overfitting, underfitting, or a size."""
    if m.re is not _SIZED:
        return m.group("state").lower()
    return TOO_BIG if (m.group("size") or "").lower() in ("big", "large") else TOO_SMALL


_OR_AFTER = re.compile(r"\W*\s+or\b", re.IGNORECASE)
_SENTENCE = re.compile(r"(?:[^.!?]|[.!?](?=\S))+[.!?]*")
"""A sentence: up to a mark that a space or the end follows ("2.30" goes on)."""
_DENIED_STATE = re.compile(
    rf"\b(?:not|isn['’]t|wasn['’]t|no|never|nothing to do with) (?:\w+ )?({'|'.join(DIAGNOSES)})\b",
    re.IGNORECASE,
)


_OMITTED = re.compile(
    r"\b(?:you|i|we|they|someone|somebody)(?:['’]ve| have| had)?"
    r"(?: (?:probably|just|simply|likely|clearly|obviously|must have|must['’]ve))*"
    r" (?:forgot|forgotten)(?: to\b)?(?P<what>(?:[^.;:!?,—–]|\.(?=\w))*)",
    re.IGNORECASE,
)
"""Someone forgot something, and what: up to the end of its clause ("torch.no_grad()"
goes on past its dots)."""
_JOINED_ON = re.compile(
    r"\s(?:so|and|but|because|since|then|which|while|or|as|when|that['’]s)\b", re.IGNORECASE
)
"""A word that joins another clause on: what was forgotten ends before it, in speech
without commas too ("you forgot to put the model in eval mode so dropout is still on")."""


class Omission(NamedTuple):
    """A thing the answer says was forgotten, outright (``omissions``)."""

    stems: frozenset[str]
    """The stems of what was forgotten; a dotted call's are those of the words it names
    ("torch.no_grad()": torch, no, grad)."""
    span: tuple[int, int]
    """From its sentence's start to the end of the word what was forgotten ends."""


def omissions(text: str) -> list[Omission]:
    """What the text says, outright, someone forgot: "You forgot torch.no_grad().", "I
    forgot to fix the seed for the data loader". None in a question ("what did I
    forget?") or a sentence that conditions, hedges or denies it before it says it ("if
    you forgot to ...", "you might think you forgot ...", "it isn't that you forgot ...");
    none without a thing forgotten ("I'm not sure what I'd have forgotten")."""
    out = []
    for part in _SENTENCE.finditer(text):
        sentence = part.group()
        if sentence.rstrip().endswith("?"):
            continue
        for m in _OMITTED.finditer(sentence):
            if _HEDGED.search(sentence, 0, m.start()):
                continue
            what = _JOINED_ON.split(m.group("what"), maxsplit=1)[0]
            stems = frozenset().union(*(call_stems(w) or content_stems(w) for w in what.split()))
            # to the end of the word it ends, with its mark: "torch.no_grad()."
            end = _word_end(text, part.start() + m.start("what") + len(what.rstrip()))
            if stems:
                out.append(Omission(stems, (part.start(), end)))
    return out


def _word_end(text: str, i: int) -> int:
    """The end of the word of ``text`` that holds or ends at ``i``, with the marks it
    carries ("overfitting:", "torch.no_grad().")."""
    while i < len(text) and not text[i].isspace():
        i += 1
    return i
