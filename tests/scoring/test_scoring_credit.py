"""Graded credit, rubric-light scoring, and the answers that state nothing.

Key points earn credit in proportion to how much of them an answer states; the shown
status and similarity agree with it. Rubrics with only key point texts (as
``sayitout import`` drafts them) still work. Keyword lists and the question read back
earn little; a right computation is neither a misconception nor "not English".
"""

from __future__ import annotations

import pytest

from sayitout.bank.models import Rubric
from sayitout.scoring import lexicon as lx
from sayitout.scoring.matching import Params, credit, make_rubric_text
from sayitout.scoring.roles import Clause, Roles, contrasted
from sayitout.scoring.statements import asked_words, is_keyword_list, read_back_grams
from sayitout.scoring.text import (
    call_stems,
    content_stems,
    looks_english,
    name_terms,
    said_terms,
    stem,
    unmarked,
    words,
)


def _light(rubric: Rubric) -> Rubric:
    kps = [kp.model_copy(update={"paraphrases": [], "terms": []}) for kp in rubric.key_points]
    mis = [m.model_copy(update={"paraphrases": []}) for m in rubric.misconceptions]
    return rubric.model_copy(update={"key_points": kps, "misconceptions": mis, "hotwords": []})


def flagged(result) -> set[str]:
    return {m.id for m in result.misconceptions}


def _credit(scorer, rubric: Rubric, said: str, point: str) -> float:
    """The credit the answer ``said`` earns for the key point ``point``."""
    return next(k.credit for k in scorer.score(rubric, said).key_points if k.id == point)


# ---- pure parts -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "family",
    [
        "normalize normalization normalise normalisation normalizing normalized",
        "optimizer optimization optimize optimise optimiser optimizers",
        "initialize initialization initialise initialisation initialized",
        "saturate saturation saturating saturated",
        "accumulate accumulation accumulating",
    ],
)
def test_word_families_meet(family: str) -> None:
    assert len({stem(w) for w in family.split()}) == 1


def test_short_forms_stand_for_their_words() -> None:
    """ "Lower LR, clip grads" says the learning rate and the gradients."""
    said = content_stems("Lower LR, clip grads, check val loss")
    assert content_stems("lower the learning rate") <= said
    assert content_stems("clip the gradients") <= said
    assert content_stems("validation") <= said


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("keep the best ckpt", "keep the best checkpoint"),
        ("works in prod", "works in production"),
        ("val acc flat", "validation accuracy flat"),
        ("after ep 5", "after epoch 5"),
        ("bs 2 per GPU", "batch size 2 per GPU"),
        ("more reg", "more regularisation"),
    ],
)
def test_more_short_forms_stand_for_their_words(short: str, long: str) -> None:
    """Typed answers shorten the field's words: "bs 2" is a batch size of two."""
    assert content_stems(long) - {"mor"} <= content_stems(short)


def test_code_identifiers_say_their_words() -> None:
    """A typed answer's "num_workers=8" and "clip_grad_norm_" name the data loader's
    workers and gradient clipping; "no_grad" and "zero_grad" stay whole (no negation of
    gradients, no zero)."""
    assert content_stems("more workers") - {"mor"} <= content_stems("num_workers=8")
    assert content_stems("clip the gradient norm") <= content_stems("clip_grad_norm_(params)")
    assert content_stems("torch.no_grad()") == {"torch.no_grad"}
    assert content_stems("zero_grad()") == {"zero_grad"}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a typed call on words says them: "split(originals)" is "split (originals)"
        (
            "split(originals) → augment(train only)",
            ["split", "originals", "→", "augment", "train", "only"],
        ),
        # an empty call and a formula stay one word
        ("model.eval() then F(x) + x", ["model.eval", "then", "f(x", "+", "x"]),
        ("relu(x) = max(0,x)", ["relu(x", "=", "max(0,x"]),
    ],
)
def test_a_typed_call_on_words_is_its_words(text: str, said: list[str]) -> None:
    assert [w.norm for w in words(text)] == said


def test_typed_calls_earn_their_points(scorer, deck_rubric) -> None:
    """ "split(originals) → then augment(train only)" states the split and the
    train-only augmentation (40 before the call was read as its words)."""
    rubric = deck_rubric("dl-augmentation-leak")
    said = scorer.score(
        rubric,
        "98% val vs 81% new → leakage. Fix: split(originals) → then augment(train only); "
        "val = un-augmented originals, 0 overlap.",
    )
    earned = {k.id for k in said.key_points if k.credit > 0}
    assert {"split-by-original", "augment-train-only"} <= earned


@pytest.mark.parametrize("typed", ["-ln(0.1)", "-log(0.1)", "− ln(1/10)", "ln(10)"])
def test_a_typed_function_says_what_its_spoken_form_says(scorer, deck_rubric, typed: str) -> None:
    """ "-ln(0.1)" states what "minus ln 0.1" states: the words "minus ln" (lexical
    support and the embedder) and the 0.1 it is called on (``numbers_agree``). It earned
    nothing of "minus log of one tenth" (70 against the spoken form's 86)."""
    rubric = deck_rubric("dl-initial-loss")
    said = scorer.score(rubric, f"It should be around 2.3, which is {typed}.")
    assert "minus-log-one-tenth" in {k.id for k in said.key_points if k.credit > 0}


def test_a_typed_moment_says_its_name() -> None:
    """ "√v̂" shares "second moment estimate"'s words (lexical support); an identifier
    that only ends in "_t" or a "v" with a digit says nothing of moments."""
    assert {stem("moment"), stem("estimate")} <= content_stems("divided by √v̂")
    assert stem("moment") in content_stems("Adam's v_t")
    assert stem("moment") not in content_stems("time_t, v2, v_th, m")


def test_adam_s_typed_moments_meet_its_moment_estimates(scorer, deck_rubric) -> None:
    """ "Adam's v̂ₜ comes from few samples" states "Adam's moment estimates are poor at
    first": a typed strong answer scored 67 while its notation read as nothing (this
    answer's credit was 0.15)."""
    rubric = deck_rubric("dl-transformer-warmup")
    typed = "Why warmup: at t ≈ 0 Adam's v̂ₜ comes from few samples → noisy, huge steps."
    assert _credit(scorer, rubric, typed, "adam-estimates-poor") >= 0.9


def test_label_smoothing_says_nothing_of_the_labels() -> None:
    """ "Label smoothing" softens the targets: its "label" is no check of the labels (a
    reversed answer earned "inspect a batch of inputs and labels" for "I'd start by adding
    label smoothing"). "Smoothed" stays; labels said otherwise keep their word."""
    ws = words("add label smoothing, then check the labels")
    said = said_terms("add label smoothing, then check the labels", ws)
    assert said.term_only == frozenset({1, 2})
    assert stem("smooth") in said.stems[2]


def test_short_words_keep_their_stems() -> None:
    # the family suffixes need a real stem left: "rise", "noise", "size", "rate" stay apart
    assert len({stem(w) for w in ("rise", "raise", "noise", "size", "rate", "state")}) == 6


def test_credit_is_graded_between_the_thresholds() -> None:
    p = Params()
    assert credit(p.partial, p) == 0.0
    assert credit(p.covered, p) == 1.0
    mid = credit((p.partial + p.covered) / 2, p)
    assert 0.45 < mid < 0.55
    xs = [p.partial + k * (p.covered - p.partial) / 10 for k in range(11)]
    ys = [credit(x, p) for x in xs]
    assert ys == sorted(ys)


def test_number_heavy_english_is_english() -> None:
    said = (
        "three times three times sixty four times one hundred twenty eight plus one "
        "hundred twenty eight for the biases"
    )
    assert looks_english(words(said))
    assert looks_english(words("3×3×64×128 + 128 = 73,728 + 128 = 73,856"))
    assert not looks_english(words("das ist ein ganz anderes Problem mit dem Modell und den"))


def test_short_plain_english_is_english() -> None:
    """A short answer with none of the very commonest words ("the", "is") is still
    English; Spanish and Italian are not."""
    assert looks_english(words("Maybe some shelter or some grass, but just a little."))
    assert looks_english(words("Maybe some shelter or some grass."))
    assert not looks_english(words("El modelo tiene demasiados parámetros y la pérdida no baja"))
    assert not looks_english(words("Il modello ha troppi parametri e la perdita non scende mai"))


@pytest.mark.parametrize(
    ("text", "stems"),
    [
        ("I'd take smaller steps, say a tenth", {"learn", "rat"}),
        ("the steps are way too big", {"learn", "rat"}),
        ("it's memorising the training set", {"overfit", "memor"}),
        # "learn by heart" is to memorise as well as to overfit: "any working setup can
        # learn those by heart" states "can it memorise a handful of examples"
        ("it learned the examples by heart", {"overfit", "memor"}),
        ("put a cap on the gradient", {"gradient", "clip"}),
        ("randomly switches off some units", {"dropout"}),
        ("use the brain float format", {"bf16"}),
        ("shortcuts around each block", {"skip", "connection", "residual"}),
        ("add a bypass around every couple of layers", {"skip", "connection", "residual"}),
        ("the answers don't line up with the inputs", {"label"}),
        ("a huge batch may simply not fit on the card", {"memory"}),
        ("a warm-up over the first steps", {"warmup"}),
        ("the intermediate results of each layer", {"activ"}),
        ("add up the gradients from four passes", {"gradient", "accumul"}),
        ("its running averages of gradient size", {"adam", "moment", "estim"}),
        ("divided by how big its gradients have usually been", {"adam", "moment", "estim"}),
        ("large values spill over into infinity", {"overflow"}),
        ("small values round to zero", {"underflow"}),
        ("a penalty that pulls the weights toward zero", {"weight", "decay"}),
        ("the labels got scrambled", {"label"}),
        ("batch norm for CNNs with decent batch sizes", {"big", "larg", "batch"}),
        ("work out which way the weights should move", {"gradient"}),
        ("keep a running total of them", {"gradient", "accumul"}),
        ("put a ceiling on the gradients", {"gradient", "clip"}),
        ("a ceiling on how big any single push can be", {"gradient", "clip"}),
        ("smaller overall steps", {"learn", "rat"}),
        ("a gentler start", {"warmup"}),
        ("the answers have been paired with the wrong inputs", {"label"}),
        ("look at some examples next to their answers", {"label"}),
        ("train on just a handful of examples", {"small", "batch"}),
        ("let the corrections from each round pile up", {"gradient", "accumul"}),
        ("get more data or rein it in", {"regular"}),
        ("how fast it must be when it's actually in use", {"production"}),
        ("how small it has to be when it runs for real", {"production"}),
        ("ease into it over the first little while", {"warmup"}),
        ("the code that cleans and prepares inputs", {"preproces"}),
        ("it prepares and formats the images differently", {"preproces"}),
        ("average each update over more examples", {"batch", "larg"}),
        ("no better than a coin flip", {"chanc"}),
        ("the learning signal fades on the way back", {"gradient"}),
        ("keep every copy on one side only", {"split"}),
        ("on the examples kept aside", {"valid"}),
        ("fewer passes over the data", {"epoch"}),
        ("the learning rate is too high", set()),
        ("take 500 steps", set()),
    ],
)
def test_plain_words_stand_for_the_terms(text: str, stems: set[str]) -> None:
    """An answer's plain words add the stems of the term they stand for."""
    assert set().union(*said_terms(text, words(text)).stems) == stems


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("I'd make the steps smaller first", "I'd make the steps smaller learning rate first"),
        ("put a cap on the gradient.", "put a cap on the gradient gradient clipping."),
        ("Shortcuts help", "Shortcuts residual skip connections help"),
        # the longest plain words said from one place name their term
        (
            "a guess of how big the updates usually are",
            "a guess of how big the updates usually Adam moment estimates are",
        ),
        ("begin with tiny steps", "begin with tiny steps learning rate warmup"),
        ("its sense of how big each step", "its sense of how big Adam moment estimates each step"),
        ("suspect the plumbing first", "suspect the plumbing a bug first"),
        (
            "teach it a handful of examples",
            "teach it a handful of examples overfit a tiny batch",
        ),
        (
            "the randomness of small batches helps",
            "the randomness of small batches gradient noise helps",
        ),
        ("dropout/aug on in train", "dropout/aug augmentation on in train"),
        ("do the sensitive sums at full precision", "do the sensitive sums at full precision fp32"),
        ("use the other 16-bit format", "use the other 16-bit format bf16"),
        # the term would say something else: "switches off dropout"
        ("it randomly switches off units", "it randomly switches off units"),
        ("the learning rate is too high", "the learning rate is too high"),
        # an arrow in typed notes is read as the word it stands for
        ("LR ↓, num_workers ↑", "LR ↓ down, num_workers ↑ up"),
        ("↑N if underfit", "up ↑N if underfit"),
        # Adam's moments in typed notation, by what they stand for
        ("Adam's v̂ₜ is noisy", "Adam's v̂ₜ (second moment estimate) is noisy"),
        ("m_t and v_t", "m_t (first moment) and v_t (second moment)"),
        ("time_t and v2", "time_t and v2"),
    ],
)
def test_plain_words_are_named_for_the_embedding_model(text: str, named: str) -> None:
    """The embedding model reads the term after the plain words that say it; spans of
    the answer as said map onto that text."""
    respelled = name_terms(text)
    assert respelled.text == named
    for word in words(text):
        start, end = respelled.span(word.start, word.end)
        said = text[word.start : word.end].strip(".,")
        assert respelled.text[start:end].startswith(said), (said, respelled.text[start:end])


