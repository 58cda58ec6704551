"""all-MiniLM-L6-v2 run with NumPy alone: the same weights, the same embeddings.

Importing torch, transformers and sentence-transformers takes three to seven seconds
on a small machine, longer than scoring an answer. For one command-line run on a
CPU that start-up is the whole wait, so on the CPU the embedder runs the model here
instead: a BERT encoder (6 layers, 384 wide, 12 heads) written out in NumPy, fed by
the same ``tokenizers`` tokenizer and the same ``model.safetensors`` file (checked
against its pinned digest first). ``tests/scoring/test_minilm_numpy.py`` holds it to
the torch model: the same token ids and embeddings equal to float32 rounding.

CUDA still goes through torch (``Embedder`` picks); ``SAYITOUT_EMBEDDER=torch``
forces torch on the CPU too.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

MAX_SEQ_LENGTH = 256
"""sentence-transformers' limit for this model (``sentence_bert_config.json``)."""
FFN_ROWS = 128
"""Tokens per block of the feed-forward layers (``NumpyMiniLM._feed_forward``)."""


_ERFC = tuple(
    np.float32(c)
    for c in (
        -1.26551223,
        1.00002368,
        0.37409196,
        0.09678418,
        -0.18628806,
        0.27886807,
        -1.13520398,
        1.48851587,
        -0.82215223,
        0.17087277,
    )
)
"""Numerical Recipes' erfc Chebyshev fit (``erfc(z) = t exp(-z^2 + P(t))``, t = 1/(1+z/2)):
erf to within 1.2e-7, or about 3e-7 in float32, below what the embeddings resolve."""
GELU_ROWS = 16
"""Rows of a GELU input computed at a time: the dozen temporaries of a 16 x 1,536 block
stay in the core's cache. On 128 rows at once they spill, and the same arithmetic took
about six times as long (``docs/evaluation.md``, fifth round, "Speed")."""
_INV_SQRT2 = np.float32(1 / np.sqrt(2.0))


