"""Publish dates on Chinese portals and apps (issue 27 item 5), one small hand-written page per
form: a date shown without its year, a 发布日期 line under the article, WeChat's script time."""

from __future__ import annotations

import pytest
from lxml import etree

from pipeline.extract import extract
from pipeline.extract.meta.dates import holds_date, markup_holds_date
from tests.pipeline.extract.pages import ZH_PROSE

ZH_BODY = "".join(f"<p>{p}</p>" for p in ZH_PROSE)
LONG_BODY = ZH_BODY * 15  # an article long enough that its end is far from its headline
HEADLINE = "<h1>老桥明天重新开放</h1>"


def page(body: str, title: str = "老桥明天重新开放_示例网") -> str:
    return (f'<html><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body>{body}</body></html>")


# --- "MM-DD HH:MM": this year's stories shown without their year ----------------------------

YEARLESS = (HEADLINE + '<div class="info"><span>{shown}</span> <span>来源：示例网</span></div>'
            f'<div class="content">{ZH_BODY}</div>' + "{footer}")


@pytest.mark.parametrize("url", ["https://news.example.com/a/20200305/123.html",
                                 "https://news.example.com/2020/03/05/123.html"])
def test_date_without_year_takes_the_year_from_the_url(url: str) -> None:
    a = extract(page(YEARLESS.format(shown="03-05 10:23", footer="")), url)
    assert a.published == "2020-03-05T10:23:00"


def test_date_without_year_takes_the_year_the_copyright_line_ends_in() -> None:
    footer = '<div class="footer">Copyright © 1997-2020 示例网 版权所有</div>'
    a = extract(page(YEARLESS.format(shown="3月5日 10:23", footer=footer)),
                "https://news.example.com/a/123.html")
    assert a.published == "2020-03-05T10:23:00"


def test_date_without_year_and_no_year_anywhere_is_no_date() -> None:
    a = extract(page(YEARLESS.format(shown="03-05 10:23", footer="")),
                "https://news.example.com/a/123.html")
    assert a.published is None


def test_a_time_without_a_date_or_a_score_is_no_date() -> None:
    for shown in ("10:23", "13-05 10:23"):  # no month 13
        a = extract(page(YEARLESS.format(shown=shown, footer="")),
                    "https://news.example.com/2020/03/123.html")  # the year, not the day
        assert a.published is None, shown


# --- 发布日期 under the article ----------------------------------------------------------------


def test_published_line_under_the_article_beats_the_sites_clock_above_the_headline() -> None:
    body = ('<div class="top">2021年04月01日 星期四</div>' + HEADLINE
            + f'<div class="content">{LONG_BODY}</div><p>发布日期：2020-03-05</p>')
    assert extract(page(body), "https://x.example.com/a/1.html").published == "2020-03-05"


def test_dateline_under_the_headline_still_beats_a_published_line_further_down() -> None:
    body = (HEADLINE + "<p>2020-03-05 10:23</p>" + f'<div class="content">{LONG_BODY}</div>'
            '<ul class="related"><li>发布时间：2019-01-01 其他新闻</li></ul>')
    assert extract(page(body), "https://x.example.com/a/1.html").published == (
        "2020-03-05T10:23:00")


# --- WeChat: the time is in a script --------------------------------------------------------

WECHAT = ('<h1 class="rich_media_title">老桥明天重新开放</h1>'
          '<div id="meta_content"><em id="publish_time"></em><a id="js_name">示例公众号</a></div>'
          f'<div class="rich_media_content" id="js_content">{ZH_BODY}</div>'
          "<script>var nickname = \"示例\";\n{script}</script>")


@pytest.mark.parametrize(("script", "published"), [
    ('var ct = "1577836800";', "2020-01-01T08:00:00+08:00"),  # shown in China's time
    ('var create_time = "1583370000" * 1;', "2020-03-05T09:00:00+08:00"),
    ('var publish_time = "2020-03-05" || "";', "2020-03-05"),
])
def test_wechat_publish_time_in_a_script(script: str, published: str) -> None:
    a = extract(page(WECHAT.format(script=script), title="老桥明天重新开放"),
                "https://mp.weixin.qq.com/s/abc")
    assert a.published == published


# --- apps and portals that draw the date with a script: the time is in the page's state -----

APP = ('<div class="nav"><a href="/">首页</a> <a href="/news">新闻</a></div>'
       f'<h1>老桥明天重新开放</h1><div class="info">{{shown}}</div><div class="content">{ZH_BODY}'
       "</div><script>{script}</script>")


@pytest.mark.parametrize(("script", "published"), [
    ("window.ct = '1583370000';", "2020-03-05T09:00:00+08:00"),
    ("var ct = 1583370000;", "2020-03-05T09:00:00+08:00"),  # a number, not a string
    ("var createTime = '2020-03-05 10:23';", "2020-03-05T10:23:00"),
    ("var BASE_DATA = {articleInfo: {title: '老桥', publishTime: 1583370000}};",
     "2020-03-05T09:00:00+08:00"),
    ('window.initialState = {"articleDetail": {"publishTime": 1583370000000}};',  # milliseconds
     "2020-03-05T09:00:00+08:00"),
    ('window.DATA = {"title": "老桥", "pubtime": "2020-03-05 10:23:45"};', "2020-03-05T10:23:45"),
    ('var allData = {"docData": {"newsTime": "2020-03-05 10:23:45"}};', "2020-03-05T10:23:45"),
])
def test_app_page_holds_its_publish_time_in_its_state(script: str, published: str) -> None:
    a = extract(page(APP.format(shown="", script=script)), "https://m.example.com/a/123")
    assert a.published == published


def test_a_date_the_page_shows_beats_the_one_its_script_holds() -> None:
    html = page(APP.format(shown="发布时间：2020-03-06 08:00",
                           script='window.DATA = {"pubtime": "2019-01-01 10:23:45"};'))
    assert extract(html, "https://m.example.com/a/123").published == "2020-03-06T08:00:00"


@pytest.mark.parametrize("holder", [
    '<span>发表于 <span title="2020-3-5 10:23:45">前天&nbsp;10:23</span></span>',  # a forum
    '<span class="time" id="news-time" data-val="1583370000000"></span>',  # drawn by a script
])
def test_a_date_element_shown_relatively_or_empty_holds_the_time_in_an_attribute(
    holder: str,
) -> None:
    a = extract(page(APP.format(shown=holder, script="")), "https://bbs.example.com/t-1.html")
    assert a.published is not None and a.published.startswith("2020-03-05")


def test_the_walk_finds_the_date_holders_the_query_named() -> None:
    """``holds_date`` answers, element by element, as the XPath it replaced found them."""
    html = ('<html><head><title>t</title></head><body class="date-page">'
            '<div class="Time">a</div><div class="pubtime x">b</div><p id="update">c</p>'
            '<span title="">d</span><span title="2020-3-5">e</span><em title="2020">f</em>'
            '<div class="">g</div><div id="timeline" class="datetime">h</div><SPAN TITLE="x">i'
            '</SPAN><i class="dat e">j</i></body></html>')
    root = etree.fromstring(html, etree.HTMLParser())
    query = etree.XPath("//*[contains(@class, 'time') or contains(@class, 'date')"
                        " or contains(@id, 'time') or contains(@id, 'date')] | //span[@title]")
    walked = [el for el in root.iter() if isinstance(el.tag, str)
              and holds_date(markup_holds_date(el.tag, el.get("class"), el.get("id")), el)]
    assert walked == query(root)
    assert [el.text for el in walked if el.text] == ["b", "c", "d", "e", "h", "i"]


# --- an edit's date is not the publication's; the verb may follow the date ------------------


def test_a_blogs_edit_date_above_its_first_published_date_is_passed_over() -> None:
    info = ('<span class="time">已于&nbsp;2021-04-01 12:00:00&nbsp;修改</span>'
            '<span class="time">于&nbsp;2020-03-05 10:23:45&nbsp;首次发布</span>')
    body = ('<div class="toolbar">最新推荐文章于&nbsp;2024-05-13 10:08:49&nbsp;发布</div>'
            + HEADLINE + f'<div class="bar">{info}</div><div class="content">{ZH_BODY}</div>')
    assert extract(page(body), "https://blog.example.com/u/article/details/1").published == (
        "2020-03-05T10:23:45")


def test_updated_before_published_in_a_dateline_gives_the_published() -> None:
    body = (HEADLINE + "<p>更新时间：2021-04-01 12:00</p><p>发表于 2020-03-05 10:23</p>"
            f'<div class="content">{ZH_BODY}</div>')
    assert extract(page(body), "https://x.example.com/a/1.html").published == (
        "2020-03-05T10:23:00")


def test_an_edit_date_alone_is_still_the_date() -> None:
    body = HEADLINE + f'<div class="content">{ZH_BODY}</div><div>编辑于 2021-04-01 12:00</div>'
    assert extract(page(body), "https://x.example.com/p/1").published == "2021-04-01T12:00:00"


@pytest.mark.parametrize("shown", [
    '<span class="date">发布时间：03-05</span><span class="time">10:23</span>',  # time apart
    "<span>发布日期：3月5日</span>",
])
def test_a_labelled_date_without_year_or_time_takes_the_urls_year(shown: str) -> None:
    a = extract(page(YEARLESS.format(shown=shown, footer="")),
                "https://news.example.com/a/20200305/123.html")
    assert a.published == "2020-03-05"


def test_a_score_after_a_label_with_its_time_is_still_read_with_the_time() -> None:
    a = extract(page(YEARLESS.format(shown="发布时间：03-05 10:23", footer="")),
                "https://news.example.com/a/20200305/123.html")
    assert a.published == "2020-03-05T10:23:00"


def test_full_width_digits_are_read() -> None:
    a = extract(page(YEARLESS.format(shown="发布时间：２０２０年３月５日", footer="")),
                "https://news.example.com/a/123.html")
    assert a.published == "2020-03-05"


# --- the address: a day in the URL, and the page's own address when read without one --------


@pytest.mark.parametrize("url", ["https://news.example.com/a/20200305/123.html",
                                 "https://news.example.com/c/2020-03-05/doc-abc.shtml",
                                 "https://news.example.com/n1/2020/0305/c1-123.html"])
def test_a_page_showing_no_date_is_dated_by_the_day_its_url_files_it_under(url: str) -> None:
    a = extract(page(YEARLESS.format(shown="", footer="")), url)
    assert a.published == "2020-03-05"


def test_a_number_in_the_url_is_no_date() -> None:
    a = extract(page(YEARLESS.format(shown="", footer="")),
                "https://news.example.com/a/202003051234.html")
    assert a.published is None


@pytest.mark.parametrize("declares", [
    '<link rel="canonical" href="https://news.example.com/a/20200305/123.html">',
    '<meta property="og:url" content="https://news.example.com/2020/03/05/123.html">',
])
def test_a_page_read_without_its_url_takes_the_address_it_declares(declares: str) -> None:
    html = page(YEARLESS.format(shown="03-05 10:23", footer="")).replace(
        "</head>", declares + "</head>")
    assert extract(html, "").published == "2020-03-05T10:23:00"
