"""Binding the archive into EPUB books and the browser index (issue 6; seed 003 §3.4).

``build_books`` is the one entry point (CLI ``build``, the demo, the GUI's Build button): it
picks the bindable articles, renders each chapter once to a staging folder, splits each
collection into volumes under the size budget, writes every volume with ebooklib, and finally
writes 03_output/index.html.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import jinja2

from pipeline.book.chapters import (
    Chapter,
    ImageCatalog,
    chapter_file,
    chapter_href,
    link_key,
    link_targets,
    outside_href,
    prepare_chapter,
)
from pipeline.book.collect import Entry, display_category, entry_from, group, ordered, select
from pipeline.book.cover import find_cjk_font, render_cover
from pipeline.book.entry_cache import EntryCache
from pipeline.book.epub import COVER_IMAGE, VolumeContent, write_volume
from pipeline.book.identity import Collection, collection_uuid, record_build, volume_uuid
from pipeline.book.index import WholeList, write_index
from pipeline.book.labels import book_language, labels_for
from pipeline.book.pages import date_range, index_tree, render_lines, render_xhtml, stylesheet
from pipeline.book.volumes import pack, volume_label, volume_stem, volume_title
from pipeline.records.errors import BookError
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.store.archive import Archive
from pipeline.text.language import language_tag
from pipeline.text.templating import environment

__all__ = ["BookError", "BuildResult", "book_language", "build_books", "choose_entries",
           "collections_of", "sweep_leftovers"]

SPLIT_CHOICES = ("cat1",)
_RESERVED_NAMES = frozenset(("con", "prn", "aux", "nul", *(f"com{n}" for n in range(10)),
                             *(f"lpt{n}" for n in range(10))))
_UNSAFE_NAME = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]+')

Progress = Callable[[int, int], None]


@dataclass
class BuildResult:
    """What a build made, for the CLI and the GUI to show (paths are inside 03_output)."""

    epubs: list[Path]
    index: Path
    task_ids: list[int]  # the articles bound, in book order
    # (near duplicate, the article it nearly repeats) left out: the later of each pair no
    # one has judged (``dupes --keep-both`` binds both)
    left_out: list[tuple[int, int]] = field(default_factory=list)
    pdfs: list[Path] = field(default_factory=list)  # build --format pdf (book/pdf.py)
    chms: list[Path] = field(default_factory=list)  # build --format chm (book/chm.py)
    # .hhp of each CHM project written but not compiled: no chmcmd on PATH
    chm_projects: list[Path] = field(default_factory=list)

    @property
    def articles(self) -> int:
        return len(self.task_ids)


def safe_stem(name: str) -> str:
    """A file name every system accepts, from a title: no characters Windows, macOS or Linux
    refuse, no trailing dot or space, and never a name Windows reserves for a device
    (``aux``, ``con``, ``nul``, ``com1``…, whatever the extension)."""
    stem = _UNSAFE_NAME.sub("_", name).strip(" ._")[:80].strip(" .")
    if stem.split(".", 1)[0].strip().lower() in _RESERVED_NAMES:
        stem = f"{stem}_"
    return stem or "kuaibu"


def collections_of(archive: Archive, chosen: list[Entry], *, cat1: str | None,
                 split_by: str | None, task_ids: set[int] | None, labels: dict[str, str],
                 title: str | None) -> list[tuple[Collection, list[Entry]]]:
    """The books to make, each with one name: its file, dc:title, cover and index heading.
    The whole archive's book is called ``title`` (``--title``, the ``book_title`` setting)
    or the archive's name; a category's book by the category (after ``title`` when one is
    given). A category is known by its display name, so ``--cat1 Blog`` and ``--split-by
    cat1`` name (and identify) the book of ``01_Blog`` the same way."""
    name = title or archive.name or "kuaibu"
    ids_part = ""
    if task_ids is not None:
        listed = ",".join(str(i) for i in sorted(task_ids))
        ids_part = "ids:" + hashlib.sha1(listed.encode()).hexdigest()[:16]
    suffix = f"-{ids_part[4:12]}" if ids_part else ""
    if split_by != "cat1" and cat1 is None:
        return [(Collection(ids_part or "all", name, safe_stem(name + suffix)), chosen)]
    by_category: dict[str, list[Entry]] = {}
    for e in chosen:
        by_category.setdefault(display_category(e.cat1) if e.cat1 else "", []).append(e)
    out: list[tuple[Collection, list[Entry]]] = []
    stems: set[str] = set()
    for shown, members in by_category.items():
        category = shown or labels["uncategorized"]
        book_title = f"{title} · {category}" if title else category
        stem = safe_stem(f"{book_title}{suffix}")
        while stem in stems:  # two names that differ only in characters a file name drops
            stem += "_"
        stems.add(stem)
        key = "|".join(p for p in (f"cat1:{shown}", ids_part) if p)
        out.append((Collection(key, book_title, stem), members))
    return out


def build_books(archive: Archive, tasks: list[Task], settings: Settings, *,
                cat1: str | None = None, split_by: str | None = None,
                task_ids: set[int] | None = None, title: str | None = None,
                progress: Progress | None = None, whole: WholeList | None = None
                ) -> BuildResult:
    """Bind the cleaned, localized and done articles into EPUBs; write index.html beside
    them. ``title`` (``build --title``) wins over the ``book_title`` setting. ``whole``: the
    list index.html is made of, when ``tasks`` is only what a build by ids binds."""
    chosen, env, title, chosen_lang, labels, task_urls, report = plan_build(
        archive, tasks, settings, cat1=cat1, split_by=split_by, task_ids=task_ids, title=title,
        progress=progress, whole=whole)
    font = find_cjk_font()
    counter = _Counter(2 * len(chosen), report)
    epubs: list[Path] = []
    with tempfile.TemporaryDirectory(dir=archive.output_dir, prefix=".build-") as staging:
        for collection, members in collections_of(archive, chosen, cat1=cat1,
                                                  split_by=split_by, task_ids=task_ids,
                                                  labels=labels, title=title):
            epubs += _build_collection(archive, collection, members, settings, env, font,
                                       Path(staging), task_urls, counter)
    index = write_index(archive, tasks, order=settings.book_order, chosen_lang=chosen_lang,
                        env=env, whole=whole)
    return BuildResult(epubs, index, [e.task_id for e in chosen])


class BuildPlan(NamedTuple):
    """What every format's build starts from (the EPUB's and the PDF's alike)."""

    chosen: list[Entry]
    env: jinja2.Environment
    title: str | None
    chosen_lang: str | None  # the book_language setting, when a valid tag
    labels: dict[str, str]
    task_urls: dict[int, str]
    report: Progress


