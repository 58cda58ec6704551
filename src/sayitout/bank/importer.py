"""Turn a plain-text question list into a deck and rubric skeletons.

The text is read as paragraphs separated by blank lines. A paragraph that ends
with a question mark (optionally followed by a note in brackets, "(Natural log.)")
is a question; prose paragraphs right after a question are its spoken answer.
Titles, bullet lists and headings such as "Summary" are skipped. A paragraph whose
every line is a question (one question per line) gives one question per line.

Key points are drafted from the answer's sentences. A question without an answer
gets a rubric whose key point and model answer are marked ``TODO``: the loader
keeps such a question out of practice and ``sayitout check`` reports it as an
error until someone writes the rubric.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sayitout.bank.loader import TODO_MARK
from sayitout.bank.models import ID_PATTERN
from sayitout.errors import UsageError
from sayitout.scoring import lexicon, numbers

MIN_POINTS, MAX_POINTS = 3, 7
SHORT_SENTENCE_WORDS = 8
_QUESTION_END = re.compile(r"\?[\"'”’]?\s*(\([^()]*\))?\s*$")
_BULLET = re.compile(r"^\s*([•·▪‣◦*\-–—]|\d+[.)]|[a-z][.)])\s+", re.IGNORECASE)
_ENUMERATION = re.compile(r"^\s*(q(uestion)?\s*\d*\s*[:.)]|\d+\s*[:.)]|[•·*\-–—])\s*", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'“‘(]?[A-Z0-9])")
_WORD = re.compile(r"[A-Za-z0-9]+")
_JARGON = re.compile(
    r"\b(?:[A-Z]{2,}[a-z]?s?|[A-Za-z]*[a-z][A-Z][A-Za-z]*|[A-Za-z]+\d[A-Za-z0-9]*|\d+[A-Za-z]+\w*)\b"
)
_STOPWORD_TEXT = """a an the and or but if then so of to in on at by for with from into over as
    is are was were be been being do does did doing done you your yours we our i me my it its
    this that these
    those there here what whats what's which who whom whose why how when where will would should
    can could may might must shall have has had having not no than too very just also about after
    before between during out up down off again further once all any both each few more most other
    some such only own same s t d ll m re ve don doesn isn aren get gets got one first rather"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


@dataclass
class ImportedQuestion:
    text: str
    answer: str = ""


@dataclass
class ImportResult:
    deck_file: Path
    rubric_files: list[Path] = field(default_factory=list)
    with_answer: int = 0
    without_answer: int = 0
    numeric: int = 0
    """Questions drafted as numeric: they ask for a number and their answer states one."""
    removed: list[Path] = field(default_factory=list)


# ------------------------------------------------------------------ parsing


def read_text(path: Path) -> str:
    """The file's text; :class:`UsageError` for a missing, unreadable or non-UTF-8 file."""
    if not path.is_file():
        raise UsageError(f"file not found: {path}", "give the path of a plain text file")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise UsageError(
            f"{path}:{line}: not UTF-8 text",
            "save the file as UTF-8 (e.g. 'iconv -f latin1 -t utf-8 in.txt > out.txt')",
        ) from None


def _paragraphs(text: str) -> list[list[str]]:
    blocks = re.split(r"\n\s*\n", text.replace("\r\n", "\n").replace("\r", "\n"))
    return [
        [ln.strip() for ln in b.strip().splitlines() if ln.strip()] for b in blocks if b.strip()
    ]


def _is_question(text: str) -> bool:
    return bool(_QUESTION_END.search(text))


def _is_noise(lines: list[str]) -> bool:
    """Titles, headings ("Summary") and bullet lists: not questions, not answers."""
    if all(_BULLET.match(ln) for ln in lines):
        return True
    joined = " ".join(lines)
    return len(lines) == 1 and len(joined.split()) <= 8 and not re.search(r"[.!?:;]$", joined)


def _clean_question(line: str) -> str:
    return _ENUMERATION.sub("", line, count=1).strip()


def parse_title(text: str) -> str | None:
    """The file's first line when it reads like a title (before any question)."""
    paragraphs = _paragraphs(text)
    if paragraphs and len(paragraphs[0]) == 1 and _is_noise(paragraphs[0]):
        first = paragraphs[0][0]
        return None if _BULLET.match(first) else first
    return None


