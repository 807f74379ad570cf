"""The use-case layer: what both faces call does the same thing, and reads what the book reads."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from pipeline.extract.dom import page_text
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.run.stages import write_clean_page
from pipeline.usecases.workspace import Workspace
from tests.pipeline.book.synthetic import add_article, jpeg, store_image


def _workspace_with_article(root: Path) -> tuple[Workspace, int]:
    ws = Workspace.open(root, Settings())
    task = ws.store.add("https://a.example/p?x=1&y=2", cat1="01_桥")
    ws.store.update(task.id, status=Status.LOCALIZED, title="A <b> title")
    image = store_image(ws.archive, jpeg())
    add_article(ws.archive, task.id, url=task.url, title="extracted", author="Li",
                published="2024-03-14T08:00:00+08:00", lang="en",
                content_html='<p>x</p><img src="https://a.example/1.jpg" alt="one">'
                             '<img src="https://a.example/2.jpg" alt="two">',
                images={"https://a.example/1.jpg": image, "https://a.example/2.jpg": None})
    ws.save()
    return ws, task.id


def _body(page: str) -> str:
    """The chapter body with image sources set aside (the book's are inside the EPUB)."""
    body = re.search(r'<div class="chapter-body">(.*?)</div>\s*</section>', page, re.S)
    assert body is not None
    return re.sub(r'src="[^"]*"', 'src=""', body.group(1))


def test_the_preview_and_the_clean_page_are_the_chapter_the_book_binds(tmp_path: Path) -> None:
    ws, task_id = _workspace_with_article(tmp_path / "a")
    preview = ws.preview(ws.task(task_id))
    page = preview.chapter_html
    assert '<h1 class="chapter-title">A &lt;b&gt; title</h1>' in page
    assert "桥" in page and "Li" in page and "2024-03-14" in page
    local = re.findall(r'<img[^>]*\ssrc="([^"]+)"', page)
    assert len(local) == 1 and (preview.base / local[0]).is_file()
    assert 'src="https://a.example/2.jpg"' not in page and "two" in page  # a placeholder
    assert ".chapter-title" in preview.stylesheet
    result = ws.build()
    with zipfile.ZipFile(result.epubs[0]) as book:
        bound = book.read(f"EPUB/text/a{task_id}.xhtml").decode("utf-8")
    assert _body(bound) == _body(page)
    task = ws.task(task_id)
    write_clean_page(ws.archive, task, ws.article(task_id), ws.archive.read_assets(task_id))
    clean = ws.archive.clean_html(task_id).read_text(encoding="utf-8")
    assert _body(clean) == _body(bound)
    assert (ws.archive.clean_dir / "style.css").read_text(encoding="utf-8") == preview.stylesheet


def test_build_marks_what_it_bound_done_in_the_file_as_it_is(tmp_path: Path) -> None:
    ws, task_id = _workspace_with_article(tmp_path / "a")
    other = Workspace.open(tmp_path / "a")
    other.edit([task_id], cat2="手改")
    other.save()  # written after ws last looked at the file
    ws.build()
    again = Workspace.open(tmp_path / "a").task(task_id)
    assert (again.status, again.cat2) == (Status.DONE, "手改")


def test_a_domain_reclean_takes_its_sub_domains_and_leaves_duplicates(tmp_path: Path) -> None:
    ws = Workspace.open(tmp_path / "a")
    for n, url in enumerate(("https://a.example/1", "https://www.a.example/2",
                             "https://a.example/3", "https://xa.example/4",
                             "https://a.example/5"), start=1):
        ws.store.add(url)
        add_article(ws.archive, n, url=url, content_html="<p>x</p>")
        ws.archive.raw_meta(n).write_text("{}", encoding="utf-8")  # the page counts as stored
    ws.store.update(3, status=Status.DUPLICATE, duplicate_of=1)
    ws.archive.raw_meta(5).unlink()  # not fetched yet
    assert ws.reclean_ids(domain="A.example.") == [1, 2]
    assert ws.reclean_ids(task_ids=[3]) == [3]  # named by id, a duplicate is cleaned again
    assert ws.reclean_ids() == [1, 2, 4]


def test_page_text_is_one_block_a_line_without_scripts() -> None:
    page = ("<html><head><title>T</title><style>p{color:red}</style></head><body>"
            "<div>one\n   two<p>para\n graph</p>tail<br>after<script>alert(1)</script> end</div>"
            "<noscript>enable JS</noscript></body></html>")
    assert page_text(page) == "one two\npara graph\ntail\nafter end"
    form = "<body><form><p>inside an ASP.NET form</p><button>Go</button></form></body>"
    assert page_text(form) == "inside an ASP.NET form"


def test_the_settings_given_reach_the_task_list(tmp_path: Path) -> None:
    """``--set tasks_flush_seconds`` on the command line sets how often a run saves."""
    ws = Workspace.open(tmp_path / "a", Settings(tasks_flush_seconds=0.25))
    assert ws.store.flush_seconds == 0.25


def test_opening_sweeps_writes_a_kill_left_unfinished(tmp_path: Path) -> None:
    ws = Workspace.open(tmp_path / "a")
    stale = [ws.archive.raw_dir / ".1.html.x1.tmp", ws.archive.clean_dir / ".1.json.x2.tmp",
             ws.archive.assets_dir / "ab" / ".ab12.jpg.x3.tmp"]
    kept = ws.archive.raw_dir / "1.html"
    for path in [*stale, kept]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half")
    Workspace.open(tmp_path / "a")
    assert [p.exists() for p in stale] == [False, False, False] and kept.exists()


def test_the_trash_hides_keeps_restores_and_empties(tmp_path: Path) -> None:
    ws, task_id = _workspace_with_article(tmp_path / "a")
    ws.archive.raw_meta(task_id).write_text("{}", encoding="utf-8")
    other = ws.store.add("https://a.example/other").id
    ws.remove([task_id])
    ws.save()
    assert [t.id for t in ws.tasks()] == [other] and [t.id for t in ws.trash()] == [task_id]
    assert ws.reclean_ids() == [] and ws.counts()[Status.LOCALIZED] == 0
    assert ws.archive.has_clean(task_id)  # its files wait in the archive
    report = ws.add_links("https://a.example/p?x=1&y=2")  # added again: back from the trash
    assert [t.id for t in report.added] == [task_id] and not ws.trash()
    ws.remove([task_id])
    assert ws.empty_trash() == 1
    assert not ws.archive.has_clean(task_id) and not ws.archive.has_raw(task_id)
    assert [t.id for t in Workspace.open(tmp_path / "a").store.tasks()] == [other]


BOOKMARKS = """<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE><H1>Bookmarks</H1>
<DL><p>
    <DT><H3>读书</H3>
    <DL><p>
        <DT><A HREF="https://a.example/1">一</A>
        <DT><H3>历史 笔记</H3>
        <DL><p>
            <DT><A HREF="https://a.example/2">二</A>
        </DL><p>
    </DL><p>
    <DT><A HREF="https://b.example/loose">loose</A>
</DL><p>
"""


def test_a_bookmarks_export_can_be_filed_by_its_folders(tmp_path: Path) -> None:
    ws = Workspace.open(tmp_path / "a")
    report = ws.add_links(BOOKMARKS, cat1="00_收件箱", folders_as_categories=True)
    filed = {t.url: (t.cat1, t.cat2) for t in report.added}
    assert filed == {"https://a.example/1": ("读书", ""),
                     "https://a.example/2": ("读书", "历史 笔记"),
                     "https://b.example/loose": ("00_收件箱", "")}
    again = Workspace.open(tmp_path / "b").add_links(BOOKMARKS)  # without: one category
    assert {t.cat1 for t in again.added} == {""} and len(again.added) == 3


def test_failures_by_domain_and_a_tasks_fetch_log(tmp_path: Path) -> None:
    from tests.sites.faults import FaultServer

    ws = Workspace.open(tmp_path / "a", Settings(host_delay_ms=0, retries=1,
                                                 retry_waits=(0.05,)))
    with FaultServer() as one, FaultServer("127.0.0.2") as two:
        ws.add_links("\n".join([one.url("/status?code=404&fail=9"),
                                one.url("/status?code=500&fail=9"), two.url("/ok"),
                                two.url("/status?code=410&fail=9")]))
        ws.run()
    grouped = [(host, [t.id for t in tasks]) for host, tasks in ws.failures_by_domain()]
    assert grouped == [("127.0.0.1", [1, 2]), ("127.0.0.2", [4])]
    log = ws.fetch_log(2)
    assert [line.split("\t")[2:4] for line in log] == [
        ["try 1", "HTTP 500 Internal Server Error"], ["try 2", "HTTP 500 Internal Server Error"]]
    assert ws.fetch_log(99) == []


def test_pick_content_checks_the_selector_on_the_sites_other_pages(tmp_path: Path) -> None:
    from pipeline.rules.model import Rules

    ws = Workspace.open(tmp_path / "a")
    body = "一段足够长的正文，讲一件事，讲得很细。" * 10
    for n in range(1, 4):
        task = ws.store.add(f"https://portal.example/{n}.html")
        page = (f"<html><body><div id='nav'>首页 新闻</div><div class='content'><h1>第{n}篇</h1>"
                f"<p>{n}: {body}</p><p>{body}</p></div><div class='side'>推荐</div></body></html>")
        ws.archive.store_raw(task.id, page.encode("utf-8"),
                             '{"final_url": "https://portal.example/", "headers": {}}')
    suggestion = ws.suggest(ws.task(1), Rules())
    assert suggestion.selector == "div.content"
    assert (suggestion.matched_pages, suggestion.site_pages) == (2, 2)
    tree = ws.element_tree(ws.task(1))
    picked = next(node for node in tree if "content" in node.classes)
    again = ws.selector_for_element(ws.task(2), picked.path, Rules())
    assert again.selector == "div.content"


def test_reconcile_after_another_writers_run_keeps_its_failures(tmp_path: Path) -> None:
    """The window reconciles after its run's child process ends. A task that failed after its
    page was stored (no article) has raw output, so judged on a stale copy of the list it
    would read "fetched" and be saved over the run's "failed"; judged on the file, it stays."""
    from tests.sites.articles import ArticleSite

    root = tmp_path / "archive"
    window = Workspace.open(root, Settings(host_delay_ms=0))
    with ArticleSite() as site:
        links = "".join(f"<li><a href='/{i}'>Story {i}</a></li>" for i in range(40))
        window.add_links(site.put("/list", f"<html><body><ul>{links}</ul></body></html>"))
        run = Workspace.open(root, Settings(host_delay_ms=0))  # another process's run
        run.run()
    assert run.task(1).status == Status.FAILED and run.archive.has_raw(1)
    window.reconcile()
    window.refresh()
    assert window.task(1).status == Status.FAILED
    assert Workspace.open(root).task(1).status == Status.FAILED
