"""Harvesting a list page: a local site with the chrome real list pages carry around their list
(nav, pagination, a tag cloud, ads, share links, resource links), served over real HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.intake.harvest import candidates, classify, next_page
from pipeline.intake.links import PageKind
from pipeline.records.failures import Code
from pipeline.records.settings import Settings
from pipeline.usecases.workspace import Workspace
from tests.pipeline.test_duplicates import BRIDGE
from tests.sites.articles import ArticleSite, article

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0)

TITLES_EN = [f"How the river town rebuilt bridge number {n} after the flood" for n in range(30)]
TITLES_ZH = [f"古镇第{n}座廊桥在洪水之后的修缮与重建纪实" for n in range(30)]


def article_paths(page: int = 1) -> list[str]:
    """The 30 articles of list page ``page``: dated paths, numeric ids, and plain slugs."""
    out = []
    for n in range(30):
        i = (page - 1) * 30 + n
        if n % 3 == 0:
            out.append(f"/2024/05/{i:02d}/story-{i}.html")
        elif n % 3 == 1:
            out.append(f"/news/{10000 + i}.html")
        else:
            out.append(f"/stories/the-bridge-keepers-tale-part-{i}")
    return out


def list_page(paths: list[str], titles: list[str], *, next_href: str | None, next_text: str,
              charset: str = "utf-8", base: str = "") -> str:
    """A channel page: its list of articles among nav, ads, a tag cloud, share links,
    pagination and resource links."""
    items = "".join(
        f'<li class="item"><a href="{p}"><img src="/thumbs/{k}.jpg" alt=""></a>'
        f'<h3><a href="{p}">{t}</a></h3><span class="meta">2024-05-{k % 28 + 1:02d}'
        f' <a href="/tag/bridges">Bridges</a></span></li>'
        for k, (p, t) in enumerate(zip(paths, titles, strict=True)))
    pager = "".join(f'<a href="/list?page={n}">{n}</a>' for n in range(1, 6))
    if next_href:
        pager += f'<a href="{next_href}">{next_text}</a>'
    return f"""<!DOCTYPE html><html><head><meta charset="{charset}"><title>Channel</title>
<link rel="stylesheet" href="/static/site.css">{base}</head><body>
<header><a href="/"><img src="/logo.png" alt="Home"></a>
<nav><a href="/">Home</a> <a href="/news/">News</a> <a href="/about-this-magazine-and-its-people">
About this magazine and its people</a></nav></header>
<div class="ad"><a href="https://ads.example.net/click?id=123">Buy the best bridge paint in
the whole wide world today</a></div>
<main><h1>River towns</h1><ul class="articles">{items}</ul>
<div class="pages">{pager}</div></main>
<div class="cloud"><a href="/tag/flood">flood</a> <a href="/tag/wood">wood</a>
<a href="/tag/river">river</a> <a href="/tag/tea">tea</a> <a href="/tag/history">history</a></div>
<div class="share"><a href="/share?to=weibo">微博</a> <a href="/share?to=wechat">微信</a>
<a href="https://twitter.com/intent/tweet?url=x">Twitter</a> <a href="#top">Top</a>
<a href="javascript:void(0)">Print</a></div>
<p>Downloads: <a href="/files/annual-report-of-the-river-towns-2024.pdf">The annual report
of the river towns, 2024</a>, <a href="/media/a-film-about-the-bridge-keepers.mp4">A film about
the bridge keepers and their work</a>.</p>
<footer><a href="/contact">Contact us</a> <a href="/privacy">Privacy</a></footer>
</body></html>"""


def english_list(page: int = 1, pages: int = 1) -> str:
    nxt = f"/list?page={page + 1}" if page < pages else None
    return list_page(article_paths(page), TITLES_EN, next_href=nxt, next_text="Next ›")


def chosen(html: str, url: str, **kwargs: object) -> list[str]:
    return [c.url for c in candidates(html, url, **kwargs) if c.chosen]  # type: ignore[arg-type]


def absolute(site: ArticleSite, paths: list[str]) -> list[str]:
    return [site.url(p) for p in paths]


# -- the pure functions ------------------------------------------------------------------------

def test_a_list_page_gives_exactly_its_30_articles_in_page_order() -> None:
    url = "http://news.example.com/list"
    html = english_list()
    kind, reason = classify(html, url)
    assert kind is PageKind.LIST, reason
    assert reason.code is Code.LIST_PAGE and "30 links" in reason.text
    want = [f"http://news.example.com{p}" for p in article_paths()]
    assert chosen(html, url) == want
    # nav, pagination, tags, ads, sharing and resources are no candidates at all, not merely
    # ones that scored low
    assert [c.url for c in candidates(html, url)] == want


def test_base_href_resolves_the_links() -> None:
    html = list_page(["a/1001.html", "b/1002.html", "c/1003.html", "d/1004.html",
                      "e/1005.html"], TITLES_EN[:5], next_href=None, next_text="",
                     base='<base href="http://news.example.com/archive/">')
    got = chosen(html, "http://news.example.com/list")
    assert got == [f"http://news.example.com/archive/{c}/{1001 + i}.html"
                   for i, c in enumerate("abcde")]


def test_any_site_lets_other_hosts_in_but_never_chrome_or_resources() -> None:
    url = "http://news.example.com/list"
    found = {c.url for c in candidates(english_list(), url, same_site=False)}
    assert "https://ads.example.net/click?id=123" in found
    assert not any(u.endswith((".pdf", ".mp4", ".css", ".jpg")) for u in found)
    assert "http://news.example.com/about-this-magazine-and-its-people" not in found


def test_a_menu_is_chrome_as_the_extractor_takes_it() -> None:
    """Harvest and the extractor read chrome by the same tags (``markup``): the links of a
    <menu> are the site's commands, never articles, as those of a <nav> are."""
    url = "http://news.example.com/list"
    html = english_list().replace(
        "</header>", "</header><menu><li><a href='/section/long-named-menu-entry-number-one'>"
        "A long menu entry that reads like a headline</a></li></menu>", 1)
    found = {c.url: c for c in candidates(html, url)}
    assert "http://news.example.com/section/long-named-menu-entry-number-one" not in found


