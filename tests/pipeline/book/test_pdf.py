"""build --format pdf (issue 29): the EPUB's collection and chapters as a print PDF, checked
with the tools a reader's machine has: poppler's pdffonts and pdftotext, qpdf."""

from __future__ import annotations

import http.server
import json
import os
import re
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.book.pdf import build_pdfs
from pipeline.records.settings import Settings
from pipeline.store.archive import Archive
from tests.pipeline.book.synthetic import add_article, jpeg, store_image

CODE = "def cache(key):\n    if key in store:\n        return store[key]"


def _articles(archive: Archive) -> list:
    picture = store_image(archive, jpeg(640, 480, seed=3))
    return [
        add_article(archive, 1, url="https://a.example/cache", title="缓存的设计",
                    cat1="01_技术", lang="zh", published="2024-03-01",
                    content_html=(
                        "<p>缓存让重复的读取变快。这一段是中文正文，讲缓存的失效策略。</p>"
                        f'<p><img src="https://a.example/p.jpg" alt="图"/></p>'
                        f"<pre><code>{CODE}</code></pre>"
                        '<p>另见<a href="https://a.example/layout#part">布局的第二部分</a>。</p>'),
                    images={"https://a.example/p.jpg": picture}),
        add_article(archive, 2, url="https://a.example/layout", title="Layout notes",
                    cat1="01_技术", cat2="02_前端", lang="en", published="2024-03-02",
                    content_html=(
                        "<p>Grid and flex solve different problems in page layout.</p>"
                        '<h2 id="part">The second part</h2><p>Tables stay inside.</p>'
                        "<table><tr><td>" + "wide cell " * 40 + "</td><td>b</td></tr>"
                        "</table>")),
        add_article(archive, 3, url="https://b.example/tea", title="泡茶的水温",
                    cat1="02_生活", lang="zh", published="2024-03-03",
                    content_html="<p>绿茶要用八十度左右的水，水太烫会把茶叶烫熟。</p>"),
        add_article(archive, 4, url="https://c.example/misc", title="Loose notes",
                    lang="en", published="2024-03-04",
                    content_html="<p>An article filed under no category at all.</p>"),
    ]


@dataclass
class Book:
    archive: Archive
    pdf: Path


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Book:
    archive = Archive.open(tmp_path_factory.mktemp("pdf") / "archive")
    result = build_pdfs(archive, _articles(archive), Settings(), title="测试文集",
                        today="2024-06-01")
    [pdf] = result.pdfs
    assert result.epubs == [] and result.task_ids == [1, 2, 3, 4]
    return Book(archive, pdf)


def _run(*args: str | Path) -> str:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True,
                          check=True).stdout


def _qpdf_json(pdf: Path) -> dict:
    return json.loads(_run("qpdf", "--json", "--json-key=outlines", "--json-key=pages", pdf))


def test_every_font_is_embedded_and_subset_chinese_in_a_cjk_face(book: Book) -> None:
    rows = _run("pdffonts", book.pdf).splitlines()[2:]
    assert rows
    for row in rows:
        emb, sub, _uni = row.split()[-5:-2]
        assert (emb, sub) == ("yes", "yes"), row
    assert any("WenQuanYi" in row or "CJK" in row for row in rows)


def test_outline_nests_articles_under_their_categories(book: Book) -> None:
    outline = _qpdf_json(book.pdf)["outlines"]

    def tree(items: list) -> list:
        return [(i["title"], tree(i["kids"])) for i in items]

    assert tree(outline) == [
        ("技术", [("缓存的设计", []), ("前端", [("Layout notes", [])])]),
        ("生活", [("泡茶的水温", [])]),
        ("未分类", [("Loose notes", [])]),
    ]


def _article_spans(pdf: Path) -> list[tuple[str, int, int]]:
    """Each article's title, first and last page (1-based), in book order, from the
    outline's destinations."""
    data = _qpdf_json(pdf)
    starts: list[tuple[str, int]] = []

    def walk(items: list) -> None:
        for item in items:
            if not item["kids"]:  # an article (every category holds one)
                starts.append((item["title"], item["destpageposfrom1"]))
            walk(item["kids"])

    walk(data["outlines"])
    out = []
    for k, (title, first) in enumerate(starts):
        last = starts[k + 1][1] - 1 if k + 1 < len(starts) else len(data["pages"])
        out.append((title, first, max(first, last)))
    return out


