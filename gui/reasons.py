"""Failure reasons in the window's language.

The pipeline says a failure as a code and its arguments (``pipeline.records.failures``); tasks.csv
keeps the English sentence beside them. The window says it by its code: ``_BY_CODE`` holds a
template for each, %1, %2… standing for the arguments (a wrapped failure translated in
turn). ``tests/gui/test_reasons.py`` fails when a code has no template or no translation.

The patterns below it are for what has no code: rows written before codes (matched by their
English sentence) and the few messages that are no task's reason (an archive that did not
open). A sentence no pattern knows is shown as it is.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from pipeline.intake.saved_page import Refusal, Refused
from pipeline.records.failures import Code, Failure
from pipeline.records.task import Task

CONTEXT = "Reasons"


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate knows
    """Mark ``text`` for lupdate; it is translated when shown (``translate_reason``)."""
    return text


_CONNECTION_FAILED = QT_TRANSLATE_NOOP("Reasons", "connection failed: %1")
_NO_SITE = QT_TRANSLATE_NOOP("Reasons", "the link names no site")
_NOT_ARCHIVED = QT_TRANSLATE_NOOP("Reasons", "a %1 link: only http and https are archived")
_BAD_SITE = QT_TRANSLATE_NOOP("Reasons", "not a valid site name or port")
_TOO_LONG = QT_TRANSLATE_NOOP("Reasons", "the link is %1 characters long, too long to keep")
_NEVER = QT_TRANSLATE_NOOP("Reasons", "address %1 is never fetched (%2)")

# Each code's sentence; %n is the code's n-th argument (``pipeline.records.failures.MESSAGES`` says
# which). An HTTP status is said by ``_HTTP`` when it has a sentence of its own.
_BY_CODE: dict[Code, str] = {
    Code.CONNECT_TIMEOUT: QT_TRANSLATE_NOOP("Reasons", "no connection within %1 s"),
    Code.READ_TIMEOUT: QT_TRANSLATE_NOOP("Reasons", "no answer within %1 s"),
    Code.DEADLINE: QT_TRANSLATE_NOOP("Reasons", "not complete within %1 s"),
    Code.TOO_SLOW: QT_TRANSLATE_NOOP("Reasons", "too slow to finish within %1 s"),
    Code.BODY_STALLED: QT_TRANSLATE_NOOP("Reasons", "the page stalled: nothing came for %1 s"),
    Code.TLS: QT_TRANSLATE_NOOP("Reasons", "secure connection (TLS) failed: %1"),
    Code.CONNECTION_REFUSED: QT_TRANSLATE_NOOP("Reasons", "the site refused the connection"),
    Code.HOST_NOT_FOUND: QT_TRANSLATE_NOOP("Reasons", "no such site: its name does not resolve"),
    Code.DNS_TEMPORARY: QT_TRANSLATE_NOOP("Reasons",
                                          "the site's name could not be resolved just now"),
    Code.NETWORK_UNREACHABLE: QT_TRANSLATE_NOOP("Reasons", "the network cannot reach the site"),
    Code.CONNECTION_RESET: QT_TRANSLATE_NOOP("Reasons", "the site reset the connection"),
    Code.CONNECTION_FAILED: _CONNECTION_FAILED,
    Code.CONNECTION_BROKEN: QT_TRANSLATE_NOOP("Reasons",
                                              "the connection broke while reading: %2"),
    Code.REQUEST_FAILED: QT_TRANSLATE_NOOP("Reasons", "request failed: %1"),
    Code.HOST_UNREACHABLE: QT_TRANSLATE_NOOP("Reasons",
                                             "the site is unreachable (%1 failures since %2)"),
    Code.HTTP_STATUS: QT_TRANSLATE_NOOP("Reasons", "the site answered HTTP %1"),
    Code.HTTP_STATUS_UNNAMED: QT_TRANSLATE_NOOP("Reasons", "the site answered HTTP %1"),
    Code.NOT_HTML: QT_TRANSLATE_NOOP("Reasons", "not a web page but %1"),
    Code.NOT_HTML_UNTYPED: QT_TRANSLATE_NOOP("Reasons",
                                             "not a web page: no type given and no <html> in it"),
    Code.INTERSTITIAL: QT_TRANSLATE_NOOP("Reasons",
                                         "an anti-bot check page instead of the article"),
    Code.CUT_SHORT: QT_TRANSLATE_NOOP("Reasons", "the page was cut short: the connection closed"
                                                 " before its end"),
    Code.TRUNCATED: QT_TRANSLATE_NOOP("Reasons", "incomplete: %1 of %2 bytes arrived"),
    Code.CORRUPT: QT_TRANSLATE_NOOP("Reasons", "the compressed page is corrupt: %1"),
    Code.TOO_LARGE: QT_TRANSLATE_NOOP("Reasons", "larger than %2 MB"),
    Code.REDIRECT_TO: QT_TRANSLATE_NOOP("Reasons", "redirected to %1"),
    Code.REDIRECT_LOOP: QT_TRANSLATE_NOOP("Reasons", "the site redirects in a loop"),
    Code.TOO_MANY_REDIRECTS: QT_TRANSLATE_NOOP("Reasons", "more than %1 redirects"),
    Code.UNSUPPORTED_SCHEME: _NOT_ARCHIVED,
    Code.NO_HOST_IN_URL: _NO_SITE,
    Code.INVALID_URL: QT_TRANSLATE_NOOP("Reasons", "not a valid link: %1"),
    Code.NOT_A_LINK: QT_TRANSLATE_NOOP("Reasons", "not a link: %1"),
    Code.SCHEME_NOT_ARCHIVED: _NOT_ARCHIVED,
    Code.LINK_HAS_NO_HOST: _NO_SITE,
    Code.BAD_PORT: _BAD_SITE,
    Code.BAD_IPV6_HOST: _BAD_SITE,
    Code.BAD_HOST_NAME: QT_TRANSLATE_NOOP("Reasons", "not a valid site name: %1"),
    Code.CREDENTIALS: QT_TRANSLATE_NOOP("Reasons", "the link to %1 carries a user name or"
                                                   " password: credentials do not belong in a"
                                                   " task list"),
    Code.LINK_TOO_LONG: _TOO_LONG,
    Code.LINK_TOO_LONG_ENCODED: _TOO_LONG,
    Code.ADDRESS_NEVER: _NEVER,
    Code.ADDRESS_NEVER_WIDENABLE: _NEVER,
    Code.ADDRESS_LOCAL: QT_TRANSLATE_NOOP("Reasons", "address %1 is %2: fetched only for a link"
                                                     " you added on such an address"),
    Code.NEEDS_PLAYWRIGHT: QT_TRANSLATE_NOOP("Reasons", "rendering pages needs Playwright and"
                                                        " Chromium: %1 and %2"),
    Code.NO_CHROMIUM_AT: QT_TRANSLATE_NOOP("Reasons", "rendering pages needs Chromium, and"
                                                      " there is none at browser_path %1: %2"),
    Code.NO_CHROMIUM: QT_TRANSLATE_NOOP("Reasons", "rendering pages needs Chromium, and none"
                                                   " was found (%1): %2"),
    Code.CHROMIUM_DID_NOT_START: QT_TRANSLATE_NOOP("Reasons", "Chromium did not start: %1"),
    Code.NO_BROWSER_THIS_RUN: QT_TRANSLATE_NOOP("Reasons", "this run has no browser"),
    Code.RENDER_TIMEOUT: QT_TRANSLATE_NOOP("Reasons", "not rendered within %1 s (its scripts"
                                                      " kept loading)"),
    Code.RENDERED_TOO_LARGE: QT_TRANSLATE_NOOP("Reasons",
                                               "the rendered page is larger than %1 MB"),
    Code.NO_ARTICLE: QT_TRANSLATE_NOOP("Reasons", "no article found on the page"),
    Code.NEEDS_JAVASCRIPT: QT_TRANSLATE_NOOP("Reasons", "the page needs JavaScript (%1): Render"
                                                        " with browser in the Failures tab or"
                                                        " the rules editor"),
    Code.NEEDS_JAVASCRIPT_RENDERED: QT_TRANSLATE_NOOP("Reasons", "no article even rendered with"
                                                                 " the browser (%1): the"
                                                                 " article may wait for a login"
                                                                 " or a click"),
    Code.NOT_IN_SAVED_PAGE: QT_TRANSLATE_NOOP("Reasons", "not in the saved page"),
    Code.RULES_TOO_LARGE: QT_TRANSLATE_NOOP(
        "Reasons", "%1 bytes, more than the %2 KB a rules file may hold"),
    Code.RULES_NOT_UTF8: QT_TRANSLATE_NOOP("Reasons", "not UTF-8 text (byte %1); save it as UTF-8"),
    Code.RULES_CONTROL_CHARACTER: QT_TRANSLATE_NOOP(
        "Reasons", "holds the control character %1, which a rules file may not"),
    Code.RULES_NOT_YAML: QT_TRANSLATE_NOOP("Reasons", "not valid YAML (%1)"),
    Code.RULES_TOO_DEEP: QT_TRANSLATE_NOOP(
        "Reasons", "nested more than %1 levels deep (rules need 3)"),
    Code.RULES_TOO_MANY_SECTIONS: QT_TRANSLATE_NOOP(
        "Reasons", "more than %1 sections (the most a rules file may hold)"),
    Code.RULES_NOT_SECTIONS: QT_TRANSLATE_NOOP(
        "Reasons", "expected sections (default: and domains)"),
    Code.RULES_KEY_TWICE: QT_TRANSLATE_NOOP(
        "Reasons", "written twice, on lines %1 and %2 (the later would silently win); keep one"),
    Code.RULES_SECTION_TWICE: QT_TRANSLATE_NOOP(
        "Reasons", "the same section as line %1 (the later would silently win); keep one"),
    Code.RULES_SECTION_NAME: QT_TRANSLATE_NOOP(
        "Reasons", "section name: expected default or a site's host name (example.com), not %1"),
    Code.RULES_SECTION_NOT_RULES: QT_TRANSLATE_NOOP("Reasons", "expected keys with their values"),
    Code.RULES_UNKNOWN_KEY: QT_TRANSLATE_NOOP("Reasons", "unknown key (known: %1)"),
    Code.RULE_NOT_TEXT: QT_TRANSLATE_NOOP("Reasons", "expected a non-empty text"),
    Code.RULE_CONTROL_CHARACTER: QT_TRANSLATE_NOOP(
        "Reasons", "expected text without control characters (%1 in %2)"),
    Code.RULE_HEADER_VALUE: QT_TRANSLATE_NOOP(
        "Reasons", "expected a header value: Latin-1 text without spaces at either end"
                   " (percent-encode the rest), not %1"),
    Code.RULE_NOT_LIST: QT_TRANSLATE_NOOP("Reasons", "expected a list of texts"),
    Code.RULE_LIST_TOO_LONG: QT_TRANSLATE_NOOP(
        "Reasons", "expected a list of at most %1 texts, not %2"),
    Code.RULE_WHOLE_NUMBER: QT_TRANSLATE_NOOP(
        "Reasons", "expected a whole number from %1 to %2, not %3"),
    Code.RULE_ENCODING: QT_TRANSLATE_NOOP(
        "Reasons", "%1 is not an encoding Kuaibu can read (e.g. utf-8, gb18030, big5,"
                   " shift_jis)"),
    Code.RULE_REGEX: QT_TRANSLATE_NOOP("Reasons", "expected a regular expression, not %1 (%2)"),
    Code.RULE_CHOICE: QT_TRANSLATE_NOOP("Reasons", "expected %1"),
    Code.RULE_NOT_HEADERS: QT_TRANSLATE_NOOP(
        "Reasons", "expected header names, each with its value"),
    Code.RULE_TOO_MANY_HEADERS: QT_TRANSLATE_NOOP("Reasons", "expected at most %1 headers, not %2"),
    Code.RULE_HEADER_NAME: QT_TRANSLATE_NOOP(
        "Reasons", "expected a header name of letters, digits and !#$%&'*+-.^_`|~, not %1"),
    Code.RULE_HEADER_TWICE: QT_TRANSLATE_NOOP(
        "Reasons", "expected each header once (%1 and %2 are one name)"),
    Code.RULE_COOKIE_PAIRS: QT_TRANSLATE_NOOP(
        "Reasons", "expected name=value pairs separated by ';', not %1"),
    Code.RULE_COOKIES_IN_DEFAULT: QT_TRANSLATE_NOOP(
        "Reasons", "cookies belong under a domain section, so that they go only to that site"),
    Code.BAD_SELECTOR: QT_TRANSLATE_NOOP("Reasons", "%1 is not a valid CSS selector (%2)"),
    Code.NEW_RULES_FAILED: QT_TRANSLATE_NOOP("Reasons", "new rules failed, the article before"
                                                        " them is kept: %1"),
    Code.BOOK_UNREADABLE: QT_TRANSLATE_NOOP("Reasons", "cannot read the book %1: %2"),
    Code.BOOK_NOT_ZIP: QT_TRANSLATE_NOOP("Reasons",
                                         "not an EPUB, whose files are a zip archive (%1)"),
    Code.BOOK_FILE: QT_TRANSLATE_NOOP("Reasons", "the file cannot be read (%1)"),
    Code.BOOK_TOO_MANY_PARTS: QT_TRANSLATE_NOOP("Reasons", "more than %1 files in it"),
    Code.BOOK_PART_MISSING: QT_TRANSLATE_NOOP("Reasons", "%1 is missing"),
    Code.BOOK_PART_TOO_LARGE: QT_TRANSLATE_NOOP("Reasons", "%1 is larger than %2 MB"),
    Code.BOOK_PART_DAMAGED: QT_TRANSLATE_NOOP("Reasons", "%1 is damaged (%2)"),
    Code.BOOK_BAD_XML: QT_TRANSLATE_NOOP("Reasons", "%1 is not well-formed XML (%2)"),
    Code.BOOK_NO_PACKAGE: QT_TRANSLATE_NOOP("Reasons", "%1 names no package document"),
    Code.BOOK_EMPTY_SPINE: QT_TRANSLATE_NOOP("Reasons", "%1 lists no chapter to read"),
    Code.INTERNAL: QT_TRANSLATE_NOOP("Reasons", "internal error: %1: %2"),
    Code.LIST_PAGE: QT_TRANSLATE_NOOP(
        "Reasons", "%1 links in repeated blocks (median text %2 characters); the longest text"
                   " block has %3 characters"),
    Code.ARTICLE_PAGE: QT_TRANSLATE_NOOP(
        "Reasons", "one text block of %1 characters dominates (%2 links in a repeated list)"),
    Code.ONE_PAGE: QT_TRANSLATE_NOOP(
        "Reasons", "no repeated list of links (at least %1 items) and no long text block (%2"
                   " characters): taken as one page"),
    Code.LINK_TEXT: QT_TRANSLATE_NOOP(
        "Reasons", "text %1 characters"),
    Code.IN_MAIN_LIST: QT_TRANSLATE_NOOP(
        "Reasons", "in the main list (%1 items)"),
    Code.DATE_IN_URL: QT_TRANSLATE_NOOP(
        "Reasons", "a date in the link"),
    Code.ID_IN_URL: QT_TRANSLATE_NOOP(
        "Reasons", "a numeric id in the link"),
    Code.SHORT_TEXT: QT_TRANSLATE_NOOP(
        "Reasons", "short text"),
    Code.MATCHES_PATTERN: QT_TRANSLATE_NOOP(
        "Reasons", "matches article_link_pattern"),
    Code.MISSES_PATTERN: QT_TRANSLATE_NOOP(
        "Reasons", "does not match article_link_pattern"),
}
# HTTP statuses a person acts on differently, said as such (else by the status class).
_HTTP: dict[str, str] = {
    "401": QT_TRANSLATE_NOOP("Reasons", "the page needs a login (HTTP 401)"),
    "403": QT_TRANSLATE_NOOP("Reasons", "the site refused access (HTTP 403)"),
    "404": QT_TRANSLATE_NOOP("Reasons", "the page does not exist (HTTP 404)"),
    "410": QT_TRANSLATE_NOOP("Reasons", "the page was removed (HTTP 410)"),
    "429": QT_TRANSLATE_NOOP("Reasons", "too many requests to the site (HTTP 429)"),
}
_HTTP_5XX = QT_TRANSLATE_NOOP("Reasons", "the site's server failed (HTTP %1)")
_PLACE = re.compile(r"%(\d+)")


def failure_template(failure: Failure) -> str:
    """The untranslated sentence ``failure`` is said by in the window."""
    if failure.code in (Code.HTTP_STATUS, Code.HTTP_STATUS_UNNAMED):
        status = str(failure.args[0])
        if status in _HTTP:
            return _HTTP[status]
        if status.startswith("5"):
            return _HTTP_5XX
    return _BY_CODE[failure.code]


def translate_failure(failure: Failure) -> str:
    """``failure`` in the window's language, each argument in place of its %n."""
    def said(m: re.Match[str]) -> str:
        arg = failure.args[int(m.group(1)) - 1]
        return translate_failure(arg) if isinstance(arg, Failure) else arg

    return _PLACE.sub(said, QCoreApplication.translate(CONTEXT, failure_template(failure)))


