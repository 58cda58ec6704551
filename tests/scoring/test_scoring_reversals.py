"""Claims a bag of words cannot tell from their reversal: the order of steps ("augment
before you split" is not "split before augmenting") and a switch in a phase ("dropout is
active during evaluation" is not "off during validation")."""

from __future__ import annotations

import pytest

from sayitout.bank.models import Rubric
from sayitout.scoring.phases import EVALUATION, OFF, ON, TRAINING, agrees, contradicts, settings
from sayitout.scoring.polarity import analyse
from sayitout.scoring.sequence import Order, orders, reversed_order
from sayitout.scoring.statements import diagnoses, omissions, verdicts

SPLIT_FIRST = orders("Split by original image before augmenting, so every copy lands in one set.")


def _order(first: str, second: str) -> Order:
    return Order(frozenset(first.split()), frozenset(second.split()))


def test_orders_read_from_each_cue() -> None:
    assert (_order("split original imag", "augment"),) == SPLIT_FIRST
    assert orders("split first, then augment") == (_order("split", "augment"),)
    assert orders("augment everything and then split") == (_order("augment everyth", "split"),)
    assert orders("augment after splitting") == (_order("split", "augment"),)
    # a leading cue orders its clause against the rest of the sentence
    assert orders("Before augmenting, split by source.") == (_order("split sourc", "augment"),)
    assert orders("After splitting, augment.") == (_order("split", "augment"),)
    assert orders("warm up, followed by cosine decay") == (_order("warm", "cosin decay"),)
    assert orders("split first, then augment and validate") == (_order("split", "augment valid"),)
    assert orders("then shuffle everything and split") == ()  # no left side
    assert orders("augment, then shuffle everything and split") == (
        _order("augment", "shuffl everyth split"),
    )
    # a call is its name, and its empty brackets end no clause
    assert orders("optimizer.zero_grad() after loss.backward()") == (
        _order("backward", "zero_grad"),
    )


def test_calls_said_in_the_other_order() -> None:
    zero_first = orders("call zero_grad() before backward(), then step()")
    said = "make sure you call optimizer.zero_grad() after loss.backward() and before step()"
    assert reversed_order(zero_first, orders(said))
    assert not reversed_order(zero_first, orders("optimizer.zero_grad(), then loss.backward()"))


def test_call_names_no_step() -> None:
    """ "call" says how a step is taken, not which: "call optimizer step, then backward"
    is the step first, against "call zero_grad() before backward(), then step()" though
    both call something first."""
    zero_first = orders("call zero_grad() before backward(), then step()")
    said = orders("in the loop call optimizer step, then backward, then zero_grad")
    assert reversed_order(zero_first, said)
    assert not reversed_order(zero_first, orders("call backward, then step, then zero_grad"))


@pytest.mark.parametrize(
    "text",
    [
        "don't augment before you split",  # negated
        "never augment before the split",
        "if you augment before you split, copies leak",  # a condition, not a claim
        "if it fits in memory, then augment it",  # a consequence, not a step
        "augment the photos and split them",  # no order said
        "augment first and don't split afterwards",  # negated
    ],
)
def test_no_order_stated(text: str) -> None:
    assert not reversed_order(SPLIT_FIRST, orders(text))


@pytest.mark.parametrize(
    ("text", "reversed_"),
    [
        ("Augment before you split.", True),
        ("You need to split after augmenting, not before.", True),
        ("augment, then split randomly", True),
        # a verb joined by "and" to a step of one or two words is part of it
        ("Augment everything first and then shuffle and split the images.", True),
        ("Augment first, then shuffle everything and split randomly.", True),
        ("split first, then augment", False),
        # "first ... afterwards" orders the two steps as "before" does
        ("Augment first and split afterwards.", True),
        ("Do the split first, and only afterwards augment.", False),
        ("Split first; augment the training images afterwards.", False),
        # the mistake described and the fix given in order: the fix stands
        ("They augmented before splitting. Split by original first, then augment.", False),
    ],
)
def test_reversed_order(text: str, reversed_: bool) -> None:
    assert reversed_order(SPLIT_FIRST, orders(text)) is reversed_


DROPOUT = settings("Dropout is on during training and off during validation, so it's a handicap.")


@pytest.mark.parametrize(
    ("text", "contradicted"),
    [
        ("Dropout is only active at validation time, so validation looks better.", True),
        ("Dropout is active during evaluation and switched off during training.", True),
        ("Because dropout is only used at evaluation, it averages sub-networks.", True),
        ("Dropout isn't active during training.", True),
        ("At eval time dropout is turned off, so the model is stronger.", False),
        ("turn off dropout during eval", False),
        # "on" as a preposition, and a switch about something else
        ("we evaluate on the validation set and dropout is off", False),
        ("because of dropout, during training some neurons are off", False),
        # a mode is not a phase: in evaluation one may still be in train mode ...
        ("The model was left in train mode, so dropout was on during evaluation", True),
        # ... but training runs in train mode: on in eval mode is off in training
        ("In eval mode dropout is active", True),
        ("Dropout is only applied in eval mode, and training is where it's off.", True),
        ("In train mode dropout is on and in eval mode it's off.", False),
        # a subject of two joined by "and" (a reversed answer earned the dropout point)
        (
            "It's because dropout and batch norm's batch statistics are only used at "
            "evaluation, while training runs the plain deterministic model",
            True,
        ),
        ("Dropout and augmentation are on during training and off at validation.", False),
        ("I'd keep dropout, and the batch statistics are used at evaluation", False),
        ("It is dropout and batch norm is used at evaluation", False),
        # a phase turned down by "rather than" or "instead of" has the other switch
        ("Dropout is applied at validation time rather than during training.", True),
        ("Dropout is used during evaluation instead of during training.", True),
        ("Dropout is applied during training rather than at validation time.", False),
        ("Dropout is applied in training rather than in training.", False),
    ],
)
def test_a_switch_the_other_way_in_a_phase(text: str, contradicted: bool) -> None:
    assert contradicts(DROPOUT, settings(text)) is contradicted


