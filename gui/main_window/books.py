"""Books: Build EPUB (the build row is ``gui.build_bar``), what follows a build, and opening
a book — the one just bound, one in the Books tab — in the system's reader, or in the
window's own when the system has none or it does not start; a task's chapter in the newest book
that binds it, in the window's own.

Apart because a build is a job of its own — not a run — that marks what it bound ``done``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QUrl

from gui.main_window.archive import WindowArchive
from gui.reader.system import EPUB_TYPE, epub_program
from gui.reader.view import BookReader
from pipeline.usecases.reading import chapter_of


class WindowBooks(WindowArchive):
    """Build books and open them."""

    reader: BookReader | None = None  # the window's own reader, a tab once first needed

    def epub_program(self) -> str | None:
        """The system's program for EPUB books ("" none, None cannot tell); tests swap it."""
        return epub_program()

    def open_book(self, path: Path) -> None:
        """Open a book in the system's reader when it has one; else, and when it does not
        start, in the window's own reader, with a line saying what was tried. A PDF or a CHM
        only in the system's: the window's reader reads EPUB."""
        if path.suffix.lower() != ".epub":
            opened = self.open_url(QUrl.fromLocalFile(str(path)))
            self.statusBar().showMessage(
                (self.tr("%1 handed to the system's reader") if opened else
                 self.tr("The system could not open %1: no program for this kind of file started"))
                .replace("%1", path.name))
            return
        self.jobs.start(self.epub_program, lambda program: self._open_book_with(path, program),
                        lambda _message: self._open_book_with(path, None))

    def _open_book_with(self, path: Path, program: str | None) -> None:
        name = path.name
        if program == "":
            note = (self.tr("No program on this system opens EPUB books (xdg-mime names none"
                            " for %1): %2 is shown here.")
                    .replace("%1", EPUB_TYPE).replace("%2", name))
        elif self.open_url(QUrl.fromLocalFile(str(path))):
            self.statusBar().showMessage(
                self.tr("%1 handed to %2").replace("%1", name).replace("%2", program)
                if program else self.tr("%1 handed to the system's reader").replace("%1", name))
            return
        elif program is None:
            note = self.tr("The system could not open %1 (it has no reader for EPUB books, or"
                           " the reader did not start): it is shown here.").replace("%1", name)
        else:
            note = (self.tr("%1, the system's reader for EPUB books, did not start for %2: it"
                            " is shown here.").replace("%1", program).replace("%2", name))
        self.show_in_reader(path, note)

    def show_in_reader(self, path: Path, note: str = "") -> BookReader:
        """The book in the window's own reader (a tab, brought forward); ``note`` is said in
        it and in the status bar."""
        if self.reader is None:
            self.reader = BookReader()
            self.reader.link_opened.connect(lambda url: self.open_url(url))
            self.tabs.addTab(self.reader, self.tr("Reader"))
        self.bring_tab(self.reader)
        self.reader.open(path, note)
        if note:
            self.statusBar().showMessage(note)
        return self.reader

    def build(self) -> bool:
        """Bind the chosen tasks into EPUB books in the background (see ``BuildBar``)."""
        workspace = self.workspace
        if workspace is None or workspace.read_only or self.controller.running:
            return False
        return self.build_bar.build(workspace, self.selected_ids(),
                                    self.category_filter.currentData() or None)

    def _built(self, result: Any) -> None:
        self.build_finished.emit(result)  # the books and the tasks bound follow the change

    def open_in_book(self, task_id: int) -> None:
        """The task's chapter in the newest book that binds it, in the window's own reader:
        no system reader can be told which chapter to open, and the article is what was
        asked for (the Books tab opens a whole book in the system's). The status bar says
        when no book binds it yet."""
        workspace = self.workspace
        if workspace is None:
            return

        def find() -> tuple[Path, str] | None:
            books = sorted((b for b in workspace.books()
                            if b.format == "epub" and task_id in b.task_ids),
                           key=lambda b: b.built_at, reverse=True)
            return next((c for b in books if (c := chapter_of(b.files, task_id))), None)

        def found(chapter: tuple[Path, str] | None) -> None:
            if chapter is None:
                self.statusBar().showMessage(self.tr("#%1 is in no book yet: Build EPUB binds"
                                                     " it").replace("%1", str(task_id)))
                return
            path, part = chapter
            self.show_in_reader(path).show_part(part)

        self.jobs.start(find, found, self._archive_failed)
