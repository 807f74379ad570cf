"""``book``, the whole job in one command, in the checkout (tests/test_install.py runs it
installed): its sources, where the book goes, and what it says when no page could be had."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cli.main import main
from tests.sites.articles import ArticleSite, article


def _page(title: str, line: str) -> str:
    return article(title, [f"{n}. {line}" for n in range(1, 9)])


def test_links_from_a_file_and_the_book_named_by_its_first_article(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    with ArticleSite() as site:
        tea = site.put("/tea.html", _page("砖茶的来历", "砖茶压得很紧，要用茶刀一点点撬开，"
                                          "煮的时候加一撮盐，草原上的人家一天要喝好几遍。"))
        bikes = site.put("/bikes.html", _page("冬天骑车", "冬天骑车最怕的是手冷，厚手套又不好捏"
                                              "刹车，老骑手的办法是在车把上套一对棉把套。"))
        links = tmp_path / "links.md"
        links.write_text(f"- [茶]({tea})\n- [车]({bikes})\n", encoding="utf-8")
        assert main(["book", str(links)]) == 0
    out = capsys.readouterr().out
    book = tmp_path / "砖茶的来历.epub"
    assert out.splitlines()[-1] == f"book: {book}"
    assert "2 articles bound" in out and book.is_file()
    assert list(tmp_path.glob(".kuaibu-book-*")) == []  # the binding folder is gone
    assert (tmp_path / "data" / "kuaibu" / "book" / "tasks.csv").is_file()


def test_no_page_to_be_had_is_one_error_naming_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ArticleSite() as site:
        gone = site.url("/gone.html")
        code = main(["--archive", str(tmp_path / "a"), "book", gone, "-o",
                     str(tmp_path / "x.epub")])
    captured = capsys.readouterr()
    assert code == 1
    assert f"not in the book: #1 {gone} — HTTP 404" in captured.out
    assert captured.err.splitlines()[-1] == ("error: no page could be archived, so no book"
                                             " was made (1 page failed)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a"]
