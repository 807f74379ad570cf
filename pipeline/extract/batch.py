"""The benchmark contract: a folder of raw pages → one JSON line per page (issue 4).

Every page is read as bytes and decoded by the fetch stage's own logic, so the benchmark scores
what a user would get. A page that fails gives a line with empty text and its reason in
``error``; whatever one page raises, the batch never stops.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from pipeline.extract import extract
from pipeline.records.errors import ExtractError
from pipeline.text.decode import decode_html


def extract_page(body: bytes, url: str = "") -> dict[str, str | None]:
    """One page's prediction fields; a failure is an empty text with its reason, not a raise."""
    try:
        article = extract(decode_html(body).text, url)
    except ExtractError as e:
        return _failed(str(e))
    except Exception as e:  # noqa: BLE001 - one page's bug must not cost the rest of the folder
        return _failed(f"internal error: {type(e).__name__}: {e}")
    return {"title": article.title, "text": article.text, "published": article.published,
            "author": article.author, "lang": article.lang, "error": None}


def _failed(reason: str) -> dict[str, str | None]:
    return {"title": "", "text": "", "published": None, "author": None, "lang": None,
            "error": reason}


def extract_folder(
    pages_dir: Path,
    out_path: Path,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Extract every ``*.html`` in ``pages_dir`` into ``out_path`` (JSON lines); returns the
    number of pages written."""
    pages = sorted(pages_dir.glob("*.html"))
    with out_path.open("w", encoding="utf-8") as out:
        for done, page in enumerate(pages, 1):
            record = {"id": page.stem, **extract_page(page.read_bytes())}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            if progress is not None:
                progress(done, len(pages))
    return len(pages)
