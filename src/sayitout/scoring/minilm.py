"""all-MiniLM-L6-v2 without torch: its tokenizer and pooling, and a float32 NumPy encoder.

Importing torch, transformers and sentence-transformers takes three to seven seconds
on a small machine, longer than scoring an answer, so on the CPU the model runs without
them. :class:`MiniLM` holds what every such runtime shares: the configuration, the same
``tokenizers`` tokenizer and the same ``model.safetensors`` file (checked against its
pinned digest first), and mean pooling. :class:`NumpyMiniLM` is the BERT encoder (6
layers, 384 wide, 12 heads) written out in NumPy, in float32:
``tests/scoring/test_minilm_numpy.py`` holds it to the torch model (the same token ids,
embeddings equal to float32 rounding). The scorer's default on the CPU is its int8
sibling, :mod:`sayitout.scoring.minilm_int8`, twice as fast.

CUDA still goes through torch (``Embedder`` picks); ``SAYITOUT_EMBEDDER`` picks a CPU
runtime (``embedder.RUNTIMES``).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np

MAX_SEQ_LENGTH = 256
"""sentence-transformers' limit for this model (``sentence_bert_config.json``)."""
FFN_ROWS = 192
"""The most tokens per block of the feed-forward layers (``NumpyMiniLM._feed_forward``);
a block's 1,536-wide intermediate (1.2 MB) stays in a core's 2 MB L2 cache."""


_ERF_P = tuple(
    np.float32(c)
    for c in (
        -2.72614225801306e-10,
        2.77068142495902e-08,
        -2.10102402082508e-06,
        -5.69250639462346e-05,
        -7.34990630326855e-04,
        -2.95459980854025e-03,
        -1.60960333262415e-02,
    )
)
_ERF_Q = tuple(
    np.float32(c)
    for c in (
        -1.45660718464996e-05,
        -2.13374055278905e-04,
        -1.68282697438203e-03,
        -7.37332916720468e-03,
        -1.42647390514189e-02,
    )
)
"""Eigen's (and XLA's) float32 erf: ``x P(x^2) / Q(x^2)`` on ``[-4, 4]``, where erf is 1
to float32 precision beyond. Within 4.2e-7 of erf, as close as the Numerical Recipes
erfc it replaced (3.8e-7), with no ``exp``, ``abs`` or ``copysign``: the GELU took a
third less time (``docs/evaluation.md``, eighteenth round, "Speed")."""
GELU_ROWS = 16
"""Rows of a GELU input computed at a time: the temporaries of a 16 x 1,536 block stay
in the core's cache. On 128 rows at once they spill, and the same arithmetic took about
six times as long (``docs/evaluation.md``, fifth round, "Speed")."""
_INV_SQRT2 = np.float32(1 / np.sqrt(2.0))


def erf(x: np.ndarray) -> np.ndarray:
    """erf of a float32 array, elementwise, as a new array."""
    z = np.clip(x, np.float32(-4.0), np.float32(4.0))
    z2 = z * z
    p = z2 * _ERF_P[0]
    p += _ERF_P[1]
    for c in _ERF_P[2:]:  # Horner, in place
        p *= z2
        p += c
    p *= z
    q = z2 * _ERF_Q[0]
    q += _ERF_Q[1]
    for c in _ERF_Q[2:]:
        q *= z2
        q += c
    p /= q
    return np.asarray(p)


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
    """Layer norm over the last axis, as a new array (``x`` is left as it is)."""
    out = x - x.mean(axis=-1, keepdims=True)
    var = np.einsum("...i,...i->...", out, out)[..., None]
    var /= np.float32(x.shape[-1])
    var += np.float32(eps)
    np.sqrt(var, out=var)
    out /= var
    out *= weight
    out += bias
    return np.asarray(out)


