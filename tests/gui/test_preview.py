"""The preview's two views: the raw page as text, and the article as the book shows it."""

from __future__ import annotations

from gui.preview import book_html, page_text
from pipeline.article import Article


def test_page_text_is_one_block_a_line_without_scripts() -> None:
    page = ("<html><head><title>T</title><style>p{color:red}</style></head><body>"
            "<div>one\n   two<p>para\n graph</p>tail<br>after<script>alert(1)</script> end</div>"
            "<noscript>enable JS</noscript></body></html>")
    assert page_text(page) == "T\none two\npara graph\ntail\nafter end"


def test_book_html_shows_local_images_and_placeholders() -> None:
    article = Article(url="https://a.example/p?x=1&y=2", title="A <b> title", author="Li",
                      published="2024-03-14T08:00:00+08:00",
                      content_html='<p>x</p><img src="https://a.example/1.jpg" alt="one">'
                                   '<img src="https://a.example/2.jpg" alt="two">',
                      text="x", lang="en")
    out = book_html(article, {"https://a.example/1.jpg": "file:///archive/02_assets/1.jpg"})
    assert "<h1>A &lt;b&gt; title</h1>" in out and "Li · 2024-03-14" in out
    assert 'src="file:///archive/02_assets/1.jpg"' in out
    assert "https://a.example/2.jpg" in out and 'src="https://a.example/2.jpg"' not in out
    assert "two" in out and "x=1&amp;y=2" in out


def test_header_says_which_retry_of_the_extractor_found_the_text(qtbot) -> None:
    from gui.preview import PreviewData, PreviewPane
    from pipeline.tasks import Task

    pane = PreviewPane()
    qtbot.addWidget(pane)
    task = Task(id=7, url="https://a.example/p", status="cleaned", title="T")
    found = Article(url=task.url, title="T", content_html="<p>x</p>", text="x",
                    confidence=0.3, method="baseline")
    pane.show_data(PreviewData(task, found))
    assert "every prose line of the page" in pane.header.text()
    found.method = "strict"
    pane.show_data(PreviewData(task, found))
    assert "retry" not in pane.header.text() and "prose line" not in pane.header.text()