def parse_questions(text: str) -> list[ImportedQuestion]:
    """Questions in order, each with the prose paragraph(s) that follow it as its answer."""
    found: list[ImportedQuestion] = []
    current: ImportedQuestion | None = None
    for lines in _paragraphs(text):
        joined = " ".join(lines)
        if len(lines) > 1 and all(_is_question(ln) for ln in lines):
            found.extend(ImportedQuestion(_clean_question(ln)) for ln in lines)
            current = None
        elif _is_question(joined):
            current = ImportedQuestion(_clean_question(joined))
            found.append(current)
        elif _is_noise(lines):
            current = None
        elif current is not None:
            current.answer = f"{current.answer} {joined}".strip()
    return found


# ---------------------------------------------------------------- drafting


def _keywords(text: str, count: int) -> list[str]:
    words = [w.lower() for w in _WORD.findall(text)]
    keep = [w for w in words if w not in _STOPWORDS and len(w) > 1]
    return (keep or words)[:count]


def _unique_id(base: str, taken: set[str]) -> str:
    base = base.strip("-") or "q"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    taken.add(candidate)
    return candidate


def question_id(deck: str, text: str, taken: set[str]) -> str:
    """A readable id such as ``hard-dl-loss-goes-nan``, unique within ``taken``."""
    return _unique_id("-".join([deck, *_keywords(text, 4)]), taken)


def guess_terms(text: str) -> list[str]:
    """Jargon-like tokens a recogniser may miss: acronyms, CamelCase, words with digits."""
    terms: dict[str, None] = {}
    for match in _JARGON.finditer(text):
        token = match.group(0)
        if token.endswith("s") and token[:-1].isupper() and len(token) > 2:
            token = token[:-1]  # "GPUs" -> "GPU"
        terms.setdefault(token, None)
    return list(terms)


def _sentences(answer: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(answer) if s.strip()]


def draft_points(answer: str) -> list[str]:
    """3 to 7 key-point texts from the answer: short sentences grouped, long ones split."""
    groups: list[str] = []
    for sentence in _sentences(answer):
        # A short sentence, or a question ("Is the learning rate too high?"), needs what follows.
        if groups and (len(groups[-1].split()) < SHORT_SENTENCE_WORDS or groups[-1].endswith("?")):
            groups[-1] = f"{groups[-1]} {sentence}"
        else:
            groups.append(sentence)
    if len(groups) > 1 and len(groups[-1].split()) < SHORT_SENTENCE_WORDS:
        tail = groups.pop()
        groups[-1] = f"{groups[-1]} {tail}"
    while len(groups) > MAX_POINTS:  # merge the shortest neighbouring pair
        i = min(range(len(groups) - 1), key=lambda k: len(groups[k]) + len(groups[k + 1]))
        groups[i : i + 2] = [f"{groups[i]} {groups[i + 1]}"]
    while len(groups) < MIN_POINTS:
        i = max(range(len(groups)), key=lambda k: len(groups[k]))
        halves = _split_in_two(groups[i])
        if halves is None:
            break
        groups[i : i + 1] = list(halves)
    return groups


def _split_in_two(text: str) -> tuple[str, str] | None:
    """Split at the sentence boundary nearest the middle, else at such a comma or semicolon."""
    for pieces, glue in ((_sentences(text), " "), (re.split(r"(?<=[,;])\s+", text), " ")):
        if len(pieces) < 2:
            continue
        total = len(text)
        best = min(
            range(1, len(pieces)),
            key=lambda k: abs(len(glue.join(pieces[:k])) - total / 2),
        )
        left, right = glue.join(pieces[:best]).rstrip(",;"), glue.join(pieces[best:])
        if min(len(left.split()), len(right.split())) >= 4:
            return left, right
    return None


_ASKS_QUANTITY = re.compile(
    r"\bhow (?:many|much|long|big|large|fast|far|often)\b"
    r"|\bwhat(?:['’]s| is| are| would be| will be)? (?:the |your |its )?(?:[\w-]+ ){0,3}?"
    r"(?:value|number|loss|rate|size|deviation|std|variance|count|total|memory|time|speed"
    r"|throughput|accuracy|probability)\b"
    r"|\bwhat(?:['’]s| is) it (?:at|after|by|when|exactly|halfway)\b",
    re.IGNORECASE,
)
"""A question that asks for a quantity ("How much memory ...?", "What's the learning rate
at step 500?", "What is it exactly halfway through?"); "What's your first debugging
step?" asks for none."""
_NUMERIC_RELATIVE_TOLERANCE = 0.01
"""A drafted numeric answer that is not a whole number accepts this much either side,
relative ("2.3" for ln 10 = 2.303, "41.67" for 41.7 minutes)."""


