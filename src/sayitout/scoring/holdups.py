"""Which thing holds the others up, and which one waits: "the GPU is waiting on the data".

"The GPU is the bottleneck and the data loader is waiting on it" shares every content
word with "the GPU is waiting for work, so the bottleneck is the data pipeline", and
MiniLM places them together; it says the opposite. Before a key point is credited, the
things its sentences name as the hold-up and as the one held up are compared with the
ones the answer names (``Matcher._contradiction``).

Rules (documented for reviewers and candidates):

* A *hold-up* is a thing said to hold the others up: "X is the bottleneck", "the
  bottleneck is X", "X can't keep up" (or "cannot"), "X is too slow"; what something
  waits for or on ("waiting on the data loader": the data loader); what starves
  something ("the pipeline is starving the card", "starved by the pipeline").
* A thing *held up* is one said to wait: "X is waiting", "X waits", "X is starved", "X
  sits idle" (or "is", "stays", "goes idle"), and what is starved ("... starving the
  card"). A "waiting" or "starved" with no verb before it is said of no one ("..., or
  waiting on other GPUs to swap gradients").
* X is the words of the clause before the cue's verb ("is", "sits", ...), back to a
  determiner, a linking word or a clause's end, at most four; after "the bottleneck is"
  or "waiting for", the words after it, up to the same ends. A pronoun names nothing
  ("it's too slow" states no hold-up), nor does a side with no content word.
* A negation before the cue in its clause ("the GPU isn't the bottleneck", "the
  bottleneck is not the GPU") states nothing; "can't keep up" is itself the cue.
* An answer states a rubric sentence the other way round when it names as the hold-up a
  thing the sentence names as held up, or as held up a thing the sentence names as the
  hold-up, and never names any of them the sentence's way. A thing given the sentence's
  role only has to share a content word with it ("your data" for "the data pipeline");
  one given the other role has to name it: its last word is one of the other's words
  ("the GPU", not "communication across GPUs").
"""

from __future__ import annotations

from dataclasses import dataclass

from sayitout.scoring.lexicon import denies, wordset
from sayitout.scoring.text import closes_clause, content_stems, normalise_word

HOLDS, WAITS = "holds", "waits"


@dataclass(frozen=True)
class Holdup:
    """A thing named as the hold-up (``HOLDS``) or as held up (``WAITS``)."""

    role: str
    thing: frozenset[str]
    """The content stems of the thing ("data", "loader")."""
    text: str
    """How the thing was said ("the data loader")."""
    head: str
    """The stem of its last word, what it names ("loader")."""


_VERBS = wordset("is are was were be 's sits sit sitting stays stay goes go would will can could")
"""Words between a thing and its cue ("the GPU *is* starved", "the GPU *sits* idle")."""
_ADVERBS = wordset(
    """usually often mostly probably likely basically simply really actually clearly
    almost always typically generally still even more much now already just"""
)
_ENDS = wordset(
    """and or but so which that because since if when while whereas then than to with
    for on of by from in at into across over about instead rather"""
)
"""Words that end a thing: a linking word or a preposition."""
_DETERMINERS = wordset("the a an your our their its this that my")
_PRONOUNS = wordset("it they this that these those everything something nothing")
_WAIT_CUES = wordset("waiting waits wait waited starved starving idle idling")
_WAIT_FOR = wordset("for on")
_FINITE = wordset("waits waited starves idle idles")
"""Wait cues that say who waits with no verb before them ("the GPU idle", "it waits");
the others need one ("the GPU *is* waiting": "..., or waiting on other GPUs" says no one
waits)."""
_STARVES = wordset("starving starves")
"""Wait cues that take what is held up as their object ("the pipeline is starving the
card")."""
_MAX_THING = 4
_DASHES = frozenset("-—–")
_PUNCTUATION = ".,;:!?\"'()[]“”‘’"
_BETWEEN = _VERBS | _ADVERBS | _WAIT_CUES
"""What a thing's verb group may hold: "the loader *is sitting idle* waiting"."""


_CLAUSE_MARKS = (",", ";", ":", "—", "–")


def _closes(raw: str) -> bool:
    return closes_clause(raw, _CLAUSE_MARKS)


def _before(toks: list[tuple[str, str]], k: int) -> tuple[int, str, str] | None:
    """The thing said before the verb group that ends at ``k`` (exclusive): where its
    verb group starts and the thing's words, or None when no thing is said (a pronoun, a
    clause's start, a negation in the verb group)."""
    i = k
    while i > 0 and (toks[i - 1][0] in _BETWEEN):
        i -= 1
        if _closes(toks[i][1]) and i < k - 1:
            return None
    verb = i
    if any(denies(w) for w, _ in toks[verb:k]):
        return None
    start = i
    while start > 0 and i - start < _MAX_THING:
        w, raw = toks[start - 1]
        if w in _ENDS or _closes(raw) or denies(w):
            break
        start -= 1
        if w in _DETERMINERS:
            break
    return _thing(toks[start:i], verb)


