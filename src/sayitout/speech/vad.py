"""Streaming voice-activity detection with the Silero model that ships in faster-whisper.

:class:`StreamingVad` turns 16 kHz audio, pushed in chunks of any size, into one speech
probability per 32 ms frame (512 samples), keeping the model's recurrent state and
context across chunks, so the probabilities equal those of a whole-file pass.

:class:`Endpointer` turns those probabilities into events: a stretch of speech opened,
a stretch closed after a short pause (``segment_pause_s``), and the answer finished
after a long silence (``silence_timeout_s``). It is plain logic over numbers, so the
endpointing rules are tested without audio.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sayitout.errors import ModelError

SAMPLE_RATE = 16_000
FRAME = 512
"""Samples per VAD frame at 16 kHz (32 ms), the size the Silero model is trained on."""
FRAME_S = FRAME / SAMPLE_RATE
_CONTEXT = 64


def silero_model_path() -> Path:
    """The ``silero_vad_v6.onnx`` file inside the installed faster-whisper."""
    try:
        from faster_whisper.utils import get_assets_path
    except ImportError as exc:  # pragma: no cover - faster-whisper is a dependency
        raise ModelError(
            "faster-whisper is not installed, so the voice-activity model is missing",
            "pip install faster-whisper",
        ) from exc
    path = Path(get_assets_path()) / "silero_vad_v6.onnx"
    if not path.is_file():
        raise ModelError(
            f"The voice-activity model {path} is missing from faster-whisper",
            "reinstall faster-whisper: pip install --force-reinstall faster-whisper",
        )
    return path


@functools.lru_cache(maxsize=1)
def _session():  # -> onnxruntime.InferenceSession
    try:
        import onnxruntime
    except ImportError as exc:  # pragma: no cover - a faster-whisper dependency
        raise ModelError(
            "onnxruntime is not installed, so voice-activity detection cannot run",
            "pip install onnxruntime",
        ) from exc
    opts = onnxruntime.SessionOptions()
    opts.inter_op_num_threads = 1
    opts.intra_op_num_threads = 1
    opts.enable_cpu_mem_arena = False
    opts.log_severity_level = 4
    try:
        return onnxruntime.InferenceSession(
            str(silero_model_path()), providers=["CPUExecutionProvider"], sess_options=opts
        )
    except Exception as exc:  # onnxruntime raises its own exception types
        raise ModelError(
            f"The voice-activity model could not be loaded: {exc}",
            "reinstall faster-whisper and onnxruntime",
        ) from exc


_session_lock = threading.Lock()


def load_vad_session():  # -> onnxruntime.InferenceSession
    """Load the ONNX session once per process (thread-safe)."""
    with _session_lock:
        return _session()


class StreamingVad:
    """Speech probability per 512-sample frame of a 16 kHz stream.

    One instance per stream: it holds the LSTM state and the last 64 samples of
    context. The ONNX session itself is shared.
    """

    def __init__(self) -> None:
        self._session = load_vad_session()
        self.reset()

    def reset(self) -> None:
        self._h = np.zeros((1, 1, 128), dtype=np.float32)
        self._c = np.zeros((1, 1, 128), dtype=np.float32)
        self._context = np.zeros(_CONTEXT, dtype=np.float32)
        self._pending = np.zeros(0, dtype=np.float32)
        self.frames_done = 0

    def push(self, audio: np.ndarray) -> np.ndarray:
        """Add samples; return the probabilities of the frames completed by them."""
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        if self._pending.size:
            audio = np.concatenate([self._pending, audio])
        n_frames = audio.size // FRAME
        self._pending = audio[n_frames * FRAME :].copy()
        if n_frames == 0:
            return np.zeros(0, dtype=np.float32)
        frames = audio[: n_frames * FRAME].reshape(n_frames, FRAME)
        contexts = np.empty((n_frames, _CONTEXT), dtype=np.float32)
        contexts[0] = self._context
        if n_frames > 1:
            contexts[1:] = frames[:-1, -_CONTEXT:]
        batch = np.concatenate([contexts, frames], axis=1)
        out, self._h, self._c = self._session.run(
            None, {"input": batch, "h": self._h, "c": self._c}
        )
        self._context = frames[-1, -_CONTEXT:].copy()
        self.frames_done += n_frames
        return np.asarray(out, dtype=np.float32).reshape(-1)


@dataclass(frozen=True)
class VadConfig:
    """Endpointing rules. Times in seconds.

    The defaults were chosen for spoken interview answers (see ``docs`` in the module
    ``sayitout.speech.audio.recorder``): people stop to think mid-answer for two or three
    seconds, so only a long silence ends the answer, while a short pause (0.6 s, a breath
    between sentences) is enough to hand a finished stretch of speech to the
    transcriber.
    """

    threshold: float = 0.5
    """A frame with probability at or above this is speech."""
    neg_threshold: float = 0.35
    """Speech continues until a frame falls below this (hysteresis)."""
    segment_pause_s: float = 0.6
    """Silence that closes a stretch of speech (handed to the transcriber)."""
    silence_timeout_s: float = 4.0
    """Silence after speech that ends the answer."""
    min_speech_s: float = 0.25
    """Speech shorter than this (a cough, a click) neither opens a segment for the
    transcriber nor arms the silence timeout."""
    pre_roll_s: float = 0.3
    """Audio kept before the frame where speech was detected."""
    post_roll_s: float = 0.2
    """Audio kept after the last speech frame of a segment."""
    max_segment_s: float = 20.0
    """A stretch of speech longer than this is split at its last short pause, so the
    transcriber can keep up during a long monologue."""
    split_pause_s: float = 0.15
    """The shortest pause a long stretch may be split at."""


@dataclass
class Segment:
    """A stretch of speech, in samples from the start of the recording."""

    start: int
    end: int
    final: bool = False
    """True for the tail segment emitted when the answer ended mid-speech."""

    @property
    def start_s(self) -> float:
        return self.start / SAMPLE_RATE

    @property
    def end_s(self) -> float:
        return self.end / SAMPLE_RATE


@dataclass
class Endpointer:
    """Turns per-frame speech probabilities into closed segments and an end signal.

    Feed it with :meth:`update` (the probabilities of consecutive frames); it returns
    the segments closed by them. :attr:`finished` turns true once speech has been heard
    and then ``silence_timeout_s`` of silence followed. :meth:`flush` closes whatever is
    open when recording stops for another reason.
    """

    config: VadConfig = field(default_factory=VadConfig)
    frames: int = 0
    speaking: bool = False
    heard_speech: bool = False
    """True once speech of at least ``min_speech_s`` has been heard."""
    finished: bool = False
    speech_frames: int = 0
    _seg_start: int | None = None  # frame where the open segment's speech began
    _seg_onset: bool = True  # the open segment began at a speech onset (not a split)
    _seg_speech_frames: int = 0
    _last_speech: int = -1  # last frame index that was speech
    _silence_run_start: int | None = None
    _pauses: list[tuple[int, int]] = field(default_factory=list)  # short pauses inside a seg
    _emitted_until: int = 0  # sample index: segments never overlap
    closed: list[Segment] = field(default_factory=list)

    def _frames_for(self, seconds: float) -> int:
        return max(1, round(seconds / FRAME_S))

    def silence_s(self) -> float:
        """Seconds since the last speech frame (0 while speaking or before speech)."""
        if self._last_speech < 0:
            return 0.0
        return (self.frames - 1 - self._last_speech) * FRAME_S

    def update(self, probs: np.ndarray) -> list[Segment]:
        cfg = self.config
        out: list[Segment] = []
        pause_frames = self._frames_for(cfg.segment_pause_s)
        timeout_frames = self._frames_for(cfg.silence_timeout_s)
        min_speech_frames = self._frames_for(cfg.min_speech_s)
        for p in np.asarray(probs, dtype=np.float32).reshape(-1):
            i = self.frames
            self.frames += 1
            is_speech = p >= cfg.threshold or (self.speaking and p >= cfg.neg_threshold)
            if is_speech:
                if self._silence_run_start is not None and self._seg_start is not None:
                    self._pauses.append((self._silence_run_start, i))
                self._silence_run_start = None
                if not self.speaking:
                    self.speaking = True
                    if self._seg_start is None:
                        self._seg_start = i
                        self._seg_onset = True
                        self._seg_speech_frames = 0
                        self._pauses = []
                self._last_speech = i
                self._seg_speech_frames += 1
                self.speech_frames += 1
                if self._seg_speech_frames >= min_speech_frames:
                    self.heard_speech = True
                self._maybe_split(i, out)
            else:
                if self.speaking:
                    self.speaking = False
                    self._silence_run_start = i
                if self._seg_start is not None and i - self._last_speech >= pause_frames:
                    seg = self._close(self._last_speech + 1)
                    if seg is not None:
                        out.append(seg)
                if self.heard_speech and i - self._last_speech >= timeout_frames:
                    self.finished = True
        self.closed.extend(out)
        return out

    def _maybe_split(self, i: int, out: list[Segment]) -> None:
        cfg = self.config
        assert self._seg_start is not None
        if (i - self._seg_start) * FRAME_S < cfg.max_segment_s:
            return
        split_frames = self._frames_for(cfg.split_pause_s)
        pauses = [p for p in self._pauses if p[1] - p[0] >= split_frames]
        if pauses:
            start, end = pauses[-1]
            cut = (start + end) // 2
        else:
            cut = i  # no pause at all: cut here
        seg = self._close(cut, keep_open_from=cut)
        if seg is not None:
            out.append(seg)

    def _close(
        self, end_frame: int, keep_open_from: int | None = None, limit: int | None = None
    ) -> Segment | None:
        """Close the open segment at ``end_frame`` (exclusive frame index).

        ``keep_open_from`` splits instead: the segment goes on from that frame.
        ``limit`` is the last sample that exists (default: the frames seen so far).
        """
        cfg = self.config
        assert self._seg_start is not None
        enough = self._seg_speech_frames >= self._frames_for(cfg.min_speech_s)
        split = keep_open_from is not None
        pre = round(cfg.pre_roll_s * SAMPLE_RATE) if self._seg_onset else 0
        start = max(self._seg_start * FRAME - pre, self._emitted_until, 0)
        end = end_frame * FRAME + (0 if split else round(cfg.post_roll_s * SAMPLE_RATE))
        end = min(end, self.frames * FRAME if limit is None else limit)
        seg = None
        if enough and end > start:
            seg = Segment(start, end)
            self._emitted_until = end
        if split:
            self._seg_start = keep_open_from
            self._seg_onset = False
            self._seg_speech_frames = 1
            self._pauses = [p for p in self._pauses if p[0] >= keep_open_from]  # type: ignore[operator]
        else:
            self._seg_start = None
            self._seg_speech_frames = 0
            self._pauses = []
        return seg

    def open_start(self) -> int | None:
        """The first sample of the stretch of speech still open (as :meth:`flush` would
        close it), or None when there is none worth transcribing yet."""
        cfg = self.config
        if self._seg_start is None or self._seg_speech_frames < self._frames_for(cfg.min_speech_s):
            return None
        pre = round(cfg.pre_roll_s * SAMPLE_RATE) if self._seg_onset else 0
        return max(self._seg_start * FRAME - pre, self._emitted_until, 0)

    def flush(self, total_samples: int) -> Segment | None:
        """Close the open segment (if any) when the recording stops.

        Speech still going on at the end runs to the last sample, so a key press in
        mid-sentence keeps the words said up to it.
        """
        if self._seg_start is None:
            return None
        end_frame = self.frames if self.speaking else self._last_speech + 1
        if self.speaking:
            end_frame = max(end_frame, -(-total_samples // FRAME))
        seg = self._close(end_frame, limit=total_samples)
        if seg is None:
            return None
        seg.final = True
        self.closed.append(seg)
        return seg
