"""Writing what the archive fetched as WARC or WACZ, for replay tools and other archives.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline.records.errors import KuaibuError
from pipeline.records.task import Task
from pipeline.usecases.base import WorkspaceBase


class ExportRefused(KuaibuError):
    """An export that cannot be written (the message is the one line a person reads)."""


@dataclass(frozen=True)
class WarcExport:
    """What an export wrote: the file, and the pages and images in it."""

    path: Path
    pages: int
    images: int
    unreadable: list[int]  # tasks left out: their record in 00_raw cannot be read


class Exporting(WorkspaceBase):
    """The archive's pages and images as WARC/1.1 (``pipeline.warc.export``), or packaged as
    WACZ (``pipeline.warc.wacz``)."""

    def exportable(self, cat1: str | None = None, cat2: str | None = None) -> list[Task]:
        """The tasks an export takes: on the list (not in the trash), their page fetched, in
        one first- (stored name or as shown: ``Demo`` finds ``01_Demo``) and second-level
        category when named, in the list's order."""
        from pipeline.book.collect import display_category

        def named(value: str, wanted: str | None) -> bool:
            return wanted is None or wanted.strip() in (value.strip(), display_category(value))

        return [t for t in self.tasks() if self.archive.has_raw(t.id)
                and named(t.cat1, cat1) and named(t.cat2, cat2)]

    def export_warc(self, path: Path, *, wacz: bool = False, cat1: str | None = None,
                    cat2: str | None = None,
                    progress: Callable[[int, int], None] | None = None) -> WarcExport:
        """Write the chosen tasks' pages and images to ``path`` (``.warc.gz``, or a WACZ
        package with ``wacz``); written aside and renamed, so ``path`` is whole or as it was.
        ``progress(done, total)`` after each task. Nothing to export is refused."""
        tasks = self.exportable(cat1, cat2)
        if not tasks:
            chosen = " in that category" if cat1 is not None or cat2 is not None else ""
            raise ExportRefused(f"no fetched pages{chosen} to export in {self.archive.root}")
        path = Path(path).resolve()
        if path.is_dir():
            raise ExportRefused(f"{path} is a folder; name the file to write")
        if not path.parent.is_dir():
            raise ExportRefused(f"no folder {path.parent} to write {path.name} in")
        try:
            return self._write_export(path, wacz, tasks, progress)
        except OSError as e:  # a full disk, a folder that cannot be written: one line
            why = e.strerror or str(e)
            if e.filename and Path(e.filename).parent != path.parent:
                raise ExportRefused(f"cannot read {e.filename}: {why}") from None
            raise ExportRefused(f"cannot write {path}: {why}") from None

    def _write_export(self, path: Path, wacz: bool, tasks: list[Task],
                      progress: Callable[[int, int], None] | None) -> WarcExport:
        from pipeline.warc.export import write_warc
        from pipeline.warc.wacz import WARC_MEMBER, write_wacz

        rules = self.rules()
        report = (lambda done: progress(done, len(tasks))) if progress else None
        warc_tmp = _temp_beside(path, ".warc.gz")
        try:
            with open(warc_tmp, "wb") as out:
                name = Path(WARC_MEMBER).name if wacz else path.name
                exported = write_warc(out, name, self.archive, tasks, self.settings, rules,
                                      report)
                out.flush()
                os.fsync(out.fileno())
            if wacz:
                wacz_tmp = _temp_beside(path, ".wacz")
                try:
                    write_wacz(wacz_tmp, warc_tmp, exported, self.archive.name)
                    os.replace(wacz_tmp, path)
                finally:
                    wacz_tmp.unlink(missing_ok=True)
            else:
                os.replace(warc_tmp, path)
        finally:
            warc_tmp.unlink(missing_ok=True)
        return WarcExport(path, exported.page_count, exported.images, exported.unreadable)


def _temp_beside(path: Path, suffix: str) -> Path:
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix + ".tmp",
                                dir=path.parent)
    os.close(fd)
    return Path(name)