def _after(toks: list[tuple[str, str]], k: int) -> tuple[int, str, str] | None:
    """The thing said from ``k`` on, up to a linking word or a clause's end."""
    while k < len(toks) and toks[k][0] in _ADVERBS:
        k += 1
    end = k
    while end < len(toks) and end - k < _MAX_THING:
        w, raw = toks[end]
        if w in _ENDS or denies(w):
            break
        end += 1
        if _closes(raw):
            break
    return _thing(toks[k:end], end)


def _thing(said: list[tuple[str, str]], at: int) -> tuple[int, str, str] | None:
    """Where the thing's reading ends, its words, and the words as said ("the GPU")."""
    words = [w for w, _ in said]
    if not words or words[-1] in _PRONOUNS or words[0] in _PRONOUNS - _DETERMINERS:
        return None
    shown = [raw.strip(_PUNCTUATION) for _, raw in said]
    if words[0] in _DETERMINERS:
        shown[0] = words[0]  # "The GPU is waiting": "the GPU"
    return at, " ".join(words), " ".join(shown)


def _possessive_is(toks: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """ "The GPU's waiting" as "the GPU 's waiting"."""
    out: list[tuple[str, str]] = []
    for w, raw in toks:
        if w.endswith("'s") and len(w) > 2:
            out += [(w[:-2], raw[:-2]), ("'s", "'s")]
        else:
            out.append((w, raw))
    return out


def _read(toks: list[tuple[str, str]], k: int) -> list[Holdup]:
    """The hold-ups the cue at ``toks[k]`` states, if it is one."""
    w = toks[k][0]
    nxt = toks[k + 1][0] if k + 1 < len(toks) else ""
    found: list[tuple[str, tuple[int, str, str] | None]] = []
    if w == "bottleneck" and k >= 2 and toks[k - 1][0] == "the":
        if toks[k - 2][0] in _VERBS and not _closes(toks[k - 2][1]):
            found.append((HOLDS, _before(toks, k - 1)))  # "the GPU is the bottleneck"
        elif (
            nxt in ("is", "was", "'s")
            and not _closes(toks[k][1])
            and k + 2 < len(toks)
            and not denies(toks[k + 2][0])
        ):
            found.append((HOLDS, _after(toks, k + 2)))  # "the bottleneck is the data"
    elif w == "keep" and nxt == "up" and k >= 1:
        before = toks[k - 1][0]
        if before in ("can't", "cannot", "couldn't") or (
            before == "not" and k >= 2 and toks[k - 2][0] == "can"
        ):
            start = k - 1 if before != "not" else k - 2
            found.append((HOLDS, _before(toks, start)))  # "the loader can't keep up"
    elif w == "slow" and k >= 1 and toks[k - 1][0] == "too":
        found.append((HOLDS, _before(toks, k - 1)))  # "the data loader is too slow"
    elif w in _WAIT_CUES and not (w in ("idle", "idling") and k and toks[k - 1][0] == "an"):
        if w not in _FINITE and not (k and toks[k - 1][0] in _BETWEEN):
            return []  # "..., or waiting on other GPUs": no one is said to wait
        opens = not _closes(toks[k][1])
        if w in _STARVES and opens and nxt and nxt not in _WAIT_FOR and nxt != "by":
            # "the data pipeline is starving the card": the subject holds the object up
            found += [(HOLDS, _before(toks, k)), (WAITS, _after(toks, k + 1))]
        else:
            found.append((WAITS, _before(toks, k)))  # "the GPU is waiting"
            if opens and (nxt in _WAIT_FOR or (nxt == "by" and w == "starved")):
                found.append((HOLDS, _after(toks, k + 2)))  # "... waiting on the data loader"
    out = []
    for role, said in found:
        if said is None:
            continue
        thing = content_stems(said[1])
        head = content_stems(said[1].rsplit(" ", 1)[-1])
        if thing and len(head) == 1:
            out.append(Holdup(role, thing, said[2], next(iter(head))))
    return out


def holdups(text: str) -> tuple[Holdup, ...]:
    """The hold-ups and the things held up that ``text`` names (see the module
    docstring)."""
    toks: list[tuple[str, str]] = []
    for raw in text.split():
        w = normalise_word(raw)
        if w in _DASHES and toks:
            toks[-1] = (toks[-1][0], toks[-1][1] + ",")  # a dash ends the clause before it
        elif w:
            toks.append((w, raw))
    toks = _possessive_is(toks)
    # "sitting idle waiting for it" says the loader waits once
    return tuple(dict.fromkeys(h for k in range(len(toks)) for h in _read(toks, k)))


def contradiction(points: tuple[Holdup, ...], said: tuple[Holdup, ...]) -> Holdup | None:
    """The first of ``points`` (a rubric sentence's hold-ups) whose thing ``said`` (the
    answer's) gives the other role, when the answer gives none of ``points`` its own
    role; else None. A thing the answer gives the point's role only has to share a word
    with it ("the data loader" for "the data pipeline"); one it gives the other role has
    to name it ("the GPU", not "communication across GPUs" or "the data loader")."""
    if any(p.thing & s.thing and p.role == s.role for p in points for s in said):
        return None
    for p in points:
        if any(p.role != s.role and (s.head in p.thing or p.head in s.thing) for s in said):
            return p
    return None
