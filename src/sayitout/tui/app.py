"""The practice app: Home, Session, Summary, Settings, History, Help."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import App
from textual.binding import Binding, BindingType

from sayitout.errors import SayitoutError
from sayitout.session import events as ev
from sayitout.tui.commands import SayitoutCommands
from sayitout.tui.messages import (
    Failed,
    HomeReady,
    HomeResumed,
    ModelEvent,
    RecoveryDone,
    RecoveryOffer,
    RecoveryProgress,
    SaveSettings,
    SoundOutputChecked,
    StartSession,
)
from sayitout.tui.widgets.model_status import AppStatus

if TYPE_CHECKING:
    from textual.timer import Timer

    from sayitout.config import Settings
    from sayitout.session.interview import InterviewPlan
    from sayitout.session.plan import SessionPlan
    from sayitout.session.services import SessionServices
    from sayitout.store.unsaved import UnsavedAnswer

_THEMES = {"dark": "textual-dark", "light": "textual-light"}
_MODELS_AT_LATEST_S = 1.5
"""Start loading the models this long after start-up even if Home has not filled in."""
_RECENT_S = 10.0
"""Recordings modified this recently are not offered for recovery (still being written)."""
_TERMINAL_CHECK_S = 1.0
"""How often the app looks whether its terminal is still there."""
_MODEL_LABELS = {
    "speech": "speech model",
    "scoring": "scoring model",
    "voice": "voice",
    "microphone": "microphone",
}


def stdin_is_terminal() -> bool:
    """Whether standard input is still a terminal: False once the terminal window that
    ran the app is closed (its reads then end at once, and Textual's input loop would
    spin on them)."""
    try:
        return sys.__stdin__ is not None and os.isatty(sys.__stdin__.fileno())
    except (OSError, ValueError):
        return False


class SayitoutApp(App):
    """``make_app`` builds it; the CLI and the tests both go through there."""

    TITLE = "sayitout"
    CSS_PATH = "app.tcss"
    COMMANDS = App.COMMANDS | {SayitoutCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help", show=False),
        Binding("ctrl+t", "toggle_theme", "Theme", show=False),
    ]

    def __init__(
        self,
        settings: Settings,
        services_factory: Callable[[Settings], SessionServices],
        *,
        plan: SessionPlan | InterviewPlan | None = None,
        config_path: Path | None = None,
        load_models: bool = True,
        terminal: Callable[[], bool] = stdin_is_terminal,
    ) -> None:
        super().__init__()
        self.terminal = terminal
        """Whether the app's terminal is still there (``stdin_is_terminal``)."""
        self.settings = settings
        self.services_factory = services_factory
        self.services = services_factory(settings)
        self.start_plan = plan
        self.config_path = config_path
        self.load_models_on_start = load_models
        self.status = AppStatus()
        """Model loading states and recovery progress, shown on Home."""
        self.model_status = self.status.models
        self._recovery_deferred = False
        self._models_started = False
        self._models_timer: Timer | None = None
        self._models_cancel = threading.Event()
        """Set when new settings replace the services whose models are loading."""
        self.theme = _THEMES[settings.theme]

    # --- start-up --------------------------------------------------------------------------

    def on_mount(self) -> None:
        from sayitout.tui.screens.home import HomeScreen

        self.push_screen(HomeScreen(self.services, self.status))
        if self.start_plan is not None:
            self.start_session(self.start_plan)
        if self.load_models_on_start:
            # After the first screen is filled in: importing the model libraries holds
            # the GIL for seconds, and neither the first paint nor the deck table (its
            # own worker) should wait for that. Home calls ``home_ready``; the timer
            # is the fallback when it never does.
            self._models_timer = self.set_timer(_MODELS_AT_LATEST_S, self._start_models_once)
        self.call_after_refresh(self.check_recoveries)
        if self.terminal():
            self.set_interval(_TERMINAL_CHECK_S, self._check_terminal)

    def _check_terminal(self) -> None:
        """Quit when the terminal went away (its window closed under ``make run``, which
        passes no hang-up on): scored answers are saved already, and an app left behind
        would spin on a closed input at full speed."""
        if not self.terminal():
            self.exit()

    @on(HomeReady)
    def home_ready(self) -> None:
        """Home has shown its data (or failed to): the models may load now."""
        if self.load_models_on_start:
            self._start_models_once()

    @on(StartSession)
    def _start_requested(self, message: StartSession) -> None:
        self.start_session(message.plan)

    @on(SaveSettings)
    def _save_settings(self, message: SaveSettings) -> None:
        self.apply_settings(message.settings)

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        """A screen's failure that it did not handle itself: say so in a dialog."""
        self.show_error(message.title, message.message, message.hint)

    def _start_models_once(self) -> None:
        if self._models_started:
            return
        self._models_started = True
        if self._models_timer is not None:
            self._models_timer.stop()
        self.load_models()

    def on_unmount(self) -> None:
        self.services.close()

    @work(thread=True, exclusive=True, exit_on_error=False, group="models")
    def load_models(self) -> None:
        """Check the microphone and sound output, and load the models, while the first
        screen is in use."""
        from sayitout.speech.audio.devices import output_problem

        services, cancel = self.services, self._models_cancel
        problem = output_problem(services.settings.audio.output_device)
        self.post_message(SoundOutputChecked(None if problem is None else problem[0]))
        services.warm_up(lambda event: self.post_message(ModelEvent(event)), cancel)

    @on(SoundOutputChecked)
    def _sound_output_checked(self, message: SoundOutputChecked) -> None:
        self.status.sound_out = message.problem
        self._status_changed()

    def sound_out_problem(self) -> str | None:
        """Why nothing can be played here (the voice failed, no output device), or None
        (fine, or not known yet): screens hide their playback keys and say why."""
        failed = self.services.failed.get("voice")
        if failed is not None:
            return failed.message
        return self.status.sound_out

    def _status_changed(self) -> None:
        """Home's line and the playback keys of the screen in front follow the status."""
        from sayitout.tui.screens.home import HomeScreen

        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.refresh_models()
        self.screen.refresh_bindings()

    # --- answers recorded by an earlier run but never scored -------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False, group="recovery-check")
    def check_recoveries(self) -> None:
        """Look for orphan recordings and kept typed answers (cheap: directory walks and
        one query)."""
        from datetime import UTC, datetime

        from sayitout.recovery import pending_kept_answers, pending_recoveries

        try:
            store = self.services.store
            if store is None:
                return
            orphans = pending_recoveries(store)
        except SayitoutError:
            return  # the home screen reports a store that cannot be opened
        # A file written in the last seconds may be another sayitout window's answer
        # being recorded right now (the FLAC grows as the candidate speaks).
        now = datetime.now(UTC).timestamp()
        orphans = [o for o in orphans if now - o.modified.timestamp() >= _RECENT_S]
        kept = pending_kept_answers()
        if orphans or kept:
            self.post_message(RecoveryOffer(orphans, kept))

    @on(RecoveryOffer)
    def _recovery_offer_found(self, message: RecoveryOffer) -> None:
        from sayitout.recovery import offer_message
        from sayitout.tui.screens.confirm import ConfirmDialog
        from sayitout.tui.screens.home import HomeScreen

        if not isinstance(self.screen, HomeScreen):
            # Not over a session or a dialog: look again (afresh) when Home is back.
            self._recovery_deferred = True
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.recover_answers(message.kept)
            else:
                self.notify(
                    "They stay on disk and are offered again next time "
                    "(or run `sayitout recover`).",
                    title="Unsaved answers kept",
                    timeout=6,
                )

        self.push_screen(
            ConfirmDialog(
                "Unsaved answers found",
                offer_message(message.orphans, message.kept),
                "Recover",
                "Not now",
            ),
            answered,
        )

    @on(HomeResumed)
    def offer_deferred_recovery(self) -> None:
        """Home is showing again: ask about unsaved answers found while it was not."""
        if self._recovery_deferred:
            self._recovery_deferred = False
            self.check_recoveries()

    @work(thread=True, exclusive=True, exit_on_error=False, group="recovery")
    def recover_answers(self, kept: list[UnsavedAnswer] | None = None) -> None:
        """Transcribe, score and save the orphans (and score and save the ``kept`` typed
        answers), reporting progress to Home."""
        from sayitout.recovery import recover_with_services

        def progress(done: int, total: int, result) -> None:
            self.post_message(RecoveryProgress(done, total, result))

        self.post_message(RecoveryProgress(0, 0, None))
        try:
            results = recover_with_services(self.services, progress, kept or [])
        except SayitoutError as exc:
            self.post_message(RecoveryDone([], (exc.title, exc.message, exc.hint)))
            return
        except Exception as exc:  # a model library failing in a way nobody foresaw
            error = ("Recovery failed", f"{type(exc).__name__}: {exc}", "run `sayitout recover`")
            self.post_message(RecoveryDone([], error))
            return
        self.post_message(RecoveryDone(results))

    @on(RecoveryProgress)
    def _recovery_progress(self, message: RecoveryProgress) -> None:
        if message.total:
            self.status.recovery = f"recovering answers {message.done}/{message.total}…"
        else:
            self.status.recovery = "recovering answers…"
        self._refresh_home()

    @on(RecoveryDone)
    def _recovery_done(self, message: RecoveryDone) -> None:
        from sayitout.recovery import recovery_report

        self.status.recovery = None
        if message.error is not None:
            self.show_error(*message.error)
        else:
            title, text, severity = recovery_report(message.results)
            self.notify(text, title=title, severity=severity, timeout=12)
        self._refresh_home(reload=True)

    def _refresh_home(self, *, reload: bool = False) -> None:
        from sayitout.tui.screens.home import HomeScreen

        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.refresh_models()
                if reload:
                    screen.load_data()

    @on(ModelEvent)
    def _model_event(self, message: ModelEvent) -> None:
        event = message.event
        if isinstance(event, ev.ModelLoading):
            self.model_status[event.name] = "loading"
        elif isinstance(event, ev.ModelReady):
            self.model_status[event.name] = "ready"
        elif isinstance(event, ev.ModelFailed):
            self.model_status[event.name] = "failed"
            label = _MODEL_LABELS.get(event.name, event.name)
            # Not toasts: they would float over Home's form. Home's bottom line says it
            # (see model_status); a session in front says it on its own notice line.
            if event.name == "microphone":
                self._tell_session(f"No microphone: {event.message}. Answers will be typed.")
            elif event.name == "voice":
                self.status.voice = event.message
                self._tell_session(f"{event.message}. Questions are shown but not read aloud.")
            else:
                self.show_error(f"The {label} failed to load", event.message, event.hint)
        elif isinstance(event, ev.Notice):
            self.status.notice = event.message
            self._tell_session(event.message)
        self._status_changed()

    def _tell_session(self, text: str) -> None:
        from sayitout.tui.screens.session import SessionScreen

        if isinstance(self.screen, SessionScreen):
            self.screen.show_notice(text, warning=True, seconds=8)

    # --- navigation ------------------------------------------------------------------------

    def start_session(self, plan: SessionPlan | InterviewPlan) -> None:
        from sayitout.session.interview import InterviewPlan
        from sayitout.tui.screens.session import SessionScreen

        if isinstance(plan, InterviewPlan):
            from sayitout.tui.screens.interview import InterviewScreen

            self.push_screen(InterviewScreen(self.services, plan))
            return
        self.push_screen(SessionScreen(self.services, plan))

    def go_home(self) -> None:
        from sayitout.tui.screens.home import HomeScreen

        while len(self.screen_stack) > 1 and not isinstance(self.screen, HomeScreen):
            self.pop_screen()

    def show_error(self, title: str, message: str, hint: str | None = None) -> None:
        from sayitout.tui.screens.error_dialog import ErrorDialog

        self.push_screen(ErrorDialog(title, message, hint))

    def _in_session(self) -> bool:
        from sayitout.tui.screens.session import SessionScreen

        return any(isinstance(s, SessionScreen) for s in self.screen_stack)

    def action_go_home(self) -> None:
        if self._in_session():
            self.notify("End the session first (Esc).", severity="warning")
            return
        self.go_home()

    def action_start_default(self) -> None:
        from sayitout.tui.screens.home import HomeScreen

        if self._in_session():
            self.notify("A session is already running.", severity="warning")
            return
        self.go_home()
        if isinstance(self.screen, HomeScreen):
            self.screen.action_start()

    def action_help(self) -> None:
        from sayitout.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"

    def action_settings(self) -> None:
        from sayitout.tui.screens.settings import SettingsScreen

        if self._in_session():
            self.notify("Settings can be changed between sessions.", severity="warning")
            return
        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.settings))

    def action_history(self) -> None:
        try:
            from sayitout.tui.screens.history import HistoryScreen
        except ImportError:
            self.notify("The history screen is not available in this build.", severity="warning")
            return
        if isinstance(self.screen, HistoryScreen):
            return
        try:
            store = self.services.store
        except SayitoutError as exc:
            self.show_error(exc.title, exc.message, exc.hint)
            return
        if store is None:
            self.notify("No history is kept in this session.", severity="warning")
            return
        self.push_screen(HistoryScreen(store, self.services.bank_if_loaded))

    def apply_settings(self, settings: Settings) -> None:
        """Save ``settings``, rebuild the services with them, and reload the models."""
        from sayitout.config import save_settings

        try:
            path = save_settings(settings, self.config_path)
        except (SayitoutError, OSError) as exc:
            message = exc.message if isinstance(exc, SayitoutError) else str(exc)
            self.show_error("Settings not saved", message, "check the config dir is writable")
            return
        old = self.services
        self.settings = settings
        try:
            self.services = self.services_factory(settings)
        except SayitoutError as exc:
            self.show_error(exc.title, exc.message, exc.hint)
            return
        self._models_cancel.set()  # the old models stop loading at their next step
        self._models_cancel = threading.Event()
        old.close()
        self.theme = _THEMES[settings.theme]
        self.model_status.clear()
        self.status.voice = self.status.sound_out = self.status.notice = None
        from sayitout.tui.screens.home import HomeScreen

        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.services = self.services
        self.pop_screen()
        self.notify(f"Saved to {path}", title="Settings saved")
        if self.load_models_on_start:
            self.load_models()


def make_app(
    settings: Settings,
    *,
    plan: SessionPlan | InterviewPlan | None = None,
    mic_files: tuple[Path, ...] | list[Path] = (),
    tts: str | None = None,
    bank_dirs: tuple[Path, ...] | list[Path] = (),
    services: SessionServices | None = None,
    config_path: Path | None = None,
    load_models: bool = True,
    terminal: Callable[[], bool] = stdin_is_terminal,
) -> SayitoutApp:
    """The app, wired to the real services (or to ``services`` when given).

    ``plan`` opens straight into a session; otherwise the app starts on Home. The app
    quits once ``terminal()`` turns False, if it was True at start.
    """
    if services is not None:
        fixed = services

        def factory(new_settings: Settings) -> SessionServices:
            fixed.settings = new_settings
            return fixed
    else:
        from sayitout.app_factory import build_services

        # --mic-file and --tts hold for the whole run, even after settings change.
        def factory(new_settings: Settings) -> SessionServices:
            return build_services(new_settings, mic_files=mic_files, tts=tts, bank_dirs=bank_dirs)

    return SayitoutApp(
        settings,
        factory,
        plan=plan,
        config_path=config_path,
        load_models=load_models,
        terminal=terminal,
    )
