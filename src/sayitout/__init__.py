"""sayitout: an offline, voice-driven mock interview coach."""

__version__ = "0.1.0"
