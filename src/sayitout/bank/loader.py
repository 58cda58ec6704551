"""Load every deck and rubric into one :class:`Bank`, collecting problems as it goes.

A bank directory holds ``question_bank/<deck>.yaml`` and ``rubrics/<deck>/<qid>.yaml``.
The built-in bank, the user's bank dir and any ``--bank DIR`` are loaded in that
order. Nothing stops at the first mistake: every problem is recorded with its file
and line (``sayitout check`` prints them) and the good questions stay usable.
"""

from __future__ import annotations

import contextlib
import difflib
import gc
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from sayitout.bank.cache import ParseCache
from sayitout.bank.models import Deck, Question, Rubric
from sayitout.bank.problems import (
    FileTrouble,
    Problem,
    duplicate_keys,
    line_of,
    loc_text,
    read_yaml,
    validation_problems,
)
from sayitout.errors import BankError, SayitoutError, UsageError
from sayitout.locations import builtin_bank_root, locations, readable_dir

MIN_KEY_POINTS = 3
MAX_KEY_POINTS = 7
LIMIT_KEY_POINTS = 20
"""A rubric with more key points is refused: scoring time grows with every point and
paraphrase, and no spoken answer covers twenty points."""
LIMIT_PHRASES = 100
"""At most this many texts (key points, misconceptions and their paraphrases) a rubric."""
TODO_MARK = "TODO"
"""Text that marks a placeholder written by ``sayitout import``; ``check`` flags it."""


@dataclass
class Bank:
    """Every loaded deck, question and rubric, plus the problems met on the way."""

    decks: dict[str, Deck] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    _hinted: list[tuple[_Source, Rubric]] = field(default_factory=list)
    """Rubrics to give hints about; the hints (and their lines) are worked out only when
    asked for, so a load from the cache parses nothing for them."""
    roots: list[Path] = field(default_factory=list)
    _questions: dict[str, Question] = field(default_factory=dict)
    _deck_of: dict[str, str] = field(default_factory=dict)
    _rubrics: dict[str, Rubric] = field(default_factory=dict)
    _files: dict[str, Path] = field(default_factory=dict)
    _broken: set[str] = field(default_factory=set)
    """Ids of questions that failed validation (their rubrics are not blamed as well)."""
    _cache: ParseCache = field(default_factory=lambda: ParseCache(None), repr=False)

    # ------------------------------------------------------------------ look-ups

    def question(self, qid: str) -> Question:
        """The question ``qid``; :class:`UsageError` with close ids if there is none."""
        try:
            return self._questions[qid]
        except KeyError:
            raise self._unknown(qid) from None

    def rubric(self, qid: str) -> Rubric:
        """The rubric of ``qid``; :class:`BankError` if the question has no usable rubric."""
        self.question(qid)
        try:
            return self._rubrics[qid]
        except KeyError:
            raise BankError(
                f"question '{qid}' has no usable rubric",
                f"add rubrics/{self._deck_of[qid]}/{qid}.yaml or run 'sayitout check' "
                "to see what is wrong with it",
            ) from None

    def has_rubric(self, qid: str) -> bool:
        return qid in self._rubrics

    def deck_of(self, qid: str) -> str:
        self.question(qid)
        return self._deck_of[qid]

    def deck_rubrics(self, qid: str) -> list[Rubric]:
        """The usable rubrics of the deck that holds ``qid``, in deck order; none when
        the bank does not know ``qid`` (a rubric scored from its own file)."""
        deck = self._deck_of.get(qid)
        if deck is None or deck not in self.decks:
            return []
        return [self._rubrics[q.id] for q in self.decks[deck].questions if q.id in self._rubrics]

    def file_of(self, qid: str) -> Path:
        """The deck file that defines ``qid``."""
        self.question(qid)
        return self._files[qid]

    def questions(
        self,
        deck: str | None = None,
        topics: Iterable[str] | None = None,
        *,
        ready_only: bool = True,
    ) -> list[Question]:
        """Questions in deck order, filtered by deck and by any of ``topics``.

        ``ready_only`` (the default) keeps only questions with a usable rubric: the ones
        that can be practised and scored.
        """
        if deck is not None and deck not in self.decks:
            close = difflib.get_close_matches(deck, list(self.decks), n=3, cutoff=0.5)
            raise UsageError(
                f"no deck named '{deck}'",
                ("did you mean " + ", ".join(close) + "?")
                if close
                else "known decks: " + (", ".join(self.decks) or "none"),
            )
        wanted = {t.strip().lower() for t in topics or () if t.strip()}
        out = []
        for deck_id, d in self.decks.items():
            if deck is not None and deck_id != deck:
                continue
            for q in d.questions:
                if ready_only and q.id not in self._rubrics:
                    continue
                if wanted and not wanted & {t.lower() for t in q.topics}:
                    continue
                out.append(q)
        return out

    def topics(self) -> list[str]:
        """Every topic tag in use, sorted."""
        return sorted({t for d in self.decks.values() for q in d.questions for t in q.topics})

    @property
    def hints(self) -> list[Problem]:
        """Suggestions that are not faults: key points with no follow-up question."""
        out: list[Problem] = []
        # Each listed hint re-reads its file for line numbers: past the first few rubrics
        # (a large imported deck), one summary line says how many more there are.
        for src, rubric in self._hinted[:HINTED_FILES_LISTED]:
            out += _follow_up_hints(src, rubric)
        rest = self._hinted[HINTED_FILES_LISTED:]
        if rest:
            out.append(
                Problem(
                    rest[0][0].path,
                    1,
                    f"and {len(rest)} more rubrics with key points that have no follow-up "
                    "question (this file is the first of them) — add follow_ups where "
                    "a mock interviewer should probe",
                    level="hint",
                )
            )
        return out

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.level == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.level == "warning"]

    def _unknown(self, qid: str) -> UsageError:
        close = difflib.get_close_matches(qid, list(self._questions), n=3, cutoff=0.5)
        hint = (
            "did you mean " + ", ".join(close) + "?"
            if close
            else "run 'sayitout questions' to list the question ids"
        )
        return UsageError(f"no question with id '{qid}'", hint)


