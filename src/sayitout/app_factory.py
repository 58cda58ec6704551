"""The composition root: every service sayitout runs, built from ``Settings``, here only.

Each service has one builder (:func:`build_scorer`, :func:`build_transcriber`,
:func:`build_speaker`, :func:`build_microphones`, :func:`load_bank`,
:func:`open_store`); :func:`build_services` puts them together for a session. The CLI's
one-shot commands (``score``, ``transcribe``, ``doctor``), the app and the end-to-end
tests all build through here, so a service is made the same way everywhere.

Cheap to import (nothing heavy at import time: a command that needs only the scorer
pays for nothing else) and cheap to call: :func:`build_services` loads no model until
first use (:class:`~sayitout.session.services.Lazy`) or
:meth:`~sayitout.session.services.SessionServices.warm_up`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sayitout.errors import UsageError

if TYPE_CHECKING:
    from sayitout.bank.loader import Bank
    from sayitout.config import AsrSettings, ScoringSettings, Settings
    from sayitout.scoring import Scorer
    from sayitout.session.ports import Microphones, Speaker
    from sayitout.session.services import SessionServices
    from sayitout.speech.asr.transcriber import Transcriber
    from sayitout.store import Store

TTS_CHOICES = ("piper", "pyttsx3", "none")


def build_services(
    settings: Settings,
    *,
    mic_files: Sequence[Path | str] = (),
    tts: str | None = None,
    bank_dirs: Sequence[Path | str] = (),
    database: Path | None = None,
    mic_speed: float = 1.0,
) -> SessionServices:
    """The real services for ``settings``; cheap (no model loads, no heavy imports).

    ``mic_files`` replace the microphone (one per answer turn, played at ``mic_speed``);
    ``tts`` overrides the configured voice backend (``none`` for silence); ``bank_dirs``
    add question banks; ``database`` replaces the default store.
    """
    from sayitout.session.services import Lazy, SessionServices

    if tts is not None:
        if tts not in TTS_CHOICES:
            raise UsageError(f"unknown --tts {tts!r}", "use piper, pyttsx3 or none")
        settings = settings.model_copy(
            update={"speech": settings.speech.model_copy(update={"tts": tts})}
        )
    dirs = _checked_bank_dirs(bank_dirs)
    bank = Lazy(lambda: load_bank(dirs))  # one bank, for the session and the scorer
    return SessionServices(
        settings,
        bank_loader=bank.get,
        scorer=Lazy(lambda: build_scorer(settings.scoring, bank.get)),
        transcriber=Lazy(lambda: build_transcriber(settings.asr)),
        microphones=build_microphones(settings, mic_files, mic_speed),
        speaker=None if settings.speech.tts == "none" else Lazy(lambda: build_speaker(settings)),
        store_opener=lambda: open_store(database),
    )


def _checked_bank_dirs(bank_dirs: Sequence[Path | str]) -> list[Path]:
    """``--bank`` folders as paths; one that is not a folder is bad input (said before
    the app opens, not when the bank loads in the background)."""
    dirs = [Path(d) for d in bank_dirs]
    for d in dirs:
        if not d.is_dir():
            raise UsageError(
                f"--bank {d}: no such directory",
                "give a folder holding question_bank/ and rubrics/",
            )
    return dirs


def load_bank(bank_dirs: Sequence[Path | str] = ()) -> Bank:
    """The question bank: the built-in decks, the user's, and ``bank_dirs``."""
    from sayitout.bank.loader import load_bank as load

    return load(list(bank_dirs) or None)


def open_store(database: Path | None = None) -> Store:
    """The attempt store (the data dir's database unless ``database`` is given)."""
    from sayitout.store import Store

    return Store.open(database)


def build_microphones(
    settings: Settings, mic_files: Sequence[Path | str] = (), speed: float = 1.0
) -> Microphones:
    """The live microphone, or ``mic_files`` played one per answer turn at ``speed``."""
    from sayitout.speech.microphones import FileMicrophones, LiveMicrophones

    if mic_files:
        return FileMicrophones([Path(p) for p in mic_files], settings.audio, speed)
    return LiveMicrophones(settings.audio)


def build_transcriber(asr: AsrSettings) -> Transcriber:
    """Speech recognition with these settings (the model loads on first use)."""
    from sayitout.speech.asr.transcriber import Transcriber

    return Transcriber(asr)


def build_scorer(scoring: ScoringSettings, bank: Callable[[], Bank] | None = None) -> Scorer:
    """The answer scorer with these settings (the model loads on first use). ``bank``
    gives the question bank, whose decks tell an answer to another question of the same
    deck (``Scorer``'s ``neighbours``); without it that check is off."""
    from sayitout.scoring import Scorer

    if bank is None:
        return Scorer(device=scoring.device)
    get = bank  # bound here: the lambda below sees it as not None
    return Scorer(device=scoring.device, neighbours=lambda r: get().deck_rubrics(r.question_id))


def build_speaker(settings: Settings) -> Speaker:
    """The configured voice (or its fallback); with no speakers, say so now, not after
    synthesising the first question."""
    from sayitout.speech.tts import make_speaker

    speaker = make_speaker(settings.speech)
    if speaker.backend != "none":
        from sayitout.speech.audio.devices import resolve_device

        resolve_device(settings.audio.output_device, "output")
    return speaker


__all__ = [
    "TTS_CHOICES",
    "build_microphones",
    "build_scorer",
    "build_services",
    "build_speaker",
    "build_transcriber",
    "load_bank",
    "open_store",
]
