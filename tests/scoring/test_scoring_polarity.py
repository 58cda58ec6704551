"""Direction and negation checks, and windowing without punctuation (pure Python)."""

from __future__ import annotations

import pytest

from sayitout.scoring.polarity import (
    Reader,
    about_the_same,
    analyse,
    compared,
    denied_terms,
    direction_conflict,
    equates,
    equatives,
    negates,
    negates_other_words,
    negation_differs,
    opening_pronoun,
    opposite_named,
    reverses_object,
    states_direction,
    unchanged,
    widens,
)
from sayitout.scoring.text import content_stems, looks_english, windows, words


def conflict(rubric: str, answer: str) -> bool:
    return direction_conflict(analyse(rubric), analyse(answer))


@pytest.mark.parametrize(
    ("rubric", "answer", "expected"),
    [
        ("raise the learning rate", "you should not raise the learning rate, lower it", True),
        ("lower the learning rate", "you should not raise the learning rate, lower it", False),
        ("lower the learning rate", "just raise it", True),
        ("lower the learning rate", "I'd increase the learning rate", True),
        ("lower the learning rate", "the learning rate is probably too high", False),
        ("raise the learning rate", "the learning rate is a bit high so lower it", True),
        # a comparative keeps its way after "a bit", "somewhat"
        ("raise the learning rate", "paired with a somewhat lower learning rate", True),
        ("lower the learning rate", "use a slightly lower learning rate", False),
        ("the learning rate is too high", "your learning rate is way too high", False),
        ("the learning rate is too high", "the learning rate is too low", True),
        ("lower the learning rate", "decrease the learning rate by ten", False),
        (
            "raise the learning rate",
            "instead of increasing the learning rate I would decrease it",
            True,
        ),
        ("raise the learning rate", "rather than raising it I'd cut the learning rate", True),
        ("raise the learning rate", "never increase the learning rate here", True),
        ("raise the learning rate", "bump up the learning rate", False),
        ("use a bigger batch", "a smaller batch would help", True),
        ("leave the learning rate where it is", "increase the learning rate", True),
        ("leave the learning rate where it is", "keep the learning rate the same", False),
        ("multiply the learning rate by four", "lower the learning rate four times", True),
        # about different things: the batch goes up, the learning rate comes down
        ("lower the learning rate", "increase the batch size and lower the learning rate", False),
        # the direction about the same word decides: more precision, but a smaller range
        ("fp16 has more range than bf16", "fp16 has more precision but a way smaller range", True),
        ("fp16 has more range than bf16", "fp16 has more range but less precision", False),
        # "LR" is the learning rate; a direction in the next sentence is about its own
        (
            "it's stuck, so bump up the LR",
            "Lower the learning rate first. Big swings with no downward trend mean overshooting",
            True,
        ),
        # "tiny" is as small as "small": start low, then raise it
        (
            "start with a small learning rate and raise it slowly",
            "start with tiny steps and raise them gradually",
            False,
        ),
        # no direction on one side: nothing to conflict
        ("check the data pipeline", "increase the learning rate", False),
    ],
)
def test_direction(rubric: str, answer: str, expected: bool) -> None:
    assert conflict(rubric, answer) is expected


def test_the_owner_of_a_lost_noise_goes_no_way() -> None:
    """ "You lose the useful noise of small batches, which pushes you into sharper minima
    that generalise worse" says nothing of small batches generalising worse: "small"
    names whose noise is lost, so it reverses no "very large batches generalise worse"."""
    rubric = analyse("very large batches may generalise a little worse")
    said = "You also lose the useful noise of small batches, which tends to push you into "
    said += "sharper minima that generalise worse"
    assert not analyse(said).mentions
    assert not reverses_object(rubric, analyse(said))
    # a size said as what happens is still read
    assert reverses_object(rubric, analyse("small batches generalise worse"))
    assert analyse("use the noise of small batches").mentions


def test_skipping_a_practice_negates_it() -> None:
    """ "skip the overfit-a-batch test" does without the test (a hyphenated name is its
    words); skipping a step or a batch is a remedy, and a skip connection, or a signal
    that skips over the layers, negates nothing."""
    kp = "First try to overfit a single batch."
    said = "so skip the overfit-a-batch test and shrink the model"
    assert negates(analyse(kp), content_stems(kp), analyse(said))
    assert not negates(analyse(kp), content_stems(kp), analyse("overfit a single batch first"))
    kp = "inspect the batches that came before the spike"
    said = "roll back to before the spike and skip those batches"
    assert not negates(analyse(kp), content_stems(kp), analyse(said))
    kp = "the block learns a residual through the skip connection"
    for said in (
        "add a skip connection so each block learns a residual",
        "the signal can skip over the block, which learns a residual",
    ):
        assert not negates(analyse(kp), content_stems(kp), analyse(said)), said