# -------------------------------------------------------------------- loading


def load_bank(
    extra_dirs: Sequence[Path | str] | None = None,
    *,
    builtin: bool = True,
    user: bool = True,
    cache: bool = True,
) -> Bank:
    """Load the built-in bank, the user's bank dir and ``extra_dirs``, in that order.

    A missing user dir is fine; a missing or non-bank ``extra_dirs`` entry is a
    :class:`UsageError`. Problems in files never raise: they land in ``Bank.problems``.
    ``cache`` keeps the parsed data of clean files between runs (:mod:`.cache`).
    """
    roots: list[Path] = []
    if builtin:
        roots.append(builtin_bank_root())
    if user:
        user_dir = locations().user_bank_dir
        if readable_dir(user_dir):
            roots.append(user_dir)
    for extra in extra_dirs or ():
        roots.append(_check_bank_dir(Path(extra).expanduser()))
    bank = Bank(_cache=ParseCache(_cache_file() if cache else None))
    seen: set[Path] = set()
    with _gc_paused():
        for root in roots:
            if root.resolve() in seen:
                continue
            seen.add(root.resolve())
            bank.roots.append(root)
            _load_root(bank, root)
    bank._cache.save(bank.roots)
    bank._cache = ParseCache(None)
    return bank


def _cache_file() -> Path | None:
    try:
        return locations().cache_dir / "bank-files.json"
    except Exception:  # no home directory to put it in: no cache
        return None


class _Source:
    """A bank file's plain data, and its node tree (for line numbers) when asked for:
    data from the cache has no tree until a problem needs one."""

    def __init__(
        self,
        path: Path,
        data: Any,
        node: yaml.Node | None = None,
        duplicates: list[tuple[int, str]] | None = None,
    ) -> None:
        self.path = path
        self.data = data
        self._node = node
        self._parsed = node is not None
        self.duplicates = duplicates or []

    @property
    def node(self) -> yaml.Node | None:
        if not self._parsed:
            self._parsed = True
            with contextlib.suppress(Exception):
                self._node = read_yaml(self.path)[1]
        return self._node


