"""The book as a PDF for print and archiving (issue 29): the EPUB's collection, order and
chapters, laid out by WeasyPrint.

Why WeasyPrint and not the Chromium the project already drives (``net/render.py``): a book is
CSS Paged Media — running headers (``string-set``), page numbers in the contents
(``target-counter``), an outline nested by ``bookmark-level``, footnotes at the foot of their
page (``float: footnote``) and PDF/A with XMP — and WeasyPrint does all of it from the
stylesheet, while Chromium's ``page.pdf()`` has no running strings, no target-counter, no
footnote area, no nested outline and no PDF/A. WeasyPrint is pure Python over Pango (fonts
found by fontconfig, embedded and subset), so a PDF needs no browser installed either.

``pdf_bytes`` is the heart: chapters (as rendered for the EPUB, through the same XHTML
whitelist) and the book's settings in, PDF bytes out. ``build_pdfs`` is the I/O around it:
the same selection and collections as ``build_books``, the chapters staged by
``prepare_chapter``, images read at full size from 02_assets.
"""

from __future__ import annotations

import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import etree

from pipeline.book import (
    BuildResult,
    Progress,
    book_language,
    book_link_ids,
    collections_of,
    plan_build,
)
from pipeline.book.anchors import find_anchor
from pipeline.book.chapters import (
    Chapter,
    ImageCatalog,
    link_targets,
    outside_href,
    prepare_chapter,
    resolve_links,
)
from pipeline.book.collect import Cat1Group, Entry, display_category, group
from pipeline.book.identity import collection_uuid, record_build
from pipeline.book.index import WholeList, write_index
from pipeline.book.labels import labels_for
from pipeline.book.page_notes import notes_to_page_foot
from pipeline.book.pages import date_range, stylesheet
from pipeline.book.volumes import pack, volume_label, volume_stem, volume_title
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.store.archive import Archive

XHTML = "http://www.w3.org/1999/xhtml"
_NS = {"x": XHTML}
PDF_VARIANT = "pdf/a-3b"  # archival; 3b rather than 2b: WeasyPrint 70 writes 3b's XMP cleanly

# Print rules over the EPUB's stylesheet: the page box, running header and folio, the outline
# levels, code and tables kept inside the page.
PRINT_CSS = """
@page { size: %(page)s; margin: 20mm 16mm 20mm 16mm;
  @top-center { content: string(chapter); font-size: 8.5pt; color: #555; }
  @bottom-center { content: counter(page); font-size: 9pt; } }
@page front { @top-center { content: none; } @bottom-center { content: none; } }
.pdf-front { page: front; }
.pdf-title-page { break-after: page; padding-top: 30%%; text-align: center; }
.pdf-title-page h1 { font-size: 24pt; bookmark-level: none; }
nav.pdf-contents { break-after: page; }
nav.pdf-contents h2 { bookmark-level: none; }
nav.pdf-contents ul { list-style: none; padding-left: 1.2em; margin: 0; }
nav.pdf-contents > ul { padding-left: 0; }
nav.pdf-contents a { color: inherit; text-decoration: none; }
nav.pdf-contents a::after { content: leader('.') target-counter(attr(href), page); }
h1, h2, h3, h4, h5, h6 { bookmark-level: none; }
h1.pdf-category { bookmark-level: 1; break-before: page; }
h2.pdf-subcategory { bookmark-level: 2; }
section.chapter { break-before: page; }
section.pdf-depth-2 h1.chapter-title { bookmark-level: 2; }
section.pdf-depth-3 h1.chapter-title { bookmark-level: 3; }
h1.chapter-title { string-set: chapter content(); }
h1.pdf-category + section.chapter, h2.pdf-subcategory + section.chapter { break-before: auto; }
img { max-width: 100%%; height: auto; }
pre, code { white-space: pre-wrap; overflow-wrap: anywhere; }
table { table-layout: fixed; width: 100%%; overflow-wrap: anywhere; }
@page { @footnote { border-top: 0.5pt solid #999; padding-top: 4pt; } }
.pdf-footnote { float: footnote; font-size: 8.5pt; line-height: 1.4; text-indent: 0;
  text-align: left; }
.pdf-footnote::footnote-call { content: none; }
.pdf-footnote::footnote-marker { content: attr(data-mark) " "; }
"""