def test_negation_scope_blocks_credit() -> None:
    kp = "scale the learning rate with the batch size"
    said = "the learning rate doesn't really depend on the batch size"
    assert negates(analyse(kp), content_stems(kp), analyse(said))
    # a negation elsewhere in the window does not block the key point
    said = "I'm not sure but I'd scale the learning rate with the batch size"
    assert not negates(analyse(kp), content_stems(kp), analyse(said))
    # a negated direction is for the direction check, not the negation scope
    said = "don't raise the learning rate, lower it"
    assert not negates(analyse("lower the learning rate"), content_stems("lower it"), analyse(said))
    # forgetting to turn something off leaves it on
    kp = "dropout stays on and randomly zeroes units"
    said = "I forgot to turn off dropout"
    assert not negates(analyse(kp), content_stems(kp), analyse(said))
    assert negates(analyse(kp), content_stems(kp), analyse("I turned off dropout"))
    # a negated likeness says two things differ: it affirms a key point about a change
    kp = "the distribution in production has shifted"
    said = "production data just isn't distributed like the data it was trained on"
    assert not negates(analyse(kp), content_stems(kp), analyse(said))
    kp = "the data has changed since training"
    said = "the data hasn't changed since training"
    assert negates(analyse(kp), content_stems(kp), analyse(said))
    # a negated equative compares: "doesn't generalise as well" generalises worse
    kp = "very large batches may generalise a little worse"
    for said in ("huge batches don't generalise as well", "the update isn't as noisy"):
        assert not negates(analyse(kp), content_stems(kp + " noisy update"), analyse(said))
    said = "don't treat it as noise: huge batches don't generalise"
    assert negates(analyse(kp), content_stems(kp), analyse(said))


def test_negation_parity_for_misconceptions() -> None:
    mis = analyse("shuffle the validation set")
    assert negation_differs(mis, analyse("you don't need to shuffle the validation set"))
    assert not negation_differs(mis, analyse("you should shuffle the validation set"))


def test_a_negation_of_other_words() -> None:
    stems = content_stems("The model is underfitting, so make it bigger or train it for longer.")
    said = "the model doesn't have enough capacity for the data, so I'd make it bigger"
    assert negates_other_words(analyse(said), stems)
    assert not negates_other_words(analyse("it's not underfitting, so don't make it bigger"), stems)
    assert not negates_other_words(analyse("make it bigger and train it longer"), stems)


def test_windows_without_punctuation_cover_the_whole_answer() -> None:
    text = " ".join(f"w{i}" for i in range(50))
    wins, truncated = windows(text)
    assert not truncated
    assert wins[0].start == 0
    assert max(w.end for w in wins) == len(text)
    sizes = {w.last - w.first + 1 for w in wins}
    assert {8, 16} <= sizes
    for w in wins:
        assert text[w.start : w.end] == w.text


def test_windows_use_sentences_when_present_but_do_not_need_them() -> None:
    text = "Lower the learning rate. Then add gradient clipping to stop the spikes."
    wins, _ = windows(text)
    assert any(w.text == "Lower the learning rate" for w in wins)
    short, _ = windows("lower the learning rate")
    assert [w.text for w in short] == ["lower the learning rate"]


def test_the_items_of_notes_are_windows_of_their_own() -> None:
    """Notes ("group split by original image, augment train only, dedupe val") give each
    item of three words or more its own window; prose does not cut its clauses out."""
    notes = "Leak → group split by original image, augment train only, dedupe val (phash)."
    wins, _ = windows(notes)
    assert {"augment train only", "→ group split by original image"} <= {w.text for w in wins}
    prose = "I'd make the network bigger, strip out the dropout, and train for longer."
    assert "strip out the dropout" not in {w.text for w in windows(prose)[0]}


def test_long_answer_is_truncated_for_windowing() -> None:
    text = "the learning rate is too high " * 2000
    wins, truncated = windows(text)
    assert truncated
    assert len(wins) < 400


def test_stems_and_english() -> None:
    assert content_stems("clipping the gradients") == content_stems("clip gradient")
    assert "the" not in content_stems("the learning rate")
    assert looks_english(words("so I would lower the learning rate and add warmup"))
    assert not looks_english(words("il faut baisser le taux d'apprentissage tout de suite"))
    assert not looks_english(words("学习率太高了 应该降低 学习率 然后 再 试试 看"))


