"""``sayitout history`` and ``sayitout report``: the stored attempts, for people and scripts."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from sayitout.errors import SayitoutError, UsageError
from sayitout.store import SINCE_FORMAT, AttemptFilter, AttemptRecord, Store, parse_since
from sayitout.store.records import PASSED


def register(subparsers: argparse._SubParsersAction) -> None:
    h = subparsers.add_parser(
        "history",
        help="list your stored attempts (newest first)",
        description="List stored attempts, newest first: a table, or JSON with --json.",
    )
    _add_filters(h)
    h.add_argument("--question", metavar="ID", help="only attempts at this question")
    h.add_argument("--min-score", type=_score, metavar="N", help="only scores >= N (0-100)")
    h.add_argument("--max-score", type=_score, metavar="N", help="only scores <= N (0-100)")
    h.add_argument(
        "--limit",
        type=_positive,
        default=None,
        metavar="N",
        help="at most N attempts (default: 50 in the table, all with --json)",
    )
    h.add_argument(
        "--attempt",
        type=_positive,
        metavar="ID",
        help="show one attempt in full: transcript, key points, delivery, scores",
    )
    h.add_argument("--json", action="store_true", help="print JSON for scripts")
    h.set_defaults(handler=history_command)

    r = subparsers.add_parser(
        "report",
        help="export a progress report (HTML, Markdown, CSV or JSON)",
        description="Write a progress report. HTML is one self-contained file with charts "
        "that opens offline in any browser.",
    )
    _add_filters(r)
    r.add_argument(
        "--format",
        choices=("html", "md", "csv", "json"),
        default="html",
        help="report format (default: html)",
    )
    r.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where to write it (default: ./sayitout-report-YYYY-MM-DD.<ext>; "
        "'-' for standard output)",
    )
    r.set_defaults(handler=report_command)


def _add_filters(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--since", type=_since, metavar="DATE", help=f"only from DATE on ({SINCE_FORMAT})"
    )
    p.add_argument("--deck", metavar="D", help="only this deck")
    p.add_argument("--topic", metavar="T", help="only questions with this topic")


# ----------------------------------------------------------------- argument types
def _since(text: str) -> datetime:
    try:
        return parse_since(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(f"{exc.message}: use {SINCE_FORMAT}") from None


def _score(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 0 to 100") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{value} is outside 0-100")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be 1 or more")
    if value > _LARGEST:
        raise argparse.ArgumentTypeError(f"{text} is too large (at most {_LARGEST:,})")
    return value


_LARGEST = 2**63 - 1
"""The largest id or count SQLite can hold."""


# ----------------------------------------------------------------------- helpers
def _load_bank() -> Any:
    """The question bank, or ``None`` if it cannot be loaded (history still works without it)."""
    try:
        from sayitout.bank.loader import load_bank

        return load_bank()
    except (SayitoutError, ImportError):
        return None


def _topic_ids(bank: Any, topic: str | None) -> tuple[str, ...] | None:
    if not topic:
        return None
    if bank is None:
        raise UsageError(
            f"Cannot filter by topic {topic!r}: the question bank did not load",
            "run 'sayitout check' to see what is wrong with the bank",
        )
    ids = tuple(q.id for q in bank.questions(topics=[topic], ready_only=False))
    if not ids:
        known = ", ".join(bank.topics()) or "none"
        raise UsageError(f"No question has the topic {topic!r}", f"topics: {known}")
    return ids


def _filters(args: argparse.Namespace, bank: Any) -> AttemptFilter:
    return AttemptFilter(
        deck=args.deck,
        question_id=getattr(args, "question", None),
        question_ids=_topic_ids(bank, args.topic),
        min_score=getattr(args, "min_score", None),
        max_score=getattr(args, "max_score", None),
        since=args.since,
    )


# ----------------------------------------------------------------------- history
def history_command(args: argparse.Namespace) -> int:
    from sayitout.report.rows import attempt_rows, bank_info

    bank = _load_bank() if (args.topic or args.json or args.attempt) else None
    with Store.open() as store:
        if args.attempt:
            record = store.attempt(args.attempt)
            if args.json:
                _print_json(_record_json(record, bank))
            else:
                print(_record_text(record, bank))
            return 0
        filters = _filters(args, bank)
        limit = args.limit if args.limit or args.json else 50
        rows = attempt_rows(
            store,
            filters,
            bank_info(bank),
            limit=limit,
            oldest_first=False,
            with_answers=bool(args.json),
        )
        if args.json:
            _print_json(rows)
            return 0
        total = store.count_attempts(filters)
    if not rows:
        print(
            "No attempts yet"
            + (" match those filters." if total == 0 and _any(args) else ".")
            + " Practise with 'sayitout practice', or score a typed answer with "
            "'sayitout score --save'."
        )
        return 0
    print(_table(rows))
    if total > len(rows):
        print(f"\n{len(rows)} of {total} attempts shown; use --limit N or --since DATE for more.")
    return 0


def _any(args: argparse.Namespace) -> bool:
    return any(
        getattr(args, k, None)
        for k in ("since", "deck", "topic", "question", "min_score", "max_score")
    )


def _print_json(value: Any) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _local(iso: str) -> str:
    return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")


def _follow_up_text(record: AttemptRecord) -> list[str]:
    out = []
    for f in record.answer_score.follow_ups:
        credit = f" (+{f.credit:g} prompted)" if f.credit else ""
        if f.volunteered:  # made in the reply above without being asked
            out.append(f'  also made: "{f.evidence or f.answer}"{credit}')
            continue
        out += [f"Follow-up: {f.question}", f"  {f.answer or '(passed)'} -> {f.status}{credit}"]
    return out


def _table(rows: list[dict[str, Any]]) -> str:
    width = shutil.get_terminal_size((100, 24)).columns
    qwidth = max(16, min(40, width - 62))
    head = (
        f"{'ID':>6}  {'When':16}  {'Question':{qwidth}}  {'Score':>5}  {'Cover':>5}  "
        f"{'WPM':>4}  {'Fill/m':>6}  Audio"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        q = r["question_id"]
        q = q if len(q) <= qwidth else q[: qwidth - 1] + "…"
        cover = "" if r["coverage"] is None else f"{round(100 * r['coverage'])}%"
        wpm = "" if r["words_per_minute"] is None else f"{r['words_per_minute']:.0f}"
        fill = "" if r["fillers_per_minute"] is None else f"{r['fillers_per_minute']:.1f}"
        audio = "yes" if r["recording_exists"] else ("gone" if r["recording_path"] else "-")
        score = "pass" if r["ended_by"] == PASSED else r["score"]
        lines.append(
            f"{r['attempt_id']:>6}  {_local(r['created_at']):16}  {q:{qwidth}}  "
            f"{score:>5}  {cover:>5}  {wpm:>4}  {fill:>6}  {audio}"
        )
    return "\n".join(lines)


def _record_json(record: AttemptRecord, bank: Any) -> dict[str, Any]:
    from sayitout.report.rows import bank_info, row_of

    s = record.summary
    statuses = [(k.id, k.status) for k in record.answer_score.key_points]
    return {
        **row_of(s, statuses, record.text, bank_info(bank)),
        "transcript": record.transcript.to_dict(),
        "transcript_corrected": record.transcript_corrected,
        "score_detail": record.answer_score.to_dict(),
        "score_history": [
            {
                "created_at": h.created_at.isoformat(timespec="seconds"),
                "reason": h.reason,
                "score": h.score,
                "rubric_version": h.rubric_version,
                "embedding_model": h.embedding_model,
                "scorer_version": h.scorer_version or None,
            }
            for h in record.score_history
        ],
    }


def _record_text(record: AttemptRecord, bank: Any) -> str:
    from sayitout.report.rows import bank_info

    s, sc = record.summary, record.answer_score
    question, _ = bank_info(bank)(s.question_id)
    out = [
        f"Attempt {s.id}: {s.question_id} ({s.deck}), {s.created_at.astimezone():%Y-%m-%d %H:%M}",
    ]
    if question:
        out.append(f"Q: {question}")
    out += [
        "Passed: you said you don't know (counts as a fail for review)"
        if s.ended_by == PASSED
        else f"Score {s.score}/100: {sc.verdict}",
        "",
        "Answer" + (" (corrected)" if record.transcript_corrected is not None else "") + ":",
        f"  {record.text}",
        "",
    ]
    prompted = sc.prompted_points
    for kp in sc.key_points:
        mark = {"covered": "✓", "partial": "~", "missed": "✗"}.get(kp.status, "?")
        if kp.id in prompted:  # the answer lacked it; a follow-up reply made it
            mark = "↪ prompted:"
        line = f"  {mark} {kp.text}"
        if kp.evidence:
            line += f'  — "{kp.evidence}"'
        out.append(line)
    if sc.numeric:
        out.append(f"  {'✓' if sc.numeric.correct else '✗'} number: {sc.numeric.reason}")
    for m in sc.misconceptions:
        out.append(f"  ! {m.text} — {m.correction}")
    out += _follow_up_text(record)
    if sc.delivery:
        d = sc.delivery
        out.append(
            f"\nDelivery: {d.words_per_minute:.0f} words/min, {d.filler_count} fillers "
            f"({d.fillers_per_minute:.1f}/min), {d.duration_s:.0f} s, "
            f"{len(d.long_pauses)} long pauses"
        )
    if s.recording_path:
        note = "" if record.recording_exists else "  (the audio file is gone)"
        out.append(f"Recording: {s.recording_path}{note}")
    if len(record.score_history) > 1:
        out.append(
            "Scores: "
            + ", ".join(
                f"{h.score} ({h.reason}"
                + (f", scorer {h.scorer_version})" if h.scorer_version else ")")
                for h in record.score_history
            )
        )
    return "\n".join(out)


# ------------------------------------------------------------------------ report
def report_command(args: argparse.Namespace) -> int:
    from sayitout.cli.progress import Progress, stages
    from sayitout.report.export import write_report

    bank = _load_bank()
    filters = _filters(args, bank)
    to_stdout = args.output == "-"
    with Store.open() as store, Progress("writing the report") as bar:
        path, text = write_report(
            store,
            args.format,
            filters,
            bank=bank,
            output=None if (args.output is None or to_stdout) else Path(args.output),
            to_string=to_stdout,
            topic=args.topic,
            progress=stages(bar, "writing the report"),
        )
    if to_stdout:
        sys.stdout.write(text)
    else:
        print(f"Report written to {path}")
    return 0
