"""The catalogue of bad inputs: one table, read by the tests and by ``render_doc.py``.

Each :class:`Case` builds its bad input under a temporary directory and returns the
``sayitout`` arguments (and environment changes) that feed it to the real CLI. The
test runs it in-process (``sayitout.cli.main``) and checks: the exit code, that the
output names the file or thing and the problem (``expect``: substrings, any case),
and that no ``Traceback`` appears. ``subprocess=True`` cases run as a real process.

Exit codes: 0 handled (the input is odd but usable, or nothing to do), 2 bad input
from the user (a usage error: a wrong argument, file or value), 1 an environment
fault (the data dir or disk cannot be used, a model missing).
"""

from __future__ import annotations

import math
import wave
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

Build = Callable[[Path], "tuple[list[str], dict[str, str]]"]

GOOD_DECK = """\
id: mine
title: My deck
questions:
- id: mine-open
  text: Why do we normalise inputs?
  kind: open
  topics: [data]
- id: mine-number
  text: How much memory do the fp32 weights of a 1B parameter model take?
  kind: numeric
  topics: [memory]
"""

GOOD_OPEN_RUBRIC = """\
question_id: mine-open
key_points:
- id: scale
  text: Features on similar scales make the loss surface better conditioned.
  weight: 2
- id: speed
  text: Optimisation converges faster.
model_answer: Normalising puts features on similar scales so training converges faster.
"""

GOOD_NUMBER_RUBRIC = """\
question_id: mine-number
key_points:
- id: four-bytes
  text: Each fp32 parameter takes four bytes.
numeric:
  value: 4
  tolerance: 0.1
  unit: GB
  accept_units: [gigabytes]
model_answer: Four bytes per parameter, so four gigabytes.
"""


@dataclass(frozen=True)
class Case:
    id: str
    category: str
    input: str
    """What the bad input is, for the docs."""
    build: Build
    exit: int
    expect: tuple[str, ...]
    """Substrings (any case) the output must contain: the file or thing, and the problem."""
    handling: str
    """What sayitout does, for the docs."""
    subprocess: bool = False
    slow: bool = False
    """Loads the speech model."""
    env: dict[str, str] = field(default_factory=dict)
    stdin: bytes = b""
    """What the command reads on standard input."""
    after: Callable[[Path], str | None] | None = None
    """A check after the run (e.g. nothing left behind): None, or what is wrong."""


# ----------------------------------------------------------------------------- helpers


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def bank(
    tmp: Path, deck: str | bytes = GOOD_DECK, rubrics: dict[str, str | bytes] | None = None
) -> Path:
    root = tmp / "bank"
    write(root / "question_bank" / "mine.yaml", deck)
    rubrics = (
        {"mine-open": GOOD_OPEN_RUBRIC, "mine-number": GOOD_NUMBER_RUBRIC}
        if rubrics is None
        else rubrics
    )
    for qid, text in rubrics.items():
        write(root / "rubrics" / "mine" / f"{qid}.yaml", text)
    return root


def check_bank(**kw: object) -> Build:
    def build(tmp: Path) -> tuple[list[str], dict[str, str]]:
        return ["check", "--bank", str(bank(tmp, **kw))], {}  # type: ignore[arg-type]

    return build


