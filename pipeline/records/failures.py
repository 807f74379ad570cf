"""Failures as codes: what went wrong, said once (and harvest's reasons, said alike).

A failure a person can meet is a ``Failure``: a ``Code`` and the parts that vary (a status,
a host, seconds), never a sentence. ``MESSAGES`` is the one English table the sentence is
made from (tasks.csv's ``error`` cell, the terminal); the window, the report and harvest
choose their words by the code (``gui/reasons.py`` holds the translations), so a reworded
sentence can never silently lose its translation.

An argument is text, or a ``Failure`` itself when one failure wraps another ("redirect to
<why the target cannot be fetched>", "new rules failed: <why>"); tasks.csv keeps the
arguments as a JSON list (``dump_args`` / ``load_failure``), a wrapped failure as an object.
"""

from __future__ import annotations

import json
import string
from dataclasses import dataclass
from enum import StrEnum

# What rendering pages needs, named wherever a person is told to turn it on
INSTALL_PLAYWRIGHT = "pip install -e '.[browser]'"
INSTALL_CHROMIUM = "apt install chromium"


class Code(StrEnum):
    """Every failure a person can meet (and every reason harvest gives); the value is what
    tasks.csv's ``error_code`` holds (never renamed: rows written by an older version must
    still read)."""

    # -- the network: no answer, or a broken one
    CONNECT_TIMEOUT = "connect-timeout"
    READ_TIMEOUT = "read-timeout"
    DEADLINE = "deadline"
    TOO_SLOW = "too-slow"
    BODY_STALLED = "body-stalled"
    TLS = "tls"
    CONNECTION_REFUSED = "connection-refused"
    HOST_NOT_FOUND = "host-not-found"
    DNS_TEMPORARY = "dns-temporary"
    NETWORK_UNREACHABLE = "network-unreachable"
    CONNECTION_RESET = "connection-reset"
    CONNECTION_FAILED = "connection-failed"
    CONNECTION_BROKEN = "connection-broken"
    REQUEST_FAILED = "request-failed"
    HOST_UNREACHABLE = "host-unreachable"
    # -- what the server answered
    HTTP_STATUS = "http-status"
    HTTP_STATUS_UNNAMED = "http-status-unnamed"
    NOT_HTML = "not-html"
    NOT_HTML_UNTYPED = "not-html-untyped"
    INTERSTITIAL = "interstitial"
    CUT_SHORT = "cut-short"
    TRUNCATED = "truncated"
    CORRUPT = "corrupt"
    TOO_LARGE = "too-large"
    # -- redirects
    REDIRECT_TO = "redirect-to"
    REDIRECT_LOOP = "redirect-loop"
    TOO_MANY_REDIRECTS = "too-many-redirects"
    # -- links
    UNSUPPORTED_SCHEME = "unsupported-scheme"
    NO_HOST_IN_URL = "no-host-in-url"
    INVALID_URL = "invalid-url"
    NOT_A_LINK = "not-a-link"
    SCHEME_NOT_ARCHIVED = "scheme-not-archived"
    LINK_HAS_NO_HOST = "link-has-no-host"
    BAD_PORT = "bad-port"
    BAD_IPV6_HOST = "bad-ipv6-host"
    BAD_HOST_NAME = "bad-host-name"
    CREDENTIALS = "credentials"
    LINK_TOO_LONG = "link-too-long"
    LINK_TOO_LONG_ENCODED = "link-too-long-encoded"
    # -- addresses
    ADDRESS_NEVER = "address-never"
    ADDRESS_NEVER_WIDENABLE = "address-never-widenable"
    ADDRESS_LOCAL = "address-local"  # private or loopback: both can be allowed
    # -- rendering with the browser
    NEEDS_PLAYWRIGHT = "needs-playwright"
    NO_CHROMIUM_AT = "no-chromium-at"
    NO_CHROMIUM = "no-chromium"
    CHROMIUM_DID_NOT_START = "chromium-did-not-start"
    NO_BROWSER_THIS_RUN = "no-browser-this-run"
    RENDER_TIMEOUT = "render-timeout"
    RENDERED_TOO_LARGE = "rendered-too-large"
    # -- extraction and rules
    NO_ARTICLE = "no-article"
    NEEDS_JAVASCRIPT = "needs-javascript"
    NEEDS_JAVASCRIPT_RENDERED = "needs-javascript-rendered"
    # -- an imported page's images
    NOT_IN_SAVED_PAGE = "not-in-saved-page"
    # -- rules.yaml: the file, a section, a key's value
    RULES_TOO_LARGE = "rules-too-large"
    RULES_NOT_UTF8 = "rules-not-utf8"
    RULES_CONTROL_CHARACTER = "rules-control-character"
    RULES_NOT_YAML = "rules-not-yaml"
    RULES_TOO_DEEP = "rules-too-deep"
    RULES_TOO_MANY_SECTIONS = "rules-too-many-sections"
    RULES_NOT_SECTIONS = "rules-not-sections"
    RULES_KEY_TWICE = "rules-key-twice"
    RULES_SECTION_TWICE = "rules-section-twice"
    RULES_SECTION_NAME = "rules-section-name"
    RULES_SECTION_NOT_RULES = "rules-section-not-rules"
    RULES_UNKNOWN_KEY = "rules-unknown-key"
    RULE_NOT_TEXT = "rule-not-text"
    RULE_CONTROL_CHARACTER = "rule-control-character"
    RULE_HEADER_VALUE = "rule-header-value"
    RULE_NOT_LIST = "rule-not-list"
    RULE_LIST_TOO_LONG = "rule-list-too-long"
    RULE_WHOLE_NUMBER = "rule-whole-number"
    RULE_ENCODING = "rule-encoding"
    RULE_REGEX = "rule-regex"
    RULE_CHOICE = "rule-choice"
    RULE_NOT_HEADERS = "rule-not-headers"
    RULE_TOO_MANY_HEADERS = "rule-too-many-headers"
    RULE_HEADER_NAME = "rule-header-name"
    RULE_HEADER_TWICE = "rule-header-twice"
    RULE_COOKIE_PAIRS = "rule-cookie-pairs"
    RULE_COOKIES_IN_DEFAULT = "rule-cookies-in-default"
    BAD_SELECTOR = "bad-selector"
    NEW_RULES_FAILED = "new-rules-failed"
    # -- reading a book back (the window's reader)
    BOOK_UNREADABLE = "book-unreadable"
    BOOK_NOT_ZIP = "book-not-zip"
    BOOK_FILE = "book-file"
    BOOK_TOO_MANY_PARTS = "book-too-many-parts"
    BOOK_PART_MISSING = "book-part-missing"
    BOOK_PART_TOO_LARGE = "book-part-too-large"
    BOOK_PART_DAMAGED = "book-part-damaged"
    BOOK_BAD_XML = "book-bad-xml"
    BOOK_NO_PACKAGE = "book-no-package"
    BOOK_EMPTY_SPINE = "book-empty-spine"
    # -- a bug (the traceback is in 04_logs/errors.log)
    INTERNAL = "internal"
    # -- not failures: why harvest takes a page for a list or an article, and why a link
    # scores as it does (said in the window and the terminal like a failure's reason)
    LIST_PAGE = "list-page"
    ARTICLE_PAGE = "article-page"
    ONE_PAGE = "one-page"
    LINK_TEXT = "link-text"
    IN_MAIN_LIST = "in-main-list"
    DATE_IN_URL = "date-in-url"
    ID_IN_URL = "id-in-url"
    SHORT_TEXT = "short-text"
    MATCHES_PATTERN = "matches-pattern"
    MISSES_PATTERN = "misses-pattern"


