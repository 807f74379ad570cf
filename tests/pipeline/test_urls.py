import pytest

from pipeline.records.errors import ErrorKind
from pipeline.web.urls import (
    UrlRejected,
    find_links,
    host_of,
    looks_like_campaign_tag,
    normalize_url,
)

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
        ("http://" + "a" * 64 + ".com/", "a label of 64 characters; the longest is 63"),
        ("http://" + ("a" * 63 + ".") * 4 + "com/", "259 characters long; the longest is 253"),
        ("http://a!b.com/", "'a!b' holds a character other than letters"),
        ("http://a%20b.com/", "'a b' holds a character other than letters"),
        ("http://999.1.1.1/", "ends in a number but is not a dotted IPv4 address"),
        ("http://192.168.0.256/", "ends in a number but is not a dotted IPv4 address"),
        ("http://example.1/", "ends in a number but is not a dotted IPv4 address"),
        ("http://a b.com/", "'a b' holds a character other than letters"),
        ("http://exa\u00a0mple.com/", "'exa mple' holds a character other than letters"),
        ("http://[v6a.ip]/", "bad IPv6 host"),
        ("http://[fe80::1%25eth0]/", "bad IPv6 host"),  # browsers take no zone
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
        ("http://xn--ls8h.la/", "http://xn--ls8h.la/"),  # an emoji (💩.la): UTS 46 valid
        ("https://XN--8i7caa.famitei.net/", "https://xn--8i7caa.famitei.net/"),  # a real site
        ("https://➡.ws/", "https://xn--hgi.ws/"),  # mapped as browsers map it, not refused
        ("http://1.2.3/", "http://1.2.0.3/"),  # where a browser goes
        ("http://0x7f.0.0.1/", "http://127.0.0.1/"),  # where a browser goes
        ("http://ab\u200bc.example/", "http://abc.example/"),  # UTS 46 ignores U+200B
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
    # as urlsplit().hostname has it, which eight callers used beside it
    assert host_of("https://News.Example.COM:8443/a") == "news.example.com"
    assert host_of("http://user:pw@Example.com:81/x") == "example.com"
    assert host_of("http://example.com#top") == "example.com"
    assert host_of("http://[2001:DB8::1]/") == "[2001:db8::1]"


@pytest.mark.parametrize(
    "raw, expected",
    [
        # a backslash is a slash to a browser: the authority ends at it
        ("https://evil.com\\@good.com/", "https://evil.com/@good.com/"),
        ("https://example.com\\a", "https://example.com/a"),
        ("https://example.com/a\\b", "https://example.com/a/b"),
        # tabs and newlines inside a link are dropped, not escaped
        ("https://exam\tple.com/a\nb/c\r\n?x=1", "https://example.com/ab/c?x=1"),
        # the same page: + and %20 are one space in a query; an escaped comma is a comma
        ("https://a.com/s?q=a+space", "https://a.com/s?q=a%20space"),
        ("https://a.com/s?q=a%20space", "https://a.com/s?q=a%20space"),
        ("https://a.com/s?q=1%2B1", "https://a.com/s?q=1%2B1"),  # a real plus stays escaped
        ("https://a.com/a%2cb%2C", "https://a.com/a,b,"),
        ("https://a.com/a%3Bb%2F%3f", "https://a.com/a%3Bb%2F%3F"),  # these would mean more
        ("https://a.com/%E8%8C%B6", "https://a.com/%E8%8C%B6"),
        ("https://a.com/x?q=%E8%8c%b6&a=%7e", "https://a.com/x?a=~&q=%E8%8C%B6"),
        # ref and from name pages when their value is no campaign tag
        ("https://github.com/o/r/blob/main/contents/a.md?ref=dev",
         "https://github.com/o/r/blob/main/contents/a.md?ref=dev"),
        ("https://rail.example/timetable?from=PEK&to=SHA",
         "https://rail.example/timetable?from=PEK&to=SHA"),
        ("https://a.com/x?from=singlemessage&isappinstalled=0", "https://a.com/x?isappinstalled=0"),
        ("https://a.com/x?ref=hn", "https://a.com/x"),
        ("https://a.com/x?ref=newsletter-2024", "https://a.com/x"),
        ("https://a.com/x?from=wechat_moments", "https://a.com/x"),
        # an empty user name is no credential
        ("https://@example.com/", "https://example.com/"),
    ],
)
def test_links_read_as_a_browser_reads_them(raw: str, expected: str) -> None:
    assert normalize_url(raw) == expected


