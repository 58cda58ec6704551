"""Helpers the tests share: stand-ins for the models and the microphone, synthetic
histories and synthesised speech. Importable as ``support`` (pytest ``pythonpath``)."""