BN_STATISTICS = settings(
    "The running averages used at evaluation don't match the noisy per-batch statistics "
    "seen in training, so test performance suffers."
)


@pytest.mark.parametrize(
    ("text", "contradicted"),
    [
        (
            "In training it normalises with the running mean, and at test time with the "
            "current batch's own statistics.",
            True,
        ),
        ("Batch norm relies on the stored running stats during training.", True),
        ("In eval mode it takes each batch's statistics, not the running averages.", True),
        (
            "During training each batch's statistics are used; at test time the running averages.",
            False,
        ),
        (
            "In train mode it uses the batch statistics and keeps updating its running mean.",
            False,
        ),
        ("In eval mode it uses the running mean rather than the batch statistics.", False),
        # running averages kept up to date are not the ones used
        ("During training it keeps updating the running averages.", False),
        ("In train mode the running stats even get updated from the validation data.", False),
        # the two kinds compared, in one phase or in none, say which is used nowhere
        ("Running stats ≠ batch stats at eval, hence the gap.", False),
        ("Noisy batch stats don't match the running stats at all.", False),
    ],
)
def test_batch_norm_statistics_the_other_way_in_a_phase(text: str, contradicted: bool) -> None:
    """Which statistics batch norm uses in a phase is a setting: each batch's own on, the
    running averages off."""
    assert BN_STATISTICS
    assert contradicts(BN_STATISTICS, settings(text)) is contradicted


EVAL_ONLY = settings(
    "Batch norm behaves differently in training and evaluation, where it uses running averages."
)


@pytest.mark.parametrize(
    ("text", "contradicted"),
    [
        # the statistics of one phase say those of the other: one switch between them
        ("Batch norm uses its running averages during training too.", True),
        ("At test time it normalises with each batch's own statistics.", True),
        ("During training it uses each batch's own statistics.", False),
        ("In eval mode it uses the stored running mean.", False),
    ],
)
def test_batch_norm_statistics_of_one_phase_bear_on_the_other(
    text: str, contradicted: bool
) -> None:
    """A relative clause ("..., where it uses running averages") is in the phase that
    ends the clause before it; what batch norm normalises with in one phase says what it
    uses in the other."""
    assert EVAL_ONLY
    assert contradicts(EVAL_ONLY, settings(text)) is contradicted


def test_a_phase_swap_of_batch_norm_statistics_loses_the_point(scorer, deck_rubric) -> None:
    rubric = deck_rubric("dl-small-batch-norm")
    swapped = (
        "Two images per GPU is the trouble: batch norm normalises with its running "
        "averages while training and with the per-batch statistics at test time, so "
        "the two disagree."
    )
    said = scorer.score(rubric, swapped)
    point = next(k for k in said.key_points if k.id == "train-eval-mismatch")
    assert point.status == "missed"
    assert "running averages" in (point.reason or "")


@pytest.mark.parametrize(
    ("text", "contradicted"),
    [
        ("Apply the augmentation to the validation set only, keep training clean.", True),
        ("Keep the training originals clean and apply the augmentations to validation.", True),
        ("Apply augmentation to the training split only, after splitting.", False),
        ("Don't apply augmentation to validation; augment the training set.", False),
    ],
)
def test_applying_a_step_in_a_phase_is_a_switch(text: str, contradicted: bool) -> None:
    """ "Apply" switches a step on in the phase it names, as "applied" does."""
    rubric = settings("augmentation is applied in training and off for validation")
    assert contradicts(rubric, settings(text)) is contradicted


@pytest.mark.parametrize(
    ("text", "contradicted"),
    [
        ("Augment the validation set and leave the training set as the raw originals.", True),
        ("The fix is to augment the validation set too, so it is harder.", True),
        ("Augment the training set only; never augment the validation images.", False),
        ("Stop augmenting the validation images: keep the flips on the training side.", False),
        ("There's no need to augment the validation set.", False),
        # a leak described, not a step asked for
        ("The augmented copies landed in validation, so split by original first.", False),
        ("You put augmented copies in validation, and that's the leak.", False),
        # ... unless an instruction places the augmented copies
        ("Train on the clean originals and put the augmented copies in validation.", True),
        ("I'd put the augmented images in validation instead, to make it harder.", True),
        ("Keep the augmented copies out of validation.", False),
        ("Don't put augmented images in validation.", False),
    ],
)
def test_a_verb_that_names_what_it_switches(text: str, contradicted: bool) -> None:
    """ "Augment the validation set" switches augmentation on in evaluation, and so does
    "put the augmented copies in validation" (two reversed answers, at 48 and 32)."""
    rubric = settings("augmentation is applied in training and off for validation")
    assert contradicts(rubric, settings(text)) is contradicted


