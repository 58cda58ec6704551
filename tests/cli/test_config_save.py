"""Saving settings keeps the user's comments and layout, and every value round-trips."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sayitout.config import Settings, load_settings, save_settings

HAND_WRITTEN = """\
# my sayitout config
theme = "light"   # easier on the eyes

[speech]
# piper is nicer
tts = "piper"
rate = 1.2  # a bit faster

[audio]
silence_timeout_s = 5.0
"""


def test_saving_keeps_comments_and_changes_only_changed_lines(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(HAND_WRITTEN)
    s = load_settings(path)
    s.speech.rate = 1.5
    s.practice.count = 7
    save_settings(s, path)
    text = path.read_text()
    assert "# my sayitout config" in text and "# piper is nicer" in text
    assert 'theme = "light"   # easier on the eyes' in text  # untouched line, byte for byte
    assert "rate = 1.5  # a bit faster" in text  # new value, comment kept
    assert "[practice]\ncount = 7" in text
    assert load_settings(path) == s


def test_a_value_back_to_its_default_loses_its_line(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(HAND_WRITTEN + 'input_device = "USB"\n')
    s = load_settings(path)
    s.audio.input_device = None
    save_settings(s, path)
    assert "input_device" not in path.read_text()
    assert load_settings(path) == s


@settings(max_examples=60, deadline=None)
@given(name=st.text(min_size=1, max_size=40))
def test_any_device_name_round_trips(tmp_path_factory, name):
    path = tmp_path_factory.mktemp("cfg") / "config.toml"
    path.write_text(HAND_WRITTEN)
    s = load_settings(path)
    s.audio.input_device = name  # newlines, quotes, backslashes, control characters
    save_settings(s, path)
    assert load_settings(path) == s
    save_settings(Settings(audio={"input_device": name}), tmp_path_factory.mktemp("new") / "c.toml")
