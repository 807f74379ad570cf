"""The task table: one model over copies of the workspace's tasks (no widget per row), and its
filter.

The model keeps a list of ``Task`` copies and an id → row index, so a change from the run
repaints one row and ``sync`` (after the file changed) touches only the rows that differ. The
model never writes: an edit (expected title, categories) is handed to ``editor``, the
workspace's, which merges it into tasks.csv with the window's next save.

At 100,000 tasks nothing a person does may walk the list on the GUI thread row by row in
Python more than once: each task's filter text and host are worked out when it arrives
(``prepare_rows``, off the GUI thread for a whole archive), the counts the tree and the
filter boxes show are kept as tasks come, change and go (``tally``), and a column's sort keys
are made once and kept until their task changes. The rows stay in the list's order: a column's
order is a list of row numbers (``sorted_rows``) that the filter (``gui.task_filter``) shows
them in, so a sort reorders no list of tasks.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from itertools import compress
from operator import attrgetter
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPixmap

from gui.reasons import review_reason, task_reason
from pipeline.records.errors import ErrorKind
from pipeline.records.task import STATUSES, Status, Task
from pipeline.web.urls import host_of

# Below this extraction confidence a cleaned article is flagged "needs review" (the extractor
# gives 1.0 when a rules.yaml selector matched; density picks score lower on odd layouts).
REVIEW_BELOW = 0.5

# What a failed or duplicate row needs read first (why, and what to do) comes right after the
# title, before the columns that only describe a row; the id is what every message names.
COLUMNS = ("status", "id", "title", "kind", "error", "domain", "cat1", "cat2", "date", "chars",
           "images")
EDITABLE = frozenset({"title", "cat1", "cat2"})
NEEDS_REVIEW = "review"  # the pseudo-status the filter offers beside the real ones
STATUS_COLOURS = {
    Status.PENDING: "#9e9e9e", Status.RUNNING: "#1e88e5", Status.FETCHED: "#00897b",
    Status.CLEANED: "#43a047", Status.LOCALIZED: "#2e7d32", Status.DONE: "#1b5e20",
    Status.FAILED: "#e53935", Status.DUPLICATE: "#8e24aa", NEEDS_REVIEW: "#fb8c00",
}

TaskRole = Qt.ItemDataRole.UserRole + 1
# A sort finds the new row of each index the view holds (the current row, the selection's
# corners) by a scan of the new order when they are this few, else through an index of rows
HELD_FOUND_ONE_BY_ONE = 32
SortedBy = tuple[int, bool]  # (column, descending); column -1: the list's order
Index = QModelIndex | QPersistentModelIndex
# What a drag of table rows carries: the tasks' ids as a JSON list. Only this type, no
# text/plain: rows dropped on the window's own paste box must not come back as new links.
TASK_IDS_MIME = "application/x-kuaibu-task-ids"


# What the tree and the filter boxes count tasks by: (cat1, cat2, status, kind of failure).
Facet = tuple[str, str, str, ErrorKind | None]


def facet(task: Task) -> Facet:
    return (task.cat1, task.cat2, task.status, task.failure_kind)


def title_key(task: Task) -> str:
    """How the Title column sorts a task: the title shown, case folded."""
    return task.display_title.casefold()


def haystack(task: Task) -> str:
    """What the text filter looks in: the title shown, the link, the categories and the error,
    case folded once (a key typed then costs a substring test per row, not a join)."""
    return " ".join((task.display_title, task.url, task.cat1, task.cat2, task.error)).casefold()


@dataclass
class TaskRows:
    """A task list made ready for the table (``prepare_rows``): what each row is found and
    counted by. Made off the GUI thread when a whole archive opens."""

    tasks: list[Task]
    ids: list[int] = field(default_factory=list)  # a task's id, in its row
    hosts: dict[int, str] = field(default_factory=dict)  # task id → host
    host_count: Counter[str] = field(default_factory=Counter)  # the rows by host
    haystacks: list[str] = field(default_factory=list)  # a task's filter text, in its row
    tally: Counter[Facet] = field(default_factory=Counter)
    title_keys: dict[int, str] = field(default_factory=dict)  # the sort most asked for


def prepare_rows(tasks: list[Task]) -> TaskRows:
    """Each task's host, filter text and title sort key, and the counts by facet: one pass,
    no Qt (a job thread runs it for an archive being opened)."""
    rows = TaskRows(tasks)
    for task in tasks:
        rows.ids.append(task.id)
        rows.title_keys[task.id] = title_key(task)
        rows.hosts[task.id] = host = sys.intern(host_of(task.url))  # few hosts, many rows
        rows.host_count[host] += 1
        rows.haystacks.append(haystack(task))
        rows.tally[facet(task)] += 1
    return rows


def reuse_unchanged(fresh: list[Task], shown: list[Task]) -> list[Task]:
    """``fresh`` (the tasks read again) with each task equal to the one ``shown`` holds for
    its id replaced by that one. Run off the GUI thread after a read: a store that read the
    file again hands out new records, and ``sync`` on the GUI thread then finds unchanged rows
    by identity instead of comparing 100,000 records field by field (a third of a second)."""
    before = dict(zip(map(attrgetter("id"), shown), shown, strict=True))
    return [old if (old := before.get(t.id)) is not None and (old is t or old == t) else t
            for t in fresh]


def _take_one(counter: Counter[Any], key: Any) -> None:
    """One fewer of ``key``; none left, it goes (the counts list only what the rows hold)."""
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


def _folded(values: list[str]) -> list[str]:
    """``values`` case folded, each distinct one once (a column of few hosts or categories)."""
    folded = {v: v.casefold() for v in set(values)}
    return list(map(folded.__getitem__, values))


def _rows_by_id(ids: list[int]) -> dict[int, int]:
    """Task id → row, made at C speed."""
    return dict(zip(ids, range(len(ids)), strict=True))


def task_ids_mime(task_ids: Iterable[int]) -> QMimeData:
    mime = QMimeData()
    mime.setData(TASK_IDS_MIME, json.dumps(sorted(set(task_ids))).encode("ascii"))
    return mime


def task_ids_from_mime(mime: QMimeData) -> list[int]:
    """The ids a drag of rows carries; [] for anything else (another program may offer the
    type with other content)."""
    if not mime.hasFormat(TASK_IDS_MIME):
        return []
    try:
        ids = json.loads(bytes(mime.data(TASK_IDS_MIME).data()).decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return []
    if not isinstance(ids, list) or not all(type(i) is int for i in ids):
        return []
    return ids


def needs_review(task: Task) -> bool:
    return (task.status in (Status.CLEANED, Status.LOCALIZED, Status.DONE)
            and task.confidence is not None and task.confidence < REVIEW_BELOW)


def failed_key(kind: ErrorKind) -> str:
    """The status filter's key for the failed tasks of one kind, e.g. "failed:network"."""
    return f"{Status.FAILED}:{kind}"


