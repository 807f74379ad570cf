"""The run report: a real run with planted failures of three kinds on two hosts, grouped by
kind and by domain with the advice that fits; a self-contained page; a planted stub flagged;
and the command line (``run`` ends with the report's path, ``report`` writes it again)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest

from pipeline.cli.main import main
from pipeline.records.article import Article
from pipeline.records.errors import ErrorKind
from pipeline.records.failures import Code, Failure, failure
from pipeline.records.settings import Settings
from pipeline.records.task import Status, Task, failure_changes
from pipeline.run.report import (
    ADVICE,
    GONE,
    KIND_ADVICE,
    THROTTLE_ADVICE,
    THROTTLED,
    WAYBACK,
    Doubt,
    build_report,
    link_share,
    read_report,
)
from pipeline.usecases.workspace import Workspace
from tests.sites.faults import FaultServer

Run = tuple[Workspace, dict[str, int]]
LONG_TEXT = "这是一篇用来检查运行报告的文章，它的正文足够长，读者可以放心阅读。" * 12


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """Two hosts, run once. One: 404, anti-bot page, a long article, a stub ("正文内容。");
    two: anti-bot page, a list page (no article), 410, a long article. Returns the workspace
    and the planted tasks' ids by name."""
    root = tmp_path_factory.mktemp("report") / "a"
    ws = Workspace.open(root, Settings(host_delay_ms=0, retries=1, retry_waits=(0.05,)))
    long = "/ok?text=" + quote(LONG_TEXT)
    with FaultServer() as one, FaultServer("127.0.0.2") as two:
        ws.add_links("\n".join([
            one.url("/status?code=404&fail=9"), one.url("/interstitial?fail=9"),
            one.url(long), one.url("/ok"),
            two.url("/interstitial?fail=9"), two.url("/links"),
            two.url("/status?code=410&fail=9"), two.url(long + "&n=2"),
        ]))
        ws.run()
    names = ["404", "bot1", "long1", "stub", "bot2", "list", "410", "long2"]
    ids = {name: t.id for name, t in zip(names, sorted(ws.tasks(), key=lambda t: t.id),
                                         strict=True)}
    assert ws.task(ids["stub"]).status in (Status.LOCALIZED, Status.CLEANED)
    return ws, ids


def test_failures_grouped_by_kind_and_by_domain_with_counts(run: Run) -> None:
    ws, ids = run
    report = ws.run_report()
    assert report.failed == 5 and report.tasks == 8
    assert [(g.key, g.count, sorted(g.ids)) for g in report.by_kind] == [
        ("http-4xx", 2, sorted([ids["404"], ids["410"]])),
        ("interstitial", 2, sorted([ids["bot1"], ids["bot2"]])),
        ("no-article", 1, [ids["list"]]),
    ]
    assert [(g.key, g.count, sorted(g.ids), g.kinds) for g in report.by_domain] == [
        ("127.0.0.2", 3, sorted([ids["bot2"], ids["list"], ids["410"]]),
         {"http-4xx": 1, "interstitial": 1, "no-article": 1}),
        ("127.0.0.1", 2, sorted([ids["404"], ids["bot1"]]), {"http-4xx": 1, "interstitial": 1}),
    ]
    advice = {g.key: g.advice_text for g in report.by_kind}
    assert "export cookies from a browser (run --cookies FILE)" in advice["interstitial"]
    assert "rules.yaml content_selector" in advice["no-article"]
    assert advice["http-4xx"] != THROTTLE_ADVICE  # 404 and 410 are gone links, not limits


def test_the_stub_is_flagged_and_the_long_articles_are_not_short(run: Run) -> None:
    ws, ids = run
    suspects = {s.task_id: s for s in ws.run_report().suspects}
    stub = suspects[ids["stub"]]
    assert any(r.doubt is Doubt.SHORT and r.text.startswith("very short") for r in stub.reasons)
    assert stub.clean_href == f"../01_clean/{ids['stub']}.html"
    assert stub.url == ws.task(ids["stub"]).url
    for name in ("long1", "long2"):
        reasons = suspects[ids[name]].reasons if ids[name] in suspects else []
        assert not any(r.doubt is Doubt.SHORT for r in reasons)


