from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from sayitout.errors import UsageError
from sayitout.report.export import default_report_name, resolve_output, sanitize_filename


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("report.html", "report.html"),
        ("../../etc/passwd", "etc-passwd"),
        ("a/b\\c.md", "a-b-c.md"),
        ("..", "report"),
        (".hidden.csv", "hidden.csv"),
        ('my:"report"?<>|*.json', "my-report.json"),
        ("CON.html", "_CON.html"),
        ("nul", "_nul"),
        ("bad\x00name\n.md", "bad-name.md"),
        ("   ", "report"),
    ],
)
def test_sanitize_filename(raw: str, clean: str) -> None:
    assert sanitize_filename(raw) == clean


def test_long_names_keep_their_extension() -> None:
    name = sanitize_filename("é" * 300 + ".html")
    assert name.endswith(".html") and len(name.encode()) <= 200


def test_default_name_includes_a_sanitised_deck() -> None:
    assert (
        default_report_name("html", None, date(2026, 11, 30)) == "sayitout-report-2026-11-30.html"
    )
    assert (
        default_report_name("csv", "../deck", date(2026, 1, 2))
        == "sayitout-report-deck-2026-01-02.csv"
    )


def test_resolve_output(tmp_path: Path) -> None:
    assert resolve_output("md", tmp_path / "notes") == tmp_path / "notes.md"
    assert resolve_output("html", tmp_path / "x.htm") == tmp_path / "x.htm"
    assert resolve_output("json", tmp_path).parent == tmp_path  # a folder gets the default name
    with pytest.raises(UsageError, match="does not exist"):
        resolve_output("md", tmp_path / "missing" / "r.md")
    with pytest.raises(UsageError):
        resolve_output("pdf", None)
