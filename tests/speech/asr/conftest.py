"""Fixtures for the speech-recognition tests: one tiny.en model per session, the real
clips of ``../shared/speech`` and synthesised technical answers (cached per session)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sayitout.config import AsrSettings

TECH_ANSWERS = {
    "adamw": "I would use AdamW, because it decouples the weight decay from the gradient.",
    "bf16": "Training in bf16 keeps the range of fp32, so it rarely overflows.",
    "fp16": "In fp16 the small gradients underflow, so you need a loss scaler.",
    # the voice reads the spelling "NaN" letter by letter; people say "nan"
    "nan": "After a few hundred steps the loss became nan and training stopped.",
    "groupnorm": "With tiny batches I would switch to GroupNorm instead of batch norm.",
}
TECH_TERMS = ["AdamW", "bf16", "fp16", "NaN", "GroupNorm", "loss scaler", "weight decay"]
EXPECTED_TERM = {
    "adamw": "AdamW",
    "bf16": "bf16",
    "fp16": "fp16",
    "nan": "NaN",
    "groupnorm": "GroupNorm",
}


@pytest.fixture(scope="session")
def transcriber():
    from sayitout.speech.asr import Transcriber

    return Transcriber(AsrSettings(model="tiny.en", device="cpu")).load()


@pytest.fixture(scope="session")
def gold_clips(shared_speech: Path) -> list[dict]:
    rows = [
        json.loads(line)
        for line in (shared_speech / "manifest.jsonl").read_text().splitlines()
        if line.strip()
    ]
    return [dict(r, path=shared_speech / r["file"]) for r in rows if r["tier"] == "gold"]


@pytest.fixture(scope="session")
def synth_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("synth")


@pytest.fixture(scope="session")
def tech_audio(synth_cache: Path) -> dict[str, np.ndarray]:
    pytest.importorskip("piper")
    from support.speech_synth import speak_answer

    # steady: the same audio every run (a noisy rendering of "fp16" was once heard as
    # "Nfb16" even with the hotwords)
    return {
        k: speak_answer(text, steady=True, cache_dir=synth_cache)
        for k, text in TECH_ANSWERS.items()
    }


def _normalise(text: str) -> str:
    try:
        from whisper_normalizer.english import EnglishTextNormalizer
    except ImportError:  # pragma: no cover
        import re

        return " ".join(re.sub(r"[^\w\s']", " ", text.lower()).split())
    return " ".join(EnglishTextNormalizer()(text).split())


def _wer(refs: list[str], hyps: list[str]) -> float:
    import jiwer

    return jiwer.wer([_normalise(r) for r in refs], [_normalise(h) for h in hyps])


@pytest.fixture(scope="session")
def wer():
    """Word error rate after Whisper's English normalisation (case, punctuation, numbers)."""
    return _wer


@pytest.fixture(scope="session")
def tech() -> dict:
    return {"answers": TECH_ANSWERS, "terms": TECH_TERMS, "expected": EXPECTED_TERM}