def test_plain_words_for_the_step_size_say_the_learning_rate(scorer, deck_rubric) -> None:
    """ "Make the steps smaller" earns "lower the learning rate" because the model reads
    the term beside it (without it, the window's cosine is far under the baseline), and
    "make the steps bigger" does not: a direction about steps is about the rate."""
    from dataclasses import replace

    from sayitout.scoring import Scorer

    rubric = deck_rubric("dl-noisy-loss")
    smaller = (
        "Every update is too big a jump, so it overshoots and never settles. "
        "I'd make the steps smaller first, a tenth of what they are now."
    )
    bigger = (
        "Every update is too small, so it crawls and never gets anywhere. "
        "I'd make the steps bigger, ten times what they are now."
    )

    unnamed = Scorer(embedder=scorer.embedder, params=replace(scorer.params, name_terms=False))
    assert _credit(scorer, rubric, smaller, "lower-learning-rate") == 1.0
    # all but nothing without it (0.01: "never settles." no longer negates the next
    # sentence's window, so the window counts, far under the baseline)
    assert _credit(unnamed, rubric, smaller, "lower-learning-rate") < 0.05
    assert _credit(scorer, rubric, bigger, "lower-learning-rate") < 0.5
    assert scorer.score(rubric, bigger).score <= 30


def test_plain_words_earn_the_key_point(scorer, lr_rubric) -> None:
    """ "A cap on how big a single update can get" is gradient clipping; the rubric's own
    sentences are read as written."""
    said = (
        "The loss jumps around because the updates overshoot. "
        "I'd put a cap on how big any single update can get."
    )
    result = scorer.score(lr_rubric, said)
    clip = next(k for k in result.key_points if k.id == "clip")
    assert clip.credit > 0, clip
    assert make_rubric_text("Take smaller steps.").stems == content_stems("Take smaller steps.")


def test_most_of_a_key_point_in_plain_words_needs_only_the_baseline(scorer, deck_rubric) -> None:
    """ "Take smaller steps" says most of "try a smaller learning rate" through the
    glossary, and its window's cosine sits at the off-topic baseline, not above it."""
    said = (
        "The steps the optimizer takes are too large, so it keeps jumping over the valley. "
        "I'd take smaller steps, say a tenth of what I have now, and average over more "
        "examples per step so each update is less random."
    )
    result = scorer.score(deck_rubric("dl-noisy-loss"), said)
    lower = next(k for k in result.key_points if k.id == "lower-learning-rate")
    assert lower.credit > 0, lower
    assert result.score >= 70


def test_terse_notes_in_the_rubrics_words_are_english() -> None:
    """Notes with few function words are English when most of their words are the
    rubric's; another language that borrows a few technical terms is not."""
    known = {
        stem(w)
        for w in lx.wordset(
            "compute data budget inference latency memory start small scale scaling law token "
            "val improve dropout learning rate"
        )
    }
    terse = words(
        "Scaling laws (~20 tokens/param), compute + data budget, inference "
        "latency and memory, start small, scale up while val improves."
    )
    assert not looks_english(terse)
    assert looks_english(terse, known)
    french = words(
        "Le modèle fait de l'overfitting, il faut ajouter du dropout et réduire "
        "le learning rate tout de suite"
    )
    assert not looks_english(french, known)
    assert looks_english(words("7e9 params × 2 B (bf16) = 1.4e10 B = 14 GB"))  # units
    assert looks_english(
        words(
            "Seventy-three thousand, eight hundred fifty-six. "
            "Three-by-three times sixty-four input channels."
        )
    )


def test_the_english_note_reads_the_rubric(scorer, lr_rubric) -> None:
    """A terse note made of the rubric's words gets no "does not look like English"."""
    said = "Steps too large → overshoots minimum. Lower learning rate 10x, clip gradient norm."
    assert not any("English" in n for n in scorer.score(lr_rubric, said).notes)
    foreign = "El modelo tiene demasiados parámetros y la pérdida no baja nunca jamás"
    assert any("English" in n for n in scorer.score(lr_rubric, foreign).notes)


@pytest.mark.parametrize(
    ("text", "listed"),
    [
        ("fp16, NaN, loss scaling, overflow, bf16.", True),
        ("Cross-entropy, softmax, uniform, natural log, ten classes, first batch.", True),
        ("fp16 overflow (max 65504) → inf → NaN. Fix: dynamic loss scaling, or bf16.", False),
        ("Labels ↔ inputs alignment, preprocessing, overfit one batch, grads ≠ 0, LR.", False),
        ("lower the learning rate, add clipping, and check the data is shuffled", False),
        # a listed term may be a noun phrase with "of" or an article
        ("Learning rate, gradient clipping, log of zero, fp16, loss scaling, bad data.", True),
        ("Dropout, augmentation, eval mode, half an epoch, data leakage, easier val set.", True),
        ("Lower the LR, clip grads, check for log of zero, use bf16.", False),
        # ... whose "of" and articles do not count toward its four words
        ("Cross-entropy, softmax, uniform distribution, log of the number of classes.", True),
        # a number is a term; "and", "per", "in" join the words of one
        ("Linear warmup, 3e-4, 2,000 steps, step 500, fraction of the peak.", True),
        ("Bias and variance, generalisation gap, regularise, early stopping, epoch five.", True),
        ("Weights, fp32 master copy, bytes per parameter, fan in, seconds to minutes.", True),
        # a comparative says which way to go: a remedy, not a term ...
        ("Input-bound. More workers, pin memory, faster storage, bigger batch.", False),
        # ... unless the list holds only one
        ("Overfitting, variance, regularisation, dropout, early stopping, more data.", True),
        # "lower" before a bare noun compares; before what it lowers it is a verb
        ("Gradient clipping, lower learning rate, warmup, Adam epsilon, bad batches.", True),
        ("Lower learning rate, longer warmup, clipping, Adam epsilon, bad batches.", False),
        # "check" closing a term is its noun; opening one it acts
        ("Softmax, logits, log-likelihood, uniform prior, random init, sanity check.", True),
        ("Check the labels, check the loss, clip gradients, use warmup.", False),
        # "out of", "running mean", "He init", "4096 by 4096", "weights only" are terms;
        # a term may have four words
        ("Gradient accumulation, micro-batches, out of memory, activation checkpointing.", True),
        ("Batch statistics, running mean, per-example normalisation, CNNs, GroupNorm.", True),
        ("He initialisation, Kaiming, ReLU, fan-in, weight matrix, 4096 by 4096.", True),
        ("bf16, fp32 master weights, Adam first and second moments, weights only.", True),
        # a term may hold what it is taken over or across, and terms may end in full stops
        ("Dropout. Augmentation. Regularisation. Running average over the epoch.", True),
        ("Batch norm across the batch, layer norm per example, CNNs, transformers.", True),
        # an arithmetic word beside a number states a working; a comma in a number ends
        # no term
        ("512. 8 per micro-batch, times 16 accumulation steps, times 4 GPUs.", False),
        ("4,096 times 4,096, so 16,777,216 parameters.", False),
        # a slash between words joins a term
        ("Data leakage, augmentation, train/validation split, duplicates, shift.", True),
        # a closing remark about the list adds no claim
        ("Exponent bits, mantissa width, range, overflow: those are the pieces here.", True),
        ("Dropout, augmentation, eval mode, running averages. Those are the suspects.", True),
        ("Overflow → inf → NaN, loss scaling, bf16: that's the usual fix.", False),
        # ... after a dash too; and a list may trail off
        ("Overflow, 65504 ceiling, loss scaling, underflow — those are the ingredients.", True),
        ("Exponent bits, range, overflow, Ampere - those are the pieces of the story.", True),
        ("Dropout, augmentation, eval mode, running averages, and so on.", True),
        ("Use loss scaling - that is the fix, since fp16 overflows past 65504.", False),
        # a list may be said with hesitations and a lead-in, typed with slashes, dashes
        # or bullets, end on a hedge, and join its last two terms with "and"
        ("Okay so, um, overfitting, dropout, uh, early stopping, weight decay.", True),
        ("Overfitting / regularisation / dropout / early stopping / weight decay", True),
        ("fp16 - overflow - loss scaling - bf16 - GradScaler", True),
        ("- overfitting\n- dropout\n- early stopping\n- weight decay", True),
        ("Overfitting, dropout, early stopping, weight decay, things like that.", True),
        ("Overfitting, dropout, early stopping, weight decay, I think.", True),
        ("Overfitting, dropout, early stopping and weight decay.", True),
        # ... but a number said with "and" is one term, and a dash may join a working
        ("16 million, 781 thousand, three hundred and twelve.", False),
        ("Overfitting - so add dropout / weight decay / early stopping.", False),
        # a parenthesis after a space holds more terms, a plus between words joins two,
        # and a call is the name of a function
        ("Overfitting, regularisation (dropout, weight decay), early stopping.", True),
        ("Adam + L2, AdamW, decoupled weight decay, adaptive learning rate.", True),
        ("model.eval(), dropout, batch norm, running stats, torch.no_grad().", True),
        ("Accumulation (4 × 8), fp16 (loss scaling), checkpointing, ZeRO.", False),
        # nothing said is no list
        ("", False),
        ("Um, uh.", False),
    ],
)
def test_keyword_lists_are_told_from_terse_notes(text: str, listed: bool) -> None:
    assert is_keyword_list(text) is listed


def test_asked_words() -> None:
    text = "Why is validation loss lower? Because dropout is off at eval."
    flags = asked_words(text, words(text))
    assert flags == [True] * 5 + [False] * 6


def test_a_question_between_arrows_asks_only_itself() -> None:
    """In typed steps, the steps before an arrow are not part of the question after it."""
    text = "inspect the batch → are grad norms exploding? lower LR"
    assert asked_words(text, words(text)) == [False] * 3 + [False] + [True] * 4 + [False] * 2


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        # an elliptical check in typed notes states what to check
        ("Can't -> pipeline bug: grads all zero? opt.step() called? lr?", False),
        ("inspect the batch → grad norms exploding? lower LR", False),
        # a question word anywhere, an auxiliary or a guess's "maybe" first: it asks
        ("Is the learning rate zero?", True),
        ("So, um, why would that be?", True),
        ("The LR warms up over 2,000 steps, and what is it at step 500?", True),
        ("Hmm, maybe fifty layers is just too many?", True),
        # words are read as words: a curly apostrophe, a colon after a lead-in
        ("What’s the learning rate at step 500?", True),
        ("First: can it memorise a single batch?", True),
    ],
)
def test_a_question_mark_asks_only_in_a_question(text: str, asks: bool) -> None:
    flags = asked_words(text, words(text))
    ends = [i for i, w in enumerate(words(text)) if text[w.start : w.end].endswith("?")]
    assert all(flags[i] is asks for i in ends)


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        # the question's own choice put back asks, however it is opened
        ("Hmm, batch norm or layer norm?", True),
        ("Batch norm or layer norm?", True),
        # a choice with words of the candidate's own, or a check with no "or", states
        ("Group norm or synced batch norm?", False),
        ("Batch norm per example?", False),
    ],
)
def test_an_elliptical_choice_of_the_question_s_own_asks(text: str, asks: bool) -> None:
    stems = content_stems("Batch norm or layer norm?")
    flags = asked_words(text, words(text), asked_stems=stems)
    assert all(flags) is asks and any(flags) is asks


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # saying one does not know states nothing, up to the end of the clause
        ("I'm not sure what the usual fix would be.", [True] * 9),
        ("I don't really know, maybe dropout.", [True] * 4 + [False] * 2),
        ("i'm not sure of the exact rule but double it", [True] * 7 + [False] * 3),
        ("Not sure. Skip connections.", [True, True, False, False]),
        # so does telling one's own experience instead
        ("I've only ever trained in fp32. Skip connections.", [True] * 6 + [False] * 2),
        ("I have never used it, so bf16", [True] * 5 + [False] * 2),
        # in the third person it is a claim
        ("If the network has no idea yet, it guesses evenly", [False] * 10),
    ],
)
def test_words_that_say_the_speaker_does_not_know_are_asked(text: str, asked: list[bool]) -> None:
    assert asked_words(text, words(text)) == asked


def test_the_question_said_back_without_a_question_mark_is_asked() -> None:
    question = (
        "A plain 50-layer network trains worse than an 18-layer one, even on the training "
        "set. What's the usual fix?"
    )
    said = "A plain fifty-layer network trains worse than an eighteen-layer one. Add skips."
    flags = asked_words(said, words(said), read_back_grams(question))
    assert flags == [True] * 10 + [False] * 2
    # echoing a few of the question's words is answering, not reading back
    echo = "On the training set the plain network is worse: add skip connections."
    assert not any(asked_words(echo, words(echo), read_back_grams(question)))


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # saying what the question asks restates it: the whole sentence states nothing
        (
            "So training loss keeps going down, validation climbs after epoch five, and "
            "the question is what's going on. It's overfitting.",
            [True] * 18 + [False] * 2,
        ),
        ("Two images per GPU and noisy results, so it's asking why.", [True] * 11),
        # ... and a sentence it goes on from with "and" or "so" is the question's situation
        (
            "Okay, so validation goes up after epoch five. And you want to know what to do.",
            [True] * 16,
        ),
        (
            "It's overfitting. Validation goes up. You want to know what to do? Stop early.",
            [False] * 5 + [True] * 7 + [False] * 2,
        ),
        ("We want to know what the rate is at step 500. It is 7.5e-5.", [True] * 11 + [False] * 3),
        # ... and so does saying that the usual fix is wanted, at the end of the sentence
        ("A plain deep net trains worse, and you want the usual fix for that.", [True] * 14),
        ("Two images a GPU, so you want the reason and what to do about it.", [True] * 15),
        # ... or that the speaker checks they have the question before saying it back
        ("Let me make sure I have it: two images per GPU, noisy results.", [True] * 13),
        ("Just to make sure I understand you, the batch is tiny.", [True] * 11),
        # ... or that the speaker has to say what it asks
        (
            "Validation climbs after epoch five, and I need to say what's going on.",
            [True] * 13,
        ),
        ("I have to explain why it happens.", [True] * 7),
        # advice in the same words is a claim
        ("You want to know whether it can overfit one batch.", [False] * 10),
        ("You want a fix that keeps the batch: accumulate gradients.", [False] * 10),
        ("The real question is the data pipeline.", [False] * 7),
        ("I need to check what the learning rate is.", [False] * 9),
        ("Make sure the labels are right.", [False] * 6),
        ("You want the reason it diverges logged.", [False] * 7),
    ],
)
def test_saying_what_the_question_asks_is_asked(text: str, asked: list[bool]) -> None:
    assert asked_words(text, words(text)) == asked


