"""Near duplicates for a person to judge (``Workspace.near_duplicates``): each pair with both
titles and links, how far apart their fingerprints are and what was decided, and, for the
pair selected, where the two texts differ word by word (``Workspace.pair_differences``).

A decision (``mark_duplicate``, ``keep_both``, ``undecide``) goes to duplicates.csv and
tasks.csv through the workspace, in a job; the workspace says the tasks changed, and the
list (like every view) follows that change. Each decision is said with what the pair's
decision was before it (``decision_taken``), so the window's Undo can put that back
(``put_decision``). Reading the pairs reads articles, so the list is
loaded when the tab is shown, not whenever the window opens an archive or a task changes.
Exact duplicates (the same text under another link) are set aside by the run itself and are
only counted here.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.worker import Jobs, Latest
from pipeline.store.duplicates import Decided, Decision, NearPair
from pipeline.text.textdiff import Hunk
from pipeline.usecases.changed import Changed
from pipeline.usecases.workspace import Workspace

PairRole = Qt.ItemDataRole.UserRole + 1  # the row's index in the pairs shown
TITLE_WIDTH = 220  # px
FIRST_COLOR, SECOND_COLOR = "#b3261e", "#1b7f3b"  # the first text's words in red, the second's
REMOVED_STYLE = f"color:{FIRST_COLOR}; text-decoration:line-through"
ADDED_STYLE = f"color:{SECOND_COLOR}"


@dataclass(frozen=True)
class Found:
    """What one load read: the pairs, closest first, and how many exact duplicates the run
    set aside (those are not near pairs: their texts are the same)."""

    pairs: list[NearPair]
    exact: int


@dataclass(frozen=True)
class Taken:
    """A decision a person took on a pair, stored: the pair's decision before and after it
    (``Workspace.decision``), so Undo and Redo can put either back, and its name there."""

    first: int
    second: int
    before: Decided | None
    after: Decided | None
    text: str


def find_duplicates(workspace: Workspace) -> Found:
    """The near pairs and the count of exact duplicates, as ``kuaibu dupes`` counts them: a
    task marked duplicate by a person's decision on a listed pair is not an exact one."""
    pairs = workspace.near_duplicates()
    return Found(pairs, len(workspace.exact_duplicates(pairs)))


def _gap(left: str, right: str) -> str:
    """A space between two runs of words, unless either side is CJK (written without)."""
    if not left or not right:
        return ""
    wide = ("W", "F")
    return "" if (unicodedata.east_asian_width(left[-1]) in wide
                  or unicodedata.east_asian_width(right[0]) in wide) else " "


def hunks_html(hunks: list[Hunk]) -> str:
    """Each place of difference as a paragraph: context, the first text's words struck
    through in red, the second's in green; everything escaped (the words are a site's)."""
    parts = []
    for hunk in hunks:
        shown, last = [], ""
        for style, words in ((None, hunk.before), (REMOVED_STYLE, hunk.removed),
                             (ADDED_STYLE, hunk.added), (None, hunk.after)):
            if not words:
                continue
            escaped = html.escape(words).replace("\n", "<br>")
            shown.append(_gap(last, words) + (
                escaped if style is None else f'<span style="{style}">{escaped}</span>'))
            last = words
        parts.append("<p>" + ("…" if hunk.before else "") + "".join(shown)
                     + ("…" if hunk.after else "") + "</p>")
    return "".join(parts)


