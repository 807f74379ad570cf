"""Binding books and knowing which are out of date.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.usecases.changed import Changed
from pipeline.usecases.duplicates import Duplicates

if TYPE_CHECKING:  # the runner, extractor and binder are imported when a use case needs them

    from pipeline.book import BuildResult


@dataclass(frozen=True)
class Book:
    """A book in 03_output as its last build left it, and whether the archive has moved on:
    articles added to its collection or gone from it, cleaned again or given another title
    since it was bound."""

    key: str  # its collection: "all", "cat1:<name>", or a set of ids
    files: list[Path]
    built_at: str
    task_ids: list[int]  # the articles bound, in book order
    added: int = 0
    gone: int = 0
    cleaned_again: int = 0
    retitled: int = 0
    format: str = "epub"  # "epub", "pdf" or "chm": which build made the files

    @property
    def articles(self) -> int:
        return len(self.task_ids)

    @property
    def out_of_date(self) -> bool:
        return (bool(self.added or self.gone or self.cleaned_again or self.retitled)
                or not self.built_at)


BOOK_FORMATS = ("epub", "pdf", "both", "chm")  # build --format, the window's choice


class Books(Duplicates):
    """Binding books and knowing which are out of date; built on ``Duplicates``: a book
    leaves out the later of each undecided near-duplicate pair."""

    def build(self, *, cat1: str | None = None, split_by: str | None = None,
              task_ids: Iterable[int] | None = None, title: str | None = None,
              progress: Callable[[int, int], None] | None = None,
              out: Path | None = None, order: str | None = None,
              format: str = "epub",
              should_stop: Callable[[], bool] | None = None) -> BuildResult:
        """Bind the articles as the task list says now into EPUB books, PDFs, both, or CHMs
        (``format``: one of ``BOOK_FORMATS``; in 03_output, or in ``out``), each category's
        chapters in ``order`` (``build --order``, the build bar's choice; default the
        ``book_order`` setting); the localized ones that went in are marked done, unless the
        archive is read-only. Of a near-duplicate pair no one has
        judged, the later task is left out (``BuildResult.left_out``): a repost is not bound
        twice until a person says "keep both".

        ``should_stop`` is asked at every article (the window's Cancel, a terminal's Ctrl+C):
        once it says yes the build raises ``BuildCancelled`` there. A format's writer puts a
        file in place only when it is whole (written aside and renamed), so a cancelled build
        leaves the books it had not finished as they were and marks nothing done."""
        from dataclasses import replace

        from pipeline.book import build_books
        from pipeline.book.chm import build_chms
        from pipeline.book.collect import select
        from pipeline.book.index import WholeList
        from pipeline.book.pdf import build_pdfs
        from pipeline.records.errors import BookError, BuildCancelled

        if format not in BOOK_FORMATS:
            raise BookError(f"--format takes {', '.join(BOOK_FORMATS)}, not {format!r}")
        if out is None:
            self.refuse_writing("binding writes 03_output (build --out DIR binds elsewhere)")
        archive = self.archive if out is None else self.archive.with_output(out)
        self.refresh()  # a run may have finished tasks since this face last looked
        chosen_ids = set(task_ids) if task_ids is not None else None
        # a build by ids reads those tasks only (through the list's mirror at 100,000)
        tasks = (self.tasks() if chosen_ids is None
                 else [t for t in self.store.some(chosen_ids) if not t.deleted])
        # what this build binds: the near-duplicate pairs asked about are those it holds
        wanted = {t.id for t in select(tasks, cat1=cat1, task_ids=chosen_ids)}
        left_out = self.left_out(wanted if cat1 is not None or chosen_ids is not None
                                 else None)
        settings = self.settings if order is None else self.settings.with_overrides(
            book_order=order)
        bindable = [t for t in tasks if t.id not in left_out]
        # the whole list, for index.html, read only when its kept state is of another list
        listed = self.store.exact_version()
        whole = WholeList(
            (lambda: bindable) if chosen_ids is None
            else (lambda: [t for t in self.tasks() if t.id not in left_out]),
            None if listed is None else f"{listed}|{sorted(left_out)}")

        def stop_here() -> None:
            if should_stop is not None and should_stop():
                raise BuildCancelled()

        def report(done: int, total: int) -> None:
            stop_here()
            if progress is not None:
                progress(done, total)

        stop_here()  # before anything is written, too
        by_format: dict[str, list[Callable[..., BuildResult]]] = {
            "epub": [build_books], "pdf": [build_pdfs], "both": [build_books, build_pdfs],
            "chm": [build_chms]}
        binders = by_format[format]
        made = [bind(archive, bindable, settings, cat1=cat1, split_by=split_by,
                     task_ids=chosen_ids, title=title, progress=report, whole=whole)
                for bind in binders]
        result = replace(made[0], pdfs=[p for m in made for p in m.pdfs])
        result = replace(result, left_out=sorted(
            (dup, of) for dup, of in left_out.items() if dup in wanted))
        if self.read_only:
            return result
        # localized → done, journaled beside the list (a task taken off it meanwhile: none)
        self.store.mark_bound(result.task_ids)
        if chosen_ids is not None:
            self.store.keep_mirror()  # the next build by ids reads a task, not the list
        self.changed(Changed.TASKS | Changed.BOOKS if out is None else Changed.TASKS)
        return result

    def books(self) -> list[Book]:
        """Every book the archive's builds made that is still in 03_output, EPUB and PDF
        alike, each out of date on its own.

        A book's articles now are its collection's as a build would bind them: less the
        later of each undecided near-duplicate pair. Only the pairs a task a book lacks is
        in are asked for (``left_out(involving=…)``): a book's own articles were judged when
        it was bound, so a book as the archive is costs a look at what it lacks, not the
        whole archive's near-duplicate search (seconds at 100,000 articles)."""

        from pipeline.book.collect import display_category, select
        from pipeline.book.identity import built_collections

        collections = built_collections(self.archive)
        if not collections:
            return []
        selectable = select(self.tasks())
        given = {t.id: t.title for t in selectable}
        chosen = []  # each book's files, and its collection's tasks now (near ones aside)
        for built in collections:
            files = [self.archive.output_dir / f for f in built.files
                     if (self.archive.output_dir / f).is_file()]
            if not files:
                continue
            bound = set(built.task_ids)
            if built.key == "all":
                now = set(given)
            elif built.key.startswith("cat1:") and "|" not in built.key:
                shown = built.key.removeprefix("cat1:")
                now = {t.id for t in selectable if (display_category(t.cat1) if t.cat1 else "")
                       == shown}
            else:  # a set of ids chosen by hand: only what left it counts
                now = bound & set(given)
            chosen.append((built, files, bound, now))
        lacking = set().union(*(now - bound for _, _, bound, now in chosen))
        left_out = self.left_out(lacking) if lacking else {}
        out = []
        for built, files, bound, now in chosen:
            now = {i for i in now if i not in left_out}
            stamp = (datetime.fromisoformat(built.built_at).timestamp() if built.built_at
                     else 0.0)
            again = sum(1 for i in bound & now if self.archive.has_clean(i)
                        and self.archive.clean_meta(i).stat().st_mtime > stamp)
            retitled = (0 if built.titles is None else
                        sum(1 for i in bound & now if given[i] != built.titles.get(i, "")))
            out.append(Book(built.key, files, built.built_at, built.task_ids, len(now - bound),
                            len(bound - now), again, retitled, built.format))
        return out