def erf(x: np.ndarray) -> np.ndarray:
    """erf of a float32 array, elementwise, as a new array."""
    z = np.abs(x)
    t = z * np.float32(0.5)
    t += 1
    np.reciprocal(t, out=t)
    p = t * _ERFC[-1]
    for c in _ERFC[-2:0:-1]:  # Horner, in place
        p += c
        p *= t
    p += _ERFC[0]
    z *= z
    p -= z
    np.exp(p, out=p)
    p *= t  # erfc(|x|)
    np.subtract(1, p, out=p)
    return np.asarray(np.copysign(p, x, out=p))


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU (erf, not the tanh shortcut), in float32 like torch's; computed in
    place, ``GELU_ROWS`` rows at a time, and returned (a copy if ``x`` is not contiguous)."""
    x = np.ascontiguousarray(x)
    flat = x.reshape(-1, x.shape[-1])
    for a in range(0, len(flat), GELU_ROWS):
        block = flat[a : a + GELU_ROWS]
        e = erf(block * _INV_SQRT2)
        e += 1
        e *= 0.5
        block *= e
    return x


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return np.asarray((x - mean) / np.sqrt(var + eps) * weight + bias)


class NumpyMiniLM:
    """Tokenizer plus BERT encoder; ``hidden`` gives the last hidden states."""

    def __init__(self, model_dir: Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
            raise ValueError(f"{model_dir}: not a BERT model with GELU")
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.max_positions = int(config["max_position_embeddings"])
        w = load_file(str(model_dir / "model.safetensors"))
        self.w = {k.removeprefix("bert."): v for k, v in w.items()}
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        cls_id, sep_id = self.tokenizer.token_to_id("[CLS]"), self.tokenizer.token_to_id("[SEP]")
        if cls_id is None or sep_id is None:
            raise ValueError(f"{model_dir}: the tokenizer has no [CLS]/[SEP] tokens")
        self.cls_id, self.sep_id = int(cls_id), int(sep_id)
        self.pad_id = int(config.get("pad_token_id", 0) or 0)
        # Pre-transposed projection matrices: x @ W.T without a copy per call.
        self._t: dict[str, np.ndarray] = {
            k: np.ascontiguousarray(v.T) for k, v in self.w.items() if k.endswith("dense.weight")
        }
        for i in range(self.layers):
            p = f"encoder.layer.{i}.attention.self."
            qkv = [self.w[p + n + ".weight"] for n in ("query", "key", "value")]
            self._t[p + "qkv"] = np.ascontiguousarray(np.concatenate(qkv, axis=0).T)
            self._t[p + "qkv.bias"] = np.concatenate(
                [self.w[p + n + ".bias"] for n in ("query", "key", "value")]
            )

    # ----------------------------------------------------------------- tokens
    def tokenize(self, texts: list[str]) -> tuple[list[list[int]], list[np.ndarray]]:
        """Word-piece ids and character offsets, without special tokens or truncation."""
        encs = self.tokenizer.encode_batch(texts, add_special_tokens=False)
        ids = [list(e.ids) for e in encs]
        offsets = [np.asarray(e.offsets, dtype=np.int64).reshape(-1, 2) for e in encs]
        return ids, offsets

    # ---------------------------------------------------------------- forward
    def hidden(
        self, input_ids: np.ndarray, mask: np.ndarray, token_types: np.ndarray | None = None
    ) -> np.ndarray:
        """Last hidden states, shape (batch, length, 384), for padded ``input_ids``;
        ``token_types`` (0 first segment, 1 second) for a pair, all 0 when omitted."""
        w, t = self.w, self._t
        batch, length = input_ids.shape
        types = w["embeddings.token_type_embeddings.weight"]
        x = (
            w["embeddings.word_embeddings.weight"][input_ids]
            + w["embeddings.position_embeddings.weight"][:length][None, :, :]
            + (types[0][None, None, :] if token_types is None else types[token_types])
        )
        x = layer_norm(
            x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps
        )
        width = x.shape[-1]
        head = width // self.heads
        scale = np.float32(1.0 / np.sqrt(head))
        bias = np.where(mask[:, None, None, :] > 0, 0.0, np.finfo(np.float32).min)
        bias = bias.astype(np.float32)
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            qkv = x @ t[p + "attention.self.qkv"] + t[p + "attention.self.qkv.bias"]
            qkv = qkv.reshape(batch, length, 3, self.heads, head).transpose(2, 0, 3, 1, 4)
            ctx = np.empty((batch, self.heads, length, head), dtype=np.float32)
            for b in range(batch):  # one sequence's scores at a time stay in cache
                q, k, v = qkv[0, b], qkv[1, b], qkv[2, b]
                scores = (q @ k.transpose(0, 2, 1)) * scale + bias[b]
                scores -= scores.max(axis=-1, keepdims=True)
                np.exp(scores, out=scores)
                scores /= scores.sum(axis=-1, keepdims=True)
                ctx[b] = scores @ v
            ctx = ctx.transpose(0, 2, 1, 3).reshape(batch, length, width)
            attn = (
                ctx @ t[p + "attention.output.dense.weight"] + w[p + "attention.output.dense.bias"]
            )
            x = layer_norm(
                attn + x,
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
                self.eps,
            )
            x = self._feed_forward(x, p)
        return x.astype(np.float32, copy=False)

    def _feed_forward(self, x: np.ndarray, p: str) -> np.ndarray:
        """The position-wise feed-forward block and its layer norm, ``FFN_ROWS`` tokens
        at a time: the 1,536-wide intermediate of a block stays in the CPU's cache, so
        the time per token does not grow with the batch (a whole long answer's
        intermediate is several megabytes, and the elementwise GELU then runs from
        memory)."""
        w, t = self.w, self._t
        shape = x.shape
        flat = x.reshape(-1, shape[-1])
        out = np.empty_like(flat)
        w1, b1 = t[p + "intermediate.dense.weight"], w[p + "intermediate.dense.bias"]
        w2, b2 = t[p + "output.dense.weight"], w[p + "output.dense.bias"]
        ln_w, ln_b = w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]
        for a in range(0, len(flat), FFN_ROWS):
            xb = flat[a : a + FFN_ROWS]
            mid = gelu(xb @ w1 + b1)
            out[a : a + FFN_ROWS] = layer_norm(mid @ w2 + b2 + xb, ln_w, ln_b, self.eps)
        return out.reshape(shape)

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """Mean-pooled, L2-normalised sentence embeddings, as sentence-transformers computes
        them (texts cut at 256 tokens, special tokens included)."""
        ids, _ = self.tokenize(texts)
        rows: list[list[int]] = [
            [self.cls_id, *seq[: MAX_SEQ_LENGTH - 2], self.sep_id] for seq in ids
        ]
        out = np.zeros((len(texts), self.w["embeddings.LayerNorm.weight"].shape[0]), np.float32)
        order = sorted(range(len(rows)), key=lambda r: len(rows[r]))
        for b in range(0, len(order), batch_size):
            group = order[b : b + batch_size]
            width = max(len(rows[r]) for r in group)
            input_ids = np.full((len(group), width), self.pad_id, dtype=np.int64)
            mask = np.zeros((len(group), width), dtype=np.float32)
            for j, r in enumerate(group):
                input_ids[j, : len(rows[r])] = rows[r]
                mask[j, : len(rows[r])] = 1.0
            h = self.hidden(input_ids, mask)
            pooled = (h * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)[
                :, None
            ]
            norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            out[group] = pooled / norms
        return out
