"""Patterns compiled when first needed instead of at import, for the ones that cost milliseconds
to compile and serve only some pages or callers: a character class over a CJK block costs
Python's regex compiler a millisecond or more (it walks the range a code point at a time), and a
batch of English pages never asks for the patterns only CJK text can match (issue 27 §10:
``extract`` is timed as a whole process, imports included). A pattern cheap to compile, or one
every page uses, stays a module constant."""

from __future__ import annotations

import re
from functools import cache


@cache
def compiled(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, compiled once a process: re's own cache is bounded."""
    return re.compile(source, flags)
