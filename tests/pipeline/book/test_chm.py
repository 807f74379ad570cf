"""build --format chm (issue 29): the EPUB's collection and chapters as Windows Help, compiled
by Free Pascal's chmcmd and read back with libchm's extract_chmLib (Debian's libchm-bin), as a
reader's machine would open it."""

from __future__ import annotations

import html
import re
import struct
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from lxml import etree
from lxml import html as lxml_html

from pipeline.book import build_books
from pipeline.book.chm import (
    SIMPLIFIED,
    TRADITIONAL,
    WESTERN,
    CodePage,
    build_chms,
    code_page,
)
from pipeline.book.epub import COVER_IMAGE
from pipeline.cli.main import main
from pipeline.demo_site.server import DemoSite
from pipeline.intake.links import add_links
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.run.runner import Runner
from pipeline.store.archive import Archive
from pipeline.store.tasks import TaskStore
from tests.pipeline.book.hostile import make_hostile_archive
from tests.small_archive import make_small_archive

FAST = Settings().with_overrides(host_delay_ms=0, retry_waits=(0.05, 0.1), read_timeout=2.0)
# a title with characters code page 936 lacks: an emoji and a CJK Extension B ideograph
BEYOND_GBK = "廊桥笔记 😀 𠀀"
# (cat1, cat2) by the demo task's place in the list: two categories, one with a sub-category
PLACES = (("01_建筑", ""), ("01_建筑", "02_桥梁"), ("02_Coffee", ""))


@dataclass
class Chm:
    """A compiled CHM, its files extracted."""

    path: Path
    files: dict[str, bytes]  # name inside the CHM ("text/a1.html") → bytes

    @property
    def lcid(self) -> int:
        """The Language of #SYSTEM (its entry of code 4 starts with the LCID)."""
        data = self.files["#SYSTEM"]
        at = 4
        while at < len(data):
            code, size = struct.unpack_from("<HH", data, at)
            if code == 4:
                return int(struct.unpack_from("<I", data, at + 4)[0])
            at += 4 + size
        raise AssertionError("no LCID in #SYSTEM")


def read_chm(path: Path, into: Path) -> Chm:
    subprocess.run(["extract_chmLib", str(path), str(into)], capture_output=True, check=True)
    return Chm(path, {p.relative_to(into).as_posix(): p.read_bytes()
                      for p in into.rglob("*") if p.is_file()})


def sitemap(data: bytes, codec: str) -> list[tuple[str, str, list]]:
    """A .hhc or .hhk as (name, local, children) trees, names with their references read."""
    root = lxml_html.fromstring(data.decode(codec))

    def items(ul: etree._Element) -> list[tuple[str, str, list]]:
        out = []
        for li in ul.iterfind("li"):
            params = {p.get("name"): p.get("value") for p in li.iterfind("object/param")}
            nested = li.find("ul")
            out.append((html.unescape(params["Name"]), params["Local"],
                        items(nested) if nested is not None else []))
        return out

    return items(root.find(".//ul"))


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Archive, list[Task], Chm]:
    """The demo site archived by the real Runner, filed in categories, one title given by a
    person beyond GBK, bound as a CHM."""
    archive = Archive.open(tmp_path_factory.mktemp("demo") / "archive")
    store = TaskStore(archive.tasks_path)
    with DemoSite() as site:
        add_links(store, site.paste_text())
        Runner(archive, store, FAST).run()
    for k, task in enumerate(store.tasks()):
        cat1, cat2 = PLACES[k % len(PLACES)]
        store.update(task.id, cat1=cat1, cat2=cat2, title=BEYOND_GBK if k == 1 else "")
    tasks = store.tasks()
    [path] = build_chms(archive, tasks, FAST, title="演示文集").chms
    assert path == archive.output_dir / "演示文集.chm"
    return archive, tasks, read_chm(path, tmp_path_factory.mktemp("demo-read"))


def test_the_contents_tree_has_every_article_under_its_categories_in_book_order(
        demo: tuple[Archive, list[Task], Chm]) -> None:
    archive, tasks, chm = demo
    assert chm.lcid == 0x804  # Chinese (PRC): the book's language, code page 936
    [home, *categories] = sitemap(chm.files["book.hhc"], "gbk")
    assert home[:2] == ("演示文集", "index.html")
    bound = [t for t in tasks if t.status in ("cleaned", "localized")]
    assert len(bound) >= 10

    def titles(cat1: str, cat2: str) -> list[str]:
        return [t.display_title for t in bound if (t.cat1, t.cat2) == (cat1, cat2)]

    def pages(cat1: str, cat2: str) -> list[str]:
        return [f"text/a{t.id}.html" for t in bound if (t.cat1, t.cat2) == (cat1, cat2)]

    assert [(name, local) for name, local, _ in categories] == [
        ("建筑", "index.html#kb-c1"), ("Coffee", "index.html#kb-c2")]
    building, coffee = (children for _, _, children in categories)
    *direct, (bridges, bridges_at, under_bridges) = building
    assert [(n, p) for n, p, _ in direct] == list(zip(titles("01_建筑", ""),
                                                      pages("01_建筑", ""), strict=True))
    assert (bridges, bridges_at) == ("桥梁", "index.html#kb-c1-1")
    assert [(n, p) for n, p, _ in under_bridges] == list(zip(
        titles("01_建筑", "02_桥梁"), pages("01_建筑", "02_桥梁"), strict=True))
    assert [(n, p) for n, p, _ in coffee] == list(zip(titles("02_Coffee", ""),
                                                      pages("02_Coffee", ""), strict=True))
    # every category heading the contents name is on the home page
    home_page = chm.files["index.html"].decode("gbk")
    assert 'id="kb-c1"' in home_page and 'id="kb-c1-1"' in home_page
    assert 'id="kb-c2"' in home_page


