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
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from pipeline.archive import Archive
from pipeline.book.chapters import Chapter, ImageCatalog, chapter_file, link_key, prepare_chapter
from pipeline.book.collect import Entry, display_category, group, load_entry, ordered, select
from pipeline.book.cover import find_cjk_font, render_cover
from pipeline.book.epub import COVER_IMAGE, VolumeContent, write_volume
from pipeline.book.identity import Collection, collection_uuid, record_build, volume_uuid
from pipeline.book.index import write_index
from pipeline.book.labels import labels_for
from pipeline.book.pages import date_range, index_tree, render_lines, render_xhtml, stylesheet
from pipeline.book.volumes import pack
from pipeline.book.xhtml import clean_url
from pipeline.errors import BookError
from pipeline.settings import Settings
from pipeline.tasks import Task
from pipeline.templating import environment

__all__ = ["BookError", "BuildResult", "build_books", "sweep_leftovers"]

SPLIT_CHOICES = ("cat1",)
_CJK = re.compile(r"[\u3400-\u9fff]")
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

    @property
    def articles(self) -> int:
        return len(self.task_ids)


def book_language(entries: Iterable[Entry]) -> str:
    """The language most articles give; else Chinese when titles are, else English."""
    entries = list(entries)
    counts = Counter(e.lang for e in entries if e.lang)
    if counts:
        return counts.most_common(1)[0][0]
    return "zh" if any(_CJK.search(e.title) for e in entries) else "en"


def safe_stem(name: str) -> str:
    """A file name every system accepts, from a title."""
    stem = _UNSAFE_NAME.sub("_", name).strip(" ._")[:80].strip()
    return stem or "kuaibu"


def _collections(archive: Archive, chosen: list[Entry], *, cat1: str | None,
                 split_by: str | None, task_ids: set[int] | None,
                 labels: dict[str, str]) -> list[tuple[Collection, list[Entry]]]:
    """The books to make. A category is known by its display name, so ``--cat1 Blog`` and
    ``--split-by cat1`` name (and identify) the book of ``01_Blog`` the same way."""
    name = archive.root.name or "kuaibu"
    ids_part = ""
    if task_ids is not None:
        listed = ",".join(str(i) for i in sorted(task_ids))
        ids_part = "ids:" + hashlib.sha1(listed.encode()).hexdigest()[:16]
    suffix = f"-{ids_part[4:12]}" if ids_part else ""
    if split_by != "cat1" and cat1 is None:
        # a collection that is all one category is called by it; else by the archive's name
        names = {display_category(e.cat1) for e in chosen}
        title = names.pop() if len(names) == 1 and chosen[0].cat1 else name
        return [(Collection(ids_part or "all", title, safe_stem(name + suffix)), chosen)]
    by_category: dict[str, list[Entry]] = {}
    for e in chosen:
        by_category.setdefault(display_category(e.cat1) if e.cat1 else "", []).append(e)
    out: list[tuple[Collection, list[Entry]]] = []
    stems: set[str] = set()
    for shown, members in by_category.items():
        title = shown or labels["uncategorized"]
        stem = safe_stem(f"{name}-{title}{suffix}")
        while stem in stems:  # two names that differ only in characters a file name drops
            stem += "_"
        stems.add(stem)
        key = "|".join(p for p in (f"cat1:{shown}", ids_part) if p)
        out.append((Collection(key, title, stem), members))
    return out


def build_books(archive: Archive, tasks: list[Task], settings: Settings, *,
                cat1: str | None = None, split_by: str | None = None,
                task_ids: set[int] | None = None,
                progress: Progress | None = None) -> BuildResult:
    """Bind the cleaned, localized and done articles into EPUBs; write index.html beside them."""
    if split_by is not None and split_by not in SPLIT_CHOICES:
        raise BookError(f"--split-by takes {', '.join(SPLIT_CHOICES)}, not {split_by!r}")
    entries = [e for e in (load_entry(archive, t) for t in select(tasks)) if e is not None]
    everything = ordered(entries, settings.sort_by)
    wanted = {t.id for t in select(tasks, cat1=cat1, task_ids=task_ids)}
    chosen = [e for e in everything if e.task_id in wanted]
    if not chosen:
        raise BookError(_nothing_to_bind(everything, cat1, task_ids))
    env = environment(archive.root)
    font = find_cjk_font()
    sweep_leftovers(archive.output_dir)
    labels = labels_for(book_language(chosen))
    task_urls = {t.id: t.url for t in tasks}
    report = progress or (lambda done, total: None)
    counter = _Counter(2 * len(chosen), report)
    epubs: list[Path] = []
    with tempfile.TemporaryDirectory(dir=archive.output_dir, prefix=".build-") as staging:
        for collection, members in _collections(archive, chosen, cat1=cat1, split_by=split_by,
                                                task_ids=task_ids, labels=labels):
            epubs += _build_collection(archive, collection, members, settings, env, font,
                                       Path(staging), task_urls, counter)
    shelf = sorted(archive.output_dir.glob("*.epub"))
    index = write_index(archive, everything, shelf, title=archive.root.name,
                        lang=book_language(everything), env=env)
    return BuildResult(epubs, index, [e.task_id for e in chosen])


