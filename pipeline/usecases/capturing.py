"""What the browser extension sends (issue 33): a page as the person saw it, archived at
once; a link, added as a pasted one is; and the categories to file them under.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is. ``pipeline.browser.host`` calls it.
"""

from __future__ import annotations

from pipeline.intake.links import IntakeReport, add_link
from pipeline.records.capture import CapturedLink, CapturedPage, CaptureResult
from pipeline.records.errors import KuaibuError
from pipeline.records.task import Status, Task
from pipeline.store.archive import ArchiveBusy, utc_now
from pipeline.usecases.changed import Changed
from pipeline.usecases.running import Running


class Capturing(Running):
    """Captures from the person's browser (built on ``Running``: a captured page is cleaned
    and localized by a run of its own task)."""

    def categories(self) -> list[str]:
        """The categories the list files tasks under, as written, sorted."""
        return sorted({t.cat1 for t in self.tasks() if t.cat1})

    def capture_link(self, link: CapturedLink) -> CaptureResult:
        """A link the person right-clicked, added as a pasted one is, remembering the page
        it was on (``found_on``: its address policy vouches for the link)."""
        task, added = self._add(link.url, link.category, link.found_on)
        return CaptureResult(task.id, added, task.status)

    def capture_page(self, page: CapturedPage) -> CaptureResult:
        """A page as the browser rendered it: its task added (or found: a page captured
        again keeps its earlier copy in 00_raw/history), its DOM stored as the page
        (``stages.store_capture``), then cleaned and localized by a run of that task alone,
        its images fetched as any run fetches them (never with the browser's cookies). A run
        holding the archive (another save's) is waited for ``capture_run_wait_seconds``;
        past that the page waits, stored, for the next run."""
        from pipeline.run.stages import store_capture

        self.refuse_writing("a capture writes the page to it")
        task, added = self._add(page.url, page.category)
        if task.status == Status.RUNNING:  # two writers of one 00_raw/<id> would mix pages
            raise KuaibuError(f"a run is fetching task #{task.id} now; save it again when"
                              " the run is done")
        at = utc_now()
        if store_capture(self.archive, task, page, at):  # else the same page is stored
            self.archive.forget_derived(task.id)  # its article was made from another copy
            self.store.update(task.id, fetched_at=at, status=Status.FETCHED, error="")
            self.save()
        waiting = False
        try:
            self.run([task.id], lock_wait=self.settings.capture_run_wait_seconds)
        except ArchiveBusy:
            waiting = True
        self.refresh()
        task = self.task(task.id)
        self.changed(Changed.TASKS)
        return CaptureResult(task.id, added, task.status, waiting, task.error)

    def _add(self, url: str, category: str, found_on: str = "") -> tuple[Task, bool]:
        """The task of ``url``, added under ``category`` when the list does not hold it;
        whether it was added. A link the intake refuses raises its reason."""
        report = IntakeReport()
        with self.store.transaction() as store:
            add_link(store, url, report, category, "", self.rules(), found_on)
        if report.rejected:
            raise KuaibuError(str(report.rejected[0][1]))
        if report.added:
            self.changed(Changed.TASKS)
            return report.added[0], True
        return self.task(report.duplicates[0][1]), False
