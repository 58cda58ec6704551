"""The mistake ledger: what the stored attempts say the candidate keeps getting wrong.

Built from the store alone (no models, no audio): misconceptions stated more than once,
key points said the other way round more than once, key points missed again and again
(and still missed last time), final numbers that keep coming out wrong, questions passed
on, and delivery habits across spoken answers (filler clusters, pace out of range, long
silences before the first word, answers that run long).
Every entry keeps its count, when it was last seen and the attempts it came from, so a
front end can show the evidence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from sayitout.store.filters import AttemptFilter
from sayitout.store.records import PASSED

if TYPE_CHECKING:
    from sayitout.scoring.result import AnswerScore
    from sayitout.speech.transcript import Transcript
    from sayitout.store import Store
    from sayitout.store.records import AttemptSummary

EntryKind = Literal[
    "misconception",
    "reversed_point",
    "missed_point",
    "wrong_number",
    "passed",
    "fillers",
    "pace_fast",
    "pace_slow",
    "slow_start",
    "long_answers",
]
DELIVERY_KINDS: frozenset[str] = frozenset(
    {"fillers", "pace_fast", "pace_slow", "slow_start", "long_answers"}
)

PACE_RANGE = (110.0, 180.0)
"""Words a minute outside which the score card calls the pace slow or fast."""
FILLER_CLUSTER = 3
"""This many fillers within ``FILLER_WINDOW_S`` seconds make a cluster."""
FILLER_WINDOW_S = 10.0
FILLERS_PER_MINUTE_HIGH = 6.0
"""An answer with no word timings counts as cluttered above this rate."""
SLOW_START_S = 4.0
"""Seconds of silence before the first word that read as a stall."""
LONG_ANSWER_S = 120.0
MIN_REPEATS = 2
"""A habit or mistake needs to show up this often to enter the ledger."""
RECENT_ATTEMPTS = 300
"""How far back the ledger reads: recent habits matter, old ones may be fixed."""


@dataclass(frozen=True)
class LedgerEntry:
    kind: EntryKind
    key: str
    """Stable identity of the entry (kind plus what it is about)."""
    title: str
    """One line for the candidate."""
    detail: str
    """What to do about it, or the figures behind it."""
    count: int
    """How many attempts showed it."""
    last_seen: datetime
    attempt_ids: tuple[int, ...]
    """The attempts it came from, newest first."""
    question_ids: tuple[str, ...]
    """The questions involved, most recent first."""

    @property
    def is_delivery(self) -> bool:
        return self.kind in DELIVERY_KINDS


@dataclass(frozen=True)
class Ledger:
    entries: tuple[LedgerEntry, ...]
    attempts_read: int
    """How many attempts the ledger was built from."""
    deck: str | None = None

    @property
    def content(self) -> tuple[LedgerEntry, ...]:
        return tuple(e for e in self.entries if not e.is_delivery)

    @property
    def delivery(self) -> tuple[LedgerEntry, ...]:
        return tuple(e for e in self.entries if e.is_delivery)

    def of_kind(self, *kinds: str) -> tuple[LedgerEntry, ...]:
        return tuple(e for e in self.entries if e.kind in kinds)


@dataclass
class _Tally:
    attempts: list[tuple[int, datetime, str]] = field(default_factory=list)
    """``(attempt id, when, question id)``, newest first."""
    extra: Counter[str] = field(default_factory=Counter)
    text: str = ""
    detail: str = ""
    seen: int = 0

    def add(self, summary: AttemptSummary) -> None:
        self.attempts.append((summary.id, summary.created_at, summary.question_id))

    @property
    def count(self) -> int:
        return len(self.attempts)

    def entry(self, kind: EntryKind, key: str, title: str, detail: str) -> LedgerEntry:
        questions = list(dict.fromkeys(q for _, _, q in self.attempts))
        return LedgerEntry(
            kind=kind,
            key=key,
            title=title,
            detail=detail,
            count=self.count,
            last_seen=max(when for _, when, _ in self.attempts),
            attempt_ids=tuple(a for a, _, _ in self.attempts),
            question_ids=tuple(questions),
        )


def build_ledger(store: Store, *, deck: str | None = None, limit: int = RECENT_ATTEMPTS) -> Ledger:
    """The ledger of the last ``limit`` attempts (of ``deck``, or of every deck)."""
    summaries = store.attempts(AttemptFilter(deck=deck), limit=limit)  # newest first
    scored = []
    for s in summaries:
        record = store.attempt(s.id)
        scored.append((s, record.answer_score, record.transcript))
    return ledger_from(scored, deck=deck)


def ledger_from(
    scored: Iterable[tuple[AttemptSummary, AnswerScore, Transcript | None]],
    *,
    deck: str | None = None,
) -> Ledger:
    """The ledger of these ``(summary, current score, transcript)``, given newest first."""
    scored = list(scored)
    mis: dict[str, tuple[str, str, _Tally]] = {}
    """By the statement's words, so one misconception shared by several questions' rubrics
    counts across them: ``text -> (question id, misconception id, tally)``."""
    reversed_: dict[tuple[str, str], _Tally] = {}
    """Key points said the other way round (they cost the score), by question and id; the
    tally's detail is the newest reason."""
    missed: dict[tuple[str, str], _Tally] = {}
    latest_status: dict[tuple[str, str], str] = {}
    habits: dict[str, _Tally] = {k: _Tally() for k in DELIVERY_KINDS}
    wrong_number, passed = _Tally(), _Tally()
    for summary, score, transcript in scored:
        if summary.ended_by == PASSED:
            passed.add(summary)
            continue
        for m in score.misconceptions:
            words = " ".join(_WORDS.findall(m.text.lower()))
            _, _, t = mis.setdefault(
                words, (summary.question_id, m.id, _Tally(text=m.text, detail=m.correction))
            )
            t.add(summary)
        for kp in score.key_points:
            key = (summary.question_id, kp.id)
            latest_status.setdefault(key, kp.status)  # newest first: the first one seen
            t = missed.setdefault(key, _Tally(text=kp.text))
            t.seen += 1
            if kp.penalty > 0:
                reason = kp.reason or "You said it the other way round."
                reversed_.setdefault(key, _Tally(text=kp.text, detail=reason)).add(summary)
            elif kp.status == "missed":
                t.add(summary)
        if score.numeric is not None and not score.numeric.correct:
            wrong_number.add(summary)
        _delivery_habits(summary, score, transcript, habits)

    entries: list[LedgerEntry] = []
    for qid, mid, t in mis.values():
        if t.count >= MIN_REPEATS:
            detail = f"Actually: {t.detail}" if t.detail else "This is a known misconception."
            entries.append(
                t.entry(
                    "misconception",
                    f"misconception:{qid}:{mid}",
                    f'You said "{_short(t.text)}"',
                    detail,
                )
            )
    for (qid, kp_id), t in reversed_.items():
        if t.count >= MIN_REPEATS:
            entries.append(
                t.entry(
                    "reversed_point",
                    f"reversed_point:{qid}:{kp_id}",
                    f"You say it the other way round: {_short(t.text)}",
                    f"Last time: {t.detail}",
                )
            )
    for (qid, kp_id), t in missed.items():
        if t.count >= MIN_REPEATS and latest_status.get((qid, kp_id)) == "missed":
            entries.append(
                t.entry(
                    "missed_point",
                    f"missed_point:{qid}:{kp_id}",
                    f"You leave out: {_short(t.text)}",
                    f"missed {t.count} of {t.seen} times on {qid}, including the last time",
                )
            )
    if wrong_number.count >= MIN_REPEATS:
        entries.append(
            wrong_number.entry(
                "wrong_number",
                "wrong_number",
                "Your final number is wrong or missing",
                "state the final number with its unit, and check it out loud before you stop",
            )
        )
    if passed.count:
        entries.append(
            passed.entry(
                "passed",
                "passed",
                f"You passed on {_n(len(set(q for _, _, q in passed.attempts)), 'question')}",
                "hear the model answer, then try these again",
            )
        )
    entries.extend(_habit_entries(habits))
    entries.sort(key=lambda e: (-e.count, -e.last_seen.timestamp(), e.key))
    return Ledger(tuple(entries), attempts_read=len(scored), deck=deck)


