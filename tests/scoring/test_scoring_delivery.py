"""Delivery metrics on synthetic word timestamps."""

from __future__ import annotations

from sayitout.scoring.delivery import count_fillers, count_hedges, delivery_metrics
from sayitout.speech.transcript import Transcript, Word


def timed(text: str, start: float = 0.5, step: float = 0.4, gaps: dict[int, float] | None = None):
    """Words spaced ``step`` apart; ``gaps`` adds extra silence before word i."""
    out = []
    t = start
    for i, w in enumerate(text.split()):
        t += (gaps or {}).get(i, 0.0)
        out.append(Word(w, t, t + step * 0.8))
        t += step
    return out


def test_pace_pauses_and_first_word() -> None:
    words = timed("so I would lower the learning rate and then add clipping", gaps={5: 2.0})
    m = delivery_metrics(Transcript(text="x", words=tuple(words), duration=10.0))
    assert m is not None
    assert m.words == 11
    speaking = words[-1].end - words[0].start
    assert abs(m.words_per_minute - 11 / speaking * 60) < 0.2
    assert len(m.long_pauses) == 1
    assert m.long_pauses[0].duration > 1.5
    assert m.time_to_first_word_s == 0.5
    assert m.duration_s == 10.0


def test_no_timestamps_no_delivery() -> None:
    assert delivery_metrics(Transcript.typed("typed answer")) is None


def fillers(text: str, **kw) -> dict[str, int]:
    return dict(count_fillers(timed(text, **kw)))


def test_filler_rules() -> None:
    assert fillers("um I think uh the erm learning rate") == {"um": 1, "uh": 1, "erm": 1}
    # "like" as a filler vs. a verb or a comparison
    assert fillers("and like the loss goes up") == {"like": 1}
    assert fillers("it is like fifty thousand") == {"like": 1}
    assert fillers("I'd like to lower it") == {}
    assert fillers("it looks like overfitting") == {}
    assert fillers("things like dropout help") == {}
    # "you know" as a filler vs. a clause
    assert fillers("the gradients you know blow up") == {"you know": 1}
    assert fillers("do you know what the rate is") == {}
    assert fillers("you know that it diverges") == {}
    # "sort of" / "kind of"
    assert fillers("it sort of diverges") == {"sort of": 1}
    assert fillers("a kind of normalisation") == {}
    assert fillers("basically I mean the rate is high") == {"basically": 1, "I mean": 1}
    # sentence-initial "so" only when followed by a pause or filler
    assert fillers("so, um the rate is high") == {"so": 1, "um": 1}
    assert fillers("so the rate is high") == {}
    assert fillers("the rate is high so lower it") == {}


def test_hedges() -> None:
    words = timed("I think it's maybe the learning rate but I'm not sure probably")
    assert dict(count_hedges(words)) == {
        "I think": 1,
        "maybe": 1,
        "not sure": 1,
        "probably": 1,
    }
    assert dict(count_hedges(timed("I'm pretty sure it's the learning rate"))) == {}


def test_fillers_per_minute() -> None:
    words = timed("um so uh I would um lower it", step=1.0)
    m = delivery_metrics(Transcript(text="x", words=tuple(words)))
    assert m is not None
    assert m.filler_count == 3
    minutes = (words[-1].end - words[0].start) / 60
    assert abs(m.fillers_per_minute - 3 / minutes) < 0.05
