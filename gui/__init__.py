"""Kuaibu's window (PySide6): a thin face over ``pipeline``, which never imports Qt."""
