"""Cookies the user gives us: a per-domain string in rules.yaml, or a Netscape cookies.txt.

A cookie goes only to its own domain. Matching follows RFC 6265 §5.1.3 (domain-match) and
§5.1.4 (path-match) rather than http.cookiejar's older Netscape rules, which let a host-only
cookie reach subdomains and match IP addresses by suffix. Cookies that servers set during a
run are left to the requests session as usual; these are the ones the user configured.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from pipeline.errors import CookieFileError, RulesError
from pipeline.rules import Rules
from pipeline.settings import Settings
from pipeline.urls import host_in_domain


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
    """The configured cookies of one run; ``header_for`` picks those a URL may receive."""

    cookies: tuple[Cookie, ...] = ()

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
        return "; ".join(f"{c.name}={c.value}" for c in chosen)


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
                f"expected name=value pairs separated by ';', got {piece!r}",
            )
        cookies.append(Cookie(name.strip(), value.strip(), domain.lower()))
    return cookies


def parse_cookies_txt(text: str, source: str = "cookies.txt") -> list[Cookie]:
    """The Netscape cookies.txt format browsers' export add-ons and curl write.

    Seven tab-separated fields: domain, include-subdomains, path, secure, expiry, name, value.
    Lines starting with ``#`` are comments, except curl's ``#HttpOnly_`` prefix.
    """
    cookies = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("#HttpOnly_"):
            line = line[len("#HttpOnly_"):]
        elif not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 7:
            raise CookieFileError(
                f"{source}, line {number}: expected 7 tab-separated fields "
                f"(domain, subdomains, path, secure, expiry, name, value), got {len(fields)}"
            )
        domain, subdomains, path, secure, expiry, name, value = fields
        flags = {"TRUE": True, "FALSE": False}
        if subdomains.upper() not in flags or secure.upper() not in flags:
            raise CookieFileError(
                f"{source}, line {number}: the subdomain and secure fields must be TRUE or FALSE"
            )
        try:
            expires = int(expiry)
        except ValueError:
            raise CookieFileError(
                f"{source}, line {number}: the expiry must be a Unix time, got {expiry!r}"
            ) from None
        if not domain.strip(".") or not name:
            raise CookieFileError(f"{source}, line {number}: a cookie needs a domain and a name")
        cookies.append(
            Cookie(
                name=name,
                value=value,
                domain=domain.lower().lstrip("."),
                host_only=not flags[subdomains.upper()],
                path=path or "/",
                secure=flags[secure.upper()],
                expires=expires or None,  # 0 marks a session cookie
            )
        )
    return cookies


def load_cookies(settings: Settings, rules: Rules) -> CookieStore:
    """Every configured cookie of a run: rules.yaml sections first, then settings.cookies_file."""
    if rules.default.cookies:
        raise RulesError(
            "rules.yaml", None, "default.cookies",
            "cookies belong under a domain section, so that they go only to that site",
        )
    cookies: list[Cookie] = []
    for domain, section in rules.domains.items():
        if section.get("cookies"):
            cookies.extend(parse_cookie_string(section["cookies"], domain))
    if settings.cookies_file:
        path = Path(settings.cookies_file)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise CookieFileError(f"{path}: cannot read the cookies file ({e})") from e
        cookies.extend(parse_cookies_txt(text, str(path)))
    return CookieStore(tuple(cookies))