@dataclass(frozen=True)
class PdfBook:
    """What a PDF says about itself: its cover words and its XMP."""

    title: str
    lang: str
    author: str
    date: str  # YYYY-MM-DD: the build's day
    page: str  # "A4" or "A5"
    stylesheet: str  # the EPUB's style.css (an archive's own when it has one)
    labels: dict[str, str]


@dataclass(frozen=True)
class PdfChapter:
    """One chapter ready to lay out: its section (links already in-document), its place in
    the category tree, and its images' file URIs by in-book name."""

    entry: Entry
    section: bytes  # the chapter's <section class="chapter"> as XHTML


def pdf_bytes(book: PdfBook, groups: list[Cat1Group], chapters: dict[int, PdfChapter],
              assets: Path) -> bytes:
    """The book laid out: title page, contents with page numbers, then each category's
    heading and its articles, in ``groups`` order. Nothing is read but files in ``assets``
    (02_assets: the chapters' images)."""
    import weasyprint  # imported when a PDF is made: the CLI loads without it

    html = weasyprint.HTML(string=_document(book, groups, chapters),
                           base_url=assets.as_uri() + "/", url_fetcher=_assets_only(assets))
    document = html.render()
    written = document.metadata.generate_rdf_metadata

    def with_language(*args: object) -> bytes:
        """WeasyPrint's XMP (PDF/A id, dc:title, dc:creator, xmp:CreateDate) with the
        book's dc:language and dc:date, which it does not write."""
        rdf: bytes = written(*args)
        return rdf.replace(b"</rdf:RDF>", _xmp_description(book) + b"</rdf:RDF>")

    document.metadata.generate_rdf_metadata = with_language
    with warnings.catch_warnings():
        # WeasyPrint 70 opens its sRGB profile for PDF/A's output intent and never closes it
        warnings.simplefilter("ignore", ResourceWarning)
        return bytes(document.write_pdf(pdf_variant=PDF_VARIANT))


def _assets_only(assets: Path) -> object:
    """WeasyPrint's fetcher limited to the files in ``assets``: the whitelist already dropped
    every image the archive does not hold, and a stylesheet an archive supplies (its
    templates/style.css) must not make a build reach the network or the rest of the disk."""
    from weasyprint.urls import URLFetcher

    root = assets.resolve()

    class AssetsOnly(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: object = None) -> object:
            parsed = urlsplit(url)
            # a file URL's path ("/C:/…" on Windows); not urllib.request's url2pathname:
            # this module imports nothing that can reach the network
            raw = unquote(parsed.path)
            path = Path(raw[1:] if raw[2:3] == ":" else raw).resolve()
            if parsed.scheme != "file" or not path.is_relative_to(root):
                raise ValueError(f"not a file of this archive's 02_assets: {url}")
            return super().fetch(url, headers)

    return AssetsOnly(allowed_protocols=("file",))


def _xmp_description(book: PdfBook) -> bytes:
    """An XMP description of the book's language and date (the dc prefix is declared on
    WeasyPrint's rdf:RDF)."""
    from xml.sax.saxutils import escape

    return (f'<rdf:Description rdf:about=""><dc:language><rdf:Bag><rdf:li>{escape(book.lang)}'
            f"</rdf:li></rdf:Bag></dc:language><dc:date><rdf:Seq><rdf:li>{escape(book.date)}"
            "</rdf:li></rdf:Seq></dc:date></rdf:Description>").encode()


