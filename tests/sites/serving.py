"""A stdlib HTTP server on a thread for the span of a test: the one lifecycle every local site
shares (serve on enter, shut down and join on exit; a short poll keeps teardown quick)."""

from __future__ import annotations

import threading
from http.server import HTTPServer
from typing import Self


class Served:
    def __init__(self, httpd: HTTPServer) -> None:
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever,
                                        kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()