def test_keep_overrides_tracking_lists() -> None:
    assert normalize_url("https://a.com/?ref=twitter&src=x", ["src"], keep=["REF"]) == (
        "https://a.com/?ref=twitter")
    assert normalize_url("https://a.com/?src=x", ["src"], keep=["src"]) == "https://a.com/?src=x"
    assert normalize_url("https://a.com/?ref=main", ["ref"]) == "https://a.com/"  # listed: gone


@pytest.mark.parametrize("value", ["twitter", "hn", "rss", "newsletter", "share", "utm_feed",
                                   "weixin", "wechat", "weibo", "timeline", "singlemessage",
                                   "groupmessage", "Facebook", "email-digest"])
def test_campaign_tags(value: str) -> None:
    assert looks_like_campaign_tag(value)


@pytest.mark.parametrize("value", ["dev", "main", "v1.2", "PEK", "SHA", "feature/login",
                                   "3f2a9c1", "zh-CN", "page2", ""])
def test_values_that_name_a_page(value: str) -> None:
    assert not looks_like_campaign_tag(value)


@pytest.mark.parametrize("raw", ["https://user:secret@example.com/a",
                                 "https://user@example.com/a", "https://:secret@example.com/"])
def test_credentials_are_refused_not_dropped(raw: str) -> None:
    with pytest.raises(UrlRejected) as failure:
        normalize_url(raw)
    reason = str(failure.value)
    assert reason.startswith("link to example.com carries a user name or password")
    assert "credentials do not belong in a task list" in reason
    assert "secret" not in reason  # the reason is shown and logged: it must not repeat them


def test_markdown_label_that_is_the_url_is_one_link() -> None:
    text = "[https://example.com/a](https://example.com/a) and [b](https://example.com/b \"B\")"
    assert find_links(text) == ["https://example.com/a", "https://example.com/b"]


def test_markdown_image_inside_a_link_gives_both() -> None:
    text = "[![](https://example.com/i.png)](https://example.com/post) ![alt](https://e.org/x.png)"
    assert find_links(text) == ["https://example.com/i.png", "https://example.com/post",
                                "https://e.org/x.png"]


def test_markdown_targets_with_parentheses_and_relative_ones() -> None:
    text = ("[Tea](https://en.wikipedia.org/wiki/Tea_(meal)), [top](#top), [up](../index.md),"
            " [www](www.example.com/x)")
    assert find_links(text) == ["https://en.wikipedia.org/wiki/Tea_(meal)",
                                "https://www.example.com/x"]


def test_chinese_prose_ends_links_where_a_reader_does() -> None:
    text = ("看这篇https://example.com/a……还有https://example.com/b——都不错。"
            "复制自微博：\u200bhttps://example.com/c\u200b转发\n"
            "详见https://example.com/d这篇文章，以及https://example.com/e.html的评论")
    assert find_links(text) == ["https://example.com/a", "https://example.com/b",
                                "https://example.com/c", "https://example.com/d",
                                "https://example.com/e.html"]


@pytest.mark.parametrize(
    "text, link",
    [
        ("见https://zh.wikipedia.org/wiki/茶叶 一文", "https://zh.wikipedia.org/wiki/茶叶"),
        ("搜https://example.com/s?q=茶叶 看看", "https://example.com/s?q=茶叶"),
        ("https://example.com/茶/a这篇", "https://example.com/茶/a这篇"),  # path already CJK
        ("网址https://例子.中国/a 不错", "https://例子.中国/a"),
        ("看https://example.com/#/路由 这里", "https://example.com/#/路由"),
    ],
)
def test_cjk_that_belongs_to_the_link_is_kept(text: str, link: str) -> None:
    assert find_links(text) == [link]
