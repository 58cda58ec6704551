"""Widgets of the practice app."""
