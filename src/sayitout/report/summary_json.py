"""The JSON report: the figures the HTML report shows, then every attempt.

``schema_version`` changes when a field is renamed or removed (adding one does not).
Version 1::

    {"schema": "sayitout.report", "schema_version": 1, "generated_at": ISO,
     "filters": "deck demo, since ...",
     "summary": {answers, questions, sessions, mean_score, first_mean, recent_mean,
                 speaking_s, mean_wpm, mean_fillers_per_min, first_at, last_at},
     "series": {"bucket": "session|day|week", "score": [...], "wpm": [...],
                "fillers_per_min": [...]},        # each point: at, mean, low, high, answers
     "topics": [{topic, mean_score, answers}], "topic_label": "topic|deck",
     "most_missed": [{question_id, key_point, missed, seen}],
     "strongest": [...], "weakest": [...],        # per question: latest, best, mean, ...
     "attempts": [one row per attempt, the CSV's columns]}
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sayitout.report.data import Point, QuestionLine, ReportData

SCHEMA = "sayitout.report"
SCHEMA_VERSION = 1


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _round(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def _points(points: list[Point]) -> list[dict[str, Any]]:
    return [
        {
            "at": _iso(p.at),
            "mean": _round(p.value),
            "low": _round(p.low),
            "high": _round(p.high),
            "answers": p.count,
        }
        for p in points
    ]


def _question(q: QuestionLine) -> dict[str, Any]:
    return {
        "question_id": q.question_id,
        "question": q.question,
        "deck": q.deck,
        "attempts": q.attempts,
        "latest_score": q.latest_score,
        "best_score": q.best_score,
        "mean_score": _round(q.mean_score),
        "first_score": q.first_score,
        "latest_at": _iso(q.latest_at),
    }


def report_dict(data: ReportData, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "generated_at": _iso(data.generated_at),
        "filters": data.filter_text,
        "summary": {
            "answers": data.attempts,
            "questions": data.questions,
            "sessions": data.sessions,
            "mean_score": _round(data.mean_score),
            "first_mean": _round(data.first_mean),
            "recent_mean": _round(data.recent_mean),
            "speaking_s": _round(data.speaking_s, 1),
            "mean_wpm": _round(data.mean_wpm, 1),
            "mean_fillers_per_min": _round(data.mean_fillers),
            "first_at": _iso(data.first_at),
            "last_at": _iso(data.last_at),
        },
        "series": {
            "bucket": data.bucket,
            "score": _points(data.score_series),
            "wpm": _points(data.wpm_series),
            "fillers_per_min": _points(data.filler_series),
        },
        "topic_label": data.topic_label,
        "topics": [
            {"topic": t, "mean_score": _round(m), "answers": n} for t, m, n in data.topic_scores
        ],
        "most_missed": [
            {
                "question_id": m.miss.question_id,
                "key_point": m.miss.text,
                "missed": m.miss.missed,
                "seen": m.miss.seen,
            }
            for m in data.missed
        ],
        "strongest": [_question(q) for q in data.strongest],
        "weakest": [_question(q) for q in data.weakest],
        "attempts": rows,
    }


def render_report_json(data: ReportData, rows: list[dict[str, Any]]) -> str:
    return json.dumps(report_dict(data, rows), indent=1, ensure_ascii=False) + "\n"
