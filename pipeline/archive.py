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
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from pipeline.article import Article
from pipeline.asset_map import AssetMap
from pipeline.errors import DiskFull, KuaibuError

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


DEFAULT_ARCHIVE = Path(__file__).resolve().parent.parent / "archive"
ARCHIVE_FILE = "archive.json"  # the archive's own record: its name
_BUNDLED_RULES = DEFAULT_ARCHIVE / "rules.yaml"


def write_atomic(path: Path, data: bytes, *, readonly: bool = False) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new, never a torn one.
    A full disk is DiskFull naming the file (the OS error names none)."""
    try:
        _write_atomic(path, data, readonly)
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            where = Path(path.parent.name, path.name)
            raise DiskFull(f"disk full writing {where} (in {path.parent.parent})") from None
        raise


def _write_atomic(path: Path, data: bytes, readonly: bool) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp makes 0600; an archive file is as readable as any other the user makes
        os.chmod(tmp, 0o444 if readonly else 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
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
        if not archive.rules_path.exists() and _BUNDLED_RULES.exists():
            shutil.copyfile(_BUNDLED_RULES, archive.rules_path)
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
            data = json.loads((self.root / ARCHIVE_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return self.root.name
        value = data.get("name") if isinstance(data, dict) else None
        return value.strip() if isinstance(value, str) and value.strip() else self.root.name

    def set_name(self, name: str) -> None:
        write_atomic(self.root / ARCHIVE_FILE, json.dumps(
            {"name": name.strip()}, ensure_ascii=False, indent=1).encode("utf-8"))

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
        """A person's near-duplicate decisions (pipeline.duplicates)."""
        return self.root / "duplicates.csv"

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
                  rendered: bytes | None = None) -> bool:
        """Keep a fetched page (and its rendered DOM, when the browser made one); False when
        the same bytes are already stored, the rendered DOM included.

        An existing set with other bytes goes to history, untouched (seed 003 §3.5). The
        record is written last: it is the proof that the page and its DOM are complete, and a
        rendered file left from an earlier fetch never outlives a record that does not name it.
        """
        html_path, meta_path = self.raw_html(task_id), self.raw_meta(task_id)
        rendered_path = self.raw_rendered(task_id)
        if html_path.exists() and meta_path.exists():
            old_rendered = rendered_path.read_bytes() if rendered_path.exists() else None
            if html_path.read_bytes() == body and old_rendered == rendered:
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

    def sweep_unfinished_writes(self) -> int:
        """Remove the temp files of writes a kill interrupted in 00_raw, 01_clean and
        02_assets (``write_atomic``'s ``.<name>.*.tmp``); how many. Only with the run lock
        held: then no write of a run can be in progress."""
        swept = 0
        for folder in (self.raw_dir, self.clean_dir, self.assets_dir):
            for stale in folder.rglob(".*.tmp"):
                stale.unlink(missing_ok=True)
                swept += 1
        return swept

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

    @contextmanager
    def run_lock(self) -> Iterator[None]:
        """Only one run at a time per archive (the window's and a terminal's would otherwise
        take the same tasks). The kernel drops the lock when its process dies, kill -9 too."""
        with file_lock(self.root / ".run.lock", 0, f"another run is working on {self.root};"
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
