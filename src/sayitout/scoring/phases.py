"""What is on in training and what in evaluation: a switch bound to a phase.

"Dropout is on during training and off during validation" and "dropout is active during
evaluation and switched off during training" share every content word, and MiniLM places
them together (cosine 0.9); one explains a validation loss below the training loss, the
other gets it backwards. Before a key point is credited, the switches its sentence binds
to a phase are compared with the ones the answer binds.

Rules (documented for reviewers and candidates):

* A *setting* is a switch word (on, active, enabled, apply / off, inactive, disabled, frozen; a
  negation within the two words before it turns it over: "isn't active" is off; "on" only
  after a verb of state or before a phase, not as a preposition) and a
  phase word in the same clause: training (training, train) or evaluation (evaluation,
  eval, validation, val, inference, test, testing, serving), "used" counting as on. A
  phase word right before
  "mode" ("train mode", "eval mode") is a *mode*, which is another thing: in evaluation
  one may still be in train mode. A clause bound to a mode and to no phase states a
  setting of the mode, and the two modes are one switch: "in eval mode dropout is
  active" says dropout is off in train mode, against "in training mode dropout stays
  on".
* The call that sets a mode names it: "model.train()" (or "model dot train") is train
  mode, "model.eval()" eval mode. A clause that asks for a mode ("you forgot to call
  model.eval()", "put it in training mode before evaluating") sets the model's mode in
  its phase, evaluation unless it names training alone; the two are one switch, on for
  train mode. A clause that speaks of "the mode", "that mode", or opens on "that" ("... so that
  dropout is turned off"), and names no phase or mode of its own, is in the mode its
  sentence last named: "For validation you want model.train(), because that's the mode
  where dropout is turned off" says dropout is off in train mode.
* Clauses end at punctuation (dashes too) and at linking words (and, but, while, whereas, so...).
* A sentence that opens on a phase or a mode ("In eval mode batch norm uses per-batch
  statistics and dropout is switched on", "During training, ...") puts every clause of it
  that names no phase or mode of its own in that phase or mode. One that opens on
  "otherwise" puts them in the other one of what the sentence before named ("Put the
  model in eval mode. Otherwise dropout stays active": active in train mode).
* A verb that names what it switches ("augment", "augmenting") is its own switch, on
  unless a negation or "stop" / "avoid" comes before it in its clause: "Augment the
  validation set" puts augmentation on in evaluation, "never augment" or "stop
  augmenting the validation images" off. Only in a clause with no other switch, and not
  "augmented": "the augmented copies landed in validation" describes a leak, it asks for
  nothing; unless an instruction places it ("put the augmented copies in validation"
  is augmentation on in evaluation, "keep the augmented copies out of validation" off;
  "you put augmented copies in both" says what was done, and asks for nothing).
* A setting is about the nearest content word before its switch ("dropout is active"),
  else the nearest after it ("turn off dropout"), else what the clause before it in the
  sentence was about ("dropout is on in training and off in validation"). "Some neurons
  are off during training" is about neurons, not dropout. A subject of two joined by
  "and" and a plural verb is about both ("dropout and batch norm's batch statistics are
  only used at evaluation": dropout too), as are the clauses that go on about it.
* An answer setting *contradicts* a rubric setting when both are about the same thing
  and it puts the opposite switch on the same phase ("active during evaluation" against
  "off during validation"). Training runs in train mode, so a setting of the mode is one
  of training too ("dropout is only applied in eval mode" against "on during
  training"); evaluation may run in either mode, so it is not one of evaluation.
* Which statistics batch norm normalises with is a setting too, of one thing
  (``STATISTICS``): each batch's own ("the current batch's statistics", "per-batch
  statistics") on, the running averages ("the stored running mean") off, each bound to
  the phase or mode word within four words of it or among its clause's first three,
  else (when its clause names no phase) to the sentence's opening one:
  "during validation it uses the current batch's statistics, and during training the
  stored running averages" contradicts "the running averages used at evaluation don't
  match the per-batch statistics seen in training". A "not" or "instead of" right
  before one turns it over; running averages kept up to date ("keeps updating its
  running averages") are not the ones used, and set nothing; nor does a clause that
  names both kinds and binds them to no two phases ("running stats ≠ batch stats at
  eval" compares them). A relative clause ("where", "when") that names no phase is in
  the phase among the last two words of the clause before it ("in training and
  evaluation, where it uses running averages"). The statistics are one switch between
  the phases, as the two modes are: "the running averages used at evaluation" says each
  batch's own are used in training, so "it uses its running averages during training
  too" contradicts it.
* An answer contradicts a rubric sentence when one of its settings contradicts one of the
  sentence's and none agrees with any of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sayitout.scoring.lexicon import denies, instead_at, wordset
from sayitout.scoring.text import STOPWORDS, clause_words, ends_clause_at, sentences, stem

ON, OFF = 1, -1
TRAINING, EVALUATION = "training", "evaluation"
MODE = "train mode"
"""A setting bound to a mode is stated as what it is in train mode."""
_SWITCHES = {
    **dict.fromkeys(("on", "active", "enabled", "apply", "applies", "applied", "used"), ON),
    **dict.fromkeys(("off", "inactive", "disabled", "freezes", "frozen", "freeze"), OFF),
}
_PHASES = {
    **dict.fromkeys(("training", "train"), TRAINING),
    **dict.fromkeys(
        ("evaluation", "eval", "validation", "val", "inference", "test", "testing", "serving"),
        EVALUATION,
    ),
}
_MODE_WORDS = wordset("mode modes")
_DOING = wordset("augment augments augmenting")
"""Verbs that name what they switch on: "augment the validation set" is augmentation on
in evaluation."""
_PLACED = wordset("augmented")
"""Participles that ask for their verb's switch after a verb that places them ("put the
augmented copies in validation": augmentation on in evaluation), and describe otherwise
("the augmented copies landed in validation")."""
_PLACES = wordset("put place move send keep add include")
_PLACE_LEADS = wordset("then just instead also simply i'd we'd you'd should must to")
"""What may come before a verb of ``_PLACES`` that gives an instruction: "and then put
...", "I'd put ...", not "you put ..." (what was done: the leak)."""
_KEPT_OUT = (("out", "of"), ("away", "from"))
_ENDS = wordset("stop stops stopped quit avoid avoids")
"""Words that, before a verb of ``_DOING``, switch it off ("stop augmenting ...")."""
_WANTS = wordset("""forgot forget forgets forgetting remember call calling put switch want
    need needs should must""")
