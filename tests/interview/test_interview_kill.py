"""A mock interview killed mid-way (SIGKILL): the answers given are kept, the interview
shows as incomplete, and the next one still compares with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from sayitout.store import Store

TESTS = Path(__file__).parents[1]

DRIVER = textwrap.dedent(
    """
    import queue, time
    from support.fakes import FakeTranscriber, KeywordScorer, ScriptedMicrophones
    from sayitout.bank.loader import load_bank
    from sayitout.config import Settings
    from sayitout.session import events as ev
    from sayitout.session.interview import InterviewEngine, InterviewPlan
    from sayitout.session.services import SessionServices
    from sayitout.store import Store

    bank = load_bank(user=False)
    services = SessionServices(
        Settings(),
        bank_loader=lambda: bank,
        scorer=KeywordScorer(),
        transcriber=FakeTranscriber(),
        microphones=ScriptedMicrophones([], "no microphone"),
        speaker=None,
        store_opener=lambda: Store.open({db!r}),
    )
    events = queue.Queue()
    plan = InterviewPlan(
        question_ids=("dl-loss-stuck-at-chance", "dl-val-loss-rises", "dl-noisy-loss"),
        count=3, thinking_s=0, follow_ups=0,
    )
    engine = InterviewEngine(services, plan, events.put)
    engine.start()
    while True:
        e = events.get(timeout=60)
        if isinstance(e, ev.PhaseChanged) and e.phase is ev.Phase.AWAITING_ANSWER:
            engine.type_answer("It is at chance level, the natural log of ten.")
        if isinstance(e, ev.InterviewAnswerTaken):
            print("saved", flush=True)
            break
    time.sleep(120)  # mid-interview: question 2 is waiting for its answer
    """
)


def _kill_mid_interview(tmp_path: Path) -> Path:
    """Run the driver until its first answer is saved, then SIGKILL it; the database."""
    db = tmp_path / "db.sqlite"
    src = str(Path(__file__).parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((src, str(TESTS)))}  # support.fakes
    script = DRIVER.format(db=str(db))
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "saved"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    return db


def test_killed_interview_keeps_its_answer_and_shows_incomplete(tmp_path: Path) -> None:
    db = _kill_mid_interview(tmp_path)
    with Store.open(db) as store:
        [session] = store.sessions(include_cli=False)
        assert session.kind == "interview"
        assert session.finished_at is None  # incomplete
        assert session.attempt_count == 1
        assert session.settings["count"] == 3
        [attempt] = store.attempts()
        assert attempt.question_id == "dl-loss-stuck-at-chance" and attempt.score > 0


def test_the_next_interview_compares_with_the_killed_one_as_history_scores_it(
    tmp_path: Path,
) -> None:
    """History's session score of the killed interview is the figure the next
    interview's card compares with: one definition of a session's score."""
    db = _kill_mid_interview(tmp_path)
    with Store.open(db) as store:
        [killed] = store.sessions(include_cli=False)
    assert killed.session_score is not None

    from sayitout.bank.loader import load_bank
    from sayitout.session import events as ev
    from sayitout.session.interview import InterviewEngine, InterviewPlan
    from support.fakes import Events
    from support.tui import fake_services

    # the same database (tmp_path / "db.sqlite"), the same stand-in models
    services = fake_services(load_bank(user=False), tmp_path, mic_reason="no microphone")
    events = Events()
    plan = InterviewPlan(
        question_ids=("dl-loss-stuck-at-chance", "dl-val-loss-rises", "dl-noisy-loss"),
        count=3,
        thinking_s=0,
        follow_ups=0,
    )
    engine = InterviewEngine(services, plan, events)
    engine.start()
    events.phase(ev.Phase.AWAITING_ANSWER)
    engine.quit()
    report = events.wait(ev.InterviewFinished).report
    engine.join(5)
    assert report.previous is not None and report.previous.session_id == killed.id
    assert report.previous.overall == round(killed.session_score, 1)
