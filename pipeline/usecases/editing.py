"""Adding links and changing the list: edits, removal, the trash.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.intake.links import IntakeReport, add_links, known_links
from pipeline.records.errors import KuaibuError
from pipeline.records.task import Task
from pipeline.usecases.base import WorkspaceBase
from pipeline.usecases.changed import Changed

# What a person may change in a task's row, from either face.
EDITABLE_FIELDS = ("title", "cat1", "cat2")
# Where ``move`` puts tasks: before or after another task, or at the top or bottom of the list.
MOVE_PLACES = ("before", "after", "top", "bottom")


@dataclass(frozen=True)
class Places:
    """Where some tasks stood in the list before a ``move``: each run of them with the task it
    stood before (None: the end). ``put_back`` puts them there again (the window's Undo)."""

    runs: tuple[tuple[tuple[int, ...], int | None], ...]


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

    def move(self, task_ids: Iterable[int], place: str, other: int | None = None) -> Places:
        """Arrange the list (its order is the order books bind by default): the tasks, in the
        order given, go ``place`` (one of ``MOVE_PLACES``) task ``other`` or to the top or
        bottom. Saved by ``save``, merged as the store merges an arrangement (see
        ``pipeline.store.tasks``). Returns where they stood, for ``put_back``."""
        moving = [self.task(i).id for i in dict.fromkeys(task_ids)]
        if place not in MOVE_PLACES:
            raise KuaibuError(f"a task moves {', '.join(MOVE_PLACES)}, not {place!r}")
        if (other is None) != (place in ("top", "bottom")):
            raise KuaibuError(f"moving {place} {'needs' if other is None else 'takes no'}"
                              " other task")
        if other is not None and self.task(other).id in moving:
            raise KuaibuError(f"#{other} is one of the tasks moved; name another")
        chosen = set(moving)
        order = self.store.order()
        if place == "top":
            before = next((i for i in order if i not in chosen), None)
        elif place == "after" and other is not None:
            following = order[order.index(other) + 1:]
            before = next((i for i in following if i not in chosen), None)
        else:
            before = other  # "before", or None: the bottom
        was = self.store.places(moving)
        self.store.arrange(moving, before)
        self.changed(Changed.TASKS)
        return Places(tuple((tuple(run), at) for run, at in was))

    def put_back(self, places: Places) -> None:
        """Put tasks back where a ``move`` found them (its Undo): each run before the task it
        stood before, or at the end when that task is gone. Tasks gone from the list are
        left out."""
        held = set(self.store.order())
        for run, before in places.runs:
            present = [i for i in run if i in held]
            if present:
                self.store.arrange(present, before if before in held else None)
        self.changed(Changed.TASKS)

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
