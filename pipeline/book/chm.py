"""The book as a CHM, Microsoft Compiled HTML Help (issue 29; seed 003 names it beside EPUB
and PDF): on Windows it opens in the system's own viewer, with no reader to install.

``build_chms`` binds the same collections, order and chapters as ``build_books`` (the chapters
staged by ``prepare_chapter``, so only what the XHTML whitelist lets into an EPUB is here) and
writes an HTML Help project per collection: ``book.hhp`` (the options and every file),
``book.hhc`` (the contents: category → sub-category → article, in book order), ``book.hhk``
(the index: article titles), ``index.html`` (the home page: the book's index of articles),
``style.css``, ``text/a<id>.html`` and ``images/`` (from 02_assets). Free Pascal's ``chmcmd``
(Debian's ``fp-utils``) compiles it to ``03_output/<name>.chm``; without it on PATH the
project is left in ``03_output/<name>-chm-project/`` (``BuildResult.chm_projects``) for
``chmcmd`` or Microsoft's HTML Help Workshop to compile, and the command says what to install.

The code page. The classic viewer (hh.exe) reads the contents and index files, and shows
titles, in the ANSI code page of the project's Language (LCID), never in UTF-8; its pages go
through MSHTML, which honours a page's charset and numeric character references. So every
text file of a project is written in one Windows code page: Chinese is 0x804 Chinese (PRC) in
code page 936 (GBK; GB18030 is code page 54936, which no LCID has as its ANSI code page, so
hh.exe cannot read it), Traditional Chinese 0x404 in 950 (Big5), Japanese 932, Korean 949,
other languages 0x409 in 1252. The book's language names it, unless another holds more of
the titles the contents and index show (an English-majority book of Chinese and English
articles is written in 936, or its Chinese titles would be references the tree cannot show).
A character outside the code page (an emoji, a CJK Extension B ideograph) is written as a
numeric character reference, which HTML and the sitemap files allow: the pages show it as it
is, and the contents and index keep its exact code point (a Unicode reader shows it; hh.exe's
ANSI tree a placeholder). The .hhp allows none: there such a character is a ``?``.

Tested with chmcmd 3.2 and libchm 0.40 (``extract_chmLib``, ``test_chmLib``): chmcmd copies
the sitemap files byte for byte, but reads the .hhk as UTF-8 when it makes a binary index (GBK
titles came out as ``????``), so the index is left as the sitemap file (``Binary Index=No``),
read by the viewer in the code page like the contents; and it misnames the directory's first
listing chunk (``repair_listing``). Sphinx's htmlhelp builder makes the same choice of code
page: pages, contents and index in the LCID's, ``xmlcharrefreplace``.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import struct
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import jinja2
from lxml import etree

from pipeline.book import (
    BuildResult,
    Progress,
    book_language,
    book_link_ids,
    collections_of,
    plan_build,
)
from pipeline.book.chapters import (
    Chapter,
    ImageCatalog,
    chapter_href,
    link_targets,
    outside_href,
    prepare_chapter,
    resolve_links,
)
from pipeline.book.collect import Cat1Group, Entry, group
from pipeline.book.identity import collection_uuid, record_build
from pipeline.book.index import WholeList, write_index
from pipeline.book.labels import labels_for
from pipeline.book.pages import date_range, index_tree, render_xhtml, stylesheet
from pipeline.records.errors import BookError
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.store.archive import Archive
from pipeline.text.language import primary_subtag

COMPILER = "chmcmd"  # Free Pascal's CHM compiler
INSTALL = "apt-get install fp-utils"  # the Debian package that has it
PROJECT = "book"  # the project's own files: book.hhp, .hhc, .hhk, .chm (ASCII for chmcmd)
HOME = "index.html"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


@dataclass(frozen=True)
class CodePage:
    """A Windows code page as HTML Help names it: the project's LCID and Language line, the
    codec its text files are written in, and the charset label MSHTML knows it by."""

    lcid: int
    language: str
    codec: str
    charset: str


WESTERN = CodePage(0x409, "English (United States)", "cp1252", "windows-1252")
SIMPLIFIED = CodePage(0x804, "Chinese (PRC)", "gbk", "gb2312")
TRADITIONAL = CodePage(0x404, "Chinese (Taiwan)", "cp950", "big5")
JAPANESE = CodePage(0x411, "Japanese", "cp932", "shift_jis")
KOREAN = CodePage(0x412, "Korean", "cp949", "ks_c_5601-1987")
_PAGES = (SIMPLIFIED, TRADITIONAL, JAPANESE, KOREAN, WESTERN)
_BY_LANGUAGE = {"zh": SIMPLIFIED, "ja": JAPANESE, "ko": KOREAN}
_TRADITIONAL_SUBTAGS = frozenset(("hant", "tw", "hk", "mo"))


def language_page(lang: str) -> CodePage:
    """The code page of ``lang`` (a BCP 47 tag): Traditional Chinese for ``zh-Hant`` and the
    Chinese of Taiwan, Hong Kong and Macao (unless written ``Hans``); Western for a language
    without a double-byte one."""
    subtags = set(lang.lower().split("-")[1:])
    if (primary_subtag(lang) == "zh" and subtags & _TRADITIONAL_SUBTAGS
            and "hans" not in subtags):
        return TRADITIONAL
    return _BY_LANGUAGE.get(primary_subtag(lang), WESTERN)


def code_page(lang: str, titles: Iterable[str] = ()) -> CodePage:
    """The code page of a book in ``lang`` whose contents and index show ``titles``: the one
    that leaves the fewest of their characters to references, the language's own on a tie
    (an English book of Chinese articles still shows their titles in the viewer's tree)."""
    counts = Counter("".join(titles))

    def lost(page: CodePage) -> int:
        missing = 0
        for char, n in counts.items():
            try:
                char.encode(page.codec)
            except UnicodeEncodeError:
                missing += n
        return missing

    own = language_page(lang)
    return min([own, *(p for p in _PAGES if p != own)], key=lost)


def encoded(text: str, page: CodePage) -> bytes:
    """HTML or sitemap text in the code page, each character outside it a numeric character
    reference (nothing is lost)."""
    return text.encode(page.codec, "xmlcharrefreplace")


def html_page(xhtml: bytes, page: CodePage) -> bytes:
    """A book page (XHTML, as the EPUB has it) as the HTML MSHTML reads: no namespaces
    (``xml:lang`` as ``lang``, ``epub:type`` dropped; ``role`` carries its meaning), its
    charset declared, standards mode asked for."""
    root = etree.fromstring(xhtml, _PARSER)
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        element.tag = etree.QName(element).localname
        for name in [n for n in element.attrib if n.startswith("{")]:
            value = element.attrib.pop(name)
            if name == _XML_LANG and "lang" not in element.attrib:
                element.set("lang", value)
    etree.cleanup_namespaces(root)
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    for meta in head.findall("meta[@charset]"):
        head.remove(meta)
    head.insert(0, etree.Element("meta", {"http-equiv": "X-UA-Compatible",
                                          "content": "IE=edge"}))
    head.insert(0, etree.Element("meta", {"http-equiv": "Content-Type",
                                          "content": f"text/html; charset={page.charset}"}))
    text = etree.tostring(root, method="html", encoding="unicode", doctype="<!DOCTYPE html>")
    return encoded(text, page)


def ascii_css(css: str) -> bytes:
    """A stylesheet readable in any code page: each non-ASCII character a CSS escape."""
    return re.sub(r"[^\x00-\x7f]", lambda m: f"\\{ord(m[0]):x} ", css).encode("ascii")


def page_file(task_id: int) -> str:
    """An article's page inside the CHM."""
    return f"text/a{task_id}.html"


def _sitemap_item(name: str, local: str | list[tuple[str, str]]) -> str:
    """One ``<LI><OBJECT type="text/sitemap">``: a name and its page, or (for an index
    keyword shared by several articles) several name/page pairs."""
    pairs = [(name, local)] if isinstance(local, str) else local
    params = "".join(f'<param name="Name" value="{html.escape(n)}">'
                     f'<param name="Local" value="{html.escape(href)}">' for n, href in pairs)
    if not isinstance(local, str):
        params = f'<param name="Name" value="{html.escape(name)}">' + params
    return f'<LI> <OBJECT type="text/sitemap">{params}</OBJECT>'


def _sitemap(page: CodePage, lines: list[str]) -> bytes:
    head = (f'<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML//EN">\n<HTML>\n<HEAD>\n'
            f'<meta http-equiv="Content-Type" content="text/html; charset={page.charset}">\n'
            "</HEAD>\n<BODY>\n")
    return encoded(head + "\n".join(lines) + "\n</BODY>\n</HTML>\n", page)


def contents_file(title: str, groups: list[Cat1Group], labels: dict[str, str],
                  page: CodePage) -> bytes:
    """The .hhc: the home page, then each category (its heading on the home page) with its
    articles, its sub-categories and theirs, in book order."""
    lines = ['<OBJECT type="text/site properties"><param name="ImageType" value="Folder">'
             "</OBJECT>", "<UL>", _sitemap_item(title, HOME)]
    tree = index_tree(groups, labels, lambda e: {"title": e.title,
                                                 "href": page_file(e.task_id)})
    for node in tree:
        lines += [_sitemap_item(node["title"], f"{HOME}#{node['id']}"), "<UL>"]
        lines += [_sitemap_item(row["title"], row["href"]) for row in node["entries"]]
        for child in node["children"]:
            lines += [_sitemap_item(child["title"], f"{HOME}#{child['id']}"), "<UL>"]
            lines += [_sitemap_item(row["title"], row["href"]) for row in child["entries"]]
            lines.append("</UL>")
        lines.append("</UL>")
    lines.append("</UL>")
    return _sitemap(page, lines)


def index_file(entries: list[Entry], page: CodePage) -> bytes:
    """The .hhk: every article's title, sorted; a title several articles share is one keyword
    that offers each of them."""
    by_title: dict[str, list[tuple[str, str]]] = {}
    for e in entries:
        by_title.setdefault(e.title, []).append((e.title, page_file(e.task_id)))
    lines = ["<UL>"]
    for title in sorted(by_title, key=str.casefold):
        pages = by_title[title]
        lines.append(_sitemap_item(title, pages[0][1] if len(pages) == 1 else pages))
    lines.append("</UL>")
    return _sitemap(page, lines)


def project_file(title: str, page: CodePage, files: list[str]) -> bytes:
    """The .hhp: the options chmcmd and HTML Help Workshop read, and every file to put in.
    Its title cannot hold character references: what the code page lacks is a ``?``."""
    one_line = _CONTROL.sub(" ", title).strip()
    text = "\r\n".join([
        "[OPTIONS]", "Compatibility=1.1 or later", f"Compiled file={PROJECT}.chm",
        f"Contents file={PROJECT}.hhc", f"Index file={PROJECT}.hhk", f"Default topic={HOME}",
        "Display compile progress=No", "Full-text search=Yes", "Binary Index=No",
        f"Language=0x{page.lcid:x} {page.language}", f"Title={one_line}", "",
        "[FILES]", *files, ""])
    return text.encode(page.codec, "replace")


@dataclass(frozen=True)
class ChmBook:
    """One collection ready to write: its name and language, its chapters as staged."""

    title: str
    lang: str
    labels: dict[str, str]
    members: list[Entry]
    chapters: dict[int, Chapter]
    stylesheet: str


def write_project(folder: Path, book: ChmBook, env: jinja2.Environment,
                  url_of: dict[int, str]) -> Path:
    """Every file of the book's HTML Help project into ``folder``; the .hhp's path."""
    groups = group(book.members)
    page = code_page(book.lang, [book.title, *(g.name for g in groups),
                                 *(c.name for g in groups for c in g.children),
                                 *(e.title for e in book.members)])
    here = {i: replace(c, file_name=page_file(i)) for i, c in book.chapters.items()}

    def href_for(task_id: int, fragment: str) -> str | None:
        """Beside it in this book: its page, at the fragment's id if it kept it; elsewhere:
        the article's URL."""
        if task_id in here:
            return chapter_href(here[task_id], fragment)
        return outside_href(url_of.get(task_id, ""), fragment)

    (folder / "text").mkdir(parents=True)
    (folder / "images").mkdir()
    files = [HOME, "style.css"]
    images: dict[str, Path] = {}
    for task_id, chapter in book.chapters.items():
        xhtml = resolve_links(chapter.staged.read_bytes(), href_for)
        (folder / page_file(task_id)).write_bytes(html_page(xhtml, page))
        files.append(page_file(task_id))
        images.update((image.name, image.source) for image in chapter.images)
    for name, source in sorted(images.items()):
        shutil.copyfile(source, folder / name)
        files.append(name)
    tree = index_tree(groups, book.labels, lambda e: {
        "title": e.title, "href": page_file(e.task_id), "domain": e.domain,
        "published": e.published_day, "fetched": e.fetched_day, "chars": e.chars,
        "length": e.shown_length(book.labels)})
    home = render_xhtml(env, "index.xhtml.j2", title=book.title, lang=book.lang,
                        labels=book.labels, count=len(book.members),
                        date_range=date_range(book.members), volume="", groups=tree,
                        stylesheet="style.css")
    (folder / HOME).write_bytes(html_page(home, page))
    (folder / "style.css").write_bytes(ascii_css(book.stylesheet))
    (folder / f"{PROJECT}.hhc").write_bytes(contents_file(book.title, groups, book.labels,
                                                         page))
    (folder / f"{PROJECT}.hhk").write_bytes(index_file(book.members, page))
    hhp = folder / f"{PROJECT}.hhp"
    hhp.write_bytes(project_file(book.title, page, files))
    return hhp


def compile_project(hhp: Path, compiler: str, path: Path) -> None:
    """The project compiled by chmcmd into ``path``; a BookError with chmcmd's last words when
    it fails."""
    done = subprocess.run([compiler, "--no-html-scan", hhp.name], cwd=hhp.parent,
                          capture_output=True, text=True, errors="replace", check=False)
    made = hhp.with_suffix(".chm")
    if done.returncode != 0 or not made.is_file():
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise BookError(f"{COMPILER} could not compile {path}: "
                        f"{said[-1] if said else f'exit status {done.returncode}'}")
    repair_listing(made)
    os.replace(made, path)


def repair_listing(chm: Path) -> None:
    """chmcmd 3.2 names the second listing chunk as the directory's first (ITSP "first PMGL")
    once a book needs several, so a reader that lists the files (libchm's ``chm_enumerate``,
    ``extract_chmLib``, an unpacker) misses the first chunk's pages and images; one that looks
    a name up (the viewers) finds them. The field is set to the chunk that starts the chain."""
    with open(chm, "r+b") as f:
        head = f.read(0x50)
        if head[:4] != b"ITSF" or len(head) < 0x50:
            return
        (directory,) = struct.unpack_from("<Q", head, 0x48)
        f.seek(directory)
        itsp = f.read(0x30)
        if itsp[:4] != b"ITSP" or len(itsp) < 0x30:
            return
        length, chunk_size = struct.unpack_from("<4xI4xI", itsp, 4)
        first, count = struct.unpack_from("<i8xI", itsp, 0x20)
        for k in range(count):
            f.seek(directory + length + k * chunk_size)
            chunk = f.read(0x14)
            if chunk[:4] == b"PMGL" and struct.unpack_from("<i", chunk, 0xC)[0] == -1:
                if k != first:
                    f.seek(directory + 0x20)
                    f.write(struct.pack("<i", k))
                return


def project_folder(output_dir: Path, stem: str) -> Path:
    """Where a project chmcmd could not compile is left."""
    return output_dir / f"{stem}-chm-project"


def missing_compiler(projects: list[Path]) -> str:
    """The one line that says what is left and what to install."""
    where = ", ".join(str(p.parent) for p in projects)
    return (f"{COMPILER} not found: the CHM project is written to {where} but not compiled;"
            f" install it ({INSTALL}) and build again")


def build_chms(archive: Archive, tasks: list[Task], settings: Settings, *,
               cat1: str | None = None, split_by: str | None = None,
               task_ids: set[int] | None = None, title: str | None = None,
               progress: Progress | None = None,
               whole: WholeList | None = None) -> BuildResult:
    """Bind the same articles ``build_books`` would, in the same collections and order, into
    one CHM per collection in 03_output (compiled aside and renamed); index.html beside. With
    no chmcmd on PATH each collection's project is left in its project folder instead."""
    chosen, env, title, chosen_lang, labels, task_urls, report = plan_build(
        archive, tasks, settings, cat1=cat1, split_by=split_by, task_ids=task_ids, title=title,
        progress=progress, whole=whole)
    compiler = shutil.which(COMPILER)
    css = stylesheet(env).decode("utf-8")
    chms: list[Path] = []
    projects: list[Path] = []
    done = 0
    with tempfile.TemporaryDirectory(dir=archive.output_dir, prefix=".build-") as staging:
        for k, (collection, members) in enumerate(collections_of(
                archive, chosen, cat1=cat1, split_by=split_by, task_ids=task_ids,
                labels=labels, title=title)):
            lang = book_language(members, chosen_lang)
            book_labels = labels_for(lang)
            link_ids = book_link_ids(members, task_urls)
            targets = link_targets(members, link_ids)
            catalog = ImageCatalog(archive)
            chapters: dict[int, Chapter] = {}
            for m in members:
                chapters[m.task_id] = prepare_chapter(
                    archive, m, env=env, catalog=catalog, link_ids=link_ids,
                    labels=book_labels, staging=Path(staging),
                    targets=targets.get(m.task_id, frozenset()))
                done += 1
                report(done, len(chosen))
            book = ChmBook(collection.title, lang, book_labels, members, chapters, css)
            hhp = write_project(Path(staging) / f"chm-{k}", book, env,
                                {m.task_id: m.url for m in members})
            kept = project_folder(archive.output_dir, collection.stem)
            shutil.rmtree(kept, ignore_errors=True)  # the last build's, left uncompiled
            if compiler is None:
                os.replace(hhp.parent, kept)
                projects.append(kept / hhp.name)
                continue
            path = archive.output_dir / f"{collection.stem}.chm"
            compile_project(hhp, compiler, path)
            chms.append(path)
            for stale in record_build(archive, collection.key,
                                      collection_uuid(archive, collection.key), [path],
                                      [m.task_id for m in members],
                                      {m.task_id: m.given_title for m in members
                                       if m.given_title}, format="chm"):
                stale.unlink(missing_ok=True)  # a renamed book's last file
    index = write_index(archive, tasks, order=settings.book_order, chosen_lang=chosen_lang,
                        env=env, whole=whole)
    return BuildResult([], index, [e.task_id for e in chosen], chms=chms,
                       chm_projects=projects)
