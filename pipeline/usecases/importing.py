"""Importing what people already saved: saved pages (and, through the same record, web
archives) made tasks whose raw page is the saved file.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is.

Every importer yields ``SavedPage`` or ``Refused`` (``pipeline.intake.saved_page``). A page
becomes a task as a pasted link does (its URL normalized, a link already on the list a
duplicate), its file stored as 00_raw/<id>.html with a record saying where it came from, and
then the run's own clean and localize stages take it, with its images read from the save
(``SavedImages``): nothing is fetched unless the person allowed it, and then through the
task's address policy like any image.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.intake.saved_page import ImportLimits, Refused, SavedPage
from pipeline.records.events import Listener
from pipeline.records.failures import Code
from pipeline.records.task import Status, Task
from pipeline.store.archive import utc_now
from pipeline.usecases.changed import Changed
from pipeline.usecases.running import Running

if TYPE_CHECKING:
    from pipeline.rules.model import Rules
    from pipeline.run.localize import SavedImages
    from pipeline.store.tasks import TaskStore

# Pages read before their tasks are added and cleaned: what memory holds of the saves at once.
BATCH_PAGES = 16


@dataclass
class ImportSummary:
    """What an import did: the tasks made (``failed``: those whose page holds no article,
    with the reason in their row), the pages already on the list (origin, the task holding
    it), and what was refused with why."""

    imported: list[Task] = field(default_factory=list)
    failed: list[Task] = field(default_factory=list)
    duplicates: list[tuple[str, int]] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    origins: dict[int, str] = field(default_factory=dict)  # task id → the file it came from
    restored: set[int] = field(default_factory=set)  # of those, tasks back from the trash


@dataclass(frozen=True)
class ImportProgress:
    """How far an import is: files read of those given, and pages read so far (records
    refused included). A web archive is one file of many pages: its pages say it moves."""

    files_done: int
    files: int
    pages: int


def importable(path: Path) -> bool:
    """Whether a path a person dropped is something to import (a folder, an MHTML file, a
    saved page) rather than a page or list of links to add: the window's drops ask."""
    from pipeline.intake.saved_files import saved_page_file

    return saved_page_file(path)


