"""``sayitout transcribe FILE`` and ``sayitout doctor``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sayitout.cli.practice_cmd import deprecated_q
from sayitout.errors import AudioError, SayitoutError, UsageError


def register(sub: Any) -> None:
    t = sub.add_parser(
        "transcribe",
        help="transcribe an audio file offline",
        description="Transcribe an audio file (WAV, FLAC, OGG, MP3, M4A...) with the local "
        "Whisper model. Prints the text, or with --json the words with their timestamps, "
        "the duration, the model and the device.",
    )
    t.add_argument("file", type=Path, metavar="FILE")
    t.add_argument(
        "--model",
        "-m",
        metavar="M",
        help="tiny.en or base (bundled), a CTranslate2 directory, or a hub name when online "
        "(default: asr.model in the config)",
    )
    t.add_argument("--beam", type=int, metavar="N", help="beam size 1-10 (default: asr.beam_size)")
    t.add_argument(
        "--device", choices=("auto", "cpu", "cuda"), help="default: asr.device in the config"
    )
    t.add_argument(
        "--terms",
        metavar="T1,T2",
        default="",
        help="comma-separated words to expect (e.g. AdamW,bf16)",
    )
    t.add_argument("--question", metavar="ID", help="use this question's rubric terms as hotwords")
    deprecated_q(t)
    t.add_argument("--json", action="store_true", help="print JSON")
    t.set_defaults(handler=run_transcribe)

    d = sub.add_parser(
        "doctor",
        help="check audio, voices and models",
        description="Check everything sayitout needs, one line per check (PASS, WARN or FAIL) "
        "with the fix. Exit 0 when typed practice works (voice problems are warnings), "
        "1 otherwise.",
    )
    d.add_argument("--json", action="store_true", help="print JSON")
    d.set_defaults(handler=run_doctor)


# -- transcribe ----------------------------------------------------------------------


def _terms(args: argparse.Namespace) -> list[str]:
    terms = [t.strip() for t in (args.terms or "").split(",") if t.strip()]
    if args.question:
        from sayitout.app_factory import load_bank

        terms += load_bank().rubric(args.question).all_terms()
    return terms


def run_transcribe(args: argparse.Namespace) -> int:
    from sayitout.app_factory import build_transcriber
    from sayitout.cli.progress import Progress, loading
    from sayitout.config import load_settings
    from sayitout.speech.asr.transcriber import transcribe_long
    from sayitout.speech.audio.decode import audio_seconds

    settings = load_settings().asr
    update: dict[str, Any] = {}
    if args.model:
        update["model"] = args.model
    if args.beam is not None:
        if not 1 <= args.beam <= 10:
            raise UsageError(f"--beam {args.beam} is out of range", "use a beam size from 1 to 10")
        update["beam_size"] = args.beam
    if args.device:
        update["device"] = args.device
    settings = settings.model_copy(update=update)
    terms = _terms(args)
    try:  # decoded piece by piece as it is transcribed: memory stays flat for long files
        seconds = audio_seconds(args.file)  # a bad path fails here, before the model loads
        transcriber = build_transcriber(settings)
        with loading(f"loading the speech model ({settings.model})"):
            transcriber.load()
        with Progress("transcribing", seconds, unit="s", rate_unit="× real time") as bar:
            transcript = transcribe_long(
                transcriber, args.file, terms=terms, on_progress=bar.update
            )
    except AudioError as exc:  # a bad file given on the command line is bad input
        raise UsageError(exc.message, exc.hint) from exc
    if args.json:
        out = {
            "file": str(args.file),
            "text": transcript.text,
            "no_speech": transcript.is_empty,
            "words": [
                {"text": w.text, "start": w.start, "end": w.end, "probability": w.probability}
                for w in transcript.words
            ],
            "duration": transcript.duration,
            "model": transcript.model,
            "device": transcript.device,
            "compute_type": transcript.meta.get("compute_type"),
            "beam_size": transcript.meta.get("beam_size"),
            "elapsed_s": transcript.meta.get("elapsed_s"),
            "terms": terms,
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
    elif transcript.is_empty:
        print(f"(no speech detected in {args.file})", file=sys.stderr)
    else:
        print(transcript.text)
    return 0


# -- doctor --------------------------------------------------------------------------

PASS, WARN, FAIL = "PASS", "WARN", "FAIL"


class _Report:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def add(self, status: str, name: str, detail: str, fix: str | None = None) -> None:
        self.rows.append({"status": status, "check": name, "detail": detail, "fix": fix})

    def error(self, name: str, exc: BaseException, *, critical: bool) -> None:
        status = FAIL if critical else WARN
        if isinstance(exc, SayitoutError):
            self.add(status, name, exc.message, exc.hint)
        else:
            self.add(status, name, f"{type(exc).__name__}: {exc}", "reinstall sayitout")


def _split_fix(detail: str) -> tuple[str, str | None]:
    if "; fix: " in detail:
        msg, fix = detail.split("; fix: ", 1)
        return msg, fix
    return detail, None


def _check_data_dir(rep: _Report) -> None:
    import os
    import tempfile

    from sayitout.locations import ensure_dir, locations

    loc = locations()
    try:
        ensure_dir(loc.data_dir)
        fd, tmp = tempfile.mkstemp(dir=loc.data_dir, prefix=".doctor-")
        os.close(fd)
        os.unlink(tmp)
        rep.add(PASS, "data dir writable", str(loc.data_dir))
    except (SayitoutError, OSError) as exc:
        rep.add(
            FAIL,
            "data dir writable",
            f"{loc.data_dir}: {getattr(exc, 'message', None) or exc}",
            "fix the directory's permissions or set SAYITOUT_HOME to a writable directory",
        )


def _check_bank(rep: _Report) -> None:
    try:
        from sayitout.app_factory import load_bank

        bank = load_bank()
        n = sum(len(d.questions) for d in bank.decks.values())
        rep.add(PASS, "question bank", f"{len(bank.decks)} deck(s), {n} questions")
    except Exception as exc:
        rep.error("question bank", exc, critical=True)


def _check_audio(rep: _Report, settings: Any) -> None:
    try:
        from sayitout.speech.audio.devices import check_audio

        checks = check_audio(settings.audio.input_device, settings.audio.output_device)
    except Exception as exc:
        rep.error("audio library (PortAudio)", exc, critical=False)
        return
    for name, ok, detail in checks:
        msg, fix = _split_fix(detail)
        if not ok and fix is None:
            fix = "install PortAudio (Debian/Ubuntu: apt install libportaudio2); typed "
            fix += "answers and --mic-file still work"
        rep.add(PASS if ok else WARN, name, msg, fix)


def _check_whisper(rep: _Report, name: str, settings: Any) -> None:
    import time

    from sayitout.app_factory import build_transcriber

    label = f"speech model {name}"
    try:
        t0 = time.perf_counter()
        tr = build_transcriber(settings.asr.model_copy(update={"model": name}))
        tr.warm_up()
        rep.add(
            PASS,
            label,
            f"loaded on {tr.device}/{tr.compute_type} in {time.perf_counter() - t0:.1f} s",
        )
    except Exception as exc:
        rep.error(label, exc, critical=False)


def _check_embedder(rep: _Report, settings: Any) -> None:
    import time

    try:
        from sayitout.app_factory import build_scorer

        t0 = time.perf_counter()
        emb = build_scorer(settings.scoring).embedder
        emb.load()
        rep.add(
            PASS,
            f"scoring model {emb.name}",
            f"loaded on {emb.device} ({emb.runtime}) in {time.perf_counter() - t0:.1f} s",
        )
    except Exception as exc:
        rep.error("scoring model all-MiniLM-L6-v2", exc, critical=True)


def _check_gpu(rep: _Report) -> None:
    from sayitout.speech.models import cuda_device_count

    n = cuda_device_count()
    if n:
        rep.add(PASS, "GPU", f"{n} CUDA device(s): speech runs on CUDA with float16")
    else:
        rep.add(PASS, "GPU", "none seen: speech runs on the CPU with int8 (tiny.en is fast enough)")


def _check_tts(rep: _Report, settings: Any) -> None:
    try:
        from sayitout.speech.tts import check_tts

        checks = check_tts(settings.speech)
    except Exception as exc:
        rep.error("text to speech", exc, critical=False)
        return
    for name, ok, detail in checks:
        msg, fix = _split_fix(detail)
        rep.add(PASS if ok else WARN, name, msg, fix)


def doctor_report() -> _Report:
    """Run every check; rows with FAIL break typed practice, WARN only voice practice."""
    from sayitout.config import Settings, load_settings

    rep = _Report()
    try:
        settings = load_settings()
        rep.add(PASS, "config", "loaded")
    except SayitoutError as exc:
        rep.add(FAIL, "config", exc.message, exc.hint)
        settings = Settings()
    _check_data_dir(rep)
    _check_bank(rep)
    _check_embedder(rep, settings)
    _check_audio(rep, settings)
    _check_gpu(rep)
    names = ["tiny.en", "base"]
    if settings.asr.model not in names:
        names.append(settings.asr.model)
    for name in names:
        _check_whisper(rep, name, settings)
    _check_tts(rep, settings)
    return rep


def run_doctor(args: argparse.Namespace) -> int:
    from sayitout.cli.progress import loading

    with loading("checking the sound system, models and voices"):
        rep = doctor_report()
    failed = any(r["status"] == FAIL for r in rep.rows)
    if args.json:
        print(json.dumps({"ok": not failed, "checks": rep.rows}, indent=2))
    else:
        from sayitout.cli.style import paint, use_colour

        colour = use_colour()
        shade = {PASS: "green", WARN: "yellow", FAIL: "red"}
        width = max(len(r["check"]) for r in rep.rows)
        for r in rep.rows:
            status = paint(r["status"], shade.get(r["status"], ""), enabled=colour)
            print(f"{status}  {r['check']:<{width}}  {r['detail']}")
            if r["fix"] and r["status"] != PASS:
                print(f"      {'':<{width}}  fix: {r['fix']}")
        warned = sum(r["status"] == WARN for r in rep.rows)
        if failed:
            print("\nTyped practice cannot work until the FAIL lines are fixed.")
        elif warned:
            print("\nTyped practice works; fix the WARN lines for spoken practice.")
        else:
            print("\nEverything works.")
    return 1 if failed else 0