VAL_QUESTION = (
    "Training loss keeps falling. Validation loss falls until epoch 5, then rises every epoch. "
    "What's happening, and what do you do?"
)


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # the question asked again without its question mark, and the situation before it
        (
            "So validation goes up after epoch five. So what's going on there and what "
            "should I do about it.",
            [True] * 19,
        ),
        ("It's overfitting. Why does validation loss rise.", [False] * 2 + [True] * 5),
        # words any question asks with ("going on there", "be done about it") are the
        # question's own; a sentence that trails off ("...") goes on into the question
        (
            "Validation goes up after epoch five... what's going on there, and what should "
            "be done about it. Hmm.",
            [True] * 17 + [False],
        ),
        ("Validation goes up after epoch five. What's going on there.", [False] * 6 + [True] * 4),
        # a "what ... is" that goes on to its answer states it
        ("What's happening is overfitting, so stop early.", [False] * 7),
        # questions of the candidate's own say more than the question's words
        ("What's the data budget and how much compute do I have.", [False] * 11),
        # the situation, then the question after a semicolon, as the answer's last words:
        # one utterance ("why is that" asks; its "is" is the question word's own verb)
        (
            "Validation climbs after epoch five; why is that and what would you do?",
            [True] * 13,
        ),
        # a rhetorical question goes on to its answer: the claim before it stands, and
        # so does the answer after it
        (
            "Validation climbs after epoch five; why is that? Because it overfits.",
            [False] * 5 + [True] * 3 + [False] * 3,
        ),
    ],
)
def test_a_sentence_that_asks_the_question_again_is_asked(text: str, asked: list[bool]) -> None:
    from sayitout.scoring.text import content_stems

    flags = asked_words(text, words(text), asked_stems=content_stems(VAL_QUESTION))
    assert flags == asked


@pytest.mark.parametrize(
    "text",
    [
        "Hmm, so the question's basically, if a bigger batch is quicker, why wouldn't you "
        "push it as high as it goes... like, why not max it out.",
        "So you're basically asking why we wouldn't just crank the batch size all the way.",
        "Like, why not just make the batch huge.",
    ],
)
def test_a_read_back_in_the_candidates_own_framing_is_asked(text: str) -> None:
    """ "The question's basically ...", "you're basically asking ...": the sentence says
    what the question asks; "why not ..." with only the question's words asks it again,
    after its lead-in ("like, ...")."""
    from sayitout.scoring.text import content_stems

    question = "Why not just use a huge batch size?"
    asked = asked_words(text, words(text), asked_stems=content_stems(question))
    assert all(asked), asked


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("Batch norm or layer norm, which would you go for between the two.", True),
        ("Batch normalisation versus layer normalisation, which one.", True),
        ("Which one would you pick, batch norm or layer norm?", True),
        # "which is" goes on to say something
        ("Layer norm, which is what transformers use.", False),
        ("Which one I'd pick depends on the batch size you can afford.", False),
        # an indirect question that opens the sentence asks it too ...
        ("Whether to go with batch norm or layer norm.", True),
        ("So, whether batch norm or layer norm would be better.", True),
        # ... unless it goes on to say something
        ("Whether you pick batch norm or layer norm depends on the batch size.", False),
        ("Whether it is batch norm or layer norm, both keep activations well scaled.", False),
    ],
)
def test_a_choice_asked_back_is_asked(text: str, asked: bool) -> None:
    """ "..., which would you pick", "..., which one": the question's choice asked back."""
    from sayitout.scoring.text import content_stems

    stems = content_stems("Batch norm or layer norm?")
    flags = asked_words(text, words(text), asked_stems=stems)
    assert all(flags) is asked, flags


def test_a_suggestion_that_opens_on_why_not_states_it() -> None:
    from sayitout.scoring.text import content_stems

    text = "Why not use gradient accumulation to reach the same effective batch instead."
    asked = asked_words(
        text, words(text), asked_stems=content_stems("Why not just use a huge batch size?")
    )
    assert not any(asked)


def test_a_read_back_that_says_what_is_asked_earns_nothing(scorer, deck_rubric) -> None:
    """A read-back in other words: the key points about the question's situation
    ("validation climbs after epoch five" for overfitting) are not evidence."""
    rubric = deck_rubric("dl-val-loss-rises")
    read_back = (
        "So the training loss keeps going down, validation goes down until epoch five and "
        "then climbs every epoch after, and the question is what's going on and how to "
        "handle it."
    )
    assert scorer.score(rubric, read_back).score == 0
    answered = read_back + " It's overfitting, so I'd stop early and keep the epoch-five weights."
    assert scorer.score(rubric, answered).score >= 50
    # the situation told again with "goes down", "goes up ... after that" for "falls",
    # "rises": the words a situation is retold with are not the answer's own
    retold = (
        "So training loss keeps going down, but validation loss goes down until epoch "
        "five and then goes up every epoch after that. What's going on, and what would I "
        "do about it?"
    )
    assert scorer.score(rubric, retold).score <= 10


def test_initialisms_name_the_rubric_entities() -> None:
    roles = Roles.for_rubric(
        ["batch norm", "layer norm"],
        ["Layer norm normalises across the batch, and batch norm across the features."],
        ["Batch norm normalises over the batch.", "Layer norm normalises each example."],
    )
    assert roles.initials == {"bn": "batchnorm", "ln": "layernorm"}
    clauses = roles.clauses("BN normalises over the batch; LN over each example, batch-free")
    assert [c.entity for c in clauses] == ["batchnorm", "layernorm"]
    assert "batch" not in clauses[1].stems  # "batch-free" says what LN does not use


def test_roles_bind_the_same_entity_and_see_a_swap() -> None:
    roles = Roles.for_rubric(
        [],
        ["Layer norm normalises across the batch, and batch norm across the features."],
        ["Batch norm normalises over the batch.", "Layer norm normalises each example."],
    )
    assert roles.entities == {"batchnorm", "layernorm"}
    mis = roles.clauses("layer norm uses the batch statistics")
    swap = roles.clauses("LayerNorm uses the batch statistics, BatchNorm works per example")
    right = roles.clauses("batch norm uses the batch statistics, layer norm works per example")
    assert roles.bind(mis, swap).bound == 1.0
    b = roles.bind(mis, right)
    assert b.bound == 0.0 and b.swapped


def test_a_contrast_said_of_a_third_entity_is_no_swap() -> None:
    """A rubric sentence that contrasts two entities is swapped only by its content said
    of the other one: "group norm pools over the batch" is another claim than "layer
    norm pools them over the batch", not that misconception turned round."""
    roles = Roles({"batchnorm", "layernorm", "groupnorm"})
    mis = roles.clauses(
        "batch norm takes its statistics from each image alone, and layer norm pools "
        "them over the whole batch"
    )
    third = roles.clauses("group norm is the one that pools statistics over the whole batch")
    assert not roles.bind(mis, third).swapped
    swap = roles.clauses("batch norm is the one that pools statistics over the whole batch")
    assert roles.bind(mis, swap).swapped
    # a sentence about one entity is swapped by its content said of any other
    (point,) = roles.clauses("layer norm pools statistics over the whole batch")
    assert roles.bind([point], third).swapped


def test_the_same_entity_with_another_object_is_a_swap() -> None:
    """ "transformers actually use batch norm" shares every content word of
    "transformers use layer norm" and says it of another thing."""
    roles = Roles({"batchnorm", "layernorm", "transform"})
    point = roles.clauses("CNNs use batch norm, transformers use layer norm")
    wrong = roles.clauses("transformers actually use batch norm over the sequence")
    b = roles.bind(point, wrong)
    assert b.bound == 0.0 and b.swapped and b.swapped_alone
    assert roles.bind(point, roles.clauses("and transformers use layer norm")).bound == 1.0
    # a clause that names no other thing is not held to one
    assert roles.bind(point, roles.clauses("transformers use it throughout")).bound == 1.0


def test_an_entity_joined_by_or_is_a_second_subject() -> None:
    """In "switch to layer norm or group norm, which pool statistics across the whole
    batch" group norm is said of as layer norm is, not acted on by it: the clause states
    "layer norm pools them over the whole batch", whatever object that sentence names."""
    roles = Roles({"batchnorm", "layernorm", "groupnorm"})
    mis = roles.clauses(
        "batch norm takes its statistics from each image alone, and layer norm pools "
        "them over the whole batch"
    )
    said = roles.clauses(
        "Batch norm normalises each image on its own; switch to layer norm or group norm, "
        "which pool statistics across the whole batch"
    )
    assert said[-1].entity == "layernorm" and said[-1].objects == frozenset()
    b = roles.bind(mis, said)
    assert b.bound == 1.0 and not b.swapped
    # an entity named after a verb is still acted on
    (clause,) = roles.clauses("layer norm replaced group norm here")
    assert clause.objects == {"groupnorm"}


def test_an_instruction_not_to_do_something_negates_nothing_the_entity_does() -> None:
    """ "Group norm is the one that pools statistics across the batch, so avoid that"
    says group norm pools them: the "avoid" is advice, not a denial of the pooling."""
    roles = Roles({"batchnorm", "groupnorm"})
    mis = roles.clauses(
        "Batch norm normalises each image on its own, while group norm pools its statistics "
        "across the batch."
    )
    said = roles.clauses(
        "Group norm is the one that pools statistics across the batch, so avoid that and "
        "just lower the learning rate."
    )
    assert not said[-1].negated
    assert roles.bind(mis, said).bound == 1.0
    # a denial that goes on about the entity still negates it
    (denied,) = roles.clauses("Group norm pools statistics across the batch, so it doesn't")
    assert denied.negated


def test_it_after_a_clause_s_own_entity_is_the_entity_before() -> None:
    """In "batch norm averages over more samples; that's why transformers use it" the
    "it" transformers use is batch norm: a swap of "transformers use layer norm"; the
    same "it" after layer norm states the point."""
    roles = Roles({"batchnorm", "layernorm", "transform"})
    point = roles.clauses("CNNs use batch norm, transformers use layer norm")
    first, use = roles.clauses("batch norm averages over more samples; transformers use it")
    assert use.entity == "transform" and use.objects == {"batchnorm"}
    assert roles.bind(point, [first, use]).swapped
    right = roles.clauses("layer norm works per example, so transformers use it")
    assert roles.bind(point, right).bound == 1.0
    # an "it" that opens the clause is its subject, not an object
    (clause,) = roles.clauses("it is used by transformers")
    assert clause.objects == frozenset()


def test_a_two_word_name_may_have_a_word_between() -> None:
    """ "the stacked conv layers" names the stacked layers; "across the batch. Batch norm"
    names batch norm where it starts, not the batch before it."""
    roles = Roles({"stackedlay", "shortcut", "batchnorm", "layernorm"})
    (clause,) = roles.clauses("the stacked conv layers are kept as an identity")
    assert clause.entity == "stackedlay"
    first, second = roles.clauses("it averages across the batch. Batch norm is for CNNs")
    assert first.entity is None and second.entity == "batchnorm"


def _adam_roles() -> Roles:
    """The roles of `dl-adamw-vs-l2`'s swap misconception and its decoupling point."""
    return Roles.for_rubric(
        ["Adam", "AdamW"],
        [
            "Adam with L2 applies the decay directly to the weights, while AdamW puts the "
            "decay into the gradient, where the adaptive scaling rescales it."
        ],
        ["AdamW decouples weight decay from the gradient."],
    )


def test_a_clause_that_relates_its_things_the_other_way_contradicts_and_never_binds() -> None:
    """ "decoupled from the adaptive scaling" shares its words with "puts the decay into
    the gradient, where the adaptive scaling rescales it", and says the opposite: of the
    same entity, that is the rubric clause turned round."""
    roles = _adam_roles()
    mis = roles.clauses(
        "AdamW puts the decay into the gradient, where the adaptive scaling rescales it"
    )
    turned = roles.bind(mis, roles.clauses("AdamW: decay decoupled from the adaptive scaling"))
    assert turned.bound == 0
    assert turned.swapped
    said = roles.clauses("AdamW folds the decay into the gradient, where the adaptive scaling acts")
    assert roles.bind(mis, said).bound > 0
    right = roles.clauses("Adam: the decay term in the gradient gets rescaled by the adaptive step")
    assert roles.bind(mis, right).swapped
    apart = roles.clauses(
        "Adam keeps the decay separate from the gradient and the adaptive scaling"
    )
    assert not roles.bind(mis, apart).swapped