def test_chinese_titles_read_back_right_beyond_the_code_page_too(
        demo: tuple[Archive, list[Task], Chm]) -> None:
    archive, tasks, chm = demo
    bound = [t for t in tasks if t.status in ("cleaned", "localized")]
    named = {t.id: t.display_title for t in bound}
    assert BEYOND_GBK in named.values() and "一座廊桥的修缮笔记" in named.values()
    contents = [(n, p) for _, _, children in sitemap(chm.files["book.hhc"], "gbk")[1:]
                for node in children for n, p in [node[:2], *(c[:2] for c in node[2])]]
    assert {p: n for n, p in contents if p.startswith("text/")} == {
        f"text/a{i}.html": title for i, title in named.items()}
    keywords = [n for n, _, _ in sitemap(chm.files["book.hhk"], "gbk")]
    assert keywords == sorted(set(named.values()), key=str.casefold)
    # the characters GBK lacks are references in the file, never "?"
    assert b"&#128512; &#131072;" in chm.files["book.hhc"]
    for task_id, title in named.items():
        page = chm.files[f"text/a{task_id}.html"]
        assert b"charset=gb2312" in page
        assert lxml_html.fromstring(page.decode("gbk")).findtext(".//title") == title


def test_every_chapter_page_and_image_is_inside(demo: tuple[Archive, list[Task], Chm],
                                                tmp_path: Path) -> None:
    archive, tasks, chm = demo
    bound = [t for t in tasks if t.status in ("cleaned", "localized")]
    pages = {n for n in chm.files if n.startswith("text/")}
    assert pages == {f"text/a{t.id}.html" for t in bound}
    [epub] = build_books(archive, tasks, FAST).epubs
    with zipfile.ZipFile(epub) as z:
        pictures = {n.removeprefix("EPUB/") for n in z.namelist()
                    if n.startswith("EPUB/images/")} - {COVER_IMAGE}
    inside = {n for n in chm.files if n.startswith("images/")}
    assert len(inside) > 1 and inside == pictures  # the same images the EPUB binds
    shown = set()
    for name in pages:
        for src in lxml_html.fromstring(chm.files[name].decode("gbk")).xpath("//img/@src"):
            assert src.startswith("../images/")
            shown.add(src.removeprefix("../"))
    assert shown == inside
    for name in inside:
        local = next(archive.assets_dir.rglob(Path(name).stem + ".*"))
        assert chm.files[name] == local.read_bytes()
    assert {"index.html", "style.css", "book.hhc", "book.hhk"} <= set(chm.files)