TRAIN_MODE = settings("In training mode dropout stays on and randomly zeroes units.")


@pytest.mark.parametrize(
    ("text", "contradicted"),
    [
        # the two modes are one switch: on in eval mode is off in train mode
        ("In eval mode dropout is active, so every pass differs.", True),
        ("Eval mode is what turns dropout on.", True),
        ("Train mode turns dropout off.", True),
        ("In train mode dropout is still on.", False),
        ("In eval mode dropout is off.", False),
        # a phase is not a mode
        ("Dropout is active during evaluation.", False),
        # a sentence that opens on a mode puts its later clauses in it
        ("In eval mode batch norm uses batch statistics and dropout is switched on.", True),
        ("In train mode batch norm uses batch statistics and dropout is switched on.", False),
        ("In eval mode batch norm uses running averages and in train mode dropout is on.", False),
        # a clause that speaks of the mode named before it is in that mode, not the phase
        ("For validation you want model.train(), the mode where dropout is turned off.", True),
        ("For validation you want model.eval(), the mode where dropout is turned off.", False),
        ("It has to be in training mode for evaluation so that dropout is turned off.", True),
        # "freezes" switches off
        ("Train mode is the one that freezes dropout.", True),
        # "otherwise" is the other mode from the one the sentence before named
        ("Put the model in eval mode. Otherwise dropout stays off.", True),
        ("Put the model in eval mode. Otherwise dropout stays active.", False),
        ("Put the model in train mode. Otherwise dropout stays off.", False),
    ],
)
def test_a_switch_the_other_way_in_a_mode(text: str, contradicted: bool) -> None:
    assert contradicts(TRAIN_MODE, settings(text)) is contradicted


@pytest.mark.parametrize(
    ("text", "agreed"),
    [
        # the misconception's switch, in other words: it is stated
        ("You forgot model.train(). In eval mode PyTorch keeps dropout on.", True),
        ("Train mode turns dropout off.", True),
        # the right way round, or both ways: not stated
        ("In eval mode dropout is off.", False),
        ("In eval mode dropout is on, and in train mode it is on too.", False),
        ("Dropout is active during evaluation.", False),
    ],
)
def test_a_switch_the_same_way_as_a_misconception(text: str, agreed: bool) -> None:
    """``agrees`` is ``contradicts`` the other way round: what a misconception such as
    "eval mode turns dropout on" switches, said the same way and never the other."""
    swapped = settings("Eval mode turns dropout on, so call model dot train before evaluating.")
    assert agrees(swapped, settings(text)) is agreed


WANTS_EVAL = settings("You forgot to put the model in evaluation mode with model dot eval.")


@pytest.mark.parametrize(
    ("text", "contradicted"),
    [
        # a clause that asks for a mode sets the model's mode for evaluation
        ("You forgot to call model.train() before evaluating.", True),
        ("Put it in training mode for validation.", True),
        ("You need model dot train there.", True),
        ("You left the model in training mode — you forgot to call model.eval().", False),
        ("Remember to call model.eval() first.", False),
        # the mode one is asked out of is the other one
        ("I forgot to switch the network out of training mode.", False),
        ("Switch it out of eval mode for validation.", True),
        # one that says a mode is not needed asks for nothing; a call for training is
        # about training
        ("You don't need model.train() for validation.", False),
        ("Call model.train() again before the next training epoch.", False),
    ],
)
def test_a_mode_asked_for(text: str, contradicted: bool) -> None:
    assert contradicts(WANTS_EVAL, settings(text)) is contradicted


def test_apply_is_about_its_object() -> None:
    """ "PyTorch applies dropout" switches dropout, not PyTorch; a dash ends a clause, so
    "You forgot to call model.train() — in eval mode ..." names one mode per clause."""
    said = settings(
        "You forgot to call model.train() — in eval mode PyTorch applies dropout and "
        "batch-norm batch statistics."
    )
    assert contradicts(TRAIN_MODE, said)
    assert contradicts(WANTS_EVAL, said)


def test_a_reversed_mode_diagnosis_earns_neither_mode_point(reversal_check) -> None:
    """Asking for train mode, and saying eval mode applies dropout, is the modes swapped:
    neither the call-eval point nor the dropout point is earned."""
    reversal_check(
        "dl-eval-nondeterministic",
        points={"call-model-eval", "dropout-still-active"},
        right="You forgot to call model.eval(); in training mode dropout stays on, so every "
        "pass drops different units.",
        wrong="You forgot to call model.train() — in eval mode PyTorch applies dropout and "
        "batch-norm batch statistics, which makes results random.",
    )


