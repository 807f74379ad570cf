"""Footnotes survive extraction and cleaning (issue 15): the common markups, found by how their
marks and notes link, and the navigation that links alike but is no note."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from lxml import etree

from pipeline.extract import extract
from pipeline.extract.clean import clean
from pipeline.extract.dom import parse
from tests.pipeline.extract.pages import NAV, PROSE, SIDEBAR, article_page

URL = "https://news.example.com/2019/02/river.html"


def note(i: int) -> str:
    """A note as sites write them: a source, linked (link-dense, short: junk to the shrink
    rules without the signal)."""
    return (f"Gauge reading {i} from <a href='https://river.example/report/{i}'>the river "
            f"authority report number {i}</a>.")


def marked(mark: str) -> str:
    """The article's paragraphs, each ending with a footnote mark (``{i}`` is its number)."""
    return "".join(f"<p>{p[:-1]}{mark.format(i=i)}.</p>" for i, p in enumerate(PROSE, 1))


def listed(item: str, n: int = len(PROSE)) -> str:
    return "".join(item.format(i=i, note=note(i)) for i in range(1, n + 1))


# Each as its generator writes it (class names included, though the rule never reads them).
MARKUPS = {
    "pandoc": (
        '<a href="#fn{i}" class="footnote-ref" id="fnref{i}" role="doc-noteref"><sup>{i}</sup></a>',
        '<section id="footnotes" class="footnotes footnotes-end-of-document" '
        'role="doc-endnotes"><hr/><ol>{items}</ol></section>',
        '<li id="fn{i}"><p>{note} <a href="#fnref{i}" class="footnote-back" '
        'role="doc-backlink">↩︎</a></p></li>'),
    "hugo": (
        '<sup id="fnref:{i}"><a href="#fn:{i}" class="footnote-ref" role="doc-noteref">{i}</a>'
        '</sup>',
        '<div class="footnotes" role="doc-endnotes"><hr><ol>{items}</ol></div>',
        '<li id="fn:{i}"><p>{note}&#160;<a href="#fnref:{i}" class="footnote-backref" '
        'role="doc-backlink">&#x21a9;&#xfe0e;</a></p></li>'),
    "jekyll-kramdown": (
        '<sup id="fnref:{i}" role="doc-noteref"><a href="#fn:{i}" class="footnote" '
        'rel="footnote">{i}</a></sup>',
        '<div class="footnotes" role="doc-endnotes"><ol>{items}</ol></div>',
        '<li id="fn:{i}" role="doc-endnote"><p>{note} <a href="#fnref:{i}" '
        'class="reversefootnote" role="doc-backlink">&#8617;</a></p></li>'),
    "wordpress-block": (
        '<sup data-fn="f{i}" class="fn"><a href="#f{i}" id="f{i}-link">{i}</a></sup>',
        '<ol class="wp-block-footnotes">{items}</ol>',
        '<li id="f{i}">{note} <a href="#f{i}-link" aria-label="Jump to footnote reference {i}">'
        '↩︎</a></li>'),
    "wikipedia": (
        '<sup id="cite_ref-{i}" class="reference"><a href="#cite_note-{i}">[{i}]</a></sup>',
        '<h2>References</h2><div class="reflist"><ol class="references">{items}</ol></div>',
        '<li id="cite_note-{i}"><span class="mw-cite-backlink"><b><a href="#cite_ref-{i}">^</a>'
        '</b></span> <span class="reference-text">{note}</span></li>'),
    "word-export": (
        '<a href="#_ftn{i}" name="_ftnref{i}" title="">[{i}]</a>',
        '<div style="mso-element:footnote-list"><hr align="left" size="1" width="33%">'
        '{items}</div>',
        '<div style="mso-element:footnote" id="ftn{i}"><p class="MsoFootnoteText">'
        '<a href="#_ftnref{i}" name="_ftn{i}" title="">[{i}]</a> {note}</p></div>'),
    # no back-links: several items of one list, each the target of a mark in the text
    "numbered-list": (
        '<a href="#note{i}"><sup>{i}</sup></a>',
        '<ol class="footnotes">{items}</ol>',
        '<li id="note{i}">{note}</li>'),
}


def page_with_notes(name: str, *, inside: bool = True) -> str:
    mark, wrapper, item = MARKUPS[name]
    notes = wrapper.format(items=listed(item))
    body = marked(mark)
    return article_page(body + notes) if inside else article_page(body, after=notes)


def in_page_links_land(content_html: str) -> set[str]:
    """Every in-page link of the article names an id it holds; the ids so named."""
    root = etree.fromstring(f"<div>{content_html}</div>")
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    named = set()
    for a in root.iter("a"):
        href = a.get("href") or ""
        if href.startswith("#"):
            target = href[1:] if href[1:] in ids else unquote(href[1:])
            assert target in ids, (href, sorted(ids))
            named.add(target)
    return named