"""Words that ask for a mode ("you forgot to call model.eval()", "put it in eval mode")."""
_TRANSITIVE = wordset("apply applies applying")
"""Switch words whose object follows them: "PyTorch applies dropout" is about dropout."""
WANTED_MODE = "mode"
"""What a setting asking for a mode is about: on for train mode, off for eval mode."""
_REFERRING = wordset("the that this same")
_ON_AFTER = wordset("""is are was were be been being it's stays stay stayed remains remain
    turned turn turns switched switch switches left keep keeps kept still""")
_ON_BEFORE = wordset("during in at when while for only throughout")
""""on" is a switch after a verb of state ("is on", "left on") or before a phase ("on
during training"); otherwise it is a preposition ("evaluate on the validation set")."""
_WHEN = _ON_BEFORE | wordset("before after")
"""Words that open a clause on when something happens ("| before the next epoch")."""
_LINKS = wordset("and but while whereas so because since which whilst though although then")
_NOT_ABOUT = STOPWORDS | _ON_AFTER | _ON_BEFORE | _MODE_WORDS | wordset("time only")
_ENDS_CLAUSE = ends_clause_at(",;:()—–")
"""A clause ends at these, read within a sentence (``sentences`` has cut at full stops),
brackets included ("(train mode)"), and at a lone hyphen used as a dash."""


@dataclass(frozen=True)
class Setting:
    """A switch bound to a phase, and what it switches."""

    switch: int
    phase: str
    about: str
    """The stem of what is switched ("dropout")."""


STATISTICS = "statistics"
"""What a setting of batch norm's statistics is about: on for each batch's own statistics,
off for the running averages."""
_RUNNING = wordset("running moving stored population")
_BATCH_OWN = wordset("batch batch's batches' per-batch minibatch mini-batch minibatch's")
_STAT_NOUNS = wordset("""average averages avg mean means stat stats statistics estimate
    estimates variance variances""")
_KEEPING = wordset("""update updates updating updated track tracks tracking tracked keep
    keeps keeping kept accumulate accumulates accumulating compute computes computing
    computed collect collects collecting collected accumulated gathered estimate estimated
    estimates""")