# The English sentences, ``str.format`` templates over the arguments. Changing one changes
# what tasks.csv's ``error`` says: keep them as they are.
MESSAGES: dict[Code, str] = {
    Code.CONNECT_TIMEOUT: "connection timed out after {0} s",
    Code.READ_TIMEOUT: "no answer within {0} s",
    Code.DEADLINE: "no complete answer within {0} s",
    Code.TOO_SLOW: ("too slow: {1} of {2} bytes in {3} s, at that pace {4} s, past the {0} s"
                    " deadline"),
    Code.BODY_STALLED: "body stalled: no data for {0} s",
    Code.TLS: "TLS error: {0}",
    Code.CONNECTION_REFUSED: "connection failed: {0}",
    Code.HOST_NOT_FOUND: "connection failed: {0}",
    Code.DNS_TEMPORARY: "connection failed: {0}",
    Code.NETWORK_UNREACHABLE: "connection failed: {0}",
    Code.CONNECTION_RESET: "connection failed: {0}",
    Code.CONNECTION_FAILED: "connection failed: {0}",
    Code.CONNECTION_BROKEN: "connection broken while reading the {0}: {1}",
    Code.REQUEST_FAILED: "request failed: {0}",
    Code.HOST_UNREACHABLE: "host unreachable ({0} failures since {1})",
    Code.HTTP_STATUS: "HTTP {0} {1}",
    Code.HTTP_STATUS_UNNAMED: "HTTP {0}",
    Code.NOT_HTML: "not an HTML page: {0}",
    Code.NOT_HTML_UNTYPED: "not an HTML page: no Content-Type and no <html>",
    Code.INTERSTITIAL: "interstitial page",
    Code.CUT_SHORT: "page cut short: the connection closed before </html>",
    Code.TRUNCATED: "truncated body: {0} of {1} bytes",
    Code.CORRUPT: "the compressed body is corrupt: {0}",
    Code.TOO_LARGE: "{0} larger than {1} MB",
    Code.REDIRECT_TO: "redirect to {0}",
    Code.REDIRECT_LOOP: "redirect loop",
    Code.TOO_MANY_REDIRECTS: "too many redirects (more than {0})",
    Code.UNSUPPORTED_SCHEME: "unsupported URL scheme: {0} (only http and https)",
    Code.NO_HOST_IN_URL: "invalid URL: no host in {0}",
    Code.INVALID_URL: "invalid URL: {0}",
    Code.NOT_A_LINK: "not a link: {0}",
    Code.SCHEME_NOT_ARCHIVED: "only http and https links are archived, not {0}:",
    Code.LINK_HAS_NO_HOST: "link has no host: {0}",
    Code.BAD_PORT: "bad port {0} in {1}",
    Code.BAD_IPV6_HOST: "bad IPv6 host in {0}",
    Code.BAD_HOST_NAME: "bad host name in {1}: {0}",
    Code.CREDENTIALS: ("link to {0} carries a user name or password: credentials do not belong"
                       " in a task list; add the link without them"),
    Code.LINK_TOO_LONG: "link is {0} characters long; the longest taken is {1}",
    Code.LINK_TOO_LONG_ENCODED: ("link is {0} characters long once percent-encoded; the"
                                 " longest taken is {1}"),
    Code.ADDRESS_NEVER: "address {0}{2} is {1}: never fetched",
    Code.ADDRESS_NEVER_WIDENABLE: ("address {0}{2} is {1}: never fetched (unless"
                                   " allow_addresses includes {1})"),
    Code.ADDRESS_LOCAL: ("address {0}{2} is {1}: fetched only when the link you added is itself"
                         " on a private or loopback address, never for a public page's links,"
                         " redirects or images (unless allow_addresses includes {1})"),
    Code.NEEDS_PLAYWRIGHT: "rendering pages needs Playwright and Chromium: {0} and {1}",
    Code.NO_CHROMIUM_AT: "rendering pages needs Chromium: no Chromium at browser_path {0}; {1}",
    Code.NO_CHROMIUM: "rendering pages needs Chromium: no Chromium found ({0}); {1}",
    Code.CHROMIUM_DID_NOT_START: "Chromium did not start: {0}",
    Code.NO_BROWSER_THIS_RUN: "this run has no browser",
    Code.RENDER_TIMEOUT: "not rendered within {0} s (its scripts kept loading)",
    Code.RENDERED_TOO_LARGE: "rendered page larger than {0} MB",
    Code.NO_ARTICLE: "no article found",
    Code.NEEDS_JAVASCRIPT: ("needs JavaScript: {0}; add render: browser to the {1}: section of"
                            " rules.yaml (or \"Render with browser\" in the rules editor or the"
                            f" Failures tab), which needs {INSTALL_PLAYWRIGHT} and Chromium"
                            f" (Debian: {INSTALL_CHROMIUM})"),
    Code.NEEDS_JAVASCRIPT_RENDERED: ("needs JavaScript: {0}; even rendered with a browser"
                                     " (render: browser for {1}): the article may wait for a"
                                     " login or a click"),
    Code.NOT_IN_SAVED_PAGE: ("not in the saved page (import --fetch-missing fetches what a save"
                             " lacks)"),
    Code.RULES_TOO_LARGE: "{0} bytes, more than the {1} KB a rules file may hold",
    Code.RULES_NOT_UTF8: "not UTF-8 text (byte {0}); save it as UTF-8",
    Code.RULES_CONTROL_CHARACTER: "holds the control character {0}, which a rules file may not",
    Code.RULES_NOT_YAML: "not valid YAML ({0})",
    Code.RULES_TOO_DEEP: "nested more than {0} levels deep (rules need 3)",
    Code.RULES_TOO_MANY_SECTIONS: "more than {0} sections (the most a rules file may hold)",
    Code.RULES_NOT_SECTIONS: "expected a mapping of sections (default: and domains)",
    Code.RULES_KEY_TWICE: ("written twice, on lines {0} and {1} (the later would silently win);"
                           " keep one"),
    Code.RULES_SECTION_TWICE: ("the same section as line {0} (the later would silently win);"
                               " keep one"),
    Code.RULES_SECTION_NAME: ("section name: expected default or a site's host name"
                              " (example.com), not {0}"),
    Code.RULES_SECTION_NOT_RULES: "expected a mapping of rules",
    Code.RULES_UNKNOWN_KEY: "unknown key (known: {0})",
    Code.RULE_NOT_TEXT: "expected a non-empty string",
    Code.RULE_CONTROL_CHARACTER: "expected text without control characters ({0} in {1})",
    Code.RULE_HEADER_VALUE: ("expected a header value: Latin-1 text without leading or trailing"
                             " spaces (percent-encode the rest), not {0}"),
    Code.RULE_NOT_LIST: "expected a list of strings",
    Code.RULE_LIST_TOO_LONG: "expected a list of at most {0} strings, not {1}",
    Code.RULE_WHOLE_NUMBER: "expected a whole number from {0} to {1}, not {2}",
    Code.RULE_ENCODING: ("expected an encoding browsers read (utf-8, gbk, gb18030, big5,"
                         " shift_jis, euc-kr…), not {0}"),
    Code.RULE_REGEX: "expected a regular expression, not {0} ({1})",
    Code.RULE_CHOICE: "expected {0}",
    Code.RULE_NOT_HEADERS: "expected a mapping of header names to strings",
    Code.RULE_TOO_MANY_HEADERS: "expected at most {0} headers, not {1}",
    Code.RULE_HEADER_NAME: "expected a header name of letters, digits and !#$%&'*+-.^_`|~, not {0}",
    Code.RULE_HEADER_TWICE: "expected each header once ({0} and {1} are one name)",
    Code.RULE_COOKIE_PAIRS: "expected name=value pairs separated by ';', got {0}",
    Code.RULE_COOKIES_IN_DEFAULT: ("cookies belong under a domain section, so that they go only"
                                   " to that site"),
    Code.BAD_SELECTOR: "rules selector {0} is not valid CSS ({1})",
    Code.NEW_RULES_FAILED: "new rules failed: {0}",
    Code.BOOK_UNREADABLE: "cannot read the book {0}: {1}",
    Code.BOOK_NOT_ZIP: "not an EPUB, whose files are a zip archive ({0})",
    Code.BOOK_FILE: "the file cannot be read ({0})",
    Code.BOOK_TOO_MANY_PARTS: "more than {0} files in it",
    Code.BOOK_PART_MISSING: "{0} is missing",
    Code.BOOK_PART_TOO_LARGE: "{0} is larger than {1} MB",
    Code.BOOK_PART_DAMAGED: "{0} is damaged ({1})",
    Code.BOOK_BAD_XML: "{0} is not well-formed XML ({1})",
    Code.BOOK_NO_PACKAGE: "{0} names no package document",
    Code.BOOK_EMPTY_SPINE: "{0} lists no chapter to read",
    Code.INTERNAL: "internal error: {0}: {1}",
    Code.LIST_PAGE: ("{0} links in repeated sibling blocks (median text {1} chars); the longest"
                     " text block has {2} chars"),
    Code.ARTICLE_PAGE: "one text block of {0} chars dominates ({1} links in a repeated list)",
    Code.ONE_PAGE: ("no repeated list of links (at least {0} items) and no long text block"
                    " ({1} chars): taken as one page"),
    Code.LINK_TEXT: "text {0} chars",
    Code.IN_MAIN_LIST: "in the main list ({0} items)",
    Code.DATE_IN_URL: "a date in the URL",
    Code.ID_IN_URL: "a numeric id in the URL",
    Code.SHORT_TEXT: "short text",
    Code.MATCHES_PATTERN: "matches article_link_pattern",
    Code.MISSES_PATTERN: "does not match article_link_pattern",
}


