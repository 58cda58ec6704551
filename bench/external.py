"""An external, human-graded short-answer set, scored zero-shot with import-style rubrics.

The data is not in this repository (its licence is not ours to re-distribute with the
code, and it is a development set, not a test). Point ``--external`` (bench/scoring.py) or
``SAYITOUT_EXTERNAL_SET`` at a folder that holds one of:

- the SciEntsBank release of SemEval-2013 Task 7 as parquet files (``train-00001.parquet``,
  ``test-ua-00001.parquet``...; reading them needs ``pyarrow``), or
- the same as JSON lines, ``<split>.jsonl``, one object per answer with ``question``,
  ``reference_answer``, ``student_answer`` and ``label`` (0 correct, 1 contradictory,
  2 partially correct but incomplete, 3 irrelevant, 4 non domain) or a numeric ``grade``
  in 0..1. ``python bench/external.py convert DIR`` writes these from the parquet files.

Each question's rubric is drafted the way ``sayitout import`` drafts one from a question and
its spoken answer (``sayitout.bank.importer.draft_rubric``): key points are the reference
answer's sentences, the model answer is the reference answer; the guessed terms and
hotwords are then dropped, so the rubric has no paraphrases, no terms, no misconceptions
and no numeric answer. Nothing is fitted on this set here: it is scored zero-shot.

Mohler et al. 2011 (the UNT / "Texas" computer-science set) is kept out of development:
a path that names it is refused.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENV = "SAYITOUT_EXTERNAL_SET"
LABEL_GRADE = {0: 1.0, 2: 0.5, 1: 0.0, 3: 0.0, 4: 0.0}
"""5-way SemEval labels to a 0..1 grade: correct 1, partially correct 0.5, the rest 0."""
RESERVED = ("mohler", "texas", "unt-")


@dataclass(frozen=True)
class ExternalAnswer:
    question_id: str
    question: str
    reference: str
    answer: str
    grade: float


class ExternalDataError(Exception):
    """The external set is missing or unreadable; the message says how to fix it."""


def resolve(path: str | None) -> Path | None:
    """The folder given by ``--external`` or the environment; None when neither is set."""
    value = path or os.environ.get(ENV)
    if not value:
        return None
    p = Path(value).expanduser()
    if any(word in str(p).lower() for word in RESERVED):
        raise ExternalDataError(
            f"{p} looks like Mohler et al. 2011 (UNT/Texas), which is reserved for "
            "independent checks and must not be used for development"
        )
    if not p.exists():
        raise ExternalDataError(f"external set not found: {p} (set --external or ${ENV})")
    return p


def _rows_from_parquet(path: Path) -> list[dict[str, Any]]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ExternalDataError(
            f"{path} is parquet and pyarrow is not installed: run "
            "'python bench/external.py convert DIR' where pyarrow is available, or "
            "'pip install --target DIR pyarrow' and put DIR on PYTHONPATH"
        ) from None
    return pq.read_table(path).to_pylist()


def _find(folder: Path, split: str) -> Path:
    for pattern in (f"{split}.jsonl", f"{split}-*.parquet", f"data/{split}-*.parquet"):
        found = sorted(folder.glob(pattern))
        if found:
            return found[0]
    raise ExternalDataError(f"no '{split}' split in {folder} (expected {split}.jsonl or parquet)")


def load(path: Path, split: str = "train", max_answers: int = 0) -> list[ExternalAnswer]:
    """The answers of one split; with ``max_answers``, an even, deterministic subsample."""
    file = path if path.is_file() else _find(path, split)
    if file.suffix == ".parquet":
        rows = _rows_from_parquet(file)
    else:
        rows = [json.loads(x) for x in file.read_text(encoding="utf-8").splitlines() if x.strip()]
    out = []
    for r in rows:
        grade = r["grade"] if "grade" in r else LABEL_GRADE[int(r["label"])]
        qid = "ext-" + hashlib.sha1(r["question"].encode()).hexdigest()[:10]
        out.append(
            ExternalAnswer(qid, r["question"], r["reference_answer"], r["student_answer"], grade)
        )
    if max_answers and len(out) > max_answers:
        ranked = sorted(out, key=lambda a: hashlib.sha1(a.answer.encode()).hexdigest())
        out = ranked[:max_answers]
    return out


def draft(question_id: str, question: str, reference: str):
    """An import-style rubric: the reference's sentences as key points, nothing else;
    with its question's text, as the bank gives it once the deck is imported."""
    from sayitout.bank.importer import draft_rubric
    from sayitout.bank.models import Rubric

    data = draft_rubric(question_id, reference, question)
    for point in data["key_points"]:
        point["terms"] = []
    data["hotwords"] = []
    return Rubric.model_validate(data).model_copy(update={"question": question})


