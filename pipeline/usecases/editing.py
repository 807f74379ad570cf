"""Adding links and changing the list: edits, removal, the trash.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.intake.links import IntakeReport, add_links, known_links
from pipeline.records.errors import KuaibuError
from pipeline.records.task import Task
from pipeline.usecases.base import WorkspaceBase
from pipeline.usecases.changed import Changed

# What a person may change in a task's row, from either face.
EDITABLE_FIELDS = ("title", "cat1", "cat2")


class TaskEditing(WorkspaceBase):
    """Adding links and changing the list: edits, removal, the trash."""

    def add_links(self, text: str, cat1: str = "", cat2: str = "",
                  folders_as_categories: bool = False, found_on: str = "") -> IntakeReport:
        """Add the links in ``text`` as pending tasks and save, ids and duplicate checks
        decided on the file as it is. ``folders_as_categories``: a bookmarks export's links
        are filed by their folders (the outermost the category, the rest the subcategory);
        links outside any folder get ``cat1``/``cat2``. ``found_on``: the page a harvest
        found them on (``HarvestResult.found_on``), so a run judges them as its links."""
        from pipeline.web.urls import bookmark_folders

        rules = self.rules()
        folders = bookmark_folders(text) if folders_as_categories else {}
        with self.store.transaction() as store:
            if not folders:
                report = add_links(store, text, cat1, cat2, rules, found_on)
            else:
                report = IntakeReport()
                by_folder: dict[tuple[str, ...], list[str]] = {}
                for link, path in folders.items():
                    by_folder.setdefault(path, []).append(link)
                for path, links in by_folder.items():
                    one = add_links(store, "\n".join(links), path[0] if path else cat1,
                                    " / ".join(path[1:]) if path else cat2, rules)
                    report.added += one.added
                    report.duplicates += one.duplicates
                    report.rejected += one.rejected
        if report.added:
            self.changed(Changed.TASKS)
        return report

    def known_links(self, links: Iterable[str]) -> dict[str, int]:
        """Which of ``links`` are tasks already (in the trash: not), each with its task's id,
        normalized as adding them would be (the site's tracking and keep lists)."""
        return known_links(self.store, links, self.rules())

    def edit(self, task_ids: Iterable[int], **changes: str) -> list[Task]:
        """Set a person's fields (``EDITABLE_FIELDS``) on tasks; saved by the next ``save``."""
        bad = sorted(set(changes) - set(EDITABLE_FIELDS))
        if bad:
            raise KuaibuError(f"cannot edit {', '.join(bad)}; only {', '.join(EDITABLE_FIELDS)}")
        values = {name: value.strip() for name, value in changes.items()}
        edited = [self.store.update(self.task(i).id, **values) for i in task_ids]
        self.changed(Changed.TASKS)
        return edited

    def remove(self, task_ids: Iterable[int]) -> None:
        """Move tasks to the trash: off the list, out of runs and books, their files kept
        until the trash is emptied (``restore`` brings them back); saved by ``save``."""
        from pipeline.store.archive import utc_now

        now = utc_now()
        for task_id in task_ids:
            self.store.update(self.task(task_id).id, deleted_at=now)
        self.changed(Changed.TASKS)

    def restore(self, task_ids: Iterable[int]) -> list[Task]:
        """Take tasks out of the trash, as they were; saved by ``save``."""
        restored = [self.store.update(self.task(i).id, deleted_at="") for i in task_ids]
        self.changed(Changed.TASKS)
        return restored

    def empty_trash(self) -> int:
        """Remove the trashed tasks for good: their rows, pages, articles and index entries
        (images stay: named by their content, another article may show the same one). Saved
        at once; how many went."""
        from pipeline.store.search import SearchIndex, SearchIndexError

        gone = [t.id for t in self.trash()]
        if not gone:
            return 0
        for task_id in gone:
            self.archive.forget(task_id)
        try:
            index = SearchIndex.of(self.archive.root)
            try:
                index.drop(gone)
            finally:
                index.close()
        except SearchIndexError:
            pass  # derived, and a search leaves out ids not on the list: 'index' tidies it
        self.store.remove(gone)
        self.store.save()
        self.changed(Changed.TASKS)
        return len(gone)
