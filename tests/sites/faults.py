"""A local HTTP server that misbehaves on request, for the fetch and politeness tests.

One ``FaultServer`` is one host: a stdlib ThreadingHTTPServer on ``<address>:0`` in a thread
(any 127.0.0.x works on Linux loopback, so two servers are two hosts). Routes are paths; query
parameters tune them, e.g. ``/status?code=500&fail=1`` answers 500 once, then 200. Every
request is recorded with its start time and the number of requests open at that moment, so
tests measure politeness where it matters: at the server.
"""

from __future__ import annotations

import functools
import gzip
import json
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

import brotli

from tests.sites.serving import QuietServer

PAGE = (
    "<!DOCTYPE html><html><head><meta charset='utf-8'><title>快步 test page</title></head>"
    "<body><article><h1>标题</h1><p>{text}</p></article></body></html>"
)
GBK_TEXT = "中文网页的正文，用国标扩展编码写成。" * 20


@dataclass(frozen=True)
class Hit:
    """One request as the server saw it: when it arrived and how many were open then."""

    path: str
    start: float  # arrival of its first byte, wall-clock seconds (see _arrival_time)
    open_at_start: int
    headers: dict[str, str]


class FaultServer:
    """One fault-injecting host. Use as a context manager; ``url(path)`` builds addresses."""

    def __init__(self, address: str = "127.0.0.1") -> None:
        self.hits: list[Hit] = []
        self.peak_open = 0
        self.stopping = threading.Event()
        # with hold_after = N, requests after the Nth wait until release() (see hold_after)
        self.hold_after: int | None = None
        self.released = threading.Event()
        self._open = 0
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._httpd = _QuietServer((address, 0), _handler_for(self))
        self.host, self.port = address, self._httpd.server_address[1]
        # A short poll interval makes shutdown (and so every test's teardown) quick.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def __enter__(self) -> FaultServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.released.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.port}{path}"

    def starts(self, path_prefix: str = "/") -> list[float]:
        """Start times of the requests whose path begins with ``path_prefix``, in order."""
        with self._lock:
            return sorted(h.start for h in self.hits if h.path.startswith(path_prefix))

    def release(self) -> None:
        """Let every held request answer, those waiting and those to come."""
        self.released.set()

    @property
    def held(self) -> int:
        """How many requests came after ``hold_after``: those waiting, or answered once
        released."""
        with self._lock:
            return max(0, len(self.hits) - self.hold_after) if self.hold_after else 0

    @property
    def open_now(self) -> int:
        """How many requests are open at this moment."""
        with self._lock:
            return self._open

    def count(self, path: str) -> int:
        """How many requests this exact path (with query) has had."""
        with self._lock:
            return self._counts.get(path, 0)

    # called by the handler
    def _begin(self, path: str, arrived: float, headers: dict[str, str]) -> int:
        with self._lock:
            self._counts[path] = self._counts.get(path, 0) + 1
            self._open += 1
            self.peak_open = max(self.peak_open, self._open)
            self.hits.append(Hit(path, arrived, self._open, headers))
            hold = self.hold_after is not None and len(self.hits) > self.hold_after
        if hold:  # a request past the limit answers only once the test says so
            self.released.wait()
        return self._counts[path]

    def _end(self) -> None:
        with self._lock:
            self._open -= 1


@contextmanager
def fault_servers(*addresses: str) -> Iterator[list[FaultServer]]:
    """Several hosts at once, e.g. ``fault_servers("127.0.0.1", "127.0.0.2")``."""
    servers = [FaultServer(a) for a in addresses]
    for s in servers:
        s.__enter__()
    try:
        yield servers
    finally:
        for s in servers:
            s.__exit__(None, None, None)


# Linux's SO_TIMESTAMPNS (not exported by the socket module): the kernel stamps each packet
# as it arrives, so a request's start is known exactly even when the handler thread that reads
# it runs late on a busy machine. Set on the listening socket, accepted sockets inherit it.
_SO_TIMESTAMPNS = 35 if sys.platform == "linux" else None


class _QuietServer(QuietServer):
    """Records when each request arrived (SO_TIMESTAMPNS) where Linux can."""

    def server_bind(self) -> None:
        if _SO_TIMESTAMPNS is not None:
            self.socket.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
        super().server_bind()


Route = Callable[["_Handler", dict[str, str], int], None]
_ROUTES: dict[str, Route] = {}


