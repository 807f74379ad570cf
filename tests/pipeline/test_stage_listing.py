"""The stage folders' listing is noted beside the archive and used only while neither folder
changed: a name made or removed in one is listed; a folder changed a moment ago is not noted."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from pipeline.records.errors import DiskFull
from pipeline.store import archive as archive_module
from pipeline.store.archive import STAGE_LISTING, Archive, StageListing


@pytest.fixture(autouse=True)
def note_every_archive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive_module, "NOTED_FROM_RECORDS", 0)


def _archive(root: Path) -> Archive:
    """Records 1 and 2, task 1 cleaned."""
    archive = Archive.open(root)
    for task_id in (1, 2):
        archive.store_raw(task_id, b"<html></html>",
                          json.dumps({"url": f"https://a.example/{task_id}"}))
    archive.clean_dir.mkdir(exist_ok=True)
    archive_module.write_atomic(archive.clean_meta(1), b"{}")
    return archive


def _left_alone(archive: Archive) -> None:
    """As if nothing had touched the stage folders for a minute."""
    then = time.time_ns() - 60 * 10**9
    for folder in (archive.raw_dir, archive.clean_dir):
        os.utime(folder, ns=(then, then))


def _same(a: StageListing, b: StageListing) -> None:
    assert (a.records, a.cleaned, a.localized) == (b.records, b.cleaned, b.localized)


def test_folders_left_alone_are_not_listed_again(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    archive = _archive(tmp_path)
    _left_alone(archive)
    first = archive.stage_listing()
    assert (tmp_path / STAGE_LISTING).exists()
    assert set(first.records) == {1, 2} and first.cleaned == {1}
    with monkeypatch.context() as m:
        m.setattr(archive_module, "_scan", lambda *a: pytest.fail("00_raw was listed"))
        _same(archive.stage_listing(), first)


def test_a_name_made_or_removed_in_a_folder_is_listed(tmp_path: Path) -> None:
    archive = _archive(tmp_path)
    _left_alone(archive)
    archive.stage_listing()
    archive.store_raw(3, b"<html></html>", json.dumps({"url": "https://a.example/3"}))
    assert 3 in archive.stage_listing().records
    _left_alone(archive)
    archive.stage_listing()
    archive.clean_meta(1).unlink()
    assert archive.stage_listing().cleaned == set()


def test_a_folder_changed_a_moment_ago_is_not_noted(tmp_path: Path) -> None:
    """Its clock's tick may hold another change the mtime would not show."""
    archive = _archive(tmp_path)
    archive.stage_listing()
    assert not (tmp_path / STAGE_LISTING).exists()


@pytest.mark.parametrize("damage", [b"", b"junk", b"\x80\x05\x95"])
def test_a_damaged_note_is_listed_over(tmp_path: Path, damage: bytes) -> None:
    archive = _archive(tmp_path)
    _left_alone(archive)
    first = archive.stage_listing()
    (tmp_path / STAGE_LISTING).write_bytes(damage)
    _same(archive.stage_listing(), first)


def test_a_full_disk_leaves_the_listing_unnoted(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    archive = _archive(tmp_path)
    _left_alone(archive)

    def full(path: Path, data: bytes, **kwargs: object) -> None:
        raise DiskFull(f"disk full writing {path.name}")

    monkeypatch.setattr(archive_module, "write_atomic", full)
    assert set(archive.stage_listing().records) == {1, 2}
    assert not (tmp_path / STAGE_LISTING).exists()