@pytest.mark.parametrize(
    ("answer", "conflicts"),
    [
        ("bring the learning rate up", True),
        ("turn the learning rate down", False),
        ("multiply the learning rate by ten", True),
        ("divide the learning rate by ten", False),
        ("ramp the learning rate to its peak", True),
        ("ramp the learning rate down to zero", False),
        ("enlarge the learning rate bit by bit", True),
        ("let the learning rate rise slowly", True),
        ("the learning rate shrinks", False),
        ("the learning rate grew", True),
    ],
)
def test_up_down_multiply_divide_are_directions(answer: str, conflicts: bool) -> None:
    rubric = analyse("lower the learning rate")
    assert direction_conflict(rubric, analyse(answer)) is conflicts


@pytest.mark.parametrize(
    ("rubric", "answer", "expected"),
    [
        ("This is overfitting: it memorises the training set", "that's underfitting", True),
        ("This is overfitting", "the model is underfitted, too simple", True),
        ("The model is underfitting, so make it bigger", "classic overfitting", True),
        ("This is overfitting", "it's overfitting, not underfitting", False),
        ("This is overfitting", "it's overfitting", False),
        ("stop early at the best validation loss", "that's underfitting", False),
        # fp16 overflowing past 65,504 is not gradients underflowing to zero
        ("Activations overflow fp16's maximum of 65,504", "It's underflow: tiny gradients", True),
        ("Activations overflow fp16", "it overflows; small gradients also underflow", False),
    ],
)
def test_opposite_terms(rubric: str, answer: str, expected: bool) -> None:
    """ "Underfitting" does not state "overfitting" (nor the reverse), however close their
    embeddings; naming both, as a contrast, is not a conflict."""
    assert (opposite_named(content_stems(rubric), content_stems(answer)) is not None) is expected


OVERFLOWED = "Some activation overflowed fp16's maximum to infinity"


@pytest.mark.parametrize(
    ("rubric", "answer", "expected"),
    [
        # the term named only to be denied: the opposite is the answer's claim
        (OVERFLOWED, "It's underflow, not overflow: values that get too small turn into NaN", True),
        (OVERFLOWED, "The values underflow. It isn't an overflow at all", True),
        # the opposite denied: the term is the claim
        (OVERFLOWED, "It's overflow, not underflow: values past 65,504 become inf", False),
        # both denied, or neither: no one claim
        (OVERFLOWED, "Neither overflow nor underflow, it's a bad label", False),
        (OVERFLOWED, "fp16 overflows, and small gradients also underflow", False),
        # a wider negation denies nothing ("rather than" reaches "overfits")
        (
            "If it cannot overfit the training set, make it bigger",
            "Grow it while it's underfitting, add data rather than size once it overfits",
            False,
        ),
    ],
)
def test_a_term_named_only_to_deny_it_is_the_opposite(
    rubric: str, answer: str, expected: bool
) -> None:
    """ "It's underflow, not overflow" names the overflow point's term, but to deny it."""
    ws = words(answer)
    denied = denied_terms([w.norm for w in ws], [content_stems(w.norm) for w in ws])
    found = opposite_named(content_stems(rubric), content_stems(answer), denied)
    assert (found is not None) is expected


def test_two_numbers_set_against_each_other_say_fewer_or_more() -> None:
    """ "7 mantissa bits against fp16's 10" says fewer mantissa bits: "more mantissa
    bits" goes the other way, "gives up mantissa bits, 7 versus 10" the same."""
    rubric = analyse("The cost is precision: bf16 has 7 mantissa bits against fp16's 10.")
    (m,) = rubric.mentions
    assert m.directions == {-1} and m.object == "mantissa"
    assert direction_conflict(rubric, analyse("bf16 has more mantissa bits, so it's more precise"))
    assert not direction_conflict(rubric, analyse("bf16 gives up mantissa bits, 7 versus 10"))
    assert not analyse("7 against 10").mentions  # counts nothing it names


def test_a_word_with_a_negating_prefix_negates_itself() -> None:
    """ "keep validation un-augmented" says validation gets no augmentation."""
    pol = analyse("apply augmentation to training only, keep validation un-augmented")
    assert pol.negated and "augment" in pol.negated_stems
    assert not analyse("an unusual loss curve").negated  # no hyphen: a word of its own


def test_take_out_negates() -> None:
    """ "Take out the dropout" removes it: it does not state "add dropout"."""
    rubric = "add dropout or weight decay"
    assert negates(analyse(rubric), content_stems(rubric), analyse("take out the dropout"))
    assert not negates(analyse(rubric), content_stems(rubric), analyse("add some dropout"))