def _read(bank: Bank, path: Path) -> _Source:
    """The file's data (from the cache when unchanged); FileTrouble or OSError if unusable."""
    hit, data = bank._cache.get(path)
    if hit:
        return _Source(path, data)
    data, node = read_yaml(path)
    duplicates = duplicate_keys(node)
    if not duplicates:
        bank._cache.put(path, data)
    return _Source(path, data, node, duplicates)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a bank loads: the loader makes millions of
    small objects and keeps most of them, so collection runs again and again for nothing
    (half the load time of a 10,000-question deck). Nothing made here forms cycles."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        # Move what was made straight to the oldest generation, unscanned (freeze, then
        # unfreeze): the bank lives on, and three young-generation passes over millions
        # of objects would cost another half of the load time. Nothing is left frozen.
        gc.freeze()
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def _check_bank_dir(path: Path) -> Path:
    if not path.is_dir():
        raise UsageError(
            f"bank directory not found: {path}",
            "give a directory that holds question_bank/ (and rubrics/)",
        )
    if not (path / "question_bank").is_dir() and not (path / "rubrics").is_dir():
        raise UsageError(
            f"{path} is not a question bank: it has no question_bank/ or rubrics/ directory",
            "create question_bank/<deck>.yaml inside it, or run 'sayitout import FILE.txt "
            f"--deck NAME --out {path}'",
        )
    return path


def _yaml_files(directory: Path) -> list[Path]:
    if not directory.is_dir():
        return []
    return sorted(
        p
        for p in directory.iterdir()
        if p.suffix in (".yaml", ".yml") and not p.name.startswith(".") and p.is_file()
    )


def _load_root(bank: Bank, root: Path) -> None:
    decks: list[tuple[Deck, _Source]] = []
    for path in _yaml_files(root / "question_bank"):
        loaded = _load_deck(bank, path)
        if loaded is not None:
            decks.append(loaded)
    rubric_root = root / "rubrics"
    if rubric_root.is_dir():
        deck_dirs = (p for p in rubric_root.iterdir() if p.is_dir() and not p.name.startswith("."))
        for deck_dir in sorted(deck_dirs):
            for path in _yaml_files(deck_dir):
                _load_rubric(bank, path, deck_dir.name)
    for deck, src in decks:
        _report_missing_rubrics(bank, deck, src)


def _load_deck(bank: Bank, path: Path) -> tuple[Deck, _Source] | None:
    """One deck file; whatever is wrong with it becomes a problem, never an exception."""
    try:
        return _read_deck(bank, path)
    except Exception as exc:  # an unforeseen fault in one user file must not sink the bank
        bank.problems.append(Problem(path, 1, _unreadable(exc)))
        _release(bank, [q for qid, q in bank._questions.items() if bank._files.get(qid) == path])
        return None


def _unreadable(exc: Exception) -> str:
    return (
        f"the file could not be loaded ({type(exc).__name__}: {str(exc)[:200]}) — "
        "fix or remove it; the rest of the bank is loaded"
    )


def _read_deck(bank: Bank, path: Path) -> tuple[Deck, _Source] | None:
    try:
        src = _read(bank, path)
    except FileTrouble as trouble:
        bank.problems.append(Problem(path, trouble.line, trouble.message))
        return None
    except OSError as exc:
        bank.problems.append(Problem(path, 1, f"cannot read the file: {exc.strerror or exc}"))
        return None
    for line, key in src.duplicates:
        bank.problems.append(
            Problem(path, line, f"key '{key}' appears twice in the same block — keep one")
        )
    data = src.data
    if not isinstance(data, dict):
        bank.problems.append(
            Problem(
                path,
                1,
                "expected a deck: a mapping with keys id, title, description and questions",
            )
        )
        return None

    good = _load_questions(bank, src, data.get("questions"))
    header = {**data, "questions": good}
    try:
        deck = Deck.model_validate(header)
    except ValidationError as exc:
        problems = validation_problems(exc, Deck, path, src.node)
        if isinstance(data.get("questions"), list) and data["questions"]:
            # Questions were checked one by one above; drop the echo of "no good ones".
            problems = [p for p in problems if not p.message.startswith("questions:")]
        bank.problems.extend(problems)
        _release(bank, good)
        return None

    if deck.id != path.stem:
        bank.problems.append(
            Problem(
                path,
                line_of(src.node, ("id",)),
                f"deck id '{deck.id}' does not match the file name '{path.name}' — "
                f"set id: {path.stem} or rename the file to {deck.id}.yaml",
            )
        )
    if deck.id in bank.decks:
        bank.problems.append(
            Problem(
                path,
                line_of(src.node, ("id",)),
                f"deck '{deck.id}' is already defined in another bank directory — "
                "give this deck another id and file name",
            )
        )
        _release(bank, deck.questions)
        return None
    bank.decks[deck.id] = deck
    for q in deck.questions:
        bank._deck_of[q.id] = deck.id
    return deck, src


