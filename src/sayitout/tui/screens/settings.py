"""Settings: voice and rate, speech model and device, microphone, silence timeout,
time limits; saved to the config file."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import ValidationError
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static

from sayitout.config import Settings
from sayitout.errors import SayitoutError
from sayitout.tui.messages import SaveSettings

_DEFAULT_MIC = "__default__"


class DevicesFound(Message):
    def __init__(self, devices: list[tuple[str, str]], problem: str | None) -> None:
        super().__init__()
        self.devices = devices
        self.problem = problem


def _num(text: str) -> float | None:
    text = text.strip()
    return float(text) if text else None


class SettingsScreen(Screen):
    CSS_PATH = "settings.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "cancel", "Back"),
    ]

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings

    def _field(self, label: str, widget: Any, help_text: str = "") -> Vertical:
        return Vertical(Label(label), widget, Static(help_text, classes="help"), classes="field")

    def compose(self) -> ComposeResult:
        s = self.settings
        mic = s.audio.input_device
        yield Header()
        with VerticalScroll(id="settings-body"):
            yield Static("Voice", classes="section")
            yield Grid(
                self._field(
                    "Read questions with",
                    Select(
                        [
                            ("piper (natural)", "piper"),
                            ("system (pyttsx3)", "pyttsx3"),
                            ("silent", "none"),
                        ],
                        value=s.speech.tts,
                        allow_blank=False,
                        id="tts",
                    ),
                ),
                self._field(
                    "Voice",
                    Input(s.speech.voice or "", id="voice", placeholder="default"),
                    "a voice id or .onnx file",
                ),
                self._field(
                    "Speaking rate",
                    Input(f"{s.speech.rate:g}", id="rate", type="number"),
                    "0.5 to 2 (1 is normal)",
                ),
                classes="row",
            )
            yield Static("Speech recognition", classes="section")
            yield Grid(
                self._field(
                    "Speech model",
                    Input(s.asr.model, id="asr-model"),
                    "tiny.en, base or a folder",
                ),
                self._field(
                    "Device",
                    Select(
                        [("auto (GPU if present)", "auto"), ("CPU", "cpu"), ("CUDA GPU", "cuda")],
                        value=s.asr.device,
                        allow_blank=False,
                        id="asr-device",
                    ),
                ),
                self._field(
                    "Microphone",
                    Select(
                        [("system default", _DEFAULT_MIC)]
                        + ([(str(mic), str(mic))] if mic is not None else []),
                        value=_DEFAULT_MIC if mic is None else str(mic),
                        allow_blank=False,
                        id="mic",
                    ),
                    "looking for devices…",
                ),
                classes="row",
            )
            yield Static("Answers", classes="section")
            yield Grid(
                self._field(
                    "Silence ends answer (s)",
                    Input(f"{s.audio.silence_timeout_s:g}", id="silence", type="number"),
                    "thinking pauses run 2-3 s",
                ),
                self._field(
                    "Longest answer (s)",
                    Input(f"{s.audio.max_answer_s:g}", id="max-answer", type="number"),
                ),
                self._field(
                    "Answer limit (s)",
                    Input(
                        ""
                        if s.practice.answer_limit_s is None
                        else f"{s.practice.answer_limit_s:g}",
                        id="limit",
                        placeholder="per question",
                        type="number",
                    ),
                ),
                self._field(
                    "Thinking time (s)",
                    Input(f"{s.practice.thinking_s:g}", id="thinking", type="number"),
                ),
                self._field(
                    "Questions per session",
                    Input(str(s.practice.count), id="count", type="integer"),
                ),
                self._field(
                    "Follow-ups per question",
                    Select(
                        [("none", "0"), ("1", "1"), ("2", "2")],
                        value=str(s.practice.follow_ups),
                        allow_blank=False,
                        id="follow-ups",
                    ),
                    "on key points you miss",
                ),
                self._field(
                    "Theme",
                    Select(
                        [("dark", "dark"), ("light", "light")],
                        value=s.theme,
                        allow_blank=False,
                        id="theme",
                    ),
                ),
                classes="row",
            )
            with Horizontal(id="settings-buttons"):
                yield Button("Back", id="cancel")
                yield Button("Save", id="save", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "sayitout"
        self.sub_title = "settings"
        # After the first paint: the worker imports the sound library, which holds the
        # GIL long enough to keep the form from appearing if it starts first.
        self.call_after_refresh(self.find_devices)

    @work(thread=True, exclusive=True, exit_on_error=False, group="devices")
    def find_devices(self) -> None:
        try:
            from sayitout.speech.audio.devices import list_devices

            found = [(d.describe(), d.name) for d in list_devices() if d.is_input]
            problem = None if found else "no input device found"
        except SayitoutError as exc:
            found, problem = [], exc.message
        except ImportError:
            found, problem = [], "audio support is not installed"
        self.post_message(DevicesFound(found, problem))

    @on(DevicesFound)
    def _devices(self, message: DevicesFound) -> None:
        select = self.query_one("#mic", Select)
        current = select.value
        options = [("system default", _DEFAULT_MIC), *message.devices]
        if current not in {v for _, v in options}:
            options.append((str(current), str(current)))
        select.set_options(options)
        select.value = current
        field = self.query_one("#mic").parent
        if field is None:
            return
        help_text = field.query_one(".help", Static)
        help_text.update(message.problem or f"{len(message.devices)} input device(s)")

    def collect(self) -> Settings:
        """A validated Settings from the form (pydantic errors name the field)."""
        v = lambda wid: self.query_one(f"#{wid}", Input).value  # noqa: E731
        sel = lambda wid: self.query_one(f"#{wid}", Select).value  # noqa: E731
        data = self.settings.model_dump()
        data["speech"].update(
            tts=sel("tts"), voice=v("voice").strip() or None, rate=_num(v("rate"))
        )
        data["asr"].update(model=v("asr-model").strip() or "tiny.en", device=sel("asr-device"))
        mic = sel("mic")
        data["audio"].update(
            input_device=None if mic == _DEFAULT_MIC else mic,
            silence_timeout_s=_num(v("silence")),
            max_answer_s=_num(v("max-answer")),
        )
        data["practice"].update(
            answer_limit_s=_num(v("limit")),
            thinking_s=_num(v("thinking")) or 0.0,
            count=int(_num(v("count")) or 0),
            follow_ups=int(str(sel("follow-ups"))),
        )
        data["theme"] = sel("theme")
        return Settings.model_validate(data)

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        try:
            settings = self.collect()
        except (ValidationError, ValueError) as exc:
            problems = (
                "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
                if isinstance(exc, ValidationError)
                else str(exc)
            )
            self.notify(problems, title="Not saved", severity="error", timeout=8)
            return
        self.post_message(SaveSettings(settings))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.app.pop_screen()