"""Verbs that keep the running averages up to date rather than use them ("keeps updating
its running averages" in train mode)."""
_DETERMINERS = wordset("the its their a each current stored own")
"""Words a "not" may stand before the statistics across ("not the stored running mean")."""
_NEAR = 4
"""How many words from the statistics a phase word binds them ("used at evaluation")."""
_RELATIVE = wordset("where when")
"""Words that open a relative clause, in the phase named right before it ("in training
and evaluation, where it uses running averages")."""


def _statistics(clause: list[str]) -> list[tuple[int, int, int]]:
    """Where ``clause`` names which statistics batch norm normalises with, and which
    (``ON``: each batch's own, "the current batch's statistics", "per-batch statistics";
    ``OFF``: the running averages, "the stored running mean"), each as (index of its
    first word, index of its noun, switch). A "not" right before it turns it over ("not
    the running averages"; "they don't match the running averages" denies the match, not
    the use), and so does "instead of" / "rather than" right before it; the running
    averages kept up to date ("keeps updating its running averages") are not used, so
    they set nothing."""
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(clause):
        w = clause[i]
        kind = ON if w in _BATCH_OWN else OFF if w in _RUNNING else None
        noun = next(
            (j for j in range(i + 1, min(i + 4, len(clause))) if clause[j] in _STAT_NOUNS), None
        )
        if kind is None or noun is None or (kind == OFF and clause[i + 1] in _BATCH_OWN):
            i += 1
            continue
        near = clause[max(0, i - 3) : i] + clause[noun + 1 : noun + 4]
        if kind == OFF and any(v in _KEEPING for v in near):
            i = noun + 1
            continue
        lead = clause[max(0, i - 3) : i]
        bare = [v for v in lead if v not in _DETERMINERS]
        if bare[-1:] in (["not"], ["never"], ["no"]) or any(
            instead_at(lead, k) for k in range(len(lead) - 1)
        ):
            kind = -kind
        out.append((i, noun, kind))
        i = noun + 1
    return out


def _phase_near(clause: list[str], i: int, noun: int) -> tuple[str, bool] | None:
    """The phase or mode word of ``clause`` that binds the statistics named at words
    ``i``..``noun``, as (phase, whether it is a mode): the nearest within ``_NEAR`` words
    of them ("the running averages used at evaluation"), or one among the clause's
    first three words ("during validation it uses the current batch's statistics"). A
    phase further off is about something else ("the running stats don't match what the
    model saw in training")."""
    found: list[tuple[int, int, str, bool]] = []
    for j, w in enumerate(clause):
        if w not in _PHASES:
            continue
        gap = i - j if j < i else j - noun
        if gap <= _NEAR or j < 3:
            found.append((gap, -j, _PHASES[w], _names_mode(clause, j)))
    if not found:
        return None
    _, _, phase, mode = min(found)
    return phase, mode


def _clauses(sentence: str) -> tuple[list[list[str]], list[bool]]:
    """The sentence's clauses, and for each whether "and" joined it to the one before
    with no pause ("dropout and batch norm's statistics are used": a subject of two)."""
    clauses: list[list[str]] = []
    joined: list[bool] = []
    for c in clause_words(sentence, _LINKS - {"and"}, _ENDS_CLAUSE):
        piece: list[str] = []
        after_and = False
        for w in c:
            if w == "and" and piece:
                clauses.append(piece)
                joined.append(after_and)
                piece, after_and = [], True
            else:
                piece.append(w)
        if piece:
            clauses.append(piece)
            joined.append(after_and)
    return clauses, joined


def _switch_on(clause: list[str], i: int) -> bool:
    before = clause[i - 1] if i else ""
    after = clause[i + 1] if i + 1 < len(clause) else ""
    return before in _ON_AFTER or after in _ON_BEFORE or not after


def _doing(clause: list[str]) -> tuple[int | None, str | None]:
    """The switch and the thing of a verb that names what it switches ("augment the
    validation set": on, augmentation), off after a negation or a word that ends it in
    the clause ("never augment ...", "stop augmenting ..."); (None, None) when the
    clause has none."""
    for i, w in enumerate(clause):
        placed = w in _PLACED and _placed(clause, i)
        if w in _DOING or placed:
            off = any(denies(v) or v in _ENDS for v in clause[:i])
            if placed and any(tuple(clause[j : j + 2]) in _KEPT_OUT for j in range(i, len(clause))):
                off = not off  # "keep the augmented copies out of validation"
            return (OFF if off else ON), stem(w)
    return None, None