class MiniLM:
    """all-MiniLM-L6-v2's configuration and tokenizer, and the sentence embeddings pooled
    from the last hidden states a runtime computes (``hidden``): :class:`NumpyMiniLM` here,
    :class:`~sayitout.scoring.minilm_int8.Int8MiniLM` through CTranslate2."""

    def __init__(self, model_dir: Path) -> None:
        from tokenizers import Tokenizer

        self.model_dir = model_dir
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
            raise ValueError(f"{model_dir}: not a BERT model with GELU")
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.max_positions = int(config["max_position_embeddings"])
        self.width = int(config["hidden_size"])
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        cls_id, sep_id = self.tokenizer.token_to_id("[CLS]"), self.tokenizer.token_to_id("[SEP]")
        if cls_id is None or sep_id is None:
            raise ValueError(f"{model_dir}: the tokenizer has no [CLS]/[SEP] tokens")
        self.cls_id, self.sep_id = int(cls_id), int(sep_id)
        self.pad_id = int(config.get("pad_token_id", 0) or 0)

    def weights(self) -> dict[str, np.ndarray]:
        """The model's tensors by their BERT names (``embeddings.word_embeddings.weight``)."""
        from safetensors.numpy import load_file

        w = load_file(str(self.model_dir / "model.safetensors"))
        return {k.removeprefix("bert."): v for k, v in w.items()}

    # ----------------------------------------------------------------- tokens
    def tokenize(self, texts: list[str]) -> tuple[list[list[int]], list[np.ndarray]]:
        """Word-piece ids and character offsets, without special tokens or truncation."""
        encs = self.tokenizer.encode_batch(texts, add_special_tokens=False)
        ids = [list(e.ids) for e in encs]
        offsets = [np.asarray(e.offsets, dtype=np.int64).reshape(-1, 2) for e in encs]
        return ids, offsets

    def hidden(self, input_ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Last hidden states, shape (batch, length, 384), for padded ``input_ids``;
        ``mask`` is 1 on each row's real tokens, which come first, and 0 on its padding
        (whose states are left unspecified)."""
        raise NotImplementedError

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """Mean-pooled, L2-normalised sentence embeddings, as sentence-transformers computes
        them (texts cut at 256 tokens, special tokens included)."""
        ids, _ = self.tokenize(texts)
        rows: list[list[int]] = [
            [self.cls_id, *seq[: MAX_SEQ_LENGTH - 2], self.sep_id] for seq in ids
        ]
        out = np.zeros((len(texts), self.width), np.float32)
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


class NumpyMiniLM(MiniLM):
    """The BERT encoder in NumPy, float32: the reference runtime, equal to torch."""

    def __init__(self, model_dir: Path) -> None:
        super().__init__(model_dir)
        self.w = self.weights()
        # Pre-transposed projection matrices: x @ W.T without a copy per call.
        self._t: dict[str, np.ndarray] = {
            k: np.ascontiguousarray(v.T) for k, v in self.w.items() if k.endswith("dense.weight")
        }
        for i in range(self.layers):
            p = f"encoder.layer.{i}.attention.self."
            # The attention scale 1/sqrt(head width) folded into the query projection:
            # one multiply at load, not one over every score matrix per layer.
            scale = np.float32(1.0 / np.sqrt(self.w[p + "query.weight"].shape[0] // self.heads))
            qkv = [self.w[p + n + ".weight"] for n in ("query", "key", "value")]
            qkv_bias = [self.w[p + n + ".bias"] for n in ("query", "key", "value")]
            qkv[0], qkv_bias[0] = qkv[0] * scale, qkv_bias[0] * scale
            self._t[p + "qkv"] = np.ascontiguousarray(np.concatenate(qkv, axis=0).T)
            self._t[p + "qkv.bias"] = np.concatenate(qkv_bias)

    # ---------------------------------------------------------------- forward
    def hidden(self, input_ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w, t = self.w, self._t
        batch, length = input_ids.shape
        types = w["embeddings.token_type_embeddings.weight"]
        x = (
            w["embeddings.word_embeddings.weight"][input_ids]
            + w["embeddings.position_embeddings.weight"][:length][None, :, :]
            + types[0][None, None, :]
        )
        x = layer_norm(
            x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps
        )
        width = x.shape[-1]
        head = width // self.heads
        lengths = mask.sum(axis=1).astype(np.int64)
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            qkv = x @ t[p + "attention.self.qkv"]
            qkv += t[p + "attention.self.qkv.bias"]
            qkv = qkv.reshape(batch, length, 3, self.heads, head).transpose(2, 0, 3, 1, 4)
            ctx = np.zeros((batch, length, self.heads, head), dtype=np.float32)
            for b in range(batch):  # one sequence's scores at a time stay in cache
                n = int(lengths[b])  # its real tokens: padding is neither a key nor read
                if n == 0:
                    continue
                q, k, v = qkv[0, b, :, :n], qkv[1, b, :, :n], qkv[2, b, :, :n]
                scores = q @ k.transpose(0, 2, 1)  # already scaled (the query weights are)
                scores -= scores.max(axis=-1, keepdims=True)
                np.exp(scores, out=scores)
                total = scores.sum(axis=-1, keepdims=True)
                np.reciprocal(total, out=total)
                scores *= total
                ctx[b, :n] = (scores @ v).transpose(1, 0, 2)
            attn = ctx.reshape(batch, length, width) @ t[p + "attention.output.dense.weight"]
            attn += w[p + "attention.output.dense.bias"]
            attn += x
            x = layer_norm(
                attn,
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
                self.eps,
            )
            x = self._feed_forward(x, p)
        return x.astype(np.float32, copy=False)

    def _feed_forward(self, x: np.ndarray, p: str) -> np.ndarray:
        """The position-wise feed-forward block and its layer norm, in blocks of equal
        size of at most ``FFN_ROWS`` tokens: the 1,536-wide intermediate of a block stays
        in the CPU's cache, so the time per token does not grow with the batch (a whole
        long answer's intermediate is several megabytes, and the elementwise GELU then
        runs from memory), and no block is a small remainder that runs at a fraction of
        the matrix product's speed."""
        w, t = self.w, self._t
        shape = x.shape
        flat = x.reshape(-1, shape[-1])
        out = np.empty_like(flat)
        w1, b1 = t[p + "intermediate.dense.weight"], w[p + "intermediate.dense.bias"]
        w2, b2 = t[p + "output.dense.weight"], w[p + "output.dense.bias"]
        ln_w, ln_b = w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]
        blocks = -(-len(flat) // FFN_ROWS)
        cuts = [i * len(flat) // blocks for i in range(blocks + 1)]
        for a, z in itertools.pairwise(cuts):
            xb = flat[a:z]
            mid = xb @ w1
            mid += b1
            y = gelu(mid) @ w2
            y += b2
            y += xb
            out[a:z] = layer_norm(y, ln_w, ln_b, self.eps)
        return out.reshape(shape)
