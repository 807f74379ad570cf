"""The WHATWG URL Standard's reading of http(s) links (pipeline/web/url_parse.py), rule by rule.

Each row's comment names the part of the Standard (https://url.spec.whatwg.org/) it follows;
None means the Standard's parser returns failure.
"""

import pytest

from pipeline.records.errors import ErrorKind
from pipeline.web.url_parse import ParsedUrl, UrlRejected, parse_url
from pipeline.web.urls import normalize_url

FAIL = None

STANDARD = [
    # --- basic URL parser: input preprocessing ---
    ("  https://example.com/  ", "https://example.com/"),  # leading/trailing spaces stripped
    ("\x00\x1fhttps://example.com/\x1f", "https://example.com/"),  # and C0 controls
    ("https://exa\tmple.com/", "https://example.com/"),  # tab removed anywhere
    ("https://example.com/a\nb", "https://example.com/ab"),  # newline removed anywhere
    ("https://example.com/a\r\nb?c\td#e\nf", "https://example.com/ab?cd#ef"),  # CR/LF/tab
    ("ht\ttps://example.com/", "https://example.com/"),  # removed before the scheme is read
    # --- scheme state ---
    ("HTTPS://example.com/", "https://example.com/"),  # scheme ASCII-lowercased
    ("HtTp://example.com/", "http://example.com/"),  # scheme ASCII-lowercased
    # --- special authority (ignore) slashes states ---
    ("https:\\\\example.com\\a", "https://example.com/a"),  # \ is / in a special URL
    ("https:/\\example.com/", "https://example.com/"),  # either slash, in any order
    ("https:example.com/a", "https://example.com/a"),  # missing slashes: validation error only
    ("https:////example.com/", "https://example.com/"),  # extra slashes ignored
    ("https:///example.com/", "https://example.com/"),  # extra slashes ignored
    # --- authority state ---
    ("https://user:pass@example.com/", "https://user:pass@example.com/"),  # userinfo before @
    ("https://user@example.com/", "https://user@example.com/"),  # username alone
    ("https://a@b@example.com/", "https://a%40b@example.com/"),  # host after the last @
    ("https://@example.com/", "https://example.com/"),  # empty credentials serialize as none
    ("https://:@example.com/", "https://example.com/"),  # empty username and password
    ("https://u ser:p@example.com/", "https://u%20ser:p@example.com/"),  # userinfo encode set
    ("https://evil.com\\@good.com/", "https://evil.com/@good.com/"),  # authority ends at \
    ("https://evil.com/@good.com/", "https://evil.com/@good.com/"),  # authority ends at /
    ("https://evil.com?@good.com/", "https://evil.com/?@good.com/"),  # authority ends at ?
    ("https://evil.com#@good.com/", "https://evil.com/#@good.com/"),  # authority ends at #
    ("https://user@/", FAIL),  # credentials but no host: host-missing
    ("https://", FAIL),  # special URL with an empty host: host-missing
    # --- host parser: domain to ASCII (UTS #46) ---
    ("https://EXAMPLE.COM/", "https://example.com/"),  # ASCII domain: lowercased
    ("https://ex%41mple.com/", "https://example.com/"),  # host percent-decoded first
    ("https://%E4%BE%8B%E5%AD%90.com/", "https://xn--fsqu00a.com/"),  # decoded UTF-8, IDNA
    ("https://例子.中国/", "https://xn--fsqu00a.xn--fiqs8s/"),  # ToASCII: punycode labels
    ("https://例子。中国/", "https://xn--fsqu00a.xn--fiqs8s/"),  # UTS 46 maps 。 to .
    ("https://ＥＸＡＭＰＬＥ．ｃｏｍ/", "https://example.com/"),  # UTS 46 maps full-width forms
    ("https://Bücher.example/", "https://xn--bcher-kva.example/"),  # mapped to lower case
    ("https://faß.de/", "https://xn--fa-hia.de/"),  # non-transitional: ß is kept
    ("https://➡.ws/", "https://xn--hgi.ws/"),  # UTS 46 "valid" emoji (IDNA2008 refuses it)
    ("https://xn--ls8h.la/", "https://xn--ls8h.la/"),  # an emoji's A-label is valid
    ("https://XN--LS8H.la/", "https://xn--ls8h.la/"),  # A-label lowercased, then checked
    ("https://ab\u200bc.com/", "https://abc.com/"),  # UTS 46: U+200B is ignored
    ("https://a\u00adb.com/", "https://ab.com/"),  # UTS 46: soft hyphen is ignored
    ("https://%C3%A9.com/", "https://xn--9ca.com/"),  # percent-decoded é, then punycode
    ("https://a..b/", "https://a..b/"),  # VerifyDnsLength false: empty labels pass
    ("https://example.com./", "https://example.com./"),  # the final dot is kept
    ("https://-x-.com/", "https://-x-.com/"),  # CheckHyphens false
    ("https://ab--cd.com/", "https://ab--cd.com/"),  # CheckHyphens false
    ("https://a_b.com/", "https://a_b.com/"),  # UseSTD3ASCIIRules false: _ passes
    ("https://a!b.com/", "https://a!b.com/"),  # ! is no forbidden domain code point
    ("https://xn--zz.com/", "https://xn--zz.com/"),  # ASCII: a bad A-label passes (url#914)
    ("https://xn--8i7caa.example/", "https://xn--8i7caa.example/"),  # decodes to mapped ｗｗｗ
    ("https://例子.xn--zz/", FAIL),  # not all ASCII: the A-label is checked, and no Punycode
    ("https://例子.xn--/", FAIL),  # not all ASCII: an A-label decoding to nothing
    ("https://9news.שלום/", FAIL),  # CheckBidi: in a right-to-left name an ASCII label too
    # keeps the Bidi rule, and a label may not start with a digit there
    ("https://news.שלום/", "https://news.xn--9dbne9b/"),  # CheckBidi: letters first, fine
    ("https://a\ufffdb.com/", FAIL),  # UTS 46 disallowed code point
    ("https://%ff.com/", FAIL),  # not UTF-8: decoded as U+FFFD, disallowed
    ("https://\u0301a.com/", FAIL),  # UTS 46 validity: label starts with a combining mark
    # --- host parser: forbidden domain code points ---
    ("https://exa mple.com/", FAIL),  # space
    ("https://exa\u00a0mple.com/", FAIL),  # no-break space, mapped by UTS 46 to a space
    ("https://exa\u3000mple.com/", FAIL),  # ideographic space, mapped to a space
    ("https://exa%20mple.com/", FAIL),  # a percent-encoded space
    ("https://a<b.com/", FAIL),  # <
    ("https://a>b.com/", FAIL),  # >
    ("https://a^b.com/", FAIL),  # ^
    ("https://a|b.com/", FAIL),  # |
    ("https://a%25b.com/", FAIL),  # % (after percent-decoding)
    ("https://a%00b.com/", FAIL),  # a C0 control
    ("https://a%2Fb.com/", FAIL),  # / (after percent-decoding)
    ("https://a%5B::1%5D/", FAIL),  # [ after decoding: brackets only as written
    # --- host parser: ends in a number → IPv4 parser ---
    ("http://192.168.0.1/", "http://192.168.0.1/"),  # four decimal parts
    ("http://192.168.0.256/", FAIL),  # last part ≥ 256^(5 − parts)
    ("http://256.1.1.1/", FAIL),  # a part before the last over 255
    ("http://1.2.3.4.5/", FAIL),  # more than four parts
    ("http://0x7f.1/", "http://127.0.0.1/"),  # hex part; the last fills three bytes
    ("http://0x7F000001/", "http://127.0.0.1/"),  # one hex number
    ("http://2130706433/", "http://127.0.0.1/"),  # one decimal number
    ("http://0177.0.0.1/", "http://127.0.0.1/"),  # leading 0: octal
    ("http://127.1/", "http://127.0.0.1/"),  # two parts: the last fills three bytes
    ("http://1.2.3/", "http://1.2.0.3/"),  # three parts: the last fills two bytes
    ("http://4294967295/", "http://255.255.255.255/"),  # the largest number
    ("http://4294967296/", FAIL),  # one more than 2^32 − 1
    ("http://1.2.3.4./", "http://1.2.3.4/"),  # one final dot allowed
    ("http://0x/", "http://0.0.0.0/"),  # "0x" alone is zero
    ("http://09.1.1.1/", FAIL),  # 9 is no octal digit
    ("http://1.2.3.09/", FAIL),  # last part: no octal either
    ("http://example.1/", FAIL),  # ends in a number, so IPv4, and "example" is no number
    ("http://example.0x1/", FAIL),  # a hex last part ends in a number too
    ("http://0x7g.1/", FAIL),  # g is no hex digit
    ("http://news.0x1234567890abcdef12345/", FAIL),  # a number past 2^64 still ends in one
    ("http://0xfedcba98765432100123/", FAIL),  # no digit limit: a number, too large for IPv4
    ("http://0x000000000000000000000000007f.1/", "http://127.0.0.1/"),  # leading 0s: no size
    ("http://1.example/", "http://1.example/"),  # a number elsewhere: a domain
    ("http://１２７．０．０．１/", "http://127.0.0.1/"),  # full-width digits mapped first
    ("http://%31%32%37.0.0.1/", "http://127.0.0.1/"),  # percent-decoded first
    ("http://0.0.0.0/", "http://0.0.0.0/"),  # zero is an address
    # --- host parser: [IPv6] ---
    ("http://[::1]/", "http://[::1]/"),  # loopback
    ("http://[0:0:0:0:0:0:0:1]/", "http://[::1]/"),  # serializer: zero run compressed
    ("http://[2001:DB8::1]/", "http://[2001:db8::1]/"),  # serializer: lower-case hex
    ("http://[1:0:0:2:0:0:0:3]/", "http://[1:0:0:2::3]/"),  # the longest zero run
    ("http://[1:0:0:2:0:0:3:4]/", "http://[1::2:0:0:3:4]/"),  # the first of equal runs
    ("http://[1:0:2:3:4:5:6:7]/", "http://[1:0:2:3:4:5:6:7]/"),  # one zero piece stays
    ("http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/"),  # dotted tail read, hex out
    ("http://[::127.0.0.1]/", "http://[::7f00:1]/"),  # IPv4 in the last 32 bits
    ("http://[v6a.ip]/", FAIL),  # not an IPv6 address
    ("http://[::1/", FAIL),  # no closing bracket
    ("http://[::1]x/", FAIL),  # something after the bracket
    ("http://[fe80::1%25eth0]/", FAIL),  # the Standard has no zone identifiers
    ("http://[1:2:3:4:5:6:7:8:9]/", FAIL),  # more than eight pieces
    ("http://[::1::2]/", FAIL),  # two compressions
    ("http://[12345::]/", FAIL),  # a piece of five hex digits
    ("http://[::1.2.3.04]/", FAIL),  # IPv4 part with a leading zero
    ("http://[::1.2.3]/", FAIL),  # IPv4 part of three numbers
    ("http://[::1]:8080/", "http://[::1]:8080/"),  # port after the bracket
    # --- port state ---
    ("http://example.com:80/", "http://example.com/"),  # the scheme's default port is null
    ("https://example.com:443/", "https://example.com/"),  # the scheme's default port
    ("http://example.com:443/", "http://example.com:443/"),  # another scheme's default
    ("https://example.com:80/", "https://example.com:80/"),  # another scheme's default
    ("http://example.com:/", "http://example.com/"),  # an empty port is no port
    ("http://example.com:0080/", "http://example.com/"),  # leading zeros: still 80
    ("http://example.com:8080/", "http://example.com:8080/"),  # a port kept
    ("http://example.com:65535/", "http://example.com:65535/"),  # the largest port
    ("http://example.com:0/", "http://example.com:0/"),  # zero is a port
    ("http://example.com:65536/", FAIL),  # above 2^16 − 1
    ("http://example.com:8a/", FAIL),  # not a digit
    ("http://example.com:-1/", FAIL),  # not a digit
    ("http://example.com:1:2/", FAIL),  # a second colon
    ("http://example.com:\uff10/", FAIL),  # only ASCII digits
    ("http://:80/", FAIL),  # host-missing before the port
    # --- path start / path state ---
    ("http://example.com", "http://example.com/"),  # a special URL's empty path is /
    ("http://example.com?a", "http://example.com/?a"),  # path / before the query
    ("http://example.com#a", "http://example.com/#a"),  # path / before the fragment
    ("http://example.com/a/./b", "http://example.com/a/b"),  # single-dot segment
    ("http://example.com/a/../b", "http://example.com/b"),  # double-dot segment
    ("http://example.com/../../a", "http://example.com/a"),  # never above the root
    ("http://example.com/a/..", "http://example.com/"),  # a final .. leaves the slash
    ("http://example.com/a/.", "http://example.com/a/"),  # a final . leaves the slash
    ("http://example.com/a/%2e", "http://example.com/a/"),  # %2e is a single dot
    ("http://example.com/a/%2E%2e/b", "http://example.com/b"),  # %2e%2e is a double dot
    ("http://example.com/a/.%2E/b", "http://example.com/b"),  # .%2e is a double dot
    ("http://example.com/a/..b/c", "http://example.com/a/..b/c"),  # no dot segment
    ("http://example.com/a\\b\\..\\c", "http://example.com/a/c"),  # \ separates segments
    ("http://example.com/a b", "http://example.com/a%20b"),  # path set: space
    ('http://example.com/"<>`{}', "http://example.com/%22%3C%3E%60%7B%7D"),  # path set
    ("http://example.com/^", "http://example.com/%5E"),  # path set: ^
    ("http://example.com/中文", "http://example.com/%E4%B8%AD%E6%96%87"),  # UTF-8 escapes
    ("http://example.com/%zz", "http://example.com/%zz"),  # a stray % is left alone
    ("http://example.com/%2f", "http://example.com/%2f"),  # escapes kept as written
    ("http://example.com//a//", "http://example.com//a//"),  # empty segments kept
    ("http://example.com/a|b[c]", "http://example.com/a|b[c]"),  # not in the path set
    ("http://example.com/a'b", "http://example.com/a'b"),  # ' only escaped in queries
    # --- query state ---
    ("http://example.com/?a b", "http://example.com/?a%20b"),  # query set: space
    ("http://example.com/?a'b", "http://example.com/?a%27b"),  # special-query set: '
    ('http://example.com/?"<>', "http://example.com/?%22%3C%3E"),  # query set
    ("http://example.com/?q=茶", "http://example.com/?q=%E8%8C%B6"),  # UTF-8 escapes
    ("http://example.com/?a`{}", "http://example.com/?a`{}"),  # not in the query set
    ("http://example.com/?", "http://example.com/?"),  # an empty query is not null
    ("http://example.com/?a?b", "http://example.com/?a?b"),  # ? inside the query
    ("http://example.com/?a#b?c", "http://example.com/?a#b?c"),  # # ends the query
    ("http://example.com/?a\\b", "http://example.com/?a\\b"),  # \ is no slash in a query
    # --- fragment state ---
    ("http://example.com/#a b", "http://example.com/#a%20b"),  # fragment set: space
    ("http://example.com/#a`b", "http://example.com/#a%60b"),  # fragment set: `
    ('http://example.com/#"<>', "http://example.com/#%22%3C%3E"),  # fragment set
    ("http://example.com/#a#b", "http://example.com/#a#b"),  # # inside the fragment
    ("http://example.com/#", "http://example.com/#"),  # an empty fragment is not null
    ("http://example.com/#中", "http://example.com/#%E4%B8%AD"),  # UTF-8 escapes
]


