"""Serve the demo site on 127.0.0.1 (stdlib only), recording every request.

``DemoSite`` is a context manager: it starts a ``ThreadingHTTPServer`` on a free port in a daemon
thread and stops it on exit. Pages are files under ``site/``; the few behaviours a static server
lacks are the ones real sites have and the pipeline must cope with: a portal page in GBK whose
``Content-Type`` names no charset, images that answer 403 to requests without the site's own
Referer, a reposted near-duplicate, tracking parameters that change nothing, directory URLs that
redirect to their slash form. ``python -m pipeline.demo_site.server`` serves it in the foreground.
"""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from urllib.parse import unquote, urlsplit

from pipeline.demo_site import catalog

SITE_ROOT = Path(__file__).resolve().parent / "site"

# Legacy portal pages are stored as .shtml and declare nothing, as their servers did; every other
# text page says UTF-8.
CONTENT_TYPES: Mapping[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".shtml": "text/html",
    ".css": "text/css; charset=utf-8",
    ".jpg": "image/jpeg",
    ".png": "image/png",
    ".gif": "image/gif",
    ".webp": "image/webp",
}
# Pages mention their own absolute URLs (canonical, og:image) with this token; the server puts
# its origin in when it serves them, since the port is only known at start.
ORIGIN_TOKEN = b"__ORIGIN__"


@dataclass(frozen=True)
class RequestRecord:
    """One request as the server saw it, for tests to assert on."""

    method: str
    path: str  # as sent, query string included
    headers: Mapping[str, str]
    time: float  # time.monotonic() at arrival

    def header(self, name: str) -> str | None:
        """A header by case-insensitive name, or None."""
        wanted = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == wanted), None)


@dataclass(frozen=True)
class Response:
    status: int
    content_type: str
    body: bytes
    location: str | None = None


def _text(status: int, message: str) -> Response:
    return Response(status, "text/plain; charset=utf-8", (message + "\n").encode())


def resolve_path(root: Path, url_path: str) -> Path | None:
    """The file under ``root`` that ``url_path`` names, or None when it names nothing there.

    Whatever the path says (``..`` plain or percent-encoded, a symlink pointing out), the file
    it resolves to must lie inside ``root``; backslashes and NUL are refused outright.
    """
    decoded = unquote(url_path)
    if "\\" in decoded or "\x00" in decoded:
        return None
    target = root.joinpath(*(s for s in decoded.split("/") if s))
    if decoded.endswith("/"):
        target = target / "index.html"
    try:
        resolved = target.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    return resolved if resolved.is_relative_to(root.resolve()) else None


def _same_origin(referer: str | None, origin: str) -> bool:
    if not referer:
        return False
    parts = urlsplit(referer)
    return f"{parts.scheme}://{parts.netloc}" == origin


def respond(root: Path, origin: str, raw_path: str, referer: str | None) -> Response:
    """The whole site as a function of one request (no socket needed to test it)."""
    parts = urlsplit(raw_path)
    path = parts.path or "/"
    if {".", ".."} & set(unquote(path).split("/")):  # a well-behaved client resolves these
        return _text(HTTPStatus.BAD_REQUEST, "dot segments are not allowed")
    if path == catalog.NEAR_DUPLICATE_PATH:
        original = respond(root, origin, catalog.NEAR_DUPLICATE_OF, referer)
        body = original.body
        for old, new in catalog.NEAR_DUPLICATE_EDITS:
            body = body.replace(old.encode(), new.encode())
        return Response(original.status, original.content_type, body)
    if path.startswith(catalog.HOTLINK_PROTECTED_PREFIX) and not _same_origin(referer, origin):
        return _text(HTTPStatus.FORBIDDEN, "hotlinking is not allowed")
    target = resolve_path(root, path)
    if target is None:
        return _text(HTTPStatus.NOT_FOUND, "not found")
    if target.is_dir():
        query = f"?{parts.query}" if parts.query else ""
        return Response(HTTPStatus.MOVED_PERMANENTLY, "text/plain", b"", path + "/" + query)
    content_type = CONTENT_TYPES.get(target.suffix)
    if content_type is None:
        return _text(HTTPStatus.NOT_FOUND, "not found")
    body = target.read_bytes()
    if content_type.startswith("text/"):
        body = body.replace(ORIGIN_TOKEN, origin.encode("ascii"))
    return Response(HTTPStatus.OK, content_type, body)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the fetcher's session expects of real sites
    timeout = 10  # an idle keep-alive connection must not hold a thread forever
    server: _DemoHTTPServer

    def do_GET(self) -> None:
        self._serve(send_body=True)

    def do_HEAD(self) -> None:
        self._serve(send_body=False)

    def _serve(self, send_body: bool) -> None:
        site = self.server.site
        site._record(RequestRecord(self.command, self.path, dict(self.headers.items()),
                                   time.monotonic()))
        resp = respond(SITE_ROOT, site.base_url, self.path,
                       self.headers.get("Referer"))
        self.send_response(resp.status)
        self.send_header("Content-Type", resp.content_type)
        self.send_header("Content-Length", str(len(resp.body)))
        if resp.location:
            self.send_header("Location", resp.location)
        self.end_headers()
        if send_body:
            self.wfile.write(resp.body)

    def log_message(self, format: str, *args: object) -> None:
        if self.server.site.verbose:
            super().log_message(format, *args)