def _placed(clause: list[str], i: int) -> bool:
    """Whether the participle at ``i`` is what an instruction places: a verb of
    ``_PLACES`` within the three words before it opens the clause, after leads of an
    instruction or a negation at most ("and put the augmented copies in validation",
    "don't put augmented images in validation")."""
    verbs = [j for j in range(max(0, i - 3), i) if clause[j] in _PLACES]
    return bool(verbs) and all(v in _PLACE_LEADS or denies(v) for v in clause[: verbs[0]])


def _content(w: str) -> bool:
    return w.isalpha() and w not in _NOT_ABOUT and w not in _SWITCHES and w not in _PHASES


def _subject(clause: list[str], i: int) -> str | None:
    """What the switch at ``i`` is about: the nearest content word before it ("dropout
    is active"), else after it ("turn off dropout"), within the clause; after it first
    for a verb that takes an object ("PyTorch applies dropout")."""
    before = [w for w in clause[:i] if _content(w)]
    after = [w for w in clause[i + 1 :] if _content(w)]
    if after and clause[i] in _TRANSITIVE:
        return stem(after[0])
    if before:
        return stem(before[-1])
    return stem(after[0]) if after else None


def _wanted_mode(
    clause: list[str], phases: set[str], modes: set[str], then: list[str]
) -> Setting | None:
    """The mode a clause asks for ("you forgot to call model.eval()", "put it in
    training mode before evaluating"), as a setting of the model's mode in the clause's
    phase (evaluation unless it names training alone; a call's parentheses end its
    clause, so the phase may open the clause after it: "call model.train() | before the
    next training epoch"); None when it asks for none or says it is not needed ("you
    don't need model.train()")."""
    if any(w in _WHEN for w in then[:2]):
        phases = phases | _bound(then)[0]
    if len(modes) != 1 or len(phases) > 1:
        return None
    cues = [i for i, w in enumerate(clause) if w in _WANTS]
    if not cues or any(denies(w) for w in clause[max(0, cues[0] - 2) : cues[0]] if w != "didn't"):
        return None
    train_on = ON if modes == {TRAINING} else OFF
    left = [i for i, w in enumerate(clause) if w in _PHASES or w.rpartition(".")[2] in _PHASES]
    before = clause[max(0, left[0] - 2) : left[0]] if left else []
    if before == ["out", "of"] or before[-1:] == ["from"]:
        train_on = -train_on  # "switch the network out of training mode": the other one
    return Setting(train_on, TRAINING if phases == {TRAINING} else EVALUATION, WANTED_MODE)


def _bound(clause: list[str]) -> tuple[set[str], set[str]]:
    """The phases and the modes (a phase word right before "mode", or the call that sets
    one: "model.train()", "model.eval()") ``clause`` names."""
    phases: set[str] = set()
    modes: set[str] = set()
    for i, w in enumerate(clause):
        call = w.rpartition(".")[2] if "." in w else ""
        if call in _PHASES:
            modes.add(_PHASES[call])
        elif w in _PHASES and i and clause[i - 1] == "dot":
            modes.add(_PHASES[w])  # "model dot eval": the call said aloud
        elif w in _PHASES:
            (modes if _names_mode(clause, i) else phases).add(_PHASES[w])
    return phases, modes


def _instead(clause: list[str]) -> tuple[str, str] | None:
    """(the phase said, the phase turned down) of a clause that names one phase before
    "rather than" or "instead of" and another after it ("dropout is applied at
    validation time rather than during training": on in evaluation, off in training);
    None for any other clause."""
    at = next((k for k in range(len(clause) - 1) if instead_at(clause, k)), None)
    if at is None:
        return None
    said, turned = _bound(clause[:at])[0], _bound(clause[at + 2 :])[0]
    if len(said) != 1 or len(turned) != 1 or said == turned:
        return None
    return next(iter(said)), next(iter(turned))


def _names_mode(clause: list[str], j: int) -> bool:
    """Whether the phase word ``clause[j]`` names a mode ("train mode", "eval mode")."""
    return j + 1 < len(clause) and clause[j + 1] in _MODE_WORDS


def _in_mode(switch: int, mode: str, about: str) -> Setting:
    """A switch said of a mode, as a setting of train mode: the two modes are one switch,
    so on in eval mode is off in train mode."""
    return Setting(switch if mode == TRAINING else -switch, MODE, about)