def test_a_ramp_to_the_peak_then_a_decay_states_the_warmup() -> None:
    """The decay after the ramp is not the only direction the answer states."""
    rubric = analyse("ramp the learning rate up linearly, then decay")
    said = analyse("Ramp LR 0 → peak over ~1-4k steps, then decay.")
    assert not direction_conflict(rubric, said)


def test_typed_arrows_are_directions() -> None:
    assert not direction_conflict(analyse("lower the learning rate"), analyse("LR ↓"))
    assert direction_conflict(analyse("lower the learning rate"), analyse("LR ↑"))


def test_a_candidate_s_steps_are_the_learning_rate() -> None:
    """In an answer, "make the steps bigger" is about the learning rate, so it reverses
    "lower the learning rate"; a rubric text means the updates when it says them."""
    rubric = analyse("I'd drop the learning rate first")
    said = "Small gains, so it crawls. I'd make the steps bigger, ten times that."
    assert direction_conflict(rubric, analyse(said, plain_words=True))
    assert not direction_conflict(rubric, analyse(said))
    assert not direction_conflict(rubric, analyse("make the steps smaller", plain_words=True))


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("Divide it by four", 1),
        ("um, I'd raise it to 0.4", 3),
        ("so double that", 2),
        # a thing named first is what the pronoun stands for
        ("The rate: divide it by four", None),
        ("Keep the batch and lower it", None),
        ("Lower the learning rate", None),
    ],
)
def test_a_pronoun_acted_on_before_anything_is_named_opens_the_answer(
    text: str, index: int | None
) -> None:
    assert opening_pronoun([w.norm for w in words(text)]) == index


def test_the_opening_pronoun_is_what_the_text_acts_on() -> None:
    """ "Divide it by four", said first, is about what the question asks: against "raise
    the learning rate four times" it says the other way; without the opening it is about
    nothing the text names."""
    rubric = analyse("The batch is four times larger, so raise the learning rate four times.")
    said = analyse("Divide it by four. A larger batch already")
    assert reverses_object(rubric, said, opening=True)
    assert not reverses_object(rubric, said)
    assert not reverses_object(rubric, analyse("Multiply it by four. A larger batch"), opening=True)


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("so the learning rate has to shrink to keep the step size the same", "learn"),
        ("the learning rate needs to drop by four", "learn"),
        ("the batch should grow with the data", "batch"),
        ("the learning rate must rise 4x", "learn"),
        # with an object after it, the verb acts on that
        ("the optimiser has to reduce the step size", "step"),
    ],
)
def test_a_direction_said_after_a_modal_with_no_object_qualifies_its_subject(
    text: str, thing: str
) -> None:
    (said,) = analyse(text).mentions[:1]
    assert said.object == thing


def test_a_subject_that_has_to_shrink_reverses_a_raise() -> None:
    rubric = analyse("Increase the learning rate in proportion to the batch size.")
    assert reverses_object(rubric, analyse("so the learning rate has to shrink to keep the step"))
    assert not reverses_object(rubric, analyse("so the learning rate has to grow with the batch"))


def test_the_opposite_direction_about_the_same_thing_reverses_a_one_way_text() -> None:
    rubric = analyse("Very large batches need a higher learning rate, scaled up with the batch.")
    assert reverses_object(rubric, analyse("it needs a smaller learning rate"))
    assert not reverses_object(rubric, analyse("it needs a bigger learning rate"))
    # about something else, or no direction: no reversal
    assert not reverses_object(rubric, analyse("fewer steps per epoch"))
    # a text that goes both ways about it reverses nothing
    both = analyse("start with a small learning rate, then raise the learning rate")
    assert not reverses_object(both, analyse("ramp the learning rate up"))
    # "make" is no thing a direction qualifies: "too small, so make it bigger" is not
    # reversed by "start with something small and make it bigger"
    grow = analyse("If it can't overfit, it's too small, so make it bigger.")
    assert not reverses_object(grow, analyse("start with something small and make it bigger"))


def test_two_words_of_a_phrase_in_common_are_the_same_thing() -> None:
    """ "add more data loader workers" names "data" first, "reduce the number of loader
    workers" names "loader": both qualify the loader workers."""
    rubric = analyse("If images are decoded in a single process, add more data loader workers.")
    assert reverses_object(rubric, analyse("so reduce the number of loader workers"))
    assert not reverses_object(rubric, analyse("use more loader workers"))
    # a hyphenated compound names its parts: "data-loader workers" are the loader workers
    assert reverses_object(rubric, analyse("so cut the number of data-loader workers"))
    assert not reverses_object(rubric, analyse("use more data-loader workers"))
    # one word in common is not the same thing
    rate = analyse("lower the learning rate")
    assert not reverses_object(rate, analyse("raise the dropout rate"))


