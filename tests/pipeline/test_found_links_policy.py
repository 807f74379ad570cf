"""A link found on a page is the page's link, not the person's (issue 25, break 3).

``harvest --any-site`` used to turn a public list page's links to ``10.1.2.3``, ``127.0.0.1``,
``[::1]``, ``0x7f.1`` and a name resolving to loopback into tasks as if a person had pasted
them, and ``run`` fetched them. Here a public site is served on loopback and made public by the
policy's own test hook (``Network``: a class table and a resolver), as the address tests do:
``127.0.0.3`` (and the redirecting host ``127.0.0.4``) count as public, while ``127.0.0.1``,
``127.0.0.2`` and ``[::1]`` stay loopback, each with a real server counting what reaches it.
The public page is not on ``127.0.0.1`` so that ``0x7f.1`` (which is ``127.0.0.1``) is one of
the private spellings, as in the issue.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

import pytest

from pipeline.cli.commands import cmd_harvest
from pipeline.records.address_class import AddressClass
from pipeline.records.errors import ErrorKind, FetchError
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.usecases.workspace import Workspace
from pipeline.web.addresses import IP, Network, system_resolver
from pipeline.web.urls import normalize_url
from tests.browser_needed import needs_browser
from tests.pipeline.test_duplicates import BRIDGE
from tests.pipeline.test_harvest import TITLES_EN, list_page
from tests.sites.articles import article
from tests.sites.faults import FaultServer
from tests.sites.images import ImageServer, Resource, jpeg_bytes
from tests.sites.serving import Served
from tests.sites.spa import SpaSite, paragraphs

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0, host_delay_ms=0)
PUBLIC, REDIRECTOR = "127.0.0.3", "127.0.0.4"  # public sites, through the class table
PRIVATE, HOME = "127.0.0.2", "127.0.0.1"  # loopback, as IANA says
NAME = "intranet.test"  # resolves to PRIVATE through the resolver hook
# the list page's own links to other sites (an ad) are no part of this, and must not be looked up
ARTICLES = r"/2024/"
ANYTHING = Resource(article("内网页面", BRIDGE).encode("utf-8"), "text/html; charset=utf-8")


def resolve(host: str) -> list[IP]:
    return [ipaddress.ip_address(PRIVATE)] if host == NAME else system_resolver(host)


NETWORK = Network(resolve, tuple((ipaddress.ip_network(f"{a}/32"), AddressClass.PUBLIC)
                                 for a in (PUBLIC, REDIRECTOR)))


class _V6HTTPServer(ThreadingHTTPServer):
    address_family = socket.AF_INET6
    daemon_threads = True


class V6Host(Served):
    """A host on ``[::1]`` that answers every path and counts what reaches it."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        host = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

            def do_GET(self) -> None:
                host.hits.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", ANYTHING.content_type)
                self.send_header("Content-Length", str(len(ANYTHING.body)))
                self.end_headers()
                self.wfile.write(ANYTHING.body)

        super().__init__(_V6HTTPServer(("::1", 0), Handler))


@dataclass
class Hosts:
    public: ImageServer
    redirector: FaultServer
    private: ImageServer  # 127.0.0.2, also reached as 0x7f.2, 2130706434 and intranet.test
    home: ImageServer  # 127.0.0.1, also reached as 0x7f.1
    v6: V6Host

    def private_hits(self) -> list[str]:
        return ([h.path for h in self.private.hits] + [h.path for h in self.home.hits]
                + self.v6.hits)

    @staticmethod
    @contextmanager
    def serving() -> Iterator[Hosts]:
        with (ImageServer(PUBLIC) as public, FaultServer(REDIRECTOR) as redirector,
              ImageServer(PRIVATE) as private, ImageServer(HOME) as home, V6Host() as v6):
            private.fallback = home.fallback = ANYTHING
            yield Hosts(public, redirector, private, home, v6)


@pytest.fixture
def hosts() -> Iterator[Hosts]:
    with Hosts.serving() as serving:
        yield serving


def hostile_links(h: Hosts) -> dict[str, str]:
    """Article-shaped links to inner addresses, each spelt as in the issue: link → the class
    its refusal names."""
    p, o, v = h.private.port, h.home.port, h.v6.port
    return {
        f"http://{PRIVATE}:{p}/2024/05/01/plain.html": "loopback",
        f"http://0x7f.2:{p}/2024/05/02/hex.html": "loopback",
        f"http://2130706434:{p}/2024/05/03/decimal.html": "loopback",
        f"http://{NAME}:{p}/2024/05/04/name.html": "loopback",
        f"http://{HOME}:{o}/2024/05/05/home.html": "loopback",
        f"http://0x7f.1:{o}/2024/05/06/hex-home.html": "loopback",
        f"http://[::1]:{v}/2024/05/07/v6.html": "loopback",
        "http://10.1.2.3/2024/05/08/intranet.html": "private",
        "http://169.254.169.254/2024/05/09/metadata.html": "link-local",
    }


