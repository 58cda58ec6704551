"""The project's own judge of "does this answer state that key point": a cross-encoder
built on all-MiniLM-L6-v2, run with NumPy.

It reads "[CLS] answer [SEP] key point [SEP]" (token types 0 then 1) through the shipped
MiniLM whose top layers were retrained (``bench/train_judge.py``) and a head that maps
the [CLS] state and the mean of all token states to one logit: the probability that the
answer states the key point, correctly. The judge's file holds only the changed layers
and the head (fp16); the frozen lower layers are MiniLM's own, shared with the
embedder's copy.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np

HEAD_KEYS = ("judge.head.weight", "judge.head.bias")
"""The head's tensors in the judge's file; every other tensor replaces MiniLM's own."""
MAX_LEN = 128
"""Tokens per pair, [CLS] and both [SEP] included: the premise is cut to fit."""
MAX_HYPOTHESIS = 48
"""Tokens of the key point kept at most (key points are one sentence)."""


def pair_ids(
    tokenizer: Any, premise: str, hypothesis: str, max_len: int = MAX_LEN
) -> tuple[list[int], list[int]]:
    """Token ids and token types of one (premise, hypothesis) pair, BERT's layout; the
    premise loses its tail when the pair is too long."""
    cls_id, sep_id = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    p = tokenizer.encode(premise, add_special_tokens=False).ids
    h = tokenizer.encode(hypothesis, add_special_tokens=False).ids[:MAX_HYPOTHESIS]
    p = p[: max(1, max_len - len(h) - 3)]
    ids = [cls_id, *p, sep_id, *h, sep_id]
    return ids, [0] * (len(p) + 2) + [1] * (len(h) + 1)


class PairJudge:
    """MiniLM with the judge's layers and head; ``probs`` scores (premise, hypothesis)
    pairs. ``base`` is the embedder's NumPy MiniLM: its arrays are shared, not copied."""

    def __init__(self, base: Any, weights: dict[str, np.ndarray]) -> None:
        head_w, head_b = (np.asarray(weights[k], dtype=np.float32) for k in HEAD_KEYS)
        model = copy.copy(base)
        model.w = dict(base.w)
        model._t = dict(base._t)
        changed = {k: np.asarray(v, dtype=np.float32) for k, v in weights.items()}
        for key in HEAD_KEYS:
            changed.pop(key)
        unknown = [k for k in changed if k not in base.w]
        if unknown:
            raise ValueError(f"the judge's file names tensors MiniLM lacks: {unknown[:3]}")
        for key, value in changed.items():
            if value.shape != base.w[key].shape:
                raise ValueError(f"{key}: shape {value.shape}, MiniLM's is {base.w[key].shape}")
            model.w[key] = value
            if key.endswith("dense.weight"):
                model._t[key] = np.ascontiguousarray(value.T)
        for i in range(model.layers):
            p = f"encoder.layer.{i}.attention.self."
            if any(k.startswith(p) for k in changed):
                qkv = [model.w[p + n + ".weight"] for n in ("query", "key", "value")]
                model._t[p + "qkv"] = np.ascontiguousarray(np.concatenate(qkv, axis=0).T)
                model._t[p + "qkv.bias"] = np.concatenate(
                    [model.w[p + n + ".bias"] for n in ("query", "key", "value")]
                )
        self.model = model
        self.head_w = head_w.reshape(-1)
        self.head_b = float(head_b.reshape(-1)[0])

    @classmethod
    def from_file(cls, base: Any, path: Path) -> PairJudge:
        from safetensors.numpy import load_file

        return cls(base, load_file(str(path)))

    def logits(self, pairs: list[tuple[str, str]], batch_size: int = 16) -> np.ndarray:
        tok = self.model.tokenizer
        rows = [pair_ids(tok, p, h) for p, h in pairs]
        out = np.zeros(len(rows), dtype=np.float32)
        order = sorted(range(len(rows)), key=lambda r: len(rows[r][0]))
        for b in range(0, len(order), batch_size):
            group = order[b : b + batch_size]
            width = max(len(rows[r][0]) for r in group)
            ids = np.zeros((len(group), width), dtype=np.int64)
            types = np.zeros_like(ids)
            mask = np.zeros((len(group), width), dtype=np.float32)
            for j, r in enumerate(group):
                n = len(rows[r][0])
                ids[j, :n], types[j, :n], mask[j, :n] = rows[r][0], rows[r][1], 1.0
            h = self.model.hidden(ids, mask, types)
            mean = (h * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
            feats = np.concatenate([h[:, 0], mean], axis=1)
            out[group] = feats @ self.head_w + self.head_b
        return out

    def probs(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        """The probability, per pair, that the premise states the hypothesis."""
        if not pairs:
            return np.zeros(0, dtype=np.float32)
        return np.asarray(1.0 / (1.0 + np.exp(-self.logits(pairs))), dtype=np.float32)
