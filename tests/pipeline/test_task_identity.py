"""A task is its URL (issue 25, breaks 1 and 4 and the task list's degraded cases): an id is
never given twice, outputs another page left under an id are set aside, a truncated list is
refused until ``recover``, junk rows and ids are refused naming their line, and a read never
writes the file. Real archive folders, a real loopback site, ``main.py`` as a process."""

from __future__ import annotations

import codecs
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pipeline.records.errors import TaskFileError
from pipeline.records.settings import Settings
from pipeline.records.task import TASK_IDS, Status
from pipeline.run.report import build_report
from pipeline.store.archive import ARCHIVE_FILE, Archive
from pipeline.store.tasks import TaskStore
from pipeline.usecases.base import TaskListTruncated
from pipeline.usecases.workspace import Workspace
from pipeline.web.urls import host_of
from tests.sites.articles import ArticleSite, article
from tests.waiting import PATIENCE

REPO = Path(__file__).resolve().parents[2]
SETTINGS = Settings(host_delay_ms=0)


def main_py(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(REPO / "main.py"), *args, "--archive", str(root)],
                          capture_output=True, text=True, timeout=2 * PATIENCE, cwd=REPO)


def book_text(path: Path) -> str:
    with zipfile.ZipFile(path) as book:
        return "".join(book.read(n).decode("utf-8") for n in book.namelist()
                       if n.endswith(".xhtml"))


def drop_rows(path: Path, keep: int) -> None:
    """A person deletes rows at the end of tasks.csv in a text editor: the header and the
    first ``keep`` rows stay."""
    lines = path.read_text(encoding="utf-8-sig").splitlines(keepends=True)
    path.write_text("".join(lines[: 1 + keep]), encoding="utf-8-sig")


def site_with(site: ArticleSite, n: int, word: str) -> list[str]:
    return [site.put(f"/{word}/{i}", article(f"{word} {i}", [f"{word} story {i} " * 30]))
            for i in range(1, n + 1)]


# -- ids are never given twice ------------------------------------------------------------------

def test_deleting_the_last_row_never_gives_its_id_to_the_next_link(tmp_path: Path) -> None:
    ws = Workspace.open(tmp_path, SETTINGS)
    ws.add_links("https://a.example/1 https://a.example/2 https://a.example/3")
    assert json.loads((tmp_path / ARCHIVE_FILE).read_text())["highest_id"] == 3
    drop_rows(ws.archive.tasks_path, 2)  # #3 was never fetched: only the record remembers it
    ws = Workspace.open(tmp_path, SETTINGS)
    ws.add_links("https://b.example/new")
    assert [t.id for t in ws.tasks()] == [1, 2, 4]
    # the name stays beside the mark: archive.json is merged, not written over
    assert Archive(tmp_path).name == tmp_path.name


def test_an_emptied_trash_or_list_never_gives_its_ids_again(tmp_path: Path) -> None:
    ws = Workspace.open(tmp_path, SETTINGS)
    ws.add_links("https://a.example/1 https://a.example/2")
    ws.remove([1, 2])
    ws.save()
    assert ws.empty_trash() == 2
    ws.add_links("https://a.example/3")
    assert [t.id for t in ws.tasks()] == [3]
    ws.archive.tasks_path.write_bytes(b"")  # emptied by hand (nothing was fetched)
    ws = Workspace.open(tmp_path, SETTINGS)
    ws.add_links("https://a.example/4")
    assert [t.id for t in ws.tasks()] == [4]


def test_ids_in_00_raw_count_where_archive_json_has_no_mark(tmp_path: Path) -> None:
    """An archive older than the mark: the ids its stage folders hold are above no new id."""
    archive = Archive.open(tmp_path)
    (tmp_path / ARCHIVE_FILE).unlink()
    archive.store_raw(7, b"<html></html>", json.dumps({"url": "https://a.example/7"}))
    (archive.raw_dir / "history" / "9").mkdir(parents=True)
    archive.tasks_path.write_text("id,url\r\n7,https://a.example/7\r\n", encoding="utf-8")
    ws = Workspace.open(tmp_path, SETTINGS)
    ws.add_links("https://a.example/new")
    assert [t.id for t in ws.tasks()] == [7, 10]