def wav(path: Path, audio: np.ndarray, rate: int, channels: int = 1) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (np.clip(audio, -1, 1) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(data.tobytes())
    return path


def tone(seconds: float, rate: int, channels: int = 1) -> np.ndarray:
    t = np.arange(round(seconds * rate)) / rate
    mono = 0.2 * np.sin(2 * math.pi * 220 * t) * (np.sin(2 * math.pi * 3 * t) > 0)
    return np.repeat(mono[:, None], channels, axis=1).reshape(-1) if channels > 1 else mono


def speech(rate: int, channels: int = 1) -> np.ndarray:
    """A short spoken sentence (the bundled piper voice) at ``rate``, ``channels``."""
    from sayitout.speech.audio.resample import resample
    from support.speech_synth import speak_answer

    audio = resample(speak_answer("The horizon seems extremely distant."), 16000, rate)
    return np.repeat(audio[:, None], channels, axis=1).reshape(-1) if channels > 1 else audio


def transcribe(make: Callable[[Path], Path]) -> Build:
    def build(tmp: Path) -> tuple[list[str], dict[str, str]]:
        return ["transcribe", str(make(tmp))], {}

    return build


def silent_two_hour_flac(tmp: Path) -> Path:
    import soundfile as sf

    path = tmp / "two-hours.flac"
    block = np.zeros(8000 * 60, dtype=np.int16)
    with sf.SoundFile(
        str(path), "w", samplerate=8000, channels=1, format="FLAC", subtype="PCM_16"
    ) as f:
        for _ in range(120):
            f.write(block)
    return path


def config(text: str | bytes) -> Build:
    def build(tmp: Path) -> tuple[list[str], dict[str, str]]:
        return ["config", "--config", str(write(tmp / "config.toml", text))], {}

    return build


def args(*argv: str, env: dict[str, str] | None = None) -> Build:
    def build(tmp: Path) -> tuple[list[str], dict[str, str]]:
        return [a.replace("{tmp}", str(tmp)) for a in argv], {
            k: v.replace("{tmp}", str(tmp)) for k, v in (env or {}).items()
        }

    return build


def _import_file(text: str | bytes) -> Build:
    def build(tmp: Path) -> tuple[list[str], dict[str, str]]:
        f = write(tmp / "questions.txt", text)
        return ["import", str(f), "--deck", "mine", "--out", str(tmp / "out")], {}

    return build


def batch(*lines: str | bytes, extra: tuple[str, ...] = ()) -> Build:
    """``score --batch`` on a file of ``lines`` (joined with \\n) written to -o out.jsonl;
    the results are printed back so the test can check them."""

    def build(tmp: Path) -> tuple[list[str], dict[str, str]]:
        data = b"\n".join(
            x if isinstance(x, bytes) else x.encode("utf-8", "surrogatepass") for x in lines
        )
        f = write(tmp / "in.jsonl", data + b"\n")
        return ["score", "--batch", str(f), "-o", str(tmp / "out.jsonl"), *extra], {}

    return build


def batch_results(expect_lines: int, *needles: str) -> Callable[[Path], str | None]:
    """After a batch: one result per input line, in order, each holding ``needles``."""

    def check(tmp: Path) -> str | None:
        import json

        out = (tmp / "out.jsonl").read_text(encoding="utf-8").split("\n")[:-1]
        results = [json.loads(x) for x in out]
        if [r.get("line") for r in results] != list(range(1, expect_lines + 1)):
            return f"results for lines {[r.get('line') for r in results]}, not 1..{expect_lines}"
        for needle in needles:
            if needle not in (tmp / "out.jsonl").read_text(encoding="utf-8"):
                return f"{needle!r} not in the results"
        return None

    return check


def alias_bomb() -> str:
    """A 'billion laughs' deck: 9 levels of 9 aliases, 413 bytes."""
    text = "id: mine\ntitle: Bomb\na: &a [" + ",".join(['"lol"'] * 9) + "]\n"
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        text += f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]\n"
    return text + "questions:\n- id: mine-open\n  text: Why?\n  topics: *i\n"


def many_key_points(n: int) -> str:
    points = "".join(f"- id: p{i}\n  text: Point number {i} of the answer.\n" for i in range(n))
    return f"question_id: mine-open\nkey_points:\n{points}model_answer: All of them.\n"


def killed_import(tmp: Path) -> tuple[list[str], dict[str, str]]:
    """``import`` SIGKILLed by itself half-way through writing 40 rubrics; then ``check``."""
    import os
    import subprocess
    import sys
    import textwrap

    src = write(
        tmp / "questions.txt",
        "".join(f"Question {i} about topic {i}?\n\nAnswer {i} says enough.\n\n" for i in range(40)),
    )
    script = textwrap.dedent(
        f"""
        import os, signal
        from pathlib import Path
        from sayitout.bank import importer
        real, n = importer._dump, [0]
        def dump(data, header):
            n[0] += 1
            if n[0] == 20:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(data, header)
        importer._dump = dump
        importer.import_text(Path({str(src)!r}), "mine", Path({str(tmp / "out")!r}))
        """
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    proc = subprocess.run([sys.executable, "-c", script], env=env, timeout=120, check=False)
    assert proc.returncode == -9, proc.returncode
    return ["check", "--bank", str(tmp / "out")], {}


def killed_report(tmp: Path) -> tuple[list[str], dict[str, str]]:
    """``report`` sent SIGTERM while writing its file; then the folder is listed."""
    import os
    import subprocess
    import sys
    import textwrap

    out = tmp / "reports"
    out.mkdir()
    script = textwrap.dedent(
        f"""
        import os, signal, sys, time
        from sayitout.report import export
        real = os.fdopen
        class Dying:
            def __init__(self, f): self.f = f
            def __enter__(self): return self
            def __exit__(self, *a): self.f.close()
            def write(self, text):
                self.f.write(text[: len(text) // 2]); self.f.flush()
                os.kill(os.getpid(), signal.SIGTERM); time.sleep(5)
        def fdopen(fd, *a, **k):  # only the report's own temporary file dies
            f = real(fd, *a, **k)
            name = os.readlink(f"/proc/self/fd/{{fd}}")
            return Dying(f) if ".sayitout-report-" in name else f
        export.os.fdopen = fdopen
        from sayitout.cli import main
        sys.exit(main(["report", "--format", "html", "-o", {str(out / "r.html")!r}]))
        """
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root / "src"), "SAYITOUT_HOME": str(tmp / "home")}
    proc = subprocess.run([sys.executable, "-c", script], env=env, timeout=120, check=False)
    assert proc.returncode == 143, proc.returncode
    return ["report", "--format", "md", "-o", str(out / "again.md")], {
        "SAYITOUT_HOME": str(tmp / "home")
    }


