"""Stop-to-score latency: from the end of a spoken answer to its score being ready.

Answers of about 15, 60 and 120 seconds (rubric model answers read by the piper voice,
longer ones continuing with other answers' sentences) are written to WAV files and
played through the file microphone in real time into the answer recorder, which hands
each stretch of speech to the incremental transcriber while the "candidate" speaks.
The clock starts when the file's last sample has been played (the key press, simulated
as the file ending) and stops when the scorer has returned the answer's score.

While the answer plays, the transcriber also decodes the stretch still being spoken
every 1.2 s when it keeps up (words shown as they are said): ``previews`` counts those
decodes, ``previews_skipped`` the ones dropped because the CPU was busy.

Also measured: the peak resident memory of the whole run with both models loaded (the
synthesis runs in a child process, so the voice model is not counted).

Usage: ``python bench/latency.py [--speed 1] [--repeats 3] [--lengths 15,60,120]``.
``--speed 4`` feeds audio four times faster than real time for a quick check (the
worker then has less time to keep up, so the figures are pessimistic); report the
``--speed 1`` figures. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests"))  # support.speech_synth: synthesised answers

SR = 16_000
QUESTION = "dl-7b-adam-memory"
PAUSE_S = 0.7


def sentences_for(qid: str) -> list[str]:
    from sayitout.bank.loader import load_bank

    bank = load_bank()
    order = [qid] + [q.id for q in bank.questions() if q.id != qid]
    out: list[str] = []
    for q in order:
        answer = bank.rubric(q).model_answer or ""
        out += [s for s in re.split(r"(?<=[.!?])\s+", " ".join(answer.split())) if s]
    return out


def build_answers(lengths: list[int], out_dir: Path) -> dict[int, tuple[Path, str]]:
    """Synthesise (cached) and write one WAV per target length."""
    import numpy as np
    import soundfile as sf

    from support.speech_synth import speak_answer

    sents = sentences_for(QUESTION)
    gap = np.zeros(round(PAUSE_S * SR), dtype=np.float32)
    made: dict[int, tuple[Path, str]] = {}
    for target in lengths:
        pieces, texts, total = [np.zeros(round(0.3 * SR), np.float32)], [], 0.3
        for s in sents:
            audio = speak_answer(s, lead_s=0.0, tail_s=0.0)
            pieces += [audio, gap]
            texts.append(s)
            total += (audio.size + gap.size) / SR
            if total >= target - 1:
                break
        pieces[-1] = np.zeros(round(0.15 * SR), np.float32)  # the key press follows the word
        audio = np.concatenate(pieces)
        path = out_dir / f"answer-{target}s.wav"
        sf.write(path, audio, SR, subtype="PCM_16")
        made[target] = (path, " ".join(texts))
    return made


def run(args: argparse.Namespace) -> dict:
    import numpy as np

    from sayitout.bank.loader import load_bank
    from sayitout.config import AsrSettings, AudioSettings
    from sayitout.scoring import Scorer
    from sayitout.speech.asr import Transcriber
    from sayitout.speech.audio import AnswerRecorder, FileMicrophone
    from sayitout.speech.audio.sources import EndOfAudio

    class TimedFile(FileMicrophone):
        """Notes when the last sample of the file has been played."""

        last_chunk_at: float = 0.0

        def read(self, timeout: float) -> np.ndarray:
            try:
                chunk = super().read(timeout)
            except EndOfAudio:
                raise
            if chunk.size:
                self.last_chunk_at = time.perf_counter()
            return chunk

    work = Path(args.workdir)
    files = json.loads((work / "answers.json").read_text())
    rubric = load_bank().rubric(QUESTION)
    terms = rubric.all_terms()

    t0 = time.perf_counter()
    transcriber = Transcriber(
        AsrSettings(model=args.model, device=args.device, beam_size=args.beam)
    )
    transcriber.warm_up()
    asr_load = time.perf_counter() - t0
    t0 = time.perf_counter()
    scorer = Scorer(device=args.device)
    scorer.warm_up()
    scorer.prepare(rubric)  # the app prepares the rubric while the question is read
    scorer_load = time.perf_counter() - t0
    print(
        f"loaded {args.model} on {transcriber.device}/{transcriber.compute_type} in "
        f"{asr_load:.1f} s, scorer in {scorer_load:.1f} s",
        flush=True,
    )

    results: dict[str, list[dict]] = {}
    for length, (path, script) in files.items():
        for rep in range(args.repeats):
            partials: list[object] = []
            inc = transcriber.live(terms, partials.append)
            source = TimedFile(path, speed=args.speed)
            recorder = AnswerRecorder(
                source,
                AudioSettings(max_answer_s=900, silence_timeout_s=30),
                on_segment=inc.add_segment,
                on_open=inc.preview,  # words shown while they are said, as in the app
            )
            started = time.perf_counter()
            (work / "recordings").mkdir(exist_ok=True)
            recording = recorder.record(path=work / "recordings" / f"{length}-{rep}.flac")
            recorded = time.perf_counter()
            transcript = inc.finish(duration=recording.duration_s)
            transcribed = time.perf_counter()
            score = scorer.score(rubric, transcript)
            ready = time.perf_counter()
            end = source.last_chunk_at
            from jiwer import wer

            row = {
                "stop_to_score_s": round(ready - end, 3),
                "record_close_s": round(recorded - end, 3),
                "transcribe_wait_s": round(transcribed - recorded, 3),
                "score_s": round(ready - transcribed, 3),
                "audio_s": round(recording.duration_s, 1),
                "played_in_s": round(end - started, 1),
                "segments": transcript.meta.get("segments"),
                "calls": transcript.meta.get("calls"),
                "pending_at_finish": transcript.meta.get("pending_at_finish"),
                "decode_s": transcript.meta.get("decode_s"),
                "ended_by": recording.ended_by.value,
                "partials": len(partials),
                "previews": transcript.meta.get("previews"),
                "previews_skipped": transcript.meta.get("previews_skipped"),
                "score": score.score,
                "wer_vs_script": round(wer(script.lower(), transcript.text.lower() or "-"), 3),
            }
            results.setdefault(length, []).append(row)
            print(f"{length:>4} s answer, run {rep + 1}: {json.dumps(row)}", flush=True)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "stop_to_score_s": {
            k: round(statistics.median(r["stop_to_score_s"] for r in v), 3)
            for k, v in results.items()
        },
        "max_stop_to_score_s": {
            k: max(r["stop_to_score_s"] for r in v) for k, v in results.items()
        },
        "speed": args.speed,
        "repeats": args.repeats,
        "model": args.model,
        "device": f"{transcriber.device}/{transcriber.compute_type}",
        "peak_rss_mb": round(peak_mb, 1),
        "asr_load_s": round(asr_load, 2),
        "scorer_load_s": round(scorer_load, 2),
        "runs": results,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--speed", type=float, default=1.0, help="1 = real time (report this)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--lengths", default="15,60,120")
    ap.add_argument("--model", default="tiny.en")
    ap.add_argument("--beam", type=int, default=1)
    ap.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    ap.add_argument("--workdir", help=argparse.SUPPRESS)
    ap.add_argument("--synth-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    lengths = [int(x) for x in args.lengths.split(",")]

    if args.synth_only:
        made = build_answers(lengths, Path(args.workdir))
        (Path(args.workdir) / "answers.json").write_text(
            json.dumps({str(k): [str(p), t] for k, (p, t) in made.items()})
        )
        return 0

    with tempfile.TemporaryDirectory(prefix="sayitout-latency-") as tmp:
        args.workdir = tmp
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, __file__, "--synth-only", "--workdir", tmp, "--lengths", args.lengths],
            check=True,
        )
        print(f"answers synthesised in {time.perf_counter() - t0:.1f} s", flush=True)
        import os

        os.environ.setdefault("SAYITOUT_HOME", str(Path(tmp) / "home"))
        result = run(args)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