def _release(bank: Bank, questions: list[Question]) -> None:
    """Forget questions of a deck that did not load (their rubrics are not blamed)."""
    for q in questions:
        bank._questions.pop(q.id, None)
        bank._files.pop(q.id, None)
        bank._broken.add(q.id)


def _load_questions(bank: Bank, src: _Source, raw: Any) -> list[Question]:
    """Validate each question on its own so one bad question does not sink the deck."""
    path = src.path
    if not isinstance(raw, list):
        return []
    good: list[Question] = []
    for i, item in enumerate(raw):
        try:
            q = Question.model_validate(item)
        except ValidationError as exc:
            bank.problems.extend(validation_problems(exc, Deck, path, src.node, ("questions", i)))
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                bank._broken.add(item["id"])
            continue
        if q.id in bank._questions:
            other = bank._files[q.id]
            where = "earlier in this file" if other == path else f"in {other}"
            bank.problems.append(
                Problem(
                    path,
                    line_of(src.node, ("questions", i, "id")),
                    f"duplicate question id '{q.id}' (already used {where}) — "
                    "ids must be unique across all decks; rename one",
                )
            )
            continue
        bank._questions[q.id] = q
        bank._files[q.id] = path
        good.append(q)
    return good


def _load_rubric(bank: Bank, path: Path, deck_dir: str) -> None:
    """One rubric file; whatever is wrong with it becomes a problem, never an exception."""
    try:
        _read_rubric(bank, path, deck_dir)
    except Exception as exc:  # an unforeseen fault in one user file must not sink the bank
        bank.problems.append(Problem(path, 1, _unreadable(exc)))


def _read_rubric(bank: Bank, path: Path, deck_dir: str) -> None:
    try:
        src = _read(bank, path)
    except FileTrouble as trouble:
        bank.problems.append(Problem(path, trouble.line, trouble.message))
        return
    except OSError as exc:
        bank.problems.append(Problem(path, 1, f"cannot read the file: {exc.strerror or exc}"))
        return
    for line, key in src.duplicates:
        bank.problems.append(
            Problem(path, line, f"key '{key}' appears twice in the same block — keep one")
        )
    try:
        rubric = Rubric.model_validate(src.data)
    except ValidationError as exc:
        bank.problems.extend(validation_problems(exc, Rubric, path, src.node))
        return

    def qid_line() -> int:
        return line_of(src.node, ("question_id",))

    if rubric.question_id != path.stem:
        bank.problems.append(
            Problem(
                path,
                qid_line(),
                f"question_id '{rubric.question_id}' does not match the file name "
                f"'{path.name}' — name the file {rubric.question_id}.yaml "
                f"or set question_id: {path.stem}",
            )
        )
        return
    if rubric.question_id in bank._broken:
        return  # the question itself is reported; its rubric is checked once it loads
    question = bank._questions.get(rubric.question_id)
    if question is None or bank._files[rubric.question_id].stem != deck_dir:
        deck = bank.decks.get(deck_dir)
        ids = [q.id for q in deck.questions] if deck else []
        close = difflib.get_close_matches(rubric.question_id, ids, n=1, cutoff=0.5)
        if deck is None:
            fix = f"no deck '{deck_dir}' was loaded: add question_bank/{deck_dir}.yaml"
        elif close:
            fix = f"did you mean '{close[0]}'? rename the file and its question_id"
        else:
            fix = f"add the question to question_bank/{deck_dir}.yaml or delete this file"
        bank.problems.append(
            Problem(
                path,
                qid_line(),
                f"rubric references nothing: deck '{deck_dir}' has no question "
                f"'{rubric.question_id}' — {fix}",
            )
        )
        return
    if rubric.question_id in bank._rubrics:
        bank.problems.append(
            Problem(path, qid_line(), f"a second rubric for '{rubric.question_id}' — delete one")
        )
        return
    if _check_rubric_fits(bank, src, rubric, question):
        bank._rubrics[rubric.question_id] = rubric.model_copy(update={"question": question.text})


