"""Named failures. Each message is what a person reads in the task's error column; each
error's ``kind`` is what its task is grouped and retried by (the ``error_kind`` column)."""

from __future__ import annotations

from enum import StrEnum

from pipeline.records.failures import Code, Failure, failure


class ErrorKind(StrEnum):
    """Why a task failed, in words the command line and tasks.csv share (``--kind http-5xx``).

    Kinds group failures a person deals with alike: network ones are retried when the
    connection is back, http-4xx ones are fixed in the link, rules ones in rules.yaml.
    """

    NETWORK = "network"  # no answer: DNS, refused, reset, timed out, stalled, TLS
    HTTP_4XX = "http-4xx"  # the server refused the page (404, 403, 410, …)
    HTTP_5XX = "http-5xx"  # the server broke (500, 502, 503, …)
    REDIRECT = "redirect"  # a loop, too many hops, a hop to a non-http scheme
    BAD_URL = "bad-url"  # a link Kuaibu will not fetch (no host, not http/https)
    # an address Kuaibu will not connect to (link-local, private for a public page, …);
    # ``--set allow_addresses=…`` then ``run --kind blocked-address`` takes them up
    BLOCKED_ADDRESS = "blocked-address"
    NOT_HTML = "not-html"  # a PDF, an image, a body without <html>
    TOO_LARGE = "too-large"  # over the size limit
    INTERSTITIAL = "interstitial"  # an anti-bot page instead of the article
    TRUNCATED = "truncated"  # the body arrived cut short or damaged
    NO_ARTICLE = "no-article"  # the page holds no article (a list, a picture, an error page)
    # a shell that scripts fill in (an empty #root, a <noscript> asking for JavaScript): the
    # site's pages need ``render: browser`` in rules.yaml
    NEEDS_JS = "needs-javascript"
    RULES = "rules"  # rules.yaml says something that cannot work (an invalid selector)
    INTERNAL = "internal"  # a bug: the traceback is in 04_logs/errors.log
    # Never written: what a failed task without a kind reads as (a tasks.csv from before
    # kinds existed, a status a person typed), so ``--kind unknown`` can still choose them.
    UNKNOWN = "unknown"


class KuaibuError(Exception):
    """Base of every error the pipeline reports to a person.

    ``kind`` is what a task failed by this error is grouped under. Errors that never fail a
    task (the task file, cookies, a book) keep INTERNAL: one reaching a task is a bug.
    """

    kind: ErrorKind = ErrorKind.INTERNAL
    # what went wrong as a code and its parts (``pipeline.records.failures``), for every error a
    # task can fail by: the window and the report choose their words by it
    failure: Failure | None = None

    def __init__(self, message: str | Failure = "") -> None:
        if isinstance(message, Failure):
            self.failure = message
        super().__init__(str(message))


class FetchError(KuaibuError):
    """A page could not be fetched. ``retryable`` says whether a later run should try again;
    ``kind`` is named where it is raised, since one class covers every way a fetch fails."""

    failure: Failure

    def __init__(self, failure: Failure, *, kind: ErrorKind, retryable: bool = False,
                 unreachable: bool = False) -> None:
        super().__init__(failure)
        self.reason = failure.text
        self.kind = kind
        self.retryable = retryable
        # the host gave no answer at all (refused, no such name, connect timeout, a deadline
        # passed): what a host's circuit breaker counts
        self.unreachable = unreachable


class RetryLater(FetchError):
    """An attempt failed in a way worth another try, and tries are left: the caller puts the
    work back with a not-before time (``wait`` seconds) instead of waiting in a worker."""

    def __init__(self, cause: FetchError, wait: float, attempt: int) -> None:
        super().__init__(cause.failure, kind=cause.kind, retryable=True,
                         unreachable=cause.unreachable)
        self.wait = wait
        self.attempt = attempt  # the attempt that failed (1-based)


class HttpStatusError(FetchError):
    """The server answered with an error status; its kind follows from the status code."""

    def __init__(self, status: int, failure: Failure, *, retryable: bool,
                 retry_after: str | None = None) -> None:
        super().__init__(failure, kind=http_kind(status), retryable=retryable)
        self.status = status
        self.retry_after = retry_after


def http_kind(status: int) -> ErrorKind:
    """5xx (and any code above) is the server's fault, 4xx the request's; a 3xx that reached
    here is a redirect that could not be followed (no Location, 304 to a plain GET)."""
    if status >= 500:
        return ErrorKind.HTTP_5XX
    if status >= 400:
        return ErrorKind.HTTP_4XX
    return ErrorKind.REDIRECT


class ExtractError(KuaibuError):
    """No article could be cut out of a page (empty page, list page, too short)."""

    kind = ErrorKind.NO_ARTICLE
    failure: Failure

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure)


class NeedsJavaScript(ExtractError):
    """The page is a shell that scripts fill in: only a browser makes its article. The
    message names what gave it away (``signal``) and how to have the site rendered."""

    kind = ErrorKind.NEEDS_JS

    def __init__(self, signal: str, host: str, rendered: bool = False) -> None:
        super().__init__(failure(Code.NEEDS_JAVASCRIPT_RENDERED if rendered
                                 else Code.NEEDS_JAVASCRIPT, signal, host))
        self.signal, self.host = signal, host


class BadSelectorError(ExtractError):
    """A rules selector cssselect cannot read: no page of its site can be cut with it."""

    kind = ErrorKind.RULES


class AssetError(KuaibuError):
    """One image could not be brought home; never fails its article."""


class RulesError(KuaibuError):
    """rules.yaml is invalid: names the file, line and key, and what was expected (a code, so
    the rules editor says it in its language)."""

    kind = ErrorKind.RULES

    def __init__(self, path: str, line: int | None, key: str | None, problem: Failure) -> None:
        where = path if line is None else f"{path}, line {line}"
        what = f"{key}: {problem.text}" if key else problem.text
        super().__init__(f"{where}: {what}")
        self.path, self.line, self.key, self.problem = path, line, key, problem


class DiskFull(KuaibuError):
    """A write found no space left: the run stops (every task would fail the same way) and
    says which file it was writing; what was written before is whole."""


class TaskFileError(KuaibuError):
    """tasks.csv cannot be read as it stands (a malformed row names its line)."""


class StopRequested(KuaibuError):
    """The run was asked to stop while this task waited or worked; the task is not failed."""

    def __init__(self) -> None:
        super().__init__("stopped")


class CookieFileError(KuaibuError):
    """cookies.txt cannot be read; the message names the file and line."""


class BookError(KuaibuError):
    """A book cannot be built as asked (nothing to bind, no CJK font, a broken template)."""


class BuildCancelled(BookError):
    """A build was asked to stop (the window's Cancel, Ctrl+C in a terminal) and stopped at
    its next article; what it was writing was never put in place."""

    def __init__(self) -> None:
        super().__init__("build cancelled; nothing half-written is left in the output folder")
