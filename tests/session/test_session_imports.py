"""The session core never imports Textual, and building the app loads no model library."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("torch", "faster_whisper", "ctranslate2", "sentence_transformers", "piper")


def _modules_after(code: str) -> set[str]:
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_session_core_does_not_import_textual_or_models():
    mods = _modules_after(
        "import sayitout.session, sayitout.app_factory\n"
        "from sayitout.config import Settings\n"
        "sayitout.app_factory.build_services(Settings(), tts='none')\n"
    )
    assert not {m for m in mods if m == "textual" or m.startswith("textual.")}
    assert not {m for m in mods if m.split(".")[0] in HEAVY}


def test_building_the_app_loads_no_model_library():
    mods = _modules_after(
        "from sayitout.config import Settings\n"
        "from sayitout.tui import make_app\n"
        "make_app(Settings(), tts='none')\n"
    )
    assert not {m for m in mods if m.split(".")[0] in HEAVY}
