"""One markup policy: what the clean stage and the book drop, rename and keep is the same."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from lxml import etree

from pipeline.book.xhtml import to_xhtml
from pipeline.extract.clean import clean
from pipeline.extract.dom import parse
from pipeline.extract.images import RESOLVED
from pipeline.text.markup import (
    ARTICLE_TAGS,
    BOOK_ONLY_TAGS,
    NEVER_READ_TAGS,
    RENAME,
    drop_never_read,
)

# Issue 6's security rule, written out here so that shrinking the policy fails a test: these
# tags never reach a book; all but WRAPPERS are dropped with their content.
MUST_NEVER_REACH_A_BOOK = frozenset((
    "script", "style", "noscript", "template", "iframe", "frame", "frameset", "object",
    "embed", "applet", "form", "input", "button", "select", "textarea", "svg", "canvas",
    "audio", "video", "head", "title", "meta", "link", "base",
))
# A form wraps a whole article on some CMSs; an embed is void, and libxml2 nests what follows it
# inside it: both go, their content stays (issue 25).
WRAPPERS = frozenset(("form", "embed"))
# Void (or, for head, never left inside a body by the parser): their hostile part is an attribute.
NO_CONTENT = frozenset(("area", "base", "col", "frame", "input", "link", "meta",
                        "param", "head"))
HOSTILE_ATTRS = ('onclick="steal()" onload="steal()" title="SECRET" style="color:red" '
                 'href="javascript:steal()" src="javascript:steal()"')
# A rule that asks for event handlers must not get them either.
ASKED_ATTRS = ("href", "src", "alt", "title", "onclick", "onload", "style")


def clean_html(body: str) -> str:
    root = parse(f"<html><body><div id='c'>{body}</div></body></html>")
    return clean(root.xpath("//div[@id='c']"), "https://example.com/", ASKED_ATTRS).html


def book_html(body: str) -> str:
    return to_xhtml(body, image_href=lambda src: None, link_href=lambda url: None,
                    lang="en").xhtml


def tags_of(fragment: str) -> set[str]:
    root = etree.fromstring(f"<div>{fragment}</div>")
    return {el.tag for el in root.iter() if el is not root}


def test_the_security_rule_is_in_the_policy() -> None:
    assert MUST_NEVER_REACH_A_BOOK - WRAPPERS <= NEVER_READ_TAGS
    assert not WRAPPERS & (NEVER_READ_TAGS | ARTICLE_TAGS | BOOK_ONLY_TAGS)


@pytest.mark.parametrize("tag", sorted((MUST_NEVER_REACH_A_BOOK | NEVER_READ_TAGS) - WRAPPERS))
@pytest.mark.parametrize("write", [clean_html, book_html], ids=["clean", "book"])
def test_what_never_reaches_a_reader_is_gone_from_both(write: Callable[[str], str],
                                                          tag: str) -> None:
    inner = "" if tag in NO_CONTENT else "SECRET<b>SECRET</b><script>steal()</script>"
    out = write(f"<p>before</p><{tag} {HOSTILE_ATTRS}>{inner}</{tag}><p>after</p>")
    assert "SECRET" not in out and "steal" not in out and "style" not in out
    assert tag not in tags_of(out)
    assert "before" in out and "after" in out


FORM_ARTICLE = (
    "<p>before</p><form action='https://evil.example/post' method='post' onsubmit='steal()'>"
    "<p>The first paragraph of the article.</p><label>Name <input name='n' value='SECRET'>"
    "</label><button onclick='steal()'>SECRET</button><select><option>SECRET</option></select>"
    "<textarea>SECRET</textarea><script>steal()</script><noscript>SECRET</noscript>"
    "Loose text in the form.<p>The second paragraph.</p></form><p>after</p>")
UNCLOSED_EMBED = ("<p>A film: <embed src='https://evil.example/x.swf' onload='steal()'>the rest of"
                  " the paragraph.</p><p>The next one.</p>")


@pytest.mark.parametrize("write", [clean_html, book_html], ids=["clean", "book"])
@pytest.mark.parametrize("body, kept", [
    (FORM_ARTICLE, ["before", "The first paragraph of the article.", "Name",
                    "Loose text in the form.", "The second paragraph.", "after"]),
    (UNCLOSED_EMBED, ["A film: the rest of the paragraph.", "The next one."]),
], ids=["form", "embed"])
def test_a_wrapper_in_an_article_goes_and_its_text_stays(write: Callable[[str], str],
                                                         body: str, kept: list[str]) -> None:
    out = write(body)
    text = " ".join(etree.fromstring(f"<div>{out}</div>").itertext())
    assert [k for k in kept if k not in " ".join(text.split())] == []
    assert not tags_of(out) & (NEVER_READ_TAGS | WRAPPERS)
    for hostile in ("SECRET", "steal", "evil", "action", "post", "onload", "onsubmit"):
        assert hostile not in out


def test_a_form_keeps_its_block_boundary() -> None:
    """A form is a block: its text does not run into the paragraph beside it."""
    assert clean_html("Intro text<form>Inside the form</form>Outro text") == (
        "<p>Intro text</p><p>Inside the form</p><p>Outro text</p>")


@pytest.mark.parametrize("old", sorted(RENAME))
def test_the_rename_table_applies_the_same_way_in_both(old: str) -> None:
    new = RENAME[old]
    body = f"<p>a</p><{old}>word</{old}><p>z</p>"
    cleaned, book = tags_of(clean_html(body)) - {"p"}, tags_of(book_html(body)) - {"p"}
    assert old not in cleaned | book
    assert book == {new}  # every target is one the book keeps
    # the clean stage keeps only its own vocabulary, and unwraps the rest (text stays)
    assert cleaned == ({new} if new in ARTICLE_TAGS else set())
    assert "word" in clean_html(body)


def test_renames_spelled_out() -> None:
    body = "<b>b</b><i>i</i><tt>t</tt><strike>s</strike><font>f</font><h1>h</h1>"
    assert clean_html(body) == ("<p><strong>b</strong><em>i</em><code>t</code><s>s</s>f</p>"
                                "<h2>h</h2>")
    assert book_html(body) == ("<strong>b</strong><em>i</em><code>t</code><s>s</s>"
                               "<span>f</span><h2>h</h2>")
    assert book_html("<center>c</center>") == '<div class="center">c</div>'
    assert clean_html("<center>c</center>") == "<p>c</p>"


def test_the_tables_agree_with_each_other() -> None:
    kept = ARTICLE_TAGS | BOOK_ONLY_TAGS
    assert not kept & NEVER_READ_TAGS
    assert not set(RENAME) & (kept | NEVER_READ_TAGS)  # a renamed tag is never kept as itself
    assert set(RENAME.values()) <= kept
    assert not ARTICLE_TAGS & BOOK_ONLY_TAGS


def test_what_the_clean_stage_writes_the_book_keeps() -> None:
    body = ("<h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6><p>a <a href='https://e.example/'>"
            "l</a> <em>e</em> <strong>s</strong> <sub>1</sub><sup>2</sup><code>c</code><s>x</s>"
            f"<u>u</u><br/>b <img {RESOLVED}='https://e.example/i.jpg' alt='i'></p><hr/>"
            "<blockquote><p>q</p></blockquote><pre>  p  </pre><ul><li>u</li></ul><ol><li>o</li>"
            "</ol><dl><dt>t</dt><dd>d</dd></dl><figure><p>f</p><figcaption>c</figcaption>"
            "</figure><table><caption>c</caption><thead><tr><th>h</th></tr></thead><tbody><tr>"
            "<td>d</td></tr></tbody><tfoot><tr><td>f</td></tr></tfoot></table>")
    written = clean_html(body)
    assert tags_of(written) == ARTICLE_TAGS
    book = to_xhtml(written, image_href={"https://e.example/i.jpg": "../images/i.jpg"}.get,
                    link_href=lambda url: None, lang="en").xhtml
    assert tags_of(book) == ARTICLE_TAGS - {"tfoot"}  # the book puts footer rows last in tbody


def test_on_a_whole_page_a_form_keeps_its_text_and_its_controls_go() -> None:
    root = parse("<html><head><title>Head title</title><script>x()</script></head><body>"
                 "<form action='/post'><div>The article</div><input value='q'>"
                 "<button>Go</button><select><option>One</option></select></form>"
                 "<h1><title>Old headline</title></h1><iframe>frame</iframe><output>4</output>"
                 "</body></html>")
    drop_never_read(root)
    assert [el.tag for el in root.iter()] == ["html", "body", "div", "h1", "title", "output"]
    assert "".join(root.itertext()) == "The articleOld headline4"


def test_the_text_after_an_unclosed_embed_stays_in_the_article() -> None:
    """libxml2 nests the rest of a page's paragraph inside a void <embed>: the whole-page
    noise removal keeps it as it keeps <source>, and the writers unwrap it (issue 25)."""
    from pipeline.extract import extract

    prose = "<p>" + "Tea is a drink made by steeping processed leaves in hot water. " * 4 + "</p>"
    page = (f"<html><body><article><h1>Tea</h1>{prose * 2}<p>A film: <embed src='tea.swf'>"
            f"what the film shows is the harvest.</p>{prose * 2}</article></body></html>")
    root = parse(page)
    drop_never_read(root)
    assert "the harvest" in "".join(root.itertext())
    article = extract(page, "https://example.com/tea")
    assert "A film: what the film shows is the harvest." in article.text
    assert "embed" not in article.content_html and "swf" not in article.content_html


def test_a_form_wrapped_article_reaches_the_book_with_its_text_and_no_form(
        tmp_path: Path) -> None:
    """Issue 25 end to end, from a page served on 127.0.0.1 to the EPUB: a CMS that wraps the
    article in a <form> (a comment box and a search field inside it) and a paragraph cut by
    an unclosed <embed>; the book holds every benign word and none of the form."""
    from pipeline.records.settings import Settings
    from pipeline.usecases.workspace import Workspace
    from tests.sites.articles import ArticleSite

    prose = ["Tea is a drink made by steeping processed leaves in hot water; its story runs"
             f" through the trade routes of Asia, chapter {n}." for n in range(1, 7)]
    page = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Tea</title>"
            "</head><body><form id='aspnetForm' action='/post' onsubmit='steal()'><article>"
            f"<h1>Tea</h1><p>{prose[0]}</p><p>{prose[1]}</p>"
            f"<p>A film: <embed src='tea.swf'>the harvest in the hills.</p><p>{prose[2]}</p>"
            "<label>Search <input name='q' value='SECRET'></label><button>Go</button>"
            f"<p>{prose[3]}</p><p>{prose[4]}</p><script>steal()</script><p>{prose[5]}</p>"
            "</article></form></body></html>")
    with ArticleSite() as site:
        ws = Workspace.open(tmp_path / "archive",
                            Settings().with_overrides(retry_waits=(0.05,), read_timeout=5.0))
        ws.add_links(site.put("/tea.html", page))
        ws.run()
        result = ws.build()
    with zipfile.ZipFile(result.epubs[0]) as book:
        chapters = [book.read(n) for n in book.namelist() if n.startswith("EPUB/text/")]
    xhtml = b"".join(chapters).decode("utf-8")
    text = " ".join(" ".join("".join(etree.fromstring(c).itertext()) for c in chapters).split())
    assert [p for p in prose if p not in text] == []
    assert "A film: the harvest in the hills." in text
    for hostile in ("<form", "<input", "<button", "<embed", "<script", "SECRET", "steal",
                    "onsubmit", "/post"):
        assert hostile not in xhtml


LINKS = ('<p>a <a href="ftp://f.example/x">FTP</a> <a href="gopher://g.example/">GOPHER</a> '
         '<a href="HTTPS://h.example/">WEB</a> <a href="mailto:a@b.example">MAIL</a> '
         '<a href="#part">HERE</a><span id="part">!</span></p>')


@pytest.mark.parametrize("write", [clean_html, book_html, lambda body: book_html(clean_html(body))],
                         ids=["clean", "book", "clean-then-book"])
def test_one_link_scheme_policy_for_the_article_and_the_book(
        write: Callable[[str], str]) -> None:
    """The article keeps the links the book keeps: http(s) and mailto, never ftp or gopher
    (their text stays); so the preview shows no link the book lacks."""
    out = write(LINKS)
    root = etree.fromstring(f"<div>{out}</div>")
    hrefs = [a.get("href") for a in root.iter("a") if a.get("href")]
    assert not [h for h in hrefs if h.lower().startswith(("ftp:", "gopher:"))]
    assert [h.lower() for h in hrefs if not h.startswith("#")] == ["https://h.example/",
                                                                 "mailto:a@b.example"]
    assert "FTP" in out and "GOPHER" in out