@dataclass(frozen=True)
class Failure:
    """One failure: its code and the parts that vary, in the order its message names them."""

    code: Code
    args: tuple[str | Failure, ...] = ()

    @property
    def text(self) -> str:
        """The English sentence (tasks.csv's ``error``), a wrapped failure said in its own."""
        return MESSAGES[self.code].format(*(str(a) for a in self.args))

    def __str__(self) -> str:
        return self.text


def failure(code: Code, *args: object) -> Failure:
    """``Failure(code, args)`` with each argument as its text (numbers formatted by the
    caller, since the sentence shows them as given), a wrapped Failure kept as it is."""
    return Failure(code, tuple(a if isinstance(a, Failure) else str(a) for a in args))


def _plain(arg: str | Failure) -> object:
    return arg if isinstance(arg, str) else {"code": arg.code.value,
                                              "args": [_plain(a) for a in arg.args]}


def dump_args(args: tuple[str | Failure, ...]) -> str:
    """The arguments as tasks.csv's ``error_args`` cell: a JSON list, "" when there are none."""
    return json.dumps([_plain(a) for a in args], ensure_ascii=False) if args else ""


def arity(code: Code) -> int:
    """How many arguments ``code``'s sentence takes."""
    fields = [f for _, f, _, _ in string.Formatter().parse(MESSAGES[code]) if f is not None]
    return max((int(f) + 1 for f in fields), default=0)


def _restored(value: object) -> str | Failure:
    if isinstance(value, dict):
        return _checked(Failure(Code(value["code"]), tuple(map(_restored, value["args"]))))
    return str(value)


def _checked(found: Failure) -> Failure:
    if len(found.args) != arity(found.code):
        raise ValueError(f"{found.code} takes {arity(found.code)} arguments")
    return found


def load_failure(code: str, args: str) -> Failure | None:
    """The failure a task's ``error_code`` and ``error_args`` cells hold, None when they hold
    none this version knows (a row from before codes, a cell a person edited): the caller
    then has only the ``error`` sentence."""
    try:
        values = json.loads(args) if args else []
        if not isinstance(values, list):
            return None
        found = _checked(Failure(Code(code), tuple(_restored(v) for v in values)))
    except (ValueError, KeyError, TypeError, IndexError, RecursionError):
        return None
    return found
