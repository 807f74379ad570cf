"""index.html read as a person reads it: the hub, then each category's pages in its order."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from lxml import html


def category_pages(hub: Path) -> list[Path]:
    """The pages the hub links (index/…), in its order, each once."""
    page = html.fromstring(hub.read_bytes())
    hrefs = [unquote(href) for href in page.xpath("//a/@href") if href.startswith("index/")]
    return [hub.parent / href for href in dict.fromkeys(hrefs)]


def index_rows(hub: Path) -> list[html.HtmlElement]:
    """Every article's row, in the index's order."""
    return [row for path in category_pages(hub)
            for row in html.fromstring(path.read_bytes()).xpath("//tbody/tr")]


def index_text(hub: Path) -> str:
    """The hub's text and every page's, in order (what a search of the pages finds)."""
    return "\n".join(path.read_text(encoding="utf-8")
                     for path in [hub, *category_pages(hub)])


def index_files(hub: Path) -> dict[str, bytes]:
    """The hub's bytes and every file's in index/, by name: the index as a build left it."""
    pages = hub.parent / "index"
    return {hub.name: hub.read_bytes(),
            **{f"index/{p.name}": p.read_bytes() for p in sorted(pages.iterdir())}}
