"""Speech to text with faster-whisper, tuned for spoken interview answers.

:class:`Transcriber` wraps one Whisper model (shared process-wide per model, device and
compute type) and turns 16 kHz mono audio into a :class:`Transcript` with word
timestamps. The question's rubric terms go in as ``hotwords`` (applied to every 30 s
window) and in an initial prompt written in a hesitant, spoken style, which keeps the
"um"s and "like"s that delivery feedback counts. Voice-activity filtering is always
on: silence or noise alone gives an empty transcript, never an invented sentence.

Two changes to faster-whisper's window loop (:func:`_model_class`):

- When a window already holds all the remaining audio, it is the last one. Upstream, with word
timestamps, decoding restarts after the last word, so a short stretch of speech cost
two windows, and the second, on the trailing half second of silence, is where
tiny.en invented "Thank you for watching." or ". . . ." and, with hotwords, cycled
through every fallback temperature (measured: 12 short answers took 114 s of CPU
before, 13.6 s after, with a lower word error rate).
- Short audio (a stretch of speech of up to 26 s, what the incremental transcriber
  decodes) gets a shortened window: the audio plus 3 s (at least 10 s) instead of a
  padded 30 s. Whisper's encoder costs the same for 2 s as for 30 s of audio (0.5 s of
  this 2-core CPU for tiny.en), so this makes a short stretch about 3x faster (median
  0.33 s against 1.0 s) at the same accuracy (word error rate 0.041 against 0.045 on
  19 short clips, real and synthesised). It only became safe with the change above:
  before it, the second window on the trailing silence invented text.

A decode that repeats itself (a segment's text compresses more than ``LOOP_RATIO``, as
"Up to fp5, fp5, fp5, ..." for "Up to epoch five") is done once more without the prompt
and hotwords, and the less repetitive result kept: the question's terms start such loops
on short stretches, and without them the same audio decodes plainly ("Up to epoch 5"), in
one greedy pass where Whisper's temperature fallback took four or five.

:class:`~sayitout.speech.asr.incremental.IncrementalTranscriber` builds on it.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sayitout.config import AsrSettings
from sayitout.errors import AudioError, ModelError
from sayitout.speech.models import ResolvedModel, pick_device, resolve_model
from sayitout.speech.transcript import Transcript, Word

if TYPE_CHECKING:
    from sayitout.speech.asr.incremental import IncrementalTranscriber
    from sayitout.speech.callbacks import PartialCallback

log = logging.getLogger(__name__)

SAMPLE_RATE = 16_000
FILLER_PROMPT = "Umm, let me think like, hmm... Okay, here's what I'm, like, thinking."
"""A hesitant opening: Whisper copies the style of its prompt, so fillers survive."""

_SILENCE_PEAK = 1e-4
_SHORT_MAX_S = 26.0
_SHORT_PAD_S = 3.0
_SHORT_MIN_S = 10
_HALLUCINATIONS = frozenset(
    {
        "thank you.",
        "thank you",
        "thanks for watching!",
        "thanks for watching.",
        "you",
        "bye.",
        "bye!",
        "so",
        "okay.",
        "thank you very much.",
        "please subscribe.",
    }
)


@dataclass(frozen=True)
class DecodeOptions:
    """How a transcription call is made. The defaults were measured (``bench/asr.py``)."""

    use_hotwords: bool = True
    """Pass the rubric terms as ``hotwords`` (applies to every 30 s window)."""
    use_prompt: bool = True
    """Start from :data:`FILLER_PROMPT` plus the terms (first window only)."""
    short_context: bool = True
    """Decode audio of up to 26 s with a window just longer than it (3x faster)."""
    condition_on_previous_text: bool = False
    """False stops a mistake in one window from repeating through the next ones."""
    word_timestamps: bool = True
    vad_filter: bool = True
    language: str | None = "en"
    temperatures: tuple[float, ...] | None = None
    """The sampling temperatures tried in turn while a window's decode looks unreliable
    (too repetitive, too unlikely); None: faster-whisper's fallback, 0.0 to 1.0 in steps
    of 0.2. ``(0.0,)`` decodes once, greedily, whatever comes out."""


@dataclass
class _LoadedModel:
    model: Any  # faster_whisper.WhisperModel subclass
    resolved: ResolvedModel
    device: str
    compute_type: str
    load_s: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    """One call at a time per model: two at once only share the same cores (and
    faster-whisper keeps per-call state in the model's feature extractor)."""


_MODELS: dict[tuple, _LoadedModel] = {}
_MODELS_LOCK = threading.Lock()
_KEY_LOCKS: dict[tuple, threading.Lock] = {}


def _model_class() -> type:
    from faster_whisper import WhisperModel

    if not hasattr(WhisperModel, "_split_segments_by_timestamps"):  # pragma: no cover
        return WhisperModel

    class OneLastWindowWhisper(WhisperModel):
        audio_ctx_frames: int | None = None
        token_cap: int | None = None

        def encode(self, features: np.ndarray) -> Any:
            n = self.audio_ctx_frames
            if n and features.shape[-1] > n:
                features = features[..., :n]
            return super().encode(features)

        def _split_segments_by_timestamps(
            self, tokenizer, tokens, time_offset, segment_size, segment_duration, seek
        ):
            segments, new_seek, single = super()._split_segments_by_timestamps(
                tokenizer, tokens, time_offset, segment_size, segment_duration, seek
            )
            cap = getattr(self, "token_cap", None)
            finished = cap is None or len(tokens) < cap  # ended by itself, not by the cap
            if finished and segment_size < self.feature_extractor.nb_max_frames:
                # this window held everything that is left and its text ended cleanly:
                # do not decode its tail again
                return segments, seek + segment_size, True
            return segments, new_seek, single

    return OneLastWindowWhisper


def _load(resolved: ResolvedModel, device: str, compute: str, threads: int) -> _LoadedModel:
    t0 = time.perf_counter()
    try:
        model = _model_class()(
            str(resolved.path),
            device=device,
            compute_type=compute,
            cpu_threads=threads,
            local_files_only=True,
        )
    except Exception as exc:  # ctranslate2 raises RuntimeError/ValueError for bad models
        raise ModelError(
            f"The Whisper model {resolved.name!r} ({resolved.path}) could not be loaded on "
            f"{device}/{compute}: {exc}",
            'check the model directory, or try asr.device = "cpu" and asr.compute_type = "int8"',
        ) from exc
    return _LoadedModel(model, resolved, device, compute, time.perf_counter() - t0)


def get_model(settings: AsrSettings) -> _LoadedModel:
    """The process-wide model for these settings, loading it on first use (thread-safe)."""
    resolved = resolve_model(settings.model)
    device, compute = pick_device(settings.device, settings.compute_type)
    key = (str(resolved.path), device, compute, settings.cpu_threads)
    with _MODELS_LOCK:
        loaded = _MODELS.get(key)
        if loaded is not None:
            return loaded
        key_lock = _KEY_LOCKS.setdefault(key, threading.Lock())
    with key_lock:
        with _MODELS_LOCK:
            loaded = _MODELS.get(key)
        if loaded is not None:
            return loaded
        try:
            loaded = _load(resolved, device, compute, settings.cpu_threads)
        except ModelError:
            if settings.device != "auto" or device == "cpu":
                raise
            log.warning("CUDA load failed; falling back to the CPU", exc_info=True)
            device, compute = pick_device("cpu", None)
            loaded = _load(resolved, device, compute, settings.cpu_threads)
        with _MODELS_LOCK:
            _MODELS[key] = loaded
        return loaded


_NUMBER_WITH_SUFFIX = re.compile(r"\d[\d.,]*\s*[A-Za-z]{1,3}")
"""A term that is a number with a short suffix: "7B", "70B", "16GB", "8k"."""


def recognition_terms(terms: Iterable[str]) -> list[str]:
    """The terms offered to Whisper as prompt and hotwords: each once, in order, less the
    numbers with a short suffix. Whisper copies its prompt's style, so a "7B" there turns
    numbers said in words into clipped abbreviations and mishears them: the synthesised
    "seven billion parameters times two bytes is fourteen billion bytes, so fourteen
    gigabytes" came out "7B, times 2 bytes is 14B, so 14G, bytes" (one decode of it,
    "40B ... 40G"), and word for word without the "7B" (word error rate 0.35 -> 0.09;
    ``docs/evaluation.md``, eighteenth round). Names that start with letters ("bf16",
    "fp32") stay: they are what the prompt is for."""
    seen: set[str] = set()
    out: list[str] = []
    for term in terms:
        t = " ".join(str(term).split())
        if t and t.lower() not in seen and not _NUMBER_WITH_SUFFIX.fullmatch(t):
            seen.add(t.lower())
            out.append(t)
    return out


def build_hotwords(terms: Sequence[str]) -> str | None:
    return ", ".join(terms) if terms else None


def build_prompt(terms: Sequence[str]) -> str:
    """The filler-keeping prompt, followed by the terms the answer may use."""
    if not terms:
        return FILLER_PROMPT
    return f"{FILLER_PROMPT} We talked about {', '.join(terms)}."


LOOP_RATIO = 2.4
"""A segment whose text compresses (zlib) more than this repeats itself: Whisper's own
threshold for a failed decode."""


def _keep_segment(seg: Any) -> bool:
    text = seg.text.strip()
    if not text:
        return False
    if seg.no_speech_prob > 0.6 and seg.avg_logprob < -0.8:
        return False
    return not (
        text.lower() in _HALLUCINATIONS and (seg.no_speech_prob > 0.3 or seg.avg_logprob < -0.7)
    )


def _token_budget(
    model: Any, seconds: float, hotwords: str | None, prompt: str | None
) -> int | None:
    """A cap on new tokens per window, a safety net against runaway decodes.

    Fast speech is about 7 tokens a second; the prompt and the answer must fit in
    Whisper's 448 tokens together.
    """
    try:
        enc = model.hf_tokenizer.encode
        used = 6 + sum(
            min(len(enc(" " + t.strip(), add_special_tokens=False).ids), 223)
            for t in (hotwords, prompt)
            if t
        )
    except Exception:  # a tokenizer without this API: no cap
        return None
    budget = min(int(40 + 10 * min(seconds, 30.0)), 447 - used)
    return budget if budget >= 24 else None


def as_audio_array(audio: np.ndarray) -> np.ndarray:
    a = np.asarray(audio)
    if a.ndim == 2:  # (samples, channels) or (channels, samples)
        a = a.mean(axis=1 if a.shape[1] <= 8 else 0)
    a = a.reshape(-1)
    if a.dtype != np.float32:
        if np.issubdtype(a.dtype, np.integer):
            a = a.astype(np.float32) / float(np.iinfo(a.dtype).max)
        else:
            a = a.astype(np.float32)
    return a


class Transcriber:
    """Whisper transcription with rubric terms, fillers kept and no invented text."""

    def __init__(
        self, settings: AsrSettings | None = None, options: DecodeOptions | None = None
    ) -> None:
        self.settings = settings or AsrSettings()
        self.options = options or DecodeOptions()
        self._loaded: _LoadedModel | None = None
        self._lock = threading.Lock()

    # -- loading -------------------------------------------------------------------
    def load(self) -> Transcriber:
        """Load the model (once per process for the same model/device/compute)."""
        with self._lock:
            if self._loaded is None:
                self._loaded = get_model(self.settings)
        return self

    @property
    def loaded(self) -> bool:
        return self._loaded is not None

    @property
    def model_name(self) -> str:
        return self.settings.model

    @property
    def device(self) -> str:
        return self._loaded.device if self._loaded else ""

    @property
    def compute_type(self) -> str:
        return self._loaded.compute_type if self._loaded else ""

    def warm_up(self) -> None:
        """Load and run one tiny decode, so the first real answer is not slower."""
        self.load()
        rng = np.random.default_rng(0)
        noise = (rng.standard_normal(SAMPLE_RATE) * 0.01).astype(np.float32)
        self._run(noise, (), replace(self.options, vad_filter=False), 0.0)

    def live(
        self, terms: Sequence[str] = (), on_partial: PartialCallback | None = None
    ) -> IncrementalTranscriber:
        """Transcribe one answer while it is recorded (see :class:`IncrementalTranscriber`)."""
        from sayitout.speech.asr.incremental import IncrementalTranscriber

        self.load()
        return IncrementalTranscriber(self, terms, on_partial)

    # -- transcription ---------------------------------------------------------------
    def transcribe(
        self,
        audio: np.ndarray | Path | str,
        *,
        terms: Iterable[str] = (),
        offset: float = 0.0,
        cancel: threading.Event | None = None,
        options: DecodeOptions | None = None,
        on_progress: Callable[[float], None] | None = None,
    ) -> Transcript:
        """Transcribe 16 kHz mono audio (or an audio file); word times are shifted by
        ``offset`` seconds (the segment's place in the whole recording). ``options``
        overrides this transcriber's decoding options for this call; ``on_progress``
        hears how many seconds (``offset`` included) are decoded, after each segment."""
        if isinstance(audio, str | Path):
            from sayitout.speech.audio.decode import load_audio

            audio = load_audio(Path(audio))
        a = as_audio_array(audio)
        duration = a.size / SAMPLE_RATE
        self.load()
        terms_list = recognition_terms(terms)
        if a.size == 0 or float(np.max(np.abs(a))) < _SILENCE_PEAK or not np.isfinite(a).all():
            if a.size and not np.isfinite(a).all():
                raise AudioError("The audio contains invalid samples (NaN or infinity)")
            return self._result("", (), duration, {"no_speech": True})
        t0 = time.perf_counter()
        opts = options or self.options
        text, words, meta = self._run(a, terms_list, opts, offset, cancel, on_progress)
        looped = meta["compression_ratio"] > LOOP_RATIO and not meta.get("cancelled")
        if looped and (opts.use_prompt or opts.use_hotwords):
            # the question's terms, offered as prompt and hotwords, can start a loop
            # ("up to fp5, fp5, fp5, ..."); without them the same audio decodes plainly
            plain = replace(opts, use_prompt=False, use_hotwords=False)
            r_text, r_words, r_meta = self._run(a, terms_list, plain, offset, cancel, None)
            if r_meta["compression_ratio"] < meta["compression_ratio"]:
                text, words, meta = r_text, r_words, {**r_meta, "plain_retry": True}
        elapsed = time.perf_counter() - t0
        meta.update(
            elapsed_s=round(elapsed, 3),
            rtf=round(elapsed / duration, 3) if duration else None,
            no_speech=not text,
            terms=len(terms_list),
        )
        return self._result(text, words, duration, meta)

    def _result(self, text: str, words: Sequence[Word], duration: float, meta: dict) -> Transcript:
        assert self._loaded is not None
        meta = {"beam_size": self.settings.beam_size, "compute_type": self.compute_type, **meta}
        return Transcript(
            text=text,
            words=tuple(words),
            duration=round(duration, 3),
            model=self.model_name,
            device=self.device,
            language="en",
            meta=meta,
        )

    def _run(
        self,
        a: np.ndarray,
        terms: Sequence[str],
        opts: DecodeOptions,
        offset: float,
        cancel: threading.Event | None = None,
        on_progress: Callable[[float], None] | None = None,
    ) -> tuple[str, list[Word], dict]:
        assert self._loaded is not None
        loaded = self._loaded
        kwargs: dict[str, Any] = dict(
            language=opts.language if not loaded.resolved.english_only else "en",
            beam_size=self.settings.beam_size,
            word_timestamps=opts.word_timestamps,
            vad_filter=opts.vad_filter,
            condition_on_previous_text=opts.condition_on_previous_text,
            hotwords=build_hotwords(terms) if opts.use_hotwords else None,
            initial_prompt=build_prompt(terms) if opts.use_prompt else None,
        )
        if opts.temperatures is not None:
            kwargs["temperature"] = list(opts.temperatures)
        seconds = a.size / SAMPLE_RATE
        short = opts.short_context and seconds <= _SHORT_MAX_S
        # explicit every time: faster-whisper's feature extractor remembers the last one
        chunk = min(30, max(_SHORT_MIN_S, math.ceil(seconds + _SHORT_PAD_S))) if short else 30
        kwargs["chunk_length"] = chunk
        kwargs["max_new_tokens"] = (
            None  # the previous window's text takes an unknown share of the 448 tokens
            if opts.condition_on_previous_text
            else _token_budget(loaded.model, seconds, kwargs["hotwords"], kwargs["initial_prompt"])
        )
        texts: list[str] = []
        words: list[Word] = []
        ratio = 0.0  # the most repetitive segment's (zlib) compression ratio
        cancelled = False
        with loaded.lock:
            loaded.model.token_cap = kwargs["max_new_tokens"]
            loaded.model.audio_ctx_frames = chunk * 100 if short else None
            try:
                segments, _info = loaded.model.transcribe(a, **kwargs)
                for seg in segments:  # lazy: the decoding happens here
                    ratio = max(ratio, float(seg.compression_ratio))
                    if _keep_segment(seg):
                        texts.append(seg.text.strip())
                        words.extend(
                            Word(
                                w.word.strip(),
                                round(float(w.start) + offset, 3),
                                round(float(w.end) + offset, 3),
                                round(float(w.probability), 4),
                            )
                            for w in (seg.words or ())
                            if w.word.strip()
                        )
                    if on_progress is not None:
                        on_progress(offset + float(seg.end))
                    if cancel is not None and cancel.is_set():
                        cancelled = True
                        break
            except (RuntimeError, ValueError) as exc:
                raise ModelError(
                    f"Transcription failed: {exc}", 'try asr.device = "cpu" or another asr.model'
                ) from exc
            finally:
                loaded.model.audio_ctx_frames = None
        meta: dict[str, Any] = {"window_s": chunk, "compression_ratio": round(ratio, 2)}
        if cancelled:
            meta["cancelled"] = True
        return " ".join(texts).strip(), words, meta


def transcribe_file(
    path: Path | str, terms: Iterable[str] = (), settings: AsrSettings | None = None
) -> Transcript:
    """Transcribe any common audio file; unreadable or empty files raise AudioError."""
    return transcribe_long(Transcriber(settings), path, terms=terms)


def transcribe_long(
    transcriber: Transcriber,
    path: Path | str,
    *,
    terms: Iterable[str] = (),
    on_progress: Callable[[float], None] | None = None,
) -> Transcript:
    """Transcribe a file of any length in pieces of a few minutes (cut between words),
    decoding as it goes, so memory stays flat however long the file is; a short file is
    one piece, as before. ``on_progress`` hears the seconds of the file done so far."""
    from sayitout.speech.audio.decode import iter_audio_windows

    terms = list(terms)
    parts = []
    for offset, audio in iter_audio_windows(Path(path)):
        parts.append(
            transcriber.transcribe(audio, terms=terms, offset=offset, on_progress=on_progress)
        )
        if on_progress is not None:
            on_progress(offset + audio.size / SAMPLE_RATE)
    if len(parts) == 1:
        return parts[0]
    text = " ".join(p.text for p in parts if p.text).strip()
    meta = dict(parts[-1].meta)
    meta.update(
        pieces=len(parts),
        no_speech=not text,
        elapsed_s=round(sum(p.meta.get("elapsed_s", 0.0) for p in parts), 3),
    )
    return replace(
        parts[-1],
        text=text,
        words=tuple(w for p in parts for w in p.words),
        duration=round(sum(p.duration or 0.0 for p in parts), 3),
        meta=meta,
    )
