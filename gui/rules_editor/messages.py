"""A rules error (``RulesError``) in the interface's language, for the status line and the
form's fields: where (its line and key) and what is wrong, said by its code. Apart because the
form and the text both need it and it is no widget.

Functions, not a class, so their strings are translated in the context named in each call."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from gui.reasons import translate_failure
from pipeline.records.errors import RulesError


def describe(e: RulesError) -> str:
    """A rules error in the interface's language: line, key, what is wrong."""
    where = (QCoreApplication.translate("RulesMessages", "Line %1").replace("%1", str(e.line))
             if e.line else "")
    what = f"{e.key}: {problem(e)}" if e.key else problem(e)
    return f"{where}: {what}" if where else what


def problem(e: RulesError) -> str:
    """What is wrong, in the interface's language, by its code."""
    return translate_failure(e.problem)
