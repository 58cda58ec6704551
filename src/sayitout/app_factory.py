"""The composition root: the real services for a session, built from ``Settings``.

The CLI, the app and the end-to-end tests all build their services here, so the same
speaker, microphone, transcriber, scorer, bank and store are wired the same way
everywhere. Building is cheap: nothing heavy is imported and no model is loaded until
first use (:class:`~sayitout.session.services.Lazy`) or
:meth:`~sayitout.session.services.SessionServices.warm_up`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sayitout.errors import UsageError
from sayitout.session.services import Lazy, SessionServices

if TYPE_CHECKING:
    from sayitout.bank.loader import Bank
    from sayitout.config import Settings
    from sayitout.session.ports import AnswerScorer, Microphones, Speaker, Transcriber
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
    if tts is not None:
        if tts not in TTS_CHOICES:
            raise UsageError(f"unknown --tts {tts!r}", "use piper, pyttsx3 or none")
        settings = settings.model_copy(
            update={"speech": settings.speech.model_copy(update={"tts": tts})}
        )
    dirs = [Path(d) for d in bank_dirs]
    for d in dirs:
        if not d.is_dir():
            raise UsageError(
                f"--bank {d}: no such directory",
                "give a folder holding question_bank/ and rubrics/",
            )

    def load_bank() -> Bank:
        from sayitout.bank.loader import load_bank as load

        return load(dirs or None)

    def open_store() -> Store:
        from sayitout.store import Store

        return Store.open(database)

    return SessionServices(
        settings,
        bank_loader=load_bank,
        scorer=Lazy(lambda: _scorer(settings)),
        transcriber=Lazy(lambda: _transcriber(settings)),
        microphones=_microphones(settings, mic_files, mic_speed),
        speaker=None if settings.speech.tts == "none" else Lazy(lambda: _speaker(settings)),
        store_opener=open_store,
    )


def _microphones(settings: Settings, mic_files: Sequence[Path | str], speed: float) -> Microphones:
    from sayitout.speech.microphones import FileMicrophones, LiveMicrophones

    if mic_files:
        return FileMicrophones([Path(p) for p in mic_files], settings.audio, speed)
    return LiveMicrophones(settings.audio)


def _transcriber(settings: Settings) -> Transcriber:
    from sayitout.speech.asr.transcriber import Transcriber

    return Transcriber(settings.asr)


def _scorer(settings: Settings) -> AnswerScorer:
    from sayitout.scoring import Scorer

    return Scorer(device=settings.scoring.device)


def _speaker(settings: Settings) -> Speaker:
    """The configured voice (or its fallback); with no speakers, say so now, not after
    synthesising the first question."""
    from sayitout.speech.tts import make_speaker

    speaker = make_speaker(settings.speech)
    if speaker.backend != "none":
        from sayitout.speech.audio.devices import resolve_device

        resolve_device(settings.audio.output_device, "output")
    return speaker


__all__ = ["TTS_CHOICES", "build_services"]
