import pytest

from pipeline.errors import ErrorKind
from pipeline.urls import UrlRejected, find_links, host_of, normalize_url

SEED_VARIANTS = [  # seed 000: six spellings of one page
    "https://Example.COM/path/page.html",
    "https://example.com:443/path/page.html",
    "https://example.com/path/../path/page.html",
    "https://example.com/path/page.html?b=2&a=1",
    "https://example.com/path/page.html?a=1&b=2#section",
    "https://example.com/path/page.html?a=1&b=2&utm_source=twitter",
]


def test_seed_variants_collapse_to_one_url() -> None:
    normalized = {normalize_url(u) for u in SEED_VARIANTS[3:]}
    assert normalized == {"https://example.com/path/page.html?a=1&b=2"}
    assert {normalize_url(u) for u in SEED_VARIANTS[:3]} == {"https://example.com/path/page.html"}


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("HTTP://EXAMPLE.com", "http://example.com/"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("http://example.com:8080/a", "http://example.com:8080/a"),
        ("https://example.com/a/./b/../c", "https://example.com/a/c"),
        ("https://example.com/%7Euser/%41%2f", "https://example.com/~user/A%2F"),
        ("https://example.com/中文?q=茶", "https://example.com/%E4%B8%AD%E6%96%87?q=%E8%8C%B6"),
        ("https://例子.中国/", "https://xn--fsqu00a.xn--fiqs8s/"),
        ("https://a.com/x?spm=1.2&from=timeline&fbclid=z&gclid=y&ref=hn&share_token=t&id=3",
         "https://a.com/x?id=3"),
        ("https://a.com/x?z=1&a=2&a=1", "https://a.com/x?a=2&a=1&z=1"),
        ("https://a.com/x?", "https://a.com/x"),
        ("  https://a.com/x#top  ", "https://a.com/x"),
    ],
)
def test_normalize(raw: str, expected: str) -> None:
    assert normalize_url(raw) == expected


def test_spa_routes_stay_apart() -> None:
    a = normalize_url("https://app.example.com/#/articles/1")
    b = normalize_url("https://app.example.com/#/articles/2")
    c = normalize_url("https://app.example.com/#!/articles/1")
    assert len({a, b, c}) == 3
    assert a.endswith("#/articles/1")
    assert normalize_url("https://app.example.com/#intro") == "https://app.example.com/"


def test_extra_tracking_params() -> None:
    assert normalize_url("https://a.com/?x=1&src=wx", ["src"]) == "https://a.com/?x=1"


@pytest.mark.parametrize(
    "raw, reason",
    [
        ("javascript:alert(1)", "javascript"),
        ("mailto:someone@example.com", "mailto"),
        ("file:///etc/passwd", "file"),
        ("ftp://example.com/file", "ftp"),
        ("example.com/page", "not a link"),
        ("https://example.com:99999/", "bad port"),
        ("https:///path", "no host"),
    ],
)
def test_rejections_say_why(raw: str, reason: str) -> None:
    with pytest.raises(UrlRejected, match=reason):
        normalize_url(raw)


