"""The article out of a page (``extractor.extract``: decoded HTML + URL + rules → Article).

The extractor and what it imports (the density scoring, the metadata, the detectors) are
loaded when ``extract`` is first asked for, not with the package: the book binder reads a few
tree helpers of ``dom`` and ``notes``, and a one-article build paid for the whole extractor's
import (issue 30).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.extract.extractor import extract

__all__ = ["extract"]


def __getattr__(name: str) -> Any:
    if name == "extract":
        from pipeline.extract.extractor import extract

        return extract
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
