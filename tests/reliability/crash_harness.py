"""Kill real practice sessions with SIGKILL at random moments and prove nothing was lost.

Used by ``tests/reliability/test_reliability_crash.py`` (a few kills in CI) and by
``bench/crash.py`` (50+ kills). Each round starts ``crash_driver.py`` on the same
``SAYITOUT_HOME``, waits for a randomly chosen phase marker (speaking, recording,
transcribing, scoring, saving, or just a random time), sleeps a random fraction of
that phase and sends SIGKILL. Then, as the next start would:

- ``PRAGMA integrity_check`` must be ``ok``;
- every attempt the driver reported saved (``SAVED`` lines, printed after commit) in
  any round so far must be present and intact: same question, transcript text,
  score JSON that parses back into an ``AnswerScore`` with a score in 0..100, its
  recording on disk and decodable;
- every recording on disk must be attached to an attempt or listed by
  ``Store.orphan_recordings()``, and no attempt may point at a missing file.

At the end the orphans are recovered (:func:`sayitout.recovery.recover`) with the
real models, and the check runs again.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

DRIVER = Path(__file__).with_name("crash_driver.py")
REPO_ROOT = Path(__file__).resolve().parents[2]

# Short spoken answers (first sentences of model-answer style text), a few seconds each.
ANSWERS = {
    "dl-fp16-nan": "The loss goes to NaN because fp16 overflows above sixty five thousand. "
    "Use bf16 or dynamic loss scaling.",
    "dl-initial-loss": "With ten classes the initial loss should be about two point three, "
    "the log of ten.",
    "dl-val-loss-rises": "Validation loss rising while training loss falls means overfitting. "
    "Add regularisation or stop early.",
}

# target phase -> (marker that starts it, max random delay in seconds after the marker)
TARGETS: dict[str, tuple[str, float]] = {
    "speaking": ("SPEAK", 0.3),
    "recording": ("REC", 1.2),
    "transcribing": ("PROC transcribing", 0.6),
    "scoring": ("PROC scoring", 0.25),
    "saving": ("PROC saving", 0.01),
    "after-saved": ("SAVED", 0.2),
    # the driver kills itself 0-6 ms into save_attempt: inside the SQLite transaction
    "inside-save": ("", 0.0),
    "random": ("READY", 6.0),
}


def make_answers(directory: Path) -> dict[str, Path]:
    """The answers as 16 kHz WAVs (synthesised once by the piper voice, then cached)."""
    import soundfile as sf

    from support.speech_synth import speak_answer

    directory.mkdir(parents=True, exist_ok=True)
    out = {}
    for qid, text in ANSWERS.items():
        path = directory / f"{qid}.wav"
        if not path.is_file():
            sf.write(path, speak_answer(text, pause_s=0.4), 16000)
        out[qid] = path
    return out


@dataclass
class Figures:
    kills: int = 0
    kills_by_phase: Counter = field(default_factory=Counter)
    """The phase the driver was in when it was killed (its last marker)."""
    targets: Counter = field(default_factory=Counter)
    attempts_reported: int = 0
    attempts_checked: int = 0
    attempts_lost: int = 0
    recordings_on_disk: int = 0
    orphans_found: int = 0
    orphans_recovered: int = 0
    orphans_unusable: int = 0
    orphan_outcomes: Counter = field(default_factory=Counter)
    integrity_failures: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return {
            "kills": self.kills,
            "kills_by_phase": dict(self.kills_by_phase),
            "targets": dict(self.targets),
            "attempts_reported": self.attempts_reported,
            "attempts_checked": self.attempts_checked,
            "attempts_lost": self.attempts_lost,
            "recordings_on_disk": self.recordings_on_disk,
            "orphans_found": self.orphans_found,
            "orphans_recovered": self.orphans_recovered,
            "orphans_unusable": self.orphans_unusable,
            "orphan_outcomes": dict(self.orphan_outcomes),
            "integrity_failures": self.integrity_failures,
            "problems": self.problems[:20],
            "seconds": round(self.seconds, 1),
        }


class _Reader:
    """Collects the driver's stdout lines on a thread; lets the harness wait for a marker."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.lines: list[str] = []
        self._cond = threading.Condition()
        self._done = False
        self._thread = threading.Thread(target=self._pump, args=(proc,), daemon=True)
        self._thread.start()

    def _pump(self, proc: subprocess.Popen) -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            with self._cond:
                self.lines.append(raw.rstrip("\n"))
                self._cond.notify_all()
        with self._cond:
            self._done = True
            self._cond.notify_all()

    def wait_for(self, marker: str, count: int, timeout: float) -> bool:
        end = time.monotonic() + timeout
        with self._cond:
            while True:
                seen = sum(1 for ln in self.lines if ln == marker or ln.startswith(marker + " "))
                if seen >= count:
                    return True
                if self._done:
                    return False
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)

    def finish(self, timeout: float = 10.0) -> list[str]:
        self._thread.join(timeout)
        return list(self.lines)


