"""The category tree beside the table (一级 → 二级, as 网文快捕's folder tree and calibre's tag
browser): "All", each cat1 with its cat2 under it, "Uncategorized" last; each node counts its
tasks, its tooltip counts them per status.

The tree only asks: choosing a node, dropping table rows on it and renaming it are signals
(``category_chosen``, ``move_requested``, ``rename_requested``); the window hands them to the
filter and to the workspace's ``edit``, and the tree shows the result at its next ``refresh``.
A node is known by its key, ``(cat1, cat2)`` as the signals carry it: ``(None, None)`` is All,
``(cat1, None)`` a cat1 with everything under it ("" is Uncategorized), ``(cat1, cat2)`` one cat2.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from PySide6.QtCore import (
    QItemSelection,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QTreeView,
    QWidget,
)

from gui.task_model import TASK_IDS_MIME, TaskTableModel, task_ids_from_mime
from pipeline.records.task import STATUSES, Task

Key = tuple[str | None, str | None]
Triples = Counter[tuple[str, str, str]]  # tasks by (cat1, cat2, status)
ALL: Key = (None, None)
UNCATEGORIZED: Key = ("", None)

KindRole = Qt.ItemDataRole.UserRole + 1  # "all", "cat1" or "cat2"
Cat1Role = Qt.ItemDataRole.UserRole + 2
Cat2Role = Qt.ItemDataRole.UserRole + 3
Index = QModelIndex | QPersistentModelIndex
_CHOOSE = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_CHOOSE_DROP = _CHOOSE | Qt.ItemFlag.ItemIsDropEnabled
_CHOOSE_DROP_RENAME = _CHOOSE_DROP | Qt.ItemFlag.ItemIsEditable


def key_of(index: Index) -> Key | None:
    """The node's (cat1, cat2); None for no node."""
    kind = index.data(KindRole) if index.isValid() else None
    if kind == "all":
        return ALL
    if kind == "cat1":
        return (index.data(Cat1Role), None)
    if kind == "cat2":
        return (index.data(Cat1Role), index.data(Cat2Role))
    return None


def _item_key(item: QStandardItem) -> Key:
    """A node's key from its item (in the tree or not yet)."""
    kind = item.data(KindRole)
    if kind == "all":
        return ALL
    return (item.data(Cat1Role), item.data(Cat2Role) if kind == "cat2" else None)


def _order(key: Key) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """All first, named categories by their raw name (an ``NN_`` prefix sorts them),
    Uncategorized last; a cat1 before its cat2s."""
    cat1, cat2 = key
    top = (0, "", "") if cat1 is None else (2, "", "") if cat1 == "" else (
        1, cat1.casefold(), cat1)
    return top, (0, "", "") if cat2 is None else (1, cat2.casefold(), cat2)


class CategoryModel(QStandardItemModel):
    """The tree's nodes; a drop of task ids on a category node and an edit of a node's name
    become signals, never changes of the model's own."""

    dropped = Signal(list, str, str)  # task ids, cat1, cat2 ("" for directly under cat1)
    renamed = Signal(str, object, str)  # old cat1, old cat2 or None, new name

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.invisibleRootItem().setFlags(Qt.ItemFlag.NoItemFlags)  # no drops between nodes

    def mimeTypes(self) -> list[str]:
        return [TASK_IDS_MIME]

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction | Qt.DropAction.MoveAction

    def canDropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int,
                        parent: Index) -> bool:
        key = key_of(parent)
        # row -1: on the node itself, not between two nodes
        return row < 0 and key is not None and key != ALL and data.hasFormat(TASK_IDS_MIME)

    def dropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int,
                     parent: Index) -> bool:
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        ids = task_ids_from_mime(data)
        key = key_of(parent)
        if not ids or key is None or key[0] is None:
            return False
        self.dropped.emit(ids, key[0], key[1] or "")
        return True

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole:
            return super().setData(index, value, role)
        key = key_of(index)
        if key is None or key[0] is None or key == UNCATEGORIZED:
            return False
        cat1, cat2 = key
        new = str(value).strip()
        if new and new != (cat1 if cat2 is None else cat2):
            self.renamed.emit(cat1, cat2, new)
        return False  # the node shows the new name once the tasks hold it (``refresh``)