def test_the_head_of_a_phrase_alone_is_the_same_thing() -> None:
    """ "cut the number of workers" names only the head of "more data loader workers"."""
    rubric = analyse("If images are decoded in a single process, add more data loader workers.")
    assert reverses_object(rubric, analyse("so cut the number of workers and use a smaller batch"))
    assert reverses_object(rubric, analyse("fewer workers, bigger batch"))
    assert not reverses_object(rubric, analyse("use more workers and a smaller batch"))
    # the head of another phrase is not this one's ("a smaller batch to let the GPU")
    # a thing kept the same is not changed by more of it said against another thing
    same = analyse("Switch to bf16, because it has the same exponent range as fp32.")
    assert not reverses_object(same, analyse("or switch to bfloat16, which has far more range"))
    batch = analyse("use a bigger batch")
    assert not reverses_object(batch, analyse("a smaller GPU to let the batch through"))


def test_a_texts_act_is_its_way() -> None:
    """ "Lower Adam's beta two, so the estimate reacts faster" goes down: what follows the
    act is what the act does, not a second way."""
    rubric = analyse("Lower Adam's beta two to 0.95, so the estimate reacts faster to big steps.")
    assert reverses_object(rubric, analyse("Raise Adam's β2 toward 0.9999", plain_words=True))
    assert not reverses_object(rubric, analyse("Lower Adam's β2 to 0.95", plain_words=True))


@pytest.mark.parametrize(
    ("text", "said", "reverses"),
    [
        # a particle after what a verb acts on is about that thing
        ("Lower Adam's beta two to 0.95.", "push Adam's beta2 up toward 0.9999", True),
        ("Lower Adam's beta two to 0.95.", "bring Adam's beta2 down to 0.95", False),
        ("Lower the learning rate.", "scale the learning rate up", True),
        ("Lower the learning rate.", "turn the LR down a notch", False),
        ("Raise the learning rate.", "turn the LR down a notch", True),
        # after its verb, or after a verb of motion, the particle acts on nothing held
        ("Lower the learning rate.", "scale up the learning rate", True),
        ("Lower the batch size.", "the loss goes up", False),
    ],
)
def test_a_particle_is_about_what_it_follows(text: str, said: str, reverses: bool) -> None:
    assert reverses_object(analyse(text), analyse(said, plain_words=True)) is reverses


@pytest.mark.parametrize(
    ("text", "qualified"),
    [
        # what a direction word qualifies comes before a clause break
        ("make it bigger and train longer", None),
        ("lower the learning rate", "learn"),
        # a typed arrow qualifies what it follows; an arrow between steps breaks a clause
        ("B ↑ → grad noise ↓", "b"),
        # "up" after a verb of motion acts on nothing
        ("the validation curve turns up", None),
    ],
)
def test_what_a_direction_qualifies(text: str, qualified: str | None) -> None:
    assert analyse(text, plain_words=True).mentions[0].object == qualified


@pytest.mark.parametrize(
    ("text", "removed"),
    [
        ("take gradient clipping off so the big gradients", {"gradient", "clip"}),
        ("turn off the dropout", {"dropout"}),
        ("remove the dropout layers", {"dropout", "lay"}),
        ("I forgot to turn dropout off", set()),
        # "drop" before a practice takes it away; before a quantity it lowers it
        ("and drop gradient clipping since it slows recovery", {"gradient", "clip"}),
        ("drop the shuffling", {"shuffl"}),
        ("drop the regularisation, make it larger", {"regular"}),
        ("drop dropout", {"dropout"}),
        ("drop the learning rate to 1e-4", set()),
        ("drop it", set()),
        # "cut" too; the practice closes its phrase ("cut activation memory" lowers it)
        ("I'd make it bigger, cut the dropout and weight decay", {"dropout"}),
        ("cut the weight decay", {"weight", "decay"}),
        ("drop gradient clipping entirely", {"gradient", "clip"}),
        ("cut activation memory with checkpointing", set()),
        ("cut training short", set()),
        # a negation that takes nothing away
        ("it won't fit in memory", set()),
        # "off" before a thing, after no switch verb, says where from
        ("waiting for the CPU to read images off disk", set()),
        ("copy the tensors off the GPU", set()),
        ("dropout off, batch norm frozen", {"batch", "norm", "frozen"}),
        ("switch dropout off completely", {"dropout", "complet"}),
        # told not to use it, or to avoid it; "doesn't use" describes, it tells nothing
        ("and don't use group norm, it's the one", {"use", "group", "norm"}),
        ("never use dropout here", {"use", "dropout"}),
        ("avoid group norm", {"group", "norm"}),
        ("layer norm doesn't use the batch", set()),
        # "off" and then when: what follows says when it is off, not what
        ("dropout on in train, off in eval → train loss inflated", set()),
        ("dropout is on during training and off during validation", set()),
    ],
)
def test_what_a_text_says_to_do_without(text: str, removed: set[str]) -> None:
    assert analyse(text).removed_stems == removed


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("the learning rate has nothing to do with batch size", {"batch", "siz"}),
        ("nothing is flowing, so the model learns nothing", set()),
    ],
)
def test_nothing_to_do_with_denies_a_relation(text: str, negated: set[str]) -> None:
    assert analyse(text).negated_stems == negated


