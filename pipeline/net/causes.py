"""What a network error says, read for a person: the innermost cause of a wrapped error, and
a failed connection's failure coded by that cause.

Apart because both the request (``hops``: connecting) and the body (``response``: a
connection broken mid-body) name causes, and the operating system's and resolver's words are
read in this one place.
"""

from __future__ import annotations

from pipeline.records.failures import Code, Failure, failure

# What an operating system's "connection failed" says, by what it means to a person: the
# causes are the OS's and the resolver's words, so this is the one place they are read.
_CONNECTION_CAUSES: tuple[tuple[Code, tuple[str, ...]], ...] = (
    (Code.CONNECTION_REFUSED, ("[Errno 111]", "Connection refused")),
    (Code.HOST_NOT_FOUND, ("Name or service not known", "nodename nor servname",
                           "No address associated", "getaddrinfo failed",
                           "Failed to resolve")),
    (Code.DNS_TEMPORARY, ("Temporary failure in name resolution",)),
    (Code.NETWORK_UNREACHABLE, ("No route to host", "Network is unreachable")),
    (Code.CONNECTION_RESET, ("Connection reset",)),
)


def connection_failure(cause: str) -> Failure:
    """A failed connection's failure, coded by its cause (refused, no such name, …)."""
    code = next((code for code, marks in _CONNECTION_CAUSES
                 if any(mark in cause for mark in marks)), Code.CONNECTION_FAILED)
    return failure(code, cause)


def root_cause(e: BaseException) -> str:
    """The innermost message of a wrapped network error, e.g. "[Errno 111] Connection refused"."""
    while True:
        inner = next((a for a in getattr(e, "args", ()) if isinstance(a, BaseException)), None)
        inner = inner or e.__cause__ or e.__context__
        if inner is None or inner is e:
            break
        e = inner
    text = str(e)
    return text.split(": ", 1)[-1] if "Errno" not in text else text[text.index("[Errno"):]
