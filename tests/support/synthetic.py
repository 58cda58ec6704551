"""Realistic made-up history, for the benchmark, the tests and screen demos.

Nothing here runs a model: scores, transcripts and delivery figures are drawn
from simple distributions in which a candidate improves with practice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sayitout.scoring.result import AnswerScore, DeliveryMetrics, KeyPointResult
from sayitout.speech.transcript import Transcript, Word
from sayitout.store.store import Store
from sayitout.store.timefmt import now_utc

_FILLERS = ("um", "uh", "like", "you know")
_FILLER_WORDS = (
    "so",
    "basically",
    "the",
    "model",
    "gradient",
    "learning",
    "rate",
    "batch",
    "we",
    "would",
    "check",
    "first",
    "then",
    "because",
    "loss",
    "training",
    "data",
    "layer",
    "weights",
    "and",
)


@dataclass(frozen=True)
class SampleQuestion:
    """The little the generator needs to know about a question."""

    id: str
    deck: str
    key_points: tuple[tuple[str, str], ...]
    """``(key point id, text)`` pairs."""


def make_score(
    question_id: str,
    answer: str,
    key_points: Sequence[tuple[str, str, str]],
    *,
    score: int | None = None,
    wpm: float = 140.0,
    fillers: int = 0,
    duration_s: float = 60.0,
    rubric_version: int = 1,
    embedding_model: str = "all-MiniLM-L6-v2",
) -> AnswerScore:
    """An :class:`AnswerScore` from ``(id, text, status)`` triples.

    A covered or partial key point's evidence is the first few words of ``answer``
    that appear in it, with their character span, so highlighting has something real.
    """
    results = []
    for kp_id, text, status in key_points:
        evidence, span = None, None
        if status != "missed" and answer:
            word = next((w for w in text.lower().split() if len(w) > 3 and w in answer.lower()), "")
            if word:
                start = answer.lower().index(word)
                end = min(len(answer), start + max(len(word), 24))
                while end < len(answer) and answer[end].isalnum():
                    end += 1  # whole words only
                evidence, span = answer[start:end], (start, end)
        sim = {"covered": 0.82, "partial": 0.6, "missed": 0.3}[status]
        results.append(KeyPointResult(kp_id, text, 1.0, status, sim, evidence, span))  # type: ignore[arg-type]
    if score is None:
        got = sum(
            1 if r.status == "covered" else 0.5 if r.status == "partial" else 0 for r in results
        )
        score = round(100 * got / max(1, len(results)))
    minutes = max(duration_s, 1.0) / 60
    delivery = DeliveryMetrics(
        duration_s=duration_s,
        words=len(answer.split()),
        words_per_minute=wpm,
        fillers={"um": fillers} if fillers else {},
        filler_count=fillers,
        fillers_per_minute=round(fillers / minutes, 2),
        long_pauses=(),
        hedges={},
        time_to_first_word_s=0.8,
    )
    verdict = (
        "Strong answer" if score >= 80 else "Partly there" if score >= 50 else "Keep practising"
    )
    return AnswerScore(
        question_id=question_id,
        score=int(score),
        verdict=verdict,
        key_points=tuple(results),
        numeric=None,
        misconceptions=(),
        delivery=delivery,
        answer=answer,
        rubric_version=rubric_version,
        embedding_model=embedding_model,
    )


def make_transcript(text: str, wpm: float = 140.0, model: str = "tiny.en") -> Transcript:
    """A transcript with evenly spaced word timestamps at ``wpm``."""
    step = 60.0 / max(wpm, 1.0)
    words = tuple(
        Word(w, round(i * step, 3), round(i * step + step * 0.8, 3), 0.9)
        for i, w in enumerate(text.split())
    )
    duration = round(len(words) * step, 2)
    return Transcript(text=text, words=words, duration=duration, model=model, device="cpu")


def sample_questions(bank: object | None = None) -> list[SampleQuestion]:
    """Questions from a loaded bank when given, else a small built-in set."""
    if bank is not None:
        out = []
        for q in bank.questions():  # type: ignore[attr-defined]
            try:
                rubric = bank.rubric(q.id)  # type: ignore[attr-defined]
                kps = tuple((k.id, k.text) for k in rubric.key_points)
            except Exception:
                kps = (("main-idea", "States the main idea"),)
            out.append(SampleQuestion(q.id, bank.deck_of(q.id), kps))  # type: ignore[attr-defined]
        return out
    return [
        SampleQuestion(
            f"demo-q{i:02d}",
            "demo" if i % 3 else "demo-two",
            tuple(
                (f"kp-{j}", f"Key point {j} of question {i} about gradient scaling")
                for j in range(4)
            ),
        )
        for i in range(12)
    ]


def fill_history(
    store: Store,
    questions: Sequence[SampleQuestion],
    attempts: int,
    *,
    seed: int = 7,
    per_session: int = 10,
    end: datetime | None = None,
    days: int = 120,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Add ``attempts`` attempts in sessions of ``per_session`` spread over ``days`` days.

    Skill grows with practice, so scores trend up and fillers down, as in real use.
    Returns the number of attempts written.
    """
    rng = random.Random(seed)
    end = end or now_utc()
    start = end - timedelta(days=days)
    sessions = max(1, (attempts + per_session - 1) // per_session)
    practice: dict[str, int] = {}
    written = 0
    with store.batch():
        for s in range(sessions):
            when = start + timedelta(seconds=(days * 86400) * s / sessions)
            deck = rng.choice(sorted({q.deck for q in questions}))
            pool = [q for q in questions if q.deck == deck] or list(questions)
            sid = store.start_session(deck, {"count": per_session, "order": "due"}, started_at=when)
            for i in range(min(per_session, attempts - written)):
                q = rng.choice(pool)
                n = practice.get(q.id, 0)
                practice[q.id] = n + 1
                skill = min(0.95, 0.35 + 0.08 * n + rng.uniform(-0.2, 0.2))
                statuses = [
                    "covered"
                    if rng.random() < skill
                    else "partial"
                    if rng.random() < 0.3
                    else "missed"
                    for _ in q.key_points
                ]
                text = _answer_text(rng, q, statuses)
                wpm = rng.gauss(150 - 15 * (1 - skill), 18)
                fillers = max(0, int(rng.gauss(6 * (1 - skill), 1.5)))
                transcript = make_transcript(text, wpm)
                duration = transcript.duration or 30.0
                score = make_score(
                    q.id,
                    text,
                    [(kid, kt, st) for (kid, kt), st in zip(q.key_points, statuses, strict=True)],
                    wpm=round(wpm, 1),
                    fillers=fillers,
                    duration_s=duration,
                )
                store.save_attempt(
                    sid,
                    q.id,
                    q.deck,
                    transcript,
                    score,
                    None,
                    created_at=when + timedelta(minutes=2 * i),
                    ended_by="silence",
                )
                written += 1
                if progress and written % 500 == 0:
                    progress(written)
            store.finish_session(sid, finished_at=when + timedelta(minutes=2 * per_session))
    return written


def _answer_text(rng: random.Random, q: SampleQuestion, statuses: Sequence[str]) -> str:
    parts = []
    for (_, text), status in zip(q.key_points, statuses, strict=True):
        filler = " ".join(rng.choice(_FILLER_WORDS) for _ in range(rng.randint(3, 8)))
        if status == "covered":
            parts.append(f"{filler} {_lower_first(text).rstrip('.')}.")
        elif status == "partial":
            parts.append(f"{filler} {' '.join(_lower_first(text).split()[:4])}.")
        else:
            parts.append(f"{filler} {rng.choice(_FILLERS)}.")
    return " ".join(p[0].upper() + p[1:] for p in parts).strip()


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text