# Why a file given to import was not imported, by its code (%1: the detail, when there is one)
_BY_REFUSAL: dict[Refusal, str] = {
    Refusal.UNREADABLE: QT_TRANSLATE_NOOP("Reasons", "cannot be read"),
    Refusal.UNKNOWN_FORMAT: QT_TRANSLATE_NOOP("Reasons",
                                              "not a saved page or web archive Kuaibu reads"),
    Refusal.SYMLINK: QT_TRANSLATE_NOOP("Reasons", "a symbolic link: never followed"),
    Refusal.TOO_LARGE: QT_TRANSLATE_NOOP("Reasons", "larger than the size limit"),
    Refusal.CLIMBS_OUT: QT_TRANSLATE_NOOP("Reasons",
                                          "a reference leads out of the saved page's folder"),
    Refusal.BROKEN_MHTML: QT_TRANSLATE_NOOP("Reasons",
                                            "a broken MHTML file: its MIME parts do not parse"),
    Refusal.NO_HTML: QT_TRANSLATE_NOOP("Reasons", "holds no HTML page"),
    Refusal.NOT_HTML: QT_TRANSLATE_NOOP("Reasons", "not an HTML page"),
    Refusal.HTTP_ERROR: QT_TRANSLATE_NOOP("Reasons", "an HTTP error response"),
    Refusal.REVISIT: QT_TRANSLATE_NOOP("Reasons", "a revisit record: no page of its own, the"
                                               " same as an earlier capture"),
    Refusal.TRUNCATED: QT_TRANSLATE_NOOP("Reasons", "cut short"),
    Refusal.DIGEST_MISMATCH: QT_TRANSLATE_NOOP("Reasons", "its payload digest does not match"),
    Refusal.COMPRESSION_BOMB: QT_TRANSLATE_NOOP("Reasons", "inflates past every sane size"),
    Refusal.DAMAGED: QT_TRANSLATE_NOOP("Reasons", "damaged: it does not parse"),
}


