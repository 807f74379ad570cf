"""03_output/index.html: the archive's index for a browser (seed 003 §3.4), readable offline.

Every bindable article by category, with title, source domain, published and fetched dates and
character count, linking its clean page in 01_clean and its local images in 02_assets (all
relative links, so the folder can move or be copied whole), and every book 03_output holds, in
each format a build makes. It is the archive's page, so it carries the archive's name whatever
book was built last.

Every build writes it whole, whatever it binds, and a one-article build must not read 100,000
articles for it (issue 30): each row is kept rendered in entries.db (``entry_cache.Row``) with
what orders it, and only the rows whose files, cells, language or template changed are
rendered again; the rest of the page is the rows joined.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from pipeline.book.collect import Entry, entry_from, group, ordered, select
from pipeline.book.entry_cache import EntryCache, Row, file_key
from pipeline.book.labels import book_language, labels_for
from pipeline.book.pages import date_range, index_tree
from pipeline.records.errors import BookError
from pipeline.records.task import Task
from pipeline.store.archive import Archive, write_atomic

ROW_TEMPLATE = "index_row.html.j2"
SHELF = ("*.epub", "*.pdf", "*.chm")  # the books index.html links, each format's files


class Line(NamedTuple):
    """One article in the index as ``collect.ordered``, ``group``, ``date_range`` and the
    language's vote read it (as an ``Entry`` has them), made from its kept row."""

    task_id: int
    cat1: str
    cat2: str
    title: str
    published: str | None
    published_day: str
    fetched_day: str
    lang: str | None


def _href(path: str) -> str:
    return quote(path, safe="/")


def write_index(archive: Archive, tasks: list[Task], *, order: str, chosen_lang: str | None,
                env: jinja2.Environment) -> Path:
    """index.html of every bindable task of ``tasks``, in book ``order``, in ``chosen_lang``
    (the ``book_language`` setting) or the articles' vote."""
    books = sorted(p for pattern in SHELF for p in archive.output_dir.glob(pattern))
    # the archive root as seen from the index: ".." from 03_output, a longer way from a
    # folder given to ``build --out``
    up = Path(os.path.relpath(archive.root, archive.output_dir)).as_posix()
    with EntryCache(archive) as cache:
        lines, rows, lang = _lines(archive, cache, select(tasks), order, chosen_lang, env, up)
    labels = labels_for(lang)
    tree = index_tree(group(lines), labels, lambda line: rows[line.task_id].html)
    page = env.get_template("index.html.j2").render(
        title=archive.name, lang=lang, labels=labels, count=len(lines),
        date_range=date_range(lines), groups=_joined(tree),
        books=[{"name": b.name, "href": _href(b.name)} for b in books],
    )
    path = archive.output_dir / "index.html"
    write_atomic(path, page.encode("utf-8"))
    return path


def _lines(archive: Archive, cache: EntryCache, bindable: list[Task], order: str,
           chosen_lang: str | None, env: jinja2.Environment, up: str
           ) -> tuple[list[Line], dict[int, Row], str]:
    """Each bindable task's line, in book ``order``, its row, and the page's language: the
    rows kept where still true, the others rendered and kept."""
    clean = os.path.join(archive.clean_dir, "")
    kept = cache.index_rows()
    keys: dict[int, str] = {}
    stale: list[Task] = []
    for t in bindable:
        made_of = file_key(f"{clean}{t.id}.json")
        if made_of is None:
            continue  # no clean record: nothing to list
        # what the row shows: the article, its images and the task's cells it reads
        keys[t.id] = key = "\x1f".join((made_of, file_key(f"{clean}{t.id}.assets.json") or "",
                                        t.title, t.extracted_title, t.url, t.fetched_at))
        row = kept.get(t.id)
        if row is None or row.key != key:
            stale.append(t)
    fresh = _entries(cache, stale)  # the entries whose row is rendered again
    rows = {i: kept[i] for i in keys if i not in fresh and i in kept}
    placed = ordered([Line(t.id, t.cat1.strip(), t.cat2.strip(), r.title, r.published,
                           r.published_day if isinstance(r, Entry) else r.day,
                           t.fetched_at[:10], r.lang)
                      for t in bindable if (r := fresh.get(t.id) or rows.get(t.id))], order)
    lang = book_language(placed, chosen_lang)  # in book order: a tie goes to the first
    labels = labels_for(lang)
    made = _how_made(env, labels["lang"], up)
    # rows made in another language, place or template: rendered again from their summaries
    fresh.update(_entries(cache, [t for t in bindable
                                  if t.id in rows and rows[t.id].made != made]))
    render = _renderer(archive, cache, list(fresh), env, labels, up)
    for task_id, e in fresh.items():
        rows[task_id] = Row(keys[task_id], made, e.title, e.published, e.published_day, e.lang,
                            render(e))
    if archive.output is None:  # rows made for another folder (build --out, the book
        # command's) are not kept: the archive's own index would make them all again next
        cache.put_index_rows((i, rows[i]) for i in fresh)
    return placed, rows, lang


def _joined(tree: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tree with each table's rows joined into one piece of markup (rendered and escaped
    already), as index.html.j2 places them."""
    for table in [*tree, *(child for g in tree for child in g["children"])]:
        table["entries"] = Markup("\n".join(table["entries"]))
    return tree


def _entries(cache: EntryCache, tasks: list[Task]) -> dict[int, Entry]:
    """These tasks' entries (none for a task whose article cannot be read)."""
    summaries = cache.summaries(t.id for t in tasks)
    return {t.id: entry_from(t, summaries[t.id]) for t in tasks if t.id in summaries}


def _how_made(env: jinja2.Environment, labels_lang: str, up: str) -> str:
    """What every row depends on beside its article: the labels' language, where the archive
    lies from the page, and the row template (an archive's own, or the bundled one)."""
    assert env.loader is not None
    source, _, _ = env.loader.get_source(env, ROW_TEMPLATE)
    return hashlib.sha256("\x1f".join((labels_lang, up, source)).encode()).hexdigest()[:32]


def _renderer(archive: Archive, cache: EntryCache, task_ids: list[int],
              env: jinja2.Environment, labels: dict[str, str], up: str
              ) -> Callable[[Entry], str]:
    """The row of an entry, as ``index_row.html.j2`` renders it."""
    images = cache.images(task_ids)  # no image map read but those changed since cached
    clean_pages = _href(f"{up}/01_clean/")  # an id's page name needs no quoting
    try:
        macro = env.get_template(ROW_TEMPLATE).module.row  # type: ignore[attr-defined]
    except (jinja2.TemplateError, AttributeError) as e:  # an archive's own, broken or no row
        raise BookError(f"template {ROW_TEMPLATE}: {e}") from None

    def render(e: Entry) -> str:
        local, total = images[e.task_id]
        try:
            return str(macro({
                "title": e.title, "href": f"{clean_pages}{e.task_id}.html",
                "url": e.link,
                "domain": e.domain, "published": e.published_day,
                "fetched": e.fetched_day, "chars": e.chars, "length": e.shown_length(labels),
                "images": [_href(f"{up}/{p}") for p in local], "images_total": total,
            }, labels))
        except jinja2.TemplateError as error:
            raise BookError(f"template {ROW_TEMPLATE}: {error}") from None

    return render