def _document(book: PdfBook, groups: list[Cat1Group], chapters: dict[int, PdfChapter]) -> str:
    """One HTML document: the EPUB's stylesheet and the print rules, the front matter, then
    every chapter under its category headings."""
    e = etree.Element
    html = e("html", lang=book.lang)
    head = etree.SubElement(html, "head")
    etree.SubElement(head, "meta", charset="utf-8")
    etree.SubElement(head, "title").text = book.title
    etree.SubElement(head, "meta", name="author", content=book.author)
    etree.SubElement(head, "meta", name="dcterms.created", content=book.date)
    etree.SubElement(head, "style").text = book.stylesheet + PRINT_CSS % {"page": book.page}
    body = etree.SubElement(html, "body")
    front = etree.SubElement(body, "div", {"class": "pdf-front"})
    title_page = etree.SubElement(front, "section", {"class": "pdf-title-page"})
    etree.SubElement(title_page, "h1").text = book.title
    members = [entry for g in groups for entry in g.entries]
    dates = date_range(members)
    etree.SubElement(title_page, "p").text = (
        f"{len(members)} {book.labels['articles']}"
        + (f"{book.labels['comma']}{dates}" if dates else ""))
    nav = etree.SubElement(front, "nav", {"class": "pdf-contents"})
    etree.SubElement(nav, "h2").text = book.labels["contents"]
    top = etree.SubElement(nav, "ul")
    for k, g in enumerate(groups):
        name = display_category(g.name) if g.name else book.labels["uncategorized"]
        anchor = f"pdf-cat-{k}"
        item = etree.SubElement(top, "li")
        etree.SubElement(item, "a", href=f"#{anchor}").text = name
        etree.SubElement(body, "h1", {"class": "pdf-category", "id": anchor}).text = name
        under = etree.SubElement(item, "ul")
        for entry in g.direct:
            _place(body, under, chapters[entry.task_id], depth=2)
        for j, child in enumerate(g.children):
            sub_anchor = f"{anchor}-{j}"
            sub_item = etree.SubElement(under, "li")
            etree.SubElement(sub_item, "a", href=f"#{sub_anchor}").text = child.display
            etree.SubElement(body, "h2", {"class": "pdf-subcategory",
                                          "id": sub_anchor}).text = child.display
            sub_list = etree.SubElement(sub_item, "ul")
            for entry in child.entries:
                _place(body, sub_list, chapters[entry.task_id], depth=3)
    return etree.tostring(html, encoding="unicode", method="html")


def _place(body: etree._Element, contents: etree._Element, chapter: PdfChapter,
           depth: int) -> None:
    """The chapter's section into the body (its outline level by ``depth``), its line into
    the contents."""
    section = etree.fromstring(chapter.section)
    section.set("class", f"{section.get('class', '')} pdf-depth-{depth}".strip())
    for element in section.iter():
        if isinstance(element.tag, str) and element.tag.startswith("{"):
            element.tag = etree.QName(element).localname  # HTML, not namespaced XHTML
    body.append(section)
    item = etree.SubElement(contents, "li")
    etree.SubElement(item, "a", href=f"#{section.get('id')}").text = chapter.entry.title


def chapter_id(task_id: int) -> str:
    """The id of an article's section in the PDF (the EPUB's ``kb-top``, made unique)."""
    return f"a{task_id}"


def pdf_chapter(chapter: Chapter, here: dict[int, Chapter], url_of: dict[int, str]
                ) -> PdfChapter:
    """A staged EPUB chapter as a section of the one PDF document: links to an article in
    this book go to its section (at the place they name when it kept that id), links to one
    outside it to the article's URL; its images at their files in 02_assets."""

    def href_for(task_id: int, fragment: str) -> str | None:
        if task_id in here:
            target = here[task_id]
            name = find_anchor(fragment, target.anchors) if fragment else None
            return (f"#{target.anchors[name]}" if name is not None
                    else f"#{chapter_id(task_id)}")
        return outside_href(url_of.get(task_id, ""), fragment)

    page = resolve_links(chapter.staged.read_bytes(), href_for)
    tree = etree.fromstring(page)
    section = tree.find(".//x:section", _NS)
    if section is None:  # the template always writes one; a custom template may not
        section = tree.find(".//x:body", _NS)
        assert section is not None
        section.tag = f"{{{XHTML}}}section"
        section.set("class", "chapter")
    own = chapter_id(chapter.entry.task_id)
    old_id = section.get("id") or "kb-top"
    section.set("id", own)
    section.set("lang", tree.get("lang") or "und")
    sources = {"../" + image.name: image.source.as_uri() for image in chapter.images}
    for a in section.iterfind(".//x:a[@href]", _NS):
        if a.get("href") in ("", f"#{old_id}"):
            a.set("href", f"#{own}")
    for img in section.iterfind(".//x:img[@src]", _NS):
        src = sources.get(img.get("src", ""))
        if src is None:
            img.getparent().remove(img)  # not an image of this archive: never fetched
        else:
            img.set("src", src)
    notes_to_page_foot(section)
    return PdfChapter(chapter.entry, etree.tostring(section, encoding="utf-8"))


