"""``sayitout score``: grade one answer, or a batch of answers, against a rubric.

Batch mode (``--batch IN.jsonl``) reads one JSON object per line, each with
``answer`` (text, or a transcript object with ``text`` and ``words``) and either
``question_id`` or ``rubric`` (a rubric file path, relative to the current directory
or to the batch file). It writes one JSON result per non-blank input line, in the
same order, each with ``"line": N`` (its input line; lines are split on ``\\n`` only);
a line that cannot be scored gets ``{"line": N, "error": "..."}`` and the rest are
still scored. Results are written as they are ready; ``--resume`` goes on after the
last line answered in ``-o OUT``. See :mod:`sayitout.cli.score_batch`. Exit status:
0 when every line was scored, 1 when some were not, 2 for a usage error (bad options,
missing file), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from sayitout.bank.models import Rubric
from sayitout.cli.progress import Progress, loading
from sayitout.errors import SayitoutError, StorageError, UsageError
from sayitout.scoring.result import AnswerScore
from sayitout.speech.transcript import Transcript

if TYPE_CHECKING:
    from sayitout.bank.loader import Bank
    from sayitout.config import Settings
    from sayitout.scoring import Scorer


def register(sub: Any) -> None:
    p = sub.add_parser(
        "score",
        help="score an answer against a question's rubric",
        description="Score a typed or recorded answer against a question's rubric, or score "
        "a JSONL batch of answers. Prints a report, or JSON with --json.",
        epilog="examples:\n"
        '  sayitout score dl-noisy-loss --text "I\'d lower the learning rate"\n'
        "  sayitout score dl-noisy-loss --audio answer.wav --json\n"
        '  sayitout score --rubric my-rubric.yaml --question "Why ...?" --text "..."\n'
        "  sayitout score --batch answers.jsonl -o scores.jsonl\n"
        "  sayitout score --batch answers.jsonl -o scores.jsonl --resume   # after Ctrl-C\n"
        "batch: one result per non-blank input line, in order, each with its input 'line';\n"
        'a line that cannot be scored gets {"line": N, "error": ...} and the rest go on\n'
        "batch exit status: 0 all lines scored, 1 some lines failed, 2 usage error, "
        "130 interrupted",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("question_id", nargs="?", metavar="QUESTION_ID", help="question id")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--text", help="the answer as text ('-' reads it from stdin)")
    src.add_argument("--audio", metavar="FILE", help="a recorded answer to transcribe")
    src.add_argument(
        "--batch", metavar="IN.jsonl", help="score every line of a JSONL file ('-': stdin)"
    )
    p.add_argument("--rubric", metavar="FILE", help="score against this rubric file")
    p.add_argument(
        "--question",
        metavar="TEXT",
        help="with --rubric: the question's text (a rubric file does not hold it; the "
        "scorer uses it to tell the question read back from an answer)",
    )
    p.add_argument("-o", "--output", metavar="OUT.jsonl", help="batch output (default stdout)")
    p.add_argument(
        "--resume",
        action="store_true",
        help="with --batch -o OUT: skip the input lines already answered in OUT",
    )
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


def _settings() -> Settings:
    """The user's settings; defaults when the config file is broken (``doctor`` and the
    app say what is wrong with it: a one-shot score still works)."""
    from sayitout.config import Settings, load_settings

    try:
        return load_settings()
    except SayitoutError:
        return Settings()


def _scorer(args: argparse.Namespace, bank: Bank | None = None) -> Scorer:
    """The scorer for a command; the bank (``bank``, else ``--bank``'s, read when first
    needed) tells an answer to another question of the deck."""
    from functools import cache

    from sayitout.app_factory import build_scorer, load_bank

    scoring = _settings().scoring
    if args.device:
        scoring = scoring.model_copy(update={"device": args.device})
    dirs = getattr(args, "bank", None) or ()
    scorer = build_scorer(
        scoring, (lambda: bank) if bank is not None else cache(lambda: load_bank(dirs))
    )
    with loading("loading the scoring model"):
        scorer.embedder.load()
    return scorer


def run_score(args: argparse.Namespace) -> int:
    if args.batch:
        if args.question_id or args.rubric or args.question or args.save or args.json:
            raise UsageError(
                "--batch takes no QUESTION_ID, --rubric, --question, --save or --json",
                "put question_id, or rubric and question, on each line of the batch file",
            )
        return run_batch(args)
    if args.output or args.resume:
        raise UsageError("-o/--output and --resume are only for --batch", "redirect stdout instead")
    if args.text is None and args.audio is None:
        raise UsageError(
            'give the answer with --text "..." or --audio FILE', "or use --batch IN.jsonl"
        )
    if not args.question_id and not args.rubric:
        raise UsageError(
            "give a QUESTION_ID or --rubric FILE", "'sayitout questions' lists the question ids"
        )
    if args.question is not None and not args.rubric:
        raise UsageError(
            "--question goes with --rubric FILE",
            "a QUESTION_ID's question comes from its deck; drop --question",
        )
    rubric, deck = _resolve_rubric(args)
    if args.audio:
        transcript = _transcribe(Path(args.audio), rubric)
    else:
        transcript = Transcript.typed(_answer_text(args.text))
    result = _score_one(args, rubric, transcript)
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


def _same_file(a: Path, b: Path) -> bool:
    try:
        return b.exists() and a.samefile(b)
    except OSError:
        return False


def _answer_text(given: str) -> str:
    """The ``--text`` answer (``-``: stdin) as valid Unicode, or a clear UsageError."""
    if given == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # a text stream (tests): already decoded
            return _no_surrogates(sys.stdin.read(), "the answer read from stdin")
        raw = buffer.read()
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise UsageError(
                f"the answer read from stdin is not UTF-8 text (byte 0x{raw[exc.start]:02x} "
                f"at offset {exc.start})",
                "convert it first, e.g. 'iconv -f latin1 -t utf-8 answer.txt | sayitout score "
                "QID --text -'",
            ) from None
    return _no_surrogates(given, "--text")


def _no_surrogates(text: str, what: str) -> str:
    """Undecodable command-line bytes arrive as lone surrogates (PEP 383): refuse them."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = text[exc.start]
        byte = (
            f"byte 0x{ord(bad) - 0xDC00:02x}"
            if 0xDC80 <= ord(bad) <= 0xDCFF
            else "a lone surrogate"
        )
        raise UsageError(
            f"{what} is not valid UTF-8 text ({byte} at character {exc.start + 1})",
            'set a UTF-8 locale or pass the answer as UTF-8, e.g. --text "$(iconv -f latin1 '
            '-t utf-8 answer.txt)"',
        ) from None
    return text


