"""The run report's advice follows what each failure says (issue 29 C): a refused connection is
a site down or a wrong link, 404/410 a page gone (its Wayback copy linked), 403/429 a site that
limits requests; a kind whose failures call for different advice is a row each; every row
lists its tasks' links, not only their numbers."""

from __future__ import annotations

import html
import re
import socket
from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.records.settings import Settings
from pipeline.run.report import (
    ADVICE,
    GONE,
    HOTLINK,
    IMAGE_TOO_LARGE,
    REFUSED,
    THROTTLED,
    UNRESOLVED,
    WAYBACK,
    read_report,
)
from pipeline.usecases.workspace import Workspace
from tests.pipeline.book.synthetic import jpeg
from tests.pipeline.test_duplicates import BRIDGE
from tests.sites.articles import ArticleSite, article
from tests.sites.faults import FaultServer


def closed_port(host: str) -> int:
    """A port nothing listens on (bound, then let go): connecting to it is refused."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def faulty_run(root: Path) -> tuple[Workspace, dict[str, int]]:
    """Two 404s and a 429 on one host, a closed port on another, run once; the workspace
    and the tasks' ids by name."""
    ws = Workspace.open(root, Settings(host_delay_ms=0, retries=0))
    with FaultServer() as server:
        ws.add_links("\n".join([
            server.url("/status?code=404&fail=9"), server.url("/status?code=404&fail=9&n=2"),
            server.url("/status?code=429&fail=9"),
            f"http://127.0.0.3:{closed_port('127.0.0.3')}/article",
        ]))
        ws.run()
    ids = dict(zip(["404a", "404b", "429", "closed"], sorted(t.id for t in ws.tasks()),
                   strict=True))
    return ws, ids


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> tuple[Workspace, dict[str, int]]:
    return faulty_run(tmp_path_factory.mktemp("causes") / "a")


def test_each_cause_is_a_row_with_its_own_advice_and_links(
        faulty: tuple[Workspace, dict[str, int]]) -> None:
    ws, ids = faulty
    report = ws.run_report()
    rows = {(g.key, g.advice): sorted(g.ids) for g in report.by_kind}
    assert rows == {("http-4xx", GONE): sorted([ids["404a"], ids["404b"]]),
                    ("http-4xx", THROTTLED): [ids["429"]],
                    ("network", REFUSED): [ids["closed"]]}
    for group in (*report.by_kind, *report.by_domain):
        assert group.links == [ws.task(i).url for i in group.ids]
    advice = {g.advice: g.advice_text for g in report.by_kind}
    assert "per_host_connections" in advice[THROTTLED]
    assert "per_host_connections" not in advice[REFUSED] + advice[GONE]
    assert "down" in advice[REFUSED] and "Wayback" in advice[GONE]
    assert {g.key: g.advice for g in report.by_domain} == {
        "127.0.0.1": THROTTLED, "127.0.0.3": REFUSED}


def test_the_page_and_the_record_carry_every_link(
        faulty: tuple[Workspace, dict[str, int]]) -> None:
    ws, ids = faulty
    path = ws.report()
    page = html.unescape(path.read_text(encoding="utf-8"))
    for task in ws.tasks():
        assert f'href="{task.url}"' in page
    for name in ("404a", "404b"):
        assert f'href="{WAYBACK}{ws.task(ids[name]).url}"' in page
    assert ADVICE[REFUSED] in page and ADVICE[GONE] in page
    last = read_report(path)
    assert last is not None and all(g.links for g in last.report.by_kind)