def status_test(key: str) -> tuple[Callable[[Task], Any], Callable[[Any], bool]]:
    """What the status filter's ``key`` chooses (a status, NEEDS_REVIEW, or one kind of
    failure, ``failed_key``) as a value each task gives and a test of that value: C-made
    callables where they can be, so the filter runs them over 100,000 rows with ``map``."""
    if key == NEEDS_REVIEW:
        return needs_review, bool
    kinds = frozenset(k for k in ErrorKind if failed_key(k) == key)
    if kinds:
        return attrgetter("failure_kind"), kinds.__contains__
    return attrgetter("status"), frozenset({key}).__contains__


Node = tuple[str | None, str | None]  # a category tree key: (None, None) is All


def in_node(task: Task, node: Node) -> bool:
    """Whether a task is under a category tree node (the table's filter, a check's choice)."""
    cat1, cat2 = node
    return cat1 is None or task.cat1 == cat1 and (cat2 is None or task.cat2 == cat2)


def kind_names() -> dict[ErrorKind, str]:
    """Each kind of failure as a short phrase in the window's language, for every view that
    names one (the table's tooltip and filter, the Failures view). Translated in the table's
    context, where the phrases were first written."""
    # each phrase written out in a translate() call, so pyside6-lupdate finds it
    return {
        ErrorKind.NETWORK: QCoreApplication.translate("TaskTableModel", "network"),
        ErrorKind.HTTP_4XX: QCoreApplication.translate("TaskTableModel", "HTTP 4xx"),
        ErrorKind.HTTP_5XX: QCoreApplication.translate("TaskTableModel", "HTTP 5xx"),
        ErrorKind.REDIRECT: QCoreApplication.translate("TaskTableModel", "redirect"),
        ErrorKind.BAD_URL: QCoreApplication.translate("TaskTableModel", "bad link"),
        ErrorKind.BLOCKED_ADDRESS: QCoreApplication.translate("TaskTableModel",
                                                              "blocked address"),
        ErrorKind.NOT_HTML: QCoreApplication.translate("TaskTableModel", "not HTML"),
        ErrorKind.TOO_LARGE: QCoreApplication.translate("TaskTableModel", "too large"),
        ErrorKind.INTERSTITIAL: QCoreApplication.translate("TaskTableModel", "anti-bot page"),
        ErrorKind.TRUNCATED: QCoreApplication.translate("TaskTableModel", "cut short"),
        ErrorKind.NO_ARTICLE: QCoreApplication.translate("TaskTableModel", "no article"),
        ErrorKind.NEEDS_JS: QCoreApplication.translate("TaskTableModel", "needs JavaScript"),
        ErrorKind.RULES: QCoreApplication.translate("TaskTableModel", "rules"),
        ErrorKind.INTERNAL: QCoreApplication.translate("TaskTableModel", "internal error"),
        ErrorKind.UNKNOWN: QCoreApplication.translate("TaskTableModel", "unknown"),
    }