def test_a_typed_in_row_gets_an_id_above_the_record(tmp_path: Path) -> None:
    ws = Workspace.open(tmp_path, SETTINGS)
    ws.add_links("https://a.example/1 https://a.example/2")
    drop_rows(ws.archive.tasks_path, 1)
    with open(ws.archive.tasks_path, "a", encoding="utf-8") as f:
        f.write(",https://a.example/typed\r\n")
    assert [t.id for t in Workspace.open(tmp_path, SETTINGS).tasks()] == [1, 3]


# -- a task is its URL: another page's outputs are set aside --------------------------------------

def test_a_reused_id_fetches_and_binds_its_own_page(tmp_path: Path) -> None:
    """Break 1 as an older version left it: the list gives #3 to a new link while 00_raw/3
    holds the old page. The run fetches the new page, the book binds it, the old page is
    kept in 00_raw/history/3/."""
    with ArticleSite() as site:
        old = site_with(site, 3, "old")
        new = site.put("/fresh", article("fresh", ["fresh harbour text " * 30]))
        ws = Workspace.open(tmp_path, SETTINGS)
        ws.add_links("\n".join(old))
        ws.run()
        assert ws.task(3).status == Status.LOCALIZED
        text = ws.archive.tasks_path.read_text(encoding="utf-8-sig")
        ws.archive.tasks_path.write_text(text.replace(old[2], new), encoding="utf-8-sig")
        ws = Workspace.open(tmp_path, SETTINGS)
        assert ws.task(3).status == Status.PENDING  # not fetched: the record names old[2]
        assert not ws.archive.has_raw(3) and not ws.archive.has_clean(3)
        kept = sorted(p.name.split(".", 1)[1]
                      for p in (ws.archive.raw_dir / "history" / "3").iterdir())
        assert kept == ["clean.assets.json", "clean.html", "clean.json", "html", "json"]
        assert ws.search("old")[0].task_id != 3
        site.requests.clear()
        ws.run()
        assert site.requests == ["/fresh"]
    assert ws.task(3).status == Status.LOCALIZED
    assert ws.archive.fetched_url(3) == new
    book = book_text(ws.build().epubs[0])
    assert "fresh harbour text" in book and "old story 3" not in book


def test_delete_the_last_row_add_a_link_run_and_build(tmp_path: Path) -> None:
    """Break 1 as the issue tells it, through main.py: the new link gets a new id, the run
    fetches it, the book holds the new page's text and not the old one's."""
    with ArticleSite() as site:
        old = site_with(site, 3, "old")
        new = site.put("/fresh", article("fresh", ["fresh harbour text " * 30]))
        (tmp_path / "links.txt").write_text("\n".join(old), encoding="utf-8")
        assert main_py(tmp_path, "add", str(tmp_path / "links.txt")).returncode == 0
        assert main_py(tmp_path, "run", "--set", "host_delay_ms=0").returncode == 0
        drop_rows(tmp_path / "tasks.csv", 2)
        (tmp_path / "links.txt").write_text(new, encoding="utf-8")
        added = main_py(tmp_path, "add", str(tmp_path / "links.txt"))
        assert added.returncode == 0, added.stderr
        run = main_py(tmp_path, "run", "--set", "host_delay_ms=0")
        assert run.returncode == 0, run.stderr
        assert run.stdout.startswith("fetched 1,")
    ws = Workspace.open(tmp_path, SETTINGS)
    assert [(t.id, t.url) for t in ws.tasks()] == [(1, old[0]), (2, old[1]), (4, new)]
    built = main_py(tmp_path, "build")
    assert built.returncode == 0, built.stderr
    book = book_text(next((tmp_path / "03_output").glob("*.epub")))
    assert "fresh harbour text" in book and "old story 3" not in book


# -- junk rows and ids ----------------------------------------------------------------------------

HEADER = "id,url,original_url,status\r\n"


