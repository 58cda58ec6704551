"""What speech recognition produces and scoring consumes.

Plain dataclasses with no dependency on any speech library, so scoring, the store
and the tests can build transcripts from text or JSON.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace


@dataclass(frozen=True)
class Word:
    text: str
    """The word as recognised, with its punctuation (e.g. ``"rate,"``)."""
    start: float
    """Seconds from the start of the recording."""
    end: float
    probability: float = 1.0


@dataclass(frozen=True)
class LiveWords:
    """The words of an answer heard so far, while it is being spoken."""

    confirmed: str
    """The words of the stretches of speech already closed by a pause (they stay)."""
    tentative: str = ""
    """The words of the stretch still being spoken, decoded early; replaced as it grows
    and when a pause closes it."""
    behind: bool = False
    """True while the computer is too busy to show the open stretch's words early
    (closed stretches still appear, and the whole answer is transcribed at the end)."""

    @property
    def text(self) -> str:
        return " ".join(t for t in (self.confirmed, self.tentative) if t)


@dataclass(frozen=True)
class Transcript:
    text: str
    words: tuple[Word, ...] = ()
    """Empty when the answer was typed or no timestamps are known."""
    duration: float | None = None
    """Length of the recording in seconds, when there was one."""
    model: str = ""
    """The speech model that produced it (e.g. ``tiny.en``), or ``typed``."""
    device: str = ""
    language: str = "en"
    meta: dict = field(default_factory=dict)
    """Backend details worth keeping (beam size, timings)."""

    @classmethod
    def typed(cls, text: str) -> Transcript:
        """A transcript for an answer that was typed, not spoken."""
        return cls(text=text.strip(), model="typed")

    def corrected(self, text: str) -> Transcript:
        """This transcript with its text corrected by the candidate. The word timings
        stay: they describe how the answer was delivered (pace, pauses), which a
        corrected spelling does not change."""
        return replace(self, text=text, meta={**self.meta, "corrected": True})

    @property
    def has_timestamps(self) -> bool:
        return bool(self.words)

    @property
    def is_empty(self) -> bool:
        return not self.text.strip()

    def to_dict(self) -> dict:
        d = asdict(self)
        d["words"] = [asdict(w) for w in self.words]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Transcript:
        words = tuple(Word(**w) for w in d.get("words") or ())
        return cls(
            text=d.get("text", ""),
            words=words,
            duration=d.get("duration"),
            model=d.get("model", ""),
            device=d.get("device", ""),
            language=d.get("language", "en"),
            meta=dict(d.get("meta") or {}),
        )