def _check_rubric_fits(bank: Bank, src: _Source, rubric: Rubric, question: Question) -> bool:
    """Checks that need the question as well as the rubric, and authoring guidance.

    False when the rubric is still a ``TODO`` placeholder (not usable for scoring).
    """
    too_big = rubric_too_big(rubric)
    if too_big:
        bank.problems.append(Problem(src.path, line_of(src.node, ("key_points",)), too_big))
        return False
    if question.kind == "numeric" and rubric.numeric is None:
        bank.problems.append(
            Problem(
                src.path,
                line_of(src.node, ("question_id",)),
                f"'{question.id}' is a numeric question but the rubric has no 'numeric' "
                "block — add numeric: {value: ..., tolerance: ..., unit: ...}",
            )
        )
    if question.kind == "open" and rubric.numeric is not None:
        bank.problems.append(
            Problem(
                src.path,
                line_of(src.node, ("numeric",)),
                f"'{question.id}' is an open question but the rubric has a 'numeric' block — "
                "remove it, or set kind: numeric on the question",
            )
        )
    todo: list[tuple[str | int, ...]] = [
        ("key_points", i, "text") for i, kp in enumerate(rubric.key_points) if TODO_MARK in kp.text
    ]
    if TODO_MARK in rubric.model_answer:
        todo.append(("model_answer",))
    if todo:
        fields = ", ".join(loc_text(loc) for loc in todo)
        bank.problems.append(
            Problem(
                src.path,
                line_of(src.node, todo[0]),
                f"placeholder rubric: {fields} still marked {TODO_MARK} — write what a good "
                "answer says; the question is left out of practice until then",
            )
        )
        return False
    count = len(rubric.key_points)
    if not MIN_KEY_POINTS <= count <= MAX_KEY_POINTS:
        bank.problems.append(
            Problem(
                src.path,
                line_of(src.node, ("key_points",)),
                f"key_points: {count} key point{'s' if count != 1 else ''}; "
                f"{MIN_KEY_POINTS} to {MAX_KEY_POINTS} score most reliably — "
                + ("split or add points" if count < MIN_KEY_POINTS else "merge some points"),
                level="warning",
            )
        )
    if _lacks_follow_ups(rubric):
        bank._hinted.append((src, rubric))
    return True


FOLLOW_UP_WEIGHT = 2.0
"""Key points at least this heavy should have a follow-up question; ``check`` hints at those
that have none (imported decks start without any)."""


HINTED_FILES_LISTED = 25
"""Rubrics whose follow-up hints ``check`` lists one by one, with line numbers."""


def _lacks_follow_ups(rubric: Rubric) -> bool:
    heavy = [kp for kp in rubric.key_points if kp.weight >= FOLLOW_UP_WEIGHT]
    if heavy:
        return any(not kp.follow_ups for kp in heavy)
    return not any(kp.follow_ups for kp in rubric.key_points)


