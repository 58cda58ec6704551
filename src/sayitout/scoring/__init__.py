"""Grading an answer against its rubric."""
