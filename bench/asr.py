"""Speech recognition benchmark: accuracy, speed, domain terms, fillers.

1. Word error rate (after Whisper's English normalisation) and real-time factor on
   the real speech in ``../shared/speech`` for each model and beam size.
2. The decode options on tiny.en: the filler prompt on/off (gold WER) and
   ``condition_on_previous_text`` on/off (the 52 s silver clip, the one longer than a
   window).
3. Domain-term recall on synthesised technical answers (the rubrics' model answers read
   by the piper voice): no help, hotwords only, prompt only, both.
4. Filler retention on synthesised hesitant answers, with and without the prompt.

Usage: ``python bench/asr.py [--models tiny.en,base] [--beams 1,5] [--rubrics 12]
[--device auto] [--quick]``. The last line is JSON with every figure.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "speech"
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests"))  # support.speech_synth: synthesised answers

from sayitout.config import AsrSettings  # noqa: E402
from sayitout.speech.asr import DecodeOptions, Transcriber  # noqa: E402

FILLER_ANSWERS = [
    "Um, so, I think the learning rate was, uh, too high, and the loss diverged.",
    "So, like, the batch norm statistics are, um, noisy with small batches.",
    "Uh, I would, you know, check the data loader first, and um, then the GPU.",
    "Hmm, let me think. The, uh, gradient clipping keeps the updates small.",
    "Well, um, basically the model overfits, so, like, add more data.",
    "I mean, uh, warmup helps Adam because, um, the early variance estimate is bad.",
]
FILLERS = ("um", "uh", "umm", "uhh", "hmm", "like", "you know", "so", "well", "i mean", "basically")


def normaliser():
    from whisper_normalizer.english import EnglishTextNormalizer

    norm = EnglishTextNormalizer()
    return lambda s: " ".join(norm(s).split())


def wer(refs: list[str], hyps: list[str]) -> float:
    import jiwer

    n = normaliser()
    pairs = [(n(r), n(h)) for r, h in zip(refs, hyps, strict=True)]
    return round(jiwer.wer([p[0] for p in pairs], [p[1] or "<empty>" for p in pairs]), 4)


def clips() -> list[dict]:
    if not (SHARED / "manifest.jsonl").is_file():
        sys.exit(f"no speech clips at {SHARED}")
    rows = [json.loads(x) for x in (SHARED / "manifest.jsonl").read_text().splitlines() if x]
    return [dict(r, path=SHARED / r["file"]) for r in rows]


def load(path: Path):
    from sayitout.speech.audio.decode import load_audio

    return load_audio(path)


def run_clips(tr: Transcriber, rows: list[dict], audio: dict) -> dict:
    hyps, times, durs = [], [], []
    for r in rows:
        t0 = time.perf_counter()
        t = tr.transcribe(audio[r["file"]])
        times.append(time.perf_counter() - t0)
        durs.append(t.duration or 0.0)
        hyps.append(t.text)
    gold = [i for i, r in enumerate(rows) if r["tier"] == "gold"]
    silver = [i for i, r in enumerate(rows) if r["tier"] != "gold"]
    return {
        "wer_gold": wer([rows[i]["reference"] for i in gold], [hyps[i] for i in gold])
        if gold
        else None,
        "wer_silver": wer([rows[i]["reference"] for i in silver], [hyps[i] for i in silver])
        if silver
        else None,
        "rtf": round(sum(times) / sum(durs), 3),
        "rtf_long_clip": round(times[silver[0]] / durs[silver[0]], 3) if silver else None,
        "median_call_s": round(statistics.median(times[i] for i in gold), 3) if gold else None,
        "audio_s": round(sum(durs), 1),
        "hyps": hyps,
    }


def term_in(term: str, text: str) -> bool:
    pat = r"(?<![\w])" + re.escape(term.lower()) + r"(?![\w])"
    return re.search(pat, text.lower()) is not None


def recall_items(limit: int) -> list[tuple[str, str, list[str], list[str]]]:
    """(question id, model answer, every rubric term, terms the answer says)."""
    from sayitout.bank.loader import load_bank

    bank = load_bank()
    items = []
    for q in bank.questions():
        rubric = bank.rubric(q.id)
        if not rubric.model_answer:
            continue
        terms = rubric.all_terms()
        spoken = [t for t in terms if term_in(t, rubric.model_answer)]
        if spoken:
            items.append((q.id, rubric.model_answer, terms, spoken))
    items.sort(key=lambda x: -len(x[3]))
    return items[:limit] if limit else items


def count_fillers(text: str) -> int:
    t = " " + re.sub(r"[^\w\s']", " ", text.lower()) + " "
    t = " ".join(t.split())
    return sum(len(re.findall(r"(?<!\w)" + re.escape(f) + r"(?!\w)", t)) for f in FILLERS)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="tiny.en,base")
    ap.add_argument("--beams", default="1,5")
    ap.add_argument("--rubrics", type=int, default=12, help="answers for term recall (0: all)")
    ap.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="tiny.en beam 1 only, 4 answers")
    args = ap.parse_args()
    if args.quick:
        args.models, args.beams, args.rubrics = "tiny.en", "1", 4

    from support.speech_synth import speak_answer

    rows = clips()
    audio = {r["file"]: load(r["path"]) for r in rows}
    result: dict = {"wer_rtf": {}, "options": {}, "term_recall": {}, "fillers": {}}
    device = None

    # 1. WER and RTF per model and beam
    for model in args.models.split(","):
        for beam in (int(b) for b in args.beams.split(",")):
            settings = AsrSettings(
                model=model, beam_size=beam, device=args.device, cpu_threads=args.threads
            )
            tr = Transcriber(settings)
            t0 = time.perf_counter()
            tr.warm_up()
            load_s = time.perf_counter() - t0
            device = f"{tr.device}/{tr.compute_type}"
            r = run_clips(tr, rows, audio)
            r.pop("hyps")
            r["load_and_warm_s"] = round(load_s, 2)
            key = f"{model}/beam{beam}"
            result["wer_rtf"][key] = r
            print(
                f"{key:16} {device:12} WER gold {r['wer_gold']:.3f}  silver "
                f"{r['wer_silver']:.3f}  RTF {r['rtf']:.3f} (52 s clip {r['rtf_long_clip']:.3f})"
                f"  median call {r['median_call_s']:.2f} s",
                flush=True,
            )

    # 2. decode options on tiny.en beam 1
    base_settings = AsrSettings(model="tiny.en", device=args.device, cpu_threads=args.threads)
    gold = [r for r in rows if r["tier"] == "gold"]
    silver = [r for r in rows if r["tier"] != "gold"]
    for name, opts in {
        "prompt": DecodeOptions(),
        "no_prompt": DecodeOptions(use_prompt=False),
    }.items():
        r = run_clips(Transcriber(base_settings, opts), gold, audio)
        result["options"][f"gold_wer_{name}"] = r["wer_gold"]
        print(f"tiny.en gold WER with {name:9}: {r['wer_gold']:.3f}", flush=True)
    for cond in (False, True):
        opts = DecodeOptions(condition_on_previous_text=cond)
        r = run_clips(Transcriber(base_settings, opts), silver, audio)
        result["options"][f"silver_wer_condition_{cond}"] = r["wer_silver"]
        print(
            f"tiny.en silver WER condition_on_previous_text={cond}: {r['wer_silver']:.3f}",
            flush=True,
        )

    # 3. domain-term recall on synthesised technical answers
    items = recall_items(args.rubrics)
    t0 = time.perf_counter()
    spoken_audio = {qid: speak_answer(text) for qid, text, _, _ in items}
    synth_s = time.perf_counter() - t0
    total_terms = sum(len(s) for *_, s in items)
    variants = {
        "none": DecodeOptions(use_hotwords=False, use_prompt=False),
        "hotwords": DecodeOptions(use_prompt=False),
        "prompt": DecodeOptions(use_hotwords=False),
        "both": DecodeOptions(),
    }
    missed_both: list[str] = []
    for name, opts in variants.items():
        tr = Transcriber(base_settings, opts)
        hit, times, wers = 0, [], []
        for qid, text, terms, spoken in items:
            t0 = time.perf_counter()
            t = tr.transcribe(spoken_audio[qid], terms=terms)
            times.append(time.perf_counter() - t0)
            got = [s for s in spoken if term_in(s, t.text)]
            hit += len(got)
            wers.append(wer([text], [t.text]))
            if name == "both":
                missed_both += [f"{qid}:{s}" for s in spoken if s not in got]
        recall = round(hit / total_terms, 4)
        result["term_recall"][name] = {
            "recall": recall,
            "wer_vs_script": round(statistics.mean(wers), 4),
            "seconds": round(sum(times), 1),
        }
        print(
            f"term recall {name:9}: {hit}/{total_terms} = {recall:.1%}  "
            f"(WER vs script {statistics.mean(wers):.3f})",
            flush=True,
        )
    result["term_recall"]["answers"] = len(items)
    result["term_recall"]["terms"] = total_terms
    result["term_recall"]["missed_with_both"] = missed_both
    result["term_recall"]["synth_s"] = round(synth_s, 1)
    print("missed with hotwords + prompt:", ", ".join(missed_both) or "none")

    # 4. filler retention
    filler_audio = [speak_answer(t) for t in FILLER_ANSWERS]
    ref_count = sum(count_fillers(t) for t in FILLER_ANSWERS)
    for name, opts in {
        "prompt": DecodeOptions(),
        "no_prompt": DecodeOptions(use_prompt=False),
    }.items():
        tr = Transcriber(base_settings, opts)
        kept = sum(count_fillers(tr.transcribe(a).text) for a in filler_audio)
        result["fillers"][name] = {
            "kept": kept,
            "spoken": ref_count,
            "retention": round(kept / ref_count, 3),
        }
        print(f"fillers kept with {name:9}: {kept}/{ref_count}", flush=True)

    result["device"] = device
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
