"""Command palette entries (ctrl+p)."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

_COMMANDS = (
    ("Start a practice session", "start_default", "Start with the home screen's choices"),
    ("Home", "go_home", "Decks, recent scores and the start form"),
    ("History", "history", "Past sessions and attempts"),
    ("Settings", "settings", "Voice, speech model, microphone, time limits"),
    ("Help", "help", "How a session goes and every key"),
    ("Toggle light/dark theme", "toggle_theme", "Switch between the light and dark theme"),
)


class SayitoutCommands(Provider):
    async def discover(self) -> Hits:
        for name, action, help_text in _COMMANDS:
            yield DiscoveryHit(name, partial(self.app.run_action, action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, action, help_text in _COMMANDS:
            score = matcher.match(name)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(name),
                    partial(self.app.run_action, action),
                    help=help_text,
                )
