"""A local single-page app: the article is built by a script, nowhere in the HTML served.

``SpaSite`` is three hosts on loopback. The app (``app``, 127.0.0.1 by default) serves at
``/a/<slug>`` an HTML shell — an empty ``<div id="root">``, a stylesheet and a deferred
script — and ``/api/<slug>.json``, which the script fetches after ``delay_ms`` and builds the
headline, paragraphs and images from. The images live on a second host (``images``, an
``ImageServer``): some plain ``<img src>``, some lazy, their address given only when an
IntersectionObserver sees them scrolled into view (they sit below a tall spacer). The script
also tries a third host (``tracker``) every way a page phones home — fetch(), sendBeacon, a
WebSocket, an iframe and a preconnect — which a renderer must refuse: the tracker counts
every connection it accepts, before any request is read.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any, Self

from tests.sites.images import Hit, ImageServer, jpeg_bytes
from tests.sites.serving import QuietServer, Served

SHELL = """<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">
<title>加载中…</title><link rel="stylesheet" href="/style.css">
<link rel="preconnect" href="{tracker}"><script src="/app.js" defer></script></head>
<body><div id="root"></div><noscript>本站需要启用 JavaScript。</noscript></body></html>"""

STYLE = "body { font-family: serif; max-width: 40em; margin: auto; } img { display: block; }"

APP_JS = """(function () {
  var slug = location.pathname.split("/").pop();
  function para(text) {
    var p = document.createElement("p");
    p.textContent = text;
    return p;
  }
  function picture(width, height) {
    var img = document.createElement("img");
    img.width = width;
    img.height = height;
    img.alt = "";
    return img;
  }
  function build(d) {
    document.title = d.title;
    var art = document.createElement("article");
    var h = document.createElement("h1");
    h.textContent = d.title;
    art.appendChild(h);
    d.paragraphs.forEach(function (t, i) {
      for (var n = 0; n < d.repeat; n++) art.appendChild(para(t));
      if (i < d.images.length) {
        var img = picture(320, 200);
        img.src = d.images[i];
        art.appendChild(img);
      }
    });
    var spacer = document.createElement("div");
    spacer.style.height = "4000px";
    art.appendChild(spacer);
    var lazy = new Map();
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) {
          e.target.src = lazy.get(e.target);
          seen.unobserve(e.target);
        }
      });
    });
    d.lazy.forEach(function (src, i) {
      var img = picture(320, 200);
      lazy.set(img, src);
      art.appendChild(img);
      art.appendChild(para(d.captions[i]));
      seen.observe(img);
    });
    document.getElementById("root").appendChild(art);
    // every way a page phones home; a renderer lets none of them out
    fetch(d.tracker + "/collect?page=" + slug).catch(function () {});
    if (navigator.sendBeacon) navigator.sendBeacon(d.tracker + "/beacon", "seen");
    try { new WebSocket(d.tracker.replace("http", "ws") + "/live"); } catch (e) {}
    var frame = document.createElement("iframe");
    frame.src = d.tracker + "/frame";
    document.body.appendChild(frame);
  }
  setTimeout(function () {
    fetch("/api/" + slug + ".json").then(function (r) { return r.json(); }).then(build);
  }, DELAY_MS);
})();
"""


@dataclass(frozen=True)
class SpaArticle:
    title: str
    paragraphs: list[str]
    images: list[str]  # paths on the image host, shown at once
    lazy: list[str]  # paths on the image host, shown when scrolled into view
    repeat: int  # how many times the script writes each paragraph


class Tracker(Served):
    """A host that must never be reached: counts the connections it accepts."""

    def __init__(self, address: str) -> None:
        self.connections = 0
        self._lock = threading.Lock()
        tracker = self

        class Counting(QuietServer):
            def verify_request(self, request: Any, client_address: Any) -> bool:
                with tracker._lock:
                    tracker.connections += 1
                return True

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def do_GET(self) -> None:
                self.send_response(204)
                self.end_headers()

            do_POST = do_GET

        super().__init__(Counting((address, 0), Handler))
        self.origin = f"http://{address}:{self.port}"


class SpaSite:
    """The app, its image host and a tracker, served while used as a context manager."""

    def __init__(self, app: str = "127.0.0.1", images: str = "127.0.0.2",
                 tracker: str = "127.0.0.3", delay_ms: int = 300) -> None:
        self.articles: dict[str, SpaArticle] = {}
        self.requests: list[Hit] = []  # what the app host was asked for
        self.api_delay = 0.0  # seconds each /api/ answer is held back
        self.images = ImageServer(images)
        self.tracker = Tracker(tracker)
        self._script = APP_JS.replace("DELAY_MS", str(delay_ms)).encode("utf-8")
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def do_GET(self) -> None:
                site.requests.append(Hit(self.path, dict(self.headers.items())))
                status, kind, body = site._answer(self.path)
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._app = Served(QuietServer((app, 0), Handler))
        self.origin = f"http://{app}:{self._app.port}"

    def __enter__(self) -> Self:
        for served in (self._app, self.images, self.tracker):
            served.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        for served in (self._app, self.images, self.tracker):
            served.__exit__(*exc)

    def put(self, slug: str, title: str, paragraphs: list[str], images: int = 2,
            lazy: int = 2, repeat: int = 1) -> str:
        """An article of the app, its pictures on the image host; its address. ``repeat``:
        a page far larger than the data it is built from."""
        shown = [f"/img/{slug}-{n}.jpg" for n in range(images)]
        hidden = [f"/img/{slug}-lazy-{n}.jpg" for n in range(lazy)]
        for seed, path in enumerate(shown + hidden):
            self.images.put(path, jpeg_bytes((320, 200), seed=seed), "image/jpeg")
        self.articles[slug] = SpaArticle(title, paragraphs, shown, hidden, repeat)
        return self.url(slug)

    def url(self, slug: str) -> str:
        return f"{self.origin}/a/{slug}"

    def asked(self, path: str) -> list[Hit]:
        """The requests for one path of the app host."""
        return [h for h in self.requests if h.path == path]

    def image_urls(self, slug: str) -> list[str]:
        article = self.articles[slug]
        return [self.images.url(p) for p in article.images + article.lazy]

    def _answer(self, path: str) -> tuple[int, str, bytes]:
        if path == "/app.js":
            return 200, "application/javascript", self._script
        if path == "/style.css":
            return 200, "text/css", STYLE.encode("utf-8")
        if path.startswith("/a/") and path[3:] in self.articles:
            return (200, "text/html; charset=utf-8",
                    SHELL.format(tracker=self.tracker.origin).encode("utf-8"))
        slug = path.removeprefix("/api/").removesuffix(".json")
        if path.startswith("/api/") and slug in self.articles:
            time.sleep(self.api_delay)
            a = self.articles[slug]
            data = {"title": a.title, "paragraphs": a.paragraphs, "repeat": a.repeat,
                    "images": [self.images.url(p) for p in a.images],
                    "lazy": [self.images.url(p) for p in a.lazy],
                    "captions": [f"图{n + 1}：滚动到这里才加载的图片。"
                                 for n in range(len(a.lazy))],
                    "tracker": self.tracker.origin}
            return 200, "application/json", json.dumps(data, ensure_ascii=False).encode("utf-8")
        return 404, "text/html; charset=utf-8", b"<h1>Not found</h1>"


def paragraphs(slug: str, count: int = 6) -> list[str]:
    """Prose enough for an article, each paragraph naming its page and number."""
    return [f"{slug} 第{n + 1}段：这是由脚本在浏览器里生成的正文，服务器发来的只是一个空壳，"
            f"没有浏览器就读不到这些文字。单页应用把文章放在接口返回的数据里。" * 2
            for n in range(count)]