def test_a_negation_stops_at_the_end_of_its_sentence() -> None:
    """ "Regularisation off. Can't: bug" does not negate what the next sentence says."""
    pol = analyse("Overfit one batch, regularisation off. Then check grads are nonzero.")
    assert "grad" not in pol.negated_stems and "check" not in pol.negated_stems


def test_a_negation_flips_no_direction_in_the_next_sentence() -> None:
    """ "It can't escape. Raise the LR" raises it: the "can't" ends with its sentence."""
    for text in ("It can't escape it. Raise the LR.", "It won't move. Increase the learning rate."):
        (mention,) = analyse(text, plain_words=True).mentions
        assert mention.directions == {1}
    (mention,) = analyse("Don't raise the LR.").mentions
    assert mention.directions == {-1}


@pytest.mark.parametrize(
    "text",
    [
        "If that's not enough you lower the learning rate.",
        "If clipping isn't enough, lower the learning rate.",
    ],
)
def test_a_negation_of_enough_flips_no_direction_after_it(text: str) -> None:
    """ "If that's not enough, lower the rate" lowers it: the "not" says the first remedy
    falls short, it does not negate the next one."""
    (mention,) = analyse(text).mentions
    assert mention.directions == {-1}
    (mention,) = analyse("It's not big enough.").mentions
    assert mention.directions == {-1}


READER_TEXTS = [
    'Don\'t raise the LR. (max 65504) → inf → NaN. Lower it/clip it, "too high." Then warm up.',
    "  the learning rate is too high so i'd lower it  and not increase the batch ...  ok ",
    "fp16/bf16: more range, less precision! Isn't it? Yes: turn dropout off at eval.",
    "Make the steps bigger; the updates are too small. Smaller steps? No.",
]


@pytest.mark.parametrize("plain_words", [False, True])
@pytest.mark.parametrize("text", READER_TEXTS)
def test_a_reader_analyses_spans_as_analyse_reads_them(text: str, plain_words: bool) -> None:
    """``Reader`` reads a text's words once; every span, cut anywhere, even inside a
    word or in the whitespace, reads as ``analyse`` reads the span's own text."""
    reader = Reader(text, plain_words)
    for start in range(len(text)):
        for end in range(start + 1, len(text) + 1):
            got = reader.analyse(start, end)
            assert got == analyse(text[start:end], plain_words), (start, end)


def test_a_direction_that_closes_a_clause_is_about_that_clause() -> None:
    """ "As time increases, the speed of light stays the same": "increases" is about time,
    so the answer does not say the speed changes."""
    rubric = analyse("The speed of light stays the same.")
    answer = analyse("As time increases, the speed of light stays the same.")
    assert not direction_conflict(rubric, answer)
    (cond, _) = answer.mentions
    assert cond.object is None and "light" not in cond.context
    # without the comma the direction is still read with the words after it
    assert analyse("it increases the speed").mentions[0].object is not None


@pytest.mark.parametrize(
    ("answer", "reversed_"),
    [
        # "change" negated is the same, about what it says stays
        ("the learning rate doesn't need to change", True),
        ("no, don't touch the learning rate", True),
        # "change" alone goes neither way; the way said after it decides
        ("change the learning rate", False),
        ("change the learning rate: raise it four times", False),
        # keeping the batch size and raising the rate is the rule
        ("don't change the batch size, raise the learning rate", False),
        # "where it was" closing a clause keeps what comes before it
        ("Keep the learning rate exactly where it was.", True),
        ("keep the learning rate where it was, and nothing else", True),
        ("leave it where it was diverging and raise the learning rate", False),
    ],
)
def test_a_change_negated_keeps_the_thing_the_same(answer: str, reversed_: bool) -> None:
    rubric = analyse("increase the learning rate in proportion to the batch size")
    assert reverses_object(rubric, analyse(answer)) is reversed_