def _delivery_habits(
    summary: AttemptSummary,
    score: AnswerScore,
    transcript: Transcript | None,
    habits: dict[str, _Tally],
) -> None:
    d = score.delivery
    if d is None or not d.words or summary.asr_model == "typed":
        return
    clusters = filler_clusters(transcript) if transcript is not None else None
    if clusters or (clusters is None and d.fillers_per_minute >= FILLERS_PER_MINUTE_HIGH):
        habits["fillers"].add(summary)
        habits["fillers"].extra.update(d.fillers)
    if d.words >= 20 and d.words_per_minute > PACE_RANGE[1]:
        habits["pace_fast"].add(summary)
        habits["pace_fast"].extra["wpm"] += round(d.words_per_minute)
    elif d.words >= 20 and d.words_per_minute < PACE_RANGE[0]:
        habits["pace_slow"].add(summary)
        habits["pace_slow"].extra["wpm"] += round(d.words_per_minute)
    if d.time_to_first_word_s is not None and d.time_to_first_word_s >= SLOW_START_S:
        habits["slow_start"].add(summary)
        habits["slow_start"].extra["ms"] += round(d.time_to_first_word_s * 1000)
    if d.duration_s > LONG_ANSWER_S:
        habits["long_answers"].add(summary)
        habits["long_answers"].extra["s"] += round(d.duration_s)


