"""No network at run time: a full scoring of a spoken answer inside a network namespace
with no network at all, and a model name that would need a download fails fast."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import soundfile as sf

from reliability.results_file import record_case

REPO_ROOT = Path(__file__).resolve().parents[2]
ANSWER = (
    "The loss goes to NaN because fp16 overflows above sixty five thousand. "
    "Use bf16 or dynamic loss scaling."
)


def _offline_prefix() -> list[str]:
    """``unshare -n`` (as root) or ``unshare -rn`` (a user namespace); skip if neither works."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed")
    for prefix in (["unshare", "-n", "--"], ["unshare", "-rn", "--"]):
        probe = subprocess.run([*prefix, "true"], capture_output=True, text=True)
        if probe.returncode == 0:
            return prefix
    pytest.skip(f"unshare is not permitted here: {probe.stderr.strip()}")


def _env(home: Path) -> dict[str, str]:
    """The user's environment, without the offline switches the test suite sets: the app
    must stay offline on its own."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE")
    }
    env["SAYITOUT_HOME"] = str(home)
    return env


@pytest.fixture(scope="module")
def answer_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        from support.speech_synth import speak_answer

        audio = speak_answer(ANSWER, pause_s=0.4)
    except Exception as exc:
        pytest.skip(f"cannot synthesise the spoken answer: {exc}")
    path = tmp_path_factory.mktemp("offline") / "answer.wav"
    sf.write(path, audio, 16000)
    return path


@pytest.mark.e2e
def test_full_scoring_without_network(answer_wav: Path, sayitout_home: Path) -> None:
    prefix = _offline_prefix()
    # inside the namespace there is no interface but a down loopback: nothing is reachable
    probe = subprocess.run(
        [
            *prefix,
            sys.executable,
            "-c",
            "import socket; socket.create_connection(('1.1.1.1', 443), timeout=3)",
        ],
        capture_output=True,
        text=True,
    )
    assert probe.returncode != 0, "the namespace still has network"
    started = time.monotonic()
    proc = subprocess.run(
        [
            *prefix,
            sys.executable,
            "-m",
            "sayitout",
            "score",
            "dl-fp16-nan",
            "--audio",
            str(answer_wav),
            "--json",
        ],
        capture_output=True,
        text=True,
        env=_env(sayitout_home),
        cwd=REPO_ROOT,
        timeout=600,
    )
    seconds = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    result = json.loads(proc.stdout)
    score = result.get("score", result)
    value = score["score"] if isinstance(score, dict) else score
    assert 0 <= value <= 100
    assert "fp16" in proc.stdout.lower() or "nan" in proc.stdout.lower()
    record_case(
        "offline",
        "score --audio in unshare -n",
        {
            "times": 1,
            "passed": True,
            "message": f"scored {value}/100 in {seconds:.0f} s, no network",
        },
    )


@pytest.mark.parametrize("namespace", [True, False], ids=["unshare-n", "hf-offline-env"])
def test_hub_model_fails_fast_offline(
    answer_wav: Path, sayitout_home: Path, namespace: bool
) -> None:
    env = _env(sayitout_home)
    prefix: list[str] = []
    if namespace:
        prefix = _offline_prefix()
    else:
        env["HF_HUB_OFFLINE"] = "1"
    started = time.monotonic()
    proc = subprocess.run(
        [
            *prefix,
            sys.executable,
            "-m",
            "sayitout",
            "transcribe",
            str(answer_wav),
            "--model",
            "small.en",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO_ROOT,
        timeout=120,
    )
    seconds = time.monotonic() - started
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert "small.en" in proc.stderr and "offline" in proc.stderr.lower(), proc.stderr
    assert "fix:" in proc.stderr
    assert seconds < 10, f"took {seconds:.1f} s"
    record_case(
        "offline",
        f"transcribe --model small.en ({'unshare -n' if namespace else 'HF_HUB_OFFLINE=1'})",
        {
            "times": 1,
            "passed": True,
            "message": proc.stderr.strip().splitlines()[0][:160] + f" ({seconds:.1f} s)",
        },
    )
