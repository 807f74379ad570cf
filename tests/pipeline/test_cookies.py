"""Configured cookies reach their own domain and nothing else (RFC 6265 matching)."""

from __future__ import annotations

import http.cookiejar
from pathlib import Path
from urllib.parse import unquote

import pytest
import requests

from pipeline.net.cookies import (
    Cookie,
    CookieStore,
    load_cookies,
    parse_cookie_string,
    parse_cookies_txt,
    path_matches,
)
from pipeline.net.fetch import fetch_page
from pipeline.net.fetcher import Fetcher
from pipeline.records.errors import CookieFileError, RulesError
from pipeline.records.settings import Settings
from pipeline.rules.model import Rules, parse_rules
from pipeline.web.urls import host_in_domain
from tests.sites.faults import fault_servers

COOKIES_TXT = """\
# Netscape HTTP Cookie File
# exported by a browser add-on

.example.com\tTRUE\t/\tFALSE\t0\tsid\tabc123
news.example.cn\tFALSE\t/\tFALSE\t0\thost_only\t1
#HttpOnly_.example.com\tTRUE\t/\tTRUE\t0\tsecure_token\txyz
.example.com\tTRUE\t/members\tFALSE\t0\tmember\tyes
.example.com\tTRUE\t/\tFALSE\t1000\told\tgone
"""


@pytest.mark.parametrize(
    ("host", "domain", "expected"),
    [
        ("example.com", "example.com", True),
        ("www.example.com", "example.com", True),
        ("a.b.example.com", ".example.com", True),
        ("WWW.Example.COM", "example.com", True),
        ("badexample.com", "example.com", False),
        ("example.com", "www.example.com", False),
        ("example.com.evil.cn", "example.com", False),
        ("127.0.0.1", "127.0.0.1", True),
        ("127.0.0.1", "0.0.1", False),  # IP addresses match only themselves
    ],
)
def test_domain_matching_follows_rfc_6265(host, domain, expected):
    assert host_in_domain(host, domain) is expected


@pytest.mark.parametrize(
    ("path", "cookie_path", "expected"),
    [("/", "/", True), ("/members/a", "/members", True), ("/members", "/members", True),
     ("/membership", "/members", False), ("/members/a", "/members/", True),
     ("/", "/members", False)],
)
def test_path_matching_follows_rfc_6265(path, cookie_path, expected):
    assert path_matches(path, cookie_path) is expected


def test_cookies_txt_is_read_with_its_flags():
    cookies, warnings = parse_cookies_txt(COOKIES_TXT)
    assert warnings == []
    assert [c.name for c in cookies] == ["sid", "host_only", "secure_token", "member", "old"]
    assert cookies[0] == Cookie("sid", "abc123", "example.com")
    assert cookies[1].host_only and cookies[2].secure and cookies[4].expires == 1000


def test_each_cookie_goes_only_where_it_belongs():
    store = CookieStore(tuple(parse_cookies_txt(COOKIES_TXT)[0]))
    now = 2_000_000_000
    assert store.header_for("http://www.example.com/a", now) == "sid=abc123"
    assert store.header_for("https://example.com/members/x", now) == (
        "member=yes; sid=abc123; secure_token=xyz"  # longest path first
    )
    assert store.header_for("http://news.example.cn/", now) == "host_only=1"
    assert store.header_for("http://m.news.example.cn/", now) is None  # host-only
    assert store.header_for("http://badexample.com/", now) is None
    assert store.header_for("http://example.com/", 999) == "sid=abc123; old=gone"  # not expired


def test_rules_cookie_strings_are_scoped_to_their_section(fast_settings):
    rules = parse_rules("example.com:\n  cookies: 'sid=abc; theme=dark'\n")
    store = load_cookies(fast_settings, rules)
    assert store.header_for("http://www.example.com/a") == "sid=abc; theme=dark"
    assert store.header_for("http://example.org/a") is None


def test_a_cookie_string_without_name_value_pairs_is_a_rules_error():
    with pytest.raises(RulesError, match="example.com.cookies"):
        parse_cookie_string("sid=abc; just-a-word", "example.com")


def test_cookies_in_the_default_section_are_refused(fast_settings):
    rules = parse_rules("default:\n  cookies: 'sid=abc'\n")
    with pytest.raises(RulesError, match="default.cookies"):
        load_cookies(fast_settings, rules)


def test_a_missing_cookies_file_is_a_clear_error(fast_settings, tmp_path):
    settings = fast_settings.with_overrides(cookies_file=str(tmp_path / "nope.txt"))
    with pytest.raises(CookieFileError, match="nope.txt: cannot read the cookies file"):
        load_cookies(settings, Rules())