@pytest.mark.parametrize("raw, expected", STANDARD)
def test_links_parse_as_the_standard_says(raw: str, expected: str | None) -> None:
    if expected is FAIL:
        with pytest.raises(UrlRejected) as failure:
            parse_url(raw)
        assert failure.value.kind is ErrorKind.BAD_URL
    else:
        assert parse_url(raw).href == expected


def test_the_table_covers_at_least_100_pairs() -> None:
    assert len(STANDARD) >= 100
    assert len({raw for raw, _ in STANDARD}) == len(STANDARD)


def test_the_parts_of_a_parsed_url() -> None:
    assert parse_url("HTTPS://u:p@例子.中国:8443/a/../b?q=1#top") == ParsedUrl(
        scheme="https", username="u", password="p", host="xn--fsqu00a.xn--fiqs8s", port=8443,
        path="/b", query="q=1", fragment="top")


@pytest.mark.parametrize(
    "raw, reason",
    [
        ("ftp://example.com/", "only http and https links are archived, not ftp:"),
        ("example.com/a", "not a link: 'example.com/a'"),
        ("https://", "link has no host: 'https://'"),
        ("https://u@:8080/", "link has no host"),
        ("http://192.168.0.256/", "'192.168.0.256' ends in a number but is not a dotted IPv4"),
        ("http://[v6a.ip]/", "bad IPv6 host in 'http://[v6a.ip]/'"),
        ("http://a b.com/", "'a b' holds a character other than letters, digits, '-' and '_'"
                            " (' ')"),
        ("http://例子.xn--zz/", "'xn--zz' is not a valid international label"),
        ("http://a.com:99999/", "bad port '99999' in 'http://a.com:99999/'"),
    ],
)
def test_failures_say_what_is_wrong(raw: str, reason: str) -> None:
    with pytest.raises(UrlRejected) as failure:
        parse_url(raw)
    assert reason in str(failure.value)


@pytest.mark.parametrize("raw", [raw for raw, expected in STANDARD if expected is not FAIL])
def test_the_canonical_form_is_stable(raw: str) -> None:
    """Normalizing a normalized link changes nothing, whatever the Standard repaired first."""
    try:
        once = normalize_url(raw)
    except UrlRejected:
        return  # refused by the project's own rules (credentials, names no DNS holds)
    assert normalize_url(once) == once
