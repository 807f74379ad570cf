"""The one failure a book build reports to a person."""

from __future__ import annotations

from pipeline.errors import KuaibuError


class BookError(KuaibuError):
    """A book cannot be built as asked (nothing to bind, no CJK font, a broken template)."""