def nothing_hidden(folder: str) -> Callable[[Path], str | None]:
    def check(tmp: Path) -> str | None:
        hidden = sorted(p.name for p in (tmp / folder).rglob(".*"))
        return f"left behind: {hidden}" if hidden else None

    return check


def float_wav(path: Path, bad: float) -> Path:
    import soundfile as sf

    audio = (0.2 * np.sin(np.arange(32000) / 9)).astype("float32")
    audio[16000] = bad
    path.parent.mkdir(parents=True, exist_ok=True)
    sf.write(str(path), audio, 16000, subtype="FLOAT")
    return path


_OK = '{"question_id": "dl-noisy-loss", "answer": "lower the learning rate"}'

# ------------------------------------------------------------------------------ the table

CASES: list[Case] = [
    # --- decks
    Case(
        "deck-malformed-yaml",
        "deck",
        "deck YAML with an unclosed bracket",
        check_bank(deck="id: mine\nquestions: [\n- id: a\n"),
        2,
        ("mine.yaml", "yaml"),
        "`check` names the file and line; the deck is skipped",
    ),
    Case(
        "deck-tab-indent",
        "deck",
        "deck YAML indented with a tab",
        check_bank(deck="id: mine\nquestions:\n\t- id: a\n"),
        2,
        ("mine.yaml",),
        "file and line of the YAML error",
    ),
    Case(
        "deck-wrong-type",
        "deck",
        "`answer_seconds: ninety` (text where a number belongs)",
        check_bank(
            deck=GOOD_DECK.replace("  kind: open\n", "  kind: open\n  answer_seconds: ninety\n")
        ),
        2,
        ("mine.yaml", "answer_seconds"),
        "the field and the expected type",
    ),
    Case(
        "deck-mistyped-key",
        "deck",
        "a misspelt key (`txt:` for `text:`)",
        check_bank(deck=GOOD_DECK.replace("  text: Why", "  txt: Why")),
        2,
        ("mine.yaml", "txt"),
        "the unknown key is named",
    ),
    Case(
        "deck-duplicate-ids",
        "deck",
        "two questions with the same id",
        check_bank(deck=GOOD_DECK.replace("id: mine-number", "id: mine-open")),
        2,
        ("mine.yaml", "mine-open"),
        "the duplicate id and both places",
    ),
    Case(
        "deck-empty-file",
        "deck",
        "an empty deck file",
        check_bank(deck=""),
        2,
        ("mine.yaml", "empty"),
        "says the file is empty",
    ),
    Case(
        "deck-not-utf8",
        "deck",
        "a deck saved as Latin-1 (non-UTF-8 bytes)",
        check_bank(deck=GOOD_DECK.replace("normalise", "normalis\xe9").encode("latin-1")),
        2,
        ("mine.yaml", "utf-8"),
        "says the file is not UTF-8",
    ),
    Case(
        "deck-bad-kind",
        "deck",
        "`kind: essay` (not open or numeric)",
        check_bank(deck=GOOD_DECK.replace("kind: open", "kind: essay")),
        2,
        ("mine.yaml", "kind"),
        "names the field and the allowed values",
    ),
    Case(
        "bank-dir-missing",
        "deck",
        "`--bank` pointing at a directory that does not exist",
        args("check", "--bank", "{tmp}/no-such-bank"),
        2,
        ("no-such-bank", "not found"),
        "usage error naming the directory",
    ),
    # --- rubrics
    Case(
        "rubric-malformed-yaml",
        "rubric",
        "rubric YAML with a broken mapping",
        check_bank(
            rubrics={
                "mine-open": "question_id: mine-open\nkey_points: {\n",
                "mine-number": GOOD_NUMBER_RUBRIC,
            }
        ),
        2,
        ("mine-open.yaml",),
        "file and line; the question cannot be practised",
    ),
    Case(
        "rubric-no-key-points",
        "rubric",
        "a rubric with an empty `key_points` list",
        check_bank(
            rubrics={
                "mine-open": "question_id: mine-open\nkey_points: []\nmodel_answer: x\n",
                "mine-number": GOOD_NUMBER_RUBRIC,
            }
        ),
        2,
        ("mine-open.yaml", "key"),
        "says a rubric needs key points",
    ),
    Case(
        "rubric-numeric-missing",
        "rubric",
        "a numeric question whose rubric has no `numeric` answer",
        check_bank(
            rubrics={
                "mine-open": GOOD_OPEN_RUBRIC,
                "mine-number": GOOD_NUMBER_RUBRIC.split("numeric:")[0] + "model_answer: four\n",
            }
        ),
        2,
        ("mine-number.yaml", "numeric"),
        "asks for the numeric block with value, tolerance, unit",
    ),
    Case(
        "rubric-numeric-mistake-is-right",
        "rubric",
        "a known numeric mistake within the tolerance of the right answer",
        check_bank(
            rubrics={
                "mine-open": GOOD_OPEN_RUBRIC,
                "mine-number": GOOD_NUMBER_RUBRIC.replace(
                    "  accept_units: [gigabytes]\n",
                    "  accept_units: [gigabytes]\n  mistakes:\n  - value: 4.05\n    why: a slip\n",
                ),
            }
        ),
        2,
        ("mine-number.yaml", "within the tolerance"),
        "says the mistake is the right answer and how to fix it",
    ),
    Case(
        "rubric-duplicate-key-point-ids",
        "rubric",
        "two key points with the same id",
        check_bank(
            rubrics={
                "mine-open": GOOD_OPEN_RUBRIC.replace("id: speed", "id: scale"),
                "mine-number": GOOD_NUMBER_RUBRIC,
            }
        ),
        2,
        ("mine-open.yaml", "scale"),
        "names the duplicate key point",
    ),
    Case(
        "rubric-bad-weight",
        "rubric",
        "`weight: heavy` (text where a number belongs)",
        check_bank(
            rubrics={
                "mine-open": GOOD_OPEN_RUBRIC.replace("weight: 2", "weight: heavy"),
                "mine-number": GOOD_NUMBER_RUBRIC,
            }
        ),
        2,
        ("mine-open.yaml", "weight"),
        "names the field",
    ),
    Case(
        "rubric-wrong-question",
        "rubric",
        "a rubric whose `question_id` is not in any deck",
        check_bank(
            rubrics={
                "mine-open": GOOD_OPEN_RUBRIC.replace(
                    "question_id: mine-open", "question_id: mine-nope"
                ),
                "mine-number": GOOD_NUMBER_RUBRIC,
            }
        ),
        2,
        ("mine-open.yaml", "mine-nope"),
        "the orphan rubric and the unmatched question are named",
    ),
    Case(
        "rubric-not-utf8",
        "rubric",
        "a rubric file with non-UTF-8 bytes",
        check_bank(
            rubrics={
                "mine-open": GOOD_OPEN_RUBRIC.replace("faster", "f\xe4ster").encode("latin-1"),
                "mine-number": GOOD_NUMBER_RUBRIC,
            }
        ),
        2,
        ("mine-open.yaml", "utf-8"),
        "says the file is not UTF-8",
    ),
    # --- imported question lists
    Case(
        "import-not-utf8",
        "import",
        "a question list in UTF-16",
        _import_file("What is dropout?\n\nIt zeroes activations.\n".encode("utf-16")),
        2,
        ("questions.txt",),
        "names the file and the encoding problem",
    ),
    Case(
        "import-no-questions",
        "import",
        "a text file with no question in it",
        _import_file("just some notes\nno question marks here\n"),
        2,
        ("questions.txt", "question"),
        "says no questions were found",
    ),
    Case(
        "import-missing-file",
        "import",
        "a question list that does not exist",
        args("import", "{tmp}/nope.txt", "--deck", "mine", "--out", "{tmp}/out"),
        2,
        ("nope.txt",),
        "names the missing file",
    ),
    # --- audio
    Case(
        "audio-empty",
        "audio",
        "a 0-byte .wav file",
        transcribe(lambda t: write(t / "empty.wav", b"")),
        2,
        ("empty.wav", "empty"),
        "refused: the file is empty",
    ),
    Case(
        "audio-truncated",
        "audio",
        "a WAV cut off inside its header (20 bytes)",
        transcribe(
            lambda t: write(
                t / "cut.wav", wav(t / "full.wav", tone(1, 16000), 16000).read_bytes()[:20]
            )
        ),
        2,
        ("cut.wav",),
        "refused: cannot decode, names the file",
    ),
    Case(
        "audio-not-audio",
        "audio",
        "a text file named answer.wav",
        transcribe(lambda t: write(t / "answer.wav", "this is not audio\n" * 50)),
        2,
        ("answer.wav", "decode"),
        "refused: not audio or damaged",
    ),
    Case(
        "audio-zero-seconds",
        "audio",
        "a valid WAV header with 0 samples",
        transcribe(lambda t: wav(t / "zero.wav", np.zeros(0), 16000)),
        2,
        ("zero.wav", "0 seconds"),
        "refused: holds no audio",
    ),
    Case(
        "audio-directory",
        "audio",
        "a directory given as the audio file",
        transcribe(lambda t: (t / "dir.wav").mkdir() or (t / "dir.wav")),
        2,
        ("dir.wav", "directory"),
        "refused: a directory, not a file",
    ),
    Case(
        "audio-missing",
        "audio",
        "an audio file that does not exist",
        args("transcribe", "{tmp}/gone.wav"),
        2,
        ("gone.wav", "not found"),
        "names the path",
    ),
    Case(
        "audio-silence",
        "audio",
        "3 s of silence (an empty answer)",
        transcribe(lambda t: wav(t / "quiet.wav", np.zeros(48000), 16000)),
        0,
        ("no speech",),
        "says no speech was detected; never invents text",
        slow=True,
    ),
    Case(
        "audio-8k-stereo",
        "audio",
        "an 8 kHz stereo WAV",
        transcribe(lambda t: wav(t / "stereo8k.wav", speech(8000, 2), 8000, 2)),
        0,
        ("horizon",),
        "handled: down-mixed and resampled to 16 kHz mono",
        slow=True,
    ),
    Case(
        "audio-96k",
        "audio",
        "a 96 kHz WAV",
        transcribe(lambda t: wav(t / "hi.wav", speech(96000), 96000)),
        0,
        ("horizon",),
        "handled: resampled to 16 kHz",
        slow=True,
    ),
    Case(
        "audio-two-hours",
        "audio",
        "a silent 2-hour 8 kHz FLAC",
        transcribe(silent_two_hour_flac),
        0,
        ("no speech",),
        "handled: decoded in blocks, VAD finds no speech",
        slow=True,
    ),
    # --- config
    Case(
        "config-wrong-type",
        "config",
        '`silence_timeout_s = "long"` in config.toml',
        config('[audio]\nsilence_timeout_s = "long"\n'),
        2,
        ("config.toml", "silence_timeout_s"),
        "names the file, the key and the expected type",
    ),
    Case(
        "config-unknown-key",
        "config",
        "an unknown key (`[audio] volumee = 3`)",
        config("[audio]\nvolumee = 3\n"),
        2,
        ("config.toml", "volumee"),
        "names the unknown key",
    ),
    Case(
        "config-malformed",
        "config",
        "config.toml that is not TOML",
        config("[audio\nx = \n"),
        2,
        ("config.toml", "toml"),
        "names the file and the line",
    ),
    Case(
        "config-not-utf8",
        "config",
        "config.toml with non-UTF-8 bytes",
        config(b'theme = "caf\xe9"\n'),
        2,
        ("config.toml", "utf-8"),
        "says the file is not UTF-8",
    ),
    # --- data dir
    Case(
        "home-missing",
        "data dir",
        "`SAYITOUT_HOME` that does not exist yet",
        args("history", env={"SAYITOUT_HOME": "{tmp}/new/home"}),
        0,
        (),
        "created (owner-only, 0700) and used",
    ),
    Case(
        "home-unwritable",
        "data dir",
        "`SAYITOUT_HOME` under a regular file (cannot be created)",
        lambda t: (
            write(t / "afile", "x") and ["history"],
            {"SAYITOUT_HOME": str(t / "afile" / "home")},
        ),
        1,
        ("afile",),
        "environment fault: names the directory, suggests SAYITOUT_HOME",
        subprocess=True,
    ),
    # --- command-line values
    Case(
        "unknown-question-id",
        "arguments",
        "`transcribe --question no-such-id`",
        args("transcribe", "{tmp}/x.wav", "--question", "no-such-id"),
        2,
        ("no-such-id",),
        "usage error naming the id",
    ),
    Case(
        "bad-since-date",
        "arguments",
        "`history --since yesterday-ish`",
        args("history", "--since", "yesterday-ish"),
        2,
        ("since", "yesterday-ish"),
        "usage error with the accepted format",
        subprocess=True,
    ),
    Case(
        "bad-format",
        "arguments",
        "`report --format pdf`",
        args("report", "--format", "pdf"),
        2,
        ("format", "pdf"),
        "usage error listing the formats",
    ),
    Case(
        "bad-min-score",
        "arguments",
        "`history --min-score 200`",
        args("history", "--min-score", "200"),
        2,
        ("200",),
        "usage error: scores are 0-100",
    ),
    Case(
        "unknown-attempt",
        "arguments",
        "`history --attempt 999` (no such attempt)",
        args("history", "--attempt", "999"),
        2,
        ("999",),
        "usage error naming the id",
    ),
    Case(
        "practice-count-zero",
        "arguments",
        "`practice --count 0`",
        args("practice", "--count", "0"),
        2,
        ("count",),
        "usage error before the app opens",
    ),
    Case(
        "practice-mic-file-missing",
        "arguments",
        "`practice --mic-file missing.wav`",
        args("practice", "--mic-file", "{tmp}/missing.wav"),
        2,
        ("missing.wav",),
        "usage error naming the file",
        subprocess=True,
    ),
    Case(
        "report-output-dir-missing",
        "arguments",
        "`report -o` into a directory that does not exist",
        args("report", "--format", "md", "-o", "{tmp}/no/such/dir/r.md"),
        2,
        ("r.md",),
        "names the path",
    ),
    # --- scoring from the command line
    Case(
        "score-empty-answer",
        "scoring",
        "`score dl-initial-loss --text ''` (an empty answer)",
        args("score", "dl-initial-loss", "--text", ""),
        0,
        ("nothing was said",),
        "scored 0 with the reason; every key point listed as missed",
        slow=True,
    ),
    Case(
        "score-unknown-question",
        "scoring",
        "`score no-such-id --text ...`",
        args("score", "no-such-id", "--text", "hello"),
        2,
        ("no-such-id",),
        "usage error naming the id, hint: `sayitout questions`",
        subprocess=True,
    ),
    Case(
        "score-audio-not-audio",
        "scoring",
        "`score QID --audio notes.txt` (not audio)",
        lambda t: (
            ["score", "dl-initial-loss", "--audio", str(write(t / "notes.txt", "hello\n" * 40))],
            {},
        ),
        2,
        ("notes.txt", "decode"),
        "usage error naming the file (was exit 1: fixed in score_cmds)",
    ),
    Case(
        "score-batch-bad-line",
        "scoring",
        "a batch JSONL file with an unreadable line",
        lambda t: (["score", "--batch", str(write(t / "in.jsonl", "{not json\n"))], {}),
        1,
        ("line", "not valid json"),
        "an error object for the line (line number, reason); exit 1 as some lines failed",
    ),
    Case(
        "score-batch-not-utf8",
        "scoring",
        "a batch file that is not UTF-8",
        lambda t: (["score", "--batch", str(write(t / "in.jsonl", b"\xff\xfe\n"))], {}),
        2,
        ("in.jsonl", "utf-8"),
        "usage error naming the file and the encoding",
    ),
    Case(
        "score-rubric-missing",
        "scoring",
        "`score --rubric nope.yaml`",
        args("score", "dl-initial-loss", "--rubric", "{tmp}/nope.yaml", "--text", "hi"),
        2,
        ("nope.yaml", "not found"),
        "usage error naming the file",
    ),
    Case(
        "recover-nothing",
        "arguments",
        "`recover --yes` with nothing to recover",
        args("recover", "--yes"),
        0,
        ("no unsaved recordings",),
        "says so; exit 0",
    ),
    # ---- issue 13 (inputs): batch lines, decks as untrusted input, files and terminals
    Case(
        "score-batch-wrong-types",
        "scoring",
        'batch lines of the right shape with wrong types: `"answer": {"text": 123}`, a word '
        'with `"text": null`, `"start": "a"`; then a good line',
        batch(
            '{"question_id": "dl-noisy-loss", "answer": {"text": 123}}',
            '{"question_id": "dl-noisy-loss", "answer": {"text": "x", "words": '
            '[{"text": null, "start": 0, "end": 1}]}}',
            '{"question_id": "dl-noisy-loss", "answer": {"text": "x", "words": '
            '[{"text": "x", "start": "a", "end": 1}]}}',
            _OK,
        ),
        1,
        ("3 of 4 lines",),
        "each bad line gets `{line, error}` naming the field (`answer.text`, "
        "`answer.words[0].start`); the good line is scored (was: TypeError, no output)",
        after=batch_results(4, "answer.text", "words[0].text", "words[0].start", '"score"'),
    ),
    Case(
        "score-batch-lone-surrogate",
        "scoring",
        'a batch answer holding a lone surrogate (`"\\ud800"`)',
        batch('{"question_id": "dl-noisy-loss", "answer": "lower \\ud800 the learning rate"}'),
        0,
        (),
        "the surrogate becomes U+FFFD before scoring; the line is scored (was: TypeError)",
        after=batch_results(1, '"score"'),
    ),
    Case(
        "score-batch-line-separators",
        "scoring",
        "U+2028, U+0085 and form feed inside JSON strings, CRLF line ends, a UTF-8 BOM",
        batch(
            "\ufeff" + _OK.replace("lower", "lower\u2028") + "\r",
            _OK.replace("lower", "lower\u0085"),
            _OK.replace("lower", "lower\x0c") + "\r",
        ),
        0,
        (),
        "split on `\\n` only: 3 lines, 3 results, each with its `line` (was: 4 results, "
        "wrong line numbers)",
        after=batch_results(3, '"score"'),
    ),
    Case(
        "score-batch-line-not-utf8",
        "scoring",
        "one batch line with a Latin-1 byte among good lines",
        batch(b'{"question_id": "dl-noisy-loss", "answer": "caf\xe9"}', _OK),
        1,
        ("1 of 2 lines",),
        "that line gets an error naming the byte and column; the rest are scored",
        after=batch_results(2, "not UTF-8", '"score"'),
    ),
    Case(
        "score-batch-huge-and-deep",
        "scoring",
        "batch lines with a 5,000-digit number and with 50,000 nested brackets (own inputs)",
        batch(
            '{"question_id": "dl-noisy-loss", "answer": "x", "n": ' + "1" * 5000 + "}",
            "[" * 50_000,
            '{"question_id": "dl-noisy-loss", "answer": {"text": "x", "duration": NaN}}',
        ),
        1,
        ("3 of 3 lines",),
        "each gets an error (number too long, nested too deeply, duration not finite)",
        after=batch_results(3, "4,300 digits", "nested too deeply", "finite"),
    ),
    Case(
        "score-batch-resume-no-output",
        "scoring",
        "`score --batch in.jsonl --resume` without `-o`",
        lambda t: (["score", "--batch", str(write(t / "in.jsonl", _OK)), "--resume"], {}),
        2,
        ("--resume", "-o"),
        "usage error: resuming needs the output file of the earlier run",
    ),
    Case(
        "score-batch-output-is-input",
        "scoring",
        "`score --batch in.jsonl -o in.jsonl` (own input)",
        lambda t: (
            ["score", "--batch", str(write(t / "in.jsonl", _OK)), "-o", str(t / "in.jsonl")],
            {},
        ),
        2,
        ("in.jsonl", "the batch file itself"),
        "usage error before anything is written (was: the answers were overwritten)",
    ),
    Case(
        "score-text-not-utf8",
        "scoring",
        "`--text` with an invalid UTF-8 byte (0xe9) on the command line",
        args("score", "dl-noisy-loss", "--text", "caf\udce9 lower the rate"),
        2,
        ("--text", "utf-8", "0xe9"),
        "usage error naming the byte (was: TypeError traceback)",
        subprocess=True,
    ),
    Case(
        "score-stdin-not-utf8",
        "scoring",
        "`score QID --text -` with Latin-1 bytes piped in",
        args("score", "dl-noisy-loss", "--text", "-"),
        2,
        ("stdin", "utf-8", "0xe9"),
        "usage error naming the byte, with an `iconv` fix (was: traceback)",
        subprocess=True,
        stdin=b"caf\xe9 lower the learning rate\n",
    ),
    Case(
        "deck-alias-bomb",
        "deck",
        "a 413-byte YAML alias bomb (9 levels of 9 aliases)",
        check_bank(deck=alias_bomb()),
        2,
        ("mine.yaml", "aliases", "100,000"),
        "refused at once with its line: aliases may add at most 100,000 items (was: hours "
        "at full CPU)",
    ),
    Case(
        "deck-alias-loop",
        "deck",
        "an alias inside the block it names (`questions: &q [... *q]`, own input)",
        check_bank(
            deck="id: mine\ntitle: T\nquestions: &q\n- id: mine-open\n  text: Why?\n  topics: *q\n"
        ),
        2,
        ("mine.yaml", "refers to the block"),
        "refused with its line (was: RecursionError traceback)",
    ),
    Case(
        "deck-huge-integer",
        "deck",
        "`answer_seconds:` with 5,000 digits in a user deck",
        check_bank(
            deck=GOOD_DECK.replace("  kind: open\n", "  answer_seconds: " + "9" * 5000 + "\n")
        ),
        2,
        ("mine.yaml", "5,000 digits"),
        "the file and line; the deck is skipped (was: ValueError in every command)",
    ),
    Case(
        "deck-huge-integer-questions",
        "deck",
        "the same deck in the bank of `sayitout questions`",
        lambda t: (
            [
                "questions",
                "--bank",
                str(
                    bank(
                        t,
                        deck=GOOD_DECK.replace(
                            "  kind: open\n", "  answer_seconds: " + "9" * 5000 + "\n"
                        ),
                    )
                ),
            ],
            {},
        ),
        0,
        ("dl-initial-loss", "sayitout check"),
        "the rest of the bank is listed; a note points to `sayitout check`",
    ),
    Case(
        "deck-infinite-number",
        "deck",
        "`weight: .inf` and `1.0e999` in a rubric (own input)",
        check_bank(
            rubrics={
                "mine-open": GOOD_OPEN_RUBRIC.replace("weight: 2", "weight: 1.0e999"),
                "mine-number": GOOD_NUMBER_RUBRIC.replace("value: 4", "value: .inf"),
            }
        ),
        2,
        ("mine-open.yaml", "mine-number.yaml", "not a finite number"),
        "each file and line; those questions are left out",
    ),
    Case(
        "rubric-huge-integer",
        "rubric",
        "a rubric `version:` with 5,000 digits",
        check_bank(
            rubrics={
                "mine-open": GOOD_OPEN_RUBRIC + "version: " + "7" * 5000 + "\n",
                "mine-number": GOOD_NUMBER_RUBRIC,
            }
        ),
        2,
        ("mine-open.yaml", "5,000 digits"),
        "the file and line; the other rubrics load",
    ),
    Case(
        "rubric-500-key-points",
        "rubric",
        "a rubric with 500 key points",
        check_bank(rubrics={"mine-open": many_key_points(500), "mine-number": GOOD_NUMBER_RUBRIC}),
        2,
        ("mine-open.yaml", "500 key points", "at most 20"),
        "refused at load with the limit (20 key points, 100 phrases): scoring it took 24 s",
    ),
    Case(
        "import-killed",
        "import",
        "`import` of 40 questions SIGKILLed after 19 rubrics were drafted, then `check`",
        killed_import,
        0,
        ("no problems",),
        "written to a hidden folder, then renamed: the bank is as before (was: a half deck, "
        "6,254 errors)",
        after=nothing_hidden("out/question_bank"),
    ),
    Case(
        "report-sigterm",
        "data dir",
        "`report` sent SIGTERM half-way through writing its file, then run again",
        killed_report,
        0,
        ("again.md",),
        "the temporary file is removed on SIGTERM/SIGHUP (was: a hidden `.sayitout-report-*`)",
        subprocess=True,
        after=nothing_hidden("reports"),
    ),
    Case(
        "practice-no-terminal",
        "arguments",
        "`sayitout practice < /dev/null` (no terminal)",
        args("practice"),
        2,
        ("terminal", "--mic-file", "sayitout score"),
        "exits at once naming `--mic-file` and `score` (was: never exits, 100% CPU)",
        subprocess=True,
    ),
    Case(
        "audio-nan-samples",
        "audio",
        "a float WAV with a NaN sample",
        transcribe(lambda t: float_wav(t / "nan.wav", float("nan"))),
        2,
        ("nan.wav", "nan or infinity", "1.0 s"),
        "names the file and the time (was: a message without the file)",
    ),
    Case(
        "audio-inf-samples",
        "audio",
        "`score QID --audio` of a float WAV with an infinite sample",
        lambda t: (
            ["score", "dl-noisy-loss", "--audio", str(float_wav(t / "inf.wav", float("inf")))],
            {},
        ),
        2,
        ("inf.wav", "nan or infinity"),
        "usage error naming the file",
    ),
]