def write_list(root: Path, *rows: str) -> Path:
    path = root / "tasks.csv"
    path.write_text(HEADER + "".join(r + "\r\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize(("row", "message"), [
    (",extra1,extra2", r"line 3: a row without an id and without a link in the url column"
                       r" \('extra1'\); put the link there or delete the row"),
    (",,note", r"line 3: a row without an id and without a link in the url column \(''\)"),
    ("2,,", r"line 3: task 2 has no link in the url column"),
    ("-5,https://a.example/x,,", r"line 3: id -5 is out of range; an id is a whole number from"
                                 r" 1 to 9,007,199,254,740,991"),
    ("99999999999999999999999,https://a.example/x,,", r"line 3: id 99999999999999999999999 is"
                                                      r" out of range"),
    ("0,https://a.example/x,,", r"line 3: id 0 is out of range"),
])
def test_junk_rows_and_ids_are_refused_naming_the_line(tmp_path: Path, row: str,
                                                       message: str) -> None:
    path = write_list(tmp_path, "1,https://a.example/1,,pending", row)
    before = path.read_bytes()
    with pytest.raises(TaskFileError, match=message):
        TaskStore(path)
    proc = main_py(tmp_path, "status")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and "line 3" in proc.stderr
    assert path.read_bytes() == before


def test_task_ids_range_is_what_a_spreadsheet_keeps() -> None:
    assert TASK_IDS.start == 1 and TASK_IDS.stop == 2**53
    assert float(TASK_IDS[-1]) == TASK_IDS[-1]


def test_host_of_junk_is_empty_and_the_report_holds(tmp_path: Path) -> None:
    assert [host_of(u) for u in ("extra1", "", "http://[::1", "https://a.example:8/x")] == [
        "", "", "", "a.example"]
    path = write_list(tmp_path, "1,extra1,extra2,failed", "2,https://a.example/2,,pending")
    report = build_report(TaskStore(path).tasks(), lambda i: None, lambda i: None,
                          sample_seed="s")
    assert report.summary()


# -- an emptied or cut-short list is refused until recover ---------------------------------------

def fetched_archive(root: Path, site: ArticleSite, n: int) -> list[str]:
    links = site_with(site, n, "kept")
    ws = Workspace.open(root, SETTINGS)
    ws.add_links("\n".join(links))
    ws.edit([1], title="a title a person gave")
    ws.save()
    ws.run()
    assert all(t.status == Status.LOCALIZED for t in ws.tasks())
    return links


@pytest.mark.parametrize("keep", [0, 1, 2])
def test_an_emptied_or_cut_list_is_refused_and_recover_brings_it_back(tmp_path: Path,
                                                                      keep: int) -> None:
    with ArticleSite() as site:
        links = fetched_archive(tmp_path, site, 6)
    path = tmp_path / "tasks.csv"
    if keep:
        drop_rows(path, keep)
    else:
        path.write_bytes(b"")
    before = path.read_bytes()
    for command in (["status"], ["add", str(path)], ["run"], ["build"]):
        proc = main_py(tmp_path, *command)
        assert proc.returncode == 1, command
        assert proc.stderr.splitlines() == [
            f"error: {path} lacks {6 - keep} of the 6 tasks whose pages 00_raw holds;"
            " opening it would lose them: run 'python main.py recover' to rebuild the list"
            " from 00_raw (nothing was changed)"]
    assert path.read_bytes() == before
    assert not list((tmp_path / "03_output").glob("*.epub"))
    proc = main_py(tmp_path, "recover")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"recovered {6 - keep} tasks from 00_raw into {path} ({keep} were in it already,"
        " 0 left out)"]
    ws = Workspace.open(tmp_path, SETTINGS)
    assert [(t.id, t.url, t.status) for t in ws.tasks()] == [
        (i, link, Status.LOCALIZED) for i, link in enumerate(links, start=1)]
    assert ws.task(6).extracted_title == "kept 6" and ws.task(6).fetched_at
    assert ws.task(1).title == ("a title a person gave" if keep else "")
    ws.add_links("https://a.example/next")
    assert ws.tasks()[-1].id == 7