def _route(path: str) -> Callable[[Route], Route]:
    def register(fn: Route) -> Route:
        _ROUTES[path] = fn
        return fn

    return register


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_state: FaultServer

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        """Quiet: the tests assert on recordings, not on a log."""

    def handle_one_request(self) -> None:
        self._arrived = _arrival_time(self.connection)
        super().handle_one_request()

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        hit = self.server_state._begin(self.path, self._arrived, dict(self.headers.items()))
        self._ended = False
        try:
            route = _ROUTES.get(parts.path)
            if route is None:
                self.send_body(404, b"<html><body>no such page</body></html>")
            else:
                route(self, query, hit)
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the client gave up; that is what some tests do
        finally:
            self.end()

    def end(self) -> None:
        """Mark the request finished (once), before its last byte leaves.

        Counting it closed *before* the client can see the end means the open count the server
        records is never higher than what the client really had open.
        """
        if not self._ended:
            self._ended = True
            self.server_state._end()

    def wait(self, seconds: float) -> None:
        """Simulated latency that ends early when the server shuts down."""
        self.server_state.stopping.wait(seconds)

    def send_body(
        self,
        status: int,
        body: bytes,
        content_type: str | None = "text/html; charset=utf-8",
        headers: dict[str, str] | None = None,
    ) -> None:
        self.send_response(status)
        if content_type is not None:  # None: no Content-Type header at all
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body[:-1])
        self.wfile.flush()
        self.end()
        self.wfile.write(body[-1:])

    def send_page(self, text: str = "正文内容。") -> None:
        self.send_body(200, PAGE.format(text=text).encode("utf-8"))

    def cut(self, reset: bool) -> None:
        """Drop the connection now: a TCP reset (RST) or an early but orderly close (FIN)."""
        self.wfile.flush()
        if reset:
            self.connection.setsockopt(
                socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
            )
        self.close_connection = True
        self.end()
        self.connection.close()


def _arrival_time(sock: socket.socket) -> float:
    """When the next request's first byte reached this socket (waits for it, reads nothing).

    The kernel's timestamp where available, else the time the handler got to it."""
    if _SO_TIMESTAMPNS is not None:
        try:
            _, ancillary, _, _ = sock.recvmsg(1, socket.CMSG_SPACE(16), socket.MSG_PEEK)
        except OSError:
            ancillary = []
        for level, kind, data in ancillary:
            if level == socket.SOL_SOCKET and kind == _SO_TIMESTAMPNS:
                seconds, nanoseconds = struct.unpack("qq", data[:16])
                return seconds + nanoseconds / 1e9
    return time.time()


def _handler_for(server: FaultServer) -> type[_Handler]:
    return type("Handler", (_Handler,), {"server_state": server})


def _failing(query: dict[str, str], hit: int) -> bool:
    """True while this path is still meant to fail: ``fail=N`` means the first N hits."""
    return hit <= int(query.get("fail", "1"))


@_route("/ok")
def _ok(h: _Handler, q: dict[str, str], hit: int) -> None:
    h.wait(float(q.get("latency", "0")))
    h.send_page(q.get("text", "正文内容。"))


@_route("/slow")
def _slow(h: _Handler, q: dict[str, str], hit: int) -> None:
    """Sends nothing for ``delay`` seconds while failing: a read timeout for the client."""
    if _failing(q, hit):
        h.wait(float(q.get("delay", "2")))
        h.close_connection = True
        return
    h.send_page()


@_route("/status")
def _status(h: _Handler, q: dict[str, str], hit: int) -> None:
    """``code`` (with optional ``retry_after``) while failing, then a good page."""
    if _failing(q, hit):
        headers = {"Retry-After": q["retry_after"]} if "retry_after" in q else {}
        h.send_body(int(q["code"]), b"<html><body>error page</body></html>", headers=headers)
    else:
        h.send_page()


@_route("/reset")
def _reset(h: _Handler, q: dict[str, str], hit: int) -> None:
    """Headers promise 20 000 bytes; 2 000 arrive, then a TCP reset."""
    if not _failing(q, hit):
        h.send_page()
        return
    h.send_response(200)
    h.send_header("Content-Type", "text/html; charset=utf-8")
    h.send_header("Content-Length", "20000")
    h.end_headers()
    h.wfile.write(b"<html><body>" + b"x" * 1988)
    h.cut(reset=True)


