"""Kuaibu's pipeline: fetch → decode → extract → localize → bind, with no Qt anywhere."""

__version__ = "0.1.0"  # the one place: pyproject.toml reads it, and `kuaibu --version`
