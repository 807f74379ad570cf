"""The task list, tasks.csv: what the archive holds, in a file a person can edit in Excel.

One ``TaskStore`` owns the file. Status changes are kept in memory and written in batches
(``save_if_due``) because a full rewrite per change would write gigabytes at 100,000 tasks;
the archive's stage outputs are the truth, so ``reconcile`` restores any status a kill lost.
"""

from __future__ import annotations

import csv
import io
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from pipeline.archive import utc_now, write_atomic
from pipeline.errors import TaskFileError
from pipeline.urls import UrlRejected, normalize_url

# The pipeline's order; "running" marks a task a worker has taken (reclaimed after a crash).
PROGRESS = ("pending", "fetched", "cleaned", "localized", "done")
STATUSES = (*PROGRESS, "running", "failed", "duplicate")


@dataclass
class Task:
    id: int
    url: str
    original_url: str = ""
    title: str = ""  # the title a person expects; wins over the extracted one
    extracted_title: str = ""
    cat1: str = ""
    cat2: str = ""
    status: str = "pending"
    attempts: int = 0
    error: str = ""
    duplicate_of: int | None = None
    added_at: str = ""
    fetched_at: str = ""
    updated_at: str = ""
    content_hash: str = ""
    simhash: str = ""
    chars: int | None = None
    images_total: int | None = None
    images_ok: int | None = None
    confidence: float | None = None
    extra: dict[str, str] = field(default_factory=dict)  # columns a person added

    @property
    def display_title(self) -> str:
        return self.title or self.extracted_title or self.url


COLUMNS = tuple(f.name for f in fields(Task) if f.name != "extra")


def _int_or_none(raw: str) -> int | None:
    return int(raw) if raw else None


def _parser(name: str) -> Callable[[str], object]:
    """How one column's stripped cell text becomes a Task field."""
    if name == "attempts":
        return lambda raw: int(raw) if raw else 0
    if name in ("id", "duplicate_of", "chars", "images_total", "images_ok"):
        return _int_or_none
    if name == "confidence":
        return lambda raw: float(raw) if raw else None
    return str


def _parses(parse: Callable[[str], object], raw: str) -> bool:
    try:
        parse(raw)
    except ValueError:
        return False
    return True


def _format_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return str(round(value, 3))
    return str(value)


