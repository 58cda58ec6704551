"""The NumPy runtime computes what sentence-transformers computes.

The CLI scores on the CPU with :mod:`sayitout.scoring.minilm` (no torch import, so a
cold ``sayitout score`` starts in about a second instead of seven). These tests hold
it to the torch model on the same weights: the same word pieces and offsets, sentence
embeddings and late-chunked span embeddings equal to float32 rounding, and the same
scores for whole answers.
"""

from __future__ import annotations

import numpy as np
import pytest

from sayitout.scoring import Scorer
from sayitout.scoring.embedder import Embedder

TEXTS = [
    "Lower the learning rate by a factor of ten.",
    "hello",
    "Um, so, I'd say the gradient explodes; clip it at norm 1.0 and add a warm-up!",
    "Precision is TP/(TP+FP) — café naïve résumé 3.5e-4 ≈ 0.00035",
    "word " * 400,  # beyond the 256-token limit: truncated, and chunked for spans
    "",
]


@pytest.fixture(scope="module")
def runtimes(monkeypatch_module):
    monkeypatch_module.setenv("SAYITOUT_EMBEDDER", "torch")
    torch_e = Embedder("cpu")
    torch_e.load()
    monkeypatch_module.setenv("SAYITOUT_EMBEDDER", "numpy")
    numpy_e = Embedder("cpu")
    numpy_e.load()
    assert (torch_e.runtime, numpy_e.runtime) == ("torch", "numpy")
    return numpy_e, torch_e


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def test_sentence_embeddings_match_sentence_transformers(runtimes):
    numpy_e, torch_e = runtimes
    texts = [t for t in TEXTS if t]
    a, b = numpy_e.encode(texts), torch_e.encode(texts)
    assert a.shape == b.shape == (len(texts), 384)
    assert np.abs(a - b).max() < 1e-5
    assert (a * b).sum(axis=1).min() > 0.99999


def test_span_embeddings_match(runtimes):
    numpy_e, torch_e = runtimes
    spans = [[(0, len(t)), (0, len(t) // 2), (len(t) // 3, len(t))] for t in TEXTS]
    for a, b in zip(
        numpy_e.encode_spans(TEXTS, spans), torch_e.encode_spans(TEXTS, spans), strict=True
    ):
        assert a.shape == b.shape
        assert np.abs(a - b).max() < 1e-5


def test_whole_answers_score_the_same(runtimes, lr_rubric):
    numpy_e, torch_e = runtimes
    answers = [
        "The learning rate is too high; lower it by three to ten times and add warmup.",
        "I would raise the learning rate so it escapes the noise.",
        "Check the data pipeline, clip gradients, and use a bigger batch.",
        "no idea",
    ]
    for answer in answers:
        s_np = Scorer(embedder=numpy_e).score(lr_rubric, answer)
        s_t = Scorer(embedder=torch_e).score(lr_rubric, answer)
        assert s_np.score == s_t.score, answer
        assert [k.status for k in s_np.key_points] == [k.status for k in s_t.key_points]
        for x, y in zip(s_np.key_points, s_t.key_points, strict=True):
            assert x.similarity == pytest.approx(y.similarity, abs=1e-4)


def test_erf_within_float32_rounding():
    import math

    from sayitout.scoring.minilm import erf

    x = np.linspace(-8, 8, 40_001, dtype=np.float32)
    exact = np.array([math.erf(float(v)) for v in x])
    assert np.abs(erf(x) - exact).max() < 5e-7
    assert np.array_equal(erf(-x), -erf(x))  # odd, like erf


def test_a_padded_batch_reads_each_row_as_alone(runtimes):
    """Padding is neither a key nor a query: each row's real tokens come out as they do
    when the row runs alone."""
    numpy_e, _ = runtimes
    model = numpy_e._model
    rng = np.random.default_rng(0)
    lengths = (40, 17, 3)
    ids = rng.integers(1_000, 20_000, (len(lengths), max(lengths)))
    mask = np.zeros(ids.shape, np.float32)
    for r, n in enumerate(lengths):
        mask[r, :n] = 1
    batch = model.hidden(ids, mask)
    for r, n in enumerate(lengths):
        alone = model.hidden(ids[r : r + 1, :n], np.ones((1, n), np.float32))
        assert np.abs(batch[r, :n] - alone[0]).max() < 1e-5