def _score_one(args: argparse.Namespace, rubric: Rubric, transcript: Transcript) -> AnswerScore:
    """Score, turning a scorer fault on an odd answer into a message, not a traceback."""
    try:
        return _scorer(args).score(rubric, transcript)
    except SayitoutError:
        raise
    except Exception as exc:  # a fault of the scorer on this answer: say so plainly
        raise SayitoutError(
            f"could not score this answer ({type(exc).__name__}: {exc})",
            "this is a bug in sayitout: please report it with the answer text; "
            "other answers are not affected",
        ) from exc


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
    if qid:
        print("  (or with 'sayitout recover', which saves every kept answer)", file=sys.stderr)
    return exc.exit_code


def _resolve_rubric(args: argparse.Namespace) -> tuple[Rubric, str]:
    if args.rubric:
        rubric = _load_rubric_file(Path(args.rubric))
        if args.question_id and args.question_id != rubric.question_id:
            raise UsageError(
                f"{args.rubric} is the rubric of {rubric.question_id!r}, not {args.question_id!r}",
                "drop QUESTION_ID or give the matching rubric",
            )
        if args.question:
            question = _no_surrogates(args.question, "the --question text").strip()
            rubric = rubric.model_copy(update={"question": question})
        return rubric, "adhoc"
    from sayitout.app_factory import load_bank

    bank = load_bank(args.bank)
    return bank.rubric(args.question_id), bank.deck_of(args.question_id)


def _load_rubric_file(path: Path) -> Rubric:
    from sayitout.bank.loader import load_rubric_file

    return load_rubric_file(path)


