"""Read audio files of any common format as 16 kHz mono float32.

libsndfile (soundfile) reads WAV, FLAC, OGG/Vorbis/Opus, MP3, AIFF and more; anything
else (M4A/AAC, WebM, video containers) goes through PyAV, which faster-whisper brings.
Every failure is an :class:`AudioError` that names the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from sayitout.errors import AudioError
from sayitout.speech.audio.resample import StreamResampler, resample, to_mono

TARGET_RATE = 16_000
_BLOCK = 16_384


def _fix(path: Path) -> str:
    return (
        f"check that {path.name} is a complete audio file (WAV, FLAC, OGG, MP3, M4A...); "
        "convert it with e.g. `sox IN -r 16000 -c 1 OUT.wav` or `ffmpeg -i IN OUT.wav`"
    )


def _check_path(path: Path) -> None:
    if not path.exists():
        raise AudioError(f"Audio file not found: {path}", "check the path")
    if path.is_dir():
        raise AudioError(f"{path} is a directory, not an audio file", "give the path to a file")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise AudioError(f"Cannot read the audio file {path}: {exc.strerror}") from exc
    if size == 0:
        raise AudioError(f"The audio file {path} is empty (0 bytes)", _fix(path))


def _decode_av(path: Path) -> np.ndarray:
    try:
        from faster_whisper.audio import decode_audio
    except ImportError as exc:  # pragma: no cover
        raise AudioError(f"Cannot decode {path}: unsupported format", _fix(path)) from exc
    try:
        audio = decode_audio(str(path), sampling_rate=TARGET_RATE)
    except Exception as exc:  # PyAV raises many exception types
        raise AudioError(
            f"Cannot decode the audio file {path}: not audio, unsupported or damaged ({exc})",
            _fix(path),
        ) from exc
    return np.asarray(audio, dtype=np.float32)


def _open_sf(path: Path):  # -> soundfile.SoundFile | None
    import soundfile as sf

    try:
        return sf.SoundFile(str(path))
    except (sf.LibsndfileError, RuntimeError, TypeError):
        return None


def _invalid_samples(path: Path, at_s: float) -> AudioError:
    return AudioError(
        f"The audio file {path} holds invalid samples (NaN or infinity) at about "
        f"{at_s:.1f} s: it is damaged or was written by a faulty program",
        f"re-export {path.name} as 16-bit PCM, e.g. `ffmpeg -i {path.name} -c:a pcm_s16le "
        "fixed.wav`",
    )


def iter_audio_blocks(path: Path | str, block: int = _BLOCK) -> Iterator[np.ndarray]:
    """Yield the file as 16 kHz mono float32 blocks (memory stays small for long files).

    Every block holds finite samples: NaN or infinity (a float WAV from a faulty
    program) is an :class:`AudioError` that names the file and the time.
    """
    path = Path(path)
    done = 0
    for out in _raw_blocks(path, block):
        if not np.isfinite(out).all():
            bad = int(np.argmin(np.isfinite(out)))
            raise _invalid_samples(path, (done + bad) / TARGET_RATE)
        done += out.size
        yield out


def _raw_blocks(path: Path, block: int) -> Iterator[np.ndarray]:
    _check_path(path)
    f = _open_sf(path)
    if f is None:
        audio = _decode_av(path)
        if audio.size == 0:
            raise AudioError(f"The audio file {path} holds no audio (0 seconds)", _fix(path))
        for i in range(0, audio.size, block):
            yield audio[i : i + block]
        return
    with f:
        if f.frames == 0 or f.samplerate <= 0:
            raise AudioError(f"The audio file {path} holds no audio (0 seconds)", _fix(path))
        rs = StreamResampler(f.samplerate, TARGET_RATE)
        produced = 0
        try:
            while True:
                data = f.read(block, dtype="float32", always_2d=True)
                if data.size == 0:
                    break
                out = rs.push(to_mono(data))
                produced += out.size
                if out.size:
                    yield out
        except (RuntimeError, ValueError) as exc:  # truncated or damaged data
            if produced == 0:
                # libsndfile gives up on a FLAC cut off mid-stream (a recording killed
                # in its first second); FFmpeg still reads the frames that were written
                try:
                    audio = _decode_av(path)
                except AudioError:
                    audio = np.zeros(0, dtype=np.float32)
                if audio.size == 0:
                    raise AudioError(
                        f"Cannot decode the audio file {path}: damaged data ({exc})", _fix(path)
                    ) from exc
                for i in range(0, audio.size, block):
                    yield audio[i : i + block]
                return
            # keep what could be read; a truncated recording is still an answer
        tail = rs.flush()
        if tail.size:
            produced += tail.size
            yield tail
        if produced == 0:
            raise AudioError(f"The audio file {path} holds no audio (0 seconds)", _fix(path))


def iter_audio_windows(
    path: Path | str, window_s: float = 300.0, search_s: float = 20.0
) -> Iterator[tuple[float, np.ndarray]]:
    """Yield ``(offset seconds, audio)`` pieces of at most ``window_s`` seconds, cut at
    the quietest 0.2 s in the last ``search_s`` seconds of each piece (between words,
    not inside one). A file shorter than ``window_s`` comes as one piece, as
    :func:`load_audio` gives it; a long one never needs more than about two pieces of
    memory, however long it is."""
    window = round(window_s * TARGET_RATE)
    search = min(round(search_s * TARGET_RATE), window // 2)
    step = TARGET_RATE // 5
    buffered: list[np.ndarray] = []
    size = 0
    offset = 0
    for block in iter_audio_blocks(path):
        buffered.append(block)
        size += block.size
        while size > window:
            audio = np.concatenate(buffered)
            tail = audio[window - search : window]
            frames = tail[: tail.size // step * step].reshape(-1, step)
            quietest = int(np.argmin(np.einsum("ij,ij->i", frames, frames)))
            cut = window - search + quietest * step + step // 2
            yield offset / TARGET_RATE, audio[:cut].copy()
            offset += cut
            buffered, size = [audio[cut:]], audio.size - cut
    if buffered and (size or offset == 0):
        audio = np.concatenate(buffered) if len(buffered) > 1 else buffered[0]
        yield offset / TARGET_RATE, audio


def load_audio(path: Path | str) -> np.ndarray:
    """The whole file as one 16 kHz mono float32 array."""
    blocks = list(iter_audio_blocks(path))
    return np.concatenate(blocks) if len(blocks) > 1 else blocks[0]


def audio_info(path: Path | str) -> tuple[float, int, int]:
    """(seconds, sample rate, channels) of a file, without decoding it all."""
    path = Path(path)
    _check_path(path)
    f = _open_sf(path)
    if f is None:
        audio = _decode_av(path)
        return audio.size / TARGET_RATE, TARGET_RATE, 1
    with f:
        return f.frames / f.samplerate if f.samplerate else 0.0, f.samplerate, f.channels


def audio_seconds(path: Path | str) -> float | None:
    """The file's length in seconds when its header says so (WAV, FLAC, OGG), ``None``
    when only decoding it all would tell (MP3, M4A...). Raises :class:`AudioError` for
    a missing, empty or directory path, before anything slow happens."""
    path = Path(path)
    _check_path(path)
    f = _open_sf(path)
    if f is None:
        return None
    with f:
        return f.frames / f.samplerate if f.samplerate else None


__all__ = [
    "TARGET_RATE",
    "audio_info",
    "audio_seconds",
    "iter_audio_blocks",
    "iter_audio_windows",
    "load_audio",
    "resample",
]
