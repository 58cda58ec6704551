"""The project's own judge of "does this answer state that key point", run with NumPy.

The scorer's ``match`` compares a key point with one window of the answer at a time, by
embedding cosine and shared words. It misses a point said in other words ("I'd take
smaller steps, say a tenth" is far from "lower the learning rate") and cannot tell who
does what to whom. The judge reads the key point *against the whole answer*: the key
point's tokens pass through two transformer layers (all-MiniLM-L6-v2's last two, retrained
by ``bench/train_judge.py``) in which they attend to the answer's contextual token vectors
as well as to each other, and a head maps their mean and maximum to the probability that
the answer states the key point, correctly.

It costs little because nothing of the answer is run again: its token vectors are the
ones the embedder already computed for the windows (``Embedder.encode_spans_and_states``,
one pass per answer), and a key point's vectors are computed once per prepared rubric.
Per answer the judge projects the answer's vectors to keys and values once per layer,
then runs the key points' few tokens through the two layers, all key points together.

The weights (``assets/models/judge/judge.safetensors``, fp16, checked against the digest
pinned in :mod:`sayitout.integrity`) were fitted on development data only: SciEntsBank
train and the calibration set's development part (``docs/design.md``, "The judge").
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sayitout import integrity
from sayitout.errors import ModelError
from sayitout.scoring.minilm import gelu, layer_norm

LAYER_KEYS = (
    "query",
    "key",
    "value",
    "output",
    "ln1",
    "ff1",
    "ff2",
    "ln2",
)
"""The tensors of one judge layer, ``layer.{i}.{key}.weight`` / ``.bias`` in the file."""
MAX_MEMORY = 512
"""Answer tokens the judge reads at most (the first ones); training read as many."""
HEADS = 12
EPS = 1e-12
MODEL_NAME = "sayitout-judge"
"""The judge's name in :mod:`sayitout.integrity`."""


class Judge:
    """``probs(memory, points)``: for each key point's token vectors, the probability that
    the answer whose token vectors are ``memory`` states it."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        w = {k: np.asarray(v, dtype=np.float32) for k, v in weights.items()}
        try:
            self.layers = int(w["layers"].reshape(-1)[0])
            self.segment = w["segment"].reshape(-1)
            self.head_w = w["head.weight"].reshape(-1)
            self.head_b = float(w["head.bias"].reshape(-1)[0])
            self._p: list[dict[str, np.ndarray]] = []
            for i in range(self.layers):
                layer: dict[str, np.ndarray] = {}
                for key in LAYER_KEYS:
                    weight, bias = w[f"layer.{i}.{key}.weight"], w[f"layer.{i}.{key}.bias"]
                    # x @ W.T: stored transposed once, for linear layers; LayerNorms as is
                    layer[key] = weight if key.startswith("ln") else np.ascontiguousarray(weight.T)
                    layer[key + ".b"] = bias
                self._p.append(layer)
        except KeyError as exc:
            raise ValueError(f"the judge's weights lack the tensor {exc.args[0]!r}") from exc
        self.width = self.segment.shape[0]
        if self.head_w.shape[0] != 2 * self.width:
            raise ValueError("the judge's head does not match its width")

    @classmethod
    def from_file(cls, path: Path) -> Judge:
        from safetensors.numpy import load_file

        return cls(load_file(str(path)))

    def probs(self, memory: np.ndarray, points: list[np.ndarray]) -> np.ndarray:
        """One probability per key point (``points``: each a (tokens, 384) array of the key
        point's contextual token vectors; ``memory``: the answer's, (tokens, 384))."""
        if not points:
            return np.zeros(0, dtype=np.float32)
        if len(memory) == 0:
            return np.zeros(len(points), dtype=np.float32)
        memory = np.asarray(memory[:MAX_MEMORY], dtype=np.float32) + self.segment
        lengths = np.array([len(p) for p in points], dtype=np.int64)
        # Every key point token is a row, without padding: one product per weight, and
        # each token attends to the answer and to its own key point's tokens only.
        x = np.concatenate([np.asarray(p, dtype=np.float32) for p in points], axis=0)
        rows, width = x.shape
        if rows == 0:
            return np.zeros(len(points), dtype=np.float32)
        owner = np.repeat(np.arange(len(points)), lengths)
        own_bias = np.where(owner[:, None] == owner[None, :], 0.0, -1e9).astype(np.float32)
        head = width // HEADS
        scale = np.float32(1.0 / np.sqrt(head))
        for layer in self._p:
            # (heads, head width, memory tokens) and (heads, memory tokens, head width)
            mem_k = (memory @ layer["key"] + layer["key.b"]).reshape(-1, HEADS, head)
            mem_v = (memory @ layer["value"] + layer["value.b"]).reshape(-1, HEADS, head)
            q, k, v = (
                (x @ layer[n] + layer[n + ".b"]).reshape(rows, HEADS, head).transpose(1, 0, 2)
                for n in LAYER_KEYS[:3]
            )
            q = q * scale
            to_mem = q @ mem_k.transpose(1, 2, 0)  # (heads, rows, memory tokens)
            to_own = q @ k.transpose(0, 2, 1) + own_bias  # (heads, rows, rows)
            top = np.maximum(to_mem.max(axis=-1, keepdims=True), to_own.max(-1, keepdims=True))
            to_mem -= top
            to_own -= top
            np.exp(to_mem, out=to_mem)
            np.exp(to_own, out=to_own)
            total = to_mem.sum(axis=-1, keepdims=True) + to_own.sum(axis=-1, keepdims=True)
            ctx = (to_mem @ mem_v.transpose(1, 0, 2) + to_own @ v) / total
            ctx = ctx.transpose(1, 0, 2).reshape(rows, width)
            x = layer_norm(
                x + ctx @ layer["output"] + layer["output.b"], layer["ln1"], layer["ln1.b"], EPS
            )
            mid = gelu(x @ layer["ff1"] + layer["ff1.b"])
            x = layer_norm(
                x + mid @ layer["ff2"] + layer["ff2.b"], layer["ln2"], layer["ln2.b"], EPS
            )
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        filled = lengths > 0
        mean = np.zeros((len(points), width), dtype=np.float32)
        top_token = np.full((len(points), width), -1e4, dtype=np.float32)
        mean[filled] = np.add.reduceat(x, starts[filled], axis=0) / lengths[filled, None]
        top_token[filled] = np.maximum.reduceat(x, starts[filled], axis=0)
        logits = np.concatenate([mean, top_token], axis=1) @ self.head_w + self.head_b
        return np.asarray(1.0 / (1.0 + np.exp(-logits)), dtype=np.float32)


def load_bundled_judge() -> Judge:
    """The judge that ships with sayitout, its file checked against the pinned digest."""
    root = integrity.verify_bundled(MODEL_NAME)
    try:
        return Judge.from_file(root / "judge.safetensors")
    except (OSError, ValueError) as exc:
        raise ModelError(
            f"The bundled judge model could not be read: {exc}",
            "reinstall sayitout (`make setup`) to restore assets/models/judge",
        ) from exc
