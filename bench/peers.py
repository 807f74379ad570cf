"""The extractors Kuaibu is measured against, behind one signature (bench-only dependencies).

Each takes the decoded page and returns the benchmark's prediction fields. Peers get the same
decoded text Kuaibu gets, so the comparison is about extraction, not decoding.

Run as a script it is a peer's whole process, the counterpart of ``main.py extract`` for
``extract_speed.py --whole-process``:

    python bench/peers.py --whole PAGES --jsonl OUT [--peer trafilatura]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from pipeline.text.decode import decode_html  # noqa: E402

Prediction = dict[str, str | None]
DEFAULT_DATA = REPO.parent / "shared" / "bench"
# readability-lxml logs a traceback for each page it gives up on; that page scores as empty,
# which is all the benchmark needs to know.
logging.getLogger("readability").setLevel(logging.CRITICAL)


def empty() -> Prediction:
    """What a page an extractor gives up on scores as (a fresh dict: callers add to it)."""
    return {"text": "", "title": "", "published": None}


def kuaibu(html: str) -> Prediction:
    # Imported here, not at the top, so that a peer's whole process (``--whole``) does not pay
    # for Kuaibu's imports and the timing stays about the peer.
    from pipeline.extract import extract
    from pipeline.records.errors import ExtractError

    try:
        a = extract(html, "")
    except ExtractError:
        return empty()
    return {"text": a.text, "title": a.title, "published": a.published}


def _trafilatura(html: str, favor_precision: bool) -> Prediction:
    import trafilatura

    doc = trafilatura.bare_extraction(
        html, with_metadata=True, include_comments=False, favor_precision=favor_precision
    )
    if doc is None:
        return empty()
    return {"text": doc.text or "", "title": doc.title or "", "published": doc.date}


def trafilatura_(html: str) -> Prediction:
    return _trafilatura(html, favor_precision=False)


def trafilatura_precision(html: str) -> Prediction:
    """trafilatura tuned to drop doubtful blocks: the peer to beat on the failure count."""
    return _trafilatura(html, favor_precision=True)


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
        return empty()


EXTRACTORS: dict[str, Callable[[str], Prediction]] = {
    "kuaibu": kuaibu,
    "trafilatura": trafilatura_,
    "trafilatura-precision": trafilatura_precision,
    "readability": readability_,
}
PEERS = ("trafilatura", "trafilatura-precision", "readability")
_PACKAGES = {"trafilatura": "trafilatura", "trafilatura-precision": "trafilatura",
             "readability": "readability-lxml"}


def peer_version(name: str) -> str:
    """The peer's package version and a hash of this file: a cached prediction goes stale when
    either the package or the way it is called here changes."""
    wrapper = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:8]
    return f"{_PACKAGES[name]}-{version(_PACKAGES[name])}-{wrapper}"


def predict_file(name: str, page: Path) -> Prediction:
    """One raw page, decoded as Kuaibu's contract decodes it, through the named extractor."""
    return EXTRACTORS[name](decode_html(page.read_bytes()).text)


def extract_folder_with(name: str, pages_dir: Path, out_path: Path) -> int:
    """The peer's ``extract_folder``: same reading, decoding and JSON lines, so timing the two
    processes compares extraction. Returns the number of pages written."""
    pages = sorted(pages_dir.glob("*.html"))
    with out_path.open("w", encoding="utf-8") as out:
        for page in pages:
            record = {"id": page.stem, **predict_file(name, page)}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return len(pages)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="One peer over a folder of pages, as its own process.")
    ap.add_argument("--whole", type=Path, required=True, metavar="PAGES",
                    help="folder of *.html files (raw bytes)")
    ap.add_argument("--jsonl", type=Path, required=True, help="output, one JSON line per page")
    ap.add_argument("--peer", choices=PEERS, default="trafilatura")
    args = ap.parse_args(argv)
    count = extract_folder_with(args.peer, args.whole, args.jsonl)
    print(f"{count} pages → {args.jsonl}")


if __name__ == "__main__":
    main()