def test_the_page_is_self_contained_and_links_only_the_sources(run: Run) -> None:
    ws, ids = run
    path = ws.report()
    assert path == ws.archive.logs_dir / "report.html"
    page = path.read_text(encoding="utf-8")
    assert "<script" not in page.lower()
    sources = {t.url for t in ws.tasks()}
    remote = re.findall(r"""(?:src|href)\s*=\s*["']?(https?://[^"'\s>]+)""", page, re.I)
    # the sources, and the Wayback copies of those gone (404, 410)
    gone = {ws.task(ids[name]).url for name in ("404", "410")}
    wayback = {(WAYBACK + g).replace("&", "&amp;") for g in gone}
    assert remote and wayback <= set(remote) <= {u.replace("&", "&amp;")
                                                 for u in sources} | wayback
    assert not re.search(r"""\bsrc\s*=\s*["']?https?:""", page, re.I)
    assert not re.search(r"@import|url\(", page)
    for heading in ("Failures by kind · 按类型的失败", "Articles to check · 可能有误的文章"):
        assert heading in page
    assert f'href="../01_clean/{ids["stub"]}.html"' in page
    assert (ws.archive.root / "01_clean" / f"{ids['stub']}.html").is_file()


def test_the_record_beside_the_page_is_the_report(run: Run) -> None:
    """report.json keeps the report as codes and values, for the window to say in its own
    words; one that is not a report is no report (the page still is)."""
    ws, ids = run
    report = ws.run_report()
    path = ws.write_report(report)
    last = ws.last_run_report()
    assert last is not None and last.path == path and last.report == report
    assert last.generated[:4].isdigit()
    assert any(r.doubt is Doubt.SHORT for s in last.report.suspects for r in s.reasons)
    for broken in ("{", '{"totals": 3}', "[]"):
        (path.parent / "report.json").write_text(broken, encoding="utf-8")
        assert read_report(path) is None and ws.last_report() == path


def test_the_sample_is_seeded() -> None:
    tasks = [Task(id=i, url=f"https://a.example/{i}", status=Status.LOCALIZED)
             for i in range(1, 21)]
    def pick(seed: str) -> list[int]:
        return [s.task_id for s in build_report(tasks, lambda i: None, lambda i: None,
                                                sample_seed=seed).samples]
    first = pick("archive|2026-12-01")
    assert len(first) == 5 and first == sorted(first) and first == pick("archive|2026-12-01")
    assert any(pick(f"archive|2026-12-{d:02d}") != first for d in range(2, 6))


def test_rate_limits_and_link_lists_and_site_names() -> None:
    """403/429 or many network errors on a host advise slowing down; an article that is a
    list of links, or titled with the site's domain, is flagged."""
    def failed(i: int, host: str, kind: str, error: str) -> Task:
        return Task(id=i, url=f"https://{host}/{i}", status=Status.FAILED, error_kind=kind,
                    error=error)
    tasks = [failed(1, "a.example", "http-4xx", "HTTP 429 Too Many Requests"),
             *(failed(i, "b.example", "network", "connection reset") for i in (2, 3, 4)),
             Task(id=5, url="https://c.example/x", status=Status.CLEANED,
                  extracted_title="c.example", confidence=0.9)]
    links = "".join(f"<li><a href='/{n}'>第{n}篇文章的标题</a></li>" for n in range(9))
    article = Article(url="https://c.example/x", title="c.example", confidence=0.9,
                      content_html=f"<ul>{links}</ul><p>一句话。</p>", text="x" * 300)
    report = build_report(tasks, lambda i: article if i == 5 else None, lambda i: None,
                          sample_seed="s")
    assert {g.key: g.advice for g in report.by_domain} == {
        "a.example": THROTTLED, "b.example": THROTTLED}
    assert {g.key: g.advice_text for g in report.by_kind} == {
        "network": KIND_ADVICE[ErrorKind.NETWORK], "http-4xx": THROTTLE_ADVICE}
    (suspect,) = report.suspects
    assert [r.doubt for r in suspect.reasons] == [Doubt.SITE_NAME, Doubt.LINKS]
    assert "site's name" in suspect.reasons[0].text and "mostly links" in suspect.reasons[1].text
    assert link_share(article.content_html) > 0.9 and link_share("<p>no links</p>") == 0


