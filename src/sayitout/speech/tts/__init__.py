"""Text to speech: the speakers (:class:`sayitout.session.ports.Speaker`) and choosing one.

- ``piper``: the bundled neural voice (default);
- ``pyttsx3``: the system's voices (espeak-ng on Linux);
- ``none``: silent.

:func:`make_speaker` builds the configured backend; when it cannot be used it falls back
(piper -> pyttsx3 -> none, pyttsx3 -> piper -> none) and says why in ``speaker.notice``,
so a missing voice never stops a practice session. ``strict=True`` raises instead.
"""

from __future__ import annotations

import logging
import time

import numpy as np

from sayitout.config import SpeechSettings
from sayitout.errors import ModelError, SayitoutError
from sayitout.speech.tts.base import SilentSpeaker, SynthSpeaker
from sayitout.speech.tts.cache import SynthCache
from sayitout.speech.tts.text import sentences, speakable

log = logging.getLogger(__name__)

BACKENDS = ("piper", "pyttsx3", "none")
_FALLBACKS = {"piper": ["pyttsx3", "none"], "pyttsx3": ["piper", "none"], "none": []}


def _build(
    backend: str, settings: SpeechSettings, player, cache: SynthCache | None
) -> SynthSpeaker | SilentSpeaker:
    if backend == "none":
        return SilentSpeaker()
    if backend == "piper":
        from sayitout.speech.tts.piper_backend import PiperSpeaker, piper_unavailable

        # a pyttsx3 voice id in the settings means nothing to piper: use the bundled voice
        voice = settings.voice if settings.voice and settings.voice.endswith(".onnx") else None
        why = piper_unavailable(voice)
        if why:
            raise ModelError(f"Piper text to speech cannot be used: {why}")
        return PiperSpeaker(voice=voice, rate=settings.rate, player=player, cache=cache)
    if backend == "pyttsx3":
        from sayitout.speech.tts.pyttsx3_backend import Pyttsx3Speaker, pyttsx3_unavailable

        why = pyttsx3_unavailable()
        if why:
            raise ModelError(f"System text to speech (pyttsx3) cannot be used: {why}")
        voice = None if settings.voice and settings.voice.endswith(".onnx") else settings.voice
        return Pyttsx3Speaker(voice=voice, rate=settings.rate, player=player, cache=cache)
    raise ModelError(
        f"Unknown text-to-speech backend {backend!r}",
        f"set speech.tts to one of: {', '.join(BACKENDS)}",
    )


def make_speaker(
    settings: SpeechSettings | None = None,
    player=None,
    *,
    strict: bool = False,
    cache: SynthCache | bool = True,
) -> SynthSpeaker | SilentSpeaker:
    """The configured speaker, or a working fallback with ``notice`` saying why.

    ``player`` is a :class:`sayitout.speech.audio.Player` (default: a new one on the
    default output device, opened on first use). ``cache`` is a :class:`SynthCache`,
    True for the default cache dir, or False for none.
    """
    settings = settings or SpeechSettings()
    synth_cache = SynthCache() if cache is True else (cache or None)
    wanted = settings.tts
    try:
        return _build(wanted, settings, player, synth_cache)
    except SayitoutError as exc:
        if strict:
            raise
        reasons = [exc.message]
    for alt in _FALLBACKS.get(wanted, ["none"]):
        try:
            speaker = _build(alt, settings, player, synth_cache)
        except SayitoutError as exc:
            reasons.append(exc.message)
            continue
        speaker.notice = (
            f"{reasons[0]}; using {alt} instead"
            if alt != "none"
            else f"{reasons[0]}; questions will not be read aloud"
        )
        log.warning("%s", speaker.notice)
        return speaker
    return SilentSpeaker(notice="; ".join(reasons))  # pragma: no cover - none never fails


def check_tts(settings: SpeechSettings | None = None) -> list[tuple[str, bool, str]]:
    """Health checks for ``sayitout doctor``: (name, ok, detail or fix).

    Loads each installed voice and synthesises a word with it.
    """
    settings = settings or SpeechSettings()
    checks: list[tuple[str, bool, str]] = []

    def try_backend(backend: str, label: str) -> bool:
        alt = settings.model_copy(update={"tts": backend})
        try:
            t0 = time.monotonic()
            speaker = _build(backend, alt, None, None)
            audio, sr = speaker.synthesize("Ready.")
            took = time.monotonic() - t0
            if audio.size == 0 or float(np.max(np.abs(audio))) < 1e-3:
                raise ModelError("it produced silence", "reinstall the voice")
            voice = getattr(speaker, "voice_id", "")
            checks.append((label, True, f"{voice}, {sr} Hz, loaded and spoke in {took:.1f} s"))
            return True
        except SayitoutError as exc:
            fix = f"; fix: {exc.hint}" if exc.hint else ""
            checks.append((label, False, exc.message + fix))
        except Exception as exc:  # a broken install: report it, do not crash doctor
            checks.append((label, False, f"{type(exc).__name__}: {exc}"))
        return False

    ok_piper = try_backend("piper", "TTS piper voice")
    ok_sys = try_backend("pyttsx3", "TTS system voices (pyttsx3)")
    chosen = settings.tts
    if chosen == "none":
        checks.append(("TTS in use", True, "none (questions are not read aloud)"))
    elif (chosen == "piper" and ok_piper) or (chosen == "pyttsx3" and ok_sys):
        checks.append(("TTS in use", True, chosen))
    else:
        alt = (
            "pyttsx3"
            if chosen == "piper" and ok_sys
            else ("piper" if chosen == "pyttsx3" and ok_piper else "none")
        )
        checks.append(
            (
                "TTS in use",
                False,
                f"{chosen} is configured but does not work; falling back to {alt}; "
                "fix the backend above or set speech.tts",
            )
        )
    return checks


__all__ = [
    "BACKENDS",
    "SilentSpeaker",
    "SynthCache",
    "SynthSpeaker",
    "check_tts",
    "make_speaker",
    "sentences",
    "speakable",
]