@_route("/truncated")
def _truncated(h: _Handler, q: dict[str, str], hit: int) -> None:
    """Content-Length larger than what is sent, then an orderly close."""
    if not _failing(q, hit):
        h.send_page()
        return
    body = PAGE.format(text="被截断的正文").encode("utf-8")
    h.send_response(200)
    h.send_header("Content-Type", "text/html; charset=utf-8")
    h.send_header("Content-Length", str(len(body) + 5000))
    h.end_headers()
    h.wfile.write(body)
    h.cut(reset=False)


@_route("/unterminated")
def _unterminated(h: _Handler, q: dict[str, str], hit: int) -> None:
    """No Content-Length, the connection closes before ``</html>``: cut short, not finished."""
    body = PAGE.format(text="正文").encode("utf-8")
    if _failing(q, hit):
        body = body[: len(body) // 2]
    h.send_response(200)
    h.send_header("Content-Type", "text/html; charset=utf-8")
    h.send_header("Connection", "close")
    h.end_headers()
    h.wfile.write(body)
    h.cut(reset=False)


@_route("/redirect")
def _redirect(h: _Handler, q: dict[str, str], hit: int) -> None:
    h.send_response(int(q.get("code", "302")))
    h.send_header("Location", q["to"])
    h.send_header("Content-Length", "0")
    h.end_headers()


@_route("/loop/a")
def _loop_a(h: _Handler, q: dict[str, str], hit: int) -> None:
    _redirect(h, {"to": "/loop/b"}, hit)


@_route("/loop/b")
def _loop_b(h: _Handler, q: dict[str, str], hit: int) -> None:
    _redirect(h, {"to": "/loop/a"}, hit)


@_route("/cookie-reload")
def _cookie_reload(h: _Handler, q: dict[str, str], hit: int) -> None:
    """Sets a cookie and redirects to itself, as consent and anti-bot gates do."""
    if "visited=1" in h.headers.get("Cookie", ""):
        h.send_page()
        return
    h.send_response(302)
    h.send_header("Location", "/cookie-reload")
    h.send_header("Set-Cookie", "visited=1; Path=/")
    h.send_header("Content-Length", "0")
    h.end_headers()


@_route("/chain")
def _chain(h: _Handler, q: dict[str, str], hit: int) -> None:
    """``n`` more redirects, then a page."""
    n = int(q.get("n", "0"))
    if n:
        _redirect(h, {"to": f"/chain?n={n - 1}"}, hit)
    else:
        h.send_page()


@functools.cache
def _bomb() -> bytes:
    """60 MB of zeros gzip to about 60 KB: a bomb against a reader that trusts the wire size."""
    return gzip.compress(b"<html><body>" + b"\0" * (60 * 1024 * 1024), compresslevel=9)


@_route("/gzip-bomb")
def _gzip_bomb(h: _Handler, q: dict[str, str], hit: int) -> None:
    h.send_body(200, _bomb(), headers={"Content-Encoding": "gzip"})


@_route("/corrupt-gzip")
def _corrupt_gzip(h: _Handler, q: dict[str, str], hit: int) -> None:
    """Says gzip; the body is not (a broken proxy, a damaged cache)."""
    h.send_body(200, b"<html><body>not gzip at all</body></html>",
                headers={"Content-Encoding": "gzip"})


@_route("/untyped")
def _untyped(h: _Handler, q: dict[str, str], hit: int) -> None:
    """No Content-Type, and nothing in the body that says HTML (a bare file)."""
    body = b"just some bytes, no markup"
    h.send_response(200)
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)
    h.end()


@_route("/big")
def _big(h: _Handler, q: dict[str, str], hit: int) -> None:
    """An honest page of ``mb`` megabytes, streamed."""
    size = int(float(q.get("mb", "6")) * 1024 * 1024)
    head, tail = b"<html><body><p>", b"</p></body></html>"
    h.send_response(200)
    h.send_header("Content-Type", "text/html; charset=utf-8")
    h.send_header("Content-Length", str(size))
    h.end_headers()
    filler = size - len(head) - len(tail)
    h.wfile.write(head)
    chunk = b"a" * 65536
    while filler > 0:
        h.wfile.write(chunk[: min(filler, len(chunk))])
        filler -= len(chunk)
    h.end()
    h.wfile.write(tail)


