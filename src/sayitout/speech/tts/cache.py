"""A disk cache of synthesised sentences, so a question heard before plays at once.

Keyed by backend, voice, rate and text (SHA-256); stored as FLAC in
``locations().cache_dir / "tts"``. Files are written atomically; a damaged file is a
miss, never an error. The cache is trimmed to ``max_mb`` oldest-first.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import uuid
from pathlib import Path

import numpy as np

from sayitout.locations import ensure_dir, locations

log = logging.getLogger(__name__)

CACHE_VERSION = "1"


class SynthCache:
    def __init__(self, directory: Path | None = None, max_mb: float = 200.0) -> None:
        self.directory = directory or locations().cache_dir / "tts"
        self.max_mb = max_mb
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()
        self._writes = 0

    @staticmethod
    def key(backend: str, voice: str, rate: float, text: str) -> str:
        raw = f"{CACHE_VERSION}|{backend}|{voice}|{rate:.3f}|{text}"
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:40]

    def path(self, key: str) -> Path:
        return self.directory / f"{key}.flac"

    def get(self, key: str) -> tuple[np.ndarray, int] | None:
        import soundfile as sf

        p = self.path(key)
        if not p.is_file():
            with self._lock:
                self.misses += 1
            return None
        try:
            audio, sr = sf.read(str(p), dtype="float32", always_2d=False)
        except Exception as exc:  # damaged: drop it and synthesise again
            log.warning("dropping damaged TTS cache file %s: %s", p, exc)
            p.unlink(missing_ok=True)
            with self._lock:
                self.misses += 1
            return None
        with self._lock:
            self.hits += 1
        return np.asarray(audio, dtype=np.float32).reshape(-1), int(sr)

    def put(self, key: str, audio: np.ndarray, sample_rate: int) -> None:
        import soundfile as sf

        if audio.size == 0:
            return
        try:
            ensure_dir(self.directory)
            final = self.path(key)
            tmp = final.with_name(f".{final.stem}.{uuid.uuid4().hex[:8]}.tmp.flac")
            sf.write(
                str(tmp), np.clip(audio, -1, 1), int(sample_rate), format="FLAC", subtype="PCM_16"
            )
            os.replace(tmp, final)
        except Exception as exc:  # a cache that cannot be written is only slower
            log.warning("cannot write the TTS cache in %s: %s", self.directory, exc)
            return
        with self._lock:
            self._writes += 1
            trim = self._writes % 50 == 1
        if trim:
            self.trim()

    def trim(self) -> None:
        """Delete the oldest files until the cache is under ``max_mb``."""
        try:
            files = [
                (p.stat().st_mtime, p.stat().st_size, p) for p in self.directory.glob("*.flac")
            ]
        except OSError:
            return
        total = sum(s for _, s, _ in files)
        limit = self.max_mb * 1e6
        for _, size, p in sorted(files):
            if total <= limit:
                break
            p.unlink(missing_ok=True)
            total -= size