# --- store helper (issue 13 §3, §5): huge numbers on the command line, locked database
CASES += [
    Case(
        "history-attempt-huge",
        "arguments",
        "`history --attempt 99999999999999999999` (beyond SQLite's integers)",
        args("history", "--attempt", "99999999999999999999"),
        2,
        ("attempt", "too large"),
        "usage error with the largest id (was an OverflowError traceback)",
    ),
    Case(
        "history-limit-huge",
        "arguments",
        "`history --limit 99999999999999999999999`",
        args("history", "--limit", "99999999999999999999999"),
        2,
        ("limit", "too large"),
        "usage error with the largest count (was an OverflowError traceback)",
    ),
    Case(
        "since-huge-age",
        "arguments",
        "`history --since 100000000d` (before the year 1)",
        args("history", "--since", "100000000d"),
        2,
        ("100000000d", "out of range"),
        "usage error with the accepted format (was an OverflowError traceback)",
        subprocess=True,
    ),
    Case(
        "report-since-huge-hours",
        "arguments",
        "`report --since 9999999999999999999999h`",
        args("report", "--format", "md", "--since", "9999999999999999999999h"),
        2,
        ("out of range",),
        "usage error (was an OverflowError traceback)",
    ),
    Case(
        "history-database-damaged",
        "data dir",
        "`history` with a `sayitout.db` that is not a database",
        lambda t: (
            write(t / "home" / "data" / "sayitout.db", b"not a database" * 200) and ["history"],
            {"SAYITOUT_HOME": str(t / "home")},
        ),
        1,
        ("sayitout.db", "not a sayitout database"),
        "environment fault: names the file, says to move it aside; nothing is overwritten",
    ),
]