def translate_refusal(refused: Refused) -> str:
    """Why a file (or a record in one) was not imported, in the window's language, with
    the detail a person can check."""
    said = QCoreApplication.translate(CONTEXT, _BY_REFUSAL[refused.reason])
    return f"{said} ({refused.detail})" if refused.detail else said


def task_reason(task: Task) -> str:
    """Why ``task`` failed (its ``error``) in the window's language: by its code, else (a row
    written before codes) by the sentence's pattern."""
    found = task.failure
    return translate_failure(found) if found is not None else translate_reason(task.error)


def review_reason(task: Task) -> str:
    """Why a cleaned article is flagged "needs review", short enough for the table's Why
    column beside the failures' kinds: the extractor was unsure of it."""
    confidence = task.confidence if task.confidence is not None else 0.0
    return QCoreApplication.translate("Reasons", "unsure extraction (%1)").replace(
        "%1", f"{confidence:.2f}")


# (pattern, sentence): %1, %2… stand for the pattern's groups, each translated again when it
# is itself a reason (a redirect's problem, the rules' failure). Most specific first.
_REASONS: tuple[tuple[str, str], ...] = (
    (r"new rules failed: (.*)",
     QT_TRANSLATE_NOOP("Reasons", "new rules failed, the article before them is kept: %1")),
    (r"internal error: (.*)", QT_TRANSLATE_NOOP("Reasons", "internal error: %1")),
    (r"no article found", QT_TRANSLATE_NOOP("Reasons", "no article found on the page")),
    (r"needs JavaScript: (.*?); even rendered with a browser.*",
     QT_TRANSLATE_NOOP("Reasons", "no article even rendered with the browser (%1): the article"
                                  " may wait for a login or a click")),
    (r"needs JavaScript: (.*?); add render: browser.*",
     QT_TRANSLATE_NOOP("Reasons", "the page needs JavaScript (%1): Render with browser in the"
                                  " Failures tab or the rules editor")),
    (r"rendering pages needs (.*)", QT_TRANSLATE_NOOP("Reasons", "rendering pages needs %1")),
    (r"Chromium did not start: (.*)", QT_TRANSLATE_NOOP("Reasons", "Chromium did not start: %1")),
    (r"not rendered within (\S+) s.*",
     QT_TRANSLATE_NOOP("Reasons", "not rendered within %1 s (its scripts kept loading)")),
    (r"rendered page larger than (\S+) MB",
     QT_TRANSLATE_NOOP("Reasons", "the rendered page is larger than %1 MB")),
    (r"interstitial page",
     QT_TRANSLATE_NOOP("Reasons", "an anti-bot check page instead of the article")),
    (r"HTTP 404( .*)?", QT_TRANSLATE_NOOP("Reasons", "the page does not exist (HTTP 404)")),
    (r"HTTP 410( .*)?", QT_TRANSLATE_NOOP("Reasons", "the page was removed (HTTP 410)")),
    (r"HTTP 403( .*)?", QT_TRANSLATE_NOOP("Reasons", "the site refused access (HTTP 403)")),
    (r"HTTP 401( .*)?", QT_TRANSLATE_NOOP("Reasons", "the page needs a login (HTTP 401)")),
    (r"HTTP 429( .*)?", QT_TRANSLATE_NOOP("Reasons", "too many requests to the site (HTTP 429)")),
    (r"HTTP (5\d\d)( .*)?",
     QT_TRANSLATE_NOOP("Reasons", "the site's server failed (HTTP %1)")),
    (r"HTTP (\d{3})( .*)?", QT_TRANSLATE_NOOP("Reasons", "the site answered HTTP %1")),
    (r"not an HTML page: no Content-Type and no <html>",
     QT_TRANSLATE_NOOP("Reasons", "not a web page: no type given and no <html> in it")),
    (r"not an HTML page: (.*)", QT_TRANSLATE_NOOP("Reasons", "not a web page but %1")),
    (r"page cut short: .*",
     QT_TRANSLATE_NOOP("Reasons", "the page was cut short: the connection closed before its end")),
    (r"truncated body: (\d+) of (\d+) bytes",
     QT_TRANSLATE_NOOP("Reasons", "incomplete: %1 of %2 bytes arrived")),
    (r"the compressed body is corrupt: (.*)",
     QT_TRANSLATE_NOOP("Reasons", "the compressed page is corrupt: %1")),
    (r"(page|image) larger than (\S+) MB",
     QT_TRANSLATE_NOOP("Reasons", "larger than %2 MB")),
    (r"connection failed: \[Errno 111\] .*",
     QT_TRANSLATE_NOOP("Reasons", "the site refused the connection")),
    (r"connection failed: .*(Name or service not known|nodename nor servname|No address"
     r" associated|getaddrinfo failed|Failed to resolve).*",
     QT_TRANSLATE_NOOP("Reasons", "no such site: its name does not resolve")),
    (r"connection failed: .*Temporary failure in name resolution.*",
     QT_TRANSLATE_NOOP("Reasons", "the site's name could not be resolved just now")),
    (r"connection failed: .*(No route to host|Network is unreachable).*",
     QT_TRANSLATE_NOOP("Reasons", "the network cannot reach the site")),
    (r"connection failed: .*Connection reset.*",
     QT_TRANSLATE_NOOP("Reasons", "the site reset the connection")),
    (r"connection failed: (.*)", QT_TRANSLATE_NOOP("Reasons", "connection failed: %1")),
    (r"connection broken while reading the (page|image): (.*)",
     QT_TRANSLATE_NOOP("Reasons", "the connection broke while reading: %2")),
    (r"connection timed out after (\S+) s",
     QT_TRANSLATE_NOOP("Reasons", "no connection within %1 s")),
    (r"no answer within (\S+) s", QT_TRANSLATE_NOOP("Reasons", "no answer within %1 s")),
    (r"body stalled: no data for (\S+) s",
     QT_TRANSLATE_NOOP("Reasons", "the page stalled: nothing came for %1 s")),
    (r"no complete answer within (\S+) s",
     QT_TRANSLATE_NOOP("Reasons", "not complete within %1 s")),
    (r"too slow: .* past the (\S+) s deadline",
     QT_TRANSLATE_NOOP("Reasons", "too slow to finish within %1 s")),
    (r"host unreachable \((\d+) failures since (\S+)\)",
     QT_TRANSLATE_NOOP("Reasons", "the site is unreachable (%1 failures since %2)")),
    (r"TLS error: (.*)", QT_TRANSLATE_NOOP("Reasons", "secure connection (TLS) failed: %1")),
    (r"request failed: (.*)", QT_TRANSLATE_NOOP("Reasons", "request failed: %1")),
    (r"invalid URL: (.*)", QT_TRANSLATE_NOOP("Reasons", "not a valid link: %1")),
    (r"redirect loop", QT_TRANSLATE_NOOP("Reasons", "the site redirects in a loop")),
    (r"too many redirects \(more than (\d+)\)",
     QT_TRANSLATE_NOOP("Reasons", "more than %1 redirects")),
    (r"redirect to (.*)", QT_TRANSLATE_NOOP("Reasons", "redirected to %1")),
    (r"unsupported URL scheme: (\S+) \(only http and https\)",
     QT_TRANSLATE_NOOP("Reasons", "a %1 link: only http and https are archived")),
    (r"only http and https links are archived, not (\S+):",
     QT_TRANSLATE_NOOP("Reasons", "a %1 link: only http and https are archived")),
    (r"invalid URL: no host in .*|link has no host: .*",
     QT_TRANSLATE_NOOP("Reasons", "the link names no site")),
    (r"not a link: (.*)", QT_TRANSLATE_NOOP("Reasons", "not a link: %1")),
    (r"link to (\S+) carries a user name or password.*",
     QT_TRANSLATE_NOOP("Reasons", "the link to %1 carries a user name or password:"
                                  " credentials do not belong in a task list")),
    (r"bad host name in .*: (.*)", QT_TRANSLATE_NOOP("Reasons", "not a valid site name: %1")),
    (r"bad (?:international host name|IPv6 host|port) .*",
     QT_TRANSLATE_NOOP("Reasons", "not a valid site name or port")),
    (r"link is ([\d,]+) characters long.*",
     QT_TRANSLATE_NOOP("Reasons", "the link is %1 characters long, too long to keep")),
    (r"address (\S+).* is (link-local|unspecified|multicast|reserved): never fetched.*",
     QT_TRANSLATE_NOOP("Reasons", "address %1 is never fetched (%2)")),
    (r"address (\S+).* is (private|loopback): .*",
     QT_TRANSLATE_NOOP("Reasons", "address %1 is %2: fetched only for a link you added on"
                                  " such an address")),
    (r"rules selector '(.*)' is not valid CSS.*",
     QT_TRANSLATE_NOOP("Reasons", "the rules' selector %1 is not valid CSS")),
    # not a task's reason: why an export wrote nothing (Workspace.export_warc's ExportRefused)
    (r"no fetched pages in that category to export in (.*)",
     QT_TRANSLATE_NOOP("Reasons", "no fetched pages in that category to export in %1")),
    (r"no fetched pages to export in (.*)",
     QT_TRANSLATE_NOOP("Reasons", "no fetched pages to export in %1")),
    (r"cannot write (.*): (.*)", QT_TRANSLATE_NOOP("Reasons", "cannot write %1: %2")),
    (r"no folder (.*) to write (.*) in",
     QT_TRANSLATE_NOOP("Reasons", "no folder %1 to write %2 in")),
    (r"(.*) is a folder; name the file to write",
     QT_TRANSLATE_NOOP("Reasons", "%1 is a folder; name the file to write")),
    (r"cannot read (.*): (.*)", QT_TRANSLATE_NOOP("Reasons", "cannot read %1: %2")),
    # not a task's reason: why an archive did not open (Workspace.open's TaskListTruncated)
    (r"(.*) lacks ([\d,]+) of the ([\d,]+) tasks whose pages 00_raw holds; .*",
     QT_TRANSLATE_NOOP("Reasons", "%1 lacks %2 of the %3 archived tasks: opening it would"
                                  " lose them. Run 'python main.py recover' to rebuild the"
                                  " list from the archive (nothing was changed)")),
)
_COMPILED = tuple((re.compile(pattern, re.DOTALL), sentence) for pattern, sentence in _REASONS)


def reason_pattern(reason: str) -> str | None:
    """The sentence a reason is translated by, None when no pattern knows it."""
    return next((sentence for pattern, sentence in _COMPILED if pattern.fullmatch(reason)),
                None)


def translate_reason(reason: str) -> str:
    """``reason`` in the window's language (as it is when no pattern knows it)."""
    for pattern, sentence in _COMPILED:
        m = pattern.fullmatch(reason)
        if m is None:
            continue
        text = QCoreApplication.translate(CONTEXT, sentence)
        for n, part in enumerate(m.groups(), start=1):
            text = text.replace(f"%{n}", translate_reason(part) if part else "")
        return text
    return reason