@pytest.mark.parametrize(
    "answer",
    [
        # shares the words of "you forgot to put it in training mode", and asks for the
        # other mode
        "You left the model in training mode — you forgot to call model.eval(). Dropout is "
        "still randomly switching off units, and batch norm is using per-batch statistics.",
        # says the right way round what the misconception says backwards, in its words
        "Putting the model in eval mode. Otherwise dropout stays active and batch norm uses "
        "batch statistics, so two runs differ. Calling model dot eval turns dropout off.",
        # a switch said with no phase: only a switch in a phase states a misconception
        # that is one, however close the words
        "model.eval(). Without it, dropout keeps dropping units at evaluation and batch "
        "norm uses each batch's own statistics, so the same checkpoint scores differently "
        "each run. In eval mode dropout does nothing and batch norm uses its stored "
        "statistics, so the result repeats.",
    ],
)
def test_a_right_diagnosis_in_the_swapped_words_is_not_flagged(
    scorer, deck_rubric, answer: str
) -> None:
    """A right answer in the words of the modes-swapped misconception does not state it."""
    said = scorer.score(deck_rubric("dl-eval-nondeterministic"), answer)
    assert "modes-swapped" not in {m.id for m in said.misconceptions}
    assert said.score >= 70


def test_augmented_copies_placed_in_validation_are_the_reversal(scorer, deck_rubric) -> None:
    """ "Train on the clean originals and put the augmented copies in validation" earned
    "apply augmentation only to the training set" (0.65) and flagged nothing: a reversed
    answer at 48. The placement is a switch, against that point and as the
    misconception "augment the validation set" says."""
    rubric = deck_rubric("dl-augmentation-leak")
    said = scorer.score(
        rubric,
        "Train on the clean originals and put the augmented copies in validation instead, "
        "so validation is the harder set.",
    )
    assert "augment-validation" in {m.id for m in said.misconceptions}
    assert next(k for k in said.key_points if k.id == "augment-train-only").credit == 0
    assert said.score <= 30


def test_a_misconception_switched_as_said_is_flagged(scorer, deck_rubric) -> None:
    """The modes-swapped misconception, said as "in eval mode PyTorch keeps dropout on",
    shares too few words with its text for the embeddings; the switch it states is the
    misconception's."""
    rubric = deck_rubric("dl-eval-nondeterministic")
    said = (
        "You forgot to call model.train() before evaluating. In eval mode PyTorch keeps "
        "dropout on and batch norm uses per-batch statistics, so results are random."
    )
    assert "modes-swapped" in {m.id for m in scorer.score(rubric, said).misconceptions}
    right = "You forgot model.eval(): in train mode dropout stays on, so each pass differs."
    assert "modes-swapped" not in {m.id for m in scorer.score(rubric, right).misconceptions}


def test_what_a_switch_is_about() -> None:
    first, second = DROPOUT
    assert (first.switch, first.phase, first.about) == (ON, TRAINING, "dropout")
    # "off during validation" goes on about dropout
    assert (second.switch, second.phase, second.about) == (OFF, EVALUATION, "dropout")


def _rubric(text: str, paraphrase: str) -> Rubric:
    """A one-claim rubric, with a paraphrase that names the claim's words and no order."""
    return Rubric.model_validate(
        {
            "question_id": "test-reversal",
            "key_points": [
                {"id": "claim", "text": text, "paraphrases": [paraphrase]},
                {"id": "other", "text": "Training loss is averaged over the epoch."},
            ],
            "model_answer": text,
        }
    )


@pytest.mark.parametrize(
    ("rubric", "right", "wrong"),
    [
        (
            _rubric(
                "Split by original image before augmenting, so every copy lands in one set.",
                "do a group split by the source image",
            ),
            "Group split by the source image first, then augment the copies.",
            "Augment the images first, then split them by source image.",
        ),
        (
            _rubric(
                "Dropout is on during training and off during validation.",
                "the training loss is measured with dropout noise",
            ),
            "Dropout is active while training and off at validation time.",
            "Dropout is only active at validation time, so it looks better.",
        ),
    ],
)
def test_an_answer_that_reverses_the_claim_earns_nothing_for_it(
    scorer, rubric: Rubric, right: str, wrong: str
) -> None:
    assert scorer.score(rubric, right).key_points[0].status == "covered"
    reversed_ = scorer.score(rubric, wrong).key_points[0]
    assert reversed_.status == "missed"
    # the paraphrase without an order or a phase gives no way round it
    assert reversed_.evidence is None


def test_an_answer_arguing_for_the_reversal_earns_nothing_for_the_point(reversal_check) -> None:
    """ "Divide the learning rate by four" states the misconception "lower the learning
    rate"; its argument ("the steps are already four times larger") shares the key
    points' words, but a key point that the flagged misconception reverses earns nothing
    in that answer. The right answer keeps its credit."""
    wrong = reversal_check(
        "dl-batch-size-lr-scaling",
        wrong="Divide the learning rate by four. A batch four times bigger sums four times as "
        "much gradient, so the steps are already four times larger and you have to "
        "compensate by shrinking the rate.",
        right="Raise it four times, 0.1 to 0.4: the linear scaling rule, since a batch four "
        "times bigger gives a less noisy gradient and a quarter as many steps. Don't lower it.",
        points={"multiply-by-four", "linear-scaling-rule"},
    )
    assert "lower-learning-rate" in {m.id for m in wrong.misconceptions}


