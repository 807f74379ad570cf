"""Patterns compiled when first needed instead of at import: a character class over a CJK block
costs Python's regex compiler a millisecond or more (it walks the range a code point at a time),
and a batch of English pages never asks for the patterns only CJK text can match (issue 27 §10:
``extract`` is timed as a whole process, imports included)."""

from __future__ import annotations

import re
from functools import cache


@cache
def compiled(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, compiled once a process: re's own cache is bounded."""
    return re.compile(source, flags)