def _refers_to_mode(clause: list[str]) -> bool:
    """The clause speaks of a mode named before it: "that's the mode where ...", "in
    that mode"."""
    return any(w in _MODE_WORDS and i and clause[i - 1] in _REFERRING for i, w in enumerate(clause))


def _opening(clause: list[str]) -> tuple[set[str], set[str]]:
    """The phase or mode a sentence opens on: "in eval mode ...", "during training ..."
    (a preposition of time first, the phase within the three words after it)."""
    if not clause or clause[0] not in _ON_BEFORE:
        return set(), set()
    phases, modes = _bound(clause[:4])
    return (phases, set()) if len(phases) == 1 and not modes else (set(), modes)


def settings(text: str) -> tuple[Setting, ...]:
    """The settings ``text`` states (see the module docstring)."""
    out: list[Setting] = []
    before: tuple[set[str], set[str]] = (set(), set())  # what the last sentence named
    for sentence in sentences(text):
        subject: str | None = None  # a clause with none goes on about the one before
        partner: str | None = None  # the other of a subject of two ("dropout and ...")
        clauses, joined = _clauses(sentence)
        opening = _opening(clauses[0]) if clauses else (set(), set())
        if clauses and clauses[0][:1] == ["otherwise"]:
            # "Put the model in eval mode. Otherwise dropout stays active": the other one
            opening = (_other(before[0]), _other(before[1]))
        named: set[str] = set()  # the mode the sentence last named
        said: tuple[set[str], set[str]] = (set(), set())
        for k, clause in enumerate(clauses):
            phases, modes = _bound(clause)
            said = (said[0] | phases, said[1] | modes)
            if len(modes) == 1:
                named = modes
            switch, about = None, None
            for i, w in enumerate(clause):
                if w not in _SWITCHES or (w == "on" and not _switch_on(clause, i)):
                    continue
                flip = any(denies(v) for v in clause[max(0, i - 2) : i])
                switch = -_SWITCHES[w] if flip else _SWITCHES[w]
                about = _subject(clause, i)
            if switch is None:
                switch, about = _doing(clause)
            out.extend(_statistics_settings(clause, opening, clauses[k - 1] if k else []))
            subject = about or subject
            then = clauses[k + 1] if k + 1 < len(clauses) else []
            wanted = _wanted_mode(clause, phases, modes, then)
            if wanted is not None:
                out.append(wanted)
            if switch is None or subject is None:
                continue
            if not phases and not modes:
                if named and (_refers_to_mode(clause) or clause[:1] == ["that"]):
                    # "For validation you want model.train(), because that's the mode
                    # where dropout is turned off": the mode, not the sentence's phase
                    modes = set(named)
                else:
                    phases, modes = set(opening[0]), set(opening[1])
            if about is not None:
                partner = _joint_subject(clauses[k - 1], clause) if k and joined[k] else None
            subjects = [subject] if partner is None else [subject, partner]
            turned = _instead(clause) if len(phases) == 2 else None
            if turned is not None:
                # "applied at validation time rather than during training"
                out.extend(Setting(switch, turned[0], x) for x in subjects)
                out.extend(Setting(-switch, turned[1], x) for x in subjects)
            elif len(phases) == 1:
                phase = phases.pop()
                out.extend(Setting(switch, phase, x) for x in subjects)
            elif not phases and len(modes) == 1:
                mode = modes.pop()
                out.extend(_in_mode(switch, mode, x) for x in subjects)
        if said[0] or said[1]:
            before = said
    return tuple(out)


