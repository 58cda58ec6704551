"""What front ends ask the session engine for, queued for the engine's thread.

Front ends call the engine's command methods from any thread; each becomes one typed
command here, and the engine thread takes them one at a time. Quitting is special: it
is also a flag that blocking steps check, so a quit interrupts them at once.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class Replay:
    """Read the question again."""


@dataclass(frozen=True)
class Record:
    """Record an answer (again)."""

    again: bool = False


@dataclass(frozen=True)
class Typed:
    """Answer by typing."""

    text: str


@dataclass(frozen=True)
class Edit:
    """Correct the last answer's transcript and rescore it."""

    text: str


@dataclass(frozen=True)
class ModelAnswer:
    """Show the model answer (and read it aloud when ``speak``)."""

    speak: bool


@dataclass(frozen=True)
class Keep:
    """Score a short answer anyway."""


@dataclass(frozen=True)
class Next:
    """On to the next question."""


@dataclass(frozen=True)
class Pass:
    """ "I don't know": pass on the question (or on a follow-up)."""


@dataclass(frozen=True)
class QuitCommand:
    """End the session."""


Command = Replay | Record | Typed | Edit | ModelAnswer | Keep | Next | Pass | QuitCommand


class Quit(Exception):
    """Unwinds the engine thread when the candidate quits."""


class CommandQueue:
    """The engine's commands, in the order they were given; thread-safe."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Command] = queue.Queue()
        self._quitting = threading.Event()

    def put(self, command: Command) -> None:
        self._queue.put(command)

    def mark_quitting(self) -> None:
        """The candidate is quitting: blocking steps stop at their next check (the
        :class:`QuitCommand` put after it ends a wait for the next command)."""
        self._quitting.set()

    def next(self) -> Command:
        """The next command, waiting for one; raises :class:`Quit` on a quit."""
        command = self._queue.get()
        if isinstance(command, QuitCommand):
            raise Quit
        return command

    def check_quit(self) -> None:
        """Raise :class:`Quit` once the candidate has asked to quit."""
        if self._quitting.is_set():
            raise Quit


__all__ = [
    "Command",
    "CommandQueue",
    "Edit",
    "Keep",
    "ModelAnswer",
    "Next",
    "Pass",
    "Quit",
    "QuitCommand",
    "Record",
    "Replay",
    "Typed",
]
