"""A local site whose pages a test writes and changes between requests.

``ArticleSite`` serves ``pages[path] = (status, html)`` on 127.0.0.1; a test sets a page,
runs, changes it (or makes it a 404) and runs again, as a site that edits, moves or removes
its articles does. ``delay[path]`` holds a page back for that many seconds (to make one task
finish after another).
"""

from __future__ import annotations

import time
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.sites.serving import QuietServer, Served

ARTICLE = """<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">
<title>{title}</title>{head}</head>
<body><header><nav><a href="/">首页</a> <a href="/news">新闻</a></nav></header>
<article><h1>{title}</h1>{paragraphs}</article>
<footer><p>关于我们 · 联系方式</p></footer></body></html>"""


def article(title: str, paragraphs: list[str], lang: str = "zh-CN", head: str = "") -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return ARTICLE.format(title=title, paragraphs=body, lang=lang, head=head)


class ArticleSite(Served):
    def __init__(self) -> None:
        self.pages: dict[str, tuple[int, str | bytes]] = {}
        self.delay: dict[str, float] = {}
        self.unannounced: set[str] = set()  # paths sent without a Content-Length
        self.requests: list[str] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def do_GET(self) -> None:
                site.requests.append(self.path)
                time.sleep(site.delay.get(self.path, 0.0))
                status, html = site.pages.get(self.path, (404, "<h1>Not found</h1>"))
                body = html if isinstance(html, bytes) else html.encode("utf-8")
                self.send_response(status)
                # bytes are sent undeclared: the page's own <meta charset> decides
                self.send_header("Content-Type", "text/html" if isinstance(html, bytes)
                                 else "text/html; charset=utf-8")
                if self.path not in site.unannounced:
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        super().__init__(QuietServer(("127.0.0.1", 0), Handler))

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def put(self, path: str, html: str, status: int = 200) -> str:
        self.pages[path] = (status, html)
        return self.url(path)

    def put_bytes(self, path: str, body: bytes, status: int = 200,
                  announced: bool = True) -> str:
        """A page served as these bytes with no charset in its header (a GBK page);
        ``announced=False``: without a Content-Length (the body ends with the connection)."""
        self.pages[path] = (status, body)
        if not announced:
            self.unannounced.add(path)
        return self.url(path)