def _gbk_page(meta: str = "") -> bytes:
    return (
        f"<!DOCTYPE html><html><head>{meta}<title>国标编码</title></head>"
        f"<body><p>{GBK_TEXT}</p></body></html>"
    ).encode("gbk")


@_route("/gbk-utf8-header")
def _gbk_utf8_header(h: _Handler, q: dict[str, str], hit: int) -> None:
    """The header says UTF-8; the bytes are GBK (a common lie on Chinese sites)."""
    h.send_body(200, _gbk_page(), "text/html; charset=utf-8")


@_route("/meta-charset")
def _meta_charset(h: _Handler, q: dict[str, str], hit: int) -> None:
    h.send_body(200, _gbk_page('<meta charset="gbk">'), "text/html")


@_route("/gbk-no-charset")
def _gbk_no_charset(h: _Handler, q: dict[str, str], hit: int) -> None:
    h.send_body(200, _gbk_page(), "text/html")


@_route("/mixed")
def _mixed(h: _Handler, q: dict[str, str], hit: int) -> None:
    """A UTF-8 page with one GBK paragraph pasted in (a template and its content disagree)."""
    body = (
        PAGE.format(text="统一码写的正文。" * 60).encode("utf-8").replace(
            b"</article>", "<p>国标的一段</p>".encode("gbk") + b"</article>"
        )
    )
    h.send_body(200, body, "text/html; charset=utf-8")


