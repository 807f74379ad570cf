"""The archive folder: its layout (seed 003 §3, "分层") and the one way files are written.

``00_raw`` is never rewritten: a refetch whose bytes changed moves the old pair to
``00_raw/history/<id>/``. Every write goes to a temp file in the same folder, is fsynced and
then renamed over the target, so a kill at any moment leaves the old file or the new one.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from pipeline.records.article import Article
from pipeline.records.errors import DiskFull, KuaibuError
from pipeline.records.places import SEED_RULES
from pipeline.store.asset_map import AssetMap
from pipeline.store.default_archive import DEFAULT_ARCHIVE as DEFAULT_ARCHIVE  # the window's
from pipeline.store.plain_pickle import dump_plain, load_plain

if sys.platform == "win32":
    import msvcrt

    def _lock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
else:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


class ArchiveBusy(KuaibuError):
    """Another run holds the archive (or another writer its task list, for too long)."""


@contextmanager
def file_lock(path: Path, wait: float, busy: str) -> Iterator[None]:
    """Hold an OS lock on ``path`` (made if missing), waiting up to ``wait`` seconds for it;
    ``busy`` is the ArchiveBusy message when it stays taken. The kernel releases the lock
    when its process dies, kill -9 too, so a crash never leaves the archive locked. The lock
    is per open file, so two threads of one process exclude each other as processes do."""
    with open(path, "a+b") as handle:
        deadline = time.monotonic() + wait
        while True:
            try:
                _lock(handle.fileno())
                break
            except OSError:
                if time.monotonic() >= deadline:
                    raise ArchiveBusy(busy) from None
                time.sleep(0.01)
        yield


# An archive with fewer records lists its folders and reads its records in a blink: it is
# left without the notes kept beside them (the stage listing, the record URLs).
NOTED_FROM_RECORDS = 1_000
STAGE_LISTING = ".stage_listing"
# A folder changed this recently may change again within its clock's tick unseen (git's
# "racy" index entries): its listing is not noted.
SETTLED_SECONDS = 2.0
# 00_raw's and 01_clean's inode and mtime: a folder's mtime moves with every name made,
# renamed or removed in it
FolderKeys = tuple[tuple[int, int], tuple[int, int]]

# The archive's own record: its name, and the highest task id it has ever given (so an id a
# deleted row, an emptied trash or an emptied list once held is never given to another page).
ARCHIVE_FILE = "archive.json"
HIGHEST_ID = "highest_id"
RECORD_LOCK_WAIT_SECONDS = 60.0
# Names in the stage folders that are keyed by a task id: 00_raw/12.json, 01_clean/12.assets.json
_ID_NAME = re.compile(r"(\d{1,15})(?:\.|$)")  # 15 digits: below 2**53
# A raw record starts with the URL it was fetched for (``stages._store`` writes it first);
# 16 KB hold the longest URL a task may have, percent-encoded, with room to spare.
_RECORD_HEAD = 16_384
_RECORD_URL = re.compile(rb'\A\{\s*"url"\s*:\s*')
_JSON = json.JSONDecoder()


def _leading_url(head: bytes) -> str | None:
    """The "url" a raw record starts with, read from its first bytes; None when it does not
    start with one, or the URL runs past them."""
    m = _RECORD_URL.match(head)
    if m is None:
        return None
    try:
        url, _ = _JSON.raw_decode(head.decode("utf-8", "replace"), m.end())
    except ValueError:
        return None
    return url if isinstance(url, str) else None


@dataclass(frozen=True)
class StageListing:
    """What one directory read of 00_raw and one of 01_clean found: the records by task id
    with each one's inode (a record is only ever replaced by a rename, so another inode is
    another record), the ids cleaned (``<id>.json``) and localized (``<id>.assets.json``),
    and the temp files of writes a kill interrupted. The folders as they were: true while no
    run writes them (the run lock held). ``settled``: the folders' inode and mtime it was
    taken under when no change can hide in their clock's tick (left alone ``SETTLED_SECONDS``,
    no killed write's temp file), so a later look at the same keys sees the same folders;
    None otherwise."""

    records: dict[int, int]
    cleaned: set[int]
    localized: set[int]
    unfinished: list[Path]
    settled: FolderKeys | None = None


def _scan(folder: Path, suffix: str) -> tuple[dict[int, int], list[str]]:
    """The ``<id><suffix>`` files of a folder by id with their inodes (free on POSIX: the
    directory entry holds it), and every name in it."""
    cut = -len(suffix)
    try:
        with os.scandir(folder) as scan:
            entries = list(scan)
    except FileNotFoundError:
        return {}, []
    names = [entry.name for entry in entries]
    ids = {int(name[:cut]): entry.inode() for name, entry in zip(names, entries, strict=True)
           if name.endswith(suffix) and name[:cut].isdigit() and len(name) <= 15 - cut}
    return ids, names


def write_atomic(path: Path, data: bytes, *, readonly: bool = False) -> os.stat_result:
    """Write ``data`` to ``path`` so that readers see the old file or the new, never a torn one.
    A full disk is DiskFull naming the file (the OS error names none). Returns the written
    file's stat, taken before it is put in place: a stat of ``path`` after could already be
    another writer's file (one that takes no lock, as Excel does)."""
    try:
        return _write_atomic(path, data, readonly)
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            where = Path(path.parent.name, path.name)
            raise DiskFull(f"disk full writing {where} (in {path.parent.parent})") from None
        raise