def test_pattern_and_article_link_pattern_restrict_the_set() -> None:
    url = "http://news.example.com/list"
    html = english_list()
    assert chosen(html, url, pattern=r"/news/\d+") == [
        f"http://news.example.com{p}" for p in article_paths() if p.startswith("/news/")]
    ranked = candidates(html, url, site_pattern=r"/2024/")
    assert [c.url for c in ranked if c.chosen] == [
        f"http://news.example.com{p}" for p in article_paths() if p.startswith("/2024/")]
    assert all({Code.MATCHES_PATTERN, Code.MISSES_PATTERN} & {r.code for r in c.reasons}
               for c in ranked)


def test_next_page_is_found_by_rel_text_and_arrows() -> None:
    url = "http://x.example.com/list"
    assert next_page(english_list(1, 3), url) == "http://x.example.com/list?page=2"
    assert next_page(english_list(3, 3), url) is None
    rel = '<html><head><link rel="next" href="/p/2"></head><body><p>x</p></body></html>'
    assert next_page(rel, url) == "http://x.example.com/p/2"
    for text in ("下一页", "下页", "»", "Next"):
        html = f'<html><body><a href="/p/1">1</a><a href="/p/9">{text}</a></body></html>'
        assert next_page(html, url) == "http://x.example.com/p/9", text


def test_a_detail_page_is_recognised() -> None:
    html = article("廊桥修缮笔记", BRIDGE * 3)
    kind, reason = classify(html, "http://news.example.com/bridge.html")
    assert kind == "detail", reason
    assert reason.code is Code.ARTICLE_PAGE and "text block" in reason.text


# -- through the workspace and the command line, over HTTP --------------------------------------

def test_harvest_adds_the_30_articles_with_their_categories(tmp_path: Path) -> None:
    with ArticleSite() as site:
        url = site.put("/list", english_list())
        ws = Workspace.open(tmp_path / "archive", FAST)
        result = ws.harvest(url, cat1="01_Rivers", cat2="bridges")
    assert result.kind == "list"
    assert [c.url for c in result.chosen] == absolute(site, article_paths())
    assert result.report is not None and len(result.report.added) == 30
    assert [t.url for t in ws.tasks()] == absolute(site, article_paths())
    assert {(t.cat1, t.cat2) for t in ws.tasks()} == {("01_Rivers", "bridges")}
    assert site.requests == ["/list"]  # depth 1: not one article page was asked for


def test_a_detail_page_offered_to_harvest_is_added_as_one_task(tmp_path: Path) -> None:
    with ArticleSite() as site:
        url = site.put("/bridge.html", article("廊桥修缮笔记", BRIDGE * 3))
        ws = Workspace.open(tmp_path / "archive", FAST)
        result = ws.harvest(url)
    assert result.kind == "detail"
    assert [t.url for t in ws.tasks()] == [url]