def _transcribe(path: Path, rubric: Rubric) -> Transcript:
    if not path.is_file():
        raise UsageError(f"audio file not found: {path}", "check the path")
    try:
        from sayitout.speech.asr.transcriber import transcribe_long
    except ImportError as exc:
        raise SayitoutError(
            f"speech recognition is not available ({exc})",
            "run 'make run' to install faster-whisper, or score typed text with --text",
        ) from exc
    from sayitout.app_factory import build_transcriber
    from sayitout.errors import AudioError

    transcriber = build_transcriber(_settings().asr)
    try:
        with loading(f"transcribing {path.name}"):
            return transcribe_long(transcriber, path, terms=rubric.all_terms())
    except AudioError as exc:  # a bad file given on the command line is bad input (exit 2)
        raise UsageError(exc.message, exc.hint) from exc


def _save(deck: str, transcript: Transcript, result: AnswerScore, audio: str | None) -> int:
    from sayitout.app_factory import open_store

    store = open_store()
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
    from sayitout.cli import score_batch as sb

    from_stdin = args.batch == "-"
    in_path = Path("<stdin>") if from_stdin else Path(args.batch)
    if not from_stdin and not in_path.is_file():
        raise UsageError(f"batch file not found: {in_path}", "check the path")
    out_path = Path(args.output) if args.output else None
    if args.resume and out_path is None:
        raise UsageError("--resume needs -o OUT.jsonl", "give the output file of the earlier run")
    if out_path is not None and not from_stdin and _same_file(in_path, out_path):
        raise UsageError(
            f"-o {out_path} is the batch file itself: writing would destroy the answers",
            "write the results to another file",
        )
    total: int | None = None
    if not from_stdin:
        try:
            with in_path.open("rb") as f:
                sb._check_encoding(in_path, f.read(4096))
            total = sb._count_lines(in_path)
        except OSError as exc:
            raise UsageError(f"cannot read {in_path}: {exc.strerror or exc}") from None
    start_after, failed_before = sb.answered_lines(out_path) if args.resume and out_path else (0, 0)
    out: IO[str]
    if out_path is not None:
        try:
            out = out_path.open("a" if args.resume else "w", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {out_path}: {exc.strerror or exc}") from None
    else:
        out = sys.stdout

    def write(result: dict[str, Any]) -> None:
        out.write(sb.result_line(result))
        out.flush()

    def score_many():
        return _scorer(args).score_many

    progress = Progress("scoring", total, unit="lines")
    try:
        with contextlib.ExitStack() as stack:
            if from_stdin:
                source = sb.checked_stream(getattr(sys.stdin, "buffer", None), in_path)
                base = Path.cwd()
            else:
                source = stack.enter_context(in_path.open("rb"))
                base = in_path.parent
            outcome = sb.score_lines(
                sb.input_lines(source),
                sb.BatchRubrics(args.bank, base),
                score_many,
                write,
                start_after=start_after,
                progress=progress,
            )
    except OSError as exc:
        raise UsageError(f"cannot read {in_path} or write the results: {exc}") from None
    finally:
        progress.close(keep=True)  # the last figures stay: lines scored and the rate
        if out is not sys.stdout:
            out.close()
    done = outcome.skipped + outcome.written
    total = total if total is not None else done
    if outcome.interrupted:
        where = f" in {out_path}" if out_path else ""
        print(
            f"sayitout: interrupted after {done} of {total} lines; the results so far are "
            f"kept{where}",
            file=sys.stderr,
        )
        if out_path:
            print(
                f"  to go on: sayitout score --batch {in_path} -o {out_path} --resume",
                file=sys.stderr,
            )
        return 130
    if outcome.skipped:
        print(
            f"sayitout: resumed after line {start_after}: {outcome.skipped} lines were already "
            f"answered, {outcome.written} scored now",
            file=sys.stderr,
        )
    failed = outcome.failed + failed_before
    if failed:
        print(
            f"sayitout: {failed} of {done} lines could not be scored "
            "(see the error objects in the output)",
            file=sys.stderr,
        )
    return 1 if failed else 0


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
        if k.reason:
            cost = f" (-{k.penalty:g})" if k.penalty else ""
            lines.append(f"        not counted{cost}: {k.reason}")
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
