"""One error hierarchy for every foreseeable problem a user can hit.

Front ends catch :class:`SayitoutError` and show ``message`` and ``hint``;
anything else is a bug and may show a traceback.
"""

from __future__ import annotations


class SayitoutError(Exception):
    """A problem the user can understand and fix.

    ``message`` says what is wrong; ``hint`` says how to fix it.
    ``exit_code`` is what the CLI exits with (2 for usage errors, 1 otherwise).
    """

    exit_code = 1
    title = "Error"

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message} ({self.hint})"


class UsageError(SayitoutError):
    """Bad input from the user: a wrong argument, file or value."""

    exit_code = 2
    title = "Bad input"


class BankError(UsageError):
    """A deck or rubric that cannot be loaded."""

    title = "Question bank problem"


class ConfigError(UsageError):
    """A config file or setting that cannot be used."""

    title = "Config problem"


class AudioError(SayitoutError):
    """No audio library, no device, or an unreadable audio file."""

    title = "Audio problem"


class ModelError(SayitoutError):
    """A speech or embedding model that cannot be loaded."""

    title = "Model problem"


class StorageError(SayitoutError):
    """The database or data dir cannot be read or written."""

    title = "Storage problem"