def test_a_key_point_the_misconception_reverses_does_not_explain_it_away(reversal_check) -> None:
    """ "Divide it by four. A batch of 1,024 gives a gradient that's four times larger"
    reads like "the batch is four times larger, so raise the learning rate four times"
    better than like the misconception "lower the learning rate", and words a key point
    explains better are no misconception. But that key point is the one the misconception
    says the other way round: the misconception stands, and the key point earns nothing
    in its words (a reversed answer scored 32)."""
    wrong = reversal_check(
        "dl-batch-size-lr-scaling",
        wrong="Divide it by four. A batch of 1,024 gives a gradient that's four times larger, "
        "so to keep the step the same size you shrink the learning rate by the same factor.",
        right="Multiply it by four. A batch of 1,024 is four times larger than 256, so by the "
        "linear scaling rule the learning rate goes up four times, with a warmup.",
        points={"multiply-by-four"},
    )
    assert "lower-learning-rate" in {m.id for m in wrong.misconceptions}


def test_a_key_point_explains_away_a_misconception_the_answer_does_not_argue(
    scorer, deck_rubric
) -> None:
    """ "The learning rate has to go up to keep the same progress per epoch" reads a little
    like "you can keep the same learning rate", and better like the key point it says: the
    answer goes up about the learning rate, not the misconception's way, so the key point
    still explains those words away (a strong answer fell 100 → 68 without this)."""
    answer = (
        "Memory is the obvious limit, though you can get around it with accumulation or "
        "more GPUs. Generalisation can suffer, since the noise in small-batch gradients acts "
        "as a regulariser that big batches lose. The learning rate has to go up to keep the "
        "same progress per epoch, and that needs warmup or layer-wise schemes like LARS to "
        "stay stable. But the main reason is efficiency: beyond a critical batch size the "
        "gradient estimate is already accurate, so extra examples per step buy almost no "
        "extra progress, and you spend more compute to reach the same loss."
    )
    result = scorer.score(deck_rubric("dl-huge-batch"), answer)
    assert not result.misconceptions
    assert result.score >= 70


def test_an_act_reversed_earns_nothing_for_its_purpose(reversal_check) -> None:
    """ "Raise β2 toward 0.9999 so the second moment reacts faster" says the key point's
    purpose ("so the second-moment estimate reacts faster") after the opposite act, and
    "drop gradient clipping" does without clipping: neither earns its key point."""
    reversal_check(
        "dl-loss-spikes",
        wrong="Raise Adam's β2 toward 0.9999 so the second moment reacts faster to big "
        "gradients, and drop gradient clipping since clipping is what slows the recovery.",
        right="Clip the gradient norm at 1.0, and lower Adam's β2 to 0.95 so the second "
        "moment reacts faster to big gradients.",
        points={"lower-adam-beta2", "gradient-clipping"},
    )


def test_a_swap_the_roles_and_the_embeddings_both_read_is_stated(scorer, deck_rubric) -> None:
    """The reversed answer's AdamW clause binds the swapped-roles misconception on four
    words, and the key point about decoupled decay about as well ("AdamW ... decay ...
    gradient"): a bag of words cannot tell which it says. The embeddings read the
    misconception in the answer too, so the bound clause is its statement, and the key
    points said in it are the misconception's words, not evidence for them."""
    rubric = deck_rubric("dl-adamw-vs-l2")
    wrong = scorer.score(
        rubric,
        "Adam with L2 already decouples the decay, because the penalty is part of the loss. "
        "AdamW puts the decay into the gradient, so the adaptive learning rate rescales it "
        "and the busiest weights are regularised more.",
    )
    assert "swapped-roles" in {m.id for m in wrong.misconceptions}
    assert wrong.score <= 30
    right = scorer.score(
        rubric,
        "With Adam the L2 gradient is divided by the second moment, so weights with a big "
        "gradient history are barely regularised. AdamW decouples the decay from the "
        "gradient and shrinks the weights directly in the update.",
    )
    assert not right.misconceptions
    assert right.score >= 70


def test_an_answer_arguing_a_direction_misconception_is_flagged(misconception_check) -> None:
    """ "I'd raise the learning rate" shares too few words with "increase the learning rate
    so training gets out of the bad region" for the embeddings alone (47 without this
    check); the whole answer goes its way about the learning rate and never the other, so
    it is flagged."""
    misconception_check(
        "dl-loss-nan",
        "raise-learning-rate",
        wrong="NaN here means the step size is too small and the gradients fade to nothing, "
        "so something ends up as zero over zero. I'd raise the learning rate and drop the "
        "clipping.",
        right="It's diverging: lower the learning rate by ten, clip the gradients, and check "
        "for a log of zero. Don't raise the learning rate to get out of it.",
    )


