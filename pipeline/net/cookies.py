"""Cookies the user gives us: a per-domain string in rules.yaml, or a Netscape cookies.txt.

A cookie goes only to its own domain. Matching follows RFC 6265 §5.1.3 (domain-match) and
§5.1.4 (path-match) rather than http.cookiejar's older Netscape rules, which let a host-only
cookie reach subdomains and match IP addresses by suffix. Cookies that servers set during a
run are left to the requests session as usual; these are the ones the user configured.
Files are read as exporters really write them, and a value that is not printable ASCII goes
out percent-encoded, so that no cookie can make its site's requests fail.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

from pipeline.records.errors import CookieFileError, RulesError
from pipeline.records.failures import Code, failure
from pipeline.records.settings import Settings
from pipeline.rules.model import Rules
from pipeline.web.urls import host_in_domain


@dataclass(frozen=True)
class Cookie:
    """One configured cookie. ``host_only`` cookies go to exactly ``domain``, no subdomain."""

    name: str
    value: str
    domain: str
    host_only: bool = False
    path: str = "/"
    secure: bool = False
    expires: int | None = None  # Unix time; None for a session cookie


def path_matches(request_path: str, cookie_path: str) -> bool:
    """RFC 6265 §5.1.4: the cookie path is the request path or a directory prefix of it."""
    if request_path == cookie_path:
        return True
    if not request_path.startswith(cookie_path):
        return False
    return cookie_path.endswith("/") or request_path[len(cookie_path)] == "/"


@dataclass(frozen=True)
class CookieStore:
    """The configured cookies of one run; ``header_for`` picks those a URL may receive.

    ``warnings`` name the cookies-file lines that were left out, each with its number and
    why, for the run to show once at its start: one bad line must not cost the other cookies.
    """

    cookies: tuple[Cookie, ...] = ()
    warnings: tuple[str, ...] = ()

    def header_for(self, url: str, now: float | None = None) -> str | None:
        """The Cookie header value for ``url``, or None when no configured cookie applies."""
        parts = urlsplit(url)
        host = parts.hostname or ""
        path = parts.path or "/"
        now = time.time() if now is None else now
        chosen = [
            c
            for c in self.cookies
            if (host == c.domain if c.host_only else host_in_domain(host, c.domain))
            and path_matches(path, c.path)
            and (not c.secure or parts.scheme == "https")
            and (c.expires is None or c.expires > now)
        ]
        if not chosen:
            return None
        # RFC 6265 §5.4: longer paths first.
        chosen.sort(key=lambda c: len(c.path), reverse=True)
        return "; ".join(_on_the_wire(c) for c in chosen)


# Printable ASCII goes out as the user wrote it (a value already percent-encoded stays so).
_WIRE_SAFE = "".join(map(chr, range(0x20, 0x7F)))


def _on_the_wire(cookie: Cookie) -> str:
    """``name=value`` as it can be sent. http.client writes headers as Latin-1, so a raw
    ``nick=张三`` failed every request to its site; percent-encoded UTF-8 is what servers that
    decode cookie values expect. A nameless cookie is its bare value, as browsers send it."""
    value = quote(cookie.value, safe=_WIRE_SAFE)
    return f"{quote(cookie.name, safe=_WIRE_SAFE)}={value}" if cookie.name else value


def parse_cookie_string(text: str, domain: str) -> list[Cookie]:
    """``name=value; name2=value2`` as rules.yaml gives it, for ``domain`` and its subdomains."""
    cookies = []
    for piece in text.split(";"):
        piece = piece.strip()
        if not piece:
            continue
        name, sep, value = piece.partition("=")
        if not sep or not name.strip():
            raise RulesError(
                "rules.yaml", None, f"{domain}.cookies",
                failure(Code.RULE_COOKIE_PAIRS, repr(piece)),
            )
        cookies.append(Cookie(name.strip(), value.strip(), domain.lower()))
    return cookies


_HTTP_ONLY = "#HttpOnly_"  # curl's and Python's mark of an HttpOnly cookie, not a comment
_FLAGS = {"TRUE": True, "FALSE": False}
_UNIX_TIME = re.compile(r"-?\d+(\.\d*)?")


def parse_cookies_txt(text: str, source: str = "cookies.txt") -> tuple[list[Cookie], list[str]]:
    """The Netscape cookies.txt format, as browsers' export add-ons, curl and Python write it.

    Seven tab-separated fields: domain, include-subdomains, path, secure, expiry, name, value.
    Returns the cookies and one warning per line that cannot be read, so that such a line
    costs only its own cookie. Raises CookieFileError when no line can be read:
    that is not a cookies.txt (a JSON export, say), and a run with it would be logged out.
    """
    cookies: list[Cookie] = []
    problems: list[tuple[int, str]] = []
    # Not splitlines(): it also splits at U+2028 and friends, which a raw UTF-8 value may hold.
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = line.removesuffix("\r")
        if line.startswith(_HTTP_ONLY):
            line = line[len(_HTTP_ONLY):]
        elif not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            cookies.append(_cookie_from_line(line))
        except ValueError as e:
            problems.append((number, str(e)))
    if problems and not cookies:
        number, reason = problems[0]
        raise CookieFileError(f"{source}: no cookie in it could be read (line {number}: {reason})")
    return cookies, [f"{source}, line {n}: {reason}; that cookie is left out"
                     for n, reason in problems]


def _cookie_from_line(line: str) -> Cookie:
    """One cookie line; ValueError with what a person needs to fix it."""
    fields = line.split("\t")
    if len(fields) != 7:
        raise ValueError(
            "expected 7 tab-separated fields "
            f"(domain, subdomains, path, secure, expiry, name, value), got {len(fields)}"
        )
    domain, subdomains, path, secure, expiry, name, value = fields
    domain = domain.strip().lower()
    if not domain.strip("."):
        raise ValueError("a cookie needs a domain")
    if not name and not value:
        raise ValueError("a cookie needs a name or a value")
    return Cookie(
        name=name,
        value=value,
        domain=domain.lstrip("."),
        # A leading dot is a domain cookie to browsers whatever the flag says (EditThisCookie
        # writes ".example.com FALSE" for cookies that must reach www.example.com).
        host_only=not (_flag(subdomains, "subdomain") or domain.startswith(".")),
        path=path or "/",
        secure=_flag(secure, "secure"),
        expires=_expiry(expiry),
    )


def _flag(field: str, what: str) -> bool:
    try:
        return _FLAGS[field.strip().upper()]
    except KeyError:
        raise ValueError(f"the {what} field must be TRUE or FALSE, got {field!r}") from None


def _expiry(field: str) -> int | None:
    """Unix time, or None for a session cookie: Python's MozillaCookieJar writes an empty
    field and most exporters 0; Firefox's cookies.txt add-on and EditThisCookie write
    fractions (``1798703851.742``)."""
    field = field.strip()
    if not field:
        return None
    if not _UNIX_TIME.fullmatch(field):
        raise ValueError(f"the expiry must be a Unix time, got {field!r}")
    return int(float(field)) or None


def load_cookies(settings: Settings, rules: Rules) -> CookieStore:
    """Every configured cookie of a run: rules.yaml sections first, then settings.cookies_file."""
    if rules.default.cookies:
        raise RulesError(
            "rules.yaml", None, "default.cookies",
            failure(Code.RULE_COOKIES_IN_DEFAULT),
        )
    cookies: list[Cookie] = []
    for domain, section in rules.domains.items():
        if section.get("cookies"):
            cookies.extend(parse_cookie_string(section["cookies"], domain))
    warnings: list[str] = []
    if settings.cookies_file:
        path = Path(settings.cookies_file)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise CookieFileError(f"{path}: cannot read the cookies file ({e})") from e
        from_file, warnings = parse_cookies_txt(text, str(path))
        cookies.extend(from_file)
    return CookieStore(tuple(cookies), tuple(warnings))