def test_run_ends_with_the_report_and_report_writes_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = ["--archive", str(tmp_path / "a"), "--set", "host_delay_ms=0"]
    with FaultServer() as server:
        links = tmp_path / "links.txt"
        links.write_text(server.url("/status?code=404&fail=9") + "\n" + server.url("/ok")
                         + "\n", encoding="utf-8")
        assert main(["add", str(links), *archive]) == 0
        capsys.readouterr()
        assert main(["run", *archive]) == 3  # the exit code of a run with a failure stays
    lines = capsys.readouterr().out.splitlines()
    report_path = tmp_path / "a" / "04_logs" / "report.html"
    assert lines[-1] == f"report: {report_path}"
    assert lines[-2].startswith("fetched ")
    report_path.unlink()
    assert main(["report", *archive]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"report: {report_path}" and report_path.is_file()
    assert lines[0].startswith("2 tasks:") and lines[1].startswith("failed 1 (http-4xx 1")
    assert len(lines) == 4


def test_a_title_that_is_the_sites_own_name_is_flagged() -> None:
    """og:site_name is the name a site gives itself: an article whose title came out as that
    name (the headline was missed) is suspect, whatever its domain is called."""
    from pipeline.extract import extract
    from pipeline.rules.model import SiteRules

    body = "".join(f"<p>{LONG_TEXT}</p>" for _ in range(2))

    def page(title: str) -> str:
        return (f'<html><head><meta property="og:site_name" content="河畔 周刊">'
                f'<title>{title}</title></head><body><header><b class="brand">河畔周刊</b>'
                f"</header><article><h1>{title}</h1>{body}</article></body></html>")

    # a title_selector that hits the masthead: the headline is missed, the site's name taken
    # (spaced otherwise than og:site_name spells it: names compare by letters and digits)
    masthead = SiteRules(title_selector=".brand")
    missed = extract(page("古镇廊桥的修缮"), "https://hepan.example/a/1", masthead)
    found = extract(page("古镇廊桥的修缮"), "https://hepan.example/a/2")
    assert (missed.title, found.title) == ("河畔周刊", "古镇廊桥的修缮")
    assert missed.site_name == found.site_name == "河畔 周刊"
    assert Article.from_json(missed.to_json()).site_name == "河畔 周刊"
    tasks = [Task(id=1, url=missed.url, status=Status.CLEANED, confidence=0.9),
             Task(id=2, url=found.url, status=Status.CLEANED, confidence=0.9)]
    report = build_report(tasks, {1: missed, 2: found}.get, lambda i: None, sample_seed="s")
    flagged = {s.task_id: s.reasons for s in report.suspects}
    assert list(flagged) == [1]
    assert any(r.doubt is Doubt.SITE_NAME and r.values == ("河畔周刊",) for r in flagged[1])


def test_rate_limit_advice_goes_by_the_code() -> None:
    """A task with a code is judged by its status argument; one from before codes by its
    sentence, as before."""
    def failed(i: int, reason: Failure) -> Task:
        return Task(id=i, url=f"https://a{i}.example/", status=Status.FAILED,
                    error_kind="http-4xx", **failure_changes(reason))  # type: ignore[arg-type]
    limited = failed(1, failure(Code.HTTP_STATUS, 429, "Too Many Requests"))
    gone = failed(2, failure(Code.HTTP_STATUS, 404, "Not Found"))
    assert limited.failure is not None and gone.failure is not None
    report = build_report([limited, gone], lambda i: None, lambda i: None, sample_seed="s")
    assert {g.key: g.advice_text for g in report.by_domain} == {
        "a1.example": THROTTLE_ADVICE, "a2.example": ADVICE[GONE]}
