"""An archive that cannot be written (a read-only bind mount: a backup, a disc, another
user's folder) still reads: status, search, books, the report to stdout, books bound
elsewhere; what would write says so in one line. A full disk ends ``index`` in one line and
still lets ``search`` answer (issue 25, break 6 and the read-only degraded case).

Each command runs in its own user and mount namespace (``unshare -rm``), so the mounts are
real and private; where that is not permitted the tests are skipped, saying why.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.pipeline.book.index_reading import category_pages
from tests.small_archive import (
    in_namespace,
    make_small_archive,
    namespaces_refused,
    run_main,
    tree_digest,
)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    reason = namespaces_refused(tmp_path_factory.mktemp("probe"))
    if reason is not None:
        pytest.skip(reason)
    return make_small_archive(tmp_path_factory.mktemp("pristine") / "archive")


@pytest.fixture
def read_only(pristine: Path, tmp_path: Path) -> tuple[Path, tuple[str, ...]]:
    """A copy of the archive and the prefix that runs a command with it mounted read-only."""
    root = tmp_path / "archive"
    shutil.copytree(pristine, root)
    return root, in_namespace(f"mount --bind '{root}' '{root}'\n"
                              f"mount -o remount,bind,ro '{root}'")


READS = {
    "status": (("status",), "3 tasks in"),
    "search": (("search", "harbour"), "#1  The old harbour"),
    "search-chinese": (("search", "廊桥"), "#2  廊桥的修缮"),
    "books": (("books",), "no books in"),
    "report-to-stdout": (("report", "--out", "-"), "<html"),
    "rules-check": (("rules", "check"), "valid"),
}


@pytest.mark.parametrize("name", READS)
def test_a_read_only_archive_reads(name: str, read_only: tuple[Path, tuple[str, ...]]) -> None:
    root, prefix = read_only
    before = tree_digest(root)
    args, shows = READS[name]
    proc = run_main("--archive", root, *args, prefix=prefix)
    assert proc.returncode == 0, proc.stderr
    assert shows in proc.stdout
    assert proc.stderr == ""
    assert tree_digest(root) == before


def test_a_read_only_archive_is_bound_elsewhere(read_only: tuple[Path, tuple[str, ...]],
                                                tmp_path: Path) -> None:
    root, prefix = read_only
    before = tree_digest(root)
    out = tmp_path / "books"
    proc = run_main("--archive", root, "build", "--out", out, "--title", "Backup",
                    prefix=prefix)
    assert proc.returncode == 0, proc.stderr
    assert (out / "Backup.epub").is_file() and (out / "index.html").is_file()
    # the index's links reach the archive's clean pages from where it was written
    pages = [(page, href) for page in category_pages(out / "index.html")
             for href in re.findall(r'href="([^"]*01_clean/\d+\.html)"',
                                    page.read_text(encoding="utf-8"))]
    assert len(pages) == 3 and all((page.parent / href).resolve().is_file()
                                   for page, href in pages)
    assert tree_digest(root) == before  # nothing marked done in a list that cannot be written


WRITES = {
    "run": ("run",), "add": ("add", "-"), "index": ("index",), "build": ("build",),
    "report": ("report",), "edit": ("edit", "--id", "1", "--title", "x"), "dupes": ("dupes",),
    "remove": ("remove", "--id", "1"), "move": ("move", "--id", "1", "--bottom"),
    "clean": ("clean",),
}


@pytest.mark.parametrize("name", WRITES)
def test_what_would_write_a_read_only_archive_says_so(
        name: str, read_only: tuple[Path, tuple[str, ...]]) -> None:
    root, prefix = read_only
    before = tree_digest(root)
    proc = run_main("--archive", root, *WRITES[name], prefix=prefix,
                    stdin="https://news.example/new\n")
    said = proc.stderr.strip().splitlines()
    assert proc.returncode == 1, proc.stderr
    assert len(said) == 1 and "Traceback" not in proc.stderr
    assert said[0].startswith(f"error: {root} is read-only here: '{name}'"), said[0]
    assert tree_digest(root) == before


@pytest.fixture
def full_disk(pristine: Path, tmp_path: Path) -> tuple[Path, tuple[str, ...]]:
    """The archive, its search index gone, copied onto a small tmpfs that is then filled."""
    disk = tmp_path / "disk"
    disk.mkdir()
    root = disk / "archive"
    return root, in_namespace(f"mount -t tmpfs -o size=1m tmpfs '{disk}'\n"
                              f"cp -a '{pristine}' '{root}'\n"
                              f"rm -f '{root}'/search.db*\n"
                              f"head -c 2m /dev/zero > '{disk}/filler' 2>/dev/null || true")


def test_index_on_a_full_disk_is_one_line(full_disk: tuple[Path, tuple[str, ...]]) -> None:
    root, prefix = full_disk
    proc = run_main("--archive", root, "index", prefix=prefix)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        f"error: disk full: the search index {root}/search.db cannot be written"]


def test_search_on_a_full_disk_still_answers(full_disk: tuple[Path, tuple[str, ...]]) -> None:
    root, prefix = full_disk
    proc = run_main("--archive", root, "search", "harbour", prefix=prefix)
    assert proc.returncode == 0, proc.stderr
    assert "#1  The old harbour" in proc.stdout
    said = proc.stderr.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("note: disk full: the search index")


def test_adding_on_a_full_disk_is_one_line(full_disk: tuple[Path, tuple[str, ...]]) -> None:
    root, prefix = full_disk
    proc = run_main("--archive", root, "add", "-", prefix=prefix,
                    stdin="https://news.example/new\n")
    said = proc.stderr.strip().splitlines()
    assert proc.returncode == 1 and len(said) == 1, proc.stderr
    assert said[0].startswith("error: disk full")
