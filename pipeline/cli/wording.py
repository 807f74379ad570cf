"""The command line's English for a count: ``1 task``, ``2 tasks`` (the window's words go
through Qt's ``%n`` plurals instead)."""

from __future__ import annotations

from datetime import datetime


def counted(n: int, noun: str, plural: str = "") -> str:
    """``n`` with ``noun`` in the form the count takes; ``plural`` when it is not noun + s."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def to_second(moment: str) -> str:
    """An ISO 8601 time as a person reads it, to the second (a book's build time is stored
    to the microsecond so an article cleaned in the same second is not taken for older);
    "?" when there is none, as stored when it does not parse."""
    if not moment:
        return "?"
    try:
        return datetime.fromisoformat(moment).replace(microsecond=0).isoformat()
    except ValueError:
        return moment
