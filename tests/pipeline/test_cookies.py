"""Configured cookies reach their own domain and nothing else (RFC 6265 matching)."""

from __future__ import annotations

import pytest

from pipeline.cookies import (
    Cookie,
    CookieStore,
    load_cookies,
    parse_cookie_string,
    parse_cookies_txt,
    path_matches,
)
from pipeline.errors import CookieFileError, RulesError
from pipeline.fetch import fetch_page
from pipeline.rules import Rules, SiteRules, parse_rules
from pipeline.urls import host_in_domain
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
    cookies = parse_cookies_txt(COOKIES_TXT)
    assert [c.name for c in cookies] == ["sid", "host_only", "secure_token", "member", "old"]
    assert cookies[0] == Cookie("sid", "abc123", "example.com")
    assert cookies[1].host_only and cookies[2].secure and cookies[4].expires == 1000


def test_each_cookie_goes_only_where_it_belongs():
    store = CookieStore(tuple(parse_cookies_txt(COOKIES_TXT)))
    now = 2_000_000_000
    assert store.header_for("http://www.example.com/a", now) == "sid=abc123"
    assert store.header_for("https://example.com/members/x", now) == (
        "member=yes; sid=abc123; secure_token=xyz"  # longest path first
    )
    assert store.header_for("http://news.example.cn/", now) == "host_only=1"
    assert store.header_for("http://m.news.example.cn/", now) is None  # host-only
    assert store.header_for("http://badexample.com/", now) is None
    assert store.header_for("http://example.com/", 999) == "sid=abc123; old=gone"  # not expired


def test_a_malformed_cookies_txt_line_is_named():
    text = "# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tFALSE\t0\tsid\tabc\n" \
           ".example.com TRUE / FALSE 0 sid abc\n"
    with pytest.raises(CookieFileError) as info:
        parse_cookies_txt(text, "cookies.txt")
    assert str(info.value).startswith("cookies.txt, line 3: expected 7 tab-separated fields")


@pytest.mark.parametrize(
    ("line", "message"),
    [(".example.com\tyes\t/\tFALSE\t0\tsid\tabc", "must be TRUE or FALSE"),
     (".example.com\tTRUE\t/\tFALSE\tnever\tsid\tabc", "the expiry must be a Unix time"),
     ("\tTRUE\t/\tFALSE\t0\tsid\tabc", "needs a domain and a name")],
)
def test_bad_fields_name_the_line(line, message):
    with pytest.raises(CookieFileError, match=f"^jar.txt, line 1: .*{message}"):
        parse_cookies_txt(line + "\n", "jar.txt")


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
        fetch_page(fetch_session, home.url(f"/redirect?to={target}"), settings, SiteRules(),
                   cookies=store)
    assert home.hits[0].headers["Cookie"] == "sid=abc; lang=zh; from_file=1"
    assert "Cookie" not in other.hits[0].headers