def plan_build(archive: Archive, tasks: list[Task], settings: Settings, *,
               cat1: str | None, split_by: str | None, task_ids: set[int] | None,
               title: str | None, progress: Progress | None,
               whole: WholeList | None = None) -> BuildPlan:
    """The choices a build checks and makes before binding any format; a BookError when
    ``split_by`` is unknown or nothing is to be bound. Half-written output a killed build left
    is swept first."""
    if split_by is not None and split_by not in SPLIT_CHOICES:
        raise BookError(f"--split-by takes {', '.join(SPLIT_CHOICES)}, not {split_by!r}")
    chosen = choose_entries(archive, tasks, settings, cat1=cat1, task_ids=task_ids,
                            whole=whole)
    env = environment(archive.root)
    sweep_leftovers(archive.output_dir)
    chosen_lang = language_tag(settings.book_language)
    bound = {e.task_id for e in chosen}  # a book links its own chapters by their addresses
    return BuildPlan(chosen, env, (title or settings.book_title or "").strip() or None,
                     chosen_lang, labels_for(book_language(chosen, chosen_lang)),
                     {t.id: t.url for t in tasks if t.id in bound},
                     progress or (lambda done, total: None))


def choose_entries(archive: Archive, tasks: list[Task], settings: Settings, *,
                   cat1: str | None, task_ids: set[int] | None,
                   whole: WholeList | None = None) -> list[Entry]:
    """The articles this build binds, in book order (one choice for every format); a
    BookError when none is (said of the whole list, ``whole``'s when given). Only theirs are
    read: a one-article build reads one summary."""
    wanted = select(tasks, cat1=cat1, task_ids=task_ids)
    with EntryCache(archive) as cache:  # no article read but those changed since cached
        summaries = cache.summaries(t.id for t in wanted)
    chosen = ordered([entry_from(t, summaries[t.id]) for t in wanted if t.id in summaries],
                     settings.book_order)
    if not chosen:
        raise BookError(_nothing_to_bind(select(whole.tasks() if whole else tasks), cat1,
                                         task_ids))
    return chosen


def book_link_ids(entries: Iterable[Entry], task_urls: dict[int, str]) -> dict[str, int]:
    """Which chapter a link to each article's address lands on in this book (the task's
    address and the article's own; the first article that has one keeps it)."""
    link_ids: dict[str, int] = {}
    for e in entries:
        for url in (task_urls.get(e.task_id, ""), e.url):
            key = link_key(url)
            if key:
                link_ids.setdefault(key, e.task_id)
    return link_ids


def sweep_leftovers(output_dir: Path, older_than: float = 3600) -> None:
    """Remove staging folders and half-written books a killed build left (an hour old: a
    build running at the same time is never touched)."""
    cutoff = time.time() - older_than
    for path in [*output_dir.glob(".build-*"), *output_dir.glob(".*.epub.tmp"),
                 *output_dir.glob(".*.pdf.tmp")]:
        try:
            if path.stat().st_mtime >= cutoff:
                continue
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink()
        except OSError:
            continue


