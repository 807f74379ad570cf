"""03_output/index.html: the archive's index for a browser (seed 003 §3.4), readable offline.

Every bindable article by category, with title, source domain, published and fetched dates and
character count, linking its clean page in 01_clean and its local images in 02_assets (all
relative links, so the folder can move or be copied whole), and every book 03_output holds, in
each format a build makes. It is the archive's page, so it carries the archive's name whatever
book was built last.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import jinja2

from pipeline.book.collect import Entry, group
from pipeline.book.entry_cache import EntryCache
from pipeline.book.labels import labels_for
from pipeline.book.pages import date_range, index_tree
from pipeline.store.archive import Archive, write_atomic


def _href(path: str) -> str:
    return quote(path, safe="/")


SHELF = ("*.epub", "*.pdf", "*.chm")  # the books index.html links, each format's files


def write_index(archive: Archive, entries: list[Entry], *, lang: str,
                env: jinja2.Environment) -> Path:
    books = sorted(p for pattern in SHELF for p in archive.output_dir.glob(pattern))
    labels = labels_for(lang)
    # the archive root as seen from the index: ".." from 03_output, a longer way from a
    # folder given to ``build --out``
    up = Path(os.path.relpath(archive.root, archive.output_dir)).as_posix()

    with EntryCache(archive) as cache:  # no image map read but those changed since cached
        images = cache.images(e.task_id for e in entries)

    clean_pages = _href(f"{up}/01_clean/")  # an id's page name needs no quoting

    def row(e: Entry) -> dict[str, object]:
        local, total = images[e.task_id]
        return {
            "title": e.title, "href": f"{clean_pages}{e.task_id}.html",
            "url": e.link,
            "domain": e.domain, "published": e.published_day,
            "fetched": e.fetched_day, "chars": e.chars, "length": e.shown_length(labels),
            "images": [_href(f"{up}/{p}") for p in local], "images_total": total,
        }

    page = env.get_template("index.html.j2").render(
        title=archive.name, lang=lang, labels=labels, count=len(entries),
        date_range=date_range(entries), groups=index_tree(group(entries), labels, row),
        books=[{"name": b.name, "href": _href(b.name)} for b in books],
    )
    path = archive.output_dir / "index.html"
    write_atomic(path, page.encode("utf-8"))
    return path
