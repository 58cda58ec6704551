"""Model resolution and device choice, without loading a model."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from sayitout.errors import ModelError
from sayitout.integrity import sha256_file
from sayitout.speech import models
from sayitout.speech.models import (
    joined_base_dir,
    pick_device,
    resolve_model,
    verify_model_dir,
)


def make_ct2_dir(path: Path) -> Path:
    path.mkdir(parents=True)
    (path / "model.bin").write_bytes(b"\0" * 16)
    (path / "config.json").write_text("{}")
    (path / "tokenizer.json").write_text("{}")
    return path


def test_device_auto_is_cpu_int8_without_gpu(monkeypatch):
    monkeypatch.setattr(models, "cuda_device_count", lambda: 0)
    assert pick_device("auto") == ("cpu", "int8")
    assert pick_device("cpu", "float32") == ("cpu", "float32")


def test_device_auto_is_cuda_float16_with_gpu(monkeypatch):
    monkeypatch.setattr(models, "cuda_device_count", lambda: 1)
    import ctranslate2

    monkeypatch.setattr(ctranslate2, "get_supported_compute_types", lambda d: {"float16", "int8"})
    assert pick_device("auto") == ("cuda", "float16")
    assert pick_device("auto", "int8") == ("cuda", "int8")


def test_cuda_requested_without_gpu_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(models, "cuda_device_count", lambda: 0)
    with pytest.raises(ModelError, match="no CUDA GPU") as err:
        pick_device("cuda")
    assert "asr.device" in err.value.hint


def test_unsupported_compute_type_names_the_choices(monkeypatch):
    monkeypatch.setattr(models, "cuda_device_count", lambda: 0)
    with pytest.raises(ModelError, match="not supported") as err:
        pick_device("cpu", "bogus16")
    assert "int8" in err.value.hint


def test_bundled_tiny_en_resolves_and_verifies():
    m = resolve_model("tiny.en")
    assert m.source == "bundled" and m.english_only
    assert (m.path / "model.bin").is_file()


def test_local_directory(tmp_path):
    d = make_ct2_dir(tmp_path / "my-model")
    m = resolve_model(str(d))
    assert m.source == "local" and m.path == d


def test_local_directory_missing_files(tmp_path):
    d = tmp_path / "broken"
    d.mkdir()
    (d / "config.json").write_text("{}")
    with pytest.raises(ModelError, match=r"not a CTranslate2 Whisper model: model\.bin"):
        resolve_model(str(d))


def test_missing_local_path(tmp_path):
    with pytest.raises(ModelError, match="does not exist"):
        resolve_model(str(tmp_path / "nowhere" / "model"))


def test_hub_name_offline_fails_fast(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", "/nonexistent-hf-home")
    t0 = time.monotonic()
    with pytest.raises(ModelError, match="not bundled") as err:
        resolve_model("small.en")
    assert time.monotonic() - t0 < 5
    assert "path" in err.value.hint and "tiny.en" in err.value.hint


def test_unknown_name_lists_the_choices():
    with pytest.raises(ModelError, match="Unknown Whisper model") as err:
        resolve_model("tiny-english-please")
    assert "tiny.en" in err.value.hint


def test_verify_model_dir_checks_digests(tmp_path):
    d = make_ct2_dir(tmp_path / "m")
    good = sha256_file(d / "model.bin")
    verify_model_dir(d, {"model.bin": good})
    with pytest.raises(ModelError, match="damaged or was changed"):
        verify_model_dir(d, {"model.bin": "0" * 64})


@pytest.fixture
def fake_base(tmp_path, monkeypatch):
    data = tmp_path / "pkg"
    data.mkdir()
    (data / "model.bin.part1").write_bytes(b"A" * 1000)
    (data / "model.bin.part2").write_bytes(b"B" * 500)
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        (data / name).write_text(name)
    monkeypatch.setattr(
        models,
        "base_part_files",
        lambda: (data / "model.bin.part1", data / "model.bin.part2", data),
    )
    return data


def test_base_is_joined_once_and_reused(fake_base, tmp_path):
    target = joined_base_dir(tmp_path / "cache")
    assert (target / "model.bin").read_bytes() == b"A" * 1000 + b"B" * 500
    assert (target / "tokenizer.json").read_text() == "tokenizer.json"
    assert not list(target.glob("*.tmp"))
    mtime = (target / "model.bin").stat().st_mtime_ns
    time.sleep(0.01)
    assert joined_base_dir(tmp_path / "cache") == target
    assert (target / "model.bin").stat().st_mtime_ns == mtime  # reused, not rewritten


def test_a_damaged_join_is_redone(fake_base, tmp_path):
    target = joined_base_dir(tmp_path / "cache")
    (target / "model.bin").write_bytes(b"A" * 10)  # truncated by a crash or a user
    joined_base_dir(tmp_path / "cache")
    assert (target / "model.bin").stat().st_size == 1500


def test_upgraded_parts_are_joined_again(fake_base, tmp_path):
    target = joined_base_dir(tmp_path / "cache")
    (fake_base / "model.bin.part2").write_bytes(b"C" * 700)
    os.utime(fake_base / "model.bin.part2", (1, 1))
    joined_base_dir(tmp_path / "cache")
    assert (target / "model.bin").read_bytes().endswith(b"C" * 700)


def test_real_base_join_into_the_cache(sayitout_home):
    """The bundled base halves join into the cache dir and form a loadable directory."""
    m = resolve_model("base")
    assert m.source == "bundled" and not m.english_only
    assert str(m.path).startswith(str(sayitout_home))
    size = (m.path / "model.bin").stat().st_size
    p1, p2, _ = models.base_part_files()
    assert size == p1.stat().st_size + p2.stat().st_size