def _write_atomic(path: Path, data: bytes, readonly: bool) -> os.stat_result:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp makes 0600; an archive file is as readable as any other the user makes
        os.chmod(tmp, 0o444 if readonly else 0o644)
        written = os.stat(tmp)  # a rename keeps the inode, size and mtime
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)
    return written


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # Windows cannot open a directory; its rename is durable enough
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def utc_now() -> str:
    """A timestamp for records and file names: ISO 8601, UTC, whole seconds."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class Archive:
    """Paths of one archive folder. ``Archive.open`` creates the layout on first use."""

    root: Path
    # where books are bound: 03_output, unless ``with_output`` chose another folder
    output: Path | None = None

    @classmethod
    def open(cls, root: Path, name: str | None = None) -> Archive:
        """The archive at ``root``, its folders made when missing. A new archive records its
        name (``name``, else the folder's) in archive.json: the books' default title, which
        stays when the folder is moved or renamed."""
        archive = cls(Path(root).resolve())
        new = not archive.raw_dir.exists()
        for folder in (archive.raw_dir, archive.clean_dir, archive.assets_dir,
                       archive.output_dir, archive.logs_dir):
            folder.mkdir(parents=True, exist_ok=True)
        if not archive.rules_path.exists() and SEED_RULES.exists():
            shutil.copyfile(SEED_RULES, archive.rules_path)
        if (new or name) and not (archive.root / ARCHIVE_FILE).exists():
            archive.set_name(name or archive.root.name)
        return archive

    @property
    def writable(self) -> bool:
        """Whether this process may write in the folder (not a read-only mount, a disc or
        another user's folder): a read-only archive is opened for reading only."""
        return os.access(self.root, os.W_OK | os.X_OK)

    @property
    def name(self) -> str:
        """The archive's name as the person set it (archive.json), else its folder's."""
        try:
            data = self._record()
        except KuaibuError:
            return self.root.name
        value = data.get("name")
        return value.strip() if isinstance(value, str) and value.strip() else self.root.name

    def set_name(self, name: str) -> None:
        self._change_record(lambda record: record.update(name=name.strip()))

    def _record(self) -> dict[str, object]:
        """archive.json as a mapping ({} when missing); one that does not parse is an error
        naming the file, and is never written over (``_change_record`` reads it first)."""
        path = self.root / ARCHIVE_FILE
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError:
            return {}
        except ValueError as e:
            raise KuaibuError(f"{path} is not readable JSON ({e}); fix it, or move it away"
                              " (it holds the archive's name and the highest task id given)"
                              ) from None
        if not isinstance(data, dict):
            raise KuaibuError(f"{path} holds no JSON object; fix it, or move it away")
        return data

    def _change_record(self, change: Callable[[dict[str, object]], object]) -> None:
        """Read archive.json, change it and replace it under its lock: two writers (a run's
        save and the window's add) never lose each other's keys."""
        path = self.root / ARCHIVE_FILE
        with file_lock(path.with_name(f".{ARCHIVE_FILE}.lock"), RECORD_LOCK_WAIT_SECONDS,
                       f"{path} is being saved by another writer; try again"):
            record = self._record()
            before = dict(record)
            change(record)
            if record != before or not path.exists():
                write_atomic(path, json.dumps(record, ensure_ascii=False, indent=1)
                             .encode("utf-8"))

    def highest_id(self) -> int:
        """The highest task id this archive has ever held: archive.json's mark, or an id
        its stage folders hold (00_raw, its history, 01_clean) when higher, as in an archive
        older than the mark. A new task's id is above it (``TaskStore``)."""
        mark = self._record().get(HIGHEST_ID, 0)
        if not isinstance(mark, int) or isinstance(mark, bool) or mark < 0:
            raise KuaibuError(f"{self.root / ARCHIVE_FILE}: {HIGHEST_ID} must be a whole number"
                              f" of 0 or more, not {str(mark)[:40]!r}")
        return max(mark, *(self.ids_on_disk() or {0}))

    def record_highest_id(self, top: int) -> None:
        """Raise archive.json's mark to ``top`` (never lower it)."""
        def raise_mark(record: dict[str, object]) -> None:
            mark = record.get(HIGHEST_ID)
            if not isinstance(mark, int) or mark < top:
                record[HIGHEST_ID] = top

        self._change_record(raise_mark)

    def ids_on_disk(self) -> set[int]:
        """Every task id that names a file in 00_raw (and a folder in its history) or in
        01_clean: one listing per folder, no file opened."""
        ids: set[int] = set()
        for folder in (self.raw_dir, self.raw_dir / "history", self.clean_dir):
            try:
                names = os.listdir(folder)
            except FileNotFoundError:
                continue
            ids.update(int(m.group(1)) for name in names if (m := _ID_NAME.match(name)))
        return ids

    def record_ids(self) -> set[int]:
        """The ids of the tasks whose page 00_raw holds (a record beside it): what
        ``recover`` rebuilds the list from and a truncated list is measured against."""
        try:
            names = os.listdir(self.raw_dir)
        except FileNotFoundError:
            return set()
        return {int(name[:-5]) for name in names
                if name.endswith(".json") and name[:-5].isdigit() and len(name) <= 20}

    def captured(self, task_id: int) -> bool:
        """Whether a task's stored page came from the person's browser (its record's
        "capture", written by ``stages.store_capture``), not from a fetch."""
        try:
            record = json.loads(self.raw_meta(task_id).read_bytes())
        except (OSError, ValueError):
            return False
        return isinstance(record, dict) and bool(record.get("capture"))

    def fetched_url(self, task_id: int) -> str | None:
        """The URL the stored page of a task was fetched for (its record's "url"); None
        when there is no record, or it names none it can be read from. Read from the first
        bytes, where ``stages`` writes it: judging 100,000 tasks costs a stat, not a parse."""
        path = os.path.join(self.root, "00_raw", f"{task_id}.json")  # as raw_meta, no Path
        try:
            fd = os.open(path, os.O_RDONLY)  # no buffered file object: this runs per task
            try:
                head = os.read(fd, _RECORD_HEAD)
            finally:
                os.close(fd)
            url = _leading_url(head)
            if url is None:  # written otherwise, or a URL longer than the head
                url = json.loads(self.raw_meta(task_id).read_bytes()).get("url")
        except (OSError, ValueError, AttributeError):  # none, or not a record: no URL known
            return None
        return url if isinstance(url, str) else None

    def set_aside(self, task_id: int) -> None:
        """Move what the archive holds under a task id for another page (a record naming
        another URL) to 00_raw/history/<id>/, kept, never deleted: the raw page, its DOM and
        record, the article and its image map. The id's task then counts as not fetched."""
        history = self.raw_dir / "history" / str(task_id)
        stamp = utc_now().replace(":", "")
        moves = ((self.raw_meta(task_id), "json"), (self.raw_html(task_id), "html"),
                 (self.raw_rendered(task_id), "rendered.html"),
                 (self.assets_map(task_id), "clean.assets.json"),
                 (self.clean_meta(task_id), "clean.json"),
                 (self.clean_html(task_id), "clean.html"))
        for source, suffix in moves:  # the record first: without it the rest is not a stage
            if source.exists():
                history.mkdir(parents=True, exist_ok=True)
                os.replace(source, history / f"{stamp}.{suffix}")
        self.note_changed([task_id])

    @property
    def raw_dir(self) -> Path:
        return self.root / "00_raw"

    @property
    def clean_dir(self) -> Path:
        return self.root / "01_clean"

    @property
    def assets_dir(self) -> Path:
        return self.root / "02_assets"

    @property
    def output_dir(self) -> Path:
        return self.output if self.output is not None else self.root / "03_output"

    def with_output(self, folder: Path) -> Archive:
        """This archive with its books bound into ``folder`` (``build --out``): the books of
        a read-only archive, or a copy bound elsewhere. The folder is made when missing."""
        out = Path(folder).resolve()
        out.mkdir(parents=True, exist_ok=True)
        return replace(self, output=out)

    @property
    def logs_dir(self) -> Path:
        return self.root / "04_logs"

    @property
    def tasks_path(self) -> Path:
        return self.root / "tasks.csv"

    @property
    def rules_path(self) -> Path:
        return self.root / "rules.yaml"

    @property
    def decisions_path(self) -> Path:
        """A person's near-duplicate decisions (pipeline.store.duplicates)."""
        return self.root / "duplicates.csv"

    @property
    def paste_draft_path(self) -> Path:
        """The window's paste area as it was last left, links not yet added
        (``pipeline.usecases.paste_draft``)."""
        return self.root / "paste-draft.txt"

    def raw_html(self, task_id: int) -> Path:
        return self.raw_dir / f"{task_id}.html"

    def raw_meta(self, task_id: int) -> Path:
        return self.raw_dir / f"{task_id}.json"

    def raw_rendered(self, task_id: int) -> Path:
        """00_raw/<id>.rendered.html: the page's DOM after the browser ran its scripts (UTF-8),
        beside the bytes the server sent, so cleaning it again never needs the browser."""
        return self.raw_dir / f"{task_id}.rendered.html"

    def clean_html(self, task_id: int) -> Path:
        return self.clean_dir / f"{task_id}.html"

    def clean_meta(self, task_id: int) -> Path:
        return self.clean_dir / f"{task_id}.json"

    def read_article(self, task_id: int) -> Article | None:
        """The clean stage's Article for a task (01_clean/<id>.json); None before the stage
        ran, or when the file is damaged (the book skips it, a run cleans it again)."""
        try:
            return Article.from_json(self.clean_meta(task_id).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def read_assets(self, task_id: int) -> AssetMap | None:
        """The localize stage's image map for a task; None before the stage ran, or when the
        file is damaged (every image then counts as missing)."""
        try:
            return AssetMap.from_json(self.assets_map(task_id).read_text(encoding="utf-8"))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def assets_map(self, task_id: int) -> Path:
        """01_clean/<id>.assets.json: each image URL of the article → its local file or error.

        Written last by the localize stage; its presence means "localized". The clean JSON
        beside it keeps the extracted article with its original image URLs, untouched.
        """
        return self.clean_dir / f"{task_id}.assets.json"

    def asset_path(self, sha256: str, ext: str) -> Path:
        """Content-addressed: 02_assets/<sha256[:2]>/<sha256>.<ext>; never a name from a URL."""
        if not re.fullmatch(r"[0-9a-f]{64}", sha256) or not re.fullmatch(r"[a-z0-9]{2,5}", ext):
            raise ValueError(f"not a content address: {sha256!r}.{ext!r}")
        return self.assets_dir / sha256[:2] / f"{sha256}.{ext}"

    def has_raw(self, task_id: int) -> bool:
        # the .json is written last: it is the proof that the pair is complete
        return self.raw_meta(task_id).exists()

    def has_clean(self, task_id: int) -> bool:
        return self.clean_meta(task_id).exists()

    def has_assets(self, task_id: int) -> bool:
        return self.assets_map(task_id).exists()

    def store_raw(self, task_id: int, body: bytes, meta_json: str,
                  rendered: bytes | None = None, *, new_record: bool = False) -> bool:
        """Keep a fetched page (and its rendered DOM, when the browser made one); False when
        the same bytes are already stored, the rendered DOM included, unless ``new_record``
        (the record says something the stored one does not: a capture's other selection).

        An existing set with other bytes goes to history, untouched (seed 003 §3.5). The
        record is written last: it is the proof that the page and its DOM are complete, and a
        rendered file left from an earlier fetch never outlives a record that does not name it.
        """
        html_path, meta_path = self.raw_html(task_id), self.raw_meta(task_id)
        rendered_path = self.raw_rendered(task_id)
        if html_path.exists() and meta_path.exists():
            old_rendered = rendered_path.read_bytes() if rendered_path.exists() else None
            if (not new_record and html_path.read_bytes() == body
                    and old_rendered == rendered):
                return False
            history = self.raw_dir / "history" / str(task_id)
            history.mkdir(parents=True, exist_ok=True)
            stamp = utc_now().replace(":", "")
            os.replace(meta_path, history / f"{stamp}.json")
            os.replace(html_path, history / f"{stamp}.html")
            if old_rendered is not None:
                os.replace(rendered_path, history / f"{stamp}.rendered.html")
        write_atomic(html_path, body, readonly=True)
        if rendered is not None:
            write_atomic(rendered_path, rendered, readonly=True)
        elif rendered_path.exists():  # from a fetch whose record never got written
            rendered_path.chmod(0o644)
            rendered_path.unlink()
        write_atomic(meta_path, meta_json.encode("utf-8"), readonly=True)
        return True

    def stage_listing(self) -> StageListing:
        """One look at 00_raw and at 01_clean (see ``StageListing``): no file opened or
        stat'ed, 100,000 tasks' outputs in two directory reads — or none, when neither folder
        changed since a listing was noted (``.stage_listing``: a folder's mtime moves with
        every name made, renamed or removed in it; noted only for an archive of
        ``NOTED_FROM_RECORDS`` records, folders left alone ``SETTLED_SECONDS``, no temp file
        of a killed write in them)."""
        keys = self.folder_keys()
        noted = self._noted_listing(keys)
        if noted is not None:
            return noted
        started = time.time_ns()
        raw, raw_names = _scan(self.raw_dir, ".json")
        try:
            clean = os.listdir(self.clean_dir)
        except FileNotFoundError:
            clean = []
        cleaned = {int(name[:-5]) for name in clean
                   if name.endswith(".json") and name[:-5].isdigit() and len(name) <= 20}
        localized = {int(name[:-12]) for name in clean
                     if name.endswith(".assets.json") and name[:-12].isdigit()
                     and len(name) <= 27}
        unfinished = [folder / name for folder, names in ((self.raw_dir, raw_names),
                                                          (self.clean_dir, clean))
                      for name in names if name.startswith(".") and name.endswith(".tmp")]
        settled = started - int(SETTLED_SECONDS * 1e9)
        if keys is not None and (unfinished or any(mtime >= settled for _, mtime in keys)):
            keys = None
        listing = StageListing(raw, cleaned, localized, unfinished, keys)
        if keys is not None and len(raw) >= NOTED_FROM_RECORDS:
            try:
                write_atomic(self.root / STAGE_LISTING,
                             dump_plain((keys, raw, cleaned, localized)))
            except (OSError, DiskFull):
                pass  # a folder that cannot be written: listed again next time
        return listing

    def folder_keys(self) -> FolderKeys | None:
        """00_raw's and 01_clean's inode and mtime (None when one is missing): taken before
        they are listed, so a change during the listing leaves the note behind."""
        try:
            raw, clean = os.stat(self.raw_dir), os.stat(self.clean_dir)
        except FileNotFoundError:
            return None
        return (raw.st_ino, raw.st_mtime_ns), (clean.st_ino, clean.st_mtime_ns)

    def _noted_listing(self, keys: FolderKeys | None) -> StageListing | None:
        if keys is None:
            return None
        try:
            with open(self.root / STAGE_LISTING, "rb") as f:
                noted_keys, raw, cleaned, localized = load_plain(f)
        except Exception:  # noqa: BLE001 — missing or not ours: the folders are listed
            return None
        if (noted_keys != keys or type(raw) is not dict or type(cleaned) is not set
                or type(localized) is not set):
            return None
        return StageListing(raw, cleaned, localized, [], keys)

    def sweep_unfinished_writes(self, listing: StageListing) -> int:
        """Remove the temp files of writes a kill interrupted in 00_raw, 01_clean (as
        ``listing`` found them) and 02_assets, and in their subfolders (``write_atomic``'s
        ``.<name>.*.tmp``); how many. Only with the run lock held: then no write of a run
        can be in progress."""
        stale = list(listing.unfinished)
        for folder in (self.raw_dir / "history", self.assets_dir):
            for where, _, names in os.walk(folder):  # scandir: 100,000 names in a blink
                stale.extend(Path(where, name) for name in names
                             if name.startswith(".") and name.endswith(".tmp"))
        for path in stale:
            path.unlink(missing_ok=True)
        return len(stale)

    def forget(self, task_id: int) -> None:
        """Remove everything the archive holds for a task but its images (shared by content):
        its raw page and earlier copies, its article and maps."""
        self.forget_derived(task_id)
        for path in (self.raw_html(task_id), self.raw_rendered(task_id),
                     self.raw_meta(task_id)):
            if path.exists():
                path.chmod(0o644)  # raw pages are read-only
                path.unlink()
        shutil.rmtree(self.raw_dir / "history" / str(task_id), ignore_errors=True)

    def forget_derived(self, task_id: int) -> None:
        """Drop the clean and localize outputs of a task (they are made again from raw)."""
        for path in (self.assets_map(task_id), self.clean_meta(task_id),
                     self.clean_html(task_id)):
            path.unlink(missing_ok=True)
        self.note_changed([task_id])

    def drop_assets_map(self, task_id: int) -> None:
        """Remove a task's image map: it is localized again (from what is stored) next run."""
        self.assets_map(task_id).unlink(missing_ok=True)
        self.note_changed([task_id])

    def note_changed(self, task_ids: Iterable[int]) -> None:
        """These tasks' files in 01_clean were written, replaced or removed: said in the clean
        journal (``clean_journal``), so index.html's pages follow without a stat an article."""
        from pipeline.store.clean_journal import note_changed  # it locks with this module's

        note_changed(self.root, task_ids)

    @contextmanager
    def run_lock(self, wait: float = 0.0) -> Iterator[None]:
        """Only one run at a time per archive (the window's and a terminal's would otherwise
        take the same tasks), waiting up to ``wait`` seconds for another to end. The kernel
        drops the lock when its process dies, kill -9 too."""
        with file_lock(self.root / ".run.lock", wait, f"another run is working on {self.root};"
                       " wait for it or stop it first"):
            yield

    def append_log(self, name: str, line: str) -> None:
        """One line to a log in 04_logs (append is atomic enough for whole short lines)."""
        with open(self.logs_dir / name, "a", encoding="utf-8") as f:
            f.write(line.rstrip("\n") + "\n")

    def append_csv(self, name: str, header: Sequence[str],
                   rows: Iterable[Sequence[object]]) -> None:
        """Rows appended to a CSV log in 04_logs, the header first when the file is new (``x``
        mode: one header, ever, whoever writes first, after the BOM Excel needs to read UTF-8);
        each row one ``append_log`` line."""
        try:
            with open(self.logs_dir / name, "x", encoding="utf-8-sig", newline="") as f:
                csv.writer(f, lineterminator="\n").writerow(header)
        except FileExistsError:
            pass
        for row in rows:
            line = io.StringIO()
            csv.writer(line, lineterminator="").writerow(row)
            self.append_log(name, line.getvalue())
