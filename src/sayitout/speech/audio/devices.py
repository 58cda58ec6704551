"""PortAudio through sounddevice: loading it, listing and choosing devices, health checks.

sounddevice is imported lazily: a machine without the PortAudio library can still run
sayitout with typed answers or ``--mic-file``; only the functions that need a sound
card raise :class:`AudioError`, with the fix.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from types import ModuleType

from sayitout.errors import AudioError

NO_PORTAUDIO_FIX = (
    "install the PortAudio library (Debian/Ubuntu: apt-get install libportaudio2; "
    "macOS: brew install portaudio), or answer by typing or with --mic-file FILE"
)
NO_INPUT_FIX = (
    "plug in a microphone and pick it with the audio.input_device setting (list them with "
    "`python -m sayitout.speech.audio.devices`), or answer by typing or with --mic-file FILE"
)
NO_OUTPUT_FIX = (
    "connect speakers or headphones and pick them with the audio.output_device setting "
    "(list them with `python -m sayitout.speech.audio.devices`), or run with --tts none"
)


def sounddevice() -> ModuleType:
    """The sounddevice module, or an :class:`AudioError` saying how to get PortAudio."""
    try:
        import sounddevice as sd
    except OSError as exc:  # "PortAudio library not found"
        raise AudioError(
            f"The PortAudio sound library is not available: {exc}", NO_PORTAUDIO_FIX
        ) from exc
    except ImportError as exc:
        raise AudioError(
            "The sounddevice package is not installed", "pip install sounddevice"
        ) from exc
    return sd


@dataclass(frozen=True)
class Device:
    index: int
    name: str
    hostapi: str
    max_input_channels: int
    max_output_channels: int
    default_samplerate: float
    is_default_input: bool = False
    is_default_output: bool = False

    @property
    def is_input(self) -> bool:
        return self.max_input_channels > 0

    @property
    def is_output(self) -> bool:
        return self.max_output_channels > 0

    def describe(self) -> str:
        kinds = "/".join(k for k, ok in (("in", self.is_input), ("out", self.is_output)) if ok)
        marks = "".join(
            m
            for m, ok in (
                (" [default in]", self.is_default_input),
                (" [default out]", self.is_default_output),
            )
            if ok
        )
        return (
            f"{self.index}: {self.name} ({self.hostapi}, {kinds}, "
            f"{self.default_samplerate:.0f} Hz){marks}"
        )


def _default_indices(sd: ModuleType) -> tuple[int, int]:
    try:
        din, dout = sd.default.device
    except Exception:  # pragma: no cover - odd PortAudio builds
        return -1, -1
    return (int(din) if din is not None else -1, int(dout) if dout is not None else -1)


def list_devices() -> list[Device]:
    """Every audio device PortAudio sees."""
    sd = sounddevice()
    try:
        raw = sd.query_devices()
        apis = sd.query_hostapis()
    except Exception as exc:
        raise AudioError(f"Cannot list audio devices: {exc}", NO_PORTAUDIO_FIX) from exc
    din, dout = _default_indices(sd)
    out = []
    for i, d in enumerate(raw):
        api = apis[d["hostapi"]]["name"] if d["hostapi"] < len(apis) else "?"
        out.append(
            Device(
                i,
                d["name"],
                api,
                int(d["max_input_channels"]),
                int(d["max_output_channels"]),
                float(d["default_samplerate"]),
                i == din,
                i == dout,
            )
        )
    return out


def resolve_device(spec: str | int | None, kind: str) -> Device:
    """Find the input or output device a setting names.

    ``spec`` is an index, an exact name, or a case-insensitive part of a name; None is
    the system default. ``kind`` is ``"input"`` or ``"output"``.
    """
    devices = list_devices()
    want_in = kind == "input"
    usable = [d for d in devices if (d.is_input if want_in else d.is_output)]
    fix = NO_INPUT_FIX if want_in else NO_OUTPUT_FIX
    if not usable:
        raise AudioError(f"No audio {kind} device was found", fix)
    if spec is None or spec == "":
        defaults = [d for d in usable if (d.is_default_input if want_in else d.is_default_output)]
        return defaults[0] if defaults else usable[0]
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        idx = int(spec)
        for d in usable:
            if d.index == idx:
                return d
        raise AudioError(
            f"There is no audio {kind} device number {idx}",
            f"choose one of: {', '.join(d.describe() for d in usable)}",
        )
    exact = [d for d in usable if d.name == spec]
    if exact:
        return exact[0]
    part = [d for d in usable if str(spec).lower() in d.name.lower()]
    if part:
        return part[0]
    raise AudioError(
        f"No audio {kind} device matches {spec!r}",
        f"choose one of: {', '.join(d.describe() for d in usable)}",
    )


def output_problem(spec: str | int | None = None) -> tuple[str, str | None] | None:
    """Why nothing can be played here (no PortAudio, no output device, a setting that
    names none), as ``(message, fix)``; ``None`` when sound can be played."""
    try:
        resolve_device(spec, "output")
    except AudioError as exc:
        return (exc.message, exc.hint)
    except Exception as exc:  # PortAudio failing in a way nobody foresaw
        return (f"the sound system cannot be used: {exc}", "run `sayitout doctor`")
    return None


def supports_rate(device: Device, rate: int, kind: str, channels: int = 1) -> bool:
    sd = sounddevice()
    try:
        if kind == "input":
            sd.check_input_settings(
                device=device.index, samplerate=rate, channels=channels, dtype="float32"
            )
        else:
            sd.check_output_settings(
                device=device.index, samplerate=rate, channels=channels, dtype="float32"
            )
    except Exception:
        return False
    return True


def check_audio(
    input_device: str | int | None = None, output_device: str | int | None = None
) -> list[tuple[str, bool, str]]:
    """Health checks for ``sayitout doctor``: (name, ok, detail or fix)."""
    checks: list[tuple[str, bool, str]] = []
    try:
        sd = sounddevice()
        version = sd.get_portaudio_version()[1]
        checks.append(("audio library (PortAudio)", True, str(version)))
    except AudioError as exc:
        checks.append(("audio library (PortAudio)", False, f"{exc.message}; fix: {exc.hint}"))
        return checks
    for kind, spec in (("input", input_device), ("output", output_device)):
        name = f"audio {kind} device"
        try:
            dev = resolve_device(spec, kind)
        except AudioError as exc:
            checks.append((name, False, f"{exc.message}; fix: {exc.hint}"))
            continue
        if kind == "input":
            ok16 = supports_rate(dev, 16_000, "input")
            detail = dev.describe() + (
                "" if ok16 else f"; records at {dev.default_samplerate:.0f} Hz and resamples"
            )
        else:
            detail = dev.describe()
        checks.append((name, True, detail))
    return checks


def main() -> int:  # pragma: no cover - a debugging aid: python -m ...devices
    try:
        devices = list_devices()
    except AudioError as exc:
        print(f"{exc.message}\n  fix: {exc.hint}")
        return 1
    for d in devices:
        print(d.describe())
    if not devices:
        print(f"No audio devices found.\n  fix: {NO_INPUT_FIX}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
