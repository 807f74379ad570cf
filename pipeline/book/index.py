"""03_output/index.html: the archive's index for a browser (seed 003 §3.4), readable offline.

Every bindable article by category, with title, source domain, published and fetched dates and
character count, linking its clean page in 01_clean and its local images in 02_assets (all
relative links, so the folder can move or be copied whole), and every book 03_output holds, in
each format a build makes. It is the archive's page, so it carries the archive's name whatever
book was built last.

Every build writes it, whatever it binds, and a one-article build must not grow with the
archive (issue 30). So the index is a hub and pages: index.html says the archive's count, date
range and books and lists the categories (cat1, and its cat2s) with their counts, each linking
its pages in index/ (``PAGE_ROWS`` rows a page, so a huge category is pages too). A build looks
again only at the categories whose tasks' cells changed in the list (compared in memory with
what it kept, ``index_state``) or whose articles' files the clean journal names
(``store.clean_journal``: no stat an article), renders again only the rows whose files, cells,
language or template changed (each row kept rendered in entries.db, ``entry_cache.Row``), and
writes only the pages whose rows changed. When 01_clean moved with nothing journaled (a
restored backup, files copied in by hand) or was noted while still changing, one listing of
it (the names and their inodes, no stat) says which articles are other files than their rows
were made from; when nothing was kept, every article is looked at.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from operator import attrgetter
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from pipeline.book.collect import (
    Entry,
    category_place,
    display_category,
    entry_from,
    ordered,
    select,
)
from pipeline.book.entry_cache import EntryCache, Row
from pipeline.book.index_state import FolderKey, Group, IndexState, Shelf, categories, cells
from pipeline.book.labels import labels_for, language_of
from pipeline.book.pages import category_anchor, day_span
from pipeline.records.errors import BookError
from pipeline.records.task import Task
from pipeline.store.archive import SETTLED_SECONDS, Archive, file_lock, write_atomic
from pipeline.store.clean_journal import Mark, changed_since, forget_read

HUB_TEMPLATE = "index.html.j2"
PAGE_TEMPLATE = "index_page.html.j2"
ROW_TEMPLATE = "index_row.html.j2"
PAGES = "index"  # the category pages' folder, beside index.html
PAGE_ROWS = 500  # rows a category page holds: a page a browser opens at once
SHELF = ("*.epub", "*.pdf", "*.chm")  # the books index.html links, each format's files
_ID = attrgetter("id")
LOCK = ".index.lock"
LOCK_WAIT_SECONDS = 120.0  # another build's index: a category's pages made again, at most


class WholeList(NamedTuple):
    """The list a build's index is made of, read only when the index needs it: every task
    it may list (``tasks``, made when called) and which list that is (``key``: the task
    list's exact version and what the build left out; None when not known). An index whose
    kept state is of the same key, with no article's files changed since, lists the same
    rows: it is not looked at again, and a one-article build does not read the whole list
    (issue 30)."""

    tasks: Callable[[], list[Task]]
    key: str | None


class Line(NamedTuple):
    """One article in the index as ``collect.ordered``, the dates and the language's vote
    read it (as an ``Entry`` has them), made from its kept row or its entry."""

    task_id: int
    cat1: str
    cat2: str
    title: str
    published: str | None
    published_day: str
    fetched_day: str
    lang: str | None


class _Look(NamedTuple):
    """What changed in 01_clean since the index was last written."""

    changed: set[int]  # the ids the clean journal names
    whole: bool  # look at every article's files (nothing kept, or 01_clean missing)
    mark: Mark
    clean: FolderKey | None  # 01_clean as seen before the journal was read (None: changing)


@dataclass
class _Category:
    """One category looked at again: its tasks, its lines in book order, their files' keys,
    their rows (kept, or rendered again) and the entries read for the rows to render."""

    tasks: dict[int, Task]
    lines: list[Line]
    files: dict[int, str]
    rows: dict[int, Row]
    entries: dict[int, Entry]
    shelf: Shelf


def _href(path: str) -> str:
    return quote(path, safe="/")


def _folder_key(folder: Path) -> FolderKey | None:
    try:
        st = os.stat(folder)
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


def write_index(archive: Archive, tasks: list[Task], *, order: str, chosen_lang: str | None,
                env: jinja2.Environment, whole: WholeList | None = None) -> Path:
    """index.html and its category pages of every bindable task of ``tasks`` (of ``whole``'s
    when given), in book ``order``, in ``chosen_lang`` (the ``book_language`` setting) or the
    articles' vote."""
    with EntryCache(archive) as cache:
        return _Writer(archive, cache, order, env).write(
            whole or WholeList(lambda: tasks, None), chosen_lang)


class _Writer:
    """One build's index (see the module)."""

    def __init__(self, archive: Archive, cache: EntryCache, order: str,
                 env: jinja2.Environment) -> None:
        self.archive, self.cache, self.order, self.env = archive, cache, order, env
        self.pages_dir = archive.output_dir / PAGES
        # the archive root as seen from a category page: "../.." from 03_output/index, a
        # longer way from a folder given to ``build --out``
        self.up = Path(os.path.relpath(archive.root, self.pages_dir)).as_posix()
        # rows and pages made for another folder (build --out, the book command's) are not
        # kept: the archive's own index would make them all again next
        self.keeps = archive.output is None and cache.keeps
        self.kept: IndexState | None = None
        self.gone: list[int] = []  # kept rows of articles with no record now

    def write(self, whole: WholeList, chosen_lang: str | None) -> Path:
        """The index written; the archive's own under its lock, so two builds at once (the
        window's and a terminal's) never leave a state that claims the other's pages."""
        if not self.keeps:
            return self._write(whole, chosen_lang)
        with file_lock(self.archive.root / LOCK, LOCK_WAIT_SECONDS,
                       f"another build is writing {self.archive.output_dir / 'index.html'};"
                       " try again when it is done"):
            self.kept = IndexState.from_json(self.cache.index_state())
            return self._write(whole, chosen_lang)

    def _write(self, whole: WholeList, chosen_lang: str | None) -> Path:
        look = self._look()
        if (hub := self._as_kept(whole, look, chosen_lang)) is not None:
            return hub
        found = categories(select(whole.tasks()))
        members = {g: ts for g, (ts, _) in found.items()}
        digests = {g: digest for g, (_, digest) in found.items()}
        # the categories of the articles journaled (no Python a task: one C loop each)
        touched = ({g for g, ts in members.items() if not look.changed.isdisjoint(map(_ID, ts))}
                   if look.changed else set())
        kept = self.kept
        shelves = kept.shelves if kept is not None else {}
        trusted = shelves if not look.whole else {}
        looked = {g: self._category(g, ts, look, digests[g]) for g, ts in members.items()
                  if g not in trusted or trusted[g].cells != digests[g] or g in touched}
        groups = sorted(members, key=lambda g: category_place(*g))
        lang = language_of(_votes(looked[g].shelf if g in looked else shelves[g]
                                  for g in groups), chosen_lang)
        labels = labels_for(lang)
        made = self._how_made(labels["lang"])
        layout = self._layout(made)
        # index/ changed by another hand (a page removed, the folder gone): every page again
        force = kept is None or kept.pages_folder != _folder_key(self.pages_dir)
        if kept is None or force or (kept.made, kept.layout) != (made, layout):
            looked.update({g: self._category(g, members[g], look, digests[g])
                           for g in groups if g not in looked})
        self._render(looked, made, labels)
        new = {g: looked[g].shelf if g in looked else shelves[g] for g in groups}
        for g in looked:
            new[g].pages = self._pages(g, looked[g], layout, labels, lang,
                                       dict(shelves[g].pages) if g in shelves and not force
                                       else {})
        self._sweep({name for s in new.values() for name, _ in s.pages})
        hub = self._hub([(g, new[g]) for g in groups if new[g].count], lang, labels)
        if self.keeps:
            self.cache.put_index_rows((i, c.rows[i]) for c in looked.values()
                                      for i in c.entries)
            self.cache.drop_index_rows(self.gone)
            self._keep(IndexState(made, layout, look.mark, look.clean,
                                  _folder_key(self.pages_dir), new, whole.key))
        return hub

    def _as_kept(self, whole: WholeList, look: _Look, chosen_lang: str | None) -> Path | None:
        """The hub made again from the kept shelves alone (the books may have changed) when
        the index is of the same list (``WholeList.key``), no article's files changed since,
        its pages are as left and made the same way: no task read, no category looked at.
        None otherwise."""
        kept = self.kept
        if (kept is None or whole.key is None or kept.source != whole.key or look.whole
                or look.changed or kept.pages_folder != _folder_key(self.pages_dir)):
            return None
        groups = sorted(kept.shelves, key=lambda g: category_place(*g))
        lang = language_of(_votes(kept.shelves[g] for g in groups), chosen_lang)
        labels = labels_for(lang)
        made = self._how_made(labels["lang"])
        if (kept.made, kept.layout) != (made, self._layout(made)):
            return None
        hub = self._hub([(g, kept.shelves[g]) for g in groups if kept.shelves[g].count],
                        lang, labels)
        if (look.mark, look.clean) != (kept.journal, kept.clean):
            self._keep(replace(kept, journal=look.mark, clean=look.clean))
        return hub

    def _layout(self, made: str) -> str:
        """How the pages are made: the rows' making, the order, the archive's name, the
        page's size and template."""
        return _digest(made, self.order, self.archive.name, PAGE_ROWS,
                       self._source(PAGE_TEMPLATE))

    def _look(self) -> _Look:
        """01_clean's identity, then the journal (in that order: a write renames, then
        journals, so a write this look misses moves the folder past what it notes). A
        folder that moved with nothing journaled, or was noted while still changing, is
        listed once (``_listed_changes``)."""
        started = time.time_ns()
        clean = _folder_key(self.archive.clean_dir)
        kept = self.kept
        changed, mark = changed_since(self.archive.root, kept.journal if kept else None)
        whole = kept is None or clean is None
        if kept is not None and not whole and (kept.clean is None
                                                or (kept.clean != clean and not changed)):
            changed |= self._listed_changes()
        # a folder changed within its clock's tick may change again unseen: not noted
        settled = clean if clean is not None and clean[1] < started - SETTLED_SECONDS * 1e9 \
            else None
        return _Look(changed, whole, mark, settled)

    def _listed_changes(self) -> set[int]:
        """The ids whose record or image map is not the file its kept row was made from, or
        that have a record and no row: one listing of 01_clean, whose names come with their
        inodes (no stat), against the rows' files. Kuaibu replaces a file by renaming
        another over it, so another file is another inode; a record rewritten in place
        keeps its inode and is not seen (nor does it move the folder)."""
        with os.scandir(self.archive.clean_dir) as listing:
            listed = {f"{e.name}:{e.inode()}" for e in listing if e.name.endswith(".json")}
        differ = listed.symmetric_difference(self.cache.index_files())
        return {int(head) for name in differ if (head := name.split(".", 1)[0]).isdigit()}

    def _category(self, group: Group, members: list[Task], look: _Look,
                  digest: str) -> _Category:
        """A category's lines, from its kept rows where neither the files (when the journal
        names them) nor the cells changed, else from its articles' entries."""
        kept = self.cache.index_rows([t.id for t in members])
        files: dict[int, str] = {}
        stale: list[Task] = []  # the rows to render again
        for t in members:
            row = kept.get(t.id)
            made_of = (self.cache.files(t.id)
                       if row is None or look.whole or t.id in look.changed else row.files)
            if not made_of:
                if row is not None and self.keeps:
                    self.gone.append(t.id)
                continue  # no clean record: nothing to list
            files[t.id] = made_of
            if row is None or row.files != made_of or row.cells != cells(t):
                stale.append(t)
        entries = _entries(self.cache, stale)
        again = {t.id for t in stale}
        lines = []
        for t in members:
            if (e := entries.get(t.id)) is not None:
                lines.append(Line(t.id, group[0], group[1], e.title, e.published,
                                  e.published_day, e.fetched_day, e.lang))
            elif t.id not in again and t.id in files and (r := kept.get(t.id)) is not None:
                lines.append(Line(t.id, group[0], group[1], r.title, r.published, r.day,
                                  t.fetched_at[:10], r.lang))
        lines = ordered(lines, self.order)
        published = [d for line in lines if (d := line.published_day)]
        fetched = [d for line in lines if (d := line.fetched_day)]
        shelf = Shelf(digest, len(lines), _ends(published), _ends(fetched),
                      list(Counter(line.lang for line in lines if line.lang).items()))
        return _Category({t.id: t for t in members}, lines, files,
                         {i: kept[i] for i in files if i in kept}, entries, shelf)

    def _render(self, looked: dict[Group, _Category], made: str,
                labels: dict[str, str]) -> None:
        """Render the rows the categories looked at need: their entries', and those made in
        another language, place or template (their entries read now)."""
        for c in looked.values():
            again = [line.task_id for line in c.lines
                     if line.task_id not in c.entries and c.rows[line.task_id].made != made]
            summaries = self.cache.summaries(again) if again else {}
            c.entries.update({i: entry_from(c.tasks[i], summaries[i])
                              for i in again if i in summaries})
        fresh = [i for c in looked.values() for i in c.entries]
        if not fresh:
            return
        render = _renderer(self.archive, self.cache, fresh, self.env, labels, self.up)
        for c in looked.values():
            for i, e in c.entries.items():
                c.rows[i] = Row(c.files[i], cells(c.tasks[i]), made, e.title, e.published,
                                e.published_day, e.lang, render(e))

    def _pages(self, group: Group, category: _Category, layout: str,
               labels: dict[str, str], lang: str, before: dict[str, str]
               ) -> list[tuple[str, str]]:
        """Write the category's pages whose rows changed (``before``: each page's digest as
        last written); each page's name and digest."""
        lines = category.lines
        chunks = [lines[n:n + PAGE_ROWS] for n in range(0, len(lines), PAGE_ROWS)]
        stem = _digest(*group)[:12]
        names = [f"{stem}-{k}.html" for k in range(1, len(chunks) + 1)]
        pages = []
        for k, (name, chunk) in enumerate(zip(names, chunks, strict=True), 1):
            rows = [category.rows[line.task_id] for line in chunk]
            digest = _digest(layout, *group, k, len(chunks),
                             *(f"{line.task_id}|{r.files}|{r.cells}"
                               for line, r in zip(chunk, rows, strict=True)))
            pages.append((name, digest))
            if before.get(name) == digest:
                continue
            self.pages_dir.mkdir(exist_ok=True)
            page = self._template(PAGE_TEMPLATE).render(
                title=self.archive.name, lang=lang, labels=labels,
                heading=_heading(group, labels), hub="../index.html",
                pages=[{"n": n, "href": _href(other), "current": n == k}
                       for n, other in enumerate(names, 1)] if len(names) > 1 else [],
                entries=Markup("\n".join(r.html for r in rows)))
            write_atomic(self.pages_dir / name, page.encode("utf-8"))
        return pages

    def _hub(self, shelves: list[tuple[Group, Shelf]], lang: str,
             labels: dict[str, str]) -> Path:
        """index.html: the count, date range and books, and each category's pages."""
        books = sorted(p for pattern in SHELF for p in self.archive.output_dir.glob(pattern))
        tree: list[dict[str, Any]] = []
        for (cat1, cat2), shelf in shelves:
            if not tree or tree[-1]["name"] != cat1:
                tree.append({"name": cat1, "id": category_anchor(len(tree) + 1),
                             "title": _heading((cat1, ""), labels), "count": 0,
                             "pages": [], "children": []})
            top = tree[-1]
            top["count"] += shelf.count
            pages = [{"n": n, "href": _href(f"{PAGES}/{name}")}
                     for n, (name, _) in enumerate(shelf.pages, 1)]
            if not cat2:
                top["pages"] = pages
            else:
                top["children"].append({
                    "id": category_anchor(len(tree), len(top["children"]) + 1),
                    "title": display_category(cat2), "count": shelf.count, "pages": pages})
        dates = (day_span(d for _, s in shelves for d in s.published)
                 or day_span(d for _, s in shelves for d in s.fetched))
        page = self._template(HUB_TEMPLATE).render(
            title=self.archive.name, lang=lang, labels=labels,
            count=sum(s.count for _, s in shelves), date_range=dates, groups=tree,
            books=[{"name": b.name, "href": _href(b.name)} for b in books])
        path = self.archive.output_dir / "index.html"
        write_atomic(path, page.encode("utf-8"))
        return path

    def _sweep(self, written: set[str]) -> None:
        """Remove the pages no category has now (a category emptied or shorter): those the
        state names, or with none kept (entries.db deleted, another folder) every other
        page in index/."""
        if self.kept is not None:
            before = {name for s in self.kept.shelves.values() for name, _ in s.pages}
        else:
            before = {p.name for p in self.pages_dir.glob("*.html")}
        for name in before - written:
            (self.pages_dir / name).unlink(missing_ok=True)

    def _keep(self, state: IndexState) -> None:
        """The state for the next build, the journal forgotten once it is long and read."""
        if not self.cache.put_index_state(state.to_json()):
            return
        mark = forget_read(self.archive.root, state.journal)
        if mark != state.journal:
            state.journal = mark
            self.cache.put_index_state(state.to_json())

    def _template(self, name: str) -> jinja2.Template:
        try:
            return self.env.get_template(name)
        except jinja2.TemplateError as e:
            raise BookError(f"template {name}: {e}") from None

    def _source(self, name: str) -> str:
        """A template's text (an archive's own, or the bundled one)."""
        assert self.env.loader is not None
        try:
            return self.env.loader.get_source(self.env, name)[0]
        except jinja2.TemplateError as e:
            raise BookError(f"template {name}: {e}") from None

    def _how_made(self, labels_lang: str) -> str:
        """What every row depends on beside its article: the labels' language, where the
        archive lies from the page, and the row template."""
        return _digest(labels_lang, self.up, self._source(ROW_TEMPLATE))


def _digest(*parts: object) -> str:
    text = "\x1f".join(map(str, parts))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _ends(days: list[str]) -> list[str]:
    return [min(days), max(days)] if days else []


def _votes(shelves: Iterable[Shelf]) -> Counter[str]:
    """The categories' language votes added up, in book order (a tie goes to the first)."""
    votes: Counter[str] = Counter()
    for shelf in shelves:
        for tag, n in shelf.langs:
            votes[tag] += n
    return votes


def _heading(group: Group, labels: dict[str, str]) -> str:
    cat1, cat2 = group
    top = display_category(cat1) if cat1 else labels["uncategorized"]
    return f"{top} · {display_category(cat2)}" if cat2 else top


def _entries(cache: EntryCache, tasks: list[Task]) -> dict[int, Entry]:
    """These tasks' entries (none for a task whose article cannot be read)."""
    if not tasks:
        return {}
    summaries = cache.summaries(t.id for t in tasks)
    return {t.id: entry_from(t, summaries[t.id]) for t in tasks if t.id in summaries}


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