def test_configured_cookies_reach_their_host_and_not_a_redirect_target(
    fetch_session, fast_settings, tmp_path
):
    """127.0.0.1 gets its rules.yaml cookie and its cookies.txt cookie; a redirect to
    127.0.0.2 carries neither."""
    jar = tmp_path / "cookies.txt"
    jar.write_text("127.0.0.1\tFALSE\t/\tFALSE\t0\tfrom_file\t1\n", encoding="utf-8")
    settings = fast_settings.with_overrides(cookies_file=str(jar))
    rules = parse_rules("'127.0.0.1':\n  cookies: 'sid=abc; lang=zh'\n")
    store = load_cookies(settings, rules)
    with fault_servers("127.0.0.1", "127.0.0.2") as (home, other):
        target = other.url("/headers")
        fetch_page(Fetcher(fetch_session, settings, Rules(), cookies=store),
                   home.url(f"/redirect?to={target}"))
    assert home.hits[0].headers["Cookie"] == "sid=abc; lang=zh; from_file=1"
    assert "Cookie" not in other.hits[0].headers


# -- cookies.txt as exporters really write it ---------------------------------------------------


def _sent_to(url: str, store: CookieStore, session: requests.Session, settings: Settings) -> str:
    """The Cookie header a real request for ``url`` carried. A local server is the proxy for
    every host, so ``www.example.com`` is asked for without DNS and the server sees what
    would have gone to it."""
    session.trust_env = False  # no HTTP_PROXY or NO_PROXY from the environment
    with fault_servers("127.0.0.1") as (proxy,):
        session.proxies = {"http": proxy.url("")}
        fetch_page(Fetcher(session, settings, Rules(), cookies=store), url)
    assert proxy.hits[0].path == url  # the request was for that host, through the proxy
    return proxy.hits[0].headers.get("Cookie", "")


def _load(jar: Path, settings: Settings) -> CookieStore:
    return load_cookies(settings.with_overrides(cookies_file=str(jar)), Rules())


EXPORTS = {
    # The cookies.txt add-on on current Firefox: the expiry keeps its milliseconds.
    "firefox add-on": b"# Netscape HTTP Cookie File\n"
                      b".example.com\tTRUE\t/\tFALSE\t4102444800.742\tsid\tabc\n",
    # EditThisCookie on Opera: a fractional expiry, and FALSE beside a leading-dot domain.
    "EditThisCookie": b".example.com\tFALSE\t/\tFALSE\t4102444800.123456\tsid\tabc\n",
    # A leading dot alone: browsers send the cookie to subdomains whatever the flag says.
    "leading dot, FALSE": b".example.com\tFALSE\t/\tFALSE\t0\tsid\tabc\n",
    # curl's cookie jar marks HttpOnly cookies with a prefix that looks like a comment.
    "curl": b"# Netscape HTTP Cookie File\n# https://curl.se/docs/http-cookies.html\n"
            b"# This file was generated by libcurl! Edit at your own risk.\n\n"
            b"#HttpOnly_.example.com\tTRUE\t/\tFALSE\t0\tsid\tabc\n",
    # Saved again from Notepad: a BOM right before the first cookie, CRLF line ends.
    "notepad, BOM on a cookie": "\ufeff.example.com\tTRUE\t/\tFALSE\t0\tsid\tabc\r\n"
                                .encode(),
    # The same with a header line, which the BOM used to turn into a broken line 1.
    "notepad, BOM on the header": "\ufeff# Netscape HTTP Cookie File\r\n\r\n"
                                  ".example.com\tTRUE\t/\tFALSE\t0\tsid\tabc\r\n".encode(),
}


@pytest.mark.parametrize("exported", EXPORTS.values(), ids=EXPORTS.keys())
def test_an_exported_cookie_reaches_the_domain_and_its_subdomains(
    exported, fetch_session, fast_settings, tmp_path
):
    jar = tmp_path / "cookies.txt"
    jar.write_bytes(exported)
    store = _load(jar, fast_settings)
    assert store.warnings == ()
    assert _sent_to("http://www.example.com/headers", store, fetch_session,
                    fast_settings) == "sid=abc"
    assert store.header_for("http://example.com/") == "sid=abc"
    assert store.header_for("http://example.org/") is None


def test_a_nameless_cookie_goes_out_as_its_bare_value():
    """Set-Cookie: flag (no '=') is stored with an empty name; browsers send back just ``flag``."""
    cookies, warnings = parse_cookies_txt(".example.com\tTRUE\t/\tFALSE\t0\t\tflag\n")
    assert warnings == []
    assert CookieStore(tuple(cookies)).header_for("http://www.example.com/") == "flag"


