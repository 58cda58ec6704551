"""``sayitout score``: grade one answer, or a batch of answers, against a rubric.

Batch mode (``--batch IN.jsonl``) reads one JSON object per line, each with
``answer`` (text, or a transcript object with ``text`` and ``words``) and either
``question_id`` or ``rubric`` (a rubric file path, relative to the current directory
or to the batch file). It writes one JSON result per non-blank input line, in the
same order; a line that cannot be scored gets ``{"line": N, "error": "..."}`` and the
rest are still scored. Blank lines are skipped. Exit status: 0 when every line was
scored, 1 when some were not, 2 for a usage error (bad options, missing file).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, Any

from sayitout.bank.models import Rubric
from sayitout.errors import SayitoutError, StorageError, UsageError
from sayitout.scoring.result import AnswerScore
from sayitout.speech.transcript import Transcript

_CHUNK = 64


def register(sub: Any) -> None:
    p = sub.add_parser(
        "score",
        help="score an answer against a question's rubric",
        description="Score a typed or recorded answer against a question's rubric, or score "
        "a JSONL batch of answers. Prints a report, or JSON with --json.",
        epilog="examples:\n"
        '  sayitout score dl-noisy-loss --text "I\'d lower the learning rate"\n'
        "  sayitout score dl-noisy-loss --audio answer.wav --json\n"
        '  sayitout score --rubric my-rubric.yaml --text "..."\n'
        "  sayitout score --batch answers.jsonl -o scores.jsonl\n"
        "batch exit status: 0 all lines scored, 1 some lines failed, 2 usage error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("question_id", nargs="?", metavar="QUESTION_ID", help="question id")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--text", help="the answer as text ('-' reads it from stdin)")
    src.add_argument("--audio", metavar="FILE", help="a recorded answer to transcribe")
    src.add_argument("--batch", metavar="IN.jsonl", help="score every line of a JSONL file")
    p.add_argument("--rubric", metavar="FILE", help="score against this rubric file")
    p.add_argument("-o", "--output", metavar="OUT.jsonl", help="batch output (default stdout)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--save", action="store_true", help="store the attempt in your history")
    p.add_argument(
        "--bank",
        action="append",
        default=[],
        metavar="DIR",
        help="also load decks from DIR (repeatable)",
    )
    p.add_argument(
        "--device",
        choices=("auto", "cpu", "cuda"),
        help="device for the embedding model (default: config, else auto)",
    )
    p.set_defaults(handler=run_score)


def _device(args: argparse.Namespace) -> str:
    if args.device:
        return args.device
    try:
        from sayitout.config import load_settings

        return load_settings().scoring.device
    except SayitoutError:
        return "auto"


def _scorer(args: argparse.Namespace):
    from sayitout.scoring import Scorer

    return Scorer(_device(args))


def run_score(args: argparse.Namespace) -> int:
    if args.batch:
        if args.question_id or args.rubric or args.save or args.json:
            raise UsageError(
                "--batch takes no QUESTION_ID, --rubric, --save or --json",
                "put question_id or rubric on each line of the batch file",
            )
        return run_batch(args)
    if args.output:
        raise UsageError("-o/--output is only for --batch", "redirect stdout instead")
    if args.text is None and args.audio is None:
        raise UsageError(
            'give the answer with --text "..." or --audio FILE', "or use --batch IN.jsonl"
        )
    if not args.question_id and not args.rubric:
        raise UsageError(
            "give a QUESTION_ID or --rubric FILE", "'sayitout questions' lists the question ids"
        )
    rubric, deck = _resolve_rubric(args)
    if args.audio:
        transcript = _transcribe(Path(args.audio), rubric)
    else:
        text = sys.stdin.read() if args.text == "-" else args.text
        transcript = Transcript.typed(text)
    result = _scorer(args).score(rubric, transcript)
    # The score is printed before saving: a locked or broken database loses nothing.
    if args.json:
        d = result.to_dict()
        if args.audio:
            d["transcript"] = transcript.to_dict()
        json.dump(d, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_report(result, transcript if args.audio else None))
    if args.save:
        sys.stdout.flush()
        try:
            attempt = _save(deck, transcript, result, args.audio)
        except StorageError as exc:
            return _not_saved(args, transcript, exc)
        print(f"saved as attempt {attempt}", file=sys.stderr)
    return 0


def _not_saved(args: argparse.Namespace, transcript: Transcript, exc: StorageError) -> int:
    """Say the score printed above was not saved, why, and how to save it later."""
    from sayitout.store.unsaved import keep_unsaved_answer, retry_command

    print(f"sayitout: the score above was not saved. {exc.message}", file=sys.stderr)
    if exc.hint:
        print(f"  fix: {exc.hint}", file=sys.stderr)
    qid = args.question_id
    if args.audio:
        target = qid if qid else f"--rubric {args.rubric}"
        print(
            f"  your recording {args.audio} is unchanged; then save it with: "
            f"sayitout score {target} --audio {args.audio} --save",
            file=sys.stderr,
        )
        return exc.exit_code
    try:
        kept = keep_unsaved_answer(qid or "answer", transcript.text)
    except OSError as err:
        print(f"  (your answer could not be kept in a file either: {err})", file=sys.stderr)
        return exc.exit_code
    print(f"  your answer is kept in {kept}", file=sys.stderr)
    print(f"  then save it with: {retry_command(qid, args.rubric, kept)}", file=sys.stderr)
    return exc.exit_code


def _resolve_rubric(args: argparse.Namespace) -> tuple[Rubric, str]:
    if args.rubric:
        rubric = _load_rubric_file(Path(args.rubric))
        if args.question_id and args.question_id != rubric.question_id:
            raise UsageError(
                f"{args.rubric} is the rubric of {rubric.question_id!r}, not {args.question_id!r}",
                "drop QUESTION_ID or give the matching rubric",
            )
        return rubric, "adhoc"
    from sayitout.bank.loader import load_bank

    bank = load_bank(args.bank or None)
    return bank.rubric(args.question_id), bank.deck_of(args.question_id)


def _load_rubric_file(path: Path) -> Rubric:
    from sayitout.bank.loader import load_rubric_file

    return load_rubric_file(path)


def _transcribe(path: Path, rubric: Rubric) -> Transcript:
    if not path.is_file():
        raise UsageError(f"audio file not found: {path}", "check the path")
    try:
        from sayitout.speech.asr import transcribe_file
    except ImportError as exc:
        raise SayitoutError(
            f"speech recognition is not available ({exc})",
            "run 'make run' to install faster-whisper, or score typed text with --text",
        ) from exc
    from sayitout.errors import AudioError

    try:
        return transcribe_file(path, terms=rubric.all_terms())
    except AudioError as exc:  # a bad file given on the command line is bad input (exit 2)
        raise UsageError(exc.message, exc.hint) from exc


def _save(deck: str, transcript: Transcript, result: AnswerScore, audio: str | None) -> int:
    try:
        from sayitout.store import Store
    except ImportError as exc:
        raise SayitoutError(f"the history store is not available ({exc})") from exc
    store = Store.open()
    try:
        return store.save_attempt(
            None,
            result.question_id,
            deck,
            transcript,
            result,
            recording_path=Path(audio).resolve() if audio else None,
            embedding_model=result.embedding_model,
            rubric_version=result.rubric_version,
        )
    finally:
        store.close()


# ---- batch ----------------------------------------------------------------------------


def run_batch(args: argparse.Namespace) -> int:
    in_path = Path(args.batch)
    if not in_path.is_file():
        raise UsageError(f"batch file not found: {in_path}", "check the path")
    try:
        lines = in_path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {in_path}: {exc}") from None
    resolver = _BatchRubrics(args.bank, in_path.parent)
    records: list[tuple[int, Any]] = []  # (line number, rubric+transcript or error dict)
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append((n, _parse_line(line, resolver)))
        except SayitoutError as exc:
            records.append((n, {"line": n, "error": exc.message}))
    jobs = [(i, rec) for i, (_, rec) in enumerate(records) if not isinstance(rec, dict)]
    results: list[Any] = [rec for _, rec in records]
    progress = _Progress(len(jobs)) if sys.stderr.isatty() and jobs else None
    if jobs:
        scorer = _scorer(args)
        for k in range(0, len(jobs), _CHUNK):
            chunk = jobs[k : k + _CHUNK]
            scored = scorer.score_many([rec for _, rec in chunk])
            for (i, _), res in zip(chunk, scored, strict=True):
                results[i] = res.to_dict()
            if progress:
                progress.update(k + len(chunk))
    if progress:
        progress.done()
    out: IO[str]
    if args.output:
        try:
            out = open(args.output, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        out = sys.stdout
    try:
        for res in results:
            out.write(json.dumps(res, ensure_ascii=False) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    failed = sum(1 for r in results if "error" in r and "score" not in r)
    if failed:
        print(
            f"sayitout: {failed} of {len(results)} lines could not be scored "
            "(see the error objects in the output)",
            file=sys.stderr,
        )
    return 1 if failed else 0


class _BatchRubrics:
    def __init__(self, bank_dirs: list[str], base: Path) -> None:
        self._bank_dirs = bank_dirs
        self._base = base
        self._bank: Any = None
        self._files: dict[Path, Rubric] = {}

    def by_id(self, qid: str) -> Rubric:
        if self._bank is None:
            from sayitout.bank.loader import load_bank

            self._bank = load_bank(self._bank_dirs or None)
        return self._bank.rubric(qid)

    def by_file(self, name: str) -> Rubric:
        path = Path(name).expanduser()
        if not path.is_absolute() and not path.exists():
            path = self._base / path
        key = path.resolve()
        if key not in self._files:
            self._files[key] = _load_rubric_file(path)
        return self._files[key]


def _parse_line(line: str, rubrics: _BatchRubrics) -> tuple[Rubric, Transcript]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise UsageError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise UsageError("each line must be a JSON object")
    answer = obj.get("answer")
    if isinstance(answer, dict):
        try:
            transcript = Transcript.from_dict(answer)
        except (TypeError, ValueError) as exc:
            raise UsageError(f"'answer' is not a valid transcript: {exc}") from None
    elif isinstance(answer, str):
        transcript = Transcript.typed(answer)
    else:
        raise UsageError("missing 'answer' (a string)")
    if isinstance(obj.get("rubric"), str):
        rubric = rubrics.by_file(obj["rubric"])
    elif isinstance(obj.get("question_id"), str):
        rubric = rubrics.by_id(obj["question_id"])
    else:
        raise UsageError("missing 'question_id' or 'rubric'")
    return rubric, transcript


class _Progress:
    def __init__(self, total: int) -> None:
        self.total = total
        self.update(0)

    def update(self, done: int) -> None:
        width = 30
        filled = int(width * done / max(1, self.total))
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(f"\rscoring [{bar}] {done}/{self.total}")
        sys.stderr.flush()

    def done(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()


# ---- the human-readable report --------------------------------------------------------

_MARK = {"covered": "[x]", "partial": "[~]", "missed": "[ ]"}


def _quote(text: str | None, limit: int = 80) -> str:
    if not text:
        return ""
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1].rsplit(" ", 1)[0] + "…"
    return f'"{text}"'


def format_report(result: AnswerScore, transcript: Transcript | None = None) -> str:
    lines = [f"{result.question_id}: {result.score}/100", result.verdict, ""]
    if transcript is not None:
        lines += ["Heard:", f"  {_quote(transcript.text, 400) or '(nothing)'}", ""]
    lines.append("Key points:")
    for k in result.key_points:
        lines.append(f"  {_MARK[k.status]} {k.status:<7} {k.similarity:.2f}  {k.id}")
        if k.evidence:
            lines.append(f"        {_quote(k.evidence)}")
    if result.numeric:
        n = result.numeric
        heard = _quote(n.heard_text) or "(no number heard)"
        lines += ["", f"Number: {heard} -> {'right' if n.correct else 'wrong'}", f"  {n.reason}"]
    if result.misconceptions:
        lines += ["", "Misconceptions:"]
        for m in result.misconceptions:
            lines.append(f"  ! {m.id} (-{m.penalty:g}) {_quote(m.evidence)}")
            if m.correction:
                lines.append(f"    {m.correction}")
    d = result.delivery
    if d:
        fill = ", ".join(f"{k} x{v}" for k, v in d.fillers.items()) or "none"
        hedge = ", ".join(f"{k} x{v}" for k, v in d.hedges.items()) or "none"
        lines += [
            "",
            "Delivery:",
            f"  pace {d.words_per_minute:.0f} words/min over {d.duration_s:.1f} s",
            f"  fillers {d.filler_count} ({d.fillers_per_minute:.1f}/min): {fill}",
            f"  pauses over 1.5 s: {len(d.long_pauses)}",
            f"  hedges: {hedge}",
        ]
        if d.time_to_first_word_s is not None:
            lines.append(f"  first word after {d.time_to_first_word_s:.1f} s")
    if result.notes:
        lines += ["", "Notes:"] + [f"  - {n}" for n in result.notes]
    return "\n".join(lines) + "\n"
