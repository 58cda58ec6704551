"""One typed settings model, read from ``config.toml`` in the config dir.

Every field has a default, so a missing file is the default config. A file with a
wrong type or an unknown key is a :class:`ConfigError` naming the file and key.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sayitout.errors import ConfigError
from sayitout.locations import ensure_dir, locations


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class SpeechSettings(_Section):
    tts: Literal["piper", "pyttsx3", "none"] = "piper"
    """Text-to-speech backend: the bundled neural voice, the system's voices, or silence."""
    voice: str | None = None
    """A pyttsx3 voice id or a path to a piper ``.onnx`` voice; None picks the default."""
    rate: float = Field(1.0, ge=0.5, le=2.0)
    """Speaking speed, 1.0 is normal."""


class AsrSettings(_Section):
    model: str = "tiny.en"
    """``tiny.en`` and ``base`` are bundled; also a CTranslate2 directory or a hub model name
    (a hub name needs a network connection the first time)."""
    device: Literal["auto", "cpu", "cuda"] = "auto"
    """``auto`` uses CUDA with float16 when a GPU is visible, else the CPU with int8."""
    compute_type: str | None = None
    """Override the CTranslate2 compute type (``int8``, ``float16``...); None picks per device."""
    beam_size: int = Field(1, ge=1, le=10)
    """1 is greedy decoding (fastest); 5 is a little more accurate and slower."""
    cpu_threads: int = Field(2, ge=1, le=64)
    """CPU threads for transcription; 2 measured fastest on a 2-core machine."""


class AudioSettings(_Section):
    input_device: str | int | None = None
    """A sounddevice input device name or index; None uses the system default."""
    output_device: str | int | None = None
    """A sounddevice output device name or index; None uses the system default."""
    silence_timeout_s: float = Field(4.0, ge=0.5, le=30.0)
    """Seconds of silence after speech that end an answer. Interview thinking pauses of
    2-3 s are common, so the default waits longer than that."""
    max_answer_s: float = Field(180.0, ge=5.0, le=3600.0)
    """The longest an answer may run before recording stops."""
    pre_roll_s: float = Field(0.3, ge=0.0, le=2.0)
    """Audio kept from before speech starts, so the first word is not clipped."""


class PracticeSettings(_Section):
    count: int = Field(5, ge=1, le=200)
    """Questions per session."""
    order: Literal["due", "random", "in-order"] = "due"
    """Which questions come first."""
    thinking_s: float = Field(0.0, ge=0.0, le=120.0)
    """Thinking time after the question before recording starts."""
    answer_limit_s: float | None = None
    """Answer time limit; None uses each question's suggested time."""
    follow_ups: int = Field(1, ge=0, le=2)
    """Follow-up questions the interviewer may ask about missed key points, per question."""


class ScoringSettings(_Section):
    device: Literal["auto", "cpu", "cuda"] = "auto"
    """Device for the sentence-embedding model."""


class Settings(_Section):
    speech: SpeechSettings = SpeechSettings()
    asr: AsrSettings = AsrSettings()
    audio: AudioSettings = AudioSettings()
    practice: PracticeSettings = PracticeSettings()
    scoring: ScoringSettings = ScoringSettings()
    theme: Literal["dark", "light"] = "dark"
    """The app's colour theme."""


def load_settings(path: Path | None = None) -> Settings:
    """Read the config file (default: the config dir's ``config.toml``)."""
    path = path or locations().config_file
    if not path.exists():
        return Settings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text", "save the file as UTF-8") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}", "fix the line named above") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror}") from exc
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()
        )
        raise ConfigError(
            f"{path}: {problems}",
            "fix or delete these keys; `sayitout config --defaults` shows every key",
        ) from exc


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def dump_settings(settings: Settings) -> str:
    """Render settings as TOML (None values are left out: they mean the default)."""
    lines: list[str] = []
    top = settings.model_dump()
    for key, value in top.items():
        if not isinstance(value, dict) and value is not None:
            lines.append(f"{key} = {_toml_value(value)}")
    for section, values in top.items():
        if isinstance(values, dict):
            lines.append(f"\n[{section}]")
            lines += [f"{k} = {_toml_value(v)}" for k, v in values.items() if v is not None]
    return "\n".join(lines).lstrip() + "\n"


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the config file atomically."""
    path = path or locations().config_file
    ensure_dir(path.parent)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(dump_settings(settings), encoding="utf-8")
    tmp.replace(path)
    return path