def test_the_relation_is_the_word_a_turned_clause_shares() -> None:
    """ "AdamW puts the decay into the gradient" shares only "decay" with "AdamW decouples
    the decay": how the decay relates to something is the other word they share, said the
    other way round, so the answer contradicts the point (a reversed answer of the
    forty-fifth test part said it so). It still binds only what it says the same way."""
    roles = _adam_roles()
    point = roles.clauses("AdamW decouples the decay")
    turned = roles.bind(point, roles.clauses("AdamW puts the decay into the gradient"))
    assert turned.swapped
    assert turned.bound == 0
    other = roles.bind(point, roles.clauses("Adam puts the decay into the gradient"))
    assert not other.swapped
    said = roles.bind(point, roles.clauses("AdamW decouples the decay from the gradient"))
    assert said.bound > 0
    assert not said.swapped


def test_the_judge_raises_no_swapped_point_in_an_answer_with_a_misconception(
    scorer, deck_rubric
) -> None:
    """The forty-fifth test part's reversed answer: AdamW's decay said to go through the
    gradient, Adam's straight onto the weights. Its windows for the decoupling point are
    swaps, and the judge, which reads the whole answer, lifted the next one ("the decay
    is what makes AdamW better behaved") to full credit (48)."""
    answer = (
        "AdamW puts the decay into the gradient, so it's normalised by the second-moment "
        "estimate along with everything else, while Adam with L2 applies the shrinkage "
        "straight to the weights outside the adaptive step. Normalising the decay is what "
        "makes AdamW better behaved."
    )
    result = scorer.score(deck_rubric("dl-adamw-vs-l2"), answer)
    assert {m.id for m in result.misconceptions} == {"swapped-roles"}
    credit = {k.id: k.credit for k in result.key_points}
    assert credit["decoupled-weight-decay"] < 1
    assert result.score <= 30


def test_what_follows_instead_of_relates_the_other_way() -> None:
    """ "applied straight to the weights as its own step, instead of being folded into the
    gradient" keeps the decay apart: read as folding it in, the partial answer would
    contradict "AdamW decouples the decay"."""
    roles = _adam_roles()
    (clause,) = roles.clauses(
        "In AdamW the weight decay is applied straight to the weights as its own step, "
        "instead of being folded into the gradient through the loss."
    )
    assert clause.joined == -1
    (rather,) = roles.clauses("AdamW adds the decay to the weights rather than separately")
    assert rather.joined == 1


def test_typed_notes_relate_things_with_plus_equals_and_less_coupled() -> None:
    """ "grad += λw" puts the decay into the gradient; "less coupled" keeps things apart:
    the terse right answer binds neither half of the swap."""
    roles = _adam_roles()
    (adam,) = roles.clauses("Adam + L2: grad += λw, weight decay shrinks")
    assert adam.joined == 1
    (adamw,) = roles.clauses("AdamW: w ← w − η·λ·w applied separately, λ and LR less coupled")
    assert adamw.joined == -1
    mis = roles.clauses("AdamW couples the decay into the gradient")
    assert roles.bind(mis, [adamw]).bound == 0


def test_decay_tangled_with_the_lr_is_joined_into_it(scorer, deck_rubric) -> None:
    """ "Adam + L2: ... decay tangled with LR & adaptive scaling" puts the decay into
    Adam's step; read as neither, its "decay" and "gradient" made it a swap of "AdamW
    decouples weight decay from the gradient", and the terse strong answer lost the
    decoupling point (67)."""
    roles = _adam_roles()
    (adam,) = roles.clauses("Adam + L2: λθ added to grad, decay tangled with LR")
    assert adam.joined == 1
    answer = (
        "Adam + L2: λθ added to grad → divided by √v̂ → params with big grad history barely "
        "decayed; decay tangled with LR & adaptive scaling. AdamW: θ ← θ − η·λ·θ applied "
        "separately (decoupled) → uniform shrinkage, λ and LR tuned independently, better "
        "generalisation (Loshchilov & Hutter)."
    )
    result = scorer.score(deck_rubric("dl-adamw-vs-l2"), answer)
    assert "decoupled-weight-decay" in {k.id for k in result.key_points if k.credit > 0.5}
    assert result.score >= 70


@pytest.mark.parametrize(
    ("question", "pair"),
    [
        ("Batch norm or layer norm?", ("batch norm", "layer norm")),
        ("Why do most runs now use bf16 rather than fp16?", ("bf16", "fp16")),
        ("Why use AdamW over Adam with an L2 penalty?", ("adamw", "adam")),
        ("What's the difference between TCP and UDP?", ("tcp", "udp")),
        # "over" that is no contrast, and names the key points do not use
        ("You accumulate gradients over 16 micro-batches. What's the batch?", None),
        ("Would you pick SGD or RMSprop?", None),
    ],
)
def test_a_question_names_the_two_things_it_contrasts(
    question: str, pair: tuple[str, str] | None
) -> None:
    key_points = [
        "Batch norm normalises over the batch; layer norm over each example's features.",
        "bf16 keeps fp32's range; fp16 has more mantissa bits.",
        "AdamW decouples the decay; Adam scales the L2 gradient.",
        "TCP retransmits lost packets; UDP does not.",
        "Accumulated gradients add up over the micro-batches.",
    ]
    assert contrasted(question, key_points) == pair


def test_a_rubric_without_misconceptions_takes_its_entities_from_the_question() -> None:
    """An imported rubric has no misconceptions to name its entities: the two the
    question contrasts are its entities, so a role swap of a key point is seen."""
    kps = ["Batch norm normalises over the batch.", "Layer norm normalises each example."]
    roles = Roles.for_rubric([], [], kps, "Batch norm or layer norm?")
    assert roles.entities == {"batchnorm", "layernorm"}
    point = roles.clauses(kps[0])
    swap = roles.bind(point, roles.clauses("Layer norm normalises over the batch."))
    assert swap.bound == 0.0 and swap.swapped
    assert not Roles.for_rubric([], [], kps, "Why normalise activations?")


def test_a_misconception_and_its_correction_name_the_entities() -> None:
    """A thing whose role the correction turns round ("the stacked layers learn the full
    mapping" / "the stacked layers learn the residual") is an entity, beside a term."""
    mis = ["The stacked layers learn the full mapping and the shortcut learns the residual."]
    kps = ["Add residual skip connections."]
    fix = ["The shortcut carries the input unchanged; the stacked layers learn the residual."]
    assert not Roles.for_rubric(["shortcut"], mis, kps)
    roles = Roles.for_rubric(["shortcut"], mis, kps, corrections=fix)
    assert roles.entities == {"shortcut", "stackedlay"}


def test_a_clause_with_its_own_subject_is_not_about_the_entity_before() -> None:
    roles = Roles({"shortcut", "stackedlay"})
    said = "Give every block a shortcut that adds its input, so each block only learns a residual"
    assert [c.entity for c in roles.clauses(said)] == ["shortcut", None]
    # a clause with no subject of its own, or a restart after a comma, still is
    said = "The shortcut adds the input, so learns nothing. The shortcut is, uh, the identity."
    assert [c.entity for c in roles.clauses(said)] == ["shortcut", "shortcut"]
    # a pronoun after "each block ... a shortcut" may be the block: about no entity
    said = "Give each block a shortcut that adds its input, so it only has to learn a residual"
    assert [c.entity for c in roles.clauses(said)] == ["shortcut", None]
    said = "The shortcut adds the block's input, so it learns nothing"
    assert [c.entity for c in roles.clauses(said)] == ["shortcut"]
    # "then" after the clause's own subject is an adverb, not a link that ends it
    said = "Shortcuts add each block's input, because each block then only learns a residual"
    clauses = roles.clauses(said)
    assert [c.entity for c in clauses] == ["shortcut", None]
    assert "residual" in clauses[1].stems
    # "then" after more than a subject still links two clauses
    said = "The shortcut adds the input then the stacked layers learn the rest"
    assert [c.entity for c in roles.clauses(said)] == ["shortcut", "stackedlay"]


def test_a_call_says_its_words_to_key_points_only(scorer, deck_rubric) -> None:
    """ "torch.isfinite(x)" says "is finite", "torch.no_grad()" "no grad": a typed check
    of the data earns the key point it names. Named as advice ("wrap the loop in
    torch.no_grad()"), a call states no misconception: a call names a thing to do, not a
    cause."""
    assert call_stems("torch.no_grad()") == {"torch", "no", "grad"}
    assert call_stems("e.g.") == call_stems("3.5") == frozenset()
    typed = (
        "1) Data: assert torch.isfinite(x).all(); labels in [0, C). 2) LR: 3e-4 → 1e-4, add "
        "warmup, clip_grad_norm_(params, 1.0)."
    )
    assert _credit(scorer, deck_rubric("dl-loss-nan"), typed, "check-data-values") > 0
    advised = (
        "model.eval(). Without it dropout is still active, so every forward pass samples a "
        "different mask, and batch norm normalises with the current batch's statistics. "
        "Call model.eval() (and wrap the loop in torch.no_grad()), and keep the val loader "
        "free of random augmentation."
    )
    said = scorer.score(deck_rubric("dl-eval-nondeterministic"), advised)
    assert not said.misconceptions


def test_a_cleft_is_about_the_entity_it_puts_first() -> None:
    """ "it's group norm that pools statistics across the batch" is about group norm, not
    the entity before."""
    roles = Roles({"batchnorm", "groupnorm"})
    said = "Batch norm takes each image on its own; it's group norm that pools across the batch"
    assert [c.entity for c in roles.clauses(said)] == ["batchnorm", "groupnorm"]
    said = "Batch norm takes each image on its own; it pools across the batch"
    assert [c.entity for c in roles.clauses(said)] == ["batchnorm"]


def test_a_thing_used_in_another_is_said_of_that_other() -> None:
    """ "use batch norm in transformers" names transformers after batch norm: it says the
    rubric's "transformers use layer norm" of another thing (a confident-wrong answer
    earned that key point and scored 35)."""
    roles = Roles({"batchnorm", "layernorm", "transform"})
    rubric = roles.clauses("transformers use layer norm")
    swap = roles.bind(rubric, roles.clauses("you should use batch norm in transformers too"))
    assert swap.swapped_alone
    same = roles.bind(rubric, roles.clauses("you should use layer norm in transformers"))
    assert not same.swapped_alone


def test_an_entity_a_verb_lets_do_something_is_not_the_subject() -> None:
    """ "use a smaller batch to let the GPU catch up" says the smaller batch of no entity:
    the GPU is what the batch lets catch up, so the clause joins the one before it."""
    roles = Roles({"gpu", "work"})
    said = "Reduce the loader workers and use a smaller batch to let the GPU catch up"
    assert [c.entity for c in roles.clauses(said)] == ["work"]
    mis = roles.clauses("fewer loader workers and a smaller batch")
    assert roles.bind(mis, roles.clauses(said)).bound >= 0.75
    # named before the verb, it is the subject
    said = "The GPU lets the data loader catch up"
    assert [c.entity for c in roles.clauses(said)] == ["gpu"]


def test_what_an_entity_lets_something_else_do_is_not_its_own_doing() -> None:
    """ "Identity shortcuts let each block learn only a residual" says nothing the
    shortcuts learn: it does not bind "the shortcut learns the residual" (a strong
    answer was flagged with that swap), and neither does "... allow each block to learn
    a residual"; "the shortcut learns the residual" still does."""
    roles = Roles({"shortcut", "stackedlay"})
    mis = roles.clauses("the shortcut learns the residual")
    for said in (
        "Identity shortcuts let each block learn only a residual F(x) on top of x",
        "The shortcuts allow each block to learn only a residual",
    ):
        assert roles.bind(mis, roles.clauses(said)).bound == 0, said
    assert roles.bind(mis, roles.clauses("the shortcuts learn only a residual")).bound > 0


def test_a_clause_that_goes_on_from_its_entity_on_let_is_not_its_doing() -> None:
    """ "Identity shortcuts, y = F(x) + x, let each block learn only a residual": the
    formula between the comma-split clauses leaves "let each block learn only a residual"
    a clause of its own that goes on about the shortcuts; what they let each block do is
    still not the shortcuts' doing (a strong answer-first answer was flagged with "the
    shortcut learns the residual" and scored 50). Said of the shortcuts themselves, it
    still binds."""
    roles = Roles({"shortcut", "stackedlay"})
    mis = roles.clauses("the shortcut learns the residual")
    said = (
        "Identity shortcuts, y = F(x) + x, let each block learn only a residual, make an "
        "identity mapping trivial, and give gradients a direct path backward."
    )
    assert roles.bind(mis, roles.clauses(said)).bound == 0
    said = "Identity shortcuts, y = F(x) + x, learn only a residual."
    assert roles.bind(mis, roles.clauses(said)).bound > 0


def test_a_contrast_turned_round_earns_nothing(scorer, deck_rubric) -> None:
    """ "A generalisation problem, not an optimisation one" shares every word with "an
    optimisation issue, not a generalisation one" and denies it: the key point earned
    full credit from it, and a reversed answer scored 45. The same contrast said its
    own way still earns it."""
    from sayitout.scoring import polarity

    rubric = deck_rubric("dl-deep-plain-network")
    turned = (
        "It's a generalisation problem, not an optimisation one: the 50-layer net has more "
        "capacity and memorises, so regularise it with dropout and weight decay."
    )
    assert _credit(scorer, rubric, turned, "degradation-not-overfitting") < 0.5
    said = "It's an optimisation problem, not a generalisation one."
    assert _credit(scorer, rubric, said, "degradation-not-overfitting") == 1.0
    own = polarity.analyse("it's an optimisation issue, not a generalisation one")
    assert own.contrasted
    assert not polarity.analyse("val = un-augmented originals").contrasted


