"""Sample-rate conversion: whole arrays and streams, with a polyphase FIR (scipy)."""

from __future__ import annotations

from math import gcd

import numpy as np


def _ratio(src: int, dst: int) -> tuple[int, int]:
    g = gcd(int(src), int(dst))
    return int(dst) // g, int(src) // g


def resample(audio: np.ndarray, src_rate: int, dst_rate: int) -> np.ndarray:
    """Resample a mono float32 array (anti-aliased)."""
    audio = np.asarray(audio, dtype=np.float32).reshape(-1)
    if src_rate == dst_rate or audio.size == 0:
        return audio
    from scipy.signal import resample_poly

    up, down = _ratio(src_rate, dst_rate)
    return resample_poly(audio, up, down).astype(np.float32)


def to_mono(audio: np.ndarray) -> np.ndarray:
    """Average the channels of a (frames, channels) array."""
    audio = np.asarray(audio, dtype=np.float32)
    if audio.ndim == 1:
        return audio
    if audio.shape[1] == 1:
        return audio[:, 0]
    return audio.mean(axis=1, dtype=np.float32)


class StreamResampler:
    """Resample a stream chunk by chunk, with the same result as resampling it whole.

    Overlap-save: each block is filtered together with ``ctx`` input samples either side,
    and only the output that depends on real input is emitted. Output lags the input by
    ``ctx`` samples until :meth:`flush`.
    """

    def __init__(self, src_rate: int, dst_rate: int) -> None:
        self.src_rate, self.dst_rate = int(src_rate), int(dst_rate)
        self.up, self.down = _ratio(self.src_rate, self.dst_rate)
        # resample_poly's filter spans 10 * max(up, down) samples each side at the
        # upsampled rate; in input samples, rounded up to a multiple of ``down``.
        half = -(-10 * max(self.up, self.down) // self.up) + 1
        self.ctx = -(-half // self.down) * self.down
        self._buf = np.zeros(self.ctx, dtype=np.float32)
        self._passthrough = self.up == self.down

    def push(self, audio: np.ndarray) -> np.ndarray:
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        if self._passthrough:
            return audio
        self._buf = np.concatenate([self._buf, audio])
        return self._process(final=False)

    def flush(self) -> np.ndarray:
        if self._passthrough:
            return np.zeros(0, dtype=np.float32)
        real = self._buf.size - self.ctx  # input samples not yet emitted
        if real <= 0:
            return np.zeros(0, dtype=np.float32)
        pad = (-real) % self.down
        self._buf = np.concatenate([self._buf, np.zeros(pad + self.ctx, dtype=np.float32)])
        out = self._process(final=True)
        n_out = -(-real * self.up // self.down)
        return out[:n_out]

    def _process(self, final: bool) -> np.ndarray:
        from scipy.signal import resample_poly

        usable = self._buf.size - 2 * self.ctx
        n = (usable // self.down) * self.down
        if n <= 0:
            return np.zeros(0, dtype=np.float32)
        block = self._buf[: n + 2 * self.ctx]
        y = resample_poly(block, self.up, self.down)
        a = self.ctx * self.up // self.down
        b = (self.ctx + n) * self.up // self.down
        self._buf = self._buf[n:]
        if final:
            self._buf = np.zeros(self.ctx, dtype=np.float32)
        return y[a:b].astype(np.float32)