def dead_images_run(root: Path) -> Workspace:
    """One article whose pictures sit on two hosts that do not resolve and on one that
    answers 403 (it refuses hotlinking), run once."""
    ws = Workspace.open(root, Settings(host_delay_ms=0, retries=0))
    with ArticleSite() as site:
        site.put("/hotlinked.jpg", "forbidden", status=403)
        pictures = [
            '<img src="http://img1.invalid/a.jpg" alt="a">',
            '<img src="http://img2.invalid/b.jpg" alt="b">',
            '<img src="http://img2.invalid/c.jpg" alt="c">',
            f'<img src="{site.url("/hotlinked.jpg")}" alt="d">',
        ]
        page = site.put("/bridge.html", article("廊桥修缮笔记", [
            f"{line}{picture}" for line, picture in zip(BRIDGE, pictures, strict=False)]
            + BRIDGE[len(pictures):]))
        ws.add_links(page)
        ws.run()
    return ws


def test_images_are_grouped_by_their_own_host_with_why_and_advice(tmp_path: Path) -> None:
    ws = dead_images_run(tmp_path / "a")
    report = ws.run_report()
    rows = {s.key: (s.images_ok, s.images_total, s.reasons, s.advice)
            for s in report.images_by_domain}
    assert rows == {"img1.invalid": (0, 1, {UNRESOLVED: 1}, UNRESOLVED),
                    "img2.invalid": (0, 2, {UNRESOLVED: 2}, UNRESOLVED),
                    "127.0.0.1": (0, 1, {HOTLINK: 1}, HOTLINK)}
    assert "Referer" in ADVICE[HOTLINK] and "does not resolve" in ADVICE[UNRESOLVED]
    page = html.unescape(ws.report().read_text(encoding="utf-8"))
    assert "img2.invalid" in page and ADVICE[HOTLINK] in page


TOO_LARGE_LIMIT = 20_000  # bytes: the run's max_image_bytes, under the photo it serves


def large_image_run(root: Path, site: ArticleSite) -> Workspace:
    """One article whose two pictures on its own 127.0.0.1 server are larger than the run's
    max_image_bytes (one says so in its Content-Length, one sends its bytes unannounced),
    beside one small enough, run once."""
    ws = Workspace.open(root, Settings(host_delay_ms=0, retries=0,
                                       max_image_bytes=TOO_LARGE_LIMIT))
    photo = jpeg(400, 300, noise=True)
    assert len(photo) > TOO_LARGE_LIMIT
    site.put_bytes("/photo.jpg", photo)
    site.put_bytes("/streamed.jpg", photo, announced=False)
    site.put_bytes("/small.jpg", jpeg(40, 30))
    pictures = [f'<img src="{site.url(p)}" alt="{p}">'
                for p in ("/photo.jpg", "/streamed.jpg", "/small.jpg")]
    page = site.put("/bridge.html", article("廊桥修缮笔记", [
        f"{line}{picture}" for line, picture in zip(BRIDGE, pictures, strict=False)]
        + BRIDGE[len(pictures):]))
    ws.add_links(page)
    ws.run()
    return ws


def test_images_over_the_size_limit_are_grouped_by_their_host_as_too_large(
        tmp_path: Path) -> None:
    with ArticleSite() as site:
        ws = large_image_run(tmp_path / "a", site)
        report = ws.run_report()
        rows = {s.key: (s.images_ok, s.images_total, s.reasons, s.advice)
                for s in report.images_by_domain}
        assert rows == {"127.0.0.1": (1, 3, {IMAGE_TOO_LARGE: 2}, IMAGE_TOO_LARGE)}
        page = html.unescape(ws.report().read_text(encoding="utf-8"))
        assert ADVICE[IMAGE_TOO_LARGE] in page
        ws.close()
        # the advice, followed as written, brings them home
        command = re.search(r"\(run (.*)\)", ADVICE[IMAGE_TOO_LARGE])
        assert command is not None, ADVICE[IMAGE_TOO_LARGE]
        args = command.group(1).replace("…", str(10 * TOO_LARGE_LIMIT)).split()
        assert main(["run", "--archive", str(tmp_path / "a"), *args]) == 0
    again = Workspace.open(tmp_path / "a", Settings()).run_report()
    assert [(s.images_ok, s.images_total) for s in again.images_by_domain] == [(3, 3)]