def status_names() -> dict[str, str]:
    """Each status word in the window's language (the table, its filter, the report)."""
    return {
        Status.PENDING: QCoreApplication.translate("TaskTableModel", "pending"),
        Status.RUNNING: QCoreApplication.translate("TaskTableModel", "running"),
        Status.FETCHED: QCoreApplication.translate("TaskTableModel", "fetched"),
        Status.CLEANED: QCoreApplication.translate("TaskTableModel", "cleaned"),
        Status.LOCALIZED: QCoreApplication.translate("TaskTableModel", "localized"),
        Status.DONE: QCoreApplication.translate("TaskTableModel", "done"),
        Status.FAILED: QCoreApplication.translate("TaskTableModel", "failed"),
        Status.DUPLICATE: QCoreApplication.translate("TaskTableModel", "duplicate"),
    }


def _dot(colour: str) -> QIcon:
    pixmap = QPixmap(12, 12)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setBrush(QColor(colour))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawEllipse(1, 1, 10, 10)
    painter.end()
    return QIcon(pixmap)


class TaskTableModel(QAbstractTableModel):
    """Rows are tasks in the list's order (the order a book binds: ``Workspace.move``
    arranges it), always; columns are ``COLUMNS``. A column's order is given as row numbers
    (``sorted_rows``), which the filter shows the rows in."""

    edited = Signal(int)  # task id whose row a person changed

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        # takes an edit (task id, field, text): the workspace's ``edit``; None: read-only
        self.editor: Callable[[int, str, str], object] | None = None
        self._tasks: list[Task] = []
        # each row's task id, beside the tasks: keys are read by ints, not 100,000 records
        self._ids: list[int] = []
        self._row_index: dict[int, int] | None = {}  # task id → row; None: made when asked
        self._place: dict[int, int] = {}  # task id → its place in the list's order
        self._hosts: dict[int, str] = {}  # task id → host, for every row
        self._haystacks: list[str] = []  # each row's filter text (``haystack``), row by row
        self._tally: Counter[Facet] = Counter()  # the rows by facet
        self._host_count: Counter[str] = Counter()  # the rows by host
        self._keys: dict[str, dict[int, Any]] = {}  # column → task id → sort key, as made
        # the rows' order by (column, descending), as made since nothing changed
        self._orders: dict[SortedBy, list[int]] = {}
        self._icons: dict[str, QIcon] = {}
        self._status_names = {**status_names(), NEEDS_REVIEW: self.tr("needs review")}
        self._kind_names = kind_names()
        self._headers = {
            "status": self.tr("Status"), "id": self.tr("ID"), "kind": self.tr("Why"),
            "title": self.tr("Title"), "domain": self.tr("Domain"),
            "cat1": self.tr("Category"), "cat2": self.tr("Subcategory"),
            "date": self.tr("Fetched"), "chars": self.tr("Characters"),
            "images": self.tr("Images"), "error": self.tr("Error"),
        }

    # -- feeding -----------------------------------------------------------------------------

    def set_tasks(self, tasks: list[Task]) -> None:
        self.set_rows(prepare_rows(list(tasks)))

    def set_rows(self, rows: TaskRows) -> None:
        """A new list, made ready (``prepare_rows``): taken as it is, nothing walked again."""
        self.beginResetModel()
        self._tasks, self._ids = rows.tasks, rows.ids
        self._row_index = _rows_by_id(self._ids)
        self._place = dict(self._row_index)
        self._hosts, self._haystacks, self._tally = rows.hosts, rows.haystacks, rows.tally
        self._host_count = rows.host_count
        self._keys = {"title": rows.title_keys}
        self._orders = {}
        self.endResetModel()

    def _learn(self, task: Task) -> None:
        """A task arrived or changed: what it is found, counted and sorted by."""
        self._hosts[task.id] = host = sys.intern(host_of(task.url))
        self._host_count[host] += 1
        self._tally[facet(task)] += 1

    def _forget(self, task: Task) -> None:
        """A task left or is about to change: its counts taken back, its keys dropped."""
        _take_one(self._host_count, self._hosts.pop(task.id, ""))
        _take_one(self._tally, facet(task))
        for keys in self._keys.values():
            keys.pop(task.id, None)

    def _replace(self, row: int, task: Task) -> None:
        self._forget(self._tasks[row])
        self._tasks[row] = task
        self._haystacks[row] = haystack(task)
        self._learn(task)
        self._orders = {}
        self._repaint(row)

    def sync(self, tasks: Iterable[Task]) -> None:
        """Follow the list as the file now holds it: changed rows repainted, new ones added,
        gone ones removed; the selection and the scroll position stay, and the rows follow
        the list's order when they are shown in it."""
        listed = list(tasks)
        order = list(map(attrgetter("id"), listed))
        ids = set(order)  # the set operations below run in C
        gone = self._row_of.keys() - ids
        if gone:
            self.remove_tasks(gone)
        shown, rows = self._tasks, map(self._row_of.get, order)
        changed = [(row, task) for row, task in zip(rows, listed, strict=True)
                   if row is not None and shown[row] is not task and shown[row] != task]
        for row, task in changed:
            self._replace(row, task)
        new = ids - self._row_of.keys()
        if new:
            self.add_tasks(t for t in listed if t.id in new)
        self.follow_order(order)

    def follow_order(self, order: Iterable[int]) -> None:
        """The list's order now (ids, first to last): rows shown in it move to follow."""
        place = _rows_by_id(list(order))
        if place != self._place:
            self._place = place
            self._follow_place()

    def update_task(self, task: Task) -> None:
        """A fresher copy of a task: repaint its row."""
        row = self._row_of.get(task.id)
        if row is None:
            return  # removed meanwhile
        self._replace(row, task)

    def update_fields(self, task_id: int, changes: dict[str, Any]) -> Task | None:
        """Some fields of a task changed (the run's, as it reports them): repaint its row."""
        row = self._row_of.get(task_id)
        if row is None:
            return None
        self._replace(row, replace(self._tasks[row], **changes))
        return self._tasks[row]

    def _repaint(self, row: int) -> None:
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def add_tasks(self, tasks: Iterable[Task]) -> None:
        new = [t for t in tasks if t.id not in self._row_of]
        if not new:
            return
        first = len(self._tasks)
        self.beginInsertRows(QModelIndex(), first, first + len(new) - 1)
        for task in new:
            self._row_of[task.id] = len(self._tasks)
            self._tasks.append(task)
            self._ids.append(task.id)
            self._haystacks.append(haystack(task))
            self._learn(task)
        self._orders = {}
        self.endInsertRows()

    def remove_tasks(self, task_ids: Iterable[int]) -> None:
        """Drop rows (after the store dropped the tasks), one contiguous run at a time."""
        rows = sorted((self._row_of[i] for i in set(task_ids) if i in self._row_of),
                      reverse=True)
        while rows:
            last = first = rows.pop(0)
            while rows and rows[0] == first - 1:
                first = rows.pop(0)
            self.beginRemoveRows(QModelIndex(), first, last)
            for task in self._tasks[first:last + 1]:
                self._forget(task)
            del self._tasks[first:last + 1]
            del self._ids[first:last + 1]
            del self._haystacks[first:last + 1]
            self.endRemoveRows()
        self._orders = {}
        self._row_index = _rows_by_id(self._ids)

    def sorted_rows(self, column: int, descending: bool = False) -> list[int]:
        """Every row, in the order of ``column``'s keys (-1: the rows' own, the list's):
        a key per row (made once per task and column, kept until the task changes), the row
        numbers sorted by them in one C call, kept until a row changes (a view asks twice on
        a click; a person goes back to a column). No list of tasks is reordered: the keys
        are read in the rows' order, which is the order they were made in."""
        if column < 0:
            return list(range(len(self._ids)))
        order = self._orders.get((column, descending))
        if order is None:
            keys = self._row_keys(column)
            order = sorted(range(len(keys)), key=keys.__getitem__, reverse=descending)
            self._orders[(column, descending)] = order
        return order

    def _follow_place(self) -> None:
        """Reorder the rows to the list's order (``_place``; tasks not in it last, by id),
        the rows the view holds moved with their tasks."""
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        place, after = self._place, len(self._place)
        keys = [place.get(i, after + i) for i in self._ids]
        rows = sorted(range(len(keys)), key=keys.__getitem__)
        self._tasks = list(map(self._tasks.__getitem__, rows))
        self._ids = list(map(self._ids.__getitem__, rows))
        self._haystacks = list(map(self._haystacks.__getitem__, rows))
        self._row_index = None  # made again when a task is looked up by id
        self._orders = {}
        moved = (rows.index if len(persistent) <= HELD_FOUND_ONE_BY_ONE
                 else _rows_by_id(rows).__getitem__)
        self.changePersistentIndexList(
            persistent, [self.index(moved(i.row()), i.column()) for i in persistent])
        self.layoutChanged.emit()

    @property
    def _row_of(self) -> dict[int, int]:
        """Task id → row, made when first asked for after the rows were reordered."""
        if self._row_index is None:
            self._row_index = _rows_by_id(self._ids)
        return self._row_index

    def _row_keys(self, column: int) -> list[Any]:
        """Each row's sort key for a column, row by row. A column's keys are kept per task
        until it changes (``_forget``): made for the rows lacking one, then read by id, in
        the rows' order (reading 100,000 records or keys at random costs ten times more)."""
        ids = self._ids
        name = COLUMNS[column]
        if name == "id":
            return ids
        keys = self._keys.setdefault(name, {})
        if not keys:  # this column's first sort: every row's made, in the rows' order
            made = self._made_keys(name, self._tasks, ids)
            keys.update(zip(ids, made, strict=True))
            return made
        if len(keys) < len(ids):  # rows that came or changed since
            lacking = [row for row, task_id in enumerate(ids) if task_id not in keys]
            lacking_ids = list(map(ids.__getitem__, lacking))
            keys.update(zip(lacking_ids, self._made_keys(
                name, list(map(self._tasks.__getitem__, lacking)), lacking_ids), strict=True))
        return list(map(keys.__getitem__, ids))

    def _made_keys(self, name: str, tasks: list[Task], ids: list[int]) -> list[Any]:
        """The sort keys of column ``name`` for ``tasks`` (whose ids are ``ids``): a field's
        at C speed (``map`` and a key per distinct value), the worded columns' one task at a
        time."""
        if name == "domain":
            return _folded(list(map(self._hosts.__getitem__, ids)))
        if name == "status":
            statuses = list(map(attrgetter("status"), tasks))
            names = {s: self.status_name(s).casefold() for s in set(statuses)}
            return list(map(names.__getitem__, statuses))
        if name in ("cat1", "cat2"):
            return _folded(list(map(attrgetter(name), tasks)))
        if name == "date":
            return [stamp[:10] for stamp in map(attrgetter("fetched_at"), tasks)]
        if name in ("chars", "images"):
            field_name = "chars" if name == "chars" else "images_total"
            return [-1 if n is None else n for n in map(attrgetter(field_name), tasks)]
        if name == "title":
            return list(map(title_key, tasks))
        return [self._display(task, name).casefold() for task in tasks]

    # -- reading -----------------------------------------------------------------------------

    def task_at(self, row: int) -> Task:
        return self._tasks[row]

    def task(self, task_id: int) -> Task | None:
        row = self._row_of.get(task_id)
        return self._tasks[row] if row is not None else None

    def tasks(self) -> list[Task]:
        return list(self._tasks)

    def row_of(self, task_id: int) -> int | None:
        return self._row_of.get(task_id)

    def host(self, task: Task) -> str:
        host = self._hosts.get(task.id)
        return host if host is not None else host_of(task.url)

    def rows_containing(self, text: str, rows: Iterable[int]) -> list[int]:
        """Those of ``rows`` whose filter text (``haystack``, made when the task came) holds
        ``text`` (casefolded): a substring test per row, nothing else."""
        haystacks = self._haystacks
        return [r for r in rows if text in haystacks[r]]

    def rows_on_hosts(self, hosts: frozenset[str], rows: Iterable[int]) -> list[int]:
        """Those of ``rows`` whose task's host is one of ``hosts``, at C speed."""
        rows = list(rows)
        on = map(hosts.__contains__, map(self._hosts.__getitem__, map(self._ids.__getitem__, rows)))
        return list(compress(rows, on))

    def categories(self) -> list[str]:
        return sorted({c for cat1, cat2, _s, _k in self._tally for c in (cat1, cat2) if c})

    def hosts(self) -> list[str]:
        return sorted(self._host_count)

    def node_counts(self) -> Counter[tuple[str, str, str]]:
        """The rows by (cat1, cat2, status): what the category tree shows, from the tally."""
        counts: Counter[tuple[str, str, str]] = Counter()
        for (cat1, cat2, status, _kind), n in self._tally.items():
            counts[(cat1, cat2, status)] += n
        return counts

    def status_counts(self) -> Counter[str]:
        counts: Counter[str] = Counter()
        for (_cat1, _cat2, status, _kind), n in self._tally.items():
            counts[status] += n
        return counts

    def status_name(self, status: str) -> str:
        return self._status_names.get(status, status)

    def failure_name(self, kind: ErrorKind) -> str:
        """"failed: network", in the window's language."""
        return self.tr("failed: %1").replace("%1", self._kind_names[kind])

    def status_choices(self) -> list[tuple[str, str]]:
        """The status filter's (label, key) choices: every status, "needs review", then each
        kind of failure the list holds, so one group of failures can be looked at alone."""
        held = {kind for _cat1, _cat2, _status, kind in self._tally}
        return ([(self.status_name(s), s) for s in (*STATUSES, NEEDS_REVIEW)]
                + [(self.failure_name(k), failed_key(k)) for k in ErrorKind if k in held])

    # -- Qt model ----------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._tasks)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if 0 <= section < len(COLUMNS):
                return self._headers[COLUMNS[section]]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = (Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                 | Qt.ItemFlag.ItemIsDragEnabled)
        if COLUMNS[index.column()] in EDITABLE and self.editor is not None:  # none: read-only
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def mimeTypes(self) -> list[str]:
        return [TASK_IDS_MIME]

    def mimeData(self, indexes: Iterable[QModelIndex]) -> QMimeData:
        """The dragged rows' task ids (a view passes one index per selected cell)."""
        return task_ids_mime(self._tasks[i.row()].id for i in indexes
                             if i.isValid() and 0 <= i.row() < len(self._tasks))

    def supportedDragActions(self) -> Qt.DropAction:
        # Copy, never Move: after a Move the dragging view would remove the rows itself. A drop
        # only asks the workspace for an edit; the rows follow from there.
        return Qt.DropAction.CopyAction

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._tasks):
            return None
        task = self._tasks[index.row()]
        column = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(task, column)
        if role == Qt.ItemDataRole.EditRole:
            return getattr(task, column) if column in EDITABLE else self._display(task, column)
        if role == TaskRole:
            return task
        if column == "status":
            return self._status_data(task, role)
        if column == "kind" and role == Qt.ItemDataRole.ToolTipRole and needs_review(task):
            return self._status_data(task, role)  # the whole sentence
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == "title":
                return task.url
            if column == "error" and task.error:
                # the reason in the window's language, then as tasks.csv holds it
                shown = task_reason(task)
                return shown if shown == task.error else f"{shown}\n\n{task.error}"
        return None

    def _display(self, task: Task, column: str) -> str:
        if column == "status":
            return self.status_name(task.status)
        if column == "kind":
            if task.failure_kind is not None:
                return self._kind_names[task.failure_kind]
            if needs_review(task):
                return review_reason(task)
            if task.status == Status.DUPLICATE and task.duplicate_of is not None:
                return self.tr("duplicate of #%1").replace("%1", str(task.duplicate_of))
            return ""
        if column == "error":
            return task_reason(task) if task.error else ""
        if column == "title":
            return task.display_title
        if column == "domain":
            return self.host(task)
        if column == "date":
            return task.fetched_at[:10]
        if column == "chars":
            return "" if task.chars is None else f"{task.chars:,}"
        if column == "images":
            if task.images_total is None:
                return ""
            return f"{task.images_ok if task.images_ok is not None else '–'}/{task.images_total}"
        return str(getattr(task, column))

    def _status_data(self, task: Task, role: int) -> Any:
        key = NEEDS_REVIEW if needs_review(task) else task.status
        if role == Qt.ItemDataRole.DecorationRole:
            icon = self._icons.get(key)
            if icon is None:
                icon = self._icons[key] = _dot(STATUS_COLOURS.get(key, "#9e9e9e"))
            return icon
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor(STATUS_COLOURS.get(key, "#9e9e9e")).darker(130))
        if role == Qt.ItemDataRole.ToolTipRole and key == NEEDS_REVIEW:
            return self.tr("Needs review: extraction confidence %1").replace(
                "%1", f"{task.confidence:.2f}")
        if role == Qt.ItemDataRole.ToolTipRole and task.failure_kind is not None:
            return self.failure_name(task.failure_kind)
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if (role != Qt.ItemDataRole.EditRole or not index.isValid() or self.editor is None
                or COLUMNS[index.column()] not in EDITABLE):
            return False
        task = self._tasks[index.row()]
        column = COLUMNS[index.column()]
        text = str(value).strip()
        if getattr(task, column) == text:
            return False
        self.editor(task.id, column, text)
        self.update_fields(task.id, {column: text})
        self.edited.emit(task.id)
        return True
