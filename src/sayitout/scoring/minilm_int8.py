"""all-MiniLM-L6-v2 in int8 through CTranslate2: the scorer's model on the CPU.

The float32 forward pass was four fifths of scoring an answer (45-51 ms of 52-67 ms for
150 words on two cores), and NumPy's matrix products were already near what two cores
do in float32. CTranslate2, which faster-whisper already installs, runs the same
encoder with int8 weights and int8 activations (per-row scales, int32 sums) about twice
as fast, and its integer sums are exact, so an answer gets the same score on any CPU.

No converted model is shipped or cached: at load the weights of the pinned
``model.safetensors`` are quantized as CTranslate2's own converter quantizes them (per
output row, ``round(w * 127 / max|w|)``) and written, in memory, in CTranslate2's model
format (``model_files``); ``tests/scoring/test_minilm_int8.py`` holds those bytes equal
to the converter's. That takes about 0.3 s and needs neither torch nor
``ctranslate2.specs`` (which imports torch, a second or more).

The embeddings differ from float32's by quantization noise: sentence cosines of 0.99 to
1.0 with the float32 ones. ``docs/design.md`` ("The model's runtime") has what that
moved on the calibration set.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np

from sayitout.scoring.minilm import MiniLM

BINARY_VERSION = 6
"""CTranslate2's model file format (``ctranslate2.specs.model_spec``)."""
SPEC = ("TransformerEncoderSpec", 1)
"""The specification name and revision CTranslate2 reads an encoder-only model as."""
_DTYPES = {np.dtype(np.float32): 0, np.dtype(np.int8): 1, np.dtype(np.int16): 2}
"""CTranslate2's type ids (``DataType`` in its ``types.h``)."""
_GELU, _MERGE_ADD = 3, 1
"""``common_spec.Activation.GELU`` and ``common_spec.EmbeddingsMerge.ADD``."""


def quantize(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 rows and their float32 scales, as CTranslate2's converter computes them:
    ``rint(w * 127 / max|row|)``, a zero row scaled by 1."""
    w = np.asarray(w, dtype=np.float32)
    amax = np.abs(w).max(axis=1)
    amax[amax == 0] = 127.0
    amax = np.maximum(amax, np.float32(127) / np.finfo(np.float32).max)
    scale = (np.float32(127.0) / amax).astype(np.float32)
    return np.rint(w * scale[:, None]).astype(np.int8), scale


def _variables(w: dict[str, np.ndarray], heads: int, layers: int) -> dict[str, np.ndarray]:
    """The encoder's variables by CTranslate2 name, int8 where CTranslate2 quantizes."""
    out: dict[str, np.ndarray] = {}

    def int8(name: str, value: np.ndarray) -> None:
        out[name + "/weight"], out[name + "/weight_scale"] = quantize(value)

    def dense(name: str, bert: str) -> None:
        int8(name, w[bert + ".weight"])
        out[name + "/bias"] = w[bert + ".bias"]

    def norm(name: str, bert: str) -> None:
        out[name + "/gamma"], out[name + "/beta"] = w[bert + ".weight"], w[bert + ".bias"]

    e = "encoder/"
    out[e + "activation"] = np.array(_GELU, np.int8)
    int8(e + "embeddings_0", w["embeddings.word_embeddings.weight"])
    int8(e + "embeddings_1", w["embeddings.token_type_embeddings.weight"])
    out[e + "embeddings_merge"] = np.array(_MERGE_ADD, np.int8)
    for i in range(layers):
        layer, bert = f"{e}layer_{i}/", f"encoder.layer.{i}."
        dense(layer + "ffn/linear_0", bert + "intermediate.dense")
        dense(layer + "ffn/linear_1", bert + "output.dense")
        norm(layer + "ffn/layer_norm", bert + "output.LayerNorm")
        qkv = [bert + f"attention.self.{n}" for n in ("query", "key", "value")]
        int8(layer + "self_attention/linear_0", np.concatenate([w[n + ".weight"] for n in qkv]))
        out[layer + "self_attention/linear_0/bias"] = np.concatenate([w[n + ".bias"] for n in qkv])
        dense(layer + "self_attention/linear_1", bert + "attention.output.dense")
        norm(layer + "self_attention/layer_norm", bert + "attention.output.LayerNorm")
    norm(e + "layernorm_embedding", "embeddings.LayerNorm")
    out[e + "multi_query_attention"] = np.array(0, np.int8)
    out[e + "num_heads"] = np.array(heads, np.int16)
    out[e + "position_encodings/encodings"] = w["embeddings.position_embeddings.weight"]
    out[e + "pre_norm"] = np.array(0, np.int8)
    out[e + "scale_embeddings"] = np.array(0, np.int8)
    return dict(sorted(out.items()))


def _string(s: str) -> bytes:
    raw = s.encode("utf-8") + b"\0"
    return struct.pack("H", len(raw)) + raw


def model_bin(variables: dict[str, np.ndarray]) -> bytes:
    """``model.bin`` in CTranslate2's format: version, spec, revision, then each variable
    (name, rank, dimensions, type id, byte count, little-endian data), and no aliases."""
    parts = [struct.pack("I", BINARY_VERSION), _string(SPEC[0]), struct.pack("I", SPEC[1])]
    parts.append(struct.pack("I", len(variables)))
    for name, value in variables.items():
        data = np.ascontiguousarray(value).tobytes()
        parts += [_string(name), struct.pack("B", value.ndim)]
        parts += [struct.pack("I", d) for d in value.shape]
        parts += [struct.pack("B", _DTYPES[value.dtype]), struct.pack("I", len(data)), data]
    parts.append(struct.pack("I", 0))
    return b"".join(parts)


def model_files(model: MiniLM) -> dict[str, bytes]:
    """The files of a CTranslate2 int8 model of ``model``'s weights, by name."""
    vocab = [model.tokenizer.id_to_token(i) for i in range(model.tokenizer.get_vocab_size())]
    config = {
        "bos_token": "<s>",
        "eos_token": "</s>",
        "layer_norm_epsilon": model.eps,
        "multi_query_attention": False,
        "unk_token": "<unk>",
    }
    return {
        "model.bin": model_bin(_variables(model.weights(), model.heads, model.layers)),
        "config.json": json.dumps(config).encode(),
        "vocabulary.json": json.dumps(vocab, ensure_ascii=False).encode(),
    }


class Int8MiniLM(MiniLM):
    """The BERT encoder through CTranslate2 with int8 weights, on the CPU."""

    def __init__(self, model_dir: Path, threads: int) -> None:
        import ctranslate2

        super().__init__(model_dir)
        self._encoder = ctranslate2.Encoder(
            f"{model_dir}#int8",  # with ``files``, the path is only a name
            device="cpu",
            compute_type="int8",
            intra_threads=threads,
            files=model_files(self),
        )

    def hidden(self, input_ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        import ctranslate2

        lengths = mask.sum(axis=1).astype(np.int32)
        out = self._encoder.forward_batch(
            ctranslate2.StorageView.from_array(np.ascontiguousarray(input_ids, dtype=np.int32)),
            lengths=ctranslate2.StorageView.from_array(lengths),
        )
        h = np.asarray(out.last_hidden_state, dtype=np.float32)
        if h.shape[1] < input_ids.shape[1]:  # never wider than the longest row
            h = np.pad(h, ((0, 0), (0, input_ids.shape[1] - h.shape[1]), (0, 0)))
        return h