class TaskStore:
    """Thread-safe owner of tasks.csv."""

    def __init__(self, path: Path, flush_seconds: float = 1.0) -> None:
        self.path = Path(path)
        self.flush_seconds = flush_seconds
        self._lock = threading.RLock()
        self._save_lock = threading.Lock()
        self._tasks: dict[int, Task] = {}
        self._by_url: dict[str, int] = {}
        self._max_id = 0
        self._columns: list[str] = list(COLUMNS)
        self._dirty = False
        self._last_save: float | None = None
        self._save_cost = 0.0  # seconds the last save took
        self._load()

    # -- reading -----------------------------------------------------------------------------

    def _load(self) -> None:
        for stale in self.path.parent.glob(f".{self.path.name}.*.tmp"):
            stale.unlink(missing_ok=True)  # a write that a kill interrupted
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            # Excel on Chinese Windows saves "CSV" in GBK; GB18030 is its superset
            text = data.decode("gb18030")
            self._dirty = True
        reader = csv.reader(io.StringIO(text, newline=""))
        header = next(reader, None)
        if header is None:
            return
        header = [h.strip() for h in header]
        if "url" not in header:
            raise TaskFileError(f"{self.path}, line 1: no 'url' column in the header")
        self._columns = header + [c for c in COLUMNS if c not in header]
        self._read_rows(reader, header)

    def _read_rows(self, reader: Iterator[list[str]], header: list[str]) -> None:
        """Rows to tasks. Column parsers are looked up once: 100,000 rows load in about a second."""
        width = len(header)
        known = [(i, name, _parser(name)) for i, name in enumerate(header) if name in COLUMNS]
        extra = [(i, name) for i, name in enumerate(header) if name not in COLUMNS]
        id_at = header.index("id") if "id" in header else None
        typed_in: list[tuple[int, list[str]]] = []
        for row in reader:
            line = reader.line_num  # type: ignore[attr-defined]
            if len(row) != width:
                if len(row) > width:
                    raise TaskFileError(
                        f"{self.path}, line {line}: {len(row)} cells but the header has {width}"
                        " (a comma inside a cell needs quotes)"
                    )
                row += [""] * (width - len(row))
            if not "".join(row).strip():
                continue
            if id_at is None or not row[id_at].strip():
                typed_in.append((line, row))
            else:
                self._put(self._task_from_row(row, line, known, extra))
        for line, row in typed_in:  # rows a person added: they get ids after the rest
            self._adopt_row(row, line, known, extra)

    def _task_from_row(self, row: list[str], line: int,
                       known: list[tuple[int, str, Callable[[str], object]]],
                       extra: list[tuple[int, str]], task_id: int | None = None) -> Task:
        try:
            values = {name: row[i].strip() if parse is str else parse(row[i].strip())
                      for i, name, parse in known}
        except ValueError:
            i, name = next((i, name) for i, name, parse in known
                           if not _parses(parse, row[i].strip()))
            raise TaskFileError(
                f"{self.path}, line {line}: column {name!r} must be a number, not {row[i]!r}"
            ) from None
        if task_id is not None:
            values["id"] = task_id
        status = values.get("status") or "pending"
        if status not in STATUSES:
            raise TaskFileError(
                f"{self.path}, line {line}: unknown status {status!r}"
                f" (one of: {', '.join(STATUSES)})"
            )
        values["status"] = status
        if values["id"] in self._tasks:
            raise TaskFileError(f"{self.path}, line {line}: id {values['id']} appears twice")
        return Task(**values, extra={name: row[i] for i, name in extra})  # type: ignore[arg-type]

    def _adopt_row(self, row: list[str], line: int,
                   known: list[tuple[int, str, Callable[[str], object]]],
                   extra: list[tuple[int, str]]) -> None:
        """A row typed in by a person (no id): give it an id and a normalized URL."""
        task = self._task_from_row(row, line, known, extra, task_id=self._next_id())
        task.original_url = task.original_url or task.url
        task.added_at = task.added_at or utc_now()
        try:
            task.url = normalize_url(task.url)
        except UrlRejected as e:
            task.status, task.error = "failed", str(e)
        if task.status != "failed" and task.url in self._by_url:
            task.status, task.duplicate_of = "duplicate", self._by_url[task.url]
        self._put(task)
        self._dirty = True

    def _put(self, task: Task) -> None:
        self._tasks[task.id] = task
        self._max_id = max(self._max_id, task.id)
        if task.status != "duplicate":
            self._by_url.setdefault(task.url, task.id)

    def _next_id(self) -> int:
        return self._max_id + 1

    def __len__(self) -> int:
        with self._lock:
            return len(self._tasks)

    def get(self, task_id: int) -> Task:
        with self._lock:
            return replace(self._tasks[task_id], extra=dict(self._tasks[task_id].extra))

    def tasks(self) -> list[Task]:
        """A snapshot: copies, in id order, safe to read while workers update the store."""
        with self._lock:
            return [replace(t, extra=dict(t.extra)) for t in sorted(self._tasks.values(),
                                                                    key=lambda t: t.id)]

    def find_url(self, url: str) -> int | None:
        """The id of the task holding this normalized URL."""
        with self._lock:
            return self._by_url.get(url)

    @property
    def columns(self) -> list[str]:
        return list(self._columns)

    # -- changing ----------------------------------------------------------------------------

    def add(self, url: str, original_url: str = "", cat1: str = "", cat2: str = "",
            title: str = "") -> Task:
        """A new pending task for a normalized URL that the store does not hold yet."""
        with self._lock:
            if url in self._by_url:
                raise ValueError(f"already in the task list as #{self._by_url[url]}: {url}")
            now = utc_now()
            task = Task(id=self._next_id(), url=url, original_url=original_url or url,
                        title=title, cat1=cat1, cat2=cat2, added_at=now, updated_at=now)
            self._put(task)
            self._dirty = True
            return replace(task)

    def update(self, task_id: int, **changes: object) -> Task:
        """Change fields of one task; the change reaches tasks.csv with the next save."""
        bad = set(changes) - set(COLUMNS) - {"extra"}
        if bad or "id" in changes or "url" in changes:
            refused = sorted(bad | ({"id", "url"} & set(changes)))
            raise ValueError(f"cannot set {', '.join(refused)}")
        if "status" in changes and changes["status"] not in STATUSES:
            raise ValueError(f"unknown status {changes['status']!r}")
        with self._lock:
            task = self._tasks[task_id]
            for name, value in changes.items():
                setattr(task, name, value)
            task.updated_at = utc_now()
            self._dirty = True
            return replace(task, extra=dict(task.extra))

    def mutate(self, task_id: int, change: Callable[[Task], None]) -> Task:
        """Read-modify-write one task under the store's lock (e.g. ``attempts += 1``)."""
        with self._lock:
            task = self._tasks[task_id]
            change(task)
            task.updated_at = utc_now()
            self._dirty = True
            return replace(task, extra=dict(task.extra))

    def remove(self, task_ids: Iterable[int]) -> None:
        with self._lock:
            for task_id in task_ids:
                task = self._tasks.pop(task_id)
                if self._by_url.get(task.url) == task_id:
                    del self._by_url[task.url]
            self._dirty = True

    def reconcile(self, stage_reached: Callable[[int], str]) -> int:
        """Make statuses agree with the archive after a crash or a hand edit.

        ``stage_reached(id)`` names the furthest stage whose output exists ("pending" when
        none). A "running" task goes back to that stage; a progress status ahead of or behind
        the outputs is moved to match. Failed and duplicate tasks are left as they are.
        Returns how many tasks changed.
        """
        changed = 0
        with self._lock:
            for task in self._tasks.values():
                if task.status in ("failed", "duplicate"):
                    continue
                reached = stage_reached(task.id)
                if task.status == "done" and reached == "localized":
                    continue  # "done" (bound into a book) leaves no output of its own
                if task.status != reached:
                    task.status = reached
                    changed += 1
            if changed:
                self._dirty = True
        return changed

    # -- writing -----------------------------------------------------------------------------

    def save(self) -> None:
        """Write tasks.csv now (temp file, fsync, rename): old or new, never torn."""
        with self._save_lock:
            started = time.monotonic()
            with self._lock:
                rows = [self._row(t) for t in sorted(self._tasks.values(), key=lambda t: t.id)]
                columns = list(self._columns)
                self._dirty = False
            buf = io.StringIO(newline="")
            writer = csv.writer(buf, lineterminator="\r\n")
            writer.writerow(columns)
            for row in rows:
                writer.writerow([row.get(c, "") for c in columns])
            write_atomic(self.path, buf.getvalue().encode("utf-8-sig"))
            self._last_save = time.monotonic()
            self._save_cost = self._last_save - started

    @property
    def save_interval(self) -> float:
        """Seconds between batched saves: ``flush_seconds``, or ten times the last save."""
        return max(self.flush_seconds, 10 * self._save_cost)

    def save_if_due(self) -> bool:
        """Save when there are changes and the last save is older than ``save_interval``: a list
        so long that a save takes a while is rewritten at most a tenth of the time."""
        if self._dirty and (self._last_save is None
                            or time.monotonic() - self._last_save >= self.save_interval):
            self.save()
            return True
        return False

    @staticmethod
    def _row(task: Task) -> dict[str, str]:
        row = {name: _format_cell(getattr(task, name)) for name in COLUMNS}
        row.update(task.extra)
        return row
