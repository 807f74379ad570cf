"""The run's HTTP session, over connections that judge where they connect and say when a
request has really left.

requests hands its connections no context, so the hop being sent is put where they find it
(``sending``): a new connection resolves, judges every address by the hop's policy and
connects to an allowed one; a kept-alive one has its peer judged; and once the request is
out (after any connect or TLS handshake) the hop gets its socket and the politeness gate is
told. Apart from the request loop (``hops``) because this is the one place that reaches into
urllib3's connection classes.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from typing import Any

import requests
import urllib3
import urllib3.connection
import urllib3.exceptions
import urllib3.util.connection
from requests.adapters import HTTPAdapter

from pipeline.net.deadline import Hop
from pipeline.net.fetcher import PAGE_ACCEPT
from pipeline.records.settings import Settings
from pipeline.web.addresses import ip_of_peer


def new_session(settings: Settings) -> requests.Session:
    """The one session of a run: truthful User-Agent, the user's languages, compressed bodies."""
    session = requests.Session()
    session.headers.update(
        {
            "User-Agent": settings.user_agent,
            "Accept": PAGE_ACCEPT,
            "Accept-Language": settings.accept_language,
            # br is decoded by urllib3 because the brotli package is installed
            "Accept-Encoding": "gzip, deflate, br",
        }
    )
    # Keep connections for many hosts, as many per host as the run may open at once.
    adapter = _SentReportingAdapter(pool_connections=64, pool_maxsize=settings.global_connections)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


# The hop this thread is sending; the connection reports to it (requests passes no context).
_sending = threading.local()


@contextlib.contextmanager
def sending(hop: Hop) -> Iterator[None]:
    """The connection this thread sends on during the block reports to ``hop``."""
    _sending.hop = hop
    try:
        yield
    finally:
        _sending.hop = None


class _SentReporter:
    """Mixed into urllib3's connections: connect only to addresses the hop's policy allows,
    hand the hop the socket that carries it, and tell the gate when the request has really
    gone out (after any connect or TLS handshake)."""

    def request(self, *args: Any, **kwargs: Any) -> None:
        hop: Hop | None = getattr(_sending, "hop", None)
        if hop is not None:
            sock = getattr(self, "sock", None)
            if hop.addresses is not None and sock is not None:
                # a kept-alive connection skips _new_conn: its peer is judged for this task
                hop.addresses.check(ip_of_peer(sock), getattr(self, "host", None))
        super().request(*args, **kwargs)  # type: ignore[misc]
        if hop is not None:
            hop.sock = getattr(self, "sock", None)  # connected now (TLS-wrapped for https)
            if hop.slot is not None:
                hop.slot.started()

    def _new_conn(self) -> socket.socket:
        """Resolve, judge every address, and connect to an allowed one (the address judged
        is the address reached: no second lookup that could answer otherwise). The Host
        header, SNI and certificate checks still use the name."""
        hop: Hop | None = getattr(_sending, "hop", None)
        conn: Any = self
        if hop is None or hop.addresses is None or conn.proxy is not None:
            return super()._new_conn()  # type: ignore[misc,no-any-return]
        try:
            allowed = hop.addresses.connectable(conn._dns_host)
        except socket.gaierror as e:
            raise urllib3.exceptions.NameResolutionError(conn.host, conn, e) from e
        error: OSError | None = None
        for ip in allowed:
            try:
                return urllib3.util.connection.create_connection(
                    (str(ip), conn.port), conn.timeout, source_address=conn.source_address,
                    socket_options=conn.socket_options)
            except TimeoutError as e:
                raise urllib3.exceptions.ConnectTimeoutError(
                    conn, f"Connection to {conn.host} timed out."
                    f" (connect timeout={conn.timeout})") from e
            except OSError as e:
                error = e
        raise urllib3.exceptions.NewConnectionError(
            conn, f"Failed to establish a new connection: {error}")


class _HTTPConnection(_SentReporter, urllib3.connection.HTTPConnection):
    pass


class _HTTPSConnection(_SentReporter, urllib3.connection.HTTPSConnection):
    pass


class _HTTPPool(urllib3.HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(urllib3.HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


class _SentReportingAdapter(HTTPAdapter):
    """requests' adapter over connections that report when each request has really left."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}