class _NameDelegate(QStyledItemDelegate):
    """Edits a node's raw name, not its "name (count)" label."""

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        key = key_of(index)
        if isinstance(editor, QLineEdit) and key is not None and key[0] is not None:
            editor.setText(key[0] if key[1] is None else key[1])
        else:
            super().setEditorData(editor, index)


class CategoryTree(QTreeView):
    """The categories of a task list, with counts; see the module's docstring.

    ``status_name`` names a status in the window's language; by default the table's names,
    so the tooltip says what the Status column says."""

    category_chosen = Signal(object, object)  # cat1 | None, cat2 | None; (None, None): All
    move_requested = Signal(list, str, str)  # task ids, cat1, cat2 of the node dropped on
    rename_requested = Signal(str, object, str)  # old cat1, old cat2 | None, new name

    def __init__(self, parent: QWidget | None = None, *,
                 status_name: Callable[[str], str] | None = None) -> None:
        super().__init__(parent)
        self._status_name = status_name or TaskTableModel(self).status_name
        self._model = CategoryModel(self)
        self.setModel(self._model)
        self.setHeaderHidden(True)
        self.setUniformRowHeights(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.setItemDelegate(_NameDelegate(self))
        self.setAcceptDrops(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)
        self.setDragDropOverwriteMode(True)  # a drop lands on the node under the pointer
        self.setDropIndicatorShown(True)
        self.setAutoExpandDelay(600)  # hovering a drag over a cat1 opens it to its cat2s
        self._folder = self.style().standardIcon(QStyle.StandardPixmap.SP_DirIcon)
        self._items: dict[Key, QStandardItem] = {}
        self._counts: dict[Key, Counter[str]] = {}  # as last painted
        self._words: tuple[str, str, dict[str, str]] = ("", "", {})  # a refresh's texts
        self._chosen: Key = ALL
        self._updating = False
        # the last rename asked for, (old key, new name): followed by the refresh in which
        # the old node goes (the window may apply it later), so it stays chosen and open
        self._renamed: tuple[Key, str] | None = None
        self._followed: TaskTableModel | None = None
        self._follow_timer = QTimer(self)
        self._follow_timer.setSingleShot(True)
        self._follow_timer.timeout.connect(self._follow_now)
        self._model.dropped.connect(self.move_requested)
        self._model.renamed.connect(self._rename_asked)
        self.selectionModel().selectionChanged.connect(self._selection_changed)
        self.set_tasks([])

    # -- feeding -----------------------------------------------------------------------------

    def set_tasks(self, tasks: Iterable[Task]) -> None:
        """A new list (another archive): nodes built afresh, all collapsed, All chosen."""
        self.set_counts(_triples(tasks))

    def set_counts(self, triples: Triples) -> None:
        """``set_tasks`` from the tasks' counts by (cat1, cat2, status), as the table's model
        keeps them (``TaskTableModel.node_counts``): no walk over the tasks."""
        before = self._chosen
        self._updating = True
        try:
            self._model.removeRows(0, self._model.rowCount())
            self._items = {}
            self._counts = {}
        finally:
            self._updating = False
        self._chosen = ALL
        self.refresh_counts(triples)
        if before != ALL:
            self.category_chosen.emit(None, None)

    def refresh(self, tasks: Iterable[Task]) -> None:
        """The same list, changed: counts updated, new nodes added in their place, gone ones
        removed; expansion and the chosen node stay (a chosen node that is gone gives way to
        its renamed self or its parent, and ``category_chosen`` says so)."""
        self.refresh_counts(_triples(tasks))

    def refresh_counts(self, triples: Triples) -> None:
        """``refresh`` from the tasks' counts by (cat1, cat2, status)."""
        counts = self._count(triples)
        before = self._chosen
        expanded = {key for key, item in self._items.items()
                    if key[1] is None and self.isExpanded(item.index())}
        self._updating = True
        try:
            self._remove_gone(counts)
            self._words = (self.tr("Tasks: %1"), self.tr("%1: %2"),
                           {s: self._status_name(s) for s in STATUSES})
            for key, status_counts in counts.items():
                item = self._items.get(key)
                if item is not None and self._counts.get(key) != status_counts:
                    self._paint(item, key, status_counts)
            self._add_new(counts)
            self._counts = counts
            chosen = self._survivor(before)
            for key in expanded:
                follow = self._renamed_key(key)
                if key not in self._items and follow in self._items:
                    self.expand(self._items[follow].index())
            self._select(chosen)
        finally:
            self._updating = False
        if self._renamed is not None and self._renamed[0] not in self._items:
            self._renamed = None  # done: the tasks hold the new name
        self._chosen = chosen
        if chosen != before:
            self.category_chosen.emit(*chosen)

    def follow(self, model: TaskTableModel, delay_ms: int = 250) -> None:
        """Keep up with a table model by itself: any change to its rows refreshes the tree
        within ``delay_ms`` (at most one refresh per interval, however busy a run is)."""
        self._followed = model
        self._follow_timer.setInterval(delay_ms)
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved,
                       model.dataChanged, model.layoutChanged):
            signal.connect(self._follow_later)
        self.refresh_counts(model.node_counts())

    # -- reading and choosing ----------------------------------------------------------------

    def expanded_categories(self) -> list[str]:
        """The first-level categories whose subcategories are shown, for the window to keep."""
        return sorted(str(key[0]) for key, item in self._items.items()
                      if key[0] is not None and key[1] is None
                      and self.isExpanded(item.index()))

    def expand_categories(self, names: Iterable[str]) -> None:
        """Show the subcategories of these first-level categories (those still there)."""
        for name in names:
            item = self._items.get((name, None))
            if item is not None:
                self.expand(item.index())

    def current_category(self) -> Key:
        return self._chosen

    def node(self, cat1: str | None, cat2: str | None = None) -> QModelIndex:
        """The node's index (invalid when the tree has no such node)."""
        item = self._items.get((cat1, None if cat1 is None else cat2))
        return item.index() if item is not None else QModelIndex()

    def select(self, cat1: str | None, cat2: str | None = None) -> bool:
        """Choose a node as a click would (``category_chosen`` if it changes); False when
        there is no such node."""
        index = self.node(cat1, cat2)
        if not index.isValid():
            return False
        self.setCurrentIndex(index)
        return True

    # -- inside ------------------------------------------------------------------------------

    @staticmethod
    def _count(triples: Triples) -> dict[Key, Counter[str]]:
        """Per node, its tasks per status: a pass over the distinct (cat1, cat2, status)
        triples, which are few."""
        counts: dict[Key, Counter[str]] = defaultdict(Counter)
        counts[ALL] = Counter()
        for (cat1, cat2, status), n in triples.items():
            counts[ALL][status] += n
            counts[(cat1, None)][status] += n
            if cat2:
                counts[(cat1, cat2)][status] += n
        return counts

    def _remove_gone(self, counts: dict[Key, Counter[str]]) -> None:
        gone = [key for key in self._items if key not in counts]
        # a cat2 on its own first; a cat1 takes its cat2s with it
        for key in sorted(gone, key=lambda k: k[1] is None):
            if key[1] is not None and (key[0], None) in gone:
                continue
            item = self._items[key]
            parent = item.parent() or self._model.invisibleRootItem()
            parent.removeRow(item.row())
        for key in gone:
            del self._items[key]

    def _add_new(self, counts: dict[Key, Counter[str]]) -> None:
        """Nodes for the keys the tree lacks, each in its place among its siblings. A new
        cat1 gets its cat2s before it joins the tree, so a whole new list costs one insert
        per cat1."""
        new = sorted((key for key in counts if key not in self._items), key=_order)
        for key in new:
            self._items[key] = self._new_item(key, counts[key])
        fresh = set(new)
        for key in new:
            under_new = key[1] is not None and (key[0], None) in fresh
            if under_new:  # in order, the new cat1 having no other children
                self._items[(key[0], None)].appendRow(self._items[key])
            else:
                parent = (self._model.invisibleRootItem() if key[1] is None
                          else self._items[(key[0], None)])
                # siblings are in order: from the end, a list built in order appends at once
                row, order = parent.rowCount(), _order(key)
                while row > 0 and _order(_item_key(parent.child(row - 1))) > order:
                    row -= 1
                parent.insertRow(row, self._items[key])

    def _new_item(self, key: Key, counts: Counter[str]) -> QStandardItem:
        cat1, cat2 = key
        item = QStandardItem()
        item.setData("all" if cat1 is None else "cat1" if cat2 is None else "cat2", KindRole)
        item.setData(cat1 or "", Cat1Role)
        item.setData(cat2 or "", Cat2Role)
        if key == ALL:
            item.setFlags(_CHOOSE)
        else:
            item.setIcon(self._folder)
            item.setFlags(_CHOOSE_DROP if key == UNCATEGORIZED else _CHOOSE_DROP_RENAME)
        self._paint(item, key, counts)
        return item

    def _paint(self, item: QStandardItem, key: Key, counts: Counter[str]) -> None:
        total = sum(counts.values())
        text = f"{self._label(key)} ({total})"
        if item.text() != text:
            item.setText(text)
        tasks_line, status_line, names = self._words
        lines = [self._title(key), tasks_line.replace("%1", str(total))]
        lines += [status_line.replace("%1", names[s]).replace("%2", str(n))
                  for s in STATUSES if (n := counts[s])]
        tip = "\n".join(lines)
        if item.toolTip() != tip:
            item.setToolTip(tip)

    def _label(self, key: Key) -> str:
        cat1, cat2 = key
        if cat1 is None:
            return self.tr("All")
        if cat2 is not None:
            return cat2
        return cat1 or self.tr("Uncategorized")

    def _title(self, key: Key) -> str:
        """The node's raw names, as tasks.csv holds them."""
        cat1, cat2 = key
        if cat1 is None or cat2 is None:
            return self._label(key)
        return f"{cat1 or self.tr('Uncategorized')} / {cat2}"

    def _renamed_key(self, key: Key) -> Key:
        """Where a node is after the last rename asked for (itself when it was not renamed)."""
        if self._renamed is None:
            return key
        (old1, old2), new = self._renamed
        if old2 is None and key[0] == old1:
            return (new, key[1])
        if old2 is not None and key == (old1, old2):
            return (old1, new)
        return key

    def _survivor(self, key: Key) -> Key:
        """The node to keep chosen: itself, where the last rename took it, or its cat1."""
        renamed = self._renamed_key(key)
        for candidate in (key, renamed, (renamed[0], None), (key[0], None)):
            if candidate in self._items:
                return candidate
        return ALL

    def _select(self, key: Key) -> None:
        index = self._items[key].index()
        if self.currentIndex() != index or not self.selectionModel().isSelected(index):
            self.setCurrentIndex(index)

    def _selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        if self._updating:
            return
        chosen: Sequence[QModelIndex] = self.selectionModel().selectedIndexes()
        key = key_of(chosen[0]) if chosen else None
        if key is None:  # nothing chosen (a Ctrl+click): All, shown as such
            self._select(ALL)
            return
        if key != self._chosen:
            self._chosen = key
            self.category_chosen.emit(*key)

    def _rename_asked(self, cat1: str, cat2: str | None, new: str) -> None:
        self._renamed = ((cat1, cat2), new)
        self.rename_requested.emit(cat1, cat2, new)

    def _follow_later(self, *_args: object) -> None:
        if not self._follow_timer.isActive():
            self._follow_timer.start()

    def _follow_now(self) -> None:
        if self._followed is not None:
            self.refresh_counts(self._followed.node_counts())


def _triples(tasks: Iterable[Task]) -> Triples:
    return Counter((t.cat1, t.cat2, t.status) for t in tasks)