def publish(h: Hosts) -> tuple[str, list[str], str]:
    """The public site: a list page of 20 articles of its own, one link through a redirect to
    the private host and the hostile links; the first article shows one image of its own and
    two on inner hosts. Returns the list's URL, its own articles' URLs and the redirect's."""
    own = [f"/2024/06/{n:02d}/story-{n}.html" for n in range(20)]
    image = h.public.put("/img/own.jpg", jpeg_bytes(), "image/jpeg")
    inner_images = [f"http://{PRIVATE}:{h.private.port}/img/inner.jpg",
                    f"http://0x7f.1:{h.home.port}/img/home.jpg"]
    figures = "".join(f'<img src="{src}" alt="">' for src in [image, *inner_images])
    for n, path in enumerate(own):
        paragraphs = [f"第{n}篇。" + p for p in BRIDGE] + ([figures] if n == 0 else [])
        h.public.put(path, article(TITLES_EN[n], paragraphs).encode("utf-8"),
                     "text/html; charset=utf-8")
    secret = f"http://{PRIVATE}:{h.private.port}/2024/05/10/secret.html"
    redirect = h.redirector.url(f"/redirect?to={quote(secret, safe='')}")
    links = [h.public.url(p) for p in own] + [redirect, *hostile_links(h)]
    titles = TITLES_EN[:20] + [f"An inner page dressed up as news story number {n}"
                               for n in range(len(links) - 20)]
    url = h.public.put("/list", list_page(links, titles, next_href=None, next_text="").encode(
        "utf-8"), "text/html; charset=utf-8")
    return url, [h.public.url(p) for p in own], normalize_url(redirect)


def test_a_public_pages_links_to_inner_addresses_are_refused_named_and_never_reached(
        tmp_path: Path, hosts: Hosts) -> None:
    list_url, own, redirect = publish(hosts)
    ws = Workspace.open(tmp_path / "archive", FAST, NETWORK)
    result = ws.harvest(list_url, cat1="News", same_site=False, pattern=ARTICLES)

    hostile = hostile_links(hosts)
    refused = {c.url: c.refused for c in result.candidates if c.refused}
    assert len(refused) == len(hostile)  # every spelling, each named with its class
    for link, word in hostile.items():
        [reason] = [r for url, r in refused.items() if url.endswith(link[link.index("/2024/"):])]
        assert f" is {word}: " in reason.text, (link, reason)
    assert all(not c.chosen for c in result.candidates if c.refused)
    # the public articles and the redirect (a public link) are the tasks, each the page's
    assert {t.url for t in ws.tasks()} == {*own, redirect}
    assert {t.found_on for t in ws.tasks()} == {list_url}

    ws.run()
    ws.refresh()
    assert hosts.private_hits() == []  # nothing found on the public page reached an inner host
    by_url = {t.url: t for t in ws.tasks()}
    assert all(by_url[u].status == Status.LOCALIZED for u in own)
    # a redirect from the public page to the private host is refused at the redirect
    blocked = by_url[redirect]
    assert blocked.status == Status.FAILED and blocked.failure_kind == ErrorKind.BLOCKED_ADDRESS
    assert f"address {PRIVATE} is loopback" in blocked.error
    # the first article's own image came home; its two on inner hosts were not fetched
    first = by_url[own[0]]
    assert (first.images_total, first.images_ok) == (3, 1)
    log = (ws.archive.logs_dir / "assets.csv").read_text(encoding="utf-8-sig")
    assert log.count("is loopback: fetched only when the link you added") == 2