def test_next_pages_follows_exactly_that_many(tmp_path: Path) -> None:
    with ArticleSite() as site:
        site.put("/list", english_list(1, 5))
        for n in range(2, 6):
            site.put(f"/list?page={n}", english_list(n, 5))
        ws = Workspace.open(tmp_path / "archive", FAST)
        result = ws.harvest(site.url("/list"), next_pages=2, dry_run=True)
    assert site.requests == ["/list", "/list?page=2", "/list?page=3"]
    assert [c.url for c in result.chosen] == absolute(
        site, article_paths(1) + article_paths(2) + article_paths(3))
    # each request a harvest made is in fetch.log, as a run's are, said to be the harvest's
    log = (tmp_path / "archive" / "04_logs" / "fetch.log").read_text(encoding="utf-8")
    lines = [line.split("\t") for line in log.splitlines()]
    assert [(f[1], f[3], f[5]) for f in lines] == [
        ("harvest", "HTTP 200", site.url(p)) for p in ("/list", "/list?page=2", "/list?page=3")]


def test_a_gbk_list_page_with_xia_yi_ye_works_the_same(tmp_path: Path) -> None:
    def page(n: int) -> bytes:
        html = list_page(article_paths(n), TITLES_ZH, next_href=f"/list?page={n + 1}",
                         next_text="下一页", charset="gbk")
        return html.encode("gbk")

    with ArticleSite() as site:
        site.put_bytes("/list", page(1))
        site.put_bytes("/list?page=2", page(2))
        site.put_bytes("/list?page=3", page(3))
        ws = Workspace.open(tmp_path / "archive", FAST)
        result = ws.harvest(site.url("/list"), next_pages=1)
    assert site.requests == ["/list", "/list?page=2"]
    assert [c.text for c in result.chosen] == TITLES_ZH * 2
    assert [t.url for t in ws.tasks()] == absolute(site, article_paths(1) + article_paths(2))


def test_the_sites_article_link_pattern_wins(tmp_path: Path) -> None:
    with ArticleSite() as site:
        url = site.put("/list", english_list())
        ws = Workspace.open(tmp_path / "archive", FAST)
        ws.save_rules("127.0.0.1:\n  article_link_pattern: '/stories/'\n")
        ws.harvest(url)
    assert [t.url for t in ws.tasks()] == absolute(
        site, [p for p in article_paths() if p.startswith("/stories/")])


def test_a_bad_article_link_pattern_fails_the_rules_file(tmp_path: Path) -> None:
    from pipeline.records.errors import RulesError

    ws = Workspace.open(tmp_path / "archive", FAST)
    with pytest.raises(RulesError, match="article_link_pattern"):
        ws.save_rules("default:\n  article_link_pattern: '(unclosed'\n")


def test_the_command_prints_kind_ranks_and_the_add_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = str(tmp_path / "archive")
    with ArticleSite() as site:
        url = site.put("/list", english_list())
        assert main(["harvest", url, "--pattern", "/news/", "--cat1", "Rivers",
                     "--archive", archive]) == 0
        out = capsys.readouterr().out
        assert out.startswith("list page: ")
        assert "added 10, duplicates 0, rejected 0" in out
        assert out.count("[x]") == 10 and "in the main list (30 items)" in out
        assert main(["harvest", url, "--limit", "3", "--archive", archive]) == 0
        out = capsys.readouterr().out
        # the three best of the 30 (a dated one, a numbered one already added, a dated one)
        assert "added 2, duplicates 1" in out
        with pytest.raises(SystemExit) as usage:  # a number out of range: a usage error
            main(["harvest", url, "--limit", "0", "--archive", archive])
        assert usage.value.code == 2 and "--limit" in capsys.readouterr().err
        assert main(["harvest", url, "--pattern", "(", "--archive", archive]) == 1
    assert "--pattern" in capsys.readouterr().err


def test_dry_run_adds_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "archive"
    with ArticleSite() as site:
        url = site.put("/list", english_list())
        ws = Workspace.open(archive, FAST)
        ws.add_links(site.url("/2024/05/00/story-0.html"))
        before = (archive / "tasks.csv").read_bytes()
        assert main(["harvest", url, "--dry-run", "--archive", str(archive)]) == 0
    out = capsys.readouterr().out
    assert "dry run: nothing added" in out and out.count("[x]") == 30
    assert out.count("(already task #1)") == 1  # the link the archive has says its task
    assert (archive / "tasks.csv").read_bytes() == before


def test_the_workspace_names_no_command_line_flag(tmp_path: Path) -> None:
    """The window calls the same use case: a bad value is said without the CLI's flags, and
    nothing is fetched (the checks come first)."""
    from pipeline.records.errors import KuaibuError

    ws = Workspace.open(tmp_path / "archive", FAST)
    for bad, says in (({"limit": 0}, "the limit must be"), ({"next_pages": -1}, "next pages"),
                      ({"pattern": "("}, "the pattern '(' is not a regular expression")):
        with pytest.raises(KuaibuError) as failed:
            ws.harvest("http://127.0.0.1:9/list", **bad)  # type: ignore[arg-type]
        assert says in str(failed.value) and "--" not in str(failed.value)
    assert ws.tasks() == []
