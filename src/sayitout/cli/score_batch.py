"""``sayitout score --batch``: score a JSONL file of answers, one result per input line.

The contract, for anyone joining results to inputs:

- The input is split on ``\\n`` only (a ``\\r`` before it and a UTF-8 BOM at the start
  are dropped), never on U+2028, U+0085, form feed or other characters that are legal
  inside a JSON string. Blank lines are skipped.
- Every result carries ``"line": N``, its input line, and results come out in input
  order. A line that cannot be scored gets ``{"line": N, "error": "..."}``; the other
  lines are still scored. Nothing a line holds stops the batch.
- Each line is checked against one schema (:class:`BatchLine`) before it reaches the
  scorer; text is cleaned (lone surrogates become U+FFFD) on the way in.
- Results are written as soon as their chunk is scored, so Ctrl-C keeps what was done;
  ``--resume`` skips the input lines already answered in the output file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sayitout.bank.models import Rubric
from sayitout.cli.progress import Progress
from sayitout.errors import ModelError, SayitoutError, UsageError
from sayitout.speech.transcript import Transcript, Word

CHUNK = 32
"""Answers embedded together; results are written after each chunk."""
MAX_LINE_BYTES = 1_000_000
"""A longer line is refused (an answer is a few kilobytes)."""
_SURROGATE = re.compile(r"[\ud800-\udfff]")


_LINE_BREAKERS = str.maketrans({"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def result_line(result: dict[str, Any]) -> str:
    """One output line: JSON with text kept readable (no ``\\uXXXX`` for accents), but
    with the characters that ``str.splitlines()`` and some editors take for line breaks
    escaped, so every reader sees one result per line."""
    return json.dumps(result, ensure_ascii=False).translate(_LINE_BREAKERS) + "\n"


def clean_text(text: str) -> str:
    """``text`` with lone surrogates (from a ``"\\ud800"`` escape or undecodable bytes)
    replaced by U+FFFD, so every later step gets valid Unicode."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


# ------------------------------------------------------------------ the line schema


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)


class BatchWord(_Lenient):
    text: str
    start: float = Field(ge=0)
    end: float = Field(ge=0)
    probability: float = Field(1.0, ge=0, le=1)


class BatchTranscript(_Lenient):
    text: str
    words: list[BatchWord] = Field(default_factory=list)
    duration: float | None = Field(None, ge=0)
    model: str = ""
    device: str = ""
    language: str = "en"


class BatchLine(_Lenient):
    """One input line: an answer and the rubric to score it against."""

    answer: str | BatchTranscript
    question_id: str | None = None
    rubric: str | None = None
    question: str | None = None
    """With ``rubric``: the question's text (a rubric file does not hold it)."""

    @model_validator(mode="after")
    def _one_rubric(self) -> BatchLine:
        if not self.question_id and not self.rubric:
            raise ValueError("give 'question_id' or 'rubric' (a rubric file path)")
        return self

    def transcript(self) -> Transcript:
        if isinstance(self.answer, str):
            return Transcript.typed(clean_text(self.answer))
        a = self.answer
        return Transcript(
            text=clean_text(a.text),
            words=tuple(Word(clean_text(w.text), w.start, w.end, w.probability) for w in a.words),
            duration=a.duration,
            model=clean_text(a.model),
            device=clean_text(a.device),
            language=clean_text(a.language),
        )


