"""Private by design: owner-only data dir and recordings, escaped reports, safe export names."""

from __future__ import annotations

import contextlib
import io
import stat
from pathlib import Path

import numpy as np
import soundfile as sf

from reliability.results_file import record_case
from sayitout.cli import main
from sayitout.locations import locations
from sayitout.scoring.result import AnswerScore, KeyPointResult
from sayitout.speech.transcript import Transcript
from sayitout.store import Store

EVIL = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'


def _cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(argv))
    return code, out.getvalue()


def _private(path: Path) -> bool:
    return stat.S_IMODE(path.stat().st_mode) & 0o077 == 0


def test_data_dir_and_recordings_are_owner_only() -> None:
    loc = locations()
    assert not loc.data_dir.exists()
    with Store.open() as store:
        rec = store.new_recording_path("dl-fp16-nan")
        sf.write(rec, np.zeros(1600, dtype=np.float32), 16000, format="FLAC")
    # every directory from the data dir down to the recording: no access for group/others
    chain = [loc.data_dir, loc.recordings_dir, rec.parent]
    for d in chain:
        assert _private(d), f"{d} is {oct(stat.S_IMODE(d.stat().st_mode))}"
    assert _private(loc.database) or _private(loc.database.parent)
    record_case(
        "privacy",
        "data dir and recordings owner-only",
        {
            "times": 1,
            "passed": True,
            "message": "data/, recordings/, recordings/YYYY-MM/ are 0700; "
            f"recording files are {oct(stat.S_IMODE(rec.stat().st_mode))} inside them",
        },
    )


def _save_evil_attempt() -> None:
    score = AnswerScore(
        "dl-fp16-nan",
        40,
        "partial",
        (KeyPointResult("overflow", "fp16 overflows", 1.0, "covered", 0.9, EVIL, None),),
        None,
        (),
        None,
        EVIL,
        1,
        "fake",
    )
    with Store.open() as store:
        store.save_attempt(None, "dl-fp16-nan", EVIL, Transcript.typed(EVIL), score)


def test_reports_escape_user_text(tmp_path: Path) -> None:
    _save_evil_attempt()
    out = tmp_path / "r.html"
    code, text = _cli("report", "--format", "html", "-o", str(out))
    assert code == 0, text
    html = out.read_text(encoding="utf-8")
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;" in html or "&lt;img" in html
    md_out = tmp_path / "r.md"
    code, text = _cli("report", "--format", "md", "-o", str(md_out))
    assert code == 0, text
    assert "<script>" not in md_out.read_text(encoding="utf-8")
    record_case(
        "privacy",
        "HTML/Markdown report of a transcript holding `<script>`",
        {"times": 1, "passed": True, "message": "escaped (`&lt;script&gt;`), no live markup"},
    )


def test_export_paths_are_sanitised(tmp_path: Path, monkeypatch) -> None:
    _save_evil_attempt()
    monkeypatch.chdir(tmp_path)
    code, text = _cli("report", "--format", "md", "--deck", "../../etc/x<>:|?*")
    assert code == 0, text
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(written) == 1, written
    assert written[0].parent == tmp_path  # never outside the folder asked for
    assert not set(written[0].name) & set('/\\<>:|?*"'), written[0].name
    target = tmp_path / "out"
    target.mkdir()
    code, text = _cli("report", "--format", "csv", "-o", str(target / "a\x01b:c.csv"))
    assert code == 0, text
    (made,) = list(target.iterdir())
    assert "\x01" not in made.name and ":" not in made.name
    record_case(
        "privacy",
        "report names from a deck called ../../etc/x<>:|?*",
        {"times": 1, "passed": True, "message": f"written as ./{written[0].name}"},
    )
