"""Screens of the practice app."""