def test_what_each_thing_does_under_a_frame_is_not_the_frames_doing() -> None:
    """ "With identity shortcuts each block learns a residual" says nothing the
    shortcuts learn: the frame names the means, and "each block" its own subject (a
    strong answer was flagged with the swap); a frame that the clause's own doing
    follows still binds ("With shortcuts the block learns" is no "each")."""
    roles = Roles({"shortcut", "stackedlay"})
    mis = roles.clauses("the shortcut learns the residual")
    said = "With identity shortcuts each block learns a residual F(x) added to x"
    assert roles.bind(mis, roles.clauses(said)).bound == 0
    said = "With identity shortcuts, the shortcuts learn the residual"
    assert roles.bind(mis, roles.clauses(said)).bound > 0
    # a frame ended by its comma and a hesitation before "each block" (a disfluent
    # strong answer was flagged with the swap)
    for said in (
        "With a shortcut, um, each block only learns a residual on top of the identity",
        "with a shortcut um each block only learns a residual on top of the identity",
    ):
        assert roles.bind(mis, roles.clauses(said)).bound == 0, said
    said = "batch norm normalises each, uh, each feature, each block learns a residual"
    assert [c.entity for c in Roles({"batchnorm", "layernorm"}).clauses(said)] == ["batchnorm"]


def test_out_of_the_gradient_keeps_the_decay_apart() -> None:
    """ "AdamW takes the decay out of the gradient" is no "AdamW puts the decay into the
    gradient" (a strong reordered answer was flagged with the swap and scored 60)."""
    roles = Roles({"adam", "adamw"})
    mis = roles.clauses("AdamW puts the decay into the gradient")
    for said in (
        "AdamW takes the decay out of the gradient",
        "AdamW keeps the decay away from the gradient",
    ):
        assert roles.bind(mis, roles.clauses(said)).bound == 0, said
    said = "AdamW puts the decay into the gradient, out of the way"
    assert roles.bind(mis, roles.clauses(said)).bound > 0


def test_plain_words_that_only_name_a_term_lose_their_own_words(scorer, deck_rubric) -> None:
    """ "The learning signal travels back along the shortcuts" is the gradient's path,
    and no "learn": it supported "the shortcut learns the residual" (a strong plain-words
    answer was flagged with it and lost the gradient key point)."""
    rubric = deck_rubric("dl-deep-plain-network")
    said = (
        "Add shortcuts that carry each block's input straight past it and add it onto the "
        "block's output. Then a block only has to learn a small correction and doing "
        "nothing is easy, so extra depth can't make things worse, and the learning signal "
        "travels back along the shortcuts without fading. Being worse even on the training "
        "data shows it's a training difficulty, not memorising."
    )
    result = scorer.score(rubric, said)
    assert not result.misconceptions
    assert result.score >= 90


def _layer_norm_uses_batch_statistics() -> tuple[Roles, list[Clause]]:
    """The swapped-axes misconception's clause, "layer norm uses the batch statistics",
    read with the two entities it swaps."""
    roles = Roles({"layernorm", "batchnorm"})
    return roles, roles.clauses("layer norm uses the batch statistics")


def test_a_clause_free_of_what_the_rubric_clause_uses_is_the_other_claim() -> None:
    """ "layer norm uses statistics over each example's features, so it's independent of
    batch size" shares "uses", "statistics" and "batch" with "layer norm uses the batch
    statistics", but says the batch is what it does not involve: the other claim, a swap,
    not a binding (and "batch-independent" says the same in one word)."""
    roles, mis = _layer_norm_uses_batch_statistics()
    for said in (
        "Layer norm uses statistics over each example's features, so it's independent of"
        " batch size and identical at train and test time.",
        "Layer norm uses batch-independent statistics.",
        "Layer norm uses statistics regardless of the batch.",
    ):
        b = roles.bind(mis, roles.clauses(said))
        assert b.bound == 0 and b.swapped, said
    # only the words right after "of" are left out: the rest still binds
    said = "Layer norm is independent of the model and uses the batch statistics."
    assert roles.bind(mis, roles.clauses(said)).bound == 1.0


def test_light_words_alone_do_not_bind() -> None:
    """ "it needs stored averages once the model is in use" shares "use" and "model" with
    "just use batch norm in every model", and nothing else: no binding. A rubric clause
    with nothing but light words ("transformers use layer norm") still binds on them."""
    roles = Roles({"batchnorm", "layernorm", "transform"})
    mis = roles.clauses("just use batch norm in every model")
    said = "Batch norm needs stored averages once the model is in use."
    assert roles.bind(mis, roles.clauses(said)).bound == 0
    said = "Just use batch norm in every single model."
    assert roles.bind(mis, roles.clauses(said)).bound == 1.0
    rubric = roles.clauses("transformers use layer norm")
    assert roles.bind(rubric, roles.clauses("Transformers use layer norm.")).bound == 1.0


def test_the_thing_of_a_size_said_is_no_content() -> None:
    """ "Layer norm uses each example's own statistics, so it's fine ... for a batch of
    one" shares "uses", "statistics" and "batch" with "layer norm uses the batch
    statistics", but its "batch" is a size said ("a batch of one"), not the statistics'
    kind: it does not bind the misconception."""
    roles, mis = _layer_norm_uses_batch_statistics()
    for said in (
        "Layer norm uses each example's own statistics, so it's fine for variable-length"
        " sequences and for a batch of one.",
        "Layer norm uses per-example statistics, which works even with a batch of 2.",
    ):
        assert "batch" not in roles.clauses(said)[0].stems, said
    # a batch said with no size stays content
    said = "Layer norm uses statistics of a batch of images."
    assert roles.bind(mis, roles.clauses(said)).bound == 1.0


def test_light_words_are_no_half_of_a_claim() -> None:
    """ "Layer norm uses each example's own statistics" says two of the three words of
    "layer norm uses the batch statistics", but one of them is "uses": of its heavy words
    it says one of two, under the share a binding needs."""
    roles, mis = _layer_norm_uses_batch_statistics()
    said = "Layer norm uses each example's own statistics."
    assert roles.bind(mis, roles.clauses(said)).bound < Params().role_bound
    # both heavy words said bind, the light one or not
    for said in ("Layer norm uses the batch statistics.", "Layer norm has batch statistics."):
        assert roles.bind(mis, roles.clauses(said)).bound >= Params().role_bound, said


def test_a_negation_is_no_content_word_to_say() -> None:
    """ "Batch norm normalises each image on its own and does not care how many images
    there are" has four content words and a "not", compared on its own: an answer clause
    that says "normalises" and "image" of batch norm, negated too, says half of it, and
    with group norm's half said as well, the swap is stated on both sides."""
    roles = Roles({"batchnorm", "groupnorm"})
    mis = roles.clauses(
        "Batch norm normalises each image on its own and does not care how many images"
        " there are, while group norm pools its statistics across the batch."
    )
    said = (
        "Batch norm normalises each image on its own, so with only two images it can't share"
        " statistics across samples; switch to group norm, which pools the mean and variance"
        " over the whole batch."
    )
    assert roles.bind(mis, roles.clauses(said)).sides == 2


def test_a_clause_opened_by_it_is_about_the_entity_before() -> None:
    roles = Roles.for_rubric(
        [], [], ["AdamW decays the weights.", "Adam scales L2."], "AdamW or Adam?"
    )
    clauses = roles.clauses("AdamW decouples it: it takes the Adam step on the loss alone")
    assert [(c.entity, c.mixed) for c in clauses] == [("adamw", False), ("adamw", True)]


def test_a_clause_that_compares_the_other_way_does_not_bind() -> None:
    roles = Roles.for_rubric(
        [],
        ["bf16 has more mantissa bits than fp16."],
        ["bf16 keeps the range of fp32.", "fp16 has more mantissa bits."],
        "Why bf16 rather than fp16?",
    )
    mis = roles.clauses("bf16 has more mantissa bits")
    assert roles.bind(mis, roles.clauses("bf16 has more mantissa bits, so it is precise")).bound
    assert not roles.bind(mis, roles.clauses("bf16 has less mantissa, fewer bits")).bound
    # a count of the bits compares nothing: it does not say "more"
    counted = roles.clauses("bf16 is eight exponent and seven mantissa bits")
    assert not roles.bind(mis, counted).bound
    assert not roles.bind(mis, roles.clauses("bf16 pays in mantissa (7 vs 10 bits)")).bound
    # ... nor when the clause compares something else
    stable = "bf16 only has seven mantissa bits versus ten, so it's simpler and more stable"
    assert not roles.bind(mis, roles.clauses(stable)).bound
    assert roles.bind(mis, roles.clauses("bf16 has seven, so more mantissa bits")).bound


def test_a_clause_that_qualifies_the_same_things_the_other_way_does_not_bind() -> None:
    # a list that goes both ways has no trend as a whole; each thing keeps its own
    roles = Roles({"gpu", "work"})
    mis = roles.clauses("the GPU is the bottleneck, so give it less to do: fewer loader workers")
    fix = "Fix with more loader workers, pinned memory, a larger batch, and fewer syncs."
    assert not roles.bind(mis, roles.clauses(fix)).bound
    cut = "Fix it with fewer loader workers, pinned memory, a larger batch"
    assert roles.bind(mis, roles.clauses(cut)).bound


def test_one_at_a_time_is_a_manner_not_content() -> None:
    """ "Batch norm works on one sample at a time" is not bound by a clause that says
    batch norm "needs running averages at test time, but works very well" for CNNs."""
    roles = Roles.for_rubric(
        [],
        ["Layer norm normalises across the batch, and batch norm across the features."],
        ["Batch norm uses batch statistics.", "Layer norm works per example."],
    )
    mis = roles.clauses("batch norm works on one sample at a time")
    said = roles.clauses(
        "Batch norm averages each feature across the batch and needs running averages at "
        "test time, but works very well for convolutional nets"
    )
    assert not roles.bind(mis, said).bound
    assert roles.bind(mis, roles.clauses("batch norm works on one sample, each time")).bound


def test_a_comparison_said_the_other_way_round_is_a_swap() -> None:
    """ "fp16 has more range than bf16" is stated by "bf16 has less range than fp16" (both
    turned round: the same claim), and swapped by "bf16 has a bigger range than fp16" or
    "fp16 has less range than bf16" ("more" and "bigger" say the same)."""
    roles = Roles.for_rubric(
        [],
        ["fp16 has more range than bf16."],
        ["bf16 keeps the range of fp32.", "fp16 has more mantissa bits."],
        "Why bf16 rather than fp16?",
    )
    mis = roles.clauses("fp16 has more range than bf16.")
    assert [c.than for c in mis] == [True]
    for said in ("bf16 has less range than fp16.", "fp16 has a larger range than bf16"):
        b = roles.bind(mis, roles.clauses(said))
        assert b.bound and not b.swapped, said
    for said in (
        "bf16 has a bigger range than fp16, the same as fp32.",
        "fp16 has less range than bf16, so it overflows.",
    ):
        b = roles.bind(mis, roles.clauses(said))
        assert b.swapped and not b.bound, said