def _phase_of(lines: list[str]) -> str:
    """The phase the driver was in when its output stopped."""
    for ln in reversed(lines):
        if ln.startswith("PROC "):
            return ln.split(" ", 1)[1]
        if ln == "SPEAK":
            return "speaking"
        if ln.startswith("SAVED"):
            return "saved"
        if ln.startswith("PHASE "):
            phase = ln.split(" ", 1)[1]
            return {"asking": "speaking", "processing": "transcribing"}.get(phase, phase)
        if ln == "READY":
            return "starting"
    return "loading models"


def _driver_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["SAYITOUT_HOME"] = str(home)
    env["HF_HUB_OFFLINE"] = "1"
    env["TRANSFORMERS_OFFLINE"] = "1"
    env.setdefault("OMP_NUM_THREADS", "2")
    env["PYTHONPATH"] = str(REPO_ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def check_home(home: Path, reported: dict[int, tuple[str, str]], figures: Figures) -> set[Path]:
    """The checks after a kill; returns the orphan paths. Problems go to ``figures``."""
    from sayitout.scoring.result import AnswerScore
    from sayitout.speech.audio.decode import audio_info
    from sayitout.store import Store

    db = home / "data" / "sayitout.db"
    if db.exists():
        conn = sqlite3.connect(db)
        try:
            result = conn.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            conn.close()
        if result != "ok":
            figures.integrity_failures += 1
            figures.problems.append(f"integrity_check: {result}")
    with Store.open() as store:
        rows = {
            r[0]: r[1:]
            for r in store._db.read(
                "check",
                "SELECT id, question_id, transcript_raw, score_json, score, recording_path "
                "FROM attempts",
            )
        }
        for attempt_id, (qid, rec_path) in reported.items():
            figures.attempts_checked += 1
            row = rows.get(attempt_id)
            if row is None:
                figures.attempts_lost += 1
                figures.problems.append(f"attempt {attempt_id} ({qid}) reported saved, missing")
                continue
            try:
                assert row[0] == qid, f"question {row[0]} != {qid}"
                transcript = json.loads(row[1])
                assert transcript.get("text", "").strip(), "empty transcript"
                score = AnswerScore.from_dict(json.loads(row[2]))
                assert 0 <= score.score <= 100 and 0 <= row[3] <= 100, "score out of range"
                stored = store.attempt(attempt_id).summary.recording_path
                assert stored is not None and str(stored) == rec_path, f"recording {stored}"
                seconds, _, _ = audio_info(stored)
                assert seconds > 0, "empty recording"
            except Exception as exc:  # any defect counts as a lost attempt
                figures.attempts_lost += 1
                figures.problems.append(f"attempt {attempt_id} damaged: {exc}")
        for attempt_id, row in rows.items():  # unreported ones too (killed before the print)
            if attempt_id in reported:
                continue
            try:
                AnswerScore.from_dict(json.loads(row[2]))
                json.loads(row[1])
            except Exception as exc:
                figures.attempts_lost += 1
                figures.problems.append(f"unreported attempt {attempt_id} damaged: {exc}")
        attached = set()
        for attempt_id in rows:
            path = store.attempt(attempt_id).summary.recording_path
            if path is None:
                continue
            attached.add(path)
            if not path.exists():
                figures.problems.append(f"attempt {attempt_id} points at missing {path}")
                figures.attempts_lost += 1
        orphans = {o.path for o in store.orphan_recordings()}
        on_disk = {
            p.absolute()
            for p in store.recordings_dir.rglob("*")
            if p.is_file() and p.suffix.lower() in (".flac", ".wav", ".ogg", ".mp3")
        }
        figures.recordings_on_disk = len(on_disk)
        missing = on_disk - attached - orphans
        for p in missing:
            figures.problems.append(f"recording {p} neither attached nor an orphan")
    return orphans


def run(
    kills: int,
    home: Path,
    *,
    seed: int | None = None,
    answers_dir: Path | None = None,
    recover_at_end: bool = True,
    log=print,
    deadline: float | None = None,
    on_kill=None,
    targets: list[str] | None = None,
) -> Figures:
    """``deadline`` (a ``time.time()``): stop killing then and go on to recovery.
    ``on_kill(figures)`` is called after each kill's checks (to save figures as they come)."""
    rng = random.Random(seed)
    answers = make_answers(answers_dir or home.parent / "crash-answers")
    home.mkdir(parents=True, exist_ok=True)
    os.environ["SAYITOUT_HOME"] = str(home)
    figures = Figures()
    reported: dict[int, tuple[str, str]] = {}
    started = time.monotonic()
    cmd = [sys.executable, str(DRIVER)] + [f"--answer={q}={p}" for q, p in answers.items()]
    names = list(targets or TARGETS)
    for i in range(kills):
        if deadline is not None and time.time() >= deadline:
            log(f"deadline reached after {i} kills")
            break
        target = names[i % len(names)] if i < len(names) else rng.choice(names)
        marker, max_delay = TARGETS[target]
        occurrence = 2 if target != "random" and rng.random() < 0.25 else 1
        voice = "piper" if target in ("speaking", "random") else "none"
        extra = [f"--die-in-save={rng.uniform(0, 6):.2f}"] if target == "inside-save" else []
        proc = subprocess.Popen(
            [*cmd, f"--voice={voice}", *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=_driver_env(home),
            start_new_session=True,
        )
        reader = _Reader(proc)
        if target == "inside-save":  # it kills itself
            try:
                proc.wait(timeout=180)
                reached = True
            except subprocess.TimeoutExpired:
                reached = False
        else:
            reached = reader.wait_for(marker, occurrence, timeout=180)
            if reached:
                time.sleep(rng.uniform(0, max_delay))
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        lines = reader.finish()
        phase = _phase_of(lines) if reached else "timeout"
        if not reached:
            figures.problems.append(f"kill {i + 1}: never reached {marker!r}: {lines[-3:]}")
        for ln in lines:
            if ln.startswith("SAVED "):
                _, aid, qid, path = ln.split(" ", 3)
                reported[int(aid)] = (qid, path)
            elif ln.startswith("FAILED "):
                figures.problems.append(f"kill {i + 1}: driver said {ln}")
        figures.kills += 1
        figures.targets[target] += 1
        figures.kills_by_phase[phase] += 1
        figures.attempts_reported = len(reported)
        orphans = check_home(home, reported, figures)
        log(
            f"kill {i + 1}/{kills}: target {target} #{occurrence}, killed while {phase}; "
            f"{len(reported)} attempts reported, {len(orphans)} orphans, "
            f"lost {figures.attempts_lost}"
        )
        if on_kill is not None:
            figures.seconds = time.monotonic() - started
            on_kill(figures)
    if recover_at_end:
        from sayitout.recovery import Outcome, recover
        from sayitout.store import Store

        with Store.open() as store:
            results = recover(store)
        figures.orphans_found = len(results)
        for r in results:
            figures.orphan_outcomes[r.outcome.value] += 1
            if r.outcome is Outcome.RECOVERED:
                figures.orphans_recovered += 1
            else:
                figures.orphans_unusable += 1
            if r.outcome is Outcome.FAILED:
                figures.problems.append(f"recovery of {r.path.name} failed: {r.message}")
        left = check_home(home, reported, figures)
        kept = sum(r.outcome is not Outcome.RECOVERED and not r.discarded for r in results)
        if len(left) != kept:
            figures.problems.append(f"{len(left)} orphans left after recovery")
    figures.seconds = time.monotonic() - started
    return figures