def _article_pages(pdf: Path) -> dict[str, tuple[int, int]]:
    """Each article's first and last page by its title (titles unique in the book)."""
    return {title: (first, last) for title, first, last in _article_spans(pdf)}


def test_each_articles_pages_hold_its_clean_text(book: Book) -> None:
    pages = _article_pages(book.pdf)
    expected = {"缓存的设计": ["缓存让重复的读取变快", "return store[key]"],
                "Layout notes": ["Grid and flex solve different problems", "Tables stay"],
                "泡茶的水温": ["绿茶要用八十度左右的水"],
                "Loose notes": ["filed under no category"]}
    for title, phrases in expected.items():
        first, last = pages[title]
        text = _run("pdftotext", "-layout", "-f", str(first), "-l", str(last), book.pdf, "-")
        flat = re.sub(r"\s+", "", text)
        for phrase in phrases:
            assert re.sub(r"\s+", "", phrase) in flat, (title, phrase)


def test_running_headers_and_page_numbers(book: Book) -> None:
    first, last = _article_pages(book.pdf)["泡茶的水温"]
    text = _run("pdftotext", "-layout", "-f", str(first), "-l", str(first), book.pdf, "-")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[0] == "泡茶的水温"  # the running header
    assert lines[-1] == str(first)  # the folio


def test_code_keeps_its_indentation(book: Book) -> None:
    first, last = _article_pages(book.pdf)["缓存的设计"]
    text = _run("pdftotext", "-layout", "-f", str(first), "-l", str(last), book.pdf, "-")
    [line] = [ln for ln in text.splitlines() if "return store[key]" in ln]
    [above] = [ln for ln in text.splitlines() if "if key in store" in ln]
    assert line.index("return") > above.index("if")