class _DemoHTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], site: DemoSite) -> None:
        self.site = site
        super().__init__(address, _Handler)


class DemoSite:
    """The demo site on 127.0.0.1: ``with DemoSite() as site: fetch(site.article_urls[0])``."""

    def __init__(self, port: int = 0, verbose: bool = False) -> None:
        self.verbose = verbose
        self._port = port
        self._server: _DemoHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._log: list[RequestRecord] = []
        self._log_lock = threading.Lock()

    def start(self) -> DemoSite:
        self._server = _DemoHTTPServer(("127.0.0.1", self._port), self)
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="demo-site", daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        self._server = self._thread = None

    def __enter__(self) -> DemoSite:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` with no trailing slash."""
        if self._server is None:
            raise RuntimeError("the demo site is not running")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base_url + path

    @property
    def article_urls(self) -> list[str]:
        """Every article, in the catalog's order: the URLs a person would paste."""
        return [self.url(a.path) for a in catalog.ARTICLES]

    @property
    def list_url(self) -> str:
        return self.url(catalog.LIST_PATH)

    @property
    def interstitial_url(self) -> str:
        return self.url(catalog.INTERSTITIAL_PATH)

    @property
    def tracking_variant_url(self) -> str:
        return self.url(catalog.TRACKING_VARIANT_PATH)

    @property
    def near_duplicate_url(self) -> str:
        return self.url(catalog.NEAR_DUPLICATE_PATH)

    @property
    def request_log(self) -> list[RequestRecord]:
        """A snapshot of every request so far, in arrival order."""
        with self._log_lock:
            return list(self._log)

    def _record(self, record: RequestRecord) -> None:
        with self._log_lock:
            self._log.append(record)

    def paste_text(self) -> str:
        """What a person would paste: prose around every article URL, plus things to reject.

        Besides the articles it holds the tracking variant (a duplicate once normalized), the
        near-duplicate repost, the interstitial page, a ``mailto:`` and a ``javascript:`` link.
        URLs sit against full-width punctuation and inside a Markdown link, as they do in chats.
        """
        u = self.article_urls
        return "\n".join([
            "周末想读的几篇，先存一下：",
            f"- [{catalog.ARTICLES[0].title}]({u[0]})",
            f"廊桥那篇写得很细（{u[1]}），朋友又转了一次：{self.tracking_variant_url}",
            f"另一个号转载的版本：{self.near_duplicate_url}",
            f"老茶网的两篇：{u[2]} 和 {u[3]}",
            f"Bike stuff: {u[4]}. Coffee notes: {u[5]}",
            "",
            "Docs to go through later:",
            u[6],
            u[7],
            f"新闻 {u[8]} 、{u[9]}",
            f"这个链接打开总是“请稍候”：{self.interstitial_url}",
            f"Photo essays — {u[10]} and <{u[11]}>",
            "",
            "有问题发邮件 mailto:editor@example.com，别点 javascript:alert('hi')",
        ]) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the Kuaibu demo site in the foreground.")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any)")
    args = parser.parse_args(argv)
    try:
        with DemoSite(port=args.port, verbose=True) as site:
            print(f"Demo site at {site.base_url}/  (list page: {site.list_url})")
            for url in site.article_urls:
                print(f"  {url}")
            print("Ctrl-C to stop.", flush=True)
            threading.Event().wait()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
