"""The table's filter: which of the model's rows are shown, by status, category, the tree's
node, domain and text.

A proxy of its own rather than ``QSortFilterProxyModel``: that one asks a Python
``filterAcceptsRow`` once per row whenever anything changes (a key typed, a sort, the list
loaded), and at 100,000 rows those calls alone freeze the window for a second. Here a change
works out the shown rows in one pass of comprehensions over what the model made ready (each
row's filter text and host, ``gui.task_model.prepare_rows``), and the view is told with one
layout change that keeps the selection. A sort is the filter's too: the shown rows are the
model's row numbers in a column's order (``TaskTableModel.sorted_rows``, made in one C call
and kept until a row changes), so a sort reorders one list of ints and no list of tasks.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from itertools import compress, repeat
from operator import attrgetter, contains
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractProxyModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from gui.task_model import Index, Node, SortedBy, TaskTableModel, status_test
from pipeline.records.task import Task
from pipeline.web.urls import host_in_domain


def _where(rows: list[int], task: Callable[[int], Task], value: Callable[[Task], Any],
           test: Callable[[Any], bool]) -> list[int]:
    """Those of ``rows`` whose task's ``value`` passes ``test``: ``map`` and ``compress``
    over C-made callables, no Python call per row (100,000 rows in a few ms)."""
    return list(compress(rows, map(test, map(value, map(task, rows)))))


class TaskFilter(QAbstractProxyModel):
    """Filter by status, category (cat1 or cat2), the category tree's node (cat1 and cat2),
    domain (and its sub-domains) and text, the rows shown in the list's order or a column's."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._status = ""
        self._category = ""
        self._tree: Node = (None, None)
        self._domain = ""
        self._text = ""
        self._rows: list[int] = []  # the source rows shown, in the order shown
        self._sorted_by: SortedBy = (-1, False)
        # every source row in that order, as sorted (rows that came since after them); None:
        # the source's own order. The criteria pick from it: a key typed sorts nothing again.
        self._order: list[int] | None = None
        self._unsorted_since = False  # rows came or changed since the rows were sorted
        self._every = True  # every source row shown, in its own order: row n is row n
        self._at: dict[int, int] | None = None  # source row → shown row; None: made when asked
        self._held: list[tuple[QPersistentModelIndex, QModelIndex]] = []

    # -- the criteria --------------------------------------------------------------------------

    def set_status(self, status: str) -> None:
        self._status = status
        self._refilter()

    def set_category(self, category: str) -> None:
        self._category = category
        self._refilter()

    def set_tree_category(self, cat1: str | None, cat2: str | None = None) -> None:
        """The category tree's choice: None for every task; a cat1 ("" for the uncategorized)
        with every cat2 under it, or exactly that cat1 and cat2."""
        self._tree = (cat1, None if cat1 is None else cat2)
        self._refilter()

    def set_domain(self, domain: str) -> None:
        self._domain = domain.lower().strip(".")
        self._refilter()

    def set_text(self, text: str) -> None:
        self._text = text.strip().casefold()
        self._refilter()

    def text(self) -> str:
        """The text the rows are filtered by now (casefolded)."""
        return self._text

    def _accepted(self, rows: Iterable[int]) -> list[int]:
        """Those of ``rows`` (source rows, ascending) the criteria let through: one
        comprehension a criterion, each over what the one before let through."""
        model = self._model()
        shown = list(rows)
        if model is None:
            return shown
        task = model.tasks().__getitem__
        if self._status:
            value, test = status_test(self._status)
            shown = _where(shown, task, value, test)
        if self._category:
            pairs = map(attrgetter("cat1", "cat2"), map(task, shown))
            shown = list(compress(shown, map(contains, pairs, repeat(self._category))))
        cat1, cat2 = self._tree
        if cat1 is not None:
            shown = (_where(shown, task, attrgetter("cat1"), frozenset({cat1}).__contains__)
                     if cat2 is None else
                     _where(shown, task, attrgetter("cat1", "cat2"),
                            frozenset({(cat1, cat2)}).__contains__))
        if self._domain:
            hosts = frozenset(h for h in model.hosts() if host_in_domain(h, self._domain))
            shown = model.rows_on_hosts(hosts, shown)
        if self._text:
            shown = model.rows_containing(self._text, shown)
        return shown

    def _model(self) -> TaskTableModel | None:
        model = self.sourceModel()
        return model if isinstance(model, TaskTableModel) else None

    def _set_rows(self, rows: list[int]) -> None:
        self._rows = rows
        model = self.sourceModel()
        # a subset in the source's order with as many rows as it has: all of them
        self._every = self._sorted_by[0] < 0 and (model is None
                                                  or len(rows) == model.rowCount())
        self._at = None

    def _shown_row(self, source_row: int) -> int | None:
        """Where a source row is shown; None when the criteria hide it. The index of shown
        rows is made when first asked for (a sort or a key typed asks for none)."""
        if self._every:
            return source_row if 0 <= source_row < len(self._rows) else None
        if self._at is None:
            self._at = dict(zip(self._rows, range(len(self._rows)), strict=True))
        return self._at.get(source_row)

    def _all_rows(self) -> list[int]:
        model = self.sourceModel()
        if self._order is not None:
            return self._accepted(self._order)
        return self._accepted(range(model.rowCount() if model is not None else 0))

    def _sort_rows(self) -> None:
        """Every source row put in the order the rows are sorted by (the model's, kept)."""
        model = self._model()
        column, descending = self._sorted_by
        self._order = (None if model is None or column < 0
                       else model.sorted_rows(column, descending))
        self._unsorted_since = False

    def _refilter(self) -> None:
        """The criteria or the order changed: the shown rows worked out again, told as one
        layout change (selected rows still shown stay selected, on their tasks)."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        sources = [self._rows[i.row()] if 0 <= i.row() < len(self._rows) else -1 for i in old]
        self._set_rows(self._all_rows())
        shown = self._finder(sources)
        self.changePersistentIndexList(
            old, [QModelIndex() if (row := shown(s)) is None else self.index(row, i.column())
                  for s, i in zip(sources, old, strict=True)])
        self.layoutChanged.emit()

    def _finder(self, held: list[int]) -> Callable[[int], int | None]:
        """Where a source row is shown, for the ``held`` source rows (the current row, the
        selection's corners): found in one pass over the shown rows at C speed, not through
        an index of every row (a sort, or a key typed, is then asked for none)."""
        if self._every or self._at is not None:
            return self._shown_row
        rows, wanted = self._rows, frozenset(held)
        places = list(compress(range(len(rows)), map(wanted.__contains__, rows)))
        return dict(zip(map(rows.__getitem__, places), places, strict=True)).get

    def _index_of(self, source_row: int, column: int) -> QModelIndex:
        row = self._shown_row(source_row)
        return QModelIndex() if row is None else self.index(row, column)

    # -- following the source ------------------------------------------------------------------

    def setSourceModel(self, model: QAbstractItemModel) -> None:
        self.beginResetModel()
        super().setSourceModel(model)
        model.modelAboutToBeReset.connect(self.beginResetModel)
        model.modelReset.connect(self._source_reset)
        model.layoutAboutToBeChanged.connect(self._source_layout_about)
        model.layoutChanged.connect(self._source_layout_changed)
        model.rowsAboutToBeRemoved.connect(self._source_rows_about_removed)
        model.rowsRemoved.connect(self._source_rows_removed)
        model.rowsInserted.connect(self._source_rows_inserted)
        model.dataChanged.connect(self._source_data_changed)
        model.headerDataChanged.connect(self.headerDataChanged)
        self._source_reset()

    def _source_reset(self) -> None:
        self._sort_rows()
        self._set_rows(self._all_rows())
        self.endResetModel()

    def _source_layout_about(self, *_args: object) -> None:
        """The source is about to reorder its rows (a sort): where each held index is, held
        at the source, whose own persistent indexes it moves."""
        self.layoutAboutToBeChanged.emit()
        self._held = [(QPersistentModelIndex(self.mapToSource(i)), i)
                      for i in self.persistentIndexList()]

    def _source_layout_changed(self, *_args: object) -> None:
        self._sort_rows()
        self._set_rows(self._all_rows())
        held, self._held = self._held, []
        self.changePersistentIndexList(
            [old for _source, old in held],
            [self.mapFromSource(source) for source, _old in held])
        self.layoutChanged.emit()

    def _source_rows_about_removed(self, _parent: Index, first: int, last: int) -> None:
        """Source rows are going: the shown ones go first, one run of shown rows at a time
        (sorted by a column, they may be shown apart), while the source still holds them."""
        if self._sorted_by[0] < 0:  # shown in the source's order: one run, found by bisection
            start, end = bisect_left(self._rows, first), bisect_right(self._rows, last)
            going = list(range(start, end))
        else:
            going = [at for at, row in enumerate(self._rows) if first <= row <= last]
        while going:
            end = start = going.pop()
            while going and going[-1] == start - 1:
                start = going.pop()
            self.beginRemoveRows(QModelIndex(), start, end)
            del self._rows[start:end + 1]
            self._every, self._at = False, None
            self.endRemoveRows()

    def _source_rows_removed(self, _parent: Index, first: int, last: int) -> None:
        count = last - first + 1
        if self._order is not None:
            self._order = [row - count if row > last else row for row in self._order
                           if not first <= row <= last]
        self._set_rows([row - count if row > last else row for row in self._rows])

    def _source_rows_inserted(self, _parent: Index, first: int, last: int) -> None:
        """Rows came: shown where the source has them in the list's order, after the rows
        shown when sorted by a column (until it sorts again)."""
        count = last - first + 1
        if self._order is not None:  # a new list: the model's kept order stays as made
            self._order = [row + count if row >= first else row for row in self._order]
            self._order += range(first, last + 1)
            self._unsorted_since = True
        rows = [row + count if row >= first else row for row in self._rows]
        new = self._accepted(range(first, last + 1))
        if not new:
            self._set_rows(rows)
            return
        at = bisect_left(rows, first) if self._sorted_by[0] < 0 else len(rows)
        self.beginInsertRows(QModelIndex(), at, at + len(new) - 1)
        self._set_rows(rows[:at] + new + rows[at:])
        self.endInsertRows()

    def _source_data_changed(self, top_left: QModelIndex, bottom_right: QModelIndex,
                             roles: list[int] = []) -> None:  # noqa: B006 - Qt's signature
        """Rows changed (a run's progress, an edit): repainted where they are shown, and the
        rows worked out again only when one of them now passes the criteria otherwise."""
        changed = range(top_left.row(), bottom_right.row() + 1)
        self._unsorted_since = True  # a changed row may sort elsewhere now
        if self._accepted(changed) != [r for r in changed if self._shown_row(r) is not None]:
            self._refilter()  # a row came in or went out
            return
        shown = [row for row in map(self._shown_row, changed) if row is not None]
        if shown:
            self.dataChanged.emit(self.index(min(shown), top_left.column()),
                                  self.index(max(shown), bottom_right.column()), roles)

    # -- the proxy's model -----------------------------------------------------------------------

    def mapToSource(self, index: Index) -> QModelIndex:
        model = self.sourceModel()
        if model is None or not index.isValid() or not 0 <= index.row() < len(self._rows):
            return QModelIndex()
        return model.index(self._rows[index.row()], index.column())

    def mapFromSource(self, index: Index) -> QModelIndex:
        return self._index_of(index.row(), index.column()) if index.isValid() else QModelIndex()

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if parent.isValid() or not (0 <= row < len(self._rows)
                                    and 0 <= column < self.columnCount()):
            return QModelIndex()
        return self.createIndex(row, column)

    def parent(self, child: Index | None = None) -> Any:  # type: ignore[override]
        """No row has children (and with no argument, the QObject's parent)."""
        return QAbstractProxyModel.parent(self) if child is None else QModelIndex()

    def sibling(self, row: int, column: int, index: Index) -> QModelIndex:
        return self.index(row, column)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        model = self.sourceModel()
        return 0 if parent.isValid() or model is None else model.columnCount()

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and bool(self._rows)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        model = self.sourceModel()
        return None if model is None else model.headerData(section, orientation, role)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Show the rows in ``column``'s order (-1: the list's), as one layout change that
        keeps the selection; rows sorted so already, with nothing changed since, are left
        (a view sorts twice on a click)."""
        column = column if 0 <= column < self.columnCount() else -1
        sorted_by = (column, column >= 0 and order == Qt.SortOrder.DescendingOrder)
        if sorted_by == self._sorted_by and not self._unsorted_since:
            return
        self._sorted_by = sorted_by
        self._sort_rows()
        self._refilter()
