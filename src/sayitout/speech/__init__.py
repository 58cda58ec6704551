"""The voice half: text to speech, recording, and speech recognition."""
