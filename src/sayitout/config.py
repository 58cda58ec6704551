"""One typed settings model, read from ``config.toml`` in the config dir.

Every field has a default, so a missing file is the default config. A file with a
wrong type or an unknown key is a :class:`ConfigError` naming the file and key.
"""

from __future__ import annotations

import re
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


def _toml_string(text: str) -> str:
    """A TOML basic string that reads back as ``text``, whatever characters it holds."""
    out = ['"']
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    return _toml_string(str(value))


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
    """Write the config file atomically.

    An existing file keeps its comments, order and layout: only the lines of values
    that changed are rewritten (a removed value's line is dropped, a new one is added
    to its section). The result is read back and must give exactly ``settings``;
    if it would not (a layout this editor does not understand), the whole file is
    written afresh instead.
    """
    path = path or locations().config_file
    ensure_dir(path.parent)
    text = dump_settings(settings)
    try:
        old = path.read_text(encoding="utf-8") if path.exists() else None
    except (OSError, UnicodeDecodeError):
        old = None
    if old is not None and old.strip():
        try:
            edited = _edit_toml(old, settings)
            if Settings.model_validate(tomllib.loads(edited)) == settings:
                text = edited
        except (tomllib.TOMLDecodeError, ValidationError, ValueError):
            pass
    # Never write what cannot be read back.
    if Settings.model_validate(tomllib.loads(text)) != settings:
        raise ConfigError("the settings cannot be written as TOML", "report this as a bug")
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


_TABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"^(\s*)([A-Za-z0-9_-]+)(\s*=\s*)(.*)$")


def _split_value(rest: str) -> tuple[str, str]:
    """``(value, trailing comment with its spacing)`` of what follows ``key =``."""
    if rest[:1] in ('"', "'"):
        quote, i = rest[0], 1
        while i < len(rest):
            if quote == '"' and rest[i] == "\\":
                i += 2
                continue
            if rest[i] == quote:
                break
            i += 1
        end = i + 1
    else:
        end = rest.find("#")
        end = len(rest) if end < 0 else end
        while end > 0 and rest[end - 1] in " \t":
            end -= 1
    return rest[:end], rest[end:]


def _edit_toml(old: str, settings: Settings) -> str:
    """``old`` with each setting's line set to its new value (see :func:`save_settings`)."""
    wanted: dict[tuple[str, str], object] = {}
    for key, value in settings.model_dump().items():
        if isinstance(value, dict):
            for k, v in value.items():
                wanted[(key, k)] = v
        else:
            wanted[("", key)] = value
    lines = old.splitlines()
    out: list[str] = []
    section = ""
    seen: set[tuple[str, str]] = set()
    last_line_of: dict[str, int] = {"": -1}
    for line in lines:
        table = _TABLE.match(line)
        if table:
            section = table.group(1)
            out.append(line)
            last_line_of.setdefault(section, len(out) - 1)
            continue
        pair = _KEY.match(line)
        if pair and (section, pair.group(2)) in wanted:
            name = (section, pair.group(2))
            seen.add(name)
            value = wanted[name]
            if value is None:
                continue  # back to the default: the line goes
            old_value, comment = _split_value(pair.group(4))
            new_value = _toml_value(value)
            try:
                same = tomllib.loads(f"v = {old_value}")["v"] == value
            except tomllib.TOMLDecodeError:
                same = False
            out.append(
                line
                if same
                else f"{pair.group(1)}{pair.group(2)}{pair.group(3)}{new_value}{comment}"
            )
            last_line_of[section] = len(out) - 1
            continue
        out.append(line)
        if line.strip() and not line.lstrip().startswith("#"):
            last_line_of[section] = len(out) - 1
    # Values the file did not have: into their section (created at the end if missing).
    missing: dict[str, list[str]] = {}
    for (sec, k), v in wanted.items():
        if (sec, k) not in seen and v is not None and v != _default(sec, k):
            missing.setdefault(sec, []).append(f"{k} = {_toml_value(v)}")
    for sec, new_lines in sorted(missing.items(), key=lambda kv: -last_line_of.get(kv[0], 10**9)):
        if sec in last_line_of:
            at = last_line_of[sec] + 1
            out[at:at] = new_lines
        else:
            out += ["", f"[{sec}]", *new_lines]
    return "\n".join(out).rstrip("\n") + "\n"


def _default(section: str, key: str) -> object:
    defaults = Settings().model_dump()
    return defaults[key] if not section else defaults[section][key]
