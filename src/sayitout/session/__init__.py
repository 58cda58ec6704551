"""The practice-session engine: ask, record, transcribe, score, save, summarise.

No UI toolkit here: front ends receive :mod:`sayitout.session.events` and call
:class:`SessionEngine` commands.
"""

from sayitout.session.engine import SessionEngine
from sayitout.session.plan import SessionPlan, pick_questions
from sayitout.session.services import SessionServices
from sayitout.session.summary import SessionSummary

__all__ = ["SessionEngine", "SessionPlan", "SessionServices", "SessionSummary", "pick_questions"]