@pytest.mark.parametrize(
    "answer",
    [
        # "without" in the sentence before is no negation of the raise
        "The optimizer is stuck bouncing in a small region without enough push. Raise the "
        "learning rate so it gets out, and the loss will start to trend down.",
        # nor is "can't": "Raise" is read as raising
        "The learning rate is too low: the optimizer rattles around and can't escape. Raise "
        "the LR so it moves faster.",
    ],
)
def test_a_negation_in_the_sentence_before_does_not_hide_a_raise(
    scorer, deck_rubric, answer: str
) -> None:
    wrong = scorer.score(deck_rubric("dl-noisy-loss"), answer)
    assert "raise-learning-rate" in {m.id for m in wrong.misconceptions}
    assert "lower-learning-rate" not in {k.id for k in wrong.key_points if k.credit > 0}
    assert wrong.score <= 30


def test_a_rate_said_to_be_too_low_is_a_raise_of_it(misconception_check) -> None:
    """ "The learning rate is too low — the optimizer is rattling around in one small region
    — so I'd raise it several times over" goes up about the learning rate: "too low" is
    about what its "is" follows, not about the dash after it (the reversed answer scored
    44)."""
    misconception_check(
        "dl-noisy-loss",
        "raise-learning-rate",
        wrong="Jumpy loss with no trend means the learning rate is too low — the optimizer is "
        "rattling around in one small region — so I'd raise it several times over and shrink "
        "the batch to get it moving.",
        right="Jumpy loss with no trend means the learning rate is too high — each step "
        "overshoots the minimum — so I'd lower it three to ten times, then add a warmup.",
    )


@pytest.mark.parametrize(
    ("text", "directions", "thing"),
    [
        ("the learning rate is too low", {1}, "learn"),
        ("the learning rate was a bit high", {-1}, None),
        # whatever follows it
        ("the rate is too low — the optimizer rattles around", {1}, "rat"),
        ("the learning rates are too high for this batch", {-1}, "learn"),
    ],
)
def test_what_too_much_is_about(text: str, directions: set[int], thing: str | None) -> None:
    first = analyse(text).mentions[0]
    assert first.directions == directions
    assert first.object == thing


def test_a_remedy_after_not_enough_is_no_raise(scorer, deck_rubric) -> None:
    """ "If that's not enough you lower the learning rate" lowers it: the disfluent strong
    answer was flagged for raising the rate and scored 44 (forty-fourth test part)."""
    answer = (
        "Um, so the standard thing is, is gradient clipping, clip the, uh, the gradient norm "
        "to like one. The spikes are, um, basically a few updates that are way too big, maybe "
        "from a, a weird batch. And, uh, if that's not enough you lower the learning rate, or "
        "set beta two to like 0.95, or, um, just restart from before the spike and skip that "
        "data."
    )
    result = scorer.score(deck_rubric("dl-loss-spikes"), answer)
    assert not result.misconceptions
    assert "lower-lr-longer-warmup" in {k.id for k in result.key_points if k.credit > 0}
    assert result.score >= 70


def test_the_shortcut_learning_the_mapping_is_the_roles_swapped(misconception_check) -> None:
    """The residual misconception is stated so that its roles swapped are the truth:
    "the shortcut learns the full mapping and the layers carry the identity" states it,
    "the layers learn the residual and the shortcut carries the identity" does not."""
    misconception_check(
        "dl-deep-plain-network",
        "shortcut-learns-residual",
        wrong="Add residual connections where the shortcut learns the full mapping and the "
        "layers carry the identity.",
        right="Add residual connections. It's worse on the training set too, so it's an "
        "optimisation problem, not overfitting: the stacked layers learn the residual and "
        "the shortcut carries the identity, so a block can fall back to passing its input "
        "through, and gradients get a direct path back.",
    )


def test_a_cleft_is_about_the_entity_it_names(misconception_check) -> None:
    """In "it's group norm that pools statistics across the batch" the "it" refers to
    nothing before: the clause is about group norm, and with batch norm taking each image
    alone the answer states the misconception."""
    misconception_check(
        "dl-small-batch-norm",
        "bn-per-example",
        wrong="Batch norm normalises each image on its own across its channels, so batch size "
        "doesn't matter to it; it's group norm that pools statistics across the batch.",
        right="Batch norm takes its mean and variance across the batch, and two images give "
        "very noisy statistics that also don't match the running averages used at test "
        "time. It's group norm that avoids this: it normalises within each image. Or use "
        "synced batch norm across the GPUs.",
    )


def test_a_key_point_bound_on_one_word_does_not_hide_a_swap(misconception_check) -> None:
    """A clause "switch to group norm, which pools statistics across the batch" binds the
    swapped misconception on four words and the group-norm key point ("switch to group
    norm") on one: it states the misconception."""
    misconception_check(
        "dl-small-batch-norm",
        "bn-per-example",
        wrong="With small batches, batch norm normalises each image on its own, which throws "
        "away information; switch to group norm, which pools statistics across the batch.",
        right="Batch norm takes its mean and variance across the batch, and two images give "
        "very noisy statistics that also don't match the running averages used at test "
        "time. Switch to group norm, which normalises within each image, or use synced "
        "batch norm across the GPUs.",
    )


