"""``docs/reliability.md`` lists every bad-input case of the catalogue, in order."""

from __future__ import annotations

from reliability.bad_inputs_catalogue import CASES
from reliability.render_doc import DOC, bad_input_ids


def test_doc_lists_every_catalogue_case() -> None:
    assert DOC.exists(), "run: PYTHONPATH=src:tests python -m reliability.render_doc"
    have = bad_input_ids(DOC.read_text(encoding="utf-8"))
    want = [c.id for c in CASES]
    missing = [c for c in want if c not in have]
    extra = [c for c in have if c not in want]
    assert not missing and not extra, (
        f"docs/reliability.md is out of date (missing {missing}, stale {extra}): "
        "run the reliability tests, then PYTHONPATH=src:tests python -m reliability.render_doc"
    )
    assert have == want