def filler_clusters(transcript: Transcript) -> int | None:
    """How many separate stretches of ``FILLER_WINDOW_S`` seconds hold ``FILLER_CLUSTER``
    fillers or more; None when the transcript has no word timings to judge from."""
    from sayitout.scoring.delivery import count_fillers

    words = [w for w in transcript.words if w.text.strip()]
    if not words:
        return None
    clusters, i = 0, 0
    while i < len(words):
        j = i
        while j < len(words) and words[j].start - words[i].start <= FILLER_WINDOW_S:
            j += 1
        if sum(count_fillers(words[i:j]).values()) >= FILLER_CLUSTER:
            clusters += 1
            i = j  # the next cluster starts after this one
        else:
            i += 1
    return clusters


_PACE = f"aim for {PACE_RANGE[0]:.0f}-{PACE_RANGE[1]:.0f} words a minute"
_HABITS: tuple[tuple[EntryKind, Callable[[_Tally], str], str], ...] = (
    (
        "fillers",
        lambda t: (
            "Filler words bunch up ("
            + ", ".join(f"{w} ×{n}" for w, n in t.extra.most_common(3))
            + ")"
        ),
        "pause silently instead of filling the gap; a short silence sounds confident",
    ),
    (
        "pace_fast",
        lambda t: f"You speak fast ({t.extra['wpm'] / t.count:.0f} words a minute)",
        f"{_PACE}: slow down on the key terms",
    ),
    (
        "pace_slow",
        lambda t: f"You speak slowly ({t.extra['wpm'] / t.count:.0f} words a minute)",
        f"{_PACE}: lead with the answer, then explain",
    ),
    (
        "slow_start",
        lambda t: (
            f"Long silences before you start ({t.extra['ms'] / t.count / 1000:.1f} s on average)"
        ),
        "open with one sentence that frames the answer while you think",
    ),
    (
        "long_answers",
        lambda t: f"Answers run past two minutes ({t.extra['s'] / t.count:.0f} s on average)",
        "give the answer first, then the two strongest reasons; stop there",
    ),
)
"""Each delivery habit: its kind, its title from the tally, and what to do about it."""


def _habit_entries(habits: dict[str, _Tally]) -> list[LedgerEntry]:
    return [
        habits[kind].entry(kind, kind, title(habits[kind]), advice)
        for kind, title, advice in _HABITS
        if habits[kind].count >= MIN_REPEATS
    ]


_WORDS = re.compile(r"[a-z0-9]+")


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split()).rstrip(".")
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _n(count: int, noun: str) -> str:
    word = _NUMBERS[count] if count < len(_NUMBERS) else str(count)
    return f"{word} {noun}{'' if count == 1 else 's'}"