@pytest.mark.parametrize(
    ("answer", "stated"),
    [
        ("I'd raise the learning rate", True),
        ("bump the learning rate up and shrink the batch", True),
        # the other way, or both ways, about the learning rate
        ("lower the learning rate", False),
        ("lower the learning rate, then raise it again slowly with warmup", False),
        # a direction about something else
        ("raise the batch size", False),
    ],
)
def test_an_answer_that_goes_a_misconception_s_way(answer: str, stated: bool) -> None:
    misconception = analyse("Increase the learning rate so training gets out of the bad region.")
    assert states_direction(misconception, analyse(answer, plain_words=True)) is stated


def test_a_misconception_s_way_is_read_from_what_it_acts_on() -> None:
    """ "... and train normally; it's basically the same thing" is about no thing the
    misconception acts on: it still goes down about the batch size. "Multiplying the loss
    by a bigger constant" is said of the loss it cranks up: that text goes two ways."""
    smaller = analyse(
        "Just drop the batch size to 8 and train normally; it's basically the same thing."
    )
    answer = "Halve the batch to 16 and double the learning rate, it's effectively the same."
    assert states_direction(smaller, analyse(answer, plain_words=True))
    crank = analyse("Crank up the loss scale, multiplying the loss by a bigger constant.")
    described = "the gradients, once you've multiplied the loss up, grew past that ceiling"
    assert not states_direction(crank, analyse(described, plain_words=True))


def test_a_direction_that_describes_is_no_advice() -> None:
    """ "A bigger batch always gives a better model" describes the batch; an answer that
    says "big batches lose the noise" does not argue for it."""
    misconception = analyse("A bigger batch always gives a better model.")
    assert not states_direction(misconception, analyse("big batches lose the helpful noise"))
    assert not states_direction(analyse("use a lower learning rate"), analyse("lower it"))


@pytest.mark.parametrize(
    ("rubric", "answer", "same"),
    [
        # "more range" is about the range; big activations are another thing
        ("fp16 has more range than bf16.", "In fp16 big activations overflow", False),
        ("fp16 has more range than bf16.", "fp16 has a narrow range", True),
        # a rubric direction that names no thing may be about anything
        ("the model is too small, so make it bigger.", "give it more layers", True),
        # and so may an answer's that acts on a pronoun
        ("raise the learning rate", "after a while I would raise it", True),
    ],
)
def test_a_direction_about_the_same_thing(rubric: str, answer: str, same: bool) -> None:
    """A misconception about a direction needs the direction said about its thing."""
    assert about_the_same(analyse(rubric), analyse(answer, plain_words=True)) is same


@pytest.mark.parametrize(
    "text, thing",
    [
        ("cut the number of workers", "work"),
        ("increase the amount of data", "data"),
        ("reduce the count of the layers", "lay"),
        ("raise the number", "numb"),  # a measure of nothing named stays the object
    ],
)
def test_a_measure_of_a_thing_is_about_the_thing(text: str, thing: str) -> None:
    (mention,) = analyse(text).mentions
    assert mention.object == thing


@pytest.mark.parametrize(
    "text", ["strip out the dropout", "rip out dropout", "ditch the dropout", "take out dropout"]
)
def test_removals_take_the_thing_away(text: str) -> None:
    assert "dropout" in analyse(text).removed_stems


@pytest.mark.parametrize(
    ("point", "said", "wider"),
    [
        ("Apply augmentation only to the training set.", "augment both sets", True),
        ("Augment the training set only.", "apply it to all three sets", True),
        ("Apply augmentation only to the training set.", "never augment both sets", False),
        ("Apply augmentation only to the training set.", "augment the training set", False),
        # "not only" and "the only" keep nothing to one thing
        ("Not only the training set changes.", "both sets change", False),
        ("The only fix is the split.", "split both sets", False),
    ],
)
def test_a_scope_kept_to_one_thing_and_spread_over_all(point: str, said: str, wider: bool) -> None:
    assert widens(analyse(point), analyse(said)) is wider


FASTER = "bf16 is just faster to compute than fp16."