def _asking_part(question: str) -> str:
    """The sentence that asks, with what follows it ("How much memory? (GB, 10⁹ bytes.)");
    without a question mark, the last sentence ("Identify the standard for the test.")."""
    end = question.rfind("?")
    if end < 0:
        end = len(question.rstrip().rstrip("."))
    starts = [m.end() for m in re.finditer(r"[.!?]\s+", question[:end])]
    return question[(starts[-1] if starts else 0) :]


def draft_numeric(question: str, answer: str) -> dict[str, Any] | None:
    """A ``numeric`` block for a question that asks for a quantity and whose answer states
    one: the number the scorer would take as the answer's stated result, read with the
    unit the question asks in (a count such as "parameters" is a label, no unit). A whole
    number must be said exactly (within a half, or 0.01 % for large counts: 16,777,216 is
    not 16,781,312); any other number within 1 %. None when the question asks for no
    quantity (read in its asking sentence) or the answer states no number but the
    question's own ("the distance travelled in 10 seconds"): an open question."""
    asking = _asking_part(question)
    if not _ASKS_QUANTITY.search(asking):
        return None
    named = [
        known
        for w in re.findall(r"[A-Za-z]+", asking)
        if (known := lexicon.UNITS.get(w) or lexicon.UNITS.get(w.lower())) is not None
    ]
    quantity = named[-1].quantity if named else None
    said = numbers.pick_answer(numbers.find_numbers(answer), quantity, bare_ok=True)
    if said is None or said.vague or said.hypothetical:
        return None
    if any(numbers.same_number(said.value, m.value) for m in numbers.find_numbers(question)):
        return None  # "the distance travelled in 10 seconds" names the setup, not a result
    value = said.value
    if value == round(value) and abs(value) >= 1:
        tolerance = max(0.5, abs(value) * 1e-4)
    else:
        tolerance = abs(value) * _NUMERIC_RELATIVE_TOLERANCE
    unit = said.unit if said.quantity not in (None, "count") and said.unit else ""
    return {"value": value, "tolerance": float(f"{tolerance:.3g}"), "unit": unit}


def draft_rubric(qid: str, answer: str, question: str = "") -> dict[str, Any]:
    """A rubric skeleton as plain data (what is written to YAML).

    Jargon in the question that no key point carries goes to ``hotwords``.
    """
    if not answer:
        return {
            "question_id": qid,
            "version": 1,
            "key_points": [
                {
                    "id": "todo",
                    "text": f"{TODO_MARK}: write what a good answer must say",
                    "weight": 1,
                    "paraphrases": [],
                    "terms": [],
                }
            ],
            "misconceptions": [],
            "model_answer": f"{TODO_MARK}: write a strong answer, to be read aloud",
        }
    taken: set[str] = set()
    points: list[dict[str, Any]] = [
        {
            "id": _unique_id("-".join(_keywords(text, 3)), taken),
            "text": text,
            "weight": 1,
            "paraphrases": [],
            "terms": guess_terms(text),
        }
        for text in draft_points(answer)
    ]
    in_points = {t for p in points for t in p["terms"]}
    draft: dict[str, Any] = {
        "question_id": qid,
        "version": 1,
        "key_points": points,
        "misconceptions": [],
    }
    numeric = draft_numeric(question, answer)
    if numeric is not None:
        draft["numeric"] = numeric
    draft["hotwords"] = [t for t in guess_terms(question) if t not in in_points]
    draft["model_answer"] = answer
    return draft


def answer_seconds(answer: str) -> int:
    """Twice the time to say the answer at 130 words a minute, in 15 s steps, 45 to 180 s."""
    if not answer:
        return 90
    seconds = len(answer.split()) / 130 * 60 * 2
    return int(min(180, max(45, round(seconds / 15) * 15)))


# ----------------------------------------------------------------- writing


def check_deck_name(name: str) -> str:
    if not re.match(ID_PATTERN, name):
        raise UsageError(
            f"'{name}' is not a valid deck name",
            "use lower-case letters, digits and hyphens, starting with a letter or digit "
            "(e.g. my-ml-questions)",
        )
    return name


def _dump(data: dict[str, Any], header: str) -> str:
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    return "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines()) + body


