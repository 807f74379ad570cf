import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.records.errors import DiskFull
from pipeline.store.archive import Archive, write_atomic
from tests.sites.faults import FaultServer
from tests.waiting import PATIENCE

REPO = Path(__file__).resolve().parents[2]


def test_open_lays_out_the_seed_folders(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "new")
    names = sorted(p.name for p in archive.root.iterdir() if not p.name.startswith("."))
    assert names == ["00_raw", "01_clean", "02_assets", "03_output", "04_logs", "archive.json",
                     "rules.yaml"]
    assert archive.name == "new"  # a new archive records its folder's name as its own
    assert "default:" in archive.rules_path.read_text(encoding="utf-8")
    archive.rules_path.write_text("# mine\n", encoding="utf-8")
    Archive.open(archive.root)  # a second open keeps the user's rules
    assert archive.rules_path.read_text(encoding="utf-8") == "# mine\n"


def test_raw_pages_are_never_overwritten(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path)
    archive.store_raw(7, b"<html>v1</html>", '{"v": 1}')
    assert archive.has_raw(7)
    assert archive.raw_html(7).stat().st_mode & 0o222 == 0  # read-only
    archive.store_raw(7, b"<html>v1</html>", '{"v": 1, "again": true}')  # same bytes: no-op
    assert not (archive.raw_dir / "history").exists()
    assert archive.raw_meta(7).read_text() == '{"v": 1}'
    archive.store_raw(7, b"<html>v2</html>", '{"v": 2}')  # changed: v1 goes to history
    assert archive.raw_html(7).read_bytes() == b"<html>v2</html>"
    history = sorted((archive.raw_dir / "history" / "7").iterdir())
    assert [p.suffix for p in history] == [".html", ".json"]
    assert history[0].read_bytes() == b"<html>v1</html>"
    assert history[1].read_text() == '{"v": 1}'


def test_write_atomic_leaves_old_file_when_writing_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "tasks.csv"
    write_atomic(target, b"old")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(DiskFull, match=r"disk full writing .*tasks\.csv"):
        write_atomic(target, b"new")
    monkeypatch.undo()
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["tasks.csv"]


def _can_mount_a_small_disk() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k t /mnt"],
                           capture_output=True, timeout=PATIENCE)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount_a_small_disk(),
                    reason="needs unshare -rm to mount a small tmpfs (Linux user namespaces)")
def test_a_full_disk_stops_the_run_naming_the_file(tmp_path: Path) -> None:
    """A real full disk: a 160 KB tmpfs, a page of 400 KB. The run stops with one line naming
    the file it was writing; the task list it leaves reads back."""
    disk = tmp_path / "disk"
    disk.mkdir()
    with FaultServer() as server:
        url = server.url("/big?mb=0.4")
        script = (f"mount -t tmpfs -o size=160k small {disk} && cd {REPO} && "
                  f"echo '{url}' | {sys.executable} main.py add - --archive {disk}/a && "
                  f"{sys.executable} main.py run --archive {disk}/a --set retries=0; "
                  f"echo exit=$?; {sys.executable} main.py status --archive {disk}/a")
        proc = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True,
                              text=True, timeout=2 * PATIENCE)
    assert "exit=1" in proc.stdout, proc.stdout + proc.stderr
    assert "error: disk full writing 00_raw/1.html" in proc.stderr
    assert "1 task in" in proc.stdout and "pending" in proc.stdout  # reconciled, readable


def test_an_archive_keeps_its_name_when_its_folder_moves(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "notes", name="我的笔记 Notes")
    assert archive.name == "我的笔记 Notes"
    moved = (tmp_path / "notes").rename(tmp_path / "moved")
    assert Archive.open(moved).name == "我的笔记 Notes"
    (moved / "archive.json").write_text("not json", encoding="utf-8")
    assert Archive.open(moved).name == "moved"  # unreadable: the folder's name, file kept
    assert (moved / "archive.json").read_text(encoding="utf-8") == "not json"
    old = tmp_path / "old"
    (old / "00_raw").mkdir(parents=True)  # an archive from before archive.json
    assert Archive.open(old).name == "old" and not (old / "archive.json").exists()