@pytest.mark.parametrize(
    ("rubric", "answer", "expected"),
    [
        (FASTER, "accelerators run bf16 as fast as fp16", True),
        ("bf16 matmuls are quicker", "bf16 is as quick as fp16 on an A100", True),
        ("Layer norm is more stable than batch norm.", "it's as stable as batch norm", True),
        # an idiom is no equative, and an equative of something else states nothing here
        ("Train for longer and it will learn.", "as long as the loss keeps falling", False),
        # "as big as fits" reaches a limit: it still says "the biggest"
        ("Bigger models are always better.", "as big as fits in GPU memory, always", False),
        ("Bigger models are always better.", "make it as big as possible", False),
        (FASTER, "bf16 has as many exponent bits as fp32", False),
        (FASTER, "bf16 runs faster than fp16", False),
    ],
)
def test_as_fast_as_states_no_comparison(rubric: str, answer: str, expected: bool) -> None:
    """ "Modern accelerators run bf16 as fast as fp16" says they are the same: it does
    not state the misconception "bf16 is just faster to compute than fp16" (a strong
    answer was flagged with it, 74)."""
    assert equates(compared(rubric), equatives(answer)) is expected


def test_a_strong_answer_that_says_as_fast_as_states_no_misconception(scorer, deck_rubric) -> None:
    answer = (
        "Because bf16 has the same dynamic range as fp32. It keeps fp32's 8 exponent bits "
        "and gives up mantissa instead, so large activations don't overflow and small "
        "gradients don't underflow, and you can drop the loss scaling that fp16 needs. The "
        "reduced precision hardly hurts training, and modern accelerators run bf16 as fast "
        "as fp16."
    )
    result = scorer.score(deck_rubric("dl-bf16-vs-fp16"), answer)
    assert not result.misconceptions
    assert result.score >= 70


WORSE = "Very large batches may generalise a little worse."


@pytest.mark.parametrize(
    ("rubric", "answer", "expected"),
    [
        (WORSE, "doubling the batch halves the steps, and generalisation is identical", True),
        (WORSE, "you get the same generalisation at any batch size", True),
        (WORSE, "generalization stays exactly the same", True),
        (WORSE, "generalisation is no different", True),
        # a negation, or something else said to stay, states no sameness of it
        (WORSE, "generalisation isn't the same", False),
        (WORSE, "the learning rate stays the same and it generalises worse", False),
        # a "worse" under a negation compares nothing: staying the same agrees with it
        ("extra layers should not make the network worse", "the network is the same", False),
    ],
)
def test_the_same_states_no_worse_or_better(rubric: str, answer: str, expected: bool) -> None:
    """ "Generalisation is identical" denies "large batches may generalise a little
    worse": a confident-wrong answer earned that point with it (38)."""
    assert equates(compared(rubric), unchanged(answer)) is expected


def test_an_answer_that_says_generalisation_is_identical_earns_no_worse(
    scorer, deck_rubric
) -> None:
    answer = (
        "Honestly, you should: doubling the batch halves the steps you need no matter how "
        "large you go, and generalisation is identical, so the biggest batch the hardware "
        "allows is always best."
    )
    result = scorer.score(deck_rubric("dl-huge-batch"), answer)
    point = next(k for k in result.key_points if k.id == "generalise-worse")
    assert point.status == "missed"
    assert result.score <= 30


@pytest.mark.parametrize(
    ("answer", "names"),
    [
        ("watch for over- or underfitting", {"overfit", "underfit"}),
        ("check for under- and overfitting.", {"overfit", "underfit"}),
        ("a two- or three-layer net", {"two-layer"}),
        ("pre- and post-norm blocks", {"pre-norm"}),
    ],
)
def test_a_suspended_prefix_says_its_whole_word(answer: str, names: set[str]) -> None:
    """ "Over- or underfitting" says overfitting too: a strong answer that ended "watch for
    over- or underfitting" was told it said underfitting against the point about
    overfitting (48). The prefix's word counts with the stems of the compound it stands
    for; no whole word, no stems."""
    from sayitout.scoring.matching import word_stems

    said = frozenset().union(*word_stems(answer, words(answer), []))
    stems = frozenset().union(*(content_stems(n) for n in names))
    assert stems <= said
    assert opposite_named(content_stems("If it can't overfit, make it bigger"), said) is None


def test_a_hyphen_without_a_compound_after_it_says_nothing_more() -> None:
    from sayitout.scoring.matching import word_stems

    for answer in ("over- or under, who knows", "train- and then test"):
        plain = frozenset().union(*(content_stems(w.norm) for w in words(answer)))
        assert frozenset().union(*word_stems(answer, words(answer), [])) == plain
