"""Pick content, the rules editor's button and its tab: the task's page as an element tree,
the element holding the extracted article proposed (``Workspace.suggest``) or one chosen in the
tree named (``Workspace.selector_for_element``), each selector checked on the site's other
stored pages, with why this element (or none) in words. Apart because it has state of its own
(the round under way, the tree being filled) and says its proposal by a signal: the editor
puts it into Content selector."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.rules_editor.filling import Filling
from gui.rules_editor.rich_text import code, esc, red
from gui.worker import Jobs
from pipeline.records.errors import KuaibuError
from pipeline.records.task import Task
from pipeline.rules.findings import Node, Reason, Suggestion
from pipeline.rules.model import Rules
from pipeline.usecases.workspace import Workspace
from pipeline.web.urls import host_of


@dataclass(frozen=True)
class PickResult:
    """Pick content on one task: its page's element tree and the automatic proposal."""

    generation: int
    task: Task
    nodes: Sequence[Node]
    proposal: Suggestion | None  # None when the automatic extraction finds no article
    failure: str


@dataclass(frozen=True)
class Picked:
    """The selector for an element chosen in the tree."""

    generation: int
    task: Task
    proposal: Suggestion


class ContentPicker(QWidget):
    """The Pick content tab (``button`` sits in the form, beside Content selector). An
    element chosen in the tree is named on the editor's task of the moment under its rules
    of the moment: ``task`` and ``rules`` ask for them."""

    proposed = Signal(str)  # a content selector proposed

    def __init__(self, workspace: Workspace, jobs: Jobs, task: Callable[[], Task | None],
                 rules: Callable[[], Rules]) -> None:
        super().__init__()
        self._workspace = workspace
        self._jobs = jobs
        self._task = task
        self._rules = rules
        self._generation = 0
        self._filling = Filling()  # the tree is being filled, not chosen in
        self.button = QPushButton(self.tr("Pick content"))
        self.button.setToolTip(self.tr(
            "Propose a content selector for the element that holds the article, or choose the"
            " element in the page's element tree"))
        self.status = QLabel(self.tr(
            "Pick content proposes a selector for the element that holds the article; or choose"
            " the element below. Its selector goes into Content selector."))
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.element_list = QTreeWidget()
        self.element_list.setHeaderLabels([self.tr("Element"), self.tr("Characters"),
                                           self.tr("Text")])
        for column, width in enumerate((260, 80)):
            self.element_list.setColumnWidth(column, width)
        self.element_list.currentItemChanged.connect(self._element_chosen)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.element_list, 1)

    def pick(self, task: Task | None) -> None:
        """Load the task's element tree and propose the element holding the extracted
        article (checked on the site's other stored pages), in a job; the proposal fills
        Content selector. ``task`` is None when its page is not stored."""
        if task is None:
            self.status.setText(self.tr("Select a task whose page has been fetched."))
            return
        self._generation += 1
        generation, workspace, rules = self._generation, self._workspace, self._rules()

        def work() -> PickResult:
            nodes = workspace.element_tree(task)
            try:
                return PickResult(generation, task, nodes, workspace.suggest(task, rules), "")
            except KuaibuError as e:  # no article to look for: the tree is still there
                return PickResult(generation, task, nodes, None, str(e))

        self.status.setText(self.tr("Looking for the element that holds the article…"))
        self._jobs.start(work, self._picked, self._failed)

    def _picked(self, result: PickResult) -> None:
        if result.generation != self._generation:
            return
        with self._filling():  # filling the tree is no choice of the person's
            self.element_list.clear()
            items: list[tuple[int, QTreeWidgetItem]] = []  # the open ancestors, by depth
            chosen: QTreeWidgetItem | None = None
            for node in result.nodes:
                while items and items[-1][0] >= node.depth:
                    items.pop()
                name = node.tag + (f"#{node.id}" if node.id else "") + "".join(
                    f".{c}" for c in node.classes)
                item = QTreeWidgetItem([name, f"{node.chars:,}", " ".join(node.preview.split())])
                item.setData(0, Qt.ItemDataRole.UserRole, node.path)
                item.setToolTip(2, node.preview)
                if items:
                    items[-1][1].addChild(item)
                else:
                    self.element_list.addTopLevelItem(item)
                items.append((node.depth, item))
                if result.proposal is not None and node.path == result.proposal.path:
                    chosen = item
            self.element_list.expandAll()
            if chosen is not None:
                self.element_list.setCurrentItem(chosen)
                self.element_list.scrollToItem(chosen)
        if result.proposal is None:
            self.status.setText(red(esc(
                self.tr("No article to look for on this page: %1").replace("%1", result.failure))))
            return
        self._propose(result.task, result.proposal)

    def _element_chosen(self, item: QTreeWidgetItem | None, _previous: object) -> None:
        """An element chosen in the tree: its selector, checked on the site's pages."""
        task = self._task()
        if self._filling or item is None or task is None:
            return
        path = str(item.data(0, Qt.ItemDataRole.UserRole))
        self._generation += 1
        generation, workspace, rules = self._generation, self._workspace, self._rules()

        def work() -> Picked:
            return Picked(generation, task, workspace.selector_for_element(task, path, rules))

        self.status.setText(self.tr("Naming the element…"))
        self._jobs.start(work, self._element_named, self._failed)

    def _element_named(self, picked: Picked) -> None:
        if picked.generation == self._generation:
            self._propose(picked.task, picked.proposal)

    def _propose(self, task: Task, proposal: Suggestion) -> None:
        """Say what was proposed and why; a selector goes to the editor (the live preview
        then shows it at work)."""
        reason = esc(self.pick_reason(proposal))
        if proposal.selector is None:
            self.status.setText(red(esc(self.tr("No selector to propose."))) + " " + reason)
            return
        host = host_of(task.url)
        pages = (self.tr("It finds an article on %1 of the %n other archived pages of %2.", "",
                         proposal.site_pages)
                 .replace("%1", str(proposal.matched_pages)).replace("%2", host)
                 if proposal.site_pages else
                 self.tr("There are no other archived pages of %1 to check it on.")
                 .replace("%1", host))
        self.status.setText(
            self.tr("Proposed content selector: %1").replace("%1", code(proposal.selector))
            + "<br>" + reason + " " + esc(pages))
        self.proposed.emit(proposal.selector)

    def pick_reason(self, proposal: Suggestion) -> str:
        """Why this element (or none), worded here from the proposal's reason code."""
        share = f"{proposal.share:.0%}"
        reasons = {
            Reason.WHOLE: self.tr("Its element holds the whole article."),
            Reason.WIDE: self.tr("Its element holds the whole article, but much of its text is"
                                 " something else (strip rules can remove it)."),
            Reason.SPLIT: self.tr("No single element holds the whole article: this one holds"
                                  " %1 of its text.").replace("%1", share),
            Reason.PART: self.tr("The element holds %1 of the article's text.").replace(
                "%1", share),
            Reason.PICKED: self.tr("The element you picked."),
            Reason.NOT_ON_PAGE: self.tr("The article's text is too short or not on this page."),
            Reason.IN_BODY: self.tr("No element inside the page's body holds much of the"
                                    " article: its paragraphs stand in the body itself."),
            Reason.NO_ELEMENT: self.tr("No element of the page is at this place, or it is never"
                                       " shown."),
            Reason.NO_SELECTOR: self.tr("No selector without positions names just this element."),
        }
        return reasons.get(proposal.reason_code, proposal.reason)

    def _failed(self, message: str) -> None:
        self.status.setText(red(esc(message)))
