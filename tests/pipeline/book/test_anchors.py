"""Anchors survive (issue 15): a book whose articles link to each other's sections and to their
own footnotes, fetched from a local site and cleaned by the real pipeline, then checked by
EPUBCheck and by following every link to the file and the id it names."""

from __future__ import annotations

import posixpath
import shutil
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from lxml import etree

from pipeline.book import build_books
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.usecases.workspace import Workspace
from tests.pipeline.book.validator import assert_valid
from tests.sites.articles import ArticleSite

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0, host_delay_ms=0)
X = "{http://www.w3.org/1999/xhtml}"
PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
</head><body><header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>
<article><h1>{title}</h1>{body}</article>
<footer><p>About us · Contact · <a href="#top">Back to top</a></p></footer></body></html>"""


def prose(topic: str, n: int) -> str:
    return (f"The {topic} was surveyed again this spring, and the engineers wrote down what "
            f"they found at every pier, in the order they walked the span (note {n})")


# Pandoc's footnotes; a section whose id the heading inherits; links to Beta's part 2, to a
# place Beta lacks, to Gamma's Chinese-named heading, and out of the book with a fragment.
ALPHA = f"""
<p>{prose("bridge", 1)}<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref">
<sup>1</sup></a>.</p>
<section id="sec2"><h2>The second part</h2>
<p>{prose("river bank", 2)}, as <a href="/beta.html#part-2">Beta's second part</a> tells.</p>
<p>{prose("east pier", 8)}; <a href="/beta.html#nowhere">a place Beta lacks</a> is no help.</p>
<p>{prose("west pier", 9)}, and <a href="https://elsewhere.example/page?a=1#frag">the survey
office</a> has the rest.</p>
</section>
<p id="unlinked">{prose("tower", 3)}, which <a href="/gamma.html#%E5%8E%86%E5%8F%B2">Gamma's
history</a> explains.<a href="#fn2" class="footnote-ref" id="fnref2"><sup>2</sup></a></p>
<section id="footnotes" class="footnotes footnotes-end-of-document" role="doc-endnotes"><hr/><ol>
<li id="fn1"><p>Alpha note one: <a href="https://survey.example/1">the 2019 survey</a>.
<a href="#fnref1" class="footnote-back" role="doc-backlink">↩︎</a></p></li>
<li id="fn2"><p>Alpha note two: <a href="https://survey.example/2">the 2020 survey</a>.
<a href="#fnref2" class="footnote-back" role="doc-backlink">↩︎</a></p></li></ol></section>"""

# Hugo's footnotes (ids with a colon); a link back into Alpha's section, one to itself by URL.
BETA = f"""
<p>{prose("ferry", 4)}<sup id="fnref:1"><a href="#fn:1" class="footnote-ref"
role="doc-noteref">1</a></sup>.</p>
<h2 id="part-2">Part two</h2>
<p>{prose("quay", 5)}, as <a href="/alpha.html#sec2">Alpha's second part</a> says and
<a href="/beta.html#part-2">this very part</a> repeats.<sup id="fnref:2"><a href="#fn:2"
class="footnote-ref" role="doc-noteref">2</a></sup></p>
<div class="footnotes" role="doc-endnotes"><hr><ol>
<li id="fn:1"><p>Beta note one: <a href="https://ferry.example/1">timetable</a>&#160;<a
href="#fnref:1" class="footnote-backref" role="doc-backlink">&#x21a9;&#xfe0e;</a></p></li>
<li id="fn:2"><p>Beta note two: <a href="https://ferry.example/2">fares</a>&#160;<a
href="#fnref:2" class="footnote-backref" role="doc-backlink">&#x21a9;&#xfe0e;</a></p></li>
</ol></div>"""

# Wikipedia's references, and a heading whose id is in its headline span (and Chinese).
GAMMA = f"""
<p>{prose("lighthouse", 6)}<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a>
</sup>.</p>
<h2><span class="mw-headline" id="历史">历史</span></h2>
<p>{prose("harbour wall", 7)}.<sup id="cite_ref-2" class="reference"><a href="#cite_note-2">[2]
</a></sup></p>
<h2>References</h2><div class="reflist"><ol class="references">
<li id="cite_note-1"><span class="mw-cite-backlink"><b><a href="#cite_ref-1">^</a></b></span>
<span class="reference-text">Gamma reference one, <a href="https://port.example/1">port
records</a>.</span></li>
<li id="cite_note-2"><span class="mw-cite-backlink"><b><a href="#cite_ref-2">^</a></b></span>
<span class="reference-text">Gamma reference two, <a href="https://port.example/2">harbour
log</a>.</span></li></ol></div>"""

ARTICLES = {"/alpha.html": ("Alpha", ALPHA), "/beta.html": ("Beta", BETA),
            "/gamma.html": ("Gamma", GAMMA)}


@dataclass
class Linked:
    """Built books and where each article's chapter is (``a<task id>.xhtml``)."""

    one_volume: Path
    volumes: list[Path]
    file_of: dict[str, str]  # site path → chapter file name
    url_of: dict[str, str]  # site path → the article's URL


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> Linked:
    root = tmp_path_factory.mktemp("anchors") / "archive"
    with ArticleSite() as site:
        ws = Workspace.open(root, FAST)
        for path, (title, body) in ARTICLES.items():
            ws.add_links(site.put(path, PAGE.format(title=title, body=body)))
        ws.run()
        urls = {path: site.url(path) for path in ARTICLES}
    tasks = ws.tasks()
    assert all(t.status == Status.LOCALIZED for t in tasks), [(t.url, t.error) for t in tasks]
    ids = {t.url: t.id for t in tasks}
    [built] = build_books(ws.archive, tasks, FAST).epubs
    one = shutil.copy(built, root.parent / "one-volume.epub")  # the next build replaces it
    # a budget no article fits: each its own volume, so every link between them leaves its book
    split = build_books(ws.archive, tasks, FAST.with_overrides(epub_budget_bytes=1)).epubs
    ws.close()
    return Linked(Path(one), split, {p: f"a{ids[u]}.xhtml" for p, u in urls.items()}, urls)