def sweep_leftovers(output_dir: Path, older_than: float = 3600) -> None:
    """Remove staging folders and half-written books a killed build left (an hour old: a
    build running at the same time is never touched)."""
    cutoff = time.time() - older_than
    for path in [*output_dir.glob(".build-*"), *output_dir.glob(".*.epub.tmp")]:
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


def _nothing_to_bind(everything: list[Entry], cat1: str | None,
                     task_ids: set[int] | None) -> str:
    if not everything:
        return "nothing to bind: no article is cleaned yet (run the tasks first)"
    if cat1 is not None:
        known = sorted({e.cat1 for e in everything if e.cat1})
        return (f"nothing to bind in category {cat1!r}"
                + (f"; categories: {', '.join(known)}" if known else ""))
    return f"nothing to bind: none of the ids {sorted(task_ids or ())[:20]} is a cleaned article"


def _build_collection(archive: Archive, collection: Collection, entries: list[Entry],
                      settings: Settings, env: jinja2.Environment, font: Path, staging: Path,
                      task_urls: dict[int, str], counter: _Counter) -> list[Path]:
    lang = book_language(entries)
    labels = labels_for(lang)
    link_ids: dict[str, int] = {}
    for e in entries:
        for url in (task_urls.get(e.task_id, ""), e.url):
            key = link_key(url)
            if key:
                link_ids.setdefault(key, e.task_id)
    catalog = ImageCatalog(archive)
    chapters: list[Chapter] = []
    for e in entries:
        chapters.append(prepare_chapter(archive, e, env=env, catalog=catalog, link_ids=link_ids,
                                        labels=labels, lang=lang, staging=staging))
        counter.add(1)
    volumes = pack(chapters, settings.epub_budget_bytes)
    ident = collection_uuid(archive, collection.key)
    css = stylesheet(env)
    url_of = {e.task_id: e.url for e in entries}
    files: list[Path] = []
    for k, volume in enumerate(volumes, 1):
        members = [c.entry for c in volume]
        here = {c.entry.task_id for c in volume}

        def link_href(task_id: int, here: set[int] = here) -> str | None:
            if task_id in here:
                return chapter_file(task_id).removeprefix("text/")
            return clean_url(url_of.get(task_id, ""))

        volume_label = labels["volume"].format(k=k, n=len(volumes)) if len(volumes) > 1 else ""
        title = f"{collection.title} · {volume_label}" if volume_label else collection.title
        dates = date_range(members)
        lines = render_lines(env, "cover.txt.j2", title=collection.title, volume=volume_label,
                             date_range=dates, count=len(members), labels=labels)
        cover_jpeg = render_cover(lines[0] if lines else title, lines[1:], font)

        def row(e: Entry) -> dict[str, object]:
            return {"title": e.title, "href": chapter_file(e.task_id), "domain": e.domain,
                    "published": e.published_day, "fetched": e.fetched_day,
                    "chars": e.chars}

        groups = group(members)
        index_page = render_xhtml(env, "index.xhtml.j2", title=title, lang=lang, labels=labels,
                                  count=len(members), date_range=dates, volume=volume_label,
                                  groups=index_tree(groups, labels, row),
                                  stylesheet="style.css")
        cover_page = render_xhtml(env, "cover.xhtml.j2", title=title, lang=lang, labels=labels,
                                  image=COVER_IMAGE, stylesheet="style.css")
        name = collection.stem + (f".vol{k}" if len(volumes) > 1 else "") + ".epub"
        path = archive.output_dir / name
        description = f"{len(members)} {labels['articles']}" + (f", {dates}" if dates else "")
        write_volume(path, VolumeContent(
            identifier=volume_uuid(ident, k, len(volumes)), title=title, lang=lang,
            description=description, chapters=volume, groups=groups, cover_jpeg=cover_jpeg,
            cover_page=cover_page, index_page=index_page, stylesheet=css, labels=labels,
            link_href=link_href,
        ))
        files.append(path)
        counter.add(len(volume))
    for stale in record_build(archive, collection.key, ident, files,
                              [e.task_id for e in entries]):
        stale.unlink(missing_ok=True)
    return files
