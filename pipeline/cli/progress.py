"""Long commands' progress on stderr (a bar redrawn on a terminal, a line every few seconds in a
log) and the outcome they print: a run, a check for updates, a build.
"""


from __future__ import annotations

import signal
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pipeline.cli.wording import counted
from pipeline.records.errors import ErrorKind

# The commands' own modules are imported by the commands: `extract` over a folder of pages is
# timed as a whole process against trafilatura's, and the fetcher, the runner and the book
# builder (requests, Pillow, ebooklib) cost it a third of a second it never uses.
if TYPE_CHECKING:
    from pipeline.book import BuildResult
    from pipeline.records.events import Event, Progress
    from pipeline.usecases.importing import ImportSummary
    from pipeline.usecases.workspace import Workspace


class ProgressBar:
    """Progress on stderr: a redrawn bar on a terminal, a line every few seconds otherwise."""

    def __init__(self, stream: TextIO | None = None) -> None:
        # stderr as it is now: a default bound at import keeps the stream of that moment,
        # which a caller may have closed since (pytest's capture of the importing test)
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self._started = time.monotonic()
        self._last = 0.0

    def __call__(self, event: Event) -> None:
        """A Runner listener: draws on each Progress event."""
        from pipeline.records.events import Progress

        if isinstance(event, Progress):
            if event.is_check:
                detail = (f"changed {event.changed} unchanged {event.unchanged}"
                          f" not checked {event.unchecked}")
            else:
                detail = (f"fetched {event.fetched} cleaned {event.cleaned}"
                          f" localized {event.localized} failed {event.failed}")
            self.draw(event.finished, event.total, detail)

    def draw(self, done: int, total: int, detail: str = "") -> None:
        now = time.monotonic()
        if not (self.tty or now - self._last >= 3 or done == total):
            return
        self._last = now
        elapsed = now - self._started
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate else None
        eta = "--:--" if left is None else f"{int(left) // 60}:{int(left) % 60:02d}"
        width = 24
        filled = int(width * done / total) if total else width
        line = (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {detail}"
                f"  {rate:.1f}/s  ETA {eta}")
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\n")


def run_archive(ws: Workspace, retry_failed: bool = False, refetch: bool = False,
                task_ids: list[int] | None = None,
                kinds: list[ErrorKind] | None = None) -> Progress:
    """Run the runnable tasks of an archive with a progress bar; prints the outcome."""
    bar = ProgressBar()
    try:
        progress = ws.run(task_ids, retry_failed=retry_failed, refetch=refetch, kinds=kinds,
                          listener=bar)
    finally:
        bar.finish()
    print(f"fetched {progress.fetched}, cleaned {progress.cleaned},"
          f" localized {progress.localized}, failed {progress.failed}"
          f" of {counted(progress.total, 'task')} in {progress.elapsed:.1f} s")
    return progress


def import_paths(ws: Workspace, paths: list[Path], cat1: str, cat2: str, *,
                 fetch_missing: bool) -> ImportSummary:
    """Import saved pages with a bar counting the files read, and the pages read so far (a
    multi-gigabyte WARC is one file)."""
    bar = ProgressBar()
    try:
        return ws.import_pages(
            paths, cat1, cat2, fetch_missing=fetch_missing,
            progress=lambda p: bar.draw(p.files_done, p.files, f"files, {p.pages} pages read"))
    finally:
        bar.finish()


def reclean_outcome(progress: Progress, pages: int) -> str:
    """What a re-clean did, in one line: tasks the new rules found no article in kept the
    one they had, which is not a failure."""
    kept = f"kept {progress.kept} (the new rules found no article), " if progress.kept else ""
    return (f"cleaned {progress.cleaned}, {kept}failed {progress.failed}"
            f" of {counted(pages, 'stored page')}")


def refresh_archive(ws: Workspace, task_ids: list[int] | None, cat1: str | None,
                    older_than: timedelta | None) -> int:
    """Check archived articles for updates with a progress bar; prints what changed."""
    from pipeline.store.archive import utc_now

    ids = ws.refresh_ids(task_ids, cat1, older_than)
    if not ids:
        print("no archived articles to check")
        return 0
    started = utc_now()
    bar = ProgressBar()
    try:
        progress = ws.check_updates(ids, listener=bar)
    finally:
        bar.finish()
    print(f"checked {progress.finished} of {counted(len(ids), 'article')}"
          f" in {progress.elapsed:.1f} s:"
          f" changed {progress.changed}, unchanged {progress.unchanged},"
          f" could not check {progress.unchecked}")
    for change in ws.changes(since=started):
        print(f"  changed #{change.task_id}: {change.summary}  {change.url}")
    for t in ws.tasks():
        if t.id in ids and t.refresh_error and t.last_checked >= started:
            print(f"  not checked #{t.id}: {t.refresh_error} (the archived version stays)"
                  f"  {t.url}")
    if progress.changed:
        print("the next build binds the new versions; the changes are in 04_logs/changes.csv")
    return 0


def build_archive(ws: Workspace, cat1: str | None = None, split_by: str | None = None,
                  task_ids: list[int] | None = None, title: str | None = None,
                  out: Path | None = None, *, order: str | None = None,
                  format: str = "epub") -> BuildResult:
    """Bind the archive's articles with a progress bar (``bind``); prints what was made."""
    result = bind(ws, cat1, split_by, task_ids, title, out, order=order, format=format)
    for path in result.epubs:
        print(f"EPUB:       {path}")
    for path in result.pdfs:
        print(f"PDF:        {path}")
    for path in result.chms:
        print(f"CHM:        {path}")
    if result.chm_projects:
        from pipeline.book.chm import missing_compiler

        print(missing_compiler(result.chm_projects))
    print(f"Index:      {result.index}")
    print(f"{counted(result.articles, 'article')} bound")
    if result.left_out:
        print(f"left out {counted(len(result.left_out), 'near duplicate')} (the later of each pair;"
              " 'dupes --keep-both A B' binds both):")
        for dup, of in result.left_out:
            print(f"  #{dup} nearly repeats #{of}  {ws.task(dup).url}")
    return result


def bind(ws: Workspace, cat1: str | None = None, split_by: str | None = None,
         task_ids: list[int] | None = None, title: str | None = None,
         out: Path | None = None, *, order: str | None = None,
         format: str = "epub") -> BuildResult:
    """Bind with a progress bar on stderr. Ctrl+C stops the build at its next article
    (``BuildCancelled``), so no book is left half-written; a second Ctrl+C stops at once."""
    bar = ProgressBar()
    stop = threading.Event()

    def interrupted(_signum: int, _frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    on_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, interrupted) if on_main else None
    try:
        result = ws.build(cat1=cat1, split_by=split_by, task_ids=task_ids, title=title,
                          progress=lambda done, total: bar.draw(done, total, "binding"),
                          out=out, order=order, format=format, should_stop=stop.is_set)
    finally:
        if on_main:
            signal.signal(signal.SIGINT, previous)
        bar.finish()
    return result