@dataclass
class _Counter:
    """Progress in article steps: each is rendered once, then written once into its volume."""

    total: int
    report: Progress
    done: int = 0

    def add(self, n: int) -> None:
        self.done += n
        self.report(self.done, self.total)


def _nothing_to_bind(bindable: list[Task], cat1: str | None,
                     task_ids: set[int] | None) -> str:
    if not bindable:
        return "nothing to bind: no article is cleaned yet (run the tasks first)"
    if cat1 is not None:
        known = sorted({t.cat1.strip() for t in bindable if t.cat1.strip()})
        return (f"nothing to bind in category {cat1!r}"
                + (f"; categories: {', '.join(known)}" if known else ""))
    return f"nothing to bind: none of the ids {sorted(task_ids or ())[:20]} is a cleaned article"


def _build_collection(archive: Archive, collection: Collection, entries: list[Entry],
                      settings: Settings, env: jinja2.Environment, font: Path, staging: Path,
                      task_urls: dict[int, str], counter: _Counter) -> list[Path]:
    lang = book_language(entries, language_tag(settings.book_language))
    labels = labels_for(lang)
    link_ids = book_link_ids(entries, task_urls)
    targets = link_targets(entries, link_ids)
    catalog = ImageCatalog(archive)
    chapters: list[Chapter] = []
    for e in entries:
        chapters.append(prepare_chapter(archive, e, env=env, catalog=catalog, link_ids=link_ids,
                                        labels=labels, staging=staging,
                                        targets=targets.get(e.task_id, frozenset())))
        counter.add(1)
    volumes = pack(chapters, settings.epub_budget_bytes)
    ident = collection_uuid(archive, collection.key)
    css = stylesheet(env)
    url_of = {e.task_id: e.url for e in entries}
    files: list[Path] = []
    for k, volume in enumerate(volumes, 1):
        members = [c.entry for c in volume]
        here = {c.entry.task_id: c for c in volume}

        def link_href(task_id: int, fragment: str,
                      here: dict[int, Chapter] = here) -> str | None:
            """Beside it in this volume: its chapter, at the fragment's id if it kept it;
            elsewhere: the article's URL, its fragment kept."""
            if task_id in here:
                return chapter_href(here[task_id], fragment)
            return outside_href(url_of.get(task_id, ""), fragment)

        shown_volume = volume_label(labels, k, len(volumes))
        title = volume_title(collection.title, shown_volume)
        dates = date_range(members)
        lines = render_lines(env, "cover.txt.j2", title=collection.title, volume=shown_volume,
                             date_range=dates, count=len(members), labels=labels,
                             categories=[display_category(g.name) if g.name
                                         else labels["uncategorized"] for g in group(members)])
        cover_jpeg = render_cover(lines[0] if lines else title, lines[1:], font)

        def row(e: Entry) -> dict[str, object]:
            return {"title": e.title, "href": chapter_file(e.task_id), "domain": e.domain,
                    "published": e.published_day, "fetched": e.fetched_day,
                    "chars": e.chars, "length": e.shown_length(labels)}

        groups = group(members)
        tree = index_tree(groups, labels, row)
        index_page = render_xhtml(env, "index.xhtml.j2", title=title, lang=lang, labels=labels,
                                  count=len(members), date_range=dates, volume=shown_volume,
                                  groups=tree, stylesheet="style.css")
        category_pages = [
            [render_xhtml(env, "category.xhtml.j2", group=node, lang=lang, labels=labels,
                          count=len(g.entries), stylesheet="style.css")]
            + [render_xhtml(env, "category.xhtml.j2", group={**child, "children": []},
                            lang=lang, labels=labels, count=len(c.entries),
                            stylesheet="style.css")
               for child, c in zip(node["children"], g.children, strict=True)]
            for node, g in zip(tree, groups, strict=True)]
        cover_page = render_xhtml(env, "cover.xhtml.j2", title=title, lang=lang, labels=labels,
                                  image=COVER_IMAGE, stylesheet="style.css")
        name = volume_stem(collection.stem, k, len(volumes)) + ".epub"
        path = archive.output_dir / name
        description = (f"{len(members)} {labels['articles']}"
                       + (f"{labels['comma']}{dates}" if dates else ""))
        write_volume(path, VolumeContent(
            identifier=volume_uuid(ident, k, len(volumes)), title=title, lang=lang,
            description=description, chapters=volume, groups=groups, cover_jpeg=cover_jpeg,
            cover_page=cover_page, index_page=index_page, category_pages=category_pages,
            stylesheet=css, labels=labels,
            link_href=link_href, author=settings.book_author,
            publisher=settings.book_publisher,
        ))
        files.append(path)
        counter.add(len(volume))
    for stale in record_build(archive, collection.key, ident, files,
                              [e.task_id for e in entries],
                              {e.task_id: e.given_title for e in entries if e.given_title}):
        stale.unlink(missing_ok=True)
    return files
