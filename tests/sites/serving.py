"""A stdlib HTTP server on a thread for the span of a test: the one lifecycle every local site
shares (serve on enter, shut down and join on exit; a short poll keeps teardown quick), and
the one server class they serve with (``QuietServer``)."""

from __future__ import annotations

import sys
import threading
from http.server import HTTPServer, ThreadingHTTPServer
from typing import Any, Self


class QuietServer(ThreadingHTTPServer):
    """A threading server whose handler threads die with the test, and for which a client
    hanging up (a refused 30 MB image, a fetch given up at its deadline, a browser closed
    mid-answer) is not a server error: its traceback would land on stderr during some later
    test, which may be reading stderr."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


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