@pytest.mark.parametrize("name", sorted(MARKUPS))
def test_footnotes_and_their_marks_survive(name: str) -> None:
    article = extract(page_with_notes(name), URL)
    for i in range(1, len(PROSE) + 1):
        assert f"Gauge reading {i} from the river authority report number {i}." in article.text
    assert "Most read" not in article.text and "Copyright" not in article.text
    named = in_page_links_land(article.content_html)
    # every mark reached its note, and (where the markup has them) every back-link its mark
    assert len(named) == len(PROSE) * (1 if name == "numbered-list" else 2)


@pytest.mark.parametrize("name", ["pandoc", "numbered-list"])
def test_notes_beside_the_article_block_join_it(name: str) -> None:
    article = extract(page_with_notes(name, inside=False), URL)
    assert "Gauge reading 4 from the river authority report number 4." in article.text
    in_page_links_land(article.content_html)


def test_in_page_navigation_is_not_a_note() -> None:
    # "skip to content" and "back to top" link each other's regions, but stand alone
    page = f"""<html><head><title>River rises</title></head><body>
    <header id="top"><p><a href="#content">Skip</a></p><div class="logo">The Daily Example</div>
    {NAV}</header>
    <div id="content"><h1>River rises</h1>{"".join(f"<p>{p}</p>" for p in PROSE)}
    <p><a href="#top">Back to top</a></p></div>{SIDEBAR}</body></html>"""
    article = extract(page, URL)
    assert PROSE[-1] in article.text
    assert "The Daily Example" not in article.text and "Skip" not in article.text


def test_a_comment_linking_to_its_own_heading_is_not_a_note() -> None:
    comments = "".join(
        f'<dt id="c{i}">Reader {i} said...</dt><dd><p>Thanks for this, I drove past the '
        f'bridge on Tuesday and the water was already over the path.</p>'
        f'<span class="comment-timestamp"><a href="#c{i}">12:4{i} PM</a></span></dd>'
        for i in range(1, 4))
    page = article_page(after=f'<div id="comments"><h4>3 comments</h4>'
                              f'<dl id="comments-block">{comments}</dl></div>')
    article = extract(page, URL)
    assert PROSE[-1] in article.text and "Reader 1 said" not in article.text


def cleaned(body: str) -> str:
    root = parse(f"<html><body><div id='c'>{body}</div></body></html>")
    return clean(root.xpath("//div[@id='c']"), "https://example.com/post", ("href",)).html


def test_a_footnote_list_survives_cleaning() -> None:
    mark, wrapper, item = MARKUPS["pandoc"]
    html = cleaned(f"<p>Text{mark.format(i=1)} and more.</p>"
                   + wrapper.format(items=item.format(i=1, note="The note.")))
    assert html == ('<p>Text<a href="#fn1" id="fnref1"><sup>1</sup></a> and more.</p>'
                    '<hr id="footnotes"/>'
                    '<ol><li id="fn1"><p>The note. <a href="#fnref1">↩︎</a></p></li></ol>')


@pytest.mark.parametrize(("body", "expected"), [
    # an unwrapped wrapper's id goes to the first element written in its place
    ('<section id="s2"><h2>Two</h2><p>x</p></section>', '<h2 id="s2">Two</h2><p>x</p>'),
    ('<h2><span class="mw-headline" id="History">History</span></h2>',
     '<h2 id="History">History</h2>'),
    ('<p><a name="old"></a>Old anchor</p>', '<p id="old">Old anchor</p>'),
    ('<a id="here"></a><h3>Three</h3>', '<h3 id="here">Three</h3>'),
    # one id an element: a waiting one meets an element with its own, the first of two wins
    ('<section id="s3"><h2 id="h3">T</h2><p id="h3">p</p></section>', '<h2 id="h3">T</h2><p>p</p>'),
    # a place in the article stays a fragment; "#" alone goes nowhere; others are absolute
    ('<p><a href="#fn1">1</a> <a href="#">x</a> <a href="/other#p2">y</a></p>',
     '<p><a href="#fn1">1</a> x <a href="https://example.com/other#p2">y</a></p>'),
])
def test_ids_are_kept_where_links_can_land(body: str, expected: str) -> None:
    assert cleaned(body) == expected


def test_the_selection_own_id_names_the_page_region_not_a_place() -> None:
    assert cleaned("<p>a</p>") == "<p>a</p>"  # the selection is <div id="c">


@pytest.mark.parametrize(("href", "inward"), [
    ("#fn1", True), (" \n\t#fn1", True), ("fn1", False), ("https://x.example/#fn1", False)])
def test_a_mark_links_into_the_page_after_xml_white_space_only(href: str, inward: bool) -> None:
    """A mark's href starts with "#" once XML's white space (space, tab, CR, LF: what
    normalize-space drops) is skipped."""
    from pipeline.extract.notes import note_pairs

    root = parse(f"<html><body><p>{PROSE[0][:-1]}<a id='r1' href='{href}'>1</a>.</p>"
                 f"<ol><li id='fn1'>{note(1)} <a href='#r1'>↩</a></li></ol></body></html>")
    marks = [mark.get("id") for mark, _ in note_pairs(root)]
    assert ("r1" in marks) is inward
