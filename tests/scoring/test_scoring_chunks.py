"""Late chunking's chunk bounds, and the model answer's sentences as key point rows."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sayitout.bank.models import KeyPoint, Rubric
from sayitout.scoring.embedder import chunk_bounds
from sayitout.scoring.matcher import Item
from sayitout.scoring.scorer import _attach_model_answer, _model_answer_pieces


@given(n=st.integers(1, 5000), body=st.integers(16, 510), overlap=st.integers(0, 64))
def test_chunks_cover_the_text_in_equal_overlapping_pieces(n: int, body: int, overlap: int):
    overlap = min(overlap, body // 4)
    bounds = chunk_bounds(n, body, overlap)
    assert bounds[0][0] == 0 and bounds[-1][1] == n
    assert all(0 < e - s <= body for s, e in bounds)
    for (s1, e1), (s2, _) in itertools.pairwise(bounds):
        assert s1 < s2 and e1 - s2 >= min(overlap, e1 - s1)  # consecutive chunks share tokens
    # the fewest chunks that fit, and no chunk much longer than another (little padding)
    assert len(bounds) == 1 or len(bounds) == -(-(n - overlap) // (body - overlap))
    lengths = [e - s for s, e in bounds]
    assert max(lengths) - min(lengths) <= 1


def test_a_text_just_over_one_chunk_runs_as_two_halves():
    # 371 tokens: two chunks of about 217, not 254 + 181 padded to 256 each
    assert chunk_bounds(371, 254, 64) == [(0, 217), (153, 371)]
    assert chunk_bounds(200, 254, 64) == [(0, 200)]


def test_model_answer_pieces_are_its_sentences_and_clauses():
    pieces = _model_answer_pieces(
        "Lower the learning rate by ten times. The steps overshoot the minimum, so the "
        "whole loss curve bounces around. Yes. AdamW decouples the decay."
    )
    assert pieces == [
        ("Lower the learning rate by ten times", 0),
        ("The steps overshoot the minimum, so the whole loss curve bounces around", 1),
        ("the whole loss curve bounces around", 1),  # a clause of six words or more
    ]


def test_model_answer_rows_join_their_most_similar_key_point():
    items = [Item("kp", 0, (0,), ()), Item("kp", 1, (1,), ()), Item("mis", 0, (2,), ())]
    emb = np.array(
        [
            [1, 0, 0],
            [0, 1, 0],
            [0, 0, 1],
            [0.8, 0.6, 0],  # a sentence close to key point 0
            [0.3, 0, 0.954],  # its clause: joins with its sentence
            [0.1, 0.1, 0.99],  # another sentence, close to no key point
        ],
        dtype=np.float32,
    )
    out = _attach_model_answer(items, emb, {3: 0, 4: 0, 5: 1}, min_cos=0.5)
    # never a misconception's row
    assert [i.text_rows for i in out] == [(0, 3, 4), (1,), (2,)]


def test_a_bare_rubric_credits_the_model_answers_wording(scorer):
    rubric = Rubric(
        question_id="test-bare-model-answer",
        key_points=[KeyPoint(id="accumulate", text="Use gradient accumulation.")],
        model_answer=(
            "Keep the batch by accumulating gradients: run several small micro-batches "
            "one after another and only step the optimiser after the last of them."
        ),
    )
    answer = (
        "run a few small micro batches one after the other and only step the optimiser "
        "once the last one is done"
    )
    scored = scorer.score(rubric, answer)
    assert scored.key_points[0].earned > 0


def test_token_vectors_come_from_the_same_pass_one_per_token(scorer):
    """What the judge reads: every token of the answer once, from the chunk that holds it
    most centrally; a window's embedding is the mean of its tokens' vectors."""
    emb = scorer.embedder
    short = "The skip connection lets the block learn the identity."
    (vecs,), (states,) = emb.encode_spans_and_states([short], [[(0, len(short))]])
    tokens = len(emb._model.tokenizer.encode(short, add_special_tokens=False).ids)
    assert states.shape == (tokens, 384)
    mean = states.mean(axis=0)
    assert np.allclose(vecs[0], mean / np.linalg.norm(mean), atol=1e-5)
    long = " ".join(["the gradient flows back through the skip connection"] * 40)
    _, (long_states,) = emb.encode_spans_and_states([long], [[]])
    n = len(emb._model.tokenizer.encode(long, add_special_tokens=False).ids)
    assert n > 254 and long_states.shape == (n, 384)  # several chunks, no token twice
    (nothing,) = emb.encode_spans_and_states([""], [[]])[1]
    assert nothing.shape == (0, 384)