def pearson(a: list[float], b: list[float]) -> float:
    """Pearson r; NaN when either side is constant (no correlation is defined)."""
    if len(a) < 2 or len(set(a)) < 2 or len(set(b)) < 2:
        return math.nan
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True))
    va = sum((x - ma) ** 2 for x in a)
    vb = sum((y - mb) ** 2 for y in b)
    return cov / math.sqrt(va * vb)


def _summary(values: list[float]) -> dict[str, Any]:
    ok = [v for v in values if not math.isnan(v)]
    if not ok:
        return {"questions": len(values), "defined": 0}
    q = statistics.quantiles(ok, n=4) if len(ok) > 1 else [ok[0]] * 3
    return {
        "questions": len(values),
        "defined": len(ok),
        "mean": round(statistics.fmean(ok), 4),
        "median": round(statistics.median(ok), 4),
        "p25": round(q[0], 4),
        "p75": round(q[2], 4),
    }


def evaluate(scorer, answers: list[ExternalAnswer], min_answers: int = 5) -> dict[str, Any]:
    """Pearson r of the scorer and of a plain cosine with the human grades, overall and
    per question (questions with at least ``min_answers`` answers)."""
    rubrics = {a.question_id: draft(a.question_id, a.question, a.reference) for a in answers}
    from sayitout.scoring import Scorer

    deck = list(rubrics.values())  # imported together: one deck, each other's neighbours
    scorer = Scorer(
        embedder=scorer.embedder,
        params=scorer.params,
        judge=scorer.judge if scorer.judging else None,
        neighbours=lambda _rubric: deck,
    )
    t0 = time.perf_counter()
    scorer.prepare_many(deck)
    results = scorer.score_many([(rubrics[a.question_id], a.answer) for a in answers])
    score_s = time.perf_counter() - t0
    scores = [r.score / 100 for r in results]

    emb = scorer.embedder
    ans_emb = emb.encode([a.answer for a in answers])
    refs = sorted({a.reference for a in answers})
    ref_emb = dict(zip(refs, emb.encode(refs), strict=True))
    cosine = [float(ans_emb[i] @ ref_emb[a.reference]) for i, a in enumerate(answers)]
    grades = [a.grade for a in answers]

    by_q: dict[str, list[int]] = defaultdict(list)
    for i, a in enumerate(answers):
        by_q[a.question_id].append(i)
    per_q_scorer, per_q_cosine = [], []
    for idx in by_q.values():
        if len(idx) < min_answers:
            continue
        g = [grades[i] for i in idx]
        per_q_scorer.append(pearson(g, [scores[i] for i in idx]))
        per_q_cosine.append(pearson(g, [cosine[i] for i in idx]))
    correct = [i for i, g in enumerate(grades) if g == 1.0]
    graded = list(zip(scores, grades, strict=True))
    points = [len(r.key_points) for r in rubrics.values()]
    return {
        "answers": len(answers),
        "questions": len(by_q),
        "key_points_per_rubric": round(statistics.fmean(points), 2),
        "pearson": round(pearson(grades, scores), 4),
        "cosine_pearson": round(pearson(grades, cosine), 4),
        "per_question": _summary(per_q_scorer),
        "cosine_per_question": _summary(per_q_cosine),
        "share_scored_0": round(sum(s == 0 for s in scores) / len(scores), 4),
        "correct_scored_0": sum(scores[i] == 0 for i in correct),
        "correct_answers": len(correct),
        "mean_score_by_grade": {
            str(g): round(100 * statistics.fmean(s for s, x in graded if x == g), 1)
            for g in sorted(set(grades))
        },
        "answers_per_s": round(len(answers) / score_s, 1),
    }


def convert(folder: Path) -> None:
    """Write ``<split>.jsonl`` beside each ``<split>-*.parquet`` (needs pyarrow)."""
    for file in sorted(folder.glob("*.parquet")):
        split = file.name.split("-0")[0]
        rows = _rows_from_parquet(file)
        out = folder / f"{split}.jsonl"
        with out.open("w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(f"{out}: {len(rows)} answers")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "convert":
        convert(Path(sys.argv[2]))
    else:
        print("usage: python bench/external.py convert DIR", file=sys.stderr)
        sys.exit(2)