def test_a_negation_of_other_words_does_not_hide_a_misconception(misconception_check) -> None:
    """ "the model doesn't have enough capacity yet, so make it bigger" negates capacity,
    none of the misconception's words: within one sentence the claim still stands, while
    "it isn't underfitting" in the right answer negates the misconception's own word."""
    misconception_check(
        "dl-val-loss-rises",
        "underfitting-bigger-model",
        wrong="That's underfitting: validation loss going up means the model doesn't have "
        "enough capacity yet, so make it bigger and train for more epochs.",
        right="It isn't underfitting, it's overfitting: after epoch five the model memorises "
        "the training set. Use early stopping at the best validation checkpoint and add "
        "weight decay and dropout.",
    )


def test_a_verdict_states_that_a_choice_always_holds(misconception_check) -> None:
    """ "Batch norm, always." picks batch norm outright: it states "batch norm is always
    better" though the sentences after it read closer to a key point about batch
    statistics, and it is quoted whole; "Layer norm, always, for transformers" picks the
    other."""
    said = misconception_check(
        "dl-batchnorm-vs-layernorm",
        "bn-always-better",
        wrong="Batch norm, always. It's strictly better because it uses statistics from many "
        "examples instead of one, so it's more accurate, and transformers only use layer "
        "norm for historical reasons.",
        right="Layer norm, always, for transformers. Batch norm normalises with the batch's "
        "mean and variance, so it breaks down with tiny batches and variable-length "
        "sequences; layer norm normalises each example across its features. CNNs with big "
        "batches still use batch norm.",
    )
    assert [m.evidence for m in said.misconceptions] == ["Batch norm, always"]


@pytest.mark.parametrize(
    ("text", "picked"),
    [
        ("Batch norm, always. It's strictly better.", [{"batch", "norm"}]),
        ("Always batch norm: it uses more statistics.", [{"batch", "norm"}]),
        ("Biggest model, every time.", [{"biggest", "model"}]),
        # a sentence that says more is no verdict
        ("I always start with a small model and grow it.", []),
        ("Always.", []),
        ("Not always batch norm.", []),
    ],
)
def test_verdicts(text: str, picked: list[set[str]]) -> None:
    assert [v.stems for v in verdicts(text)] == picked


def test_a_diagnosis_said_outright_states_the_misconception_that_makes_it(
    misconception_check,
) -> None:
    """ "A flat loss at 2.30 means it's overfitting" diagnoses what the misconception
    "the model is overfitting, so add dropout" does: a reversed answer scored 38 with
    nothing flagged (the embeddings read its windows under the row's off-topic baseline).
    It is quoted from the diagnosis. A right answer that denies that diagnosis flags
    nothing."""
    said = misconception_check(
        "dl-loss-stuck-at-chance",
        "overfitting-diagnosis",
        wrong="A flat loss at 2.30 means it's overfitting: the training set is memorised so "
        "the gradients have vanished. I'd add dropout and weight decay first.",
        right="It's not overfitting: 2.30 is ln 10, chance for ten classes, so nothing is "
        "learning. I'd try to overfit a single batch, check zero grad, backward and step "
        "are called, and print the gradient norms and the learning rate.",
    )
    assert [m.evidence for m in said.misconceptions] == [
        "A flat loss at 2.30 means it's overfitting"
    ]


def test_a_size_diagnosis_states_the_misconception_that_makes_it(misconception_check) -> None:
    """ "Being at chance means the model is too small" makes the diagnosis of "the model is
    too small, so add more layers": a reversed answer scored 33 with nothing flagged."""
    said = misconception_check(
        "dl-loss-stuck-at-chance",
        "model-too-small",
        wrong="Being at chance means the model is too small for the problem, so first I'd "
        "scale it up and train longer on the whole dataset.",
        right="It's not a capacity problem: even a small model moves off chance. 2.30 is ln "
        "10, chance for ten classes, so nothing is learning. I'd try to overfit a single "
        "batch, check zero grad, backward and step are called, and print the gradient norms "
        "and the learning rate.",
    )
    assert [m.evidence for m in said.misconceptions] == [
        "Being at chance means the model is too small"
    ]


def test_a_cause_named_before_the_diagnosis_is_the_diagnosis(misconception_check) -> None:
    """ "That's a plateau from overfitting" diagnoses overfitting as "it's overfitting"
    does: a confident-wrong answer that went on to add dropout scored 38, flagged with
    nothing."""
    said = misconception_check(
        "dl-loss-stuck-at-chance",
        "overfitting-diagnosis",
        wrong="That's a plateau from overfitting. I'd add dropout and weight decay and keep "
        "training; it'll break out of it eventually.",
        right="2.30 is ln 10, chance for ten classes: nothing is learning, and that's far "
        "from overfitting. I'd try to overfit one batch, check zero grad, backward and step "
        "are called, and print the gradient norms and the learning rate.",
    )
    assert [m.evidence for m in said.misconceptions] == ["That's a plateau from overfitting"]


