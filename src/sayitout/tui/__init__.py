"""The Textual front end: ``make_app(settings, ...)`` builds the practice app."""

from sayitout.tui.app import SayitoutApp, make_app

__all__ = ["SayitoutApp", "make_app"]
