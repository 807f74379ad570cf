"""The extractors Kuaibu is measured against, behind one signature (bench-only dependencies).

Each takes the decoded page and returns the benchmark's prediction fields. Peers get the same
decoded text Kuaibu gets, so the comparison is about extraction, not decoding.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from pipeline.errors import ExtractError  # noqa: E402
from pipeline.extract import extract  # noqa: E402

Prediction = dict[str, str | None]
DEFAULT_DATA = REPO.parent / "shared" / "bench"


def kuaibu(html: str) -> Prediction:
    try:
        a = extract(html, "")
    except ExtractError:
        return {"text": "", "title": "", "published": None}
    return {"text": a.text, "title": a.title, "published": a.published}


def trafilatura_(html: str) -> Prediction:
    import trafilatura

    doc = trafilatura.bare_extraction(html, with_metadata=True, include_comments=False)
    if doc is None:
        return {"text": "", "title": "", "published": None}
    return {"text": doc.text or "", "title": doc.title or "", "published": doc.date}


def readability_(html: str) -> Prediction:
    from lxml import html as lxml_html
    from readability import Document

    try:
        doc = Document(html)
        summary = doc.summary(html_partial=True)
        text = "\n".join(
            " ".join(t.split()) for t in lxml_html.fromstring(summary).itertext() if t.strip()
        )
        return {"text": text, "title": doc.short_title(), "published": None}
    except Exception:  # noqa: BLE001 - a peer's crash on one page scores as an empty page
        return {"text": "", "title": "", "published": None}


EXTRACTORS: dict[str, Callable[[str], Prediction]] = {
    "kuaibu": kuaibu,
    "trafilatura": trafilatura_,
    "readability": readability_,
}
