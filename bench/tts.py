"""Text-to-speech start-up latency: how soon after ``speak()`` the first sound is ready.

For every question of the built-in deck: seconds until the first sentence's audio is
synthesised (uncached), the same from the warmed cache, and the real-time factor.
With a sound device (e.g. ``eval $(scripts/audio-loop.sh start)``) and ``--play``, also
the time from ``speak()`` to the first sample reaching the device.

Last line: JSON with the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--limit", type=int, default=12, help="questions to use")
    ap.add_argument("--play", action="store_true", help="also play through the sound device")
    args = ap.parse_args()

    from sayitout.bank.loader import load_bank
    from sayitout.speech.tts import SynthCache
    from sayitout.speech.tts.piper_backend import PiperSpeaker

    texts = [q.text for q in load_bank().questions()][: args.limit]
    with tempfile.TemporaryDirectory() as tmp:
        cache = SynthCache(Path(tmp))
        t0 = time.perf_counter()
        speaker = PiperSpeaker(cache=cache)
        speaker.load()
        load_s = time.perf_counter() - t0
        first_uncached, first_cached, rtf, played = [], [], [], []
        for text in texts:
            parts = speaker._parts(text)
            t0 = time.perf_counter()
            audio, sr = speaker._sentence_audio(parts[0])
            first_uncached.append(time.perf_counter() - t0)
            rtf.append(first_uncached[-1] / (audio.size / sr))
            for p in parts[1:]:
                speaker._sentence_audio(p)
            t0 = time.perf_counter()
            speaker._sentence_audio(parts[0])
            first_cached.append(time.perf_counter() - t0)
            if args.play:
                speaker.speak(text)
                if speaker.last_first_sound_s is not None:
                    played.append(speaker.last_first_sound_s)
            print(
                f"{first_uncached[-1]:6.3f} s uncached  {first_cached[-1]:6.3f} s cached  "
                f"{text[:60]}"
            )
    med = {
        "voice_load_s": round(load_s, 3),
        "first_audio_uncached_s": round(statistics.median(first_uncached), 3),
        "first_audio_uncached_max_s": round(max(first_uncached), 3),
        "first_audio_cached_s": round(statistics.median(first_cached), 4),
        "synth_rtf": round(statistics.median(rtf), 3),
    }
    if played:
        med["speak_to_first_sound_cached_s"] = round(statistics.median(played), 3)
    print(json.dumps(med))
    return 0


if __name__ == "__main__":
    sys.exit(main())
