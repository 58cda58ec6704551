"""What the history says about the candidate: the mistake ledger, the next-session focus,
and their own answer upgraded with what it missed. Reads the store; no audio, no UI."""

from sayitout.coach.focus import Drill, focus_for, next_focus
from sayitout.coach.ledger import Ledger, LedgerEntry, build_ledger, ledger_from
from sayitout.coach.upgrade import Segment, UpgradedAnswer, upgrade_answer

__all__ = [
    "Drill",
    "Ledger",
    "LedgerEntry",
    "Segment",
    "UpgradedAnswer",
    "build_ledger",
    "focus_for",
    "ledger_from",
    "next_focus",
    "upgrade_answer",
]
