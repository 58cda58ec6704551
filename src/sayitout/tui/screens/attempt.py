"""One attempt in full: the transcript with the words that earned each key point
highlighted, what was missed, delivery, the recording (played from any point), and the
earlier attempts at the same question side by side."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar, Protocol

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label, Static

from sayitout.errors import SayitoutError
from sayitout.report.bands import score_style
from sayitout.report.dates import day, when
from sayitout.report.highlight import evidence_spans
from sayitout.speech.transcript import Transcript
from sayitout.store import AttemptRecord, AttemptSummary, Store
from sayitout.tui.messages import Failed
from sayitout.tui.widgets.score_card import follow_up_row, key_point_mark

SEEK_STEP_S = 5.0


class AudioPlayer(Protocol):
    def play(self, audio: Any, sample_rate: int) -> Any: ...
    def stop(self) -> None: ...


def word_offsets(transcript: Transcript, text: str) -> list[tuple[int, float]]:
    """``(character offset in text, start time)`` of each timed word found in ``text``."""
    out, pos, low = [], 0, text.lower()
    for w in transcript.words:
        token = w.text.strip().lower()
        if not token:
            continue
        at = low.find(token, pos)
        if at < 0:
            continue
        out.append((at, w.start))
        pos = at + len(token)
    return out


def time_at(transcript: Transcript, text: str, offset: int) -> float | None:
    """When the word at character ``offset`` of ``text`` was spoken (None without timestamps)."""
    best = None
    for at, start in word_offsets(transcript, text):
        if at > offset:
            break
        best = start
    if best is None and transcript.words:
        return transcript.words[0].start
    return best


def fmt_time(seconds: float) -> str:
    seconds = max(0.0, seconds)
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


# ------------------------------------------------------------------------- messages
class AttemptLoaded(Message):
    def __init__(self, record: AttemptRecord, earlier: list[AttemptSummary], question: str) -> None:
        super().__init__()
        self.record, self.earlier, self.question = record, earlier, question


class AudioLoaded(Message):
    def __init__(self, audio: Any, sample_rate: int, start: float) -> None:
        super().__init__()
        self.audio, self.sample_rate, self.start = audio, sample_rate, start


class PlaybackEnded(Message):
    def __init__(self, token: int, error: str | None = None) -> None:
        super().__init__()
        self.token, self.error = token, error


# --------------------------------------------------------------------------- screen
class AttemptScreen(Screen):
    """``space`` plays/stops, ``←``/``→`` seek 5 s, ``home`` rewinds, ``1``–``9`` play the
    words that earned that key point."""

    DEFAULT_CSS = """
    AttemptScreen #body { padding: 0 2; }
    AttemptScreen .section { margin-top: 1; }
    AttemptScreen .heading { text-style: bold; color: $text-muted; margin-top: 1; }
    AttemptScreen #transcript { border: round $primary 40%; padding: 0 1; }
    AttemptScreen #playback { height: 1; margin-top: 1; }
    AttemptScreen #earlier { height: auto; max-height: 14; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("space", "toggle_play", "Play/stop", priority=True),
        Binding("left", "seek(-5)", "−5 s", priority=True),
        Binding("right", "seek(5)", "+5 s", priority=True),
        Binding("home", "rewind", "From start", priority=True),
        Binding("u", "upgraded", "Upgraded answer"),
        *(Binding(str(n), f"play_point({n})", show=False, priority=True) for n in range(1, 10)),
    ]

    def __init__(
        self,
        store: Store,
        attempt_id: int,
        player: AudioPlayer | None = None,
        *,
        bank: Any = None,
    ) -> None:
        super().__init__()
        self.store = store
        self.attempt_id = attempt_id
        self.player = player
        self.bank = bank
        self.record: AttemptRecord | None = None
        self.position = 0.0
        """Playback position in seconds (where the next play starts)."""
        self.playing = False
        self._audio: Any = None
        self._sample_rate = 16000
        self._play_started = 0.0
        self._play_from = 0.0
        self._token = 0
        self.audio_note = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="body"):
            yield Static("Loading…", id="headline")
            yield Label("Answer", classes="heading")
            yield Static("", id="transcript")
            yield Static("", id="playback")
            yield Label("Key points", classes="heading")
            yield Static("", id="keypoints")
            yield Label("Delivery", classes="heading")
            yield Static("", id="delivery")
            yield Label("This attempt and the earlier ones", classes="heading")
            yield DataTable(id="earlier", cursor_type="row", zebra_stripes=True)
            yield Static("", id="scores")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "sayitout"
        self.sub_title = f"attempt {self.attempt_id}"
        table = self.query_one("#earlier", DataTable)
        for label in ("", "When", "Score", "Coverage", "Pace", "Fillers/min", "Rubric"):
            table.add_column(label)
        self._load(self.attempt_id)
        self.set_interval(0.25, self._tick)

    def on_unmount(self) -> None:
        if self.playing and self.player is not None:
            self.player.stop()

    # ----------------------------------------------------------------- loading
    @work(thread=True, exclusive=True, group="attempt-load", exit_on_error=False)
    def _load(self, attempt_id: int) -> None:
        try:
            record = self.store.attempt(attempt_id)
            earlier = self.store.previous_attempts(attempt_id)
        except SayitoutError as exc:
            self.post_message(Failed.from_error(exc))
            return
        question = ""
        if self.bank is not None:
            try:
                question = self.bank.question(record.question_id).text
            except Exception:
                question = ""
        self.post_message(AttemptLoaded(record, earlier, question))

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        message.stop()  # shown here; no dialog over the screen
        self.query_one("#headline", Static).update(Text(message.message, style="red"))
        self.notify(message.message, title=message.title, severity="error")

    @on(AttemptLoaded)
    def _loaded(self, message: AttemptLoaded) -> None:
        rec = self.record = message.record
        sc = rec.answer_score
        head = Text()
        head.append(f"{rec.question_id}", style="bold")
        head.append(f"  ·  {when(rec.created_at)}  ·  ", style="dim")
        head.append(f"{rec.score}/100", style=score_style(rec.score))
        head.append(f"  {sc.verdict}")
        lines: list[Any] = [head]
        if message.question:
            lines.append(Text(message.question, style="italic"))
        self.query_one("#headline", Static).update(Group(*lines))
        self.query_one("#transcript", Static).update(self.transcript_text())
        self.query_one("#keypoints", Static).update(self.keypoints_grid())
        self.query_one("#delivery", Static).update(self._delivery())
        self._fill_earlier(message.earlier)
        if len(rec.score_history) > 1:
            self.query_one("#scores", Static).update(
                Text(
                    "Score history: "
                    + ", ".join(
                        f"{h.score} ({h.reason}, {day(h.created_at)})" for h in rec.score_history
                    ),
                    style="dim",
                )
            )
        self.audio_note = self._audio_note()
        self._show_position()
        self.refresh_bindings()

    def transcript_text(self) -> Text:
        """The answer with evidence for each key point highlighted (covered green, partial
        yellow), numbered like the key point list."""
        assert self.record is not None
        sc = self.record.answer_score
        text = sc.answer or self.record.text
        if not text.strip():
            return Text("(no words heard)", style="dim italic")
        out = Text(text)
        numbers = {kp.text: i for i, kp in enumerate(sc.key_points, 1)}
        for start, end, status, kp_text in evidence_spans(sc, text):
            style = "black on green" if status == "covered" else "black on yellow"
            out.stylize(style, start, end)
            n = numbers.get(kp_text.split("; ")[0])
            if n is not None:
                out.stylize("bold", start, end)
        if self.record.transcript_corrected is not None:
            out.append("\n(transcript corrected by hand)", style="dim italic")
        return out

    def keypoint_rows(self) -> list[tuple[Text, Text]]:
        """``(mark, text)`` per key point (numbered, with its quote), then what was missed,
        the number and any misconception."""
        assert self.record is not None
        sc = self.record.answer_score
        rows: list[tuple[Text, Text]] = []
        prompted = sc.prompted_points
        for i, kp in enumerate(sc.key_points, 1):
            mark, style = key_point_mark(sc, kp)
            head = Text(f"{i}. ", style="dim")
            head.append(mark, style=style)
            if kp.id in prompted:
                line = Text.assemble(("prompted: ", style), kp.text)
            else:
                line = Text(kp.text, style="" if kp.status != "missed" else "bold")
            if kp.evidence:
                line.append(f'  "{kp.evidence}"', style="dim italic")
            elif kp.reason:
                line.append(f"  not counted: {kp.reason}", style="yellow")
            rows.append((head, line))
        missed = [kp for kp in sc.key_points if kp.status == "missed" and kp.id not in prompted]
        if missed:
            rows.append(
                (Text(""), Text(f"Missed {len(missed)} of {len(sc.key_points)}.", style="red"))
            )
        if sc.numeric is not None:
            ok = sc.numeric.correct
            rows.append(
                (
                    Text("✔" if ok else "✘", style="green" if ok else "red"),
                    Text(f"number: {sc.numeric.reason}", style="green" if ok else "red"),
                )
            )
        for m in sc.misconceptions:
            rows.append((Text("!", style="red"), Text(f"{m.text} — {m.correction}", style="red")))
        rows.extend(follow_up_row(f, quote_limit=None) for f in sc.follow_ups)
        return rows

    def keypoints_text(self) -> Text:
        """The key points as plain lines (see :meth:`keypoint_rows`)."""
        return Text("\n").join(Text.assemble(m, " ", t) for m, t in self.keypoint_rows())

    def keypoints_grid(self) -> Table:
        """The key points in two columns, so that a wrapped line keeps its indent."""
        grid = Table.grid(padding=(0, 1), expand=True)
        grid.add_column(width=4, no_wrap=True)
        grid.add_column(ratio=1)
        for mark, text in self.keypoint_rows():
            grid.add_row(mark, text)
        return grid

    def _delivery(self) -> Text:
        assert self.record is not None
        d = self.record.answer_score.delivery
        if d is None:
            return Text("No delivery figures (typed answer).", style="dim")
        out = Text()
        out.append(f"{d.words_per_minute:.0f} words/min", style="bold")
        out.append(f" · {d.words} words in {fmt_time(d.duration_s)}")
        out.append(f" · {d.filler_count} fillers ({d.fillers_per_minute:.1f}/min)")
        if d.fillers:
            top = ", ".join(f"{w}×{n}" for w, n in sorted(d.fillers.items(), key=lambda i: -i[1]))
            out.append(f" [{top}]", style="dim")
        out.append(f" · {len(d.long_pauses)} long pauses")
        if d.time_to_first_word_s is not None:
            out.append(f" · first word after {d.time_to_first_word_s:.1f} s")
        return out

    def _fill_earlier(self, earlier: list[AttemptSummary]) -> None:
        assert self.record is not None
        table = self.query_one("#earlier", DataTable)
        rows = [("this", self.record.summary), *(("", e) for e in earlier[:50])]
        for label, s in rows:
            table.add_row(
                Text(label, style="bold"),
                when(s.created_at),
                Text(f"{s.score:>3}", style=score_style(s.score)),
                "–" if s.coverage is None else f"{round(100 * s.coverage)}%",
                "–" if s.wpm is None else f"{s.wpm:.0f} wpm",
                "–" if s.fillers_per_min is None else f"{s.fillers_per_min:.1f}",
                f"v{s.rubric_version}",
                key=str(s.id),
            )
        if not earlier:
            table.add_row("", Text("no earlier attempts at this question", style="dim"), *[""] * 5)

    # ---------------------------------------------------------------- playback
    def _audio_note(self) -> str:
        assert self.record is not None
        path = self.record.recording_path
        if path is None:
            return "Typed answer: there is no recording."
        if not path.is_file():
            return (
                f"The audio is gone: {path} was deleted or moved. "
                "The transcript and score are kept."
            )
        return ""

    def _no_sound_out(self) -> str:
        """Why the recording cannot be played on this machine (no output device), or ""."""
        if self.player is not None:
            return ""  # a player was given (tests, or one that already played)
        problem = getattr(self.app, "sound_out_problem", lambda: None)()
        if not problem:
            return ""
        return f"No playback: {problem[:1].lower()}{problem[1:].rstrip('.')}."

    def _show_position(self) -> None:
        widget = self.query_one("#playback", Static)
        note = self.audio_note or self._no_sound_out()
        if note:
            widget.update(Text(note, style="yellow"))
            return
        total = self._duration()
        state = "▶ playing" if self.playing else "■ stopped"
        widget.update(
            Text(
                f"{state}  {fmt_time(self.current_position())} / {fmt_time(total)}   "
                "space play/stop · ←/→ 5 s · home start · 1-9 a key point's words",
                style="dim" if not self.playing else "",
            )
        )

    def _duration(self) -> float:
        if self._audio is not None:
            return len(self._audio) / self._sample_rate
        assert self.record is not None
        return float(self.record.transcript.duration or self.record.summary.duration_s or 0.0)

    def current_position(self) -> float:
        if self.playing:
            return self._play_from + (time.monotonic() - self._play_started)
        return self.position

    def _tick(self) -> None:
        if self.record is not None:
            self._show_position()

    def action_upgraded(self) -> None:
        """The answer with what it missed woven in (coach), read aloud on request."""
        from sayitout.tui.screens.upgraded import UpgradedAnswerScreen

        if self.record is None or self.bank is None:
            return
        try:
            rubric = self.bank.rubric(self.record.question_id)
            question = self.bank.question(self.record.question_id).text
        except SayitoutError as exc:
            self.notify(exc.message, severity="warning")
            return
        services = getattr(self.app, "services", None)
        voice = None
        silent = getattr(self.app, "sound_out_problem", lambda: None)()
        if services is not None and services.has_speaker and silent is None:
            voice = lambda: services.speaker  # noqa: E731 (built on first use, off the UI thread)
        self.app.push_screen(
            UpgradedAnswerScreen(self.record, rubric, question, voice, silent=silent)
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A typed answer (or one whose audio is gone) has nothing to play: no play keys.
        # Nor does a machine without sound out (the playback line says why).
        if action in ("toggle_play", "seek", "rewind", "play_point"):
            return self.record is not None and not (self.audio_note or self._no_sound_out())
        return True

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_toggle_play(self) -> None:
        if self.playing:
            self.stop_playback()
        else:
            self.play_from(self.position)

    def action_seek(self, delta: float) -> None:
        new = max(0.0, self.current_position() + float(delta))
        if self._duration():
            new = min(new, max(0.0, self._duration() - 0.5))
        if self.playing:
            self.play_from(new)
        else:
            self.position = new
            self._show_position()

    def action_rewind(self) -> None:
        if self.playing:
            self.play_from(0.0)
        else:
            self.position = 0.0
            self._show_position()

    def action_play_point(self, number: int) -> None:
        """Play from where the words that earned key point ``number`` begin."""
        if self.record is None:
            return
        sc = self.record.answer_score
        if not 1 <= number <= len(sc.key_points):
            return
        kp = sc.key_points[number - 1]
        text = sc.answer or self.record.text
        spans = [s for s in evidence_spans(sc, text) if kp.text in s[3].split("; ")]
        if not spans:
            self.notify(f"Key point {number} was missed: there is nothing to play.")
            return
        at = time_at(self.record.transcript, text, spans[0][0])
        if at is None:
            self.notify("This answer has no word timings, so it cannot jump to the words.")
            return
        self.play_from(max(0.0, at - 0.3))

    def play_from(self, seconds: float) -> None:
        if self.record is None:
            return
        note = self.audio_note or self._no_sound_out()
        if note:
            self.notify(note, severity="warning")
            return
        self.stop_playback()
        self.position = seconds
        if self._audio is None:
            self._read_audio(self.record.recording_path, seconds)
        else:
            self._start(seconds)

    def stop_playback(self) -> None:
        if self.playing:
            self.position = self.current_position()
            self.playing = False
            self._token += 1
            if self.player is not None:
                self.player.stop()
            self._show_position()

    @work(thread=True, exclusive=True, group="attempt-audio", exit_on_error=False)
    def _read_audio(self, path: Path | None, start: float) -> None:
        try:
            import soundfile as sf

            audio, sr = sf.read(str(path), dtype="float32", always_2d=False)
        except Exception as exc:
            self.post_message(PlaybackEnded(-1, f"Cannot read the recording {path}: {exc}"))
            return
        self.post_message(AudioLoaded(audio, int(sr), start))

    @on(AudioLoaded)
    def _audio_loaded(self, message: AudioLoaded) -> None:
        self._audio, self._sample_rate = message.audio, message.sample_rate
        self._start(message.start)

    def _start(self, seconds: float) -> None:
        if self.player is None:
            try:
                from sayitout.speech.audio import Player

                self.player = Player()
            except Exception as exc:
                self.notify(f"Cannot play audio here: {exc}", severity="error")
                return
        first = int(seconds * self._sample_rate)
        if first >= len(self._audio):
            first, seconds = 0, 0.0
        self._token += 1
        self.playing = True
        self._play_from = seconds
        self._play_started = time.monotonic()
        self._play(self._audio[first:], self._sample_rate, self._token)
        self._show_position()

    @work(thread=True, group="attempt-play", exit_on_error=False)
    def _play(self, audio: Any, sample_rate: int, token: int) -> None:
        assert self.player is not None
        error = None
        try:
            self.player.play(audio, sample_rate)
        except Exception as exc:
            error = getattr(exc, "message", None) or str(exc)
        self.post_message(PlaybackEnded(token, error))

    @on(PlaybackEnded)
    def _playback_ended(self, message: PlaybackEnded) -> None:
        if message.error:
            self.notify(message.error, title="Playback problem", severity="error")
        if message.token not in (self._token, -1):
            return  # an earlier playback that was stopped or replaced
        if self.playing:
            self.position = 0.0 if message.error is None else self.current_position()
            self.playing = False
        self._show_position()
