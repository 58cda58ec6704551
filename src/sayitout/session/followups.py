"""Follow-up questions: which to ask after an answer, and what the reply earns.

An interviewer probes what an answer left out. After an answer is scored, the key points
it missed that have a follow-up in the rubric are asked about, heaviest first (a partly
made point comes after the missed ones). The reply is scored against that one key point;
what it earns counts as *prompted* credit, worth ``PROMPTED_WORTH`` of the same point made
unprompted, and is added to the answer's score. A reply that also makes another point the
answer lacked, in full and without stating a misconception, earns that point's prompted
credit too (*volunteered*), and is not asked about it again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING

from sayitout.scoring.matching import Params
from sayitout.scoring.numbers import states_point_value
from sayitout.scoring.result import AnswerScore, FollowUpResult, KeyPointResult, status_credit
from sayitout.scoring.verdict import verdict

if TYPE_CHECKING:
    from sayitout.bank.models import KeyPoint, Rubric
    from sayitout.session.ports import AnswerScorer
    from sayitout.speech.transcript import Transcript

PROMPTED_WORTH = 0.6
"""A point made only when asked about it earns this share of its unprompted credit."""
FOLLOW_UP_ANSWER_S = 60.0
"""Answer time for a follow-up reply (it is about one point)."""


def follow_up_candidates(score: AnswerScore, rubric: Rubric) -> Iterator[tuple[KeyPoint, str]]:
    """``(key point, follow-up question)`` in the order an interviewer would ask them:
    missed points before partly made ones, heavier first, then rubric order; each point's
    follow-ups in the order written. A point whose value the answer already states is
    not asked about."""
    status = {kp.id: kp.status for kp in score.key_points}
    rank = {"missed": 0, "partial": 1}
    gaps = [
        (rank[status[kp.id]], -kp.weight, i, kp)
        for i, kp in enumerate(rubric.key_points)
        if kp.follow_ups
        and status.get(kp.id) in rank
        # the answer already gave the value the point turns on ("about 2.3" for "the
        # loss is minus log of one tenth, ln 10"): asking for it again is asking what
        # the candidate just said
        and not states_point_value(score.answer, (kp.text, *kp.paraphrases), rubric.question)
    ]
    for *_, kp in sorted(gaps, key=lambda g: g[:3]):
        for text in kp.follow_ups:
            yield kp, text


def credit_for(
    rubric: Rubric,
    kp: KeyPoint,
    status: str,
    params: Params | None = None,
    *,
    earned: float | None = None,
) -> float:
    """Points (0..100) a reply that makes ``kp`` with ``status`` adds, prompted.

    ``earned`` is the graded credit (0..1) the scorer gave the reply for ``kp``; without
    it, the fixed credit of ``status`` (as for scores stored before graded credit)."""
    params = params or Params()
    total = sum(k.weight for k in rubric.key_points)
    if total <= 0 or status == "missed":
        return 0.0
    value = earned if earned is not None else status_credit(status)
    share = (1 - params.numeric_share) if rubric.numeric is not None else 1.0
    return 100.0 * PROMPTED_WORTH * share * value * kp.weight / total


def already_credited(score: AnswerScore, kp_id: str) -> bool:
    """Whether an earlier follow-up already earned full credit for ``kp_id``."""
    return any(f.key_point_id == kp_id and f.status == "covered" for f in score.follow_ups)


def score_reply(
    scorer: AnswerScorer,
    rubric: Rubric,
    kp: KeyPoint,
    question: str,
    reply: Transcript | None,
    *,
    recording: str | None = None,
    answer: AnswerScore | None = None,
) -> list[FollowUpResult]:
    """Judge ``reply`` (None: the candidate passed) against ``kp``, then against the other
    points ``answer`` lacked: the asked point's result first, then any volunteered ones.

    The rubric's misconceptions stay in, so a reply that states the point the wrong way
    round is not credited; numbers are left out (the question is about this one point).
    A reply that states the value the point turns on (and the follow-up question does not
    give) covers it, however short: the similarity kept is still the embedding match.
    The asked point is judged on its own, as if the rubric had no other point, so what
    the other points are does not change its credit.
    """
    if reply is None or reply.is_empty:
        return [FollowUpResult(kp.id, question, "", "missed", 0.0, None, 0.0, recording, None)]
    focused = rubric.model_copy(update={"key_points": [kp], "numeric": None, "question": question})
    result = scorer.score(focused, reply)
    point = next((p for p in result.key_points if p.id == kp.id), None)
    stated_wrong = bool(result.misconceptions)
    # "One tenth." answers "what probability does the true class get?" in full, but is
    # too short to resemble the key point's sentence: the value it states decides.
    if (
        point is not None
        and point.status != "covered"
        and not stated_wrong
        and states_point_value(reply.text, (kp.text, *kp.paraphrases), question)
    ):
        point = dataclasses.replace(
            point,
            status="covered",
            credit=1.0,
            evidence=reply.text,
            evidence_span=(0, len(reply.text)),
        )
    status = point.status if point is not None else "missed"
    if stated_wrong and status == "covered":
        status = "partial"
    asked = FollowUpResult(
        key_point_id=kp.id,
        question=question,
        answer=reply.text,
        status=status,
        similarity=point.similarity if point is not None else 0.0,
        evidence=point.evidence if point is not None else None,
        credit=credit_for(rubric, kp, status, earned=_earned(point, stated_wrong)),
        recording=recording,
        duration_s=reply.duration,
    )
    if answer is None or stated_wrong:
        return [asked]
    return [asked, *_volunteered(scorer, rubric, kp, question, reply, answer)]


def _volunteered(
    scorer: AnswerScorer,
    rubric: Rubric,
    asked: KeyPoint,
    question: str,
    reply: Transcript,
    answer: AnswerScore,
) -> list[FollowUpResult]:
    """The other points ``answer`` lacked that ``reply`` makes in full ("one tenth, so
    the loss is minus log of a tenth" asked only for the tenth)."""
    status = {k.id: k.status for k in answer.key_points}
    done = answer.prompted_points
    open_points = [
        k
        for k in rubric.key_points
        if k.id != asked.id and status.get(k.id) in ("missed", "partial") and k.id not in done
    ]
    if not open_points:
        return []
    focused = rubric.model_copy(
        update={"key_points": open_points, "numeric": None, "question": question}
    )
    result = scorer.score(focused, reply)
    if result.misconceptions:
        return []
    by_id = {k.id: k for k in open_points}
    return [
        FollowUpResult(
            key_point_id=p.id,
            question=question,
            answer=reply.text,
            status="covered",
            similarity=p.similarity,
            evidence=p.evidence,
            credit=credit_for(rubric, by_id[p.id], "covered", earned=p.earned),
            duration_s=reply.duration,
            volunteered=True,
        )
        for p in result.key_points
        if p.status == "covered" and p.id in by_id
    ]


def _earned(point: KeyPointResult | None, stated_wrong: bool) -> float | None:
    """The reply's graded credit for the point; half at most when it also states a
    misconception."""
    if point is None:
        return None
    return min(point.earned, 0.5) if stated_wrong else point.earned


def with_follow_up(score: AnswerScore, result: FollowUpResult) -> AnswerScore:
    """``score`` with the follow-up added: its prompted credit is added (capped at 100)
    and ``result.credit`` becomes what was actually added."""
    earned = min(100 - score.score, round(result.credit))
    result = dataclasses.replace(result, credit=float(max(0, earned)))
    score = dataclasses.replace(
        score, score=score.score + int(result.credit), follow_ups=(*score.follow_ups, result)
    )
    if score.failed is not None:
        return score
    # the line names what to work on: a point made when prompted is no longer "missed"
    line = verdict(
        score.answer,
        score.key_points,
        score.numeric,
        score.misconceptions,
        prompted=score.prompted_points,
        answers_other=score.answers_other,
        full=score.score >= 100,
    )
    return dataclasses.replace(score, verdict=line)


def carry_follow_ups(score: AnswerScore, earlier: AnswerScore) -> AnswerScore:
    """``score`` (a rescore of a corrected answer) with the earlier score's follow-up
    replies added back: those turns still happened. A point the corrected answer now
    covers unprompted earns nothing more from its follow-up."""
    covered = {kp.id for kp in score.key_points if kp.status == "covered"}
    for follow_up in earlier.follow_ups:
        if follow_up.key_point_id not in covered:
            score = with_follow_up(score, follow_up)
    return score
