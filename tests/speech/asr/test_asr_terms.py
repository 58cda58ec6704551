"""Which of a question's terms are offered to Whisper."""

from __future__ import annotations

from sayitout.speech.asr.transcriber import build_prompt, recognition_terms


def test_each_term_once_in_order() -> None:
    assert recognition_terms(["AdamW", " KV  cache", "adamw", "", "bf16"]) == [
        "AdamW",
        "KV cache",
        "bf16",
    ]


def test_numbers_with_a_suffix_stay_out_of_the_prompt() -> None:
    kept = recognition_terms(["7B", "70B", "16GB", "16 GB", "8k", "1.5e", "bf16", "fp32", "GB"])
    assert kept == ["bf16", "fp32", "GB"]
    assert "7B" not in build_prompt(recognition_terms(["7B", "fp32"]))