def pages(book: Path) -> dict[str, etree._Element]:
    with zipfile.ZipFile(book) as z:
        return {n: etree.fromstring(z.read(n)) for n in z.namelist() if n.endswith(".xhtml")}


def links(page: etree._Element) -> Iterator[etree._Element]:
    yield from page.iter(f"{X}a")


def follow(book: dict[str, etree._Element], name: str,
           href: str) -> tuple[str, etree._Element]:
    """The file and the element an in-book href from page ``name`` lands on (the file's root
    when it names no fragment); fails when the file or the id is not there."""
    file, _, fragment = href.partition("#")
    target = posixpath.normpath(posixpath.join(posixpath.dirname(name), file)) if file else name
    assert target in book, f"{name}: {href} names no file of the book"
    if not fragment:
        return target, book[target]
    found = book[target].xpath("//*[@id=$id]", id=fragment)
    assert len(found) == 1, f"{name}: {href} names no id of {target}"
    return target, found[0]


def lands(book: dict[str, etree._Element], name: str, href: str | None) -> etree._Element:
    assert href is not None
    return follow(book, name, href)[1]


def link(book: dict[str, etree._Element], name: str, text: str) -> etree._Element:
    [a] = [a for a in links(book[name]) if " ".join("".join(a.itertext()).split()) == text]
    return a


def text(el: etree._Element) -> str:
    return " ".join("".join(el.itertext()).split())


def test_the_books_are_valid(linked: Linked) -> None:
    assert len(linked.volumes) == 3
    assert_valid(linked.one_volume, *linked.volumes)