def test_a_list_emptied_while_it_is_open_is_not_taken_in_nor_written_over(
        tmp_path: Path) -> None:
    """The window (a workspace kept open) follows the file: an emptied one is refused as a
    broken one is, its rows stay, its edit waits; once recovered, the edit is saved."""
    with ArticleSite() as site:
        fetched_archive(tmp_path, site, 4)
    ws = Workspace.open(tmp_path, SETTINGS)
    path = tmp_path / "tasks.csv"
    path.write_bytes(b"")
    with pytest.raises(TaskListTruncated, match="lacks 4 of the 4 tasks"):
        ws.refresh()
    assert [t.id for t in ws.tasks()] == [1, 2, 3, 4]
    ws.edit([2], title="edited meanwhile")
    with pytest.raises(TaskListTruncated):
        ws.save()
    assert path.read_bytes() == b""
    Workspace.recover(tmp_path, SETTINGS)
    ws.save()
    again = Workspace.open(tmp_path, SETTINGS)
    assert [(t.id, t.title) for t in again.tasks()][:2] == [(1, ""), (2, "edited meanwhile")]
    assert len(again.tasks()) == 4


def test_a_few_rows_deleted_by_hand_are_a_persons_edit(tmp_path: Path) -> None:
    with ArticleSite() as site:
        fetched_archive(tmp_path, site, 4)
    drop_rows(tmp_path / "tasks.csv", 2)  # half: not refused
    assert [t.id for t in Workspace.open(tmp_path, SETTINGS).tasks()] == [1, 2]


def test_recover_keeps_the_rows_in_the_file_and_leaves_out_a_page_listed_again(
        tmp_path: Path) -> None:
    with ArticleSite() as site:
        links = fetched_archive(tmp_path, site, 3)
    path = tmp_path / "tasks.csv"
    path.write_text(f"id,url,title\r\n9,{links[1]},my own row\r\n", encoding="utf-8")
    (tmp_path / "00_raw" / "3.json").chmod(0o644)
    (tmp_path / "00_raw" / "3.json").write_text("{not json", encoding="utf-8")
    ws, recovery = Workspace.recover(tmp_path, SETTINGS)
    assert recovery.restored == [1]
    assert recovery.left_out == [
        (2, "its page is in the list as #9; kept in 00_raw/history/2"),
        (3, "its record in 00_raw is not readable JSON; kept in 00_raw/history/3")]
    assert not (tmp_path / "00_raw" / "2.json").exists()
    kept = sorted(p.name.split(".", 1)[1] for p in (tmp_path / "00_raw/history/3").iterdir())
    assert kept == ["clean.assets.json", "clean.html", "clean.json", "html", "json"]
    # the rows the file holds keep their places; restored ones follow, as added ones do
    assert [(t.id, t.title) for t in Workspace.open(tmp_path, SETTINGS).tasks()] == [
        (9, "my own row"), (1, "")]


def test_recover_refuses_a_list_that_does_not_parse(tmp_path: Path) -> None:
    with ArticleSite() as site:
        fetched_archive(tmp_path, site, 2)
    path = tmp_path / "tasks.csv"
    path.write_text('id,url\r\n1,"https://a.example/\r\n', encoding="utf-8")
    before = path.read_bytes()
    proc = main_py(tmp_path, "recover")
    assert proc.returncode == 1 and len(proc.stderr.splitlines()) == 1
    assert "line 2" in proc.stderr and "Traceback" not in proc.stderr
    assert path.read_bytes() == before


# -- a read never writes; a save keeps the file's spelling ----------------------------------------

SPELLINGS = [  # (codec the bytes are in, bytes before the text, separator)
    ("utf-16-le", codecs.BOM_UTF16_LE, "\t"),  # Excel's "Unicode text"
    ("utf-16-le", codecs.BOM_UTF16_LE, ","),
    ("utf-8", b"", ";"),  # Excel's CSV with a comma as the decimal mark
    ("gb18030", b"", ","),  # Excel's CSV on Chinese Windows
    ("utf-8", b"", ","),  # no BOM
]