class DuplicatesView(QWidget):
    """The near-duplicate pairs, the selected pair's differences, and the four decisions."""

    decided = Signal(list)  # the pair's two task ids: tasks.csv changed (saved)
    decision_taken = Signal(object)  # Taken: a person's decision stored, for the undo stack
    refreshed = Signal()  # the list shows the pairs as the workspace holds them
    differences_shown = Signal(int, int)  # the pair whose differences the pane shows

    def __init__(self, workspace: Workspace | None, jobs: Jobs,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.jobs = jobs
        self.open_url: Callable[[QUrl], Any] = QDesktopServices.openUrl  # tests swap it
        self._pairs: list[NearPair] = []
        self._reads = Latest(jobs)  # of the list; a read older than the last change is dropped
        self._shown: tuple[int, int] | None = None  # the pair in the difference pane
        self._busy = False

        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.refresh_button.clicked.connect(self.refresh)
        self.report_button = QPushButton(self.tr("Open report"))
        self.report_button.setToolTip(self.tr(
            "Write 04_logs/near_duplicates.html and .csv and open the page"))
        self.report_button.clicked.connect(self.open_report)
        self.list = QTreeWidget()
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setHeaderLabels([self.tr("IDs"), self.tr("First"), self.tr("Second"),
                                   self.tr("Distance"), self.tr("Decision"),
                                   self.tr("First URL"), self.tr("Second URL")])
        for column in (1, 2, 5, 6):
            self.list.setColumnWidth(column, TITLE_WIDTH)
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.differences = QTextBrowser()
        self.differences.setOpenLinks(False)
        self.differences.setPlaceholderText(self.tr(
            "Select a pair to see where the two texts differ."))
        self.second_button = QPushButton(self.tr("Second is a duplicate of first"))
        self.first_button = QPushButton(self.tr("First is a duplicate of second"))
        self.keep_button = QPushButton(self.tr("Keep both"))
        self.undecide_button = QPushButton(self.tr("Undecide"))
        marked = self.tr("Mark as duplicate")  # the decisions' names in Edit → Undo
        self.second_button.clicked.connect(
            lambda: self._decide(self._second_duplicate, marked))
        self.first_button.clicked.connect(lambda: self._decide(self._first_duplicate, marked))
        self.keep_button.clicked.connect(
            lambda: self._decide(self._keep_both, self.tr("Keep both")))
        self.undecide_button.clicked.connect(
            lambda: self._decide(self._undecide, self.tr("Undecide")))

        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.refresh_button)
        top.addWidget(self.report_button)
        buttons = QHBoxLayout()
        for button in (self.second_button, self.first_button, self.keep_button,
                       self.undecide_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        # side by side: the bottom tabs are wide and short, and may be shorter still
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.list)
        splitter.addWidget(self.differences)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        layout.addLayout(buttons)
        self._update_buttons()
        self.setEnabled(workspace is not None)

    # -- loading ---------------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        """Another archive: its pairs are read when the tab is next shown (now, if it is)."""
        self.workspace = workspace
        self.setEnabled(workspace is not None)
        self._show(Found([], 0))
        self.summary.clear()
        self.refresh_if_shown()

    def showEvent(self, event: QShowEvent) -> None:
        """The tab shown: read the pairs as they are now (a run may have added some)."""
        super().showEvent(event)
        self.refresh()

    def follow(self, change: Changed) -> None:
        """The archive changed (``archive_changed``): the pairs read again when the tasks
        changed, now if the tab is shown, else when it is."""
        if Changed.TASKS in change:
            self.refresh_if_shown()

    def refresh_if_shown(self) -> None:
        if self.isVisible():
            self.refresh()

    def refresh(self) -> None:
        """Read the pairs and decisions again, in a job; the newest read wins."""
        workspace = self.workspace
        if workspace is None:
            self._reads.drop()
            return
        if not self._pairs:  # a list shown stays as it is until the new one comes
            self.summary.setText(self.tr("Looking for near duplicates…"))
        self._reads.start(lambda: find_duplicates(workspace), self._loaded,
                          self.summary.setText)

    def _loaded(self, found: Found) -> None:
        self._show(found)
        self.refreshed.emit()

    def _show(self, found: Found) -> None:
        """List the pairs, keeping the selected pair selected (its differences stay)."""
        held = self.selected_pair()
        held_key = (held.first.id, held.second.id) if held is not None else None
        self.list.blockSignals(True)
        self.list.clear()
        self._pairs = found.pairs
        for row, pair in enumerate(found.pairs):
            item = QTreeWidgetItem([
                f"#{pair.first.id} · #{pair.second.id}", pair.first.display_title,
                pair.second.display_title, self.tr("%n bits", "", pair.distance),
                self.decision_text(pair), pair.first.url, pair.second.url])
            item.setData(0, PairRole, row)
            for column, tip in ((1, pair.first.display_title), (2, pair.second.display_title),
                                (5, pair.first.url), (6, pair.second.url)):
                item.setToolTip(column, tip)
            self.list.addTopLevelItem(item)
            item.setSelected((pair.first.id, pair.second.id) == held_key)
        self.list.blockSignals(False)
        self.list.resizeColumnToContents(0)
        self.summary.setText(self.summary_text(found))
        self._selection_changed()

    def summary_text(self, found: Found) -> str:
        undecided = sum(1 for p in found.pairs if p.decided is None)
        near = (self.tr("%n near-duplicate pairs, %1 to judge.", "", len(found.pairs)).replace(
            "%1", str(undecided)) if found.pairs else self.tr("No near duplicates."))
        exact = self.tr("%n exact duplicates (the same text under another link) were set aside"
                        " by the run.", "", found.exact)
        return f"{near} {exact}"

    def decision_text(self, pair: NearPair) -> str:
        decided = pair.decided
        if decided is None:
            return self.tr("undecided")
        if decided.decision == Decision.KEEP_BOTH:
            return self.tr("keep both")
        return self.tr("#%1 duplicates #%2").replace("%1", str(decided.duplicate)).replace(
            "%2", str(decided.original))

    def pairs(self) -> list[NearPair]:
        """The pairs listed, closest first."""
        return list(self._pairs)

    def selected_pair(self) -> NearPair | None:
        items = self.list.selectedItems()
        if not items:
            return None
        row = int(items[0].data(0, PairRole))
        return self._pairs[row] if row < len(self._pairs) else None

    def select_pair(self, first: int, second: int) -> bool:
        """Select the pair of these two ids (False when it is not listed)."""
        for row, pair in enumerate(self._pairs):
            if {pair.first.id, pair.second.id} == {first, second}:
                item = self.list.topLevelItem(row)
                if item is not None:
                    self.list.setCurrentItem(item)
                    item.setSelected(True)
                    return True
        return False

    # -- the differences -------------------------------------------------------------------------

    def _selection_changed(self) -> None:
        self._update_buttons()
        pair, workspace = self.selected_pair(), self.workspace
        if pair is None or workspace is None:
            self._shown = None
            self.differences.clear()
            return
        key = (pair.first.id, pair.second.id)
        if key == self._shown:
            return  # the same pair, listed again: its differences are already shown
        self._shown = key
        self.differences.setHtml(self._heading(pair) + "<p>" + html.escape(
            self.tr("Reading the differences…")) + "</p>")
        self.jobs.start(lambda: (key, workspace.pair_differences(pair)), self._differences_read,
                        lambda message: self._differences_read((key, message)))

    def _heading(self, pair: NearPair) -> str:
        lines = [f'<span style="color:{FIRST_COLOR}">#{pair.first.id}</span> '
                 f"{html.escape(pair.first.display_title)} — {html.escape(pair.first.url)}",
                 f'<span style="color:{SECOND_COLOR}">#{pair.second.id}</span> '
                 f"{html.escape(pair.second.display_title)} — {html.escape(pair.second.url)}"]
        return "<p>" + "<br>".join(lines) + "</p>"

    def _differences_read(self, answer: tuple[tuple[int, int], list[Hunk] | str]) -> None:
        key, found = answer
        pair = self.selected_pair()
        if pair is None or key != self._shown:
            return  # another pair is selected meanwhile
        if isinstance(found, str):  # the job failed: say why
            body = "<p>" + html.escape(found) + "</p>"
        elif not found:
            body = "<p>" + html.escape(self.tr("The two texts have the same words.")) + "</p>"
        else:
            legend = self.tr("%n places differ: struck through in red only in #%1, in green"
                             " only in #%2.", "", len(found)).replace(
                "%1", str(pair.first.id)).replace("%2", str(pair.second.id))
            body = "<p><i>" + html.escape(legend) + "</i></p>" + hunks_html(found)
        self.differences.setHtml(self._heading(pair) + body)
        self.differences_shown.emit(*key)

    def differences_text(self) -> str:
        return self.differences.toPlainText()

    # -- deciding --------------------------------------------------------------------------------

    def _update_buttons(self) -> None:
        """Each decision is offered for a selected pair unless it is the one standing."""
        loaded = self.workspace is not None
        # a decision and the report are written into the archive: not on a read-only one
        writable = self.workspace is not None and not self.workspace.read_only
        self.refresh_button.setEnabled(loaded)
        self.report_button.setEnabled(writable and not self._busy)
        pair = self.selected_pair() if writable and not self._busy else None
        decided = pair.decided if pair is not None else None
        kind = decided.decision if decided is not None else None
        duplicate = decided.duplicate if decided is not None else None
        self.second_button.setEnabled(pair is not None and not (
            kind == Decision.DUPLICATE and duplicate == pair.second.id))
        self.first_button.setEnabled(pair is not None and not (
            kind == Decision.DUPLICATE and duplicate == pair.first.id))
        self.keep_button.setEnabled(pair is not None and kind != Decision.KEEP_BOTH)
        self.undecide_button.setEnabled(pair is not None and decided is not None)

    @staticmethod
    def _second_duplicate(workspace: Workspace, pair: NearPair) -> None:
        workspace.mark_duplicate(pair.second.id, pair.first.id)

    @staticmethod
    def _first_duplicate(workspace: Workspace, pair: NearPair) -> None:
        workspace.mark_duplicate(pair.first.id, pair.second.id)

    @staticmethod
    def _keep_both(workspace: Workspace, pair: NearPair) -> None:
        workspace.keep_both(pair.first.id, pair.second.id)

    @staticmethod
    def _undecide(workspace: Workspace, pair: NearPair) -> None:
        workspace.undecide(pair.first.id, pair.second.id)

    def _decide(self, decision: Callable[[Workspace, NearPair], None], text: str) -> None:
        """Store a decision on the selected pair in a job, with the pair's decision before
        and after it for the undo stack (``decision_taken``); a broken duplicates.csv or a
        busy tasks.csv is said in the summary, nothing changed."""
        pair, workspace = self.selected_pair(), self.workspace
        if pair is None or workspace is None or self._busy:
            return
        first, second = pair.first.id, pair.second.id

        def work() -> Taken:
            before = workspace.decision(first, second)
            decision(workspace, pair)
            return Taken(first, second, before, workspace.decision(first, second), text)

        self._store(work, [first, second], self.decision_taken.emit)

    def put_decision(self, first: int, second: int, decided: Decided | None) -> None:
        """Put a pair's decision back as it was (Undo and Redo), in a job as a decision is."""
        workspace = self.workspace
        if workspace is not None:
            self._store(lambda: workspace.put_decision(first, second, decided), [first, second])

    def _store(self, work: Callable[[], Any], ids: list[int],
               then: Callable[[Any], None] | None = None) -> None:
        """Run a decision's ``work`` in a job; then ``then`` with its answer, and
        ``decided``."""
        self._busy = True
        self._reads.drop()  # a list read before this decision is out of date
        self._update_buttons()

        def done(answer: Any) -> None:
            self._busy = False
            self._update_buttons()
            if then is not None:
                then(answer)
            self.decided.emit(ids)

        self.jobs.start(work, done, self._decision_failed)

    def _decision_failed(self, message: str) -> None:
        self._busy = False
        self.summary.setText(message)
        self._update_buttons()

    # -- the report ------------------------------------------------------------------------------

    def open_report(self) -> None:
        """Write 04_logs/near_duplicates.csv and .html and open the page in the browser."""
        workspace = self.workspace
        if workspace is None or self._busy:
            return
        self.jobs.start(lambda: workspace.dupes_report()[2],
                        lambda path: self.open_url(QUrl.fromLocalFile(str(path))),
                        self.summary.setText)
