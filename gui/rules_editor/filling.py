"""Telling the program's own filling of a widget from a person's edit: the form filled from the
text, the element tree filled from a page. Apart because both need it and it is no widget."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class Filling:
    """True while the program fills the widgets it guards (their change signals then mean no
    edit); nests, so a fill inside a fill leaves it set until the outer one ends."""

    def __init__(self) -> None:
        self.active = False

    def __bool__(self) -> bool:
        return self.active

    @contextmanager
    def __call__(self) -> Iterator[None]:
        before, self.active = self.active, True
        try:
            yield
        finally:
            self.active = before