class Importing(Running):
    """Importing saved pages and web archives."""

    def import_pages(self, paths: Iterable[Path], cat1: str = "", cat2: str = "", *,
                     fetch_missing: bool = False,
                     progress: Callable[[ImportProgress], None] | None = None,
                     listener: Listener | None = None) -> ImportSummary:
        """Import every saved page in ``paths`` (files, and folders walked recursively).

        ``progress`` is told after each page read and each file; the runner's events go to
        ``listener``. ``fetch_missing``: an image the save lacks is fetched (else it is
        missing, with why). Raises ArchiveBusy, before anything is added, while a run works
        on the archive."""
        from pipeline.intake.saved_files import given_files, read_file

        self.refuse_writing("import adds tasks and stores their pages")
        limits = ImportLimits.from_settings(self.settings)
        summary = ImportSummary()
        files = list(given_files(paths))
        made: list[int] = []
        read = 0

        def tell(files_done: int) -> None:
            if progress is not None:
                progress(ImportProgress(files_done, len(files), read))

        def batches() -> Iterator[dict[int, SavedImages]]:
            nonlocal read
            pages: list[SavedPage] = []
            for done, item in enumerate(files, 1):
                if isinstance(item, Refused):
                    summary.refused.append(item)
                else:
                    for found in read_file(item, limits):
                        read += 1
                        tell(done - 1)
                        if isinstance(found, Refused):
                            summary.refused.append(found)
                            continue
                        pages.append(found)
                        if len(pages) >= BATCH_PAGES:
                            yield self._add_pages(pages, cat1, cat2, fetch_missing, summary, made)
                            pages = []
                tell(done)
            if pages:
                yield self._add_pages(pages, cat1, cat2, fetch_missing, summary, made)

        self.runner(listener).run_imported(batches())
        self.refresh()
        if made:
            self.changed(Changed.TASKS)  # the runs' statuses, said once
        for task_id in made:
            task = self.store.get(task_id)
            if task.status == Status.DUPLICATE and task.duplicate_of is not None:
                summary.duplicates.append((summary.origins[task_id], task.duplicate_of))
            elif task.status == Status.FAILED:
                summary.failed.append(task)
            else:
                summary.imported.append(task)
        return summary

    def _add_pages(self, pages: list[SavedPage], cat1: str, cat2: str, fetch_missing: bool,
                   summary: ImportSummary, made: list[int]) -> dict[int, SavedImages]:
        """One batch of pages added as tasks with their pages stored; their ids → where
        their images come from."""
        from pipeline.run.localize import SavedImages

        batch: dict[int, SavedImages] = {}
        rules = self.rules()
        with self.store.transaction() as store:
            for page in pages:
                page = _as_task_url(page, rules)
                task_id = self._task_for(store, page, cat1, cat2, summary, made)
                if task_id is None:
                    continue
                stored = self.archive.store_raw(task_id, page.raw,
                                                _raw_record(page, fetch_missing))
                if stored and task_id in summary.restored:
                    self.archive.forget_derived(task_id)  # cleaned again from this save
                store.update(task_id, fetched_at=page.fetched_at or utc_now())
                batch[task_id] = SavedImages(page.resources, fetch_missing)
                summary.origins[task_id] = page.origin
                made.append(task_id)
        if batch:
            self.changed(Changed.TASKS)
        return batch

    def _task_for(self, store: TaskStore, page: SavedPage, cat1: str, cat2: str,
                  summary: ImportSummary, made: list[int]) -> int | None:
        """The task for a saved page, or None when the list holds its URL: a duplicate, as
        for a pasted link. One in the trash comes back, imported (restored): this save is
        its page (one that differs from the page it had is cleaned again; the old stays in
        history). A task an earlier import left unfinished (killed, or stopped between
        batches) is taken up again: its images come from this save."""
        existing = store.find_url(page.url)
        if existing is None:
            return store.add(page.url, page.url, cat1.strip(), cat2.strip()).id
        restoring = store.get(existing).deleted
        if restoring:
            store.update(existing, deleted_at="")
            summary.restored.add(existing)
        if existing not in made and self._unfinished_import(existing):
            self.archive.drop_assets_map(existing)  # localized again
            return existing
        if restoring:
            return existing
        summary.duplicates.append((page.origin, existing))
        return None


    def _unfinished_import(self, task_id: int) -> bool:
        """Whether a task is an imported page whose images its import never read from the
        save: not localized yet, or localized by a later run without the save (an image
        missing as not in the saved page). A page with no article, or a duplicate, is done."""
        from pipeline.run.localize import imported_record

        if self.store.get(task_id).status in (Status.FAILED, Status.DUPLICATE):
            return False
        if imported_record(self.archive, task_id) is None:
            return False
        assets = self.archive.read_assets(task_id)
        return assets is None or any(entry.code == Code.NOT_IN_SAVED_PAGE.value
                                     for entry in assets.entries.values())


def _as_task_url(page: SavedPage, rules: Rules) -> SavedPage:
    """The page under the URL its task has: the link's canonical form, as for a pasted link;
    a URL no task can have (too long, credentials in it) gives way to the file's."""
    from pipeline.intake.links import task_url
    from pipeline.web.urls import UrlRejected

    if not page.url_known:
        return page
    try:
        return replace(page, url=task_url(page.url, rules))
    except UrlRejected:
        return replace(page, url=Path(page.origin).resolve().as_uri(), url_known=False)


def _raw_record(page: SavedPage, fetch_missing: bool) -> str:
    """00_raw/<id>.json for an imported page: the URL first (``Archive.fetched_url`` reads
    it there), then where the page came from and whether the person let missing images be
    fetched (a later run finishing the task honours it)."""
    record = {
        "url": page.url,
        "final_url": page.url,
        "headers": page.headers,
        "fetched_at": page.fetched_at,
        "bytes": len(page.raw),
        "imported": {"source": page.source, "origin": page.origin,
                     "url_known": page.url_known, "imported_at": utc_now(),
                     "fetch_missing": fetch_missing},
    }
    return json.dumps(record, ensure_ascii=False, indent=1)
