import os
from pathlib import Path

import pytest

from pipeline.archive import Archive, write_atomic


def test_open_lays_out_the_seed_folders(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "new")
    names = sorted(p.name for p in archive.root.iterdir())
    assert names == ["00_raw", "01_clean", "02_assets", "03_output", "04_logs", "rules.yaml"]
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
    with pytest.raises(OSError, match="No space"):
        write_atomic(target, b"new")
    monkeypatch.undo()
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["tasks.csv"]