def test_a_swap_said_in_two_sentences_claims_both(scorer, deck_rubric) -> None:
    """A role swap said in two sentences, each half bound by its own sentence of the
    misconception (its text binds "batch norm normalises each image by itself", a
    paraphrase "layer norm ... across the whole batch"): the misconception reaches both,
    so neither earns a key point. A reversed answer scored 48, the first sentence crediting
    the batch statistics and synchronised batch norm."""
    rubric = deck_rubric("dl-small-batch-norm")
    wrong = scorer.score(
        rubric,
        "Batch norm normalises each image over its own channels, so batch size isn't really "
        "the issue; the noise comes from the running averages. I'd switch to layer norm, "
        "which computes its statistics across the whole batch and smooths things out.",
    )
    assert "bn-per-example" in {m.id for m in wrong.misconceptions}
    assert wrong.score <= 30
    right = scorer.score(
        rubric,
        "Batch norm takes its mean and variance over the batch, and two images per GPU make "
        "those statistics very noisy, so the running averages used at eval don't match "
        "training. Switch to group norm, which normalises within each image, or use "
        "synchronised batch norm across the GPUs.",
    )
    assert not right.misconceptions
    assert right.score >= 70


def test_a_cause_said_as_forgotten_states_the_misconception_that_names_it(
    misconception_check,
) -> None:
    """ "You forgot torch.no_grad()." names the cause "You forgot to wrap evaluation in
    torch no grad" does: a confident-wrong answer scored 32 with nothing flagged (its
    window reads 0.78 against the misconception, under the row's off-topic baseline).
    It is quoted from the omission. A right answer that calls no_grad advice flags
    nothing."""
    said = misconception_check(
        "dl-eval-nondeterministic",
        "forgot-no-grad",
        wrong="You forgot torch.no_grad(). Autograd keeps recording the graph while you "
        "evaluate, and that is what makes the two runs come out different.",
        right="You forgot model.eval(): in training mode dropout stays on and batch norm uses "
        "each batch's own statistics, so every pass differs. Call model.eval() before "
        "evaluating; wrapping the loop in torch.no_grad() only saves memory.",
    )
    assert [m.evidence for m in said.misconceptions] == ["You forgot torch.no_grad"]


@pytest.mark.parametrize(
    ("text", "stems"),
    [
        ("You forgot torch.no_grad(). Autograd is on.", [{"torch", "no", "grad"}]),
        ("I forgot to fix the random seed, so it shuffled.", [{"fix", "random", "seed"}]),
        ("You've probably forgotten to call model.eval().", [{"cal", "model", "eval"}]),
        # what was forgotten ends where another clause joins on, commas or none
        (
            "you forgot to put the model in eval mode so dropout is on and wrap it in no grad",
            [{"put", "model", "eval", "mod"}],
        ),
        # conditioned, hedged, asked or denied: no omission
        ("If you forgot to set the seed, fine.", []),
        ("It isn't that you forgot no_grad.", []),
        ("What did I forget?", []),
        ("You might think you forgot the seed.", []),
        # nothing named as forgotten
        ("I'm not sure what I'd have forgotten there.", []),
    ],
)
def test_omissions(text: str, stems: list[set[str]]) -> None:
    assert [set(o.stems) for o in omissions(text)] == stems


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("A flat loss at 2.30 means it's overfitting: the set is memorised.", ["overfitting"]),
        ("That's plain overfitting, so regularise.", ["overfitting"]),
        ("The model is just underfitting.", ["underfitting"]),
        # conditioned, hedged, asked or denied: no diagnosis
        ("If it's overfitting, add dropout.", []),
        ("You might think it's overfitting, but it learns nothing.", []),
        ("Is it overfitting?", []),
        ("Maybe it's overfitting.", []),
        ("Once it's overfitting, stop.", []),
        ("It's not overfitting. The model is overfitting the noise, people say.", []),
        ("It's overfitting or underfitting.", []),
        # a thing the state causes, named before it
        ("That's a plateau from overfitting.", ["overfitting"]),
        ("It's a classic sign of overfitting.", ["overfitting"]),
        ("This is a loss curve caused by underfitting.", ["underfitting"]),
        ("That's far from overfitting.", []),
        ("That's not from overfitting.", []),
        ("It's the opposite of overfitting.", []),
        # a size, of the model by name only
        ("Being at chance means the model is too small for the problem.", ["too small"]),
        ("The network is not big enough.", ["too small"]),
        ("The model is way too big for the data.", ["too big"]),
        ("The learning rate is too small.", []),
        ("If it can't overfit, it's too small, so make it bigger.", []),
        ("Maybe the model is too small.", []),
    ],
)
def test_diagnoses(text: str, states: list[str]) -> None:
    assert [d.state for d in diagnoses(text)] == states


def test_a_lone_hyphen_is_a_dash_to_every_clause_reader() -> None:
    """The roles reader, its clause openings and the switch reader cut clauses with one
    test (``text.ends_clause_at``), each with its own punctuation: a hyphen standing alone
    ends a clause for all three, one inside or at the end of a word for none."""
    from sayitout.scoring.text import clause_words, ends_clause_at

    ends = ends_clause_at(",;")
    assert ends("-") and ends("card,") and ends("help;")
    assert not ends("two-") and not ends("warm-up") and not ends("card")
    said = "keep it in train mode - dropout stays on"
    assert len(clause_words(said, (), ends)) == 2
    # the switch reader: each side of the dash its own setting, as with a comma
    dashed = settings("Dropout is on in train mode - in eval mode it is off.")
    assert dashed == settings("Dropout is on in train mode, in eval mode it is off.")
    assert dashed