def test_the_right_comparison_is_not_the_misconception(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-bf16-vs-fp16")
    right = scorer.score(rubric, "bf16 has a bigger range than fp16, the same as fp32.")
    assert "fp16-more-range" not in flagged(right)
    wrong = scorer.score(rubric, "fp16 has a bigger range than bf16.")
    assert "fp16-more-range" in flagged(wrong)
    # "gives up" is no direction: "gives up mantissa bits, so less" says less
    traded = scorer.score(rubric, "bf16 gives up mantissa bits, so less precision, for range.")
    assert "bf16-more-precise" not in flagged(traded)


def test_both_halves_of_a_contrast_said_are_counted() -> None:
    """Half the words of each half of a contrast, each said of its own entity: the
    answer binds both sides (``Binding.sides``), and the reach spans both clauses."""
    roles = Roles.for_rubric(
        ["Adam", "AdamW"],
        ["Adam with L2 applies the decay directly to the weights, while AdamW puts the "
         "decay into the gradient."],
        ["AdamW decays the weights directly.", "Adam scales the L2 gradient."],
    )  # fmt: skip
    mis = roles.clauses(
        "Adam with L2 applies the decay directly to the weights, while AdamW puts the "
        "decay into the gradient."
    )
    said = "AdamW adds the decay to the gradient, and Adam with L2 applies it to the weights."
    b = roles.bind(mis, roles.clauses(said))
    assert b.sides == 2 and b.reach == (0, len(said))
    one = roles.bind(mis, roles.clauses("Adam with L2 applies the decay to the weights."))
    assert one.sides == 1


def test_what_a_clause_is_taken_across_must_agree() -> None:
    roles = Roles.for_rubric(
        [],
        ["Layer norm normalises across the batch, and batch norm across the features."],
        ["Batch norm normalises over the batch.", "Layer norm normalises each example."],
    )
    mis = roles.clauses("batch norm normalises across the features of each example")
    right = roles.clauses("batch norm normalises each feature across the batch")
    assert roles.bind(mis, right).bound == 0.0
    # the same entity, the same words, taken across another thing: the other claim
    assert roles.bind(mis, right).swapped
    plain = roles.clauses("Batch norm rescales each feature by its average over all the examples")
    assert roles.bind(mis, plain).swapped
    # said of the other entity, it is no swap
    other = roles.clauses("layer norm normalises each feature across the batch")
    assert not roles.bind(mis, other).swapped
    said = roles.clauses("batch norm normalises over all the features of one example")
    assert roles.bind(mis, said).bound > 0  # "over" and "across" are one
    # the samples in the mini-batch are the batch
    across = roles.clauses("layer norm averages each feature across the samples in the batch")
    assert roles.bind(roles.clauses("layer norm normalises across the batch"), across).bound > 0
    # "of" names whose: a group of examples is not the features of an example
    group = roles.clauses("batch norm rescales each feature across the whole group of examples")
    assert roles.bind(mis, group).bound == 0.0


def test_a_phrase_that_opens_a_sentence_belongs_to_the_entity_after_it() -> None:
    roles = Roles.for_rubric(
        [],
        ["Layer norm normalises across the batch, and batch norm across the features."],
        ["Batch norm normalises over the batch.", "Layer norm normalises each example."],
    )
    clauses = roles.clauses("I'd use layer norm. For a CNN with big batches, batch norm.")
    assert [c.entity for c in clauses] == ["layernorm", "batchnorm"]
    assert "cnn" in clauses[1].stems and "cnn" not in clauses[0].stems
    # inside a sentence it stays with the entity before it
    clauses = roles.clauses("So for transformers, where batches are small, batch norm wins.")
    assert "smal" not in clauses[-1].stems
    # a new sentence that names no entity is about none, unless a pronoun opens it
    clauses = roles.clauses("Batch norm averages over the batch. Fewer steps, less noise.")
    assert [c.entity for c in clauses] == ["batchnorm", None]
    clauses = roles.clauses("Batch norm averages over the batch. It needs big batches.")
    assert [c.entity for c in clauses] == ["batchnorm"] and "big" in clauses[0].stems


# ---- with the model -------------------------------------------------------------------
def test_status_and_similarity_agree_with_credit(scorer, lr_rubric) -> None:
    p = scorer.params
    answers = [
        "the loss jumping around means the learning rate is too high so lower it and clip",
        "the optimiser is a bit unstable",
        "maybe the learning rate",
        "I have no idea",
    ]
    seen = set()
    for r in scorer.score_many([(lr_rubric, a) for a in answers]):
        for k in r.key_points:
            assert k.credit == pytest.approx(credit(k.similarity, p), abs=1e-3)
            expected = "covered" if k.credit == 1 else "partial" if k.credit > 0 else "missed"
            assert k.status == expected
            assert (k.evidence is None) == (k.status == "missed")
            seen.add(k.status)
    assert seen == {"covered", "partial", "missed"}


def test_a_near_miss_earns_part_of_a_key_point(scorer, lr_rubric) -> None:
    r = scorer.score(lr_rubric, "the optimiser is a bit unstable")
    k = next(k for k in r.key_points if k.id == "overshoot")
    assert 0 < k.credit < 1
    assert k.status == "partial"


def test_steps_enlarged_bit_by_bit_are_the_warmup_ramp(scorer, deck_rubric) -> None:
    """ "Begin with tiny steps and enlarge them bit by bit" ramps the rate up: "enlarge"
    was no direction, so the window read as "tiny" alone, against the ramp and against
    "a big learning rate can throw the model" (a plain-words strong answer at 53)."""
    answer = (
        "At the start the weights are random and the optimizer has barely seen any "
        "gradients, so its sense of how big each step should be is guesswork and can be "
        "badly off. Take full-size steps straight away and a few of them can throw the "
        "model somewhere it never recovers from. So you begin with tiny steps and enlarge "
        "them bit by bit over the first few thousand updates, until the optimizer's "
        "estimates can be trusted and the model is in a calmer area."
    )
    result = scorer.score(deck_rubric("dl-transformer-warmup"), answer)
    credited = {k.id for k in result.key_points if k.credit > 0.5}
    assert {"ramp-then-decay", "big-lr-throws-model"} <= credited
    assert result.score >= 70


def test_skip_connections_learning_the_identity_earn_the_identity_point(
    scorer, deck_rubric
) -> None:
    rubric = deck_rubric("dl-deep-plain-network")
    r = scorer.score(rubric, "skip connections let the extra layers learn the identity easily")
    k = next(k for k in r.key_points if k.id == "identity-is-easy")
    assert k.credit >= 0.5, k


def test_a_paraphrase_without_a_direction_keeps_its_key_point_s(scorer, deck_rubric) -> None:
    """ "Scale the learning rate along with the batch size" says no direction, but its
    key point does ("need a higher learning rate"): the opposite direction about the
    learning rate is no evidence for it."""
    rubric = deck_rubric("dl-huge-batch")
    smaller = "Huge batches are a pain: they need a smaller learning rate."
    bigger = "Huge batches are a pain: they need a bigger learning rate."
    assert _credit(scorer, rubric, smaller, "needs-higher-lr") == 0.0
    assert _credit(scorer, rubric, bigger, "needs-higher-lr") > 0.5


def test_taking_a_remedy_away_is_not_the_remedy(scorer, deck_rubric) -> None:
    """ "Take gradient clipping off" does not earn "clip the global gradient norm ... so one
    bad batch cannot produce a huge update", whose own "cannot" negates something else."""
    rubric = deck_rubric("dl-loss-spikes")
    taken_off = "Raise the learning rate and take gradient clipping off."
    clipped = "Clip the gradient norm at 1.0 so no batch can blow up the update."
    assert _credit(scorer, rubric, taken_off, "gradient-clipping") == 0.0
    assert _credit(scorer, rubric, clipped, "gradient-clipping") > 0.5


def test_naming_the_topic_without_the_direction_is_not_the_key_point(scorer, lr_rubric) -> None:
    r = scorer.score(lr_rubric, "the learning rate could matter")
    k = next(k for k in r.key_points if k.id == "lower-lr")
    assert k.credit < 1
    said = scorer.score(lr_rubric, "the learning rate matters, I would lower it")
    assert next(k for k in said.key_points if k.id == "lower-lr").credit == 1


def test_rubric_light_scores_still_order_answers(scorer, lr_rubric) -> None:
    light = _light(lr_rubric)
    strong, partial, wrong = scorer.score_many(
        [
            (
                light,
                "the learning rate is too high so the steps overshoot: lower it, and clip "
                "the gradient norm so one bad batch can't cause a huge jump",
            ),
            (light, "I'd lower the learning rate"),
            (light, "I would raise the learning rate so it learns faster"),
        ]
    )
    assert strong.score >= 70
    assert wrong.score <= 20
    assert strong.score > partial.score > wrong.score


def test_an_opening_pronoun_turned_the_other_way_earns_no_key_point(scorer, deck_rubric) -> None:
    """ "Divide it by four" opens the answer: its "it" is the learning rate the question
    asks about, so the rubric-light text's premise ("The batch is four times larger",
    which the next sentence also says) earns no credit for "raise the learning rate four
    times"."""
    light = _light(deck_rubric("dl-batch-size-lr-scaling"))
    r = scorer.score(
        light,
        "Divide it by four. A larger batch already gives bigger gradient sums, so the "
        "learning rate has to shrink to keep the step size the same.",
    )
    assert next(k for k in r.key_points if k.id == "multiply-by-four").status != "covered"
    said = scorer.score(
        light,
        "Multiply it by four. A batch four times larger gives a less noisy gradient and a "
        "quarter of the steps, so 0.1 becomes 0.4.",
    )
    assert next(k for k in said.key_points if k.id == "multiply-by-four").status == "covered"


def test_a_long_key_point_is_matched_without_its_short_last_step(scorer, deck_rubric) -> None:
    """ "So start with a small learning rate, raise it slowly over the first steps, and
    then decay it": a candidate who explains warmup says the ramp and seldom the decay
    after it. The clauses before a short last piece are matched on their own, as "X, so Y"
    is; a short piece with a number keeps its key point whole ("bf16 stores each
    parameter in 16 bits, which is 2 bytes" is not the 16 bits alone)."""
    from sayitout.scoring.scorer import _parts

    assert _parts("So start with a small learning rate, raise it slowly, and then decay it.") == [
        "So start with a small learning rate, raise it slowly"
    ]
    assert _parts("bf16 stores each parameter in 16 bits, which is 2 bytes.") == []
    assert _parts("Check whether the data has changed.") == []
    light = _light(deck_rubric("dl-transformer-warmup"))
    said = scorer.score(
        light,
        "At the very start the network is random and the optimiser hasn't yet learned how "
        "big typical changes are, so its first steps can be wildly too large and knock the "
        "model into a state it never recovers from. Starting with tiny steps and gradually "
        "raising them gives the optimiser time to get a sense of scale and the network time "
        "to settle; after that the full step size is safe.",
    )
    ramp = next(k for k in said.key_points if k.id == "ramp-then-decay")
    assert ramp.credit == 1
    assert said.score >= 70


def test_a_keyword_list_scores_low_and_says_why(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-bf16-vs-fp16")
    r = scorer.score(rubric, "bf16, fp16, exponent bits, mantissa, dynamic range, loss scaling.")
    assert r.score <= 40
    assert any("lists terms" in n for n in r.notes)


def test_the_question_read_back_earns_nothing(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-val-below-train")
    r = scorer.score(
        rubric, "Why is validation loss lower than training loss? Why would validation be lower?"
    )
    assert r.score <= 10


def test_the_question_read_back_as_a_statement_earns_nothing(scorer, deck_rubric) -> None:
    """Speech often loses the question mark; the bank gives the scorer the question."""
    rubric = deck_rubric("dl-deep-plain-network")
    assert rubric.question.startswith("A plain 50-layer network")
    said = (
        "A plain fifty-layer network trains worse than an eighteen-layer one, even on the "
        "training set. What's the usual fix for that."
    )
    assert scorer.score(rubric, said).score <= 10


def test_the_question_said_again_in_another_order_earns_nothing(scorer, deck_rubric) -> None:
    """A key point that restates the question's premise ("with only two images per GPU,
    batch norm ...") is close to the premise said back; a window made only of the
    question's words states nothing, while the same words with a claim still count."""
    rubric = deck_rubric("dl-small-batch-norm")
    said_back = (
        "So: segmentation model, batch norm, memory limits it to two images per GPU, and "
        "results are poor and noisy. Why, and what to do?"
    )
    assert scorer.score(rubric, said_back).score <= 10
    # in other words, all but a couple of them the question's: the whole answer asks
    reworded = (
        "We train a segmentation model with batch norm, and memory lets us fit only two "
        "images per GPU, so the results are poor and noisy. Why is that, and what to do?"
    )
    assert scorer.score(rubric, reworded).score == 0
    claim = "Batch norm on two images per GPU gives noisy statistics; switch to group norm."
    result = scorer.score(rubric, claim)
    noisy = next(k for k in result.key_points if k.id == "noisy-batch-statistics")
    assert noisy.credit == 1.0 and result.score >= 70


def test_the_question_s_own_words_are_no_evidence(scorer, deck_rubric) -> None:
    """'bf16' and 'fp16' are key point terms, and every answer to "why bf16 rather than
    fp16?" says them: a wrong reason that names both earns nothing for them."""
    rubric = deck_rubric("dl-bf16-vs-fp16")
    r = scorer.score(
        rubric, "Because bf16 uses half the memory of fp16, so you can fit bigger models."
    )
    assert r.score <= 30, [(k.id, k.similarity) for k in r.key_points]
    right = scorer.score(
        rubric,
        "bf16 keeps fp32's eight exponent bits, so it has the same range and you don't need "
        "loss scaling; fp16 overflows past about 65,000.",
    )
    assert right.score >= 70


def test_a_right_statement_in_the_misconception_s_words_is_not_flagged(scorer, deck_rubric) -> None:
    """'normalises each feature using the statistics across the batch' shares most of
    its words with the swapped-axes misconception and with a batch-norm key point."""
    rubric = deck_rubric("dl-batchnorm-vs-layernorm")
    said = (
        "Batch norm computes its averages per channel over all the examples in the batch, "
        "so it needs reasonably large batches and keeps running averages for test time."
    )
    assert "swapped-axes" not in flagged(scorer.score(rubric, said))
    swap = "Layer norm uses the batch statistics, batch norm works per example."
    assert "swapped-axes" in flagged(scorer.score(rubric, swap))


@pytest.mark.parametrize(
    ("qid", "claim", "stated", "right", "right_floor"),
    [
        pytest.param(
            # "essentially the same operation ... pick whichever" says they do not differ
            # (rubric v6); picking each for its setting does not
            "dl-batchnorm-vs-layernorm",
            "no-difference",
            "They're essentially the same operation — layer norm is just batch norm applied "
            "once per layer — so pick whichever runs faster.",
            "Transformers: layer norm, because sequences vary and batches can be small, and "
            "it's per example. CNNs: batch norm, per channel over the batch, with running "
            "stats at test time.",
            90,
            id="norms-as-one-operation",
        ),
        pytest.param(
            # augmentation moved to validation, training kept raw: the fix the other way
            # round (rubric v7); saying never to augment validation is not it
            "dl-augmentation-leak",
            "augment-validation",
            "Augment the validation set and leave the training set as the raw originals. "
            "That way the model trains on clean images and gets tested on harder "
            "transformed ones.",
            "The augmented copies of one photo ended up on both sides of the split. Split "
            "the originals first, by source image, then augment only the training set on the "
            "fly; never augment the validation set, it has to look like the real photos.",
            70,
            id="augmenting-validation",
        ),
    ],
)
def test_a_rubric_claim_is_flagged_when_stated_not_when_rejected(
    scorer, deck_rubric, qid: str, claim: str, stated: str, right: str, right_floor: int
) -> None:
    """A misconception the rubric names is flagged on an answer that states it, and costs
    it the grade; a right answer in the same words is not flagged."""
    rubric = deck_rubric(qid)
    wrong = scorer.score(rubric, stated)
    assert claim in flagged(wrong)
    assert wrong.score <= 30
    good = scorer.score(rubric, right)
    assert claim not in flagged(good)
    assert good.score >= right_floor


def test_the_correct_contrast_is_not_flagged_as_the_swap(scorer, deck_rubric) -> None:
    """A right answer's "layer norm normalises across the features of each example, so
    it's independent of the batch" binds the swap's "layer norm ... across the batch" as
    well as it binds the layer-norm key point; it also states the swap's other clause the
    right way round."""
    rubric = deck_rubric("dl-batchnorm-vs-layernorm")
    right = scorer.score(
        rubric,
        "Batch norm for CNNs with decent batches, layer norm for transformers and small "
        "batches. Batch norm normalises each channel using statistics across the batch, so "
        "it keeps running averages for inference. Layer norm normalises across the features "
        "of each individual example, so it's independent of the batch and identical at "
        "train and test.",
    )
    assert "swapped-axes" not in flagged(right)
    assert right.score >= 90


def test_a_swap_said_both_ways_round_is_the_misconception(scorer, deck_rubric) -> None:
    """Each half of the swapped-roles misconception said in other words, each of its own
    optimiser, binds half of each half's words: together that is the swap, flagged, and
    the key points its clauses seemed to state earn nothing."""
    rubric = deck_rubric("dl-adamw-vs-l2")
    swap = scorer.score(
        rubric,
        "With AdamW the weight decay is added to the loss, so it goes through Adam's "
        "adaptive scaling, while Adam with L2 subtracts the decay straight from the weights "
        "and ignores the adaptive step sizes.",
    )
    assert "swapped-roles" in flagged(swap)
    assert swap.score <= 30
    right = scorer.score(
        rubric,
        "With Adam plus L2 the penalty's gradient goes through the adaptive scaling, so "
        "weights with big gradients barely get regularised. AdamW decouples the decay and "
        "shrinks the weights directly in the update, so every weight decays evenly.",
    )
    assert "swapped-roles" not in flagged(right)
    assert right.score >= 70


def test_a_misconception_the_answer_s_structure_states_costs_twice(scorer, deck_rubric) -> None:
    """A swap bound on three content words of its clause is the claim itself: it costs
    ``asserted_penalty`` times its penalty."""
    rubric = deck_rubric("dl-batchnorm-vs-layernorm")
    rubric_penalty = {m.id: m.penalty for m in rubric.misconceptions}["swapped-axes"]
    swap = scorer.score(
        rubric, "Layer norm uses the batch statistics, batch norm works per example."
    )
    found = {m.id: m.penalty for m in swap.misconceptions}
    assert found["swapped-axes"] == scorer.params.asserted_penalty * rubric_penalty
    assert swap.score == 0


def test_a_misconception_read_at_its_own_words_costs_twice(scorer, deck_rubric) -> None:
    """A reversed answer in the misconception's own sense, read at ``asserted_read`` or
    closer by the embeddings, states it outright: it costs ``asserted_penalty`` times its
    penalty, where a looser read costs it once."""
    rubric = deck_rubric("dl-transformer-warmup")
    rubric_penalty = {m.id: m.penalty for m in rubric.misconceptions}["warmup-starts-high"]
    said = scorer.score(
        rubric,
        "Warmup starts with a large learning rate and lowers it over the first few thousand"
        " steps, because at the start Adam's estimates are too small to make progress, so you"
        " need big steps to escape the initialisation.",
    )
    found = {m.id: m for m in said.misconceptions}["warmup-starts-high"]
    assert found.similarity >= scorer.params.asserted_read
    assert found.penalty == scorer.params.asserted_penalty * rubric_penalty
    assert said.score <= 30


def test_a_dash_ends_a_clause(scorer, deck_rubric) -> None:
    """ "The pipeline is starving the card — try more workers" is two clauses: the
    workers are not what starves, so the answer swaps no roles of "the GPU is starved, the
    input pipeline can't keep up"."""
    said = scorer.score(
        deck_rubric("dl-gpu-utilisation"),
        "Most likely the data pipeline is starving the card — try raising the number of "
        "DataLoader workers.",
    )
    assert not said.misconceptions
    assert said.score >= 50


def test_a_clause_about_two_entities_swaps_neither(scorer, deck_rubric) -> None:
    """ "Switch the batch norm layers to group norm" names batch norm first, and says
    what a key point about group norm says: a clause that names both is about both, and
    takes that key point nothing away. Said of batch norm alone, the per-image claim is
    the misconception (roles swapped), and costs the answer its credit."""
    rubric = deck_rubric("dl-small-batch-norm")
    switch = scorer.score(rubric, "Switch the batch norm layers to group norm.")
    assert {k.id: k.credit for k in switch.key_points}["use-group-norm"] > 0.5
    swap = scorer.score(
        rubric,
        "Batch norm looks at one image at a time, so it doesn't care how many images you "
        "have; group norm is the one that averages over the batch. Keep batch norm.",
    )
    assert "bn-per-example" in flagged(swap)
    assert swap.score <= 30


def test_a_role_swap_earns_neither_entity_s_key_point(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-batchnorm-vs-layernorm")
    swap = scorer.score(rubric, "Batch norm works per example and layer norm uses the batch.")
    assert {k.id: k.status for k in swap.key_points}["ln-per-example"] != "covered"
    right = scorer.score(
        rubric,
        "Layer norm for transformers, batch norm for CNNs with decent batch sizes. BN "
        "normalises each feature over the batch and breaks with small batches; LN normalises "
        "each example over its features, batch-independent.",
    )
    assert not right.misconceptions
    assert {k.id: k.status for k in right.key_points}["ln-per-example"] != "missed"
    assert right.score >= 70


def test_a_key_point_about_one_entity_quotes_a_clause_about_it(scorer, deck_rubric) -> None:
    """A batch norm key point credited on the whole answer quotes what the answer says of
    batch norm, not its layer norm sentence (the window the embeddings liked best)."""
    rubric = deck_rubric("dl-batchnorm-vs-layernorm")
    said = (
        "Batch norm rescales each feature using the average over all the examples in the "
        "current group, which suits image networks fed lots of examples at once but gets "
        "shaky when the group is small, and it needs stored averages once the model is in "
        "use. Layer norm rescales each example using only its own values, so it behaves the "
        "same whatever the group size, in training and in use."
    )
    r = scorer.score(rubric, said)
    kp = {k.id: k for k in r.key_points}
    assert kp["bn-batch-statistics"].status == "covered"
    assert kp["bn-batch-statistics"].evidence is not None
    assert kp["bn-batch-statistics"].evidence.startswith("Batch norm rescales each feature")
    assert "Layer norm" not in (kp["bn-train-eval-differ"].evidence or "")
    assert "Layer norm" in (kp["ln-per-example"].evidence or "")


def test_a_right_computation_states_no_misconception(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-conv-params")
    said = (
        "three times three times sixty four times one hundred twenty eight plus one hundred "
        "twenty eight for the biases so seventy three thousand eight hundred fifty six"
    )
    r = scorer.score(rubric, said)
    assert r.numeric is not None and r.numeric.correct
    assert not r.misconceptions
    assert not any("English" in n for n in r.notes)
    wrong = scorer.score(
        rubric,
        "the kernel is three by three so nine times a hundred twenty eight plus "
        "the biases, about one thousand two hundred eighty",
    )
    assert "filter-ignores-depth" in {m.id for m in wrong.misconceptions}


def test_the_match_matrix_is_lexical_for_every_pair() -> None:
    """``lexical_matrix`` (all sentences and windows at once) equals ``lexical``."""
    from sayitout.scoring.matching import Lexicon, lexical, lexical_matrix, stem_weights

    rows = [
        frozenset({"lower", "learn", "rate"}),
        frozenset({"clip", "gradient", "norm", "jump"}),
        frozenset({"identity", "layer", "extra"}),
    ]
    terms = [(frozenset({"learn", "rate"}),), (frozenset({"gradient", "clip"}),), ()]
    weights = stem_weights([[rows[0]], [rows[1]], [rows[2], frozenset({"layer"})]], 0.5)
    windows = [
        frozenset({"learn", "rate", "high"}),
        frozenset({"gradient", "clip", "layer"}),
        frozenset({"identity", "extra", "easy"}),
        frozenset(),
    ]
    got = lexical_matrix(Lexicon.build(rows, terms, weights), windows)
    for r, stems in enumerate(rows):
        for j, win in enumerate(windows):
            assert got[r, j] == pytest.approx(lexical(stems, win, terms[r], weights), abs=1e-6)


def test_a_key_point_said_word_for_word_deep_in_a_list_is_credited(scorer, deck_rubric) -> None:
    """Late chunking reads "smaller model," in the context of a long typed list, so its
    cosine with "a smaller model" falls under the floor; saying the words is evidence."""
    rubric = deck_rubric("dl-train-good-val-poor")
    answer = (
        "Overfitting (high variance): model memorises the train set. Fixes: more data / "
        "augmentation, dropout, weight decay (e.g. 0.01–0.1), smaller model, early stopping."
    )
    k = next(k for k in scorer.score(rubric, answer).key_points if k.id == "smaller-model")
    assert k.status == "covered" and k.evidence and "smaller model" in k.evidence, k
    lone = scorer.score(rubric, "Overfitting. Use a bigger model and train longer.")
    assert next(k for k in lone.key_points if k.id == "smaller-model").credit == 0


def test_the_verdict_names_a_point_made_only_when_prompted() -> None:
    """A point a follow-up reply made is no longer "missed" in the verdict line; a point
    never made comes first."""
    from sayitout.scoring.result import KeyPointResult
    from sayitout.scoring.verdict import verdict

    def kp(id_: str, status: str, weight: float = 1.0) -> KeyPointResult:
        return KeyPointResult(id_, f"Point {id_}.", weight, status, 0.0, None)

    points = [kp("a", "covered"), kp("b", "missed", 3.0), kp("c", "missed")]
    assert verdict("x", points, None, []) == "Covers 1 of 3 key points; you missed: point b."
    line = verdict("x", points, None, [], prompted={"b"})
    assert line == "Covers 1 of 3 key points (1 more when prompted); you missed: point c."
    line = verdict("x", points, None, [], prompted={"b", "c"})
    assert line.endswith("(2 more when prompted); made only when prompted: point b.")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Adam with L2 folds the decay into the gradient.", "Adam with L2 folds the decay"),
        ("AdamW decouples the decay.", "AdamW decouples the decay"),
        ("He initialisation keeps the variance.", "He initialisation keeps"),
        ("Dropout is on during training.", "dropout is on during training"),
    ],
)
def test_the_verdict_keeps_a_name_that_opens_a_point(text: str, shown: str) -> None:
    """A point follows "you missed:" in lower case, but a name keeps its capital."""
    from sayitout.scoring.result import KeyPointResult
    from sayitout.scoring.verdict import verdict

    points = [KeyPointResult("a", text, 1.0, "missed", 0.0, None)]
    assert f"you missed: {shown}" in verdict("x", points, None, [])


def test_a_full_marks_verdict_does_not_say_missed() -> None:
    """Under 100/100, "you missed" reads as a contradiction: the point not made is one to
    go further with."""
    from sayitout.bank.models import NumericAnswer
    from sayitout.scoring.numbers import judge
    from sayitout.scoring.result import KeyPointResult
    from sayitout.scoring.verdict import verdict

    points = [
        KeyPointResult("a", "Point a.", 1.0, "covered", 0.0, None),
        KeyPointResult("b", "Point b.", 1.0, "partial", 0.0, None),
    ]
    assert verdict("x", points, None, [], full=True) == (
        "Covers 1 of 2 key points (1 more partly); to go further: point b."
    )
    number = judge(NumericAnswer(value=2.303, tolerance=0.05, unit=""), "it's 2.303")
    assert verdict("it's 2.303", points, number, [], full=True) == (
        "Right number (2.303); to go further: point b."
    )
    assert "only partly: point b" in verdict("it's 2.303", points, number, [])


def test_the_verdict_says_a_point_was_said_the_other_way_round() -> None:
    """A key point that earned nothing because the answer said it the wrong way round
    (it has a reason) comes first in the verdict, and is not called "missed": the
    candidate said the words and needs to hear that they were reversed."""
    from sayitout.scoring.result import KeyPointResult
    from sayitout.scoring.verdict import verdict

    heavy = KeyPointResult("b", "Point b.", 3.0, "missed", 0.0, None)
    reversed_ = KeyPointResult(
        "c",
        "Step once, after the last micro-batch.",
        1.0,
        "missed",
        0.0,
        None,
        reason="You call the optimizer step after each micro-batch; this point needs it once.",
    )
    line = verdict("x", [heavy, reversed_], None, [])
    assert line == (
        "Covers 0 of 2 key points; said the other way round: step once, after the last micro-batch."
    )


def test_the_verdict_names_a_misconception_once_not_as_a_point_said_the_other_way_round() -> None:
    """A key point whose closest words state a misconception was not said the other way
    round: the verdict names the heaviest point missed, then the misconception."""
    from sayitout.scoring import reasons
    from sayitout.scoring.result import KeyPointResult, MisconceptionResult
    from sayitout.scoring.verdict import verdict

    mis = MisconceptionResult(
        "m", "2.30 means the model is overconfident.", "No.", 0.9, "x", None, 20
    )
    heavy = KeyPointResult("b", "Point b.", 3.0, "missed", 0.0, None)
    claimed = KeyPointResult(
        "c", "Point c.", 1.0, "missed", 0.0, None, reason=reasons.misconception(mis.text)
    )
    line = verdict("x", [heavy, claimed], None, [mis])
    assert line == (
        "Covers 0 of 2 key points; you missed: point b; "
        "states a misconception: 2.30 means the model is overconfident."
    )


def test_words_inside_numbers_are_found_in_one_pass() -> None:
    """``word_stems`` gives a word inside a stated number no stems, as the plain overlap
    test does, on a long number-heavy answer (it was quadratic: seconds at 20,000 words)."""
    from sayitout.scoring import numbers
    from sayitout.scoring.matching import word_stems

    text = "7e9 × 2 B = 14 GB, about forty-one point seven minutes; fp16 is 2 bytes. " * 40
    ws, found = words(text), numbers.find_numbers(text)
    naive = [
        frozenset()
        if any(m.start < w.end and w.start < m.end for m in found)
        else content_stems(text[w.start : w.end])
        for w in ws
    ]
    assert word_stems(text, ws, found) == naive


@pytest.mark.parametrize(
    ("qid", "mis", "wrong", "right"),
    [
        (
            "dl-adamw-vs-l2",
            "swapped-roles",
            "Plain Adam with L2 already applies the decay straight to the weights; AdamW is "
            "the one that folds it into the gradient so the adaptive scaling applies to it.",
            "With Adam the L2 gradient is divided by the second moment, so big-gradient "
            "weights barely decay; AdamW applies the decay to the weights directly.",
        ),
        (
            "dl-eval-nondeterministic",
            "modes-swapped",
            "You left it in eval mode, which is what turns dropout on. Call model.train() "
            "before you evaluate.",
            "You left it in train mode, so dropout is still on. Call model.eval() before you "
            "evaluate.",
        ),
        (
            "dl-model-size",
            "inverted-diagnosis",
            "When validation loss is far worse than training loss the network is too small, "
            "so give it more layers.",
            "When training loss is low but validation loss is far worse, it is overfitting: "
            "regularise it or make it smaller.",
        ),
        (
            "dl-oom-keep-batch",
            "one-backward-at-end",
            "Hold on to the activations of all four micro-batches and do one backward pass "
            "over everything at the end.",
            "Run four micro-batches of eight, call backward on each so the gradients add up, "
            "and step once after the fourth.",
        ),
        (
            "dl-loss-stuck-at-chance",
            "overfitting-diagnosis",
            "It's already overfitting, so I'd put in dropout and more regularisation.",
            "First make sure it can overfit one small batch; if it can't, there's a bug.",
        ),
        (
            "dl-val-below-train",
            "overfitting-diagnosis",
            "If validation loss is lower than training loss the model is overfitting, so add "
            "regularisation.",
            "Dropout is on only in training, so the training loss is higher; it isn't "
            "overfitting, which would show validation worse than training.",
        ),
    ],
)
def test_a_common_reversal_is_named_and_the_right_claim_is_not(
    scorer, deck_rubric, qid: str, mis: str, wrong: str, right: str
) -> None:
    """The deck names the reversals candidates make most (``misconceptions``), so the card
    says which one was heard; the claim stated the right way round is not flagged."""
    rubric = deck_rubric(qid)
    assert mis in flagged(scorer.score(rubric, wrong))
    assert mis not in flagged(scorer.score(rubric, right))


# an answer to dl-huge-batch ("what goes wrong with a huge batch?"), given elsewhere
HUGE_BATCH_ANSWER = (
    "A very big batch gives an accurate gradient but few optimiser steps per epoch, and "
    "past the critical batch size doubling it no longer halves the steps. It needs the "
    "learning rate scaled up with a warmup, and it tends to find sharp minima that "
    "generalise worse, so a moderate batch is usually the better trade."
)


def test_an_answer_to_another_question_of_the_deck_earns_no_key_point(
    deck_scorer, deck_rubric
) -> None:
    """It reads like another question's model answer far more than its own: the card
    says which question it answers, and none of its words count here."""
    result = deck_scorer.score(deck_rubric("dl-train-good-val-poor"), HUGE_BATCH_ANSWER)
    assert result.score == 0
    assert all(k.credit == 0 and k.status == "missed" for k in result.key_points)
    (note,) = (n for n in result.notes if "another question" in n)
    other = deck_rubric("dl-batch-size-lr-scaling")  # the closest: batch size and LR
    assert other.question in note
    # the verdict line says it too: on a small screen the notes may be out of view
    assert result.verdict == (
        'Answers another question ("what\'s a common starting point for the learning rate?"), '
        "not this one."
    )
    # a follow-up keeps the line, and saying what was asked is counted in it
    from sayitout.scoring.result import AnswerScore
    from sayitout.session.followups import score_reply, with_follow_up
    from sayitout.speech.transcript import Transcript

    rubric = deck_rubric("dl-train-good-val-poor")
    kp = rubric.key_points[0]
    (reply, *_) = score_reply(
        deck_scorer,
        rubric,
        kp,
        kp.follow_ups[0],
        Transcript(text="That's overfitting: it fits the training set only.", duration=3),
        answer=result,
    )
    after = with_follow_up(result, reply)
    assert after.verdict.startswith("Answers another question")
    assert after.verdict.endswith("; 1 key point made when prompted.")
    assert AnswerScore.from_dict(after.to_dict()).answers_other == other.question
    # the same answer to its own question is scored as usual
    own = deck_scorer.score(deck_rubric("dl-huge-batch"), HUGE_BATCH_ANSWER)
    assert own.score >= 70 and not any("another question" in n for n in own.notes)


def test_a_right_answer_in_a_related_topic_is_not_taken_for_another(
    deck_scorer, deck_rubric
) -> None:
    """Overfitting answers share words with the deck's regularisation and data questions;
    only an answer much closer to another question's model answer is moved."""
    said = (
        "It's overfitting: training keeps improving but validation stalls, so the model "
        "memorises the training set. Get more data or augment it, regularise with dropout "
        "or weight decay, try a smaller model, and stop early on validation loss."
    )
    result = deck_scorer.score(deck_rubric("dl-train-good-val-poor"), said)
    assert not any("another question" in n for n in result.notes)
    assert result.score >= 70


def test_an_answer_strong_on_its_own_rubric_stays_with_its_question(
    deck_scorer, deck_rubric
) -> None:
    """However close an answer sits to a sister question's model answer, it answers its own
    question when it scores ``off_topic_keeps`` against that question's rubric. The margin
    is narrowed here until the move reaches this strong overfitting answer (0.24 closer to
    the "validation loss rises after epoch 5" answer than to its own)."""
    import dataclasses

    from sayitout.scoring import Scorer

    said = (
        "It's overfitting: training keeps improving but validation stalls, so the model "
        "memorises the training set. Get more data or augment it, regularise with dropout "
        "or weight decay, try a smaller model, and stop early on validation loss."
    )
    rubric = deck_rubric("dl-train-good-val-poor")
    narrow = dataclasses.replace(deck_scorer.params, off_topic_margin=0.15)
    kept = Scorer(embedder=deck_scorer.embedder, neighbours=deck_scorer.neighbours, params=narrow)
    result = kept.score(rubric, said)
    assert result.answers_other is None and result.score >= 70
    moved = Scorer(
        embedder=deck_scorer.embedder,
        neighbours=deck_scorer.neighbours,
        params=dataclasses.replace(narrow, off_topic_keeps=101.0),
    ).score(rubric, said)
    assert moved.answers_other is not None and moved.score == 0
    assert "another question" in moved.notes[0]


def test_a_thin_rubric_counts_coverage_in_full_sooner() -> None:
    """A rubric whose key points have no paraphrases (an imported deck) meets a right
    answer only through each point's own text, so its matches run lower: coverage counts
    in full from ``thin_full_coverage`` (0.70) rather than ``full_coverage`` (0.75)."""
    from sayitout.scoring.matching import Params
    from sayitout.scoring.result import KeyPointResult
    from sayitout.scoring.verdict import overall_score

    def kp(id_: str, status: str) -> KeyPointResult:
        credit = 1.0 if status == "covered" else 0.0
        return KeyPointResult(id_, f"Point {id_}.", 1.0, status, credit, None, None, credit)

    half = [kp("a", "covered"), kp("b", "covered"), kp("c", "missed"), kp("d", "missed")]
    assert overall_score(half, None, [], Params()) == 67
    assert overall_score(half, None, [], Params(), thin=True) == 71


def test_initialisms_come_from_the_rubric_s_own_names() -> None:
    """A typed answer abbreviates the names the rubric spells out ("BN" for "batch norm");
    an imported rubric lists no terms, so the initialisms come from its own words. One two
    names share, or one that spells a function word, stands for none."""
    from sayitout.scoring.matching import initialisms

    found = initialisms(
        [
            "Batch norm or layer norm?",
            "Batch norm normalises each channel over the batch; the learning rate stays.",
            "Lower rates help, and a large rate hurts.",
        ]
    )
    assert found["bn"] == {"batch", "norm"}
    assert found["ln"] == {"lay", "norm"}
    assert "lr" not in found  # "learning rate" and "large rate"
    assert "or" not in found


def test_a_typed_initialism_meets_the_name_it_abbreviates(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-batchnorm-vs-layernorm")
    typed = scorer.score(
        rubric,
        "BN: μ, σ² per channel over (N, H, W) → batch-dependent, needs running stats for "
        "eval, degrades for N < ~8. LN: μ, σ² per token over d_model → independent of "
        "batch, same in train and eval → transformers, RNNs; BN → CNNs with big batches.",
    )
    assert typed.score >= 70


def test_a_clause_opened_on_a_frame_is_about_the_entity_after_it() -> None:
    roles = Roles({"biggerbatch", "learningrat"})
    said = "With a bigger batch you should lower the learning rate, so divide it by four"
    assert [(c.entity, c.mixed) for c in roles.clauses(said)] == [("learningrat", True)]
    # a frame with no other entity after it, or a comparison, keeps the first
    assert [c.entity for c in roles.clauses("With a bigger batch, noise drops")] == ["biggerbatch"]
    said = "With a bigger batch than the learning rate allows"
    assert [c.entity for c in roles.clauses(said)] == ["biggerbatch"]


def test_the_thing_compared_with_is_not_the_subject() -> None:
    roles = Roles({"adamw", "adam"})
    said = "AdamW is used because it's faster and uses less memory than Adam"
    assert [(c.entity, c.than) for c in roles.clauses(said)] == [("adamw", False), ("adamw", True)]


def test_a_pronoun_after_a_linking_word_is_the_entity_before() -> None:
    roles = Roles({"adamw", "adam"})
    said = "AdamW drops the second moment, so it uses half the memory of Adam"
    assert [c.entity for c in roles.clauses(said)] == ["adamw", "adamw"]


def test_plain_words_for_helpful_gradient_noise(scorer, deck_rubric) -> None:
    """ "A bit of randomness in each correction helps the model settle on solutions that
    hold up on new data" is the gradient-noise point in plain words (40 before its
    paraphrase)."""
    said = scorer.score(
        deck_rubric("dl-huge-batch"),
        "Past a point the extra examples tell you almost nothing new. A bit of randomness "
        "in each correction actually helps the model settle on solutions that hold up on "
        "new data, and averaging over enormous groups takes that away.",
    )
    assert next(k for k in said.key_points if k.id == "gradient-noise-helps").credit > 0


def test_an_item_of_notes_earns_its_point(scorer, deck_rubric) -> None:
    """ "augment train only", one item of a list of notes, earns the train-only point (53
    before the items had windows of their own)."""
    said = scorer.score(
        deck_rubric("dl-augmentation-leak"),
        "Leak via augmented duplicates → group split by original image, augment train only, "
        "dedupe val (perceptual hash), re-measure on new photos.",
    )
    assert next(k for k in said.key_points if k.id == "augment-train-only").credit > 0
    assert said.score >= 70


def test_a_possessive_subject_names_its_entity() -> None:
    """ "Batch norm's statistics come from each image alone" is about batch norm; "it goes
    through Adam's adaptive scaling" is about what goes, not about Adam."""
    roles = Roles.for_rubric(
        [],
        ["Batch norm takes its statistics from each image alone."],
        ["Batch norm pools statistics across the batch.", "Group norm works per example."],
        "Batch norm or group norm?",
    )
    said = roles.clauses("Batch norm's statistics come from each image alone.")
    assert [c.entity for c in said] == ["batchnorm"]
    assert roles.clauses("while BN's running mean lags")[0].entity == "batchnorm"
    adam = Roles.for_rubric(
        [], [], ["AdamW decouples the decay.", "Adam scales L2."], "AdamW or Adam?"
    )
    assert adam.clauses("so it goes through Adam's adaptive scaling")[0].entity is None
    assert adam.clauses("while Adam's scaling shrinks it")[0].entity == "adam"


def test_markdown_marks_are_not_words(scorer, lr_rubric) -> None:
    """A typed answer may carry Markdown: its marks go, an asterisk between numbers stays."""
    plain = "Lower the learning rate first, then clip the gradient norm."
    marked = "**Lower the learning rate** first, then clip the *gradient norm*."
    assert scorer.score(lr_rubric, marked).score == scorer.score(lr_rubric, plain).score
    kept = "2**24, 4096*4096, 3 * 3"
    assert unmarked(f"`model.eval()`, {kept}") == f"model.eval(), {kept}"
    assert unmarked("**bold with *italic* inside**") == "bold with italic inside"
    assert unmarked("It's **4096 × 4096** weights, 2 ** 24") == "It's 4096 × 4096 weights, 2 ** 24"


def test_learning_a_handful_by_heart_is_overfitting_a_small_batch(scorer, deck_rubric) -> None:
    """ "Training on a handful of examples: any working setup can learn those by heart"
    is the overfit-one-batch check in plain words (it earned 0.01 of it, and the strong
    answer scored 56)."""
    rubric = deck_rubric("dl-accuracy-at-chance")
    got = scorer.score(
        rubric,
        "Chance level means nothing is being learned, so I'd suspect a bug first. A quick "
        "test is training on a handful of examples: any working setup can learn those by "
        "heart.",
    )
    assert "overfit-one-batch" in {k.id for k in got.key_points if k.status == "covered"}