def _follow_up_hints(src: _Source, rubric: Rubric) -> list[Problem]:
    out: list[Problem] = []
    fix = 'add follow_ups: ["...?"] so a mock interviewer can probe it when it is missed'
    heavy = [(i, kp) for i, kp in enumerate(rubric.key_points) if kp.weight >= FOLLOW_UP_WEIGHT]
    for i, kp in heavy:
        if not kp.follow_ups:
            out.append(
                Problem(
                    src.path,
                    line_of(src.node, ("key_points", i, "id")),
                    f"key point '{kp.id}' (weight {kp.weight:g}) has no follow-up question — "
                    + fix,
                    level="hint",
                )
            )
    if not heavy and not any(kp.follow_ups for kp in rubric.key_points):
        out.append(  # e.g. an imported deck: every point weighs the same
            Problem(
                src.path,
                line_of(src.node, ("key_points",)),
                f"no key point has a follow-up question ({len(rubric.key_points)} key points) "
                "— under the ones that matter most, " + fix,
                level="hint",
            )
        )
    return out


def rubric_too_big(rubric: Rubric) -> str | None:
    """Why ``rubric`` is too big to score in good time, or None."""
    points = len(rubric.key_points)
    if points > LIMIT_KEY_POINTS:
        return (
            f"key_points: {points} key points; at most {LIMIT_KEY_POINTS} can be scored "
            f"(each one is matched against every part of an answer) — keep the "
            f"{MIN_KEY_POINTS} to {MAX_KEY_POINTS} that matter, or split the question"
        )
    phrases = sum(1 + len(k.paraphrases) for k in rubric.key_points) + sum(
        1 + len(m.paraphrases) for m in rubric.misconceptions
    )
    if phrases > LIMIT_PHRASES:
        return (
            f"{phrases} key points, misconceptions and paraphrases in all; at most "
            f"{LIMIT_PHRASES} can be scored in good time — keep the paraphrases that differ most"
        )
    return None


def _report_missing_rubrics(bank: Bank, deck: Deck, src: _Source) -> None:
    """Flag questions that have no rubric, unless their rubric file was already flagged."""
    path = src.path
    missing = [q for q in deck.questions if q.id not in bank._rubrics]
    if not missing:
        return
    id_lines = _raw_question_ids(src.node)
    flagged = {(p.file.parent.name, p.file.stem) for p in bank.problems}
    for q in missing:
        if (path.stem, q.id) in flagged:
            continue
        bank.problems.append(
            Problem(
                path,
                id_lines.get(q.id, 1),
                f"question '{q.id}' has no rubric — add rubrics/{path.stem}/{q.id}.yaml",
            )
        )


def _raw_question_ids(node: yaml.Node | None) -> dict[str, int]:
    """Question id -> line of its ``id:`` key, read from the node tree."""
    out: dict[str, int] = {}
    if not isinstance(node, yaml.MappingNode):
        return out
    for key, value in node.value:
        if getattr(key, "value", None) == "questions" and isinstance(value, yaml.SequenceNode):
            for item in value.value:
                if isinstance(item, yaml.MappingNode):
                    for k, v in item.value:
                        if getattr(k, "value", None) == "id" and isinstance(v, yaml.ScalarNode):
                            out[v.value] = k.start_mark.line + 1
    return out


def load_rubric_file(path: Path | str) -> Rubric:
    """Load one rubric file (for ``score --rubric FILE``); :class:`BankError` on any problem."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise UsageError(f"rubric file not found: {path}", "check the path")
    try:
        return _read_rubric_file(path)
    except SayitoutError:
        raise
    except Exception as exc:  # an unforeseen fault in a user file is still bad input
        raise BankError(f"{path}: {_unreadable(exc)}") from None


def _read_rubric_file(path: Path) -> Rubric:
    try:
        data, node = read_yaml(path)
    except FileTrouble as trouble:
        raise BankError(f"{path}:{trouble.line}: {trouble.message}") from None
    except OSError as exc:
        raise BankError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        rubric = Rubric.model_validate(data)
    except ValidationError as exc:
        problems = validation_problems(exc, Rubric, path, node)
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise BankError(
            f"{problems[0]}{more}",
            f"fix {path.name}; 'sayitout check --bank DIR' lists every problem of a bank",
        ) from None
    too_big = rubric_too_big(rubric)
    if too_big:
        raise BankError(f"{path}:{line_of(node, ('key_points',))}: {too_big}")
    return rubric
