"""The rich text every part of the rules editor writes into its labels: text escaped, a
problem in red, a selector as code. Apart so that the parts spell them one way."""

from __future__ import annotations

import html

ERROR_COLOUR = "#c62828"


def esc(text: str) -> str:
    """Text for a rich-text label (quotes stay quotes: they are not in an attribute)."""
    return html.escape(text, quote=False)


def red(text: str) -> str:
    return f"<span style='color:{ERROR_COLOUR}'>{text}</span>"


def code(css: str) -> str:
    return f"<code>{esc(css)}</code>"
