"""The core never imports Textual, and importing it loads no heavy model library.

Checked in a fresh interpreter (as harlequin does), so nothing another test imported
can hide a regression. import-linter checks the same rule statically in scripts/test.sh.
"""

from __future__ import annotations

import json
import subprocess
import sys

CORE = [
    "sayitout.bank.loader",
    "sayitout.config",
    "sayitout.locations",
    "sayitout.integrity",
    "sayitout.scoring",
    "sayitout.session",
    "sayitout.speech.asr",
    "sayitout.speech.audio",
    "sayitout.speech.tts",
    "sayitout.store",
    "sayitout.schedule",
    "sayitout.coach",
    "sayitout.report",
    "sayitout.cli",
]


def _loaded_after_importing(modules: list[str]) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


def test_core_does_not_import_textual() -> None:
    loaded = _loaded_after_importing(CORE)
    assert not {m for m in loaded if m == "textual" or m.startswith("textual.")}
    assert not {m for m in loaded if m.startswith("sayitout.tui")}


def test_importing_the_core_loads_no_model_library() -> None:
    # Start-up stays fast: torch, transformers and CTranslate2 load in workers, on demand.
    loaded = _loaded_after_importing(CORE)
    heavy = {"torch", "sentence_transformers", "transformers", "ctranslate2", "faster_whisper"}
    assert not heavy & loaded