@pytest.mark.parametrize(
    "raw, reason",
    [
        ("http://a..b/", "an empty label"),
        ("http://.example.com/", "an empty label"),
        ("http://example.com../", "an empty label"),  # one final dot is the root, two are not
        ("http://-/", "'-' starts or ends with a hyphen"),
        ("http://a-.example.com/", "'a-' starts or ends with a hyphen"),
        ("http://xn--/", "'xn--' is not a valid international label"),
        ("http://xn--zz.com/", "'xn--zz' is not a valid international label"),
        ("http://xn--ls8h.la/", "'xn--ls8h' is not a valid international label"),  # an emoji
        ("http://" + "a" * 64 + ".com/", "a label of 64 characters; the longest is 63"),
        ("http://" + ("a" * 63 + ".") * 4 + "com/", "259 characters long; the longest is 253"),
        ("http://a!b.com/", "'a!b' holds a character other than letters"),
        ("http://a%20b.com/", "'a b' holds a character other than letters"),
        ("http://999.1.1.1/", "ends in a number but is not a dotted IPv4 address"),
        ("http://1.2.3/", "ends in a number"),  # a browser goes to 1.2.0.3
        ("http://0x7f.0.0.1/", "ends in a number"),  # and here to 127.0.0.1
        ("http://[zzz]/", "bad IPv6 host"),
        ("http://[127.0.0.1]:80/", "bad IPv6 host"),
    ],
)
def test_invalid_host_names_are_rejected_with_the_reason(raw: str, reason: str) -> None:
    with pytest.raises(UrlRejected) as failure:
        normalize_url(raw)
    assert reason in str(failure.value)
    assert repr(raw[:80]) in str(failure.value)
    assert failure.value.kind is ErrorKind.BAD_URL


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("http://localhost:8080/x", "http://localhost:8080/x"),
        ("http://wiki/Start", "http://wiki/Start"),  # an intranet name of one label
        ("http://WIKI./Start", "http://wiki/Start"),  # one final dot is the DNS root
        ("https://example.com./", "https://example.com/"),
        ("http://my_pc.corp/", "http://my_pc.corp/"),  # Windows names carry underscores
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000/"),
        ("http://[::1]:8000/", "http://[::1]:8000/"),
        ("http://[2001:DB8::1]/", "http://[2001:db8::1]/"),
        ("https://xn--fsqu00a.xn--fiqs8s/", "https://xn--fsqu00a.xn--fiqs8s/"),
        ("https://Bücher.example/", "https://xn--bcher-kva.example/"),
        ("https://例子.中国。/", "https://xn--fsqu00a.xn--fiqs8s/"),  # an ideographic final dot
        ("https://123.example.com/", "https://123.example.com/"),
        ("https://ab--cd.example/", "https://ab--cd.example/"),
        ("http://" + "a" * 63 + ".com/", "http://" + "a" * 63 + ".com/"),
        ("http://" + ("a" * 63 + ".") * 3 + "a" * 61 + "/",
         "http://" + ("a" * 63 + ".") * 3 + "a" * 61 + "/"),  # 253 characters
    ],
)
def test_valid_hosts_are_kept(raw: str, expected: str) -> None:
    assert normalize_url(raw) == expected


def test_find_links_in_prose_and_markdown() -> None:
    text = (
        "今天读到一篇好文https://example.com/a，推荐！\n"
        "See [the guide](https://example.com/guide?utm_source=x) and "
        "(https://en.wikipedia.org/wiki/Tea_(meal)).\n"
        "www.example.org/b.\n"
        "mailto:me@example.com javascript:void(0)\n"
    )
    assert find_links(text) == [
        "https://example.com/a",
        "https://example.com/guide?utm_source=x",
        "https://en.wikipedia.org/wiki/Tea_(meal)",
        "https://www.example.org/b",
        "mailto:me@example.com",
        "javascript:void(0)",
    ]


def test_find_links_in_bookmarks_export() -> None:
    bookmarks = """<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE><H1>Bookmarks</H1>
<DL><p>
  <DT><H3>读书</H3>
  <DL><p>
    <DT><A HREF="https://example.com/tea" ADD_DATE="1700000000">茶的历史</A>
    <DT><A HREF="javascript:alert(document.title)">bookmarklet</A>
  </DL><p>
  <DT><A HREF="http://example.org/x?a=1">X</A>
</DL><p>"""
    assert find_links(bookmarks) == [
        "https://example.com/tea",
        "javascript:alert(document.title)",
        "http://example.org/x?a=1",
    ]


def test_host_of() -> None:
    assert host_of("http://127.0.0.1:8080/a") == "127.0.0.1"
    assert host_of("https://news.example.com/") == "news.example.com"
    assert host_of("http://[::1]:8000/") == "[::1]"
