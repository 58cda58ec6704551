"""Large honest inputs: a 10,000-question deck, and long silent recordings.

    .venv/bin/python bench/bank_load.py [--questions 10000] [--minutes 10 60] [--skip-audio]

1. Writes a bank of one deck with ``--questions`` questions and one rubric each (as an
   import would), then times ``sayitout check --bank DIR`` and ``sayitout questions
   --bank DIR`` as real processes (wall time, best of ``--repeats``; process start
   included) and ``load_bank`` in-process. Goal: check and questions <= 1.5 s.
2. Writes WAV files of ``--minutes`` of silence (16 kHz mono) and runs ``sayitout
   transcribe FILE`` on each in its own process, reporting its peak RSS. Goal: memory
   flat with file length (the 60-minute peak close to the 10-minute one).

``check`` and ``questions`` are timed cold (first run: every file parsed) and warm (the
parsed data of unchanged files comes from the cache dir). The figures are merged into
``build/reliability.json`` (key ``bank_load``) for ``docs/reliability.md``. The machine
is shared: give ``uptime``'s load average with the figures. Last line JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "reliability"))

import results_file  # noqa: E402


def write_big_bank(root: Path, n: int) -> Path:
    qb = root / "question_bank"
    rd = root / "rubrics" / "big"
    qb.mkdir(parents=True)
    rd.mkdir(parents=True)
    lines = ["id: big", "title: A big deck", "questions:"]
    for i in range(n):
        lines += [
            f"- id: big-q{i}",
            f"  text: What happens to the loss in situation number {i} of this long deck?",
            "  kind: open",
            f"  topics: [topic-{i % 50}, shared]",
            "  answer_seconds: 90",
        ]
    (qb / "big.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for i in range(n):
        (rd / f"big-q{i}.yaml").write_text(
            f"question_id: big-q{i}\n"
            "version: 1\n"
            "key_points:\n"
            "- id: first\n"
            f"  text: The first thing to say about situation {i}.\n"
            "  weight: 2\n"
            "  paraphrases: [first, the first point]\n"
            "  terms: [loss]\n"
            "- id: second\n"
            "  text: The second thing to say.\n"
            "- id: third\n"
            "  text: The third thing to say.\n"
            "misconceptions:\n"
            "- id: wrong\n"
            "  text: The loss never changes.\n"
            "  correction: It does.\n"
            f"model_answer: A model answer for situation {i}.\n",
            encoding="utf-8",
        )
    return root


def _env(home: Path, src: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(src),
        "SAYITOUT_HOME": str(home),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }


def run_timed(argv: list[str], env: dict[str, str]) -> tuple[float, int, int, float]:
    """(wall seconds, exit code, peak RSS in MiB, CPU seconds) of ``python -m sayitout
    argv``. On a loaded machine CPU time (user + system) is the steadier figure: the
    loader is single-threaded, so on an idle machine wall time is close to it."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sayitout", *argv],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    cpu = usage.ru_utime + usage.ru_stime
    return wall, os.waitstatus_to_exitcode(status), usage.ru_maxrss // 1024, cpu


def write_silence(path: Path, minutes: float) -> Path:
    block = b"\0\0" * 16000 * 60
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        for _ in range(round(minutes)):
            w.writeframes(block)
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--minutes", type=float, nargs="*", default=[10, 60])
    ap.add_argument("--skip-audio", action="store_true")
    ap.add_argument(
        "--src",
        type=Path,
        default=ROOT / "src",
        help="run the commands from this source tree (e.g. an export of an older commit, "
        "for before/after figures on the same machine); figures are then not recorded",
    )
    args = ap.parse_args()
    out: dict[str, object] = {"load_average": os.getloadavg()[0], "questions": args.questions}
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        env = _env(tmpdir / "home", args.src.resolve())
        bank = write_big_bank(tmpdir / "bank", args.questions)
        cache = tmpdir / "home" / "cache" / "bank-files.json"
        for cmd in ("check", "questions"):
            cold = []
            for _ in range(args.repeats):
                cache.unlink(missing_ok=True)
                cold.append(run_timed([cmd, "--bank", str(bank)], env))
            warm = [run_timed([cmd, "--bank", str(bank)], env) for _ in range(args.repeats)]
            out[f"{cmd}_cold_s"] = round(min(r[0] for r in cold), 2)
            out[f"{cmd}_s"] = round(min(r[0] for r in warm), 2)
            out[f"{cmd}_cold_cpu_s"] = round(min(r[3] for r in cold), 2)
            out[f"{cmd}_cpu_s"] = round(min(r[3] for r in warm), 2)
            out[f"{cmd}_exit"] = warm[0][1]
            print(
                f"{cmd:<10} {args.questions} questions: first run {out[f'{cmd}_cold_s']:.2f} s "
                f"(CPU {out[f'{cmd}_cold_cpu_s']:.2f} s), again {out[f'{cmd}_s']:.2f} s "
                f"(CPU {out[f'{cmd}_cpu_s']:.2f} s) (exit {warm[0][1]})"
            )
        if args.src.resolve() == (ROOT / "src").resolve():
            sys.path.insert(0, str(ROOT / "src"))
            os.environ["SAYITOUT_HOME"] = str(tmpdir / "home")
            from sayitout.bank.loader import load_bank

            t0, c0 = time.perf_counter(), time.process_time()
            loaded = load_bank([bank], cache=False)
            out["load_bank_s"] = round(time.perf_counter() - t0, 2)
            out["load_bank_cpu_s"] = round(time.process_time() - c0, 2)
            print(f"load_bank in-process: {out['load_bank_s']} s, {len(loaded.problems)} problems")
        if not args.skip_audio:
            for minutes in args.minutes:
                wav = write_silence(tmpdir / f"silence-{minutes:g}min.wav", minutes)
                wall, code, rss, _ = run_timed(["transcribe", str(wav)], env)
                out[f"transcribe_{minutes:g}min_peak_mib"] = rss
                out[f"transcribe_{minutes:g}min_s"] = round(wall, 1)
                print(
                    f"transcribe {minutes:g} min of silence: peak RSS {rss} MiB, "
                    f"{wall:.1f} s (exit {code})"
                )
                wav.unlink()
    if args.src.resolve() == (ROOT / "src").resolve():
        results_file.record("bank_load", out)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