def _where(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if part in ("str", "BatchTranscript"):  # pydantic's union branch names
            continue
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _explain(exc: ValidationError) -> str:
    errors = exc.errors()
    # For ``answer`` (text or transcript) report the branch the line was aiming at.
    seen: set[str] = set()
    parts = []
    for e in errors:
        loc = tuple(e["loc"])
        if loc[:2] == ("answer", "str") and any(
            tuple(x["loc"])[:2] == ("answer", "BatchTranscript") for x in errors
        ):
            continue
        where = _where(loc) or "line"
        if e["type"] == "missing":
            text = f"'{where}' is missing"
        elif e["type"] == "value_error":
            text = str(e["msg"]).removeprefix("Value error, ")
        else:
            given = e.get("input")
            shown = json.dumps(given, ensure_ascii=False)[:40] if _jsonable(given) else "?"
            text = f"'{where}': {e['msg'].lower()} (got {shown})"
        if text not in seen:
            seen.add(text)
            parts.append(text)
    more = f" (and {len(parts) - 3} more)" if len(parts) > 3 else ""
    return "; ".join(parts[:3]) + more


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def parse_line(raw: bytes) -> BatchLine:
    """One input line (without its ``\\n``) as a :class:`BatchLine`; :class:`UsageError`
    with a one-line reason for anything else. Never raises anything else."""
    if len(raw) > MAX_LINE_BYTES:
        raise UsageError(f"line too long ({len(raw):,} bytes; at most {MAX_LINE_BYTES:,})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})"
        ) from None
    try:
        obj = json.loads(text, strict=False)  # tabs and form feeds inside strings are fine
    except json.JSONDecodeError as exc:
        raise UsageError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise UsageError("not usable JSON (nested too deeply)") from None
    except ValueError as exc:  # an integer with more than 4,300 digits
        if "digits" in str(exc):
            raise UsageError("not usable JSON (a number with more than 4,300 digits)") from None
        raise UsageError(f"not usable JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise UsageError(
            'each line must be a JSON object such as {"question_id": "...", "answer": "..."}'
        )
    try:
        return BatchLine.model_validate(obj)
    except ValidationError as exc:
        raise UsageError(_explain(exc)) from None
    except RecursionError:
        raise UsageError("not usable JSON (nested too deeply)") from None


# ---------------------------------------------------------------- reading the input


def input_lines(f: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of every non-blank line; split on ``\\n`` only."""
    for n, raw in enumerate(f, 1):
        if n == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        raw = raw.rstrip(b"\n").removesuffix(b"\r")
        if raw.strip():
            yield n, raw


def _check_encoding(path: Path, head: bytes) -> None:
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UsageError(
            f"cannot read {path}: it is UTF-16 text, not UTF-8",
            "save it as UTF-8 (e.g. 'iconv -f utf-16 -t utf-8 IN > OUT.jsonl')",
        )
    if b"\0" in head:
        raise UsageError(
            f"cannot read {path}: it holds NUL bytes, so it is not UTF-8 JSONL text",
            "give a text file with one JSON object per line",
        )


def checked_stream(stream: IO[bytes] | None, name: Path) -> Iterator[bytes]:
    """The lines of a byte stream (stdin), its start checked as :func:`_check_encoding`."""
    if stream is None:
        raise UsageError("standard input cannot be read as bytes", "give the batch as a file")
    first = stream.readline()
    _check_encoding(name, first[:4096])
    yield first
    yield from stream


def _count_lines(path: Path) -> int:
    with path.open("rb") as f:
        return sum(1 for _ in input_lines(f))


# ------------------------------------------------------------------------- rubrics


class BatchRubrics:
    """Rubrics by question id (the bank, loaded once) or by file (cached per path)."""

    def __init__(self, bank_dirs: list[str], base: Path) -> None:
        self._bank_dirs = bank_dirs
        self._base = base
        self._bank: Any = None
        self._files: dict[Path, Rubric | SayitoutError] = {}

    def get(self, line: BatchLine) -> Rubric:
        if line.rubric:
            rubric = self.by_file(clean_text(line.rubric))
            if line.question:
                rubric = rubric.model_copy(update={"question": clean_text(line.question)})
            return rubric
        assert line.question_id is not None
        return self.by_id(clean_text(line.question_id))

    def by_id(self, qid: str) -> Rubric:
        if self._bank is None:
            from sayitout.bank.loader import load_bank

            self._bank = load_bank(self._bank_dirs or None)
        return self._bank.rubric(qid)

    def by_file(self, name: str) -> Rubric:
        from sayitout.bank.loader import load_rubric_file

        try:
            path = Path(name).expanduser()
            if not path.is_absolute() and not path.exists():
                path = self._base / path
            key = path.resolve()
        except (OSError, ValueError) as exc:  # NUL in the name, a name too long
            raise UsageError(f"unusable rubric path {name[:80]!r}: {exc}") from None
        if key not in self._files:
            try:
                self._files[key] = load_rubric_file(path)
            except SayitoutError as exc:
                self._files[key] = exc
        got = self._files[key]
        if isinstance(got, SayitoutError):
            raise got
        return got


# ------------------------------------------------------------------------ resuming


def answered_lines(out_path: Path) -> tuple[int, int]:
    """(last input line answered, failed lines) in an earlier output; a last line cut
    off by an interruption is removed from the file."""
    try:
        data = out_path.read_bytes()
    except FileNotFoundError:
        return 0, 0
    except OSError as exc:
        raise UsageError(f"cannot read {out_path} to resume: {exc.strerror or exc}") from None
    keep = data.rfind(b"\n") + 1
    if keep < len(data):  # the last result was cut off mid-write
        with out_path.open("r+b") as f:
            f.truncate(keep)
    last = failed = 0
    for k, raw in enumerate(data[:keep].split(b"\n")[:-1], 1):
        try:
            obj = json.loads(raw)
            n = obj["line"]
            if not isinstance(n, int) or n <= last:
                raise ValueError
        except (ValueError, TypeError, KeyError):
            raise UsageError(
                f"cannot resume: line {k} of {out_path} is not a result of 'score --batch'",
                "give the output file of the interrupted run, or drop --resume to start over",
            ) from None
        last = n
        failed += "error" in obj and "score" not in obj
    return last, failed


# -------------------------------------------------------------------------- the run


@dataclass
class Outcome:
    written: int = 0
    failed: int = 0
    skipped: int = 0
    """Lines already answered in the output (``--resume``)."""
    interrupted: bool = False


ScoreMany = Callable[[list[tuple[Rubric, Transcript]]], list[Any]]


def _score_chunk(
    score_many: ScoreMany, jobs: list[tuple[Rubric, Transcript]]
) -> list[dict[str, Any] | SayitoutError]:
    """One result per job: a score dict, or the reason that job could not be scored.

    The chunk is scored together; if that fails, each job alone, so one answer that
    breaks the scorer costs only its own line.
    """
    try:
        return [dict(r.to_dict()) for r in score_many(jobs)]
    except (ModelError, KeyboardInterrupt, MemoryError):
        raise
    except Exception:  # isolate the line below
        if len(jobs) == 1:
            raise
    out: list[dict[str, Any] | SayitoutError] = []
    for job in jobs:
        try:
            out.append(dict(score_many([job])[0].to_dict()))
        except (ModelError, KeyboardInterrupt, MemoryError):
            raise
        except Exception as exc:  # a per-line failure, never the batch
            out.append(SayitoutError(f"could not score this answer ({type(exc).__name__}: {exc})"))
    return out


def score_lines(
    lines: Iterator[tuple[int, bytes]],
    rubrics: BatchRubrics,
    score_many: Callable[[], ScoreMany],
    write: Callable[[dict[str, Any]], None],
    *,
    start_after: int = 0,
    progress: Progress | None = None,
    chunk: int = CHUNK,
) -> Outcome:
    """Parse, score and ``write`` every line after ``start_after``, in input order."""
    outcome = Outcome()
    Job = tuple[Rubric, Transcript]
    pending: list[tuple[int, Job | str]] = []  # a job to score, or why the line cannot be
    scorer: ScoreMany | None = None

    def flush() -> None:
        nonlocal scorer
        jobs = [job for _, job in pending if not isinstance(job, str)]
        scored: list[dict[str, Any] | SayitoutError] = []
        if jobs:
            if scorer is None:
                scorer = score_many()
            try:
                scored = _score_chunk(scorer, jobs)
            except (ModelError, KeyboardInterrupt, MemoryError):
                raise
            except Exception as exc:  # a single job that broke the scorer
                why = f"{type(exc).__name__}: {exc}"
                scored = [SayitoutError(f"could not score this answer ({why})")]
        results = iter(scored)
        for n, job in pending:
            res = job if isinstance(job, str) else next(results)
            if isinstance(res, dict):
                write({"line": n, **res})
            else:
                write({"line": n, "error": res if isinstance(res, str) else res.message})
                outcome.failed += 1
            outcome.written += 1
        pending.clear()
        if progress:
            progress.update(outcome.skipped + outcome.written)

    try:
        for n, raw in lines:
            if n <= start_after:
                outcome.skipped += 1
                continue
            try:
                line = parse_line(raw)
                pending.append((n, (rubrics.get(line), line.transcript())))
            except SayitoutError as exc:
                pending.append((n, exc.message))
            except (KeyboardInterrupt, MemoryError):
                raise
            except Exception as exc:  # one line never stops the batch
                pending.append((n, f"could not read this line ({type(exc).__name__}: {exc})"))
            if sum(not isinstance(job, str) for _, job in pending) >= chunk:
                flush()
        flush()
    except KeyboardInterrupt:
        outcome.interrupted = True
    return outcome
