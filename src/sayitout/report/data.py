"""Everything a report shows, computed once from the store; the renderers only format it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from statistics import fmean

from sayitout.coach.ledger import Ledger, build_ledger
from sayitout.report.rows import Filters, QuestionInfo, no_info
from sayitout.store import (
    AttemptFilter,
    AttemptRecord,
    AttemptSummary,
    KeyPointMiss,
    Store,
    session_score,
)

Progress = Callable[[float, str], None]
"""``progress(fraction 0..1, what is happening)``."""

MAX_POINTS_PER_ATTEMPT = 60
"""Up to this many attempts, charts plot one point per session (with its spread); beyond,
one point per day or week."""
TOP_N = 5


def no_progress(_fraction: float, _stage: str) -> None:
    pass


@dataclass(frozen=True)
class Point:
    at: datetime
    value: float
    count: int
    """How many attempts the point summarises."""
    low: float | None = None
    high: float | None = None
    """The lowest and highest attempt the point summarises (its spread), when several."""


@dataclass(frozen=True)
class QuestionLine:
    question_id: str
    question: str
    deck: str
    attempts: int
    latest_score: int
    best_score: int
    mean_score: float
    first_score: int
    latest_attempt_id: int
    latest_at: datetime

    @property
    def change(self) -> int:
        return self.latest_score - self.first_score


@dataclass(frozen=True)
class Missed:
    miss: KeyPointMiss
    question: str


@dataclass
class ReportData:
    generated_at: datetime
    filters: Filters
    filter_text: str
    attempts: int = 0
    sessions: int = 0
    questions: int = 0
    first_at: datetime | None = None
    last_at: datetime | None = None
    mean_score: float | None = None
    first_mean: float | None = None
    """Mean of the first 10 % of attempts (at least 1): where the candidate started."""
    recent_mean: float | None = None
    """Mean of the last 10 % of attempts: where they are now."""
    recent_count: int = 0
    """How many attempts ``first_mean`` and ``recent_mean`` each average."""
    outside_sessions: int = 0
    """Attempts scored outside a practice session (``sayitout score --save``)."""
    speaking_s: float = 0.0
    bucket: str = "session"
    """What one chart point stands for: ``session``, ``day`` or ``week`` (attempts made
    outside a session, from the command line, are grouped by day)."""
    score_series: list[Point] = field(default_factory=list)
    wpm_series: list[Point] = field(default_factory=list)
    filler_series: list[Point] = field(default_factory=list)
    mean_wpm: float | None = None
    mean_fillers: float | None = None
    topic_scores: list[tuple[str, float, int]] = field(default_factory=list)
    """``(topic, mean score, attempts)``, weakest first."""
    topic_label: str = "topic"
    missed: list[Missed] = field(default_factory=list)
    strongest: list[QuestionLine] = field(default_factory=list)
    weakest: list[QuestionLine] = field(default_factory=list)
    latest: dict[str, AttemptRecord] = field(default_factory=dict)
    """Latest attempt of each strongest/weakest question, by question id."""
    question_text: dict[str, str] = field(default_factory=dict)
    ledger: Ledger | None = None
    """The coach's mistake ledger for the report's deck (recent attempts)."""
    session_score: float | None = None
    """The latest session's score (:mod:`sayitout.store.session_score`): the mean of each
    question's best attempt in it; ``None`` when no attempt was made in a session."""
    scorer_changes: list[tuple[datetime, str]] = field(default_factory=list)
    """``(from when, scorer version)`` each time the scorer behind the scores changes,
    oldest first (``""``: a scorer from before versions were recorded); empty when one
    scorer made every score."""

    @property
    def empty(self) -> bool:
        return self.attempts == 0

    @property
    def scorer_note(self) -> str:
        """One sentence on where the scorer changed, or ``""``."""
        if not self.scorer_changes:
            return ""
        parts = [
            f"from {when.astimezone():%Y-%m-%d %H:%M} by "
            + (f"scorer {version}" if version else "an earlier, unrecorded scorer")
            for when, version in self.scorer_changes
        ]
        return (
            "The scorer changed over this period: scores were made "
            + "; ".join(parts)
            + ". Run 'sayitout rescore' to score every answer with the current scorer."
        )