@pytest.mark.parametrize(("codec", "bom", "sep"), SPELLINGS)
def test_status_never_rewrites_and_a_change_keeps_the_spelling(tmp_path: Path, codec: str,
                                                              bom: bytes, sep: str) -> None:
    path = tmp_path / "tasks.csv"
    text = sep.join(["id", "url", "cat1", "status"]) + "\r\n" + sep.join(
        ["1", "https://a.example/1", "科技", "pending"]) + "\r\n"
    path.write_bytes(bom + text.encode(codec))
    before = path.read_bytes()
    proc = main_py(tmp_path, "status")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[:2] == [f"1 task in {tmp_path}", "  pending    1"]
    assert path.read_bytes() == before
    ws = Workspace.open(tmp_path, SETTINGS)
    assert ws.task(1).cat1 == "科技"
    ws.close()
    assert path.read_bytes() == before
    (tmp_path / "links.txt").write_text("https://a.example/2", encoding="utf-8")
    assert main_py(tmp_path, "add", str(tmp_path / "links.txt"), "--cat1", "𠮷野家"
                   ).returncode == 0
    data = path.read_bytes()
    assert data.startswith(codecs.BOM_UTF8 if codec == "utf-8" else bom)  # Excel's BOM
    written = data.decode("utf-16" if bom == codecs.BOM_UTF16_LE else
                          "utf-8-sig" if codec == "utf-8" else codec)
    assert written.startswith(f"id{sep}url{sep}cat1{sep}")
    assert [(t.id, t.cat1) for t in Workspace.open(tmp_path, SETTINGS).tasks()] == [
        (1, "科技"), (2, "𠮷野家")]


def test_the_url_a_record_was_fetched_for_is_read_however_it_is_written(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path)
    long_url = "https://a.example/" + "x" * 20_000  # past the first bytes read
    records = {1: {"url": "https://a.example/1", "status": 200},
               2: {"status": 200, "url": "https://a.example/2"},  # not first
               3: {"url": long_url}, 4: {"status": 200}, 5: ["no", "object"]}
    for task_id, record in records.items():
        archive.store_raw(task_id, b"<html></html>", json.dumps(record, indent=1))
    archive.store_raw(6, b"<html></html>", "{not json")
    assert [archive.fetched_url(i) for i in range(1, 8)] == [
        "https://a.example/1", "https://a.example/2", long_url, None, None, None, None]


def test_writers_of_archive_json_never_lose_each_others_keys(tmp_path: Path) -> None:
    import threading

    archive = Archive.open(tmp_path, name="我的存档")
    marks = list(range(1, 201))
    threads = [threading.Thread(target=archive.record_highest_id, args=(m,)) for m in marks]
    threads.append(threading.Thread(target=archive.set_name, args=("改名",)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert json.loads((tmp_path / ARCHIVE_FILE).read_text(encoding="utf-8")) == {
        "name": "改名", "highest_id": 200}
    archive.record_highest_id(5)  # never lowered
    assert archive.highest_id() == 200


def test_a_broken_archive_json_is_never_written_over(tmp_path: Path) -> None:
    ws = Workspace.open(tmp_path, SETTINGS)
    ws.add_links("https://a.example/1")
    (tmp_path / ARCHIVE_FILE).write_text('{"name": "x", ', encoding="utf-8")
    before = (tmp_path / ARCHIVE_FILE).read_bytes()
    (tmp_path / "links.txt").write_text("https://a.example/2", encoding="utf-8")
    proc = main_py(tmp_path, "add", str(tmp_path / "links.txt"))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [
        f"error: {tmp_path / ARCHIVE_FILE} is not readable JSON (Expecting property name"
        " enclosed in double quotes: line 1 column 15 (char 14)); fix it, or move it away (it"
        " holds the archive's name and the highest task id given)"]
    assert (tmp_path / ARCHIVE_FILE).read_bytes() == before
    assert [t.id for t in Workspace.open(tmp_path, SETTINGS).tasks()] == [1]