def import_text(
    source: Path,
    deck: str,
    out_dir: Path,
    *,
    force: bool = False,
    title: str | None = None,
    taken: set[str] | None = None,
) -> ImportResult:
    """Write ``question_bank/<deck>.yaml`` and ``rubrics/<deck>/<id>.yaml`` under ``out_dir``.

    ``taken`` holds question ids already used by other decks; new ids avoid them.
    """
    check_deck_name(deck)
    text = read_text(source)
    questions = parse_questions(text)
    if not questions:
        raise UsageError(
            f"no questions found in {source}",
            "questions are paragraphs ending with '?', separated by blank lines",
        )
    deck_file = out_dir / "question_bank" / f"{deck}.yaml"
    if deck_file.exists() and not force:
        raise UsageError(
            f"the deck {deck_file} already exists", "use --force to overwrite it, or another --deck"
        )
    taken = set(taken or ())
    entries: list[dict[str, Any]] = []
    rubrics: list[tuple[str, dict[str, Any]]] = []
    for q in questions:
        qid = question_id(deck, q.text, taken)
        rubric = draft_rubric(qid, q.answer, q.text)
        entries.append(
            {
                "id": qid,
                "text": q.text,
                "kind": "numeric" if "numeric" in rubric else "open",
                "topics": [],
                "answer_seconds": answer_seconds(q.answer),
            }
        )
        rubrics.append((qid, rubric))
    deck_data = {
        "id": deck,
        "title": title or parse_title(text) or deck.replace("-", " ").capitalize(),
        "description": f"Imported from {source.name}.",
        "questions": entries,
    }
    result = ImportResult(deck_file, numeric=sum("numeric" in r for _, r in rubrics))
    deck_text = _dump(
        deck_data,
        f"Imported by 'sayitout import' from {source.name}.\n"
        "Questions that ask for a number and whose answer states one are kind: numeric,\n"
        "with a drafted 'numeric' block in their rubric: check its value, tolerance and\n"
        "unit. Set kind: numeric on any other question with a single right number, add\n"
        "topics, then run 'sayitout check'.",
    )
    try:
        _write_atomically(out_dir, deck, deck_text, rubrics, questions, force, result)
    except OSError as exc:
        raise UsageError(
            f"cannot write the deck under {out_dir}: {exc.strerror or exc}",
            "check the directory's permissions or choose another --out",
        ) from None
    return result


_STAGING = ".sayitout-import-"
"""Prefix of the hidden folder an import is written to before it is moved into place."""


def _write_atomically(
    out_dir: Path,
    deck: str,
    deck_text: str,
    rubrics: list[tuple[str, dict[str, Any]]],
    questions: list[ImportedQuestion],
    force: bool,
    result: ImportResult,
) -> None:
    """Write the deck and its rubrics into a hidden folder beside the bank, then move
    them into place with two renames (rubrics first, the deck file last), so an
    interrupted import leaves the bank as it was, or the whole new deck."""
    deck_file = out_dir / "question_bank" / f"{deck}.yaml"
    rubric_dir = out_dir / "rubrics" / deck
    deck_file.parent.mkdir(parents=True, exist_ok=True)
    rubric_dir.parent.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.glob(f"{_STAGING}{deck}-*"):  # left by an import that was killed
        shutil.rmtree(stale, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{_STAGING}{deck}-", dir=out_dir))
    try:
        new_rubrics = staging / "rubrics"
        new_rubrics.mkdir()
        written = set()
        for (qid, rubric), q in zip(rubrics, questions, strict=True):
            note = (
                "Drafted from the answer in the source file: check each key point,\n"
                "add paraphrases and misconceptions."
                if q.answer
                else f"No answer in the source file: replace the {TODO_MARK} lines."
            )
            (new_rubrics / f"{qid}.yaml").write_text(_dump(rubric, note), encoding="utf-8")
            result.rubric_files.append(rubric_dir / f"{qid}.yaml")
            written.add(f"{qid}.yaml")
            if q.answer:
                result.with_answer += 1
            else:
                result.without_answer += 1
        if rubric_dir.is_dir():
            for old in sorted(rubric_dir.iterdir()):
                if old.name in written or not old.is_file():
                    continue
                if force and old.suffix in (".yaml", ".yml"):
                    # rubrics left from an earlier import of this deck would reference nothing
                    result.removed.append(old)
                else:
                    shutil.copy2(old, new_rubrics / old.name)
        new_deck = staging / "deck.yaml"
        new_deck.write_text(deck_text, encoding="utf-8")
        _fsync_tree(staging)
        old_rubrics = staging / "old-rubrics"
        if rubric_dir.exists():
            rubric_dir.rename(old_rubrics)
        try:
            new_rubrics.rename(rubric_dir)
        except BaseException:
            if old_rubrics.exists():
                old_rubrics.rename(rubric_dir)
            raise
        os.replace(new_deck, deck_file)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _fsync_tree(folder: Path) -> None:
    """Flush the staged files to disk before they are renamed into place."""
    for path in folder.rglob("*"):
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
