"""Runs: fetching, cleaning again, checking for updates, and the run report.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.records.errors import ErrorKind
from pipeline.records.events import Listener, Progress
from pipeline.records.task import Status
from pipeline.usecases.base import WorkspaceBase
from pipeline.usecases.changed import Changed
from pipeline.web.urls import host_in_domain, host_of

if TYPE_CHECKING:  # the runner, extractor and binder are imported when a use case needs them

    from pipeline.run.report import LastReport
    from pipeline.run.report import Report as RunReport
    from pipeline.run.runner import Runner
    from pipeline.store.changes import Change


class Running(WorkspaceBase):
    """Runs: fetching, cleaning again, checking for updates, and the run report."""

    def run_report(self) -> RunReport:
        """The run report over the list as the file says now (see pipeline.run.report): the
        read-through sample seeded by the archive and the day, so it holds for a day."""
        from pipeline.run.report import build_report

        self.refresh()  # a run in another process may have finished tasks
        seed = f"{self.archive.root}|{datetime.now(UTC).date().isoformat()}"
        return build_report(self.tasks(), self.archive.read_article, self.archive.read_assets,
                            sample_seed=seed, site_names=[self.archive.name])

    def report(self) -> Path:
        """Write 04_logs/report.html (what went wrong and where to look); its path."""
        return self.write_report(self.run_report())

    def last_report(self) -> Path | None:
        """The report the last run (or ``report``) wrote, None before there is one: what the
        window shows when an archive is opened."""
        from pipeline.run.report import report_path

        path = report_path(self.archive)
        return path if path.is_file() else None

    def last_run_report(self) -> LastReport | None:
        """The last report as a record (what the window shows, in its own words), None before
        one is written or when only its page is there (``report`` writes both again)."""
        from pipeline.run.report import read_report

        path = self.last_report()
        return None if path is None else read_report(path)

    def write_report(self, report: RunReport) -> Path:
        from pipeline.run.report import write_report

        self.refuse_writing("the report writes 04_logs/report.html (report --out - prints it)")
        path = write_report(self.archive, report)
        self.changed(Changed.REPORT)
        return path

    def render_report(self, report: RunReport) -> str:
        """The report page as ``write_report`` writes it, to put elsewhere (``report --out``)."""
        from pipeline.run.report import render_report

        return render_report(self.archive, report)

    def runner(self, listener: Listener | None = None) -> Runner:
        """A Runner on this archive (its pause, resume and stop are the caller's to use)."""
        from pipeline.run.runner import Runner

        return Runner(self.archive, self.store, self.settings, listener=listener,
                      network=self.network)

    def run(self, task_ids: Iterable[int] | None = None, *, retry_failed: bool = False,
            refetch: bool = False, kinds: Iterable[ErrorKind] | None = None,
            listener: Listener | None = None, lock_wait: float = 0.0) -> Progress:
        """Fetch, clean and localize the runnable tasks (or ``task_ids``); ``lock_wait``: how
        long to wait for another run to end (ArchiveBusy after that)."""
        return self.runner(listener).run(task_ids, retry_failed=retry_failed, refetch=refetch,
                                         kinds=list(kinds) if kinds is not None else None,
                                         lock_wait=lock_wait)

    def refresh_ids(self, task_ids: Iterable[int] | None = None, cat1: str | None = None,
                    older_than: timedelta | None = None) -> list[int]:
        """The archived articles a check for updates takes: those named, or of a category
        (stored or display name), or all; with ``older_than``, only those not checked (or
        fetched, when never checked) for that long. Duplicates are never checked, nor pages
        saved from the browser: the site would show Kuaibu, without the person's login or
        clicks, another page than the one they saved."""
        from pipeline.book.collect import select

        chosen = select(self.tasks(), cat1=cat1,
                        task_ids=set(task_ids) if task_ids is not None else None)
        if older_than is not None:
            cutoff = datetime.now(UTC) - older_than
            chosen = [t for t in chosen if _before(t.last_checked or t.fetched_at, cutoff)]
        return [t.id for t in chosen
                if self.archive.has_raw(t.id) and not self.archive.captured(t.id)]

    def check_updates(self, task_ids: Iterable[int],
                      listener: Listener | None = None) -> Progress:
        """Ask the sites again for archived articles (see ``Runner.refresh``)."""
        return self.runner(listener).refresh(list(task_ids))

    def changes(self, since: str = "") -> list[Change]:
        """The lines of 04_logs/changes.csv written at ``since`` (an ISO time) or later."""
        from pipeline.store.changes import read_changes

        return [c for c in read_changes(self.archive) if c.when >= since]

    def reclean_ids(self, task_ids: Iterable[int] | None = None,
                    domain: str | None = None) -> list[int]:
        """The stored pages a re-clean takes: the tasks named, or those of a domain and its
        sub-domains, or every task. Duplicates are named only by id: a rules change cuts an
        original and its duplicate alike, and only the original is bound."""
        if task_ids is not None:
            chosen = [self.task(i) for i in task_ids]
        else:
            chosen = [t for t in self.tasks() if t.status != Status.DUPLICATE
                      and (domain is None or host_in_domain(host_of(t.url), domain))]
        return [t.id for t in chosen if self.archive.has_raw(t.id)]

    def reclean(self, task_ids: Iterable[int], listener: Listener | None = None) -> Progress:
        """Clean stored pages again with the saved rules: no network, nothing refetched."""
        return self.runner(listener).reclean(list(task_ids))


def _before(stamp: str, cutoff: datetime) -> bool:
    """Whether an ISO time in a task's row is before ``cutoff``; an empty or unreadable one
    (a hand edit) counts as long ago."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return True
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)) < cutoff