@_route("/pdf")
def _pdf(h: _Handler, q: dict[str, str], hit: int) -> None:
    h.send_body(200, b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\n%%EOF\n", "application/pdf")


@_route("/interstitial")
def _interstitial(h: _Handler, q: dict[str, str], hit: int) -> None:
    """An anti-bot page while failing, then the article; ``lang=zh`` sends a GBK one."""
    if not _failing(q, hit):
        h.send_page()
    elif q.get("lang") == "zh":
        body = "<html><head><title>安全验证</title></head><body>正在验证您的浏览器，请稍候…"
        h.send_body(200, (body + "</body></html>").encode("gbk"), "text/html; charset=gbk")
    else:
        body = (
            "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>"
            "<p>Checking your browser before accessing the site.</p></body></html>"
        )
        h.send_body(int(q.get("code", "200")), body.encode("utf-8"))


@_route("/br")
def _br(h: _Handler, q: dict[str, str], hit: int) -> None:
    """A brotli-compressed page, the encoding most Chinese CDNs prefer."""
    h.send_body(200, brotli.compress(PAGE.format(text="压缩的正文").encode()),
                headers={"Content-Encoding": "br"})


@_route("/headers")
def _headers(h: _Handler, q: dict[str, str], hit: int) -> None:
    """The request headers as JSON inside a page, so a test can read what was sent."""
    text = json.dumps(dict(h.headers.items()), ensure_ascii=False)
    h.send_body(200, f"<html><body><pre>{text}</pre></body></html>".encode())


@_route("/typeless")
def _typeless(h: _Handler, q: dict[str, str], hit: int) -> None:
    """``body`` (UTF-8) sent with no Content-Type header: the bytes alone say what it is."""
    h.send_body(200, q.get("body", "").encode("utf-8"), content_type=None)


@_route("/links")
def _links(h: _Handler, q: dict[str, str], hit: int) -> None:
    """A list page: links and nothing else, so no article to cut out."""
    items = "".join(f"<li><a href='/ok?n={n}'>第{n}篇文章的标题</a></li>" for n in range(5))
    h.send_body(200, f"<html><head><title>目录</title></head><body><ul>{items}</ul>"
                     "</body></html>".encode())


@_route("/lower-case-type")
def _lower_case_type(h: _Handler, q: dict[str, str], hit: int) -> None:
    """``content-type`` in lower case, as many servers send it; GBK text with no <html> in
    its first kilobyte (a fragment), so only the header says it is an HTML page and GBK."""
    body = ("<!-- " + "x" * 1100 + " -->" + "<p>" + GBK_TEXT + "</p>").encode("gb18030")
    h.send_response(200)
    h.send_header("content-type", "text/html; charset=gbk")
    h.send_header("content-length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)
    h.end()


@_route("/trickle")
def _trickle(h: _Handler, q: dict[str, str], hit: int) -> None:
    """A page whose bytes come one every ``every`` seconds (0.2): each read succeeds, so no
    read timeout ever trips; only a deadline on the whole request stops it."""
    body = PAGE.format(text="慢慢来的正文").encode("utf-8")
    h.send_response(200)
    h.send_header("Content-Type", q.get("type", "text/html; charset=utf-8"))
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    every = float(q.get("every", "0.2"))
    for i in range(len(body)):
        if h.server_state.stopping.is_set():
            break
        h.wfile.write(body[i:i + 1])
        h.wfile.flush()
        h.wait(every)
    h.end()


# --- bodies that never end, servers that never speak: what a deadline must hold against -----

# Each never finishes: a name for the shape, and its path (add ``type=`` for an image).
NEVER_ENDING = {
    "no length, trickling forever (4.6 KB/s)": "/endless",
    "no length, a byte every 50 ms": "/endless?bytes=1&every=0.05",
    "chunked, no last chunk": "/endless-chunked",
    "chunked, a byte every 50 ms": "/endless-chunked?bytes=1&every=0.05",
    "chunked to the close, a chunk-size line that never ends": "/endless-chunk-size",
    "a header line that never ends": "/endless-headers",
    "headers, then never a byte": "/silent",
    "headers with a length, then never a byte": "/silent?length=100000",
    "never a header": "/no-headers",
}


def served_as(path: str, content_type: str) -> str:
    """``path`` of a route that reads ``type=``, asking it to answer as ``content_type``."""
    return f"{path}{'&' if '?' in path else '?'}type={content_type}"


def _until_stopped(h: _Handler, every: float, piece: bytes) -> None:
    """Send ``piece`` every ``every`` seconds until the server shuts down."""
    while not h.server_state.stopping.is_set():
        h.wfile.write(piece)
        h.wfile.flush()
        h.wait(every)


def _endless_headers(h: _Handler, q: dict[str, str], **extra: str) -> None:
    h.send_response(200)
    h.send_header("Content-Type", q.get("type", "text/html; charset=utf-8"))
    for name, value in extra.items():
        h.send_header(name.replace("_", "-"), value)
    h.end_headers()
    h.close_connection = True


@_route("/endless")
def _endless(h: _Handler, q: dict[str, str], hit: int) -> None:
    """A body with no Content-Length that never ends: ``bytes`` (460) every ``every`` seconds
    (0.1), about 4.6 KB/s like the hostile run's. Only its closing would end it, and that
    never comes, so only a deadline checked where the bytes are read can stop it."""
    size, every = int(q.get("bytes", "460")), float(q.get("every", "0.1"))
    _endless_headers(h, q)
    h.wfile.write(b"<!DOCTYPE html><html><body><p>")
    _until_stopped(h, every, b"x" * size)


@_route("/endless-chunked")
def _endless_chunked(h: _Handler, q: dict[str, str], hit: int) -> None:
    """The same, sent as chunks (``Transfer-Encoding: chunked``) with no last chunk."""
    size, every = int(q.get("bytes", "460")), float(q.get("every", "0.1"))
    _endless_headers(h, q, Transfer_Encoding="chunked")
    _until_stopped(h, every, b"%x\r\n%s\r\n" % (size, b"x" * size))


@_route("/endless-chunk-size")
def _endless_chunk_size(h: _Handler, q: dict[str, str], hit: int) -> None:
    """Chunked, ``Connection: close``, and the first chunk's size line trickles forever (a
    byte every 50 ms): read inside http.client, between the fetch's own reads."""
    _endless_headers(h, q, Transfer_Encoding="chunked", Connection="close")
    _until_stopped(h, 0.05, b"0")


@_route("/endless-headers")
def _endless_headers_line(h: _Handler, q: dict[str, str], hit: int) -> None:
    """A status line, then a header line that never ends (a byte every 50 ms)."""
    h.wfile.write(b"HTTP/1.1 200 OK\r\nX-Padding: ")
    h.close_connection = True
    _until_stopped(h, 0.05, b"a")


@_route("/silent")
def _silent(h: _Handler, q: dict[str, str], hit: int) -> None:
    """Headers (no length; ``length=N`` announces N bytes), then never a byte of the body."""
    extra = {"Content_Length": q["length"]} if "length" in q else {}
    _endless_headers(h, q, **extra)
    h.wfile.flush()
    h.server_state.stopping.wait()


@_route("/no-headers")
def _no_headers(h: _Handler, q: dict[str, str], hit: int) -> None:
    """The request is taken and never answered: not a status line, not a byte."""
    h.close_connection = True
    h.server_state.stopping.wait()
