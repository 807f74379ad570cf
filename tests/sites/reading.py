"""A site as a person reads it in the browser (issue 33): an article that appears only after
a click, and one behind a cookie login. ``ReadingSite`` serves them on 127.0.0.1 with their
pictures (public, as most sites' images are) and records every request with its cookie and
user agent, so a test can tell the browser's requests from Kuaibu's.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.sites.images import jpeg_bytes
from tests.sites.serving import QuietServer, Served

# what the click shows, and what only a logged-in reader sees: in no page the site serves
CLICKED_TEXT = ["点开之后才出现的第一段：作者在山里住了三年，每天清晨去溪边打水。",
                "第二段讲他如何学会分辨鸟鸣，又如何在雪夜里读完一整套旧书。",
                "第三段写到离开那天，邻居送来一篮柿子，他一路走一路分给路上的孩子。"]
MEMBERS_TEXT = ["Members only: the minutes of the harbour board, as read by subscribers.",
                "The board voted to dredge the eastern channel before the spring tides, at a"
                " cost the treasurer called bearable.",
                "A motion to rename the lighthouse was withdrawn after a long and good-humoured"
                " debate about what sailors would actually call it."]
SESSION = "session=member-7"

CLICK_PAGE = """<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">
<title>点开阅读</title></head><body><header><a href="/">首页</a></header>
<button id="more">阅读全文</button><main id="article"></main>
<script>
document.getElementById("more").addEventListener("click", function () {
  var parts = %s;
  var main = document.getElementById("article");
  var h = document.createElement("h1"); h.textContent = "山居三年"; main.appendChild(h);
  parts.forEach(function (text, i) {
    var p = document.createElement("p"); p.textContent = text; main.appendChild(p);
    if (i === 0) { var img = document.createElement("img"); img.src = "/img/creek.jpg";
                   img.alt = "溪边"; main.appendChild(img); }
  });
  main.setAttribute("data-ready", "1");
});
</script></body></html>"""

MEMBERS_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Harbour board minutes</title></head><body><nav><a href="/">Home</a>
<a href="/click.html">Another story</a></nav><article><h1>Harbour board minutes</h1>
%s<img src="/img/harbour.jpg" alt="The harbour"></article></body></html>"""

LOGIN_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Log in</title></head><body><p>Please log in to read this page.</p>
<a href="/login">Log in</a></body></html>"""


@dataclass(frozen=True)
class Request:
    path: str
    cookie: str
    user_agent: str


class ReadingSite(Served):
    def __init__(self) -> None:
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self.images = {"/img/creek.jpg": jpeg_bytes((400, 260), seed=3),
                       "/img/harbour.jpg": jpeg_bytes((420, 280), seed=5)}
        super().__init__(QuietServer(("127.0.0.1", 0), _handler_for(self)))

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)

    def requests_by_kuaibu(self) -> list[Request]:
        """The requests not made by the browser (Chromium's user agent says Chrome)."""
        with self._lock:
            return [r for r in self.requests if "Chrome" not in r.user_agent]


def _handler_for(site: ReadingSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            pass

        def do_GET(self) -> None:
            cookie = self.headers.get("Cookie", "")
            site.record(Request(self.path, cookie, self.headers.get("User-Agent", "")))
            if self.path == "/click.html":
                self._send(CLICK_PAGE % json.dumps(CLICKED_TEXT, ensure_ascii=False))
            elif self.path == "/login":
                self.send_response(302)
                self.send_header("Set-Cookie", f"{SESSION}; Path=/; HttpOnly")
                self.send_header("Location", "/members.html")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif self.path == "/members.html":
                if SESSION in cookie:
                    self._send(MEMBERS_PAGE % "".join(f"<p>{p}</p>" for p in MEMBERS_TEXT))
                else:
                    self._send(LOGIN_PAGE)
            elif self.path in site.images:
                self._send(site.images[self.path], "image/jpeg")
            else:
                self._send("<!DOCTYPE html><title>Home</title><p>Home</p>")

        def _send(self, body: str | bytes, content_type: str = "text/html; charset=utf-8"
                  ) -> None:
            data = body.encode("utf-8") if isinstance(body, str) else body
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