def build_pdfs(archive: Archive, tasks: list[Task], settings: Settings, *,
               cat1: str | None = None, split_by: str | None = None,
               task_ids: set[int] | None = None, title: str | None = None,
               progress: Progress | None = None, today: str = "",
               whole: WholeList | None = None) -> BuildResult:
    """Bind the same articles ``build_books`` would, in the same collections, order and
    volumes, into PDFs in 03_output (written aside and renamed), recorded in books.json
    beside the EPUBs (a volume a smaller build no longer makes is removed); index.html
    beside."""
    from datetime import date

    chosen, env, title, chosen_lang, labels, task_urls, report = plan_build(
        archive, tasks, settings, cat1=cat1, split_by=split_by, task_ids=task_ids, title=title,
        progress=progress, whole=whole)
    css = stylesheet(env).decode("utf-8")
    day = today or date.today().isoformat()
    made: list[Path] = []
    done = 0
    with tempfile.TemporaryDirectory(dir=archive.output_dir, prefix=".build-") as staging:
        for collection, members in collections_of(archive, chosen, cat1=cat1,
                                                  split_by=split_by, task_ids=task_ids,
                                                  labels=labels, title=title):
            lang = book_language(members, chosen_lang)
            book_labels = labels_for(lang)
            link_ids = book_link_ids(members, task_urls)
            targets = link_targets(members, link_ids)
            catalog = ImageCatalog(archive)
            staged = [prepare_chapter(
                archive, m, env=env, catalog=catalog, link_ids=link_ids,
                labels=book_labels, staging=Path(staging),
                targets=targets.get(m.task_id, frozenset())) for m in members]
            url_of = {m.task_id: m.url for m in members}
            volumes = pack(staged, settings.epub_budget_bytes)  # where the EPUB splits
            files: list[Path] = []
            for k, volume in enumerate(volumes, 1):
                here = {c.entry.task_id: c for c in volume}
                chapters = {i: pdf_chapter(c, here, url_of) for i, c in here.items()}
                shown = volume_label(book_labels, k, len(volumes))
                book = PdfBook(title=volume_title(collection.title, shown), lang=lang,
                               author=settings.book_author, date=day, page=settings.pdf_page,
                               stylesheet=css, labels=book_labels)
                data = pdf_bytes(book, group([c.entry for c in volume]), chapters,
                                 archive.assets_dir)
                stem = volume_stem(collection.stem, k, len(volumes))
                path = archive.output_dir / f"{stem}.pdf"
                temp = archive.output_dir / f".{stem}.pdf.tmp"
                temp.write_bytes(data)
                temp.replace(path)
                files.append(path)
                done += len(volume)
                report(done, len(chosen))
            for stale in record_build(archive, collection.key,
                                      collection_uuid(archive, collection.key), files,
                                      [m.task_id for m in members],
                                      {m.task_id: m.given_title for m in members
                                       if m.given_title}, format="pdf"):
                stale.unlink(missing_ok=True)
            made += files
    index = write_index(archive, tasks, order=settings.book_order, chosen_lang=chosen_lang,
                        env=env, whole=whole)
    return BuildResult([], index, [e.task_id for e in chosen], pdfs=made)
