"""The answer text with the words that earned each key point marked, safely escaped."""

from __future__ import annotations

from html import escape

from sayitout.scoring.result import AnswerScore


def evidence_spans(score: AnswerScore, text: str) -> list[tuple[int, int, str, str]]:
    """``(start, end, status, key point text)``, sorted and without overlaps.

    Spans come from the scorer's ``evidence_span``; when a span is missing or does not
    fit the text (the text was corrected since), the evidence quote is searched for.
    """
    spans: list[tuple[int, int, str, str]] = []
    for kp in score.key_points:
        if kp.status == "missed" or not kp.evidence:
            continue
        start, end = kp.evidence_span or (-1, -1)
        if not (0 <= start < end <= len(text) and text[start:end] == kp.evidence):
            start = text.find(kp.evidence)
            end = start + len(kp.evidence)
        if start >= 0:
            spans.append((start, end, kp.status, kp.text))
    spans.sort()
    merged: list[tuple[int, int, str, str]] = []
    for s in spans:
        if merged and s[0] < merged[-1][1]:
            prev = merged[-1]
            if s[1] > prev[1]:
                merged[-1] = (prev[0], s[1], prev[2], prev[3] + "; " + s[3])
            else:
                merged[-1] = (prev[0], prev[1], prev[2], prev[3] + "; " + s[3])
            continue
        merged.append(s)
    return merged


def highlight_html(score: AnswerScore, text: str) -> str:
    """``text`` as HTML with ``<mark>`` around evidence; every character escaped."""
    out, pos = [], 0
    for start, end, status, kp_text in evidence_spans(score, text):
        out.append(escape(text[pos:start]))
        out.append(
            f'<mark class="{status}" title="{escape(kp_text)}">{escape(text[start:end])}</mark>'
        )
        pos = end
    out.append(escape(text[pos:]))
    return "".join(out)


def highlight_markdown(score: AnswerScore, text: str) -> str:
    """``text`` with evidence in **bold**; Markdown and HTML characters escaped."""
    out, pos = [], 0
    for start, end, _status, _kp in evidence_spans(score, text):
        out.append(_md_raw(text[pos:start]))
        raw = text[start:end]
        lead = raw[: len(raw) - len(raw.lstrip())]
        trail = raw[len(raw.rstrip()) :]
        chunk = _md_raw(raw.strip())
        out.append(f"{lead}**{chunk}**{trail}" if chunk else raw)
        pos = end
    out.append(_md_raw(text[pos:]))
    return " ".join("".join(out).split())


def _md_raw(text: str) -> str:
    """Escape without collapsing the spaces at the ends (they separate the bold parts)."""
    from sayitout.report.markdown import md_escape

    if not text.strip():
        return " " if text else ""
    lead = " " if text[0].isspace() else ""
    trail = " " if text[-1].isspace() else ""
    return lead + md_escape(text) + trail
