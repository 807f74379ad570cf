"""Harvest a list page (issue 17): a person pastes a channel front page, a blog index or a tag
page, previews the links it points to and adds the ones they check.

The preview is ``Workspace.harvest(..., dry_run=True)`` in a job (it fetches the page, and at
most the next pages asked for, with the archive's rules and politeness); the candidates come
back ranked with why, the article-like ones checked, except links the archive already has
(``HarvestResult.known``, normalized as adding them would be), which say their task, greyed.
A link the page's address policy refuses (a public page's link to a private or loopback
address) is shown with why and cannot be checked. Adding goes through ``Workspace.add_links``
like pasted links, so duplicates and rejected links are reported the same way, but with the
list page as the links' ``found_on``: they are the page's links, and a run judges them so.
``added`` carries that report to the window. A detail page offered here is one row, checked:
Add adds it as one task, as the command line does.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.language import shown_name
from gui.reasons import translate_failure
from gui.worker import Jobs
from pipeline.intake.links import IntakeReport, PageKind
from pipeline.records.bounds import NEXT_PAGES
from pipeline.usecases.harvesting import HarvestResult
from pipeline.usecases.workspace import Workspace

URL_COLUMN, TEXT_COLUMN, RANK_COLUMN, WHY_COLUMN = range(4)


class HarvestDialog(QDialog):
    """Paste a list page's address, preview its article links, add the checked ones."""

    added = Signal(object)  # the IntakeReport of an add

    def __init__(self, workspace: Workspace, jobs: Jobs, categories: tuple[str, str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Harvest a list page"))
        self.workspace = workspace
        self.jobs = jobs
        self.harvested: HarvestResult | None = None
        self._busy = False
        self.url = QLineEdit()
        self.url.setPlaceholderText(self.tr(
            "The address of a list page: a channel front page, a blog index, a tag page"))
        self.cat1 = QLineEdit(categories[0])
        self.cat2 = QLineEdit(categories[1])
        self.same_site = QCheckBox(self.tr("Only links to this site"))
        self.same_site.setChecked(True)
        self.next_pages = QSpinBox()
        self.next_pages.setRange(NEXT_PAGES.low, NEXT_PAGES.high)
        self.next_pages.setToolTip(self.tr(
            "Follow the list's own \u201cnext page\u201d links this many times (下一页, Next,"
            " rel=next). The articles found are never crawled further."))
        self.pattern = QLineEdit()
        self.pattern.setPlaceholderText(self.tr(
            "Optional: a regular expression article links match (e.g. /news/\\d+)"))
        self.preview_button = QPushButton(self.tr("Preview"))
        self.preview_button.setDefault(True)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.list = QTreeWidget()
        self.list.setHeaderLabels([self.tr("Link"), self.tr("Text"), self.tr("Rank"),
                                   self.tr("Why")])
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        header = self.list.header()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.resizeSection(URL_COLUMN, 320)
        header.resizeSection(TEXT_COLUMN, 260)
        header.resizeSection(RANK_COLUMN, 50)
        self.check_all = QPushButton(self.tr("Check all"))
        self.check_none = QPushButton(self.tr("Check none"))
        self.add_button = QPushButton(self.tr("Add checked"))
        self.summary.setText(self.tr("Nothing is added until you press %1.")
                             .replace("%1", shown_name(self.add_button)))
        self.close_button = QPushButton(self.tr("Close"))

        form = QFormLayout()
        url_row = QHBoxLayout()
        url_row.addWidget(self.url, 1)
        url_row.addWidget(self.preview_button)
        form.addRow(self.tr("List page"), url_row)
        form.addRow(self.tr("Category"), self.cat1)
        form.addRow(self.tr("Subcategory"), self.cat2)
        options = QHBoxLayout()
        options.addWidget(self.same_site)
        options.addWidget(QLabel(self.tr("Next pages")))
        options.addWidget(self.next_pages)
        options.addWidget(self.pattern, 1)
        form.addRow(options)
        buttons = QHBoxLayout()
        buttons.addWidget(self.check_all)
        buttons.addWidget(self.check_none)
        buttons.addStretch(1)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        self.resize(900, 560)

        self.preview_button.clicked.connect(self.preview)
        self.url.returnPressed.connect(self.preview)
        self.check_all.clicked.connect(lambda: self._check_every(True))
        self.check_none.clicked.connect(lambda: self._check_every(False))
        self.add_button.clicked.connect(self.add_checked)
        self.close_button.clicked.connect(self.close)
        self.list.itemChanged.connect(lambda *_: self._update_buttons())
        QShortcut(QKeySequence.StandardKey.Close, self, self.close)
        self._update_buttons()

    # -- preview --------------------------------------------------------------------------------

    def preview(self) -> None:
        """Read the page (and its next pages) in a job; nothing is added."""
        url = self.url.text().strip()
        if not url or self._busy:
            return
        workspace, pattern = self.workspace, self.pattern.text().strip() or None
        same_site, next_pages = self.same_site.isChecked(), self.next_pages.value()
        self._set_busy(True, self.tr("Reading %1…").replace("%1", url))
        self.jobs.start(
            lambda: workspace.harvest(url, pattern=pattern, same_site=same_site,
                                      next_pages=next_pages, dry_run=True),
            self._previewed, self._failed)

    def _previewed(self, result: HarvestResult) -> None:
        self.harvested = result
        self.list.blockSignals(True)
        self.list.clear()
        known = result.known
        if result.kind is PageKind.DETAIL:
            self._row(result.pages[0], "", None, translate_failure(result.reason), True, known)
            text = self.tr("An article page, not a list (%1). %2 adds it as one task.").replace(
                "%2", shown_name(self.add_button))
        else:
            chosen = {c.url for c in result.chosen}
            for c in result.candidates:
                if c.refused:
                    why = self.tr("refused: %1").replace("%1", translate_failure(c.refused))
                    self._row(c.url, c.text, c.rank, why, False, known, checkable=False)
                else:
                    self._row(c.url, c.text, c.rank, ", ".join(map(translate_failure, c.reasons)),
                              c.url in chosen, known)
            refused = sum(1 for c in result.candidates if c.refused)
            text = (self.tr("A list page (%1): %n links on %2, %3 look like articles and"
                            " are checked.", "", len(result.candidates))
                    .replace("%2", self.tr("%n pages", "", len(result.pages)))
                    .replace("%3", str(len(chosen - set(known)))))
            if refused:
                text += " " + self.tr("%1 refused: a public page's links may not lead to"
                                      " private or loopback addresses.").replace(
                                          "%1", str(refused))
        if known:
            text += " " + self.tr("%1 already in the archive: greyed and left unchecked.").replace(
                "%1", str(len(known)))
        self.list.blockSignals(False)
        self._set_busy(False, text.replace("%1", translate_failure(result.reason)))

    def _row(self, url: str, text: str, rank: int | None, why: str, checked: bool,
             known: dict[str, int], checkable: bool = True) -> None:
        """One link's row; a link the archive has (``known``: its task) says so, greyed, and
        is unchecked (checked anyway, Add reports it as a duplicate)."""
        task_id = known.get(url)
        if task_id is not None:
            why = self.tr("already in the archive: #%1").replace("%1", str(task_id)) + (
                f"; {why}" if why else "")
        item = QTreeWidgetItem([url, text, "" if rank is None else str(rank), why])
        item.setCheckState(URL_COLUMN, Qt.CheckState.Checked if checked and task_id is None
                           else Qt.CheckState.Unchecked)
        if task_id is not None:
            grey = self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
            for column in range(self.list.columnCount()):
                item.setForeground(column, grey)
        if checkable:
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        else:  # shown with why, never added
            item.setFlags(item.flags() & ~(Qt.ItemFlag.ItemIsUserCheckable
                                           | Qt.ItemFlag.ItemIsEnabled))
        item.setToolTip(URL_COLUMN, url)
        item.setToolTip(WHY_COLUMN, why)
        self.list.addTopLevelItem(item)

    def _failed(self, message: str) -> None:
        self._set_busy(False, message)

    # -- adding ---------------------------------------------------------------------------------

    def checked_urls(self) -> list[str]:
        """The checked links, in the list's order (the page's)."""
        return [item.text(URL_COLUMN) for item in self._items()
                if item.checkState(URL_COLUMN) == Qt.CheckState.Checked]

    def add_checked(self) -> None:
        """Add the checked links as tasks with the categories typed (in a job)."""
        urls = self.checked_urls()
        if not urls or self._busy:
            return
        workspace = self.workspace
        cat1, cat2 = self.cat1.text().strip(), self.cat2.text().strip()
        found_on = self.harvested.found_on if self.harvested is not None else ""
        self._set_busy(True, self.tr("Adding %n links…", "", len(urls)))
        self.jobs.start(lambda: workspace.add_links("\n".join(urls), cat1, cat2,
                                                    found_on=found_on),
                        self._added, self._failed)

    def _added(self, report: IntakeReport) -> None:
        self._set_busy(False, self.tr("Added %1 · duplicates %2 · rejected %3")
                       .replace("%1", str(len(report.added)))
                       .replace("%2", str(len(report.duplicates)))
                       .replace("%3", str(len(report.rejected))))
        self.added.emit(report)

    # -- helpers --------------------------------------------------------------------------------

    def _items(self) -> list[QTreeWidgetItem]:
        items = (self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount()))
        return [item for item in items if item is not None]

    def _check_every(self, checked: bool) -> None:
        state = Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
        for item in self._items():
            if item.flags() & Qt.ItemFlag.ItemIsUserCheckable:
                item.setCheckState(URL_COLUMN, state)

    def _set_busy(self, busy: bool, message: str) -> None:
        self._busy = busy
        self.summary.setText(message)
        self._update_buttons()

    def _update_buttons(self) -> None:
        has_rows = self.list.topLevelItemCount() > 0
        self.preview_button.setEnabled(not self._busy)
        self.check_all.setEnabled(has_rows and not self._busy)
        self.check_none.setEnabled(has_rows and not self._busy)
        self.add_button.setEnabled(bool(self.checked_urls()) and not self._busy)