def test_qpdf_finds_nothing_wrong(book: Book) -> None:
    done = subprocess.run(["qpdf", "--check", str(book.pdf)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No syntax or stream encoding errors found" in done.stdout
    assert "WARNING" not in done.stdout + done.stderr


def test_images_come_from_the_archive_at_full_size(book: Book) -> None:
    listing = _run("pdfimages", "-list", book.pdf).splitlines()[2:]
    assert [row.split()[3:5] for row in listing] == [["640", "480"]]


def test_contents_lists_every_article_with_its_page(book: Book) -> None:
    pages = _article_pages(book.pdf)
    text = _run("pdftotext", "-layout", "-f", "2", "-l", "2", book.pdf, "-")
    assert "目录" in text
    for title, (first, _last) in pages.items():
        [line] = [ln for ln in text.splitlines() if title in ln]
        assert line.rstrip().endswith(f" {first}"), line


def test_the_xmp_says_pdf_a_with_the_books_title_language_and_date(book: Book) -> None:
    xmp = _run("pdfinfo", "-meta", book.pdf)
    assert 'pdfaid:part="3"' in xmp and 'pdfaid:conformance="B"' in xmp
    assert ">测试文集</rdf:li>" in xmp
    assert "<dc:language><rdf:Bag><rdf:li>zh</rdf:li>" in xmp
    assert "<dc:date><rdf:Seq><rdf:li>2024-06-01</rdf:li>" in xmp
    info = _run("pdfinfo", book.pdf)
    assert "Encrypted:       no" in info and "(A4)" in info


def test_every_internal_link_lands_on_a_named_place(book: Book) -> None:
    objects = json.loads(_run("qpdf", "--json", "--json-key=qpdf", book.pdf))["qpdf"][1]
    values = [o.get("value") for o in objects.values() if isinstance(o, dict)]
    [catalog] = [v for v in values if isinstance(v, dict) and v.get("/Type") == "/Catalog"]
    named = catalog["/Names"]["/Dests"]["/Names"][::2]
    links = [v["/Dest"] for v in values if isinstance(v, dict)
             and v.get("/Subtype") == "/Link" and "/Dest" in v]
    assert links and set(links) <= set(named)
    assert "u:a2-part" in links  # 缓存的设计 → Layout notes' second part, across articles


def test_cli_builds_pdf_and_epub_on_a5(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from pipeline.cli.main import main
    from tests.small_archive import make_small_archive

    root = make_small_archive(tmp_path / "archive")
    assert main(["build", "--format", "both", "--set", "pdf_page=A5",
                 "--archive", str(root)]) == 0
    out = capsys.readouterr().out
    [pdf] = [Path(line.split(None, 1)[1]) for line in out.splitlines()
             if line.startswith("PDF:")]
    assert pdf.exists() and any(line.startswith("EPUB:") for line in out.splitlines())
    assert "419.528 x 595.276 pts" in _run("pdfinfo", pdf)  # 148 × 210 mm
    assert "廊桥的修缮" in _run("pdftotext", pdf, "-")


def test_a_stylesheet_cannot_make_the_build_fetch_anything(tmp_path: Path) -> None:
    """An archive's own templates/style.css is used, but what it names outside 02_assets is
    never read: not the network, not the rest of the disk."""
    asked: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/css")
            self.end_headers()
            self.wfile.write(b"p { color: red }")

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        archive = Archive.open(tmp_path / "archive")
        secret = tmp_path / "secret.png"
        secret.write_bytes(jpeg())
        (archive.root / "templates").mkdir(exist_ok=True)
        port = server.server_address[1]
        (archive.root / "templates" / "style.css").write_text(
            f'@import url("http://127.0.0.1:{port}/x.css");\n'
            f'body {{ background: url("http://127.0.0.1:{port}/bg.png") }}\n'
            f'h1 {{ background: url("{secret.as_uri()}") }}\n', encoding="utf-8")
        tasks = _articles(archive)
        [pdf] = build_pdfs(archive, tasks, Settings()).pdfs
    finally:
        server.shutdown()
        server.server_close()
    assert asked == []
    listing = _run("pdfimages", "-list", pdf).splitlines()[2:]
    assert [row.split()[3:5] for row in listing] == [["640", "480"]]  # the article's only


def test_a_pdf_half_written_by_a_killed_build_is_swept(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    old, fresh = archive.output_dir / ".a.pdf.tmp", archive.output_dir / ".b.pdf.tmp"
    for path in (old, fresh):
        path.write_bytes(b"%PDF-")
    hour_ago = time.time() - 7200
    os.utime(old, (hour_ago, hour_ago))
    build_pdfs(archive, _articles(archive)[3:], Settings())
    assert not old.exists() and fresh.exists()  # maybe another build's: left alone


def test_tag_soup_binds_with_every_article_in_place(tmp_path: Path) -> None:
    """Ten tag-soup articles of the hostile archive (pages that give lists and nests of
    blocks the image placeholder's inline-block class) bind as one PDF in seconds, not in
    minutes (pytest-timeout is the guard), each article on its own pages."""
    from tests.pipeline.book.hostile import make_hostile_archive, url_of

    archive = Archive.open(tmp_path / "archive")
    tasks = make_hostile_archive(archive, 60)
    [pdf] = build_pdfs(archive, tasks, Settings(), task_ids=set(range(11, 21))).pdfs
    done = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
    assert done.returncode == 0 and "WARNING" not in done.stdout + done.stderr
    spans = _article_spans(pdf)
    found = set()
    for _title, first, last in spans:
        text = _run("pdftotext", "-f", str(first), "-l", str(last), pdf, "-")
        found |= {i + 1 for i in range(10, 20) if url_of(i) in text}
    assert len(spans) == 10 and found == set(range(11, 21))
    assert "Image not saved" in _run("pdftotext", pdf, "-")  # the real placeholders stay


FILLER = "<p>" + "Filler sentence about how a printed page sets its notes at its foot. " * 30 \
    + "</p>"
NOTES = [("the first claim of this article, made with some confidence", "The first note"),
         ("the second claim, made a few pages later", "The second note"),
         ("the third claim, right after the second", "The third note")]


def test_footnotes_are_at_the_foot_of_the_page_that_calls_them(tmp_path: Path) -> None:
    """Pandoc's notes (a list at the end, each linking back) set as page footnotes: each on
    its call's page, once (the list at the end gone), without its back link; the call's
    link lands on the note."""
    body = "".join(
        f'<p>Here is {claim}<a href="#fn{k}" class="footnote-ref" id="fnref{k}"'
        f' role="doc-noteref"><sup>{k}</sup></a> and the sentence goes on.</p>'
        + (FILLER * 3 if k < 2 else "")
        for k, (claim, _note) in enumerate(NOTES, 1))
    body += FILLER + '<section class="footnotes" role="doc-endnotes"><hr/><ol>' + "".join(
        f'<li id="fn{k}"><p>{note} says where it came from.'
        f' <a href="#fnref{k}" class="footnote-back" role="doc-backlink">↩︎</a></p></li>'
        for k, (_claim, note) in enumerate(NOTES, 1)) + "</ol></section>"
    archive = Archive.open(tmp_path / "archive")
    task = add_article(archive, 1, url="https://n.example/notes", title="Notes", lang="en",
                       content_html=body)
    [pdf] = build_pdfs(archive, [task], Settings()).pdfs
    pages = int(re.search(r"Pages:\s+(\d+)", _run("pdfinfo", pdf))[1])
    text = [re.sub(r"\s+", " ", _run("pdftotext", "-f", str(n), "-l", str(n), pdf, "-"))
            for n in range(1, pages + 1)]
    for k, (claim, note) in enumerate(NOTES, 1):
        [call_page] = [n for n, t in enumerate(text) if claim in t]
        [note_page] = [n for n, t in enumerate(text) if note in t]
        assert note_page == call_page, note
        assert f"{claim}{k} and" in text[call_page]  # the call is the page's own mark
        assert re.search(rf"\b{k} {note} says where it came from\.", text[note_page])
    assert "↩" not in "".join(text)
    objects = json.loads(_run("qpdf", "--json", "--json-key=qpdf", pdf))["qpdf"][1]
    values = [o.get("value") for o in objects.values() if isinstance(o, dict)]
    links = {v["/Dest"] for v in values if isinstance(v, dict)
             and v.get("/Subtype") == "/Link" and "/Dest" in v}
    assert {"u:a1-fn1", "u:a1-fn2", "u:a1-fn3"} <= links


def test_the_pdf_splits_into_the_epubs_volumes_and_a_rebuild_sweeps_the_old_ones(
        tmp_path: Path) -> None:
    """Under a size budget each article is a volume (the book's frame alone is over it):
    volume k of the PDF holds what volume k of the EPUB holds, named and titled alike."""
    from pipeline.book import build_books

    archive = Archive.open(tmp_path / "archive")
    tasks = _articles(archive)
    tight = Settings().with_overrides(epub_budget_bytes=1)
    epubs = build_books(archive, tasks, tight, title="分卷").epubs
    pdfs = build_pdfs(archive, tasks, tight, title="分卷").pdfs
    assert [p.name for p in pdfs] == [e.with_suffix(".pdf").name for e in epubs] == [
        f"分卷.vol{k}.pdf" for k in (1, 2, 3, 4)]
    for k, (pdf, first_words) in enumerate(zip(pdfs, (
            "缓存让重复的读取变快", "Grid and flex", "绿茶要用八十度", "filed under no category"),
            strict=True), 1):
        text = re.sub(r"\s+", "", _run("pdftotext", pdf, "-"))
        assert re.sub(r"\s+", "", first_words) in text, pdf.name
        assert f">分卷 · 第 {k}/4 卷</rdf:li>" in _run("pdfinfo", "-meta", pdf)
    [whole] = build_pdfs(archive, tasks, Settings(), title="分卷").pdfs
    assert sorted(p.name for p in archive.output_dir.glob("*.pdf")) == ["分卷.pdf"]
    assert len(_article_spans(whole)) == 4


def test_books_lists_the_pdfs_each_out_of_date_on_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pipeline.cli.main import main
    from tests.small_archive import make_small_archive

    root = str(make_small_archive(tmp_path / "archive"))
    assert main(["build", "--format", "pdf", "--title", "书", "--archive", root]) == 0
    capsys.readouterr()
    assert main(["books", "--archive", root]) == 0
    assert re.fullmatch(r"书\.pdf  3 articles, built \S+  up to date\n",
                        capsys.readouterr().out)
    assert main(["build", "--title", "书", "--archive", root]) == 0
    assert main(["edit", "--id", "1", "--title", "另一个标题", "--archive", root]) == 0
    assert main(["build", "--format", "pdf", "--title", "书", "--archive", root]) == 0
    capsys.readouterr()
    assert main(["books", "--archive", root]) == 0
    lines = sorted(capsys.readouterr().out.splitlines())
    assert [line.split("  ")[0] for line in lines] == ["书.epub", "书.pdf"]
    assert lines[0].endswith("OUT OF DATE: 1 retitled since")
    assert lines[1].endswith("up to date")