def test_the_command_line_says_refused_and_why(tmp_path: Path, hosts: Hosts,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    list_url, _, _ = publish(hosts)
    ws = Workspace.open(tmp_path / "archive", FAST, NETWORK)
    args = argparse.Namespace(url=list_url, cat1="", cat2="", pattern=ARTICLES, same_site=False,
                              limit=None, next_pages=0, dry_run=True)
    assert cmd_harvest(args, ws) == 0
    out = capsys.readouterr().out
    hostile = len(hostile_links(hosts))
    assert f"21 chosen, {hostile} refused by the address policy" in out
    lines = [line for line in out.splitlines() if "— refused: " in line]
    assert len(lines) == hostile and all(line.lstrip().startswith("[ ]") for line in lines)
    assert any("10.1.2.3/2024/05/08/intranet.html — refused: address 10.1.2.3 is private"
               in line for line in lines)
    assert "dry run: nothing added" in out and ws.tasks() == []
    assert hosts.private_hits() == []


def test_a_found_task_is_judged_by_its_page_even_when_added_by_hand(
        tmp_path: Path, hosts: Hosts) -> None:
    """The run judges a task by ``found_on``, not only the harvest: a found link written into
    the list some other way (a hand edit, an old harvest) is still refused; the same link
    pasted by a person is fetched, as an intranet page a person asks for should be."""
    list_url, _, _ = publish(hosts)
    found = f"http://{PRIVATE}:{hosts.private.port}/found.html"
    pasted = f"http://{PRIVATE}:{hosts.private.port}/pasted.html"
    ws = Workspace.open(tmp_path / "archive", FAST, NETWORK)
    ws.add_links(found, found_on=list_url)
    ws.add_links(pasted)
    ws.run()
    ws.refresh()
    by_url = {t.url: t for t in ws.tasks()}
    assert by_url[found].failure_kind == ErrorKind.BLOCKED_ADDRESS
    assert "is loopback" in by_url[found].error
    assert by_url[pasted].status == Status.LOCALIZED
    assert [h.path for h in hosts.private.hits] == ["/pasted.html"]
    # the column is tasks.csv's: another writer reads it back (after the columns before it,
    # so a merge stays easy)
    header = (tmp_path / "archive" / "tasks.csv").read_text(encoding="utf-8-sig").splitlines()[0]
    assert ",confidence,found_on," in header
    again = Workspace.open(tmp_path / "archive", FAST, NETWORK)
    assert {t.url: t.found_on for t in again.tasks()} == {found: list_url, pasted: ""}


def test_a_next_page_on_an_inner_host_is_not_read(tmp_path: Path, hosts: Hosts) -> None:
    """The list's next pages are its links too: one on an inner host is refused before any
    request, and the harvest says why and adds nothing (as for any next page that fails)."""
    inner = f"http://{PRIVATE}:{hosts.private.port}/list?page=2"
    url = hosts.public.put("/list", list_page(
        [hosts.public.url(f"/2024/06/{n:02d}/s.html") for n in range(20)], TITLES_EN[:20],
        next_href=inner, next_text="Next ›").encode("utf-8"), "text/html; charset=utf-8")
    ws = Workspace.open(tmp_path / "archive", FAST, NETWORK)
    with pytest.raises(FetchError, match=f"address {PRIVATE} is loopback"):
        ws.harvest(url, next_pages=1)
    assert hosts.private_hits() == [] and ws.tasks() == []


def test_a_private_list_page_may_link_to_its_intranet(tmp_path: Path, hosts: Hosts) -> None:
    """The page vouches for its links: an intranet list page (not in the class table) gives
    tasks on the intranet, as a person's intranet link fetches its intranet images."""
    own = [hosts.private.url(f"/2024/06/{n:02d}/s.html") for n in range(20)]
    url = hosts.home.put("/list", list_page(own, TITLES_EN[:20], next_href=None,
                                            next_text="").encode("utf-8"),
                         "text/html; charset=utf-8")
    ws = Workspace.open(tmp_path / "archive", FAST, NETWORK)
    result = ws.harvest(url, same_site=False, pattern=ARTICLES, dry_run=True)
    assert [c.url for c in result.chosen] == own
    assert not any(c.refused for c in result.candidates)


def test_the_browser_path_fetches_a_found_pages_requests_by_the_pages_policy(
        tmp_path: Path) -> None:
    """A found app page on the public site, rendered by its site's rule: the images its script
    asks for live on an inner host, and neither the browser nor the localize stage reaches
    them (every request of the browser goes through fetch_resource with the task's policy)."""
    needs_browser(FAST)
    with SpaSite(app=PUBLIC, images=PRIVATE, tracker="127.0.0.5") as site:
        url = site.put("found", "单页应用里的文章", paragraphs("found"), images=2, lazy=1)
        ws = Workspace.open(tmp_path / "archive", FAST, NETWORK)
        ws.archive.rules_path.write_text(f"{PUBLIC}:\n  render: browser\n", encoding="utf-8")
        ws.add_links(url, found_on=f"{site.origin}/list")
        ws.run()
        ws.refresh()
        [task] = ws.tasks()
        assert site.images.hits == []  # the inner image host saw nothing
        assert site.tracker.connections == 0
    assert task.status == Status.LOCALIZED, task.error
    assert task.images_ok == 0 and (task.images_total or 0) >= 2
    log = (ws.archive.logs_dir / "fetch.log").read_text(encoding="utf-8")
    assert f"address {PRIVATE} is loopback" in log  # the browser's refused requests, named
