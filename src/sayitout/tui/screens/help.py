"""The help screen: how a session goes, and every key."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

HELP = """\
# sayitout: spoken interview practice

**How a session goes.** Each question is shown and read aloud (**s** skips the reading,
**p** replays it). After any thinking time you set, recording starts: answer out loud.
The answer ends when you press **Enter**, after a few seconds of silence, or at the time
limit. Your words appear as they are transcribed. A moment later the score card shows each
key point covered, partly covered or missed, with the words that earned it, the number
heard for numeric questions, any misconception you stated, and your delivery (pace,
fillers, long pauses, time to your first word).

**After each answer**

| key | does |
| --- | --- |
| **a** | try again (a new attempt; both are kept) |
| **e** | edit the transcript when the recogniser misheard you, and rescore |
| **t** | type an answer instead of speaking (also while recording) |
| **m** | show the model answer and read it aloud (**s** stops it) |
| **n** | next question (on the last one: the summary) |
| **Esc** | end the session now; answers so far are kept |

**Everywhere**

| key | does |
| --- | --- |
| **ctrl+p** | command palette: start, history, settings, theme, help |
| **?** / **f1** | this help |
| **ctrl+t** | switch light and dark theme |
| **ctrl+q** | quit |

**Home screen:** choose how many questions, topics (comma separated), the order
(*due* puts the questions you are weakest at first), an answer time limit and thinking
time, then **Start** (ctrl+s). **h** opens your history, **o** the settings.

**No microphone?** Answers are typed instead, and the app says why. `sayitout doctor`
checks the audio devices and models.

Every attempt is saved the moment it is scored, with its recording.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", "Close help")
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 100; height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(HELP)
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
