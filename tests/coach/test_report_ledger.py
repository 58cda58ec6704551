"""The HTML report carries the mistake ledger: entries, counts, last seen, attempts."""

from __future__ import annotations

from sayitout.report.data import collect
from sayitout.report.html import render_html
from sayitout.report.rows import Filters
from support.coach import save


def test_html_report_has_the_ledger_section(store) -> None:
    a1 = save(store, "q1", ("covered", "missed"), minutes=0, misconception="only-sgd")
    a2 = save(store, "q1", ("covered", "missed"), minutes=1, misconception="only-sgd")
    page = render_html(collect(store, Filters()))
    section = page[page.index('<section id="ledger">') :]
    section = section[: section.index("</section>")]
    assert "Mistake ledger" in section
    assert "You said &quot;Warmup is only for SGD&quot;" in section
    assert "Actually: It helps Adam too" in section
    assert f"#{a2}, #{a1}" in section
    assert '<td class="n">2</td>' in section


def test_html_report_ledger_with_nothing_repeating(store) -> None:
    save(store, "q1", ("covered", "covered"), minutes=0)
    page = render_html(collect(store, Filters()))
    assert "Nothing repeats: no entries." in page


def test_markdown_report_has_the_ledger_table(store) -> None:
    from sayitout.report.markdown import render_markdown

    save(store, "q1", ("covered", "missed"), minutes=0, misconception="only-sgd")
    save(store, "q1", ("covered", "missed"), minutes=1, misconception="only-sgd")
    page = render_markdown(collect(store, Filters()))
    section = page[page.index("## Mistake ledger") :]
    assert '| You said "Warmup is only for SGD": Actually: It helps Adam too | `q1` | 2 |' in (
        section
    )