def describe(filters: Filters, topic: str | None = None) -> str:
    parts = []
    if filters.deck:
        parts.append(f"deck {filters.deck}")
    if topic:
        parts.append(f"topic {topic}")
    if filters.question_id:
        parts.append(f"question {filters.question_id}")
    if filters.since:
        parts.append(f"since {filters.since.astimezone():%Y-%m-%d %H:%M}")
    if filters.until:
        parts.append(f"until {filters.until.astimezone():%Y-%m-%d %H:%M}")
    return ", ".join(parts) or "all attempts"


def collect(
    store: Store,
    filters: Filters,
    info: QuestionInfo = no_info,
    *,
    progress: Progress = no_progress,
    topic: str | None = None,
    now: datetime | None = None,
) -> ReportData:
    """Read the store once and compute every figure, series and table the reports show."""
    data = ReportData(now or datetime.now(UTC), filters, describe(filters, topic))
    progress(0.05, "reading attempts")
    rows = store.attempts(filters, oldest_first=True)
    if not rows:
        progress(1.0, "done")
        return data
    progress(0.35, "summarising")
    scores = [r.score for r in rows]
    data.attempts = len(rows)
    data.sessions = len({r.session_id for r in rows if r.session_id is not None})
    data.first_at, data.last_at = rows[0].created_at, rows[-1].created_at
    data.mean_score = fmean(scores)
    tenth = max(1, len(rows) // 10)
    data.first_mean, data.recent_mean = fmean(scores[:tenth]), fmean(scores[-tenth:])
    data.recent_count = tenth
    data.outside_sessions = sum(1 for r in rows if r.session_id is None)
    data.speaking_s = sum(r.duration_s or 0.0 for r in rows)
    wpms = [r.wpm for r in rows if r.wpm]
    fills = [r.fillers_per_min for r in rows if r.fillers_per_min is not None and r.wpm]
    data.mean_wpm = fmean(wpms) if wpms else None
    data.mean_fillers = fmean(fills) if fills else None

    data.bucket = _bucket_kind(rows)
    data.score_series = _series(rows, data.bucket, lambda r: float(r.score))
    data.wpm_series = _series(rows, data.bucket, lambda r: r.wpm if r.wpm else None)
    data.filler_series = _series(rows, data.bucket, lambda r: r.fillers_per_min if r.wpm else None)
    progress(0.5, "scoring topics")
    data.topic_scores, data.topic_label = _topic_scores(rows, info)
    per_question = _question_lines(rows, info)
    data.questions = len(per_question)
    data.question_text = {q.question_id: q.question for q in per_question}
    data.strongest, data.weakest = _strong_weak(per_question)
    progress(0.6, "finding missed key points")
    data.missed = [
        Missed(m, info(m.question_id)[0])
        for m in store.key_point_misses(
            AttemptFilter(
                deck=filters.deck, since=filters.since, question_ids=filters.question_scope()
            ),
            limit=10,
        )
    ]
    progress(0.65, "building the mistake ledger")
    data.ledger = build_ledger(store, deck=filters.deck)
    progress(0.7, "reading latest answers")
    for line in [*data.strongest, *data.weakest]:
        data.latest[line.question_id] = store.attempt(line.latest_attempt_id)
    data.session_score = _latest_session_score(rows)
    data.scorer_changes = _scorer_changes(rows)
    progress(0.8, "drawing")
    return data


def _latest_session_score(rows: list[AttemptSummary]) -> float | None:
    in_sessions = [r for r in rows if r.session_id is not None]
    if not in_sessions:
        return None
    latest = in_sessions[-1].session_id
    return session_score((r.question_id, r.score) for r in in_sessions if r.session_id == latest)


def _scorer_changes(rows: list[AttemptSummary]) -> list[tuple[datetime, str]]:
    changes: list[tuple[datetime, str]] = []
    for r in rows:  # oldest first
        if not changes or changes[-1][1] != r.scorer_version:
            changes.append((r.created_at, r.scorer_version))
    return changes if len(changes) > 1 else []


def point_label(data: ReportData) -> str:
    """What one chart point stands for: "session", "day" or "week" (a report of answers
    scored only from the command line has no sessions: its points are days)."""
    if data.bucket == "session" and data.sessions == 0:
        return "day"
    return data.bucket


def point_note(data: ReportData) -> str:
    """A clause for the chart caption when sessions and command-line answers are mixed."""
    if data.bucket == "session" and data.sessions and data.outside_sessions:
        return "; answers scored outside a session are grouped by day"
    return ""


def _bucket_kind(rows: list[AttemptSummary]) -> str:
    if len(rows) <= MAX_POINTS_PER_ATTEMPT:
        return "session"
    span = rows[-1].created_at - rows[0].created_at
    return "day" if span <= timedelta(days=120) else "week"


def _bucket_start(moment: datetime, kind: str) -> datetime:
    local = moment.astimezone()
    day = local.replace(hour=0, minute=0, second=0, microsecond=0)
    if kind == "week":
        day -= timedelta(days=day.weekday())
    return day


def _series(
    rows: list[AttemptSummary], kind: str, value: Callable[[AttemptSummary], float | None]
) -> list[Point]:
    """One point per session, day or week: the mean, with the lowest and highest value.

    A session's point sits at its first attempt; plotting every attempt instead drew a
    sawtooth (a strong and a weak answer in the same sitting)."""
    groups: dict[object, list[float]] = defaultdict(list)
    starts: dict[object, datetime] = {}
    for r in rows:
        v = value(r)
        if v is None:
            continue
        if kind == "session":
            key: object = (
                ("s", r.session_id)
                if r.session_id is not None
                else ("d", _bucket_start(r.created_at, "day"))
            )
            starts.setdefault(key, r.created_at)
        else:
            key = _bucket_start(r.created_at, kind)
            starts.setdefault(key, key)
        groups[key].append(v)
    points = [Point(starts[k], fmean(vs), len(vs), min(vs), max(vs)) for k, vs in groups.items()]
    return sorted(points, key=lambda p: p.at)


def _topic_scores(
    rows: list[AttemptSummary], info: QuestionInfo
) -> tuple[list[tuple[str, float, int]], str]:
    by_topic: dict[str, list[int]] = defaultdict(list)
    for r in rows:
        for t in info(r.question_id)[1]:
            by_topic[t].append(r.score)
    label = "topic"
    if not by_topic:  # no bank (or no topics): group by deck instead
        label = "deck"
        for r in rows:
            by_topic[r.deck].append(r.score)
    out = [(t, fmean(v), len(v)) for t, v in by_topic.items()]
    return sorted(out, key=lambda x: (x[1], x[0])), label


def _question_lines(rows: list[AttemptSummary], info: QuestionInfo) -> list[QuestionLine]:
    groups: dict[str, list[AttemptSummary]] = defaultdict(list)
    for r in rows:
        groups[r.question_id].append(r)
    out = []
    for qid, rs in groups.items():
        scores = [r.score for r in rs]
        out.append(
            QuestionLine(
                question_id=qid,
                question=info(qid)[0],
                deck=rs[-1].deck,
                attempts=len(rs),
                latest_score=rs[-1].score,
                best_score=max(scores),
                mean_score=fmean(scores),
                first_score=rs[0].score,
                latest_attempt_id=rs[-1].id,
                latest_at=rs[-1].created_at,
            )
        )
    return out


def _strong_weak(lines: list[QuestionLine]) -> tuple[list[QuestionLine], list[QuestionLine]]:
    """Ranked by the latest score (where the candidate is now), then by the mean."""
    ranked = sorted(lines, key=lambda q: (-q.latest_score, -q.mean_score, q.question_id))
    n = min(TOP_N, (len(ranked) + 1) // 2)
    strongest = ranked[:n]
    weakest = [q for q in reversed(ranked) if q not in strongest][:TOP_N]
    return strongest, weakest