def _statistics_settings(
    clause: list[str], opening: tuple[set[str], set[str]], before: list[str]
) -> list[Setting]:
    """The settings of batch norm's statistics ``clause`` states (``_statistics``), each
    bound to the phase or mode word nearest it; in a relative clause ("where", "when")
    with none, to the phase among the last two words of the clause ``before`` it ("in
    training and evaluation, where it uses running averages"; "at test time, when");
    else to the sentence's opening one.
    None when the clause names both kinds and binds them to no two phases (it compares
    them)."""
    out: list[Setting] = []
    found = _statistics(clause)
    ends = [j for j in range(max(0, len(before) - 2), len(before)) if before[j] in _PHASES]
    relative = (
        (_PHASES[before[ends[-1]]], _names_mode(before, ends[-1]))
        if found and clause[0] in _RELATIVE and ends
        else None
    )
    for i, noun, switch in found:
        near = _phase_near(clause, i, noun)
        if near is None and any(w in _PHASES for w in clause):
            continue  # the clause's phase is about something else
        if near is None:
            near = relative
        if near is None:
            if len(opening[0]) == 1:
                near = (next(iter(opening[0])), False)
            elif len(opening[1]) == 1:
                near = (next(iter(opening[1])), True)
            else:
                continue
        phase, mode = near
        out.append(
            _in_mode(switch, phase, STATISTICS) if mode else Setting(switch, phase, STATISTICS)
        )
    kinds = {switch for _, _, switch in found}
    if len({(x.phase, x.switch) for x in out}) > len({x.phase for x in out}) or (
        len(kinds) == 2 and len({x.phase for x in out}) < 2
    ):
        return []  # the two compared ("running stats ≠ batch stats at eval")
    return out


def _joint_subject(before: list[str], clause: list[str]) -> str | None:
    """The other subject of a switch said of two things joined by "and": the thing that
    ends the clause ``before`` when it names no switch or phase and ``clause``, joined to
    it by "and", goes on with a plural verb ("because dropout | batch norm's batch
    statistics are only used at evaluation": dropout is used at evaluation too)."""
    if not before or not clause or not _content(before[-1]):
        return None
    if any(w in _SWITCHES or w in _PHASES for w in before):
        return None
    verb = next((w for w in clause if w in _ON_AFTER), None)
    return stem(before[-1]) if verb in _PLURAL else None


_PLURAL = wordset("are were")


def _other(named: set[str]) -> set[str]:
    """The other phase or mode of the one ``named`` (none unless exactly one is)."""
    if len(named) != 1:
        return set()
    return {EVALUATION} if TRAINING in named else {TRAINING}


def agrees(rubric: tuple[Setting, ...], answer: tuple[Setting, ...]) -> bool:
    """True when some answer setting puts the same switch on a phase of the rubric
    sentence's settings, about the same thing, and none puts the opposite one."""
    return bool(rubric) and bool(answer) and _compare(rubric, answer) == (True, False)


def contradiction(rubric: tuple[Setting, ...], answer: tuple[Setting, ...]) -> Setting | None:
    """The rubric sentence's setting an answer setting puts the other way, when the answer
    contradicts the sentence (``contradicts``); else None."""
    if not contradicts(rubric, answer):
        return None
    return next(
        said
        for r in rubric
        for a in answer
        if _same_phase(a.phase, (said := _said_of(r, a.phase)).phase)
        and a.about == said.about
        and a.switch != said.switch
    )


def _said_of(setting: Setting, phase: str) -> Setting:
    """``setting`` as it bears on ``phase``: batch norm's statistics are one switch
    between the phases (each batch's own in training, the running averages in
    evaluation), so "the running averages used at evaluation" says each batch's own
    statistics are used in training; any other setting, or one of a mode, says nothing
    of another phase."""
    if setting.about != STATISTICS or {setting.phase, phase} != {TRAINING, EVALUATION}:
        return setting  # evaluation may run in train mode: the mode says nothing of it
    return Setting(-setting.switch, phase, setting.about)


def _same_phase(a: str, b: str) -> bool:
    """Whether settings in phases ``a`` and ``b`` are about the same time: the same
    phase, or training and train mode (training runs in train mode; evaluation may run
    in either, so evaluation is no mode)."""
    return a == b or {a, b} == {TRAINING, MODE}


def contradicts(rubric: tuple[Setting, ...], answer: tuple[Setting, ...]) -> bool:
    """True when some answer setting puts the opposite switch on a phase of the rubric
    sentence's settings, about the same thing, and none agrees with them."""
    if not rubric or not answer:
        return False
    return _compare(rubric, answer) == (False, True)


def _compare(rubric: tuple[Setting, ...], answer: tuple[Setting, ...]) -> tuple[bool, bool]:
    """(some answer setting agrees with one of the rubric's, some puts the opposite switch
    on the same phase about the same thing)."""
    agree = opposite = False
    for setting in rubric:
        for a in answer:
            r = _said_of(setting, a.phase)
            if not _same_phase(a.phase, r.phase) or a.about != r.about:
                continue
            if a.switch == r.switch:
                agree = True
            else:
                opposite = True
    return agree, opposite