def test_python_cookiejar_files_are_read_whole(fetch_session, fast_settings, tmp_path):
    """MozillaCookieJar.save writes a session cookie with an empty expiry, a cookie without
    a value with an empty name, and an HttpOnly one behind #HttpOnly_."""
    jar = http.cookiejar.MozillaCookieJar(str(tmp_path / "cookies.txt"))
    for name, value, rest in [("sid", "abc", {}), ("flag", None, {}),
                              ("token", "xyz", {http.cookiejar.HTTPONLY_ATTR: None})]:
        jar.set_cookie(http.cookiejar.Cookie(
            0, name, value, None, False, ".example.com", True, True, "/", True, False,
            None, True, None, None, rest,  # expires None: a session cookie
        ))
    jar.save(ignore_discard=True)
    written = Path(jar.filename).read_text(encoding="utf-8")
    assert "\tFALSE\t\tsid\tabc\n" in written and "\t\tflag\n" in written
    assert "#HttpOnly_.example.com" in written
    store = _load(Path(jar.filename), fast_settings)
    assert store.warnings == ()
    assert _sent_to("http://www.example.com/headers", store, fetch_session,
                    fast_settings) == "sid=abc; flag; token=xyz"  # nameless: the bare value


def test_utf8_values_go_out_percent_encoded(fetch_session, fast_settings, tmp_path):
    """Raw 张三 in a header made every request to the site fail with UnicodeEncodeError."""
    jar = tmp_path / "cookies.txt"
    jar.write_text("127.0.0.1\tFALSE\t/\tFALSE\t0\tcity\t北京\n", encoding="utf-8")
    settings = fast_settings.with_overrides(cookies_file=str(jar))
    store = load_cookies(settings, parse_rules("'127.0.0.1':\n  cookies: 'nick=张三'\n"))
    with fault_servers("127.0.0.1") as (home,):
        page = fetch_page(Fetcher(fetch_session, settings, Rules(), cookies=store),
                          home.url("/headers"))
    assert page.status == 200
    sent = home.hits[0].headers["Cookie"]
    assert sent == "nick=%E5%BC%A0%E4%B8%89; city=%E5%8C%97%E4%BA%AC"
    assert unquote(sent) == "nick=张三; city=北京"


@pytest.mark.parametrize(
    ("value", "sent"),
    [("a=b%20c", "v=a=b%20c"),  # printable ASCII as written: no double encoding
     ("x\r\nSet-Cookie: y", "v=x%0D%0ASet-Cookie: y"),  # no header injection from rules.yaml
     ("é", "v=%C3%A9")],
)
def test_only_what_cannot_go_in_a_header_is_encoded(value, sent):
    assert CookieStore((Cookie("v", value, "example.com"),)).header_for("http://example.com/") \
        == sent


GOOD = ".example.com\tTRUE\t/\tFALSE\t0\tsid\tabc"
LATER = ".example.com\tTRUE\t/\tFALSE\t0\ttheme\tdark"


@pytest.mark.parametrize(
    ("line", "reason"),
    [(".example.com TRUE / FALSE 0 sid abc", "expected 7 tab-separated fields (domain, "
      "subdomains, path, secure, expiry, name, value), got 1"),
     (".example.com\tyes\t/\tFALSE\t0\tsid\tabc", "the subdomain field must be TRUE or FALSE, "
      "got 'yes'"),
     (".example.com\tTRUE\t/\tFALSE\tnever\tsid\tabc", "the expiry must be a Unix time, "
      "got 'never'"),
     ("\tTRUE\t/\tFALSE\t0\tsid\tabc", "a cookie needs a domain"),
     (".example.com\tTRUE\t/\tFALSE\t0\t\t", "a cookie needs a name or a value")],
)
def test_a_broken_line_is_reported_and_the_others_still_work(
    line, reason, fetch_session, fast_settings, tmp_path
):
    jar = tmp_path / "cookies.txt"
    jar.write_text(f"# Netscape HTTP Cookie File\n{GOOD}\n{line}\n{LATER}\n", encoding="utf-8")
    store = _load(jar, fast_settings)
    assert store.warnings == (f"{jar}, line 3: {reason}; that cookie is left out",)
    assert _sent_to("http://www.example.com/headers", store, fetch_session,
                    fast_settings) == "sid=abc; theme=dark"


def test_a_file_with_no_readable_cookie_is_an_error(fast_settings, tmp_path):
    """A JSON export given as cookies.txt: a run with it would silently be logged out."""
    jar = tmp_path / "cookies.json"
    jar.write_text('[\n{"domain": ".example.com", "name": "sid", "value": "abc"}\n]\n',
                   encoding="utf-8")
    with pytest.raises(CookieFileError, match=r"cookies.json: no cookie in it could be read "
                       r"\(line 1: expected 7 tab-separated fields"):
        _load(jar, fast_settings)


def test_an_export_with_no_cookies_is_not_an_error(fast_settings, tmp_path):
    jar = tmp_path / "cookies.txt"
    jar.write_text("# Netscape HTTP Cookie File\n\n", encoding="utf-8")
    assert _load(jar, fast_settings) == CookieStore()
