"""A rules error (``RulesError``) in the interface's language, for the status line and the
form's fields. Apart because it is a table of the pipeline's English sentences matched by
shape, not a widget: the form and the text both need it, and it shrinks as the pipeline's
rules errors come to carry codes (``RulesError.problem``).

Functions, not a class, so their strings are translated in the context named in each call."""

from __future__ import annotations

import re

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
    """What is wrong, in the interface's language: by its code when it has one (an invalid
    selector, said as the window says it), else the pipeline's English worded here (its
    shapes are pipeline/rules/model.py's and pipeline/rules/yaml_file.py's): %1, %2… are
    the shape's groups."""
    if e.problem is not None:
        return translate_failure(e.problem)
    message = e.message
    shapes = (
        (r"unknown key \(known: (.*)\)",
         QCoreApplication.translate("RulesMessages", "unknown key (known: %1)")),
        (r"not valid YAML \((.*)\)",
         QCoreApplication.translate("RulesMessages", "not valid YAML (%1)")),
        (r"expected an encoding browsers read \(.*\), not (.*)",
         QCoreApplication.translate(
             "RulesMessages", "%1 is not an encoding Kuaibu can read (e.g. utf-8, gb18030,"
             " big5, shift_jis)")),
        (r"expected a whole number from (\d+) to (\d+), not (.*)",
         QCoreApplication.translate("RulesMessages",
                                    "expected a whole number from %1 to %2, not %3")),
        (r"written twice, on lines (\d+) and (\d+) .*",
         QCoreApplication.translate(
             "RulesMessages", "written twice, on lines %1 and %2 (the later would silently"
             " win); keep one")),
        (r"the same section as line (\d+) .*",
         QCoreApplication.translate(
             "RulesMessages", "the same section as line %1 (the later would silently win);"
             " keep one")),
        (r"section name: expected default or a site's host name \(.*\), not (.*)",
         QCoreApplication.translate(
             "RulesMessages", "section name: expected default or a site's host name"
             " (example.com), not %1")),
        (r"holds the control character (U\+[0-9A-F]+), .*",
         QCoreApplication.translate(
             "RulesMessages", "holds the control character %1, which a rules file may not")),
        (r"expected text without control characters \((U\+[0-9A-F]+) in (.*)\)",
         QCoreApplication.translate("RulesMessages",
                                    "expected text without control characters (%1 in %2)")),
        (r"expected a header value: .*, not (.*)",
         QCoreApplication.translate(
             "RulesMessages", "expected a header value: Latin-1 text without spaces at either"
             " end (percent-encode the rest), not %1")),
        (r"expected a header name of .*, not (.*)",
         QCoreApplication.translate(
             "RulesMessages",
             "expected a header name of letters, digits and !#$%&'*+-.^_`|~, not %1")),
        (r"expected a list of at most (\d+) strings, not (\d+)",
         QCoreApplication.translate("RulesMessages",
                                    "expected a list of at most %1 texts, not %2")),
        (r"expected at most (\d+) headers, not (\d+)",
         QCoreApplication.translate("RulesMessages", "expected at most %1 headers, not %2")),
        (r"expected each header once \((.*) and (.*) are one name\)",
         QCoreApplication.translate("RulesMessages",
                                    "expected each header once (%1 and %2 are one name)")),
        (r"([\d,]+) bytes, more than the (\d+) KB .*",
         QCoreApplication.translate("RulesMessages",
                                    "%1 bytes, more than the %2 KB a rules file may hold")),
        (r"more than (\d+) sections .*",
         QCoreApplication.translate("RulesMessages",
                                    "more than %1 sections (the most a rules file may hold)")),
        (r"not UTF-8 text \(byte (0x[0-9a-f]+)\).*",
         QCoreApplication.translate("RulesMessages",
                                    "not UTF-8 text (byte %1); save it as UTF-8")),
    )
    for shape, worded in shapes:
        if match := re.fullmatch(shape, message, re.S):
            for n, group in enumerate(match.groups(), 1):
                worded = worded.replace(f"%{n}", group)
            return worded
    expected = {
        "expected a non-empty string": QCoreApplication.translate(
            "RulesMessages", "expected a non-empty text"),
        "expected a list of strings": QCoreApplication.translate(
            "RulesMessages", "expected a list of texts"),
        "expected a mapping of header names to strings": QCoreApplication.translate(
            "RulesMessages", "expected header names, each with its value"),
        "expected a mapping of rules": QCoreApplication.translate(
            "RulesMessages", "expected keys with their values"),
        "expected a mapping of sections (default: and domains)": QCoreApplication.translate(
            "RulesMessages", "expected sections (default: and domains)"),
    }
    return expected.get(message, message)