def test_every_link_inside_the_book_lands_on_its_id(linked: Linked) -> None:
    book = pages(linked.one_volume)
    named: set[tuple[str, str]] = set()  # (file, id) some link lands on
    followed = 0
    for name, page in book.items():
        for a in links(page):
            href = a.get("href")
            if href and "://" not in href and not href.startswith("mailto:"):
                target, landed = follow(book, name, href)
                followed += 1
                if "#" in href:
                    named.add((target, landed.get("id", "")))
    assert followed >= 20
    # only ids some link points at are kept (besides the template's kb-top)
    for name, page in book.items():
        if name.startswith("EPUB/text/a"):
            kept = {el.get("id") for el in page.iter() if el.get("id")} - {"kb-top"}
            assert kept == {i for file, i in named if file == name}, name
            assert not {i for i in kept if not i.startswith(name.rsplit("/", 1)[1][:-6] + "-")}


def test_footnote_marks_and_back_links_land_on_each_other(linked: Linked) -> None:
    book = pages(linked.one_volume)
    for path, first_note in (("/alpha.html", "Alpha note one"), ("/beta.html", "Beta note one"),
                             ("/gamma.html", "Gamma reference one")):
        name = "EPUB/text/" + linked.file_of[path]
        chapter = linked.file_of[path].removesuffix(".xhtml")
        mark = link(book, name, "[1]" if path == "/gamma.html" else "1")
        assert mark.get("href", "").startswith(f"#{chapter}-")  # a12-fn1: this chapter's id
        note = lands(book, name, mark.get("href"))
        # the note's content in an aside a reader shows as a pop-up, inside the list item
        assert note.tag == f"{X}aside" and note.getparent().tag == f"{X}li"
        assert note.get("role") == "doc-footnote" and first_note in text(note)
        assert mark.get("role") == "doc-noteref"
        back = next(a for a in links(note) if (a.get("href") or "").startswith("#"))
        landed = lands(book, name, back.get("href"))  # the mark, or the <sup> around it
        assert mark in list(landed.iter())


def test_links_between_articles_land_on_their_sections(linked: Linked) -> None:
    book = pages(linked.one_volume)
    alpha, beta, gamma = (linked.file_of[p] for p in ("/alpha.html", "/beta.html", "/gamma.html"))
    a_page, b_page = f"EPUB/text/{alpha}", f"EPUB/text/{beta}"
    a7 = beta.removesuffix(".xhtml")
    to_part_2 = link(book, a_page, "Beta's second part")
    assert to_part_2.get("href") == f"{beta}#{a7}-part-2"
    assert text(lands(book, a_page, to_part_2.get("href"))) == "Part two"
    # Beta has no "nowhere": the link goes to Beta's chapter, not to a missing fragment
    assert link(book, a_page, "a place Beta lacks").get("href") == beta
    file, history = follow(book, a_page, link(book, a_page, "Gamma's history").get("href", ""))
    assert file == f"EPUB/text/{gamma}" and text(history) == "历史"
    # the section's id went to its heading, the first thing written in its place
    back = lands(book, b_page, link(book, b_page, "Alpha's second part").get("href"))
    assert text(back) == "The second part"
    # a link to itself by its URL is a link to a place in its own chapter
    assert link(book, b_page, "this very part").get("href") == f"#{a7}-part-2"
    # links out of the book keep their fragment
    assert (link(book, a_page, "the survey office").get("href")
            == "https://elsewhere.example/page?a=1#frag")


def test_an_article_in_another_volume_is_linked_at_its_place_on_the_web(linked: Linked) -> None:
    alpha = next(b for b in linked.volumes if f"EPUB/text/{linked.file_of['/alpha.html']}"
                 in pages(b))
    book = pages(alpha)
    a_page = f"EPUB/text/{linked.file_of['/alpha.html']}"
    assert (link(book, a_page, "Beta's second part").get("href")
            == linked.url_of["/beta.html"] + "#part-2")
    assert (link(book, a_page, "Gamma's history").get("href")
            == linked.url_of["/gamma.html"] + "#%E5%8E%86%E5%8F%B2")
    # within the chapter, its footnotes still work
    mark = link(book, a_page, "1")
    assert text(lands(book, a_page, mark.get("href"))).startswith("Alpha note one")