def test_hostile_content_does_not_reach_the_pages(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    tasks = make_hostile_archive(archive)
    result = build_chms(archive, tasks, Settings())
    chm = read_chm(result.chms[0], tmp_path / "read")
    pages = [n for n in chm.files if n.endswith(".html")]
    assert sorted(pages) == sorted(["index.html", *(f"text/a{i}.html" for i in result.task_ids)])
    for name in pages:
        root = lxml_html.fromstring(chm.files[name])
        bad = root.xpath("//script | //iframe | //form | //input | //object | //embed"
                         " | //frame | //style | //svg | //video | //audio")
        assert not bad, (name, [e.tag for e in bad])
        for element in root.iter():
            if not isinstance(element.tag, str):
                continue
            assert not [a for a in element.attrib if a.lower().startswith("on")], name
            assert "style" not in element.attrib, name
            for attr in ("href", "src"):
                value = element.get(attr, "").strip().lower()
                assert not value.startswith(("javascript:", "data:", "vbscript:")), name
        assert not [s for s in root.xpath("//img/@src") if not s.startswith("../images/")]
    assert not re.search(rb"evil\.example", b"".join(chm.files[n] for n in pages))


def test_without_chmcmd_the_project_is_written_and_the_line_says_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    root = make_small_archive(tmp_path / "archive")
    empty = tmp_path / "no-tools"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert main(["build", "--format", "chm", "--archive", str(root)]) == 4
    out = capsys.readouterr().out.splitlines()
    output = root / "03_output"
    project = output / "archive-chm-project"
    assert (f"chmcmd not found: the CHM project is written to {project} but not compiled;"
            " install it (apt-get install fp-utils) and build again") in out
    assert not list(output.glob("*.chm"))
    hhp = (project / "book.hhp").read_bytes().decode("gbk")
    assert "Contents file=book.hhc" in hhp and "Index file=book.hhk" in hhp
    assert "Default topic=index.html" in hhp and "Language=0x804 Chinese (PRC)" in hhp
    listed = hhp.split("[FILES]", 1)[1].split()
    assert sorted(listed) == sorted(["index.html", "style.css", "text/a1.html",
                                     "text/a2.html", "text/a3.html"])
    for name in [*listed, "book.hhc", "book.hhk"]:
        assert (project / name).is_file(), name
    assert "廊桥的修缮" in (project / "book.hhc").read_bytes().decode("gbk")


def test_cli_compiles_with_chmcmd_and_a_later_build_clears_the_uncompiled_project(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    root = make_small_archive(tmp_path / "archive")
    project = root / "03_output" / "archive-chm-project"
    with monkeypatch.context() as patched:
        patched.setenv("PATH", str(tmp_path))
        assert main(["build", "--format", "chm", "--archive", str(root)]) == 4
    assert project.is_dir()
    assert main(["build", "--format", "chm", "--archive", str(root)]) == 0
    out = capsys.readouterr().out
    [chm] = [Path(line.split(None, 1)[1]) for line in out.splitlines()
             if line.startswith("CHM:")]
    assert chm == root / "03_output" / "archive.chm" and not project.exists()
    assert "chmcmd not found" not in out.split("CHM:", 1)[1]  # the second build's lines
    inside = read_chm(chm, tmp_path / "read").files
    assert "木拱廊桥的修缮从拆下桥屋开始" in inside["text/a2.html"].decode("gbk")


@pytest.mark.parametrize(("lang", "titles", "chosen"), [
    ("zh-CN", ["缓存的设计", BEYOND_GBK], SIMPLIFIED),  # an emoji is a reference in any
    ("en", ["The old harbour", "廊桥的修缮", "Tea notes"], SIMPLIFIED),  # Chinese shown
    ("en", ["Café notes", "Über alles"], WESTERN),  # é and Ü: 936 lacks Ü
    ("en", ["Plain words"], WESTERN),  # a tie: the language's own
    ("zh-Hant-TW", ["木拱廊橋的修繕"], TRADITIONAL),
    ("zh-TW", ["廊桥的修缮"], SIMPLIFIED),  # simplified characters Big5 lacks
])
def test_the_code_page_is_the_one_that_shows_the_titles(lang: str, titles: list[str],
                                                        chosen: CodePage) -> None:
    assert code_page(lang, titles) == chosen


def test_a_compiler_that_fails_is_one_line_naming_the_project(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    root = make_small_archive(tmp_path / "archive")
    tools = tmp_path / "tools"
    tools.mkdir()
    broken = tools / "chmcmd"
    broken.write_text("#!/bin/sh\necho 'Writing CHM book.chm'\necho 'Error: disk on fire' >&2\n"
                      "exit 3\n", encoding="utf-8")
    broken.chmod(0o755)
    monkeypatch.setenv("PATH", str(tools))
    assert main(["build", "--format", "chm", "--archive", str(root)]) == 1
    said = capsys.readouterr().err.splitlines()  # the progress lines, then the one error
    assert [line for line in said if not line.startswith("[")] == [
        f"error: chmcmd could not compile {root / '03_output' / 'archive.chm'}:"
        " Error: disk on fire"]
    assert not list((root / "03_output").glob("*.chm"))


def test_the_chm_is_a_book_and_the_archives_index_links_every_format(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CHM is recorded like the EPUB and the PDF (``books`` lists it, out of date on its
    own), and 03_output/index.html, the archive's page, links each format's file and keeps the
    archive's name whatever title the last build gave its book."""
    root = make_small_archive(tmp_path / "archive")
    for format in ("epub", "chm", "pdf"):  # the PDF last: it titled the index by its book
        assert main(["build", "--format", format, "--title", "廊桥集",
                     "--archive", str(root)]) == 0
    capsys.readouterr()
    assert main(["books", "--archive", str(root)]) == 0
    listed = sorted(line.split("  ")[0] for line in capsys.readouterr().out.splitlines())
    assert listed == ["廊桥集.chm", "廊桥集.epub", "廊桥集.pdf"]
    page = lxml_html.fromstring((root / "03_output" / "index.html").read_bytes())
    links = {a.get("href") for a in page.iter("a")}
    assert {"%E5%BB%8A%E6%A1%A5%E9%9B%86.chm", "%E5%BB%8A%E6%A1%A5%E9%9B%86.pdf",
            "%E5%BB%8A%E6%A1%A5%E9%9B%86.epub"} <= links
    assert "廊桥集" not in page.findtext(".//title")
    assert page.findtext(".//title").startswith("archive")
