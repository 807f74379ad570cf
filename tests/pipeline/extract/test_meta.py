"""The title vote of meta.gather + meta.resolve, one small hand-written page per kind of page
(portal, blog, forum, English news, a page with only a <title>), directly and through extract()."""

from __future__ import annotations

import dataclasses
import re

import pytest

from pipeline.extract import extract, meta
from pipeline.extract.dom import parse
from pipeline.extract.meta.text import text_key, word_chars
from pipeline.extract.meta.title import DEFAULT_TITLE, TitleOptions
from tests.pipeline.extract.pages import PROSE, ZH_PROSE

ZH_BODY = "".join(f"<p>{p}</p>" for p in ZH_PROSE)
EN_BODY = "".join(f"<p>{p}</p>" for p in PROSE)


def page(title: str, body: str, head: str = "") -> str:
    return (f'<html><head><meta charset="utf-8"><title>{title}</title>{head}</head>'
            f"<body>{body}</body></html>")


def choose(html: str, url: str = "", options: TitleOptions = DEFAULT_TITLE) -> str:
    """The title as the engine gets it: gather on the whole tree, resolve once the article's
    first text element is known (here: the first <p> of the content block)."""
    root = parse(html)
    facts = meta.gather(root)
    start = root.find(".//div[@class='content']//p")
    assert start is not None
    return meta.resolve(facts, url, start, options).title


# --- portals -------------------------------------------------------------------------------

PORTAL = (
    '<div class="logo"><a href="/"><img src="/logo.png" alt="示例网"></a></div>'
    '<div class="nav"><a href="/">首页</a> <a href="/news/">新闻中心</a>'
    ' <a href="/mil/">军事</a></div>'
    '<div class="position">当前位置：<a href="/">首页</a> -&gt; <a href="/news/">新闻中心</a>'
    " -&gt; 正文</div>"
    "{headline}"
    '<div class="info">发布时间：2019-02-20 02:26 来源：示例网</div>'
    '<div class="content">{body}</div>'
    '<div class="footer">Copyright 示例网 版权所有</div>'
)


def test_portal_headline_not_breadcrumb_nor_site_suffix_nor_page_marker() -> None:
    html = page("老桥因河水上涨关闭(第2页)_新闻中心_示例网",
                PORTAL.format(headline="<h1>老桥因河水上涨关闭（第2页）</h1>", body=ZH_BODY))
    assert choose(html) == "老桥因河水上涨关闭"
    a = extract(html, "http://news.example.cn/2019/02/20/1.html")
    assert a.title == "老桥因河水上涨关闭"
    assert a.published == "2019-02-20T02:26:00"


def test_portal_without_headline_markup_takes_the_title_segment() -> None:
    html = page("老桥因河水上涨关闭_新闻中心_示例网", PORTAL.format(headline="", body=ZH_BODY))
    assert choose(html) == "老桥因河水上涨关闭"


def test_breadcrumb_styled_as_title_next_to_the_article_is_not_the_headline() -> None:
    body = (
        '<div class="art_title">歼-20换装国产发动机</div>'
        '<div class="title_bar">当前位置：首页->军事技术</div>'
        f'<div class="content">{ZH_BODY}</div>'
    )
    assert choose(page("军事技术_示例网", body)) == "歼-20换装国产发动机"


def test_syndicated_original_headline_line_is_not_the_title() -> None:
    body = ('<div class="content"><p class="otitle">（原标题：老桥因河水上涨而关闭）</p>'
            f"{ZH_BODY}</div>")
    root = parse(page("老桥因河水上涨关闭_示例网", body))
    facts = meta.gather(root)
    start = root.find(".//p[@class='otitle']")  # the engine's start is that line
    assert meta.resolve(facts, "", start).title == "老桥因河水上涨关闭"


def test_headline_broken_over_two_bold_runs_is_read_whole() -> None:
    body = (
        "<table><tr><td><b>吉林省人民政府关于禁止在嫩江干流</b>"
        "<b>新增建设项目和迁入人口的通告</b></td></tr></table>"
        f'<div class="content">{ZH_BODY}</div>'
    )
    html = page("吉林省人民政府关于禁止在嫩江干流新增建设项目和迁入人口的通告", body)
    assert choose(html) == "吉林省人民政府关于禁止在嫩江干流新增建设项目和迁入人口的通告"


def test_separators_left_at_the_title_end_are_cut() -> None:
    # The template's site name went missing and left its separators behind.
    html = page('谁来为无序拆房"埋单"？- -', f'<div class="content">{ZH_BODY}</div>')
    assert choose(html) == '谁来为无序拆房"埋单"？'
    html = page("老桥为什么关闭_", f'<div class="content">{ZH_BODY}</div>')
    assert choose(html) == "老桥为什么关闭"
    # … but an identifier's underscores are its own
    html = page("", f'<h1>Python 的 __init__</h1><div class="content">{ZH_BODY}</div>')
    assert choose(html) == "Python 的 __init__"


CSDN_LIKE = (
    '<div class="toolbar"><a href="https://www.example.net/">示例</a>'
    ' <a href="/blog">博客</a></div>'
    '<div class="article-title-box"><h1 class="title-article">{headline}</h1></div>'
    '<div class="article-info-box"><span class="time">{dateline}</span>'
    ' <a href="/u">张三</a> <span>阅读数 1234</span></div>'
    '<article><div class="content">{body}</div></article>'
    '<div class="aside"><h3>最新文章</h3><ul><li><a href="/a">一个老朋友</a></li></ul></div>'
)


@pytest.mark.parametrize("headline", ["Vue 3.0 正式发布", "Python 获取当前日期和时间的方法"])
def test_empty_title_leaves_the_visible_headline_even_when_it_says_a_date_word(
    headline: str,
) -> None:
    # 发布 and 日期 are words of headlines too; only a label with its colon makes a dateline.
    html = page("", CSDN_LIKE.format(headline=headline, dateline="2019-02-20 02:26:00",
                                     body=ZH_BODY))
    assert choose(html, "https://blog.example.net/u/article/details/123") == headline


def test_dateline_styled_as_a_headline_is_not_the_title() -> None:
    body = CSDN_LIKE.format(headline="老桥为什么关闭", dateline="", body=ZH_BODY)
    body = body.replace("<h1 ", "<div ").replace("</h1>", "</div>")
    body = "<h2>发布时间：2019-02-20</h2>" + body
    assert choose(page("", body), "https://blog.example.net/u/article/details/123") != (
        "发布时间：2019-02-20")


# --- blogs and channels ----------------------------------------------------------------------

BLOG_URL = "http://bjreader.blog.example.com/blog/static/2019.html"
BLOG = (
    '<div id="blogTitle"><h1><a href="http://bjreader.blog.example.com/">bjreader的博客</a></h1>'
    "<p>读书、写字、过日子</p></div>"
    '<div class="post"><h2 class="post-title">读书笔记：老桥的故事</h2>'
    '<p class="meta">2019-02-20 02:26</p>'
    '<div class="content">{body}</div></div>'
    '<div class="sidebar"><h3>最新文章</h3><ul><li><a href="/a">一个老朋友</a></li></ul></div>'
)


def test_blog_post_title_not_blog_name() -> None:
    html = page("读书笔记：老桥的故事 - bjreader的博客 - 示例博客", BLOG.format(body=ZH_BODY))
    assert choose(html, BLOG_URL) == "读书笔记：老桥的故事"
    assert extract(html, BLOG_URL).title == "读书笔记：老桥的故事"


def test_blog_whose_title_names_only_the_blog() -> None:
    html = page("bjreader的博客", BLOG.format(body=ZH_BODY))
    assert choose(html, BLOG_URL) == "读书笔记：老桥的故事"


def test_blog_name_without_a_home_link_is_still_a_blog_name() -> None:
    body = ('<div class="header"><h1>bjreader的博客</h1></div>'
            f'<h2>读书笔记：老桥的故事</h2><div class="content">{ZH_BODY}</div>')
    assert choose(page("bjreader的博客", body)) == "读书笔记：老桥的故事"


@pytest.mark.parametrize("title", ["世艺网>艺术教育", "首页 » 艺术教育", "示例网->艺术教育"])
def test_breadcrumb_title_is_never_the_title(title: str) -> None:
    body = ('<div class="menu"><a href="/edu/">艺术教育</a></div>'
            f'<p><b>老桥明天重新开放</b></p><div class="content">{ZH_BODY}</div>')
    assert choose(page(title, body)) == "老桥明天重新开放"
    # … nor is the breadcrumb shown as a heading
    body = f'<h2>{title.replace(">", "&gt;")}</h2>' + body
    assert choose(page(title, body)) == "老桥明天重新开放"


def test_breadcrumb_title_ending_in_the_story_gives_the_story() -> None:
    html = page("世艺网>艺术教育>老桥明天重新开放", f'<div class="content">{ZH_BODY}</div>')
    assert choose(html) == "老桥明天重新开放"


def test_blog_name_then_a_short_post_title_agrees_with_the_visible_heading() -> None:
    # "Blog › Post": the post's title may be as short as a name; the heading shown confirms it.
    body = ('<h1><a href="/">Free Range Reader</a></h1><h2>Our un-hire</h2>'
            f'<div class="content">{EN_BODY}</div>')
    assert choose(page("Free Range Reader › Our un-hire", body)) == "Our un-hire"


def test_channel_name_in_the_logo_is_not_the_headline() -> None:
    # Its link to a home page names it, whatever the host (the benchmark gives no URL).
    body = (
        '<h1 class="logo"><a href="http://ent.example.com/">示例娱乐</a></h1>'
        '<div class="nav"><a href="/star/">明星</a> <a href="/tv/">电视</a></div>'
        '<h2 class="main-title">老桥明天重新开放</h2>'
        f'<div class="content">{ZH_BODY}</div>'
    )
    assert choose(page("示例娱乐", body)) == "老桥明天重新开放"


def test_channel_name_repeated_in_the_head_and_breadcrumb_is_not_the_headline() -> None:
    # The <title> says only the channel; the page shows it twice more, linking to the
    # channel's page (not a home page), and the story's headline is in plain bold.
    body = (
        '<div class="channel"><a href="/ent/index.html">示例娱乐</a></div>'
        '<div class="crumb"><a href="/index.html">示例首页</a> &gt; '
        '<a href="/ent/index.html">示例娱乐</a> &gt; 正文</div>'
        "<p><b>老桥明天重新开放</b></p>"
        '<div class="info">2019-02-20 02:26 来源：示例娱乐</div>'
        f'<div class="content">{ZH_BODY}</div>'
    )
    assert choose(page("示例娱乐", body)) == "老桥明天重新开放"


def test_short_headline_declared_in_json_ld_may_repeat() -> None:
    # A page about a place names it everywhere: what JSON-LD declares is still the article's.
    head = ('<script type="application/ld+json">{"@type": "Article", "name": "New Zealand"}'
            "</script>")
    body = ('<h1>New Zealand</h1><table class="infobox"><tr><th>New Zealand</th></tr></table>'
            f'<div class="content">{EN_BODY}</div><p><a href="/wiki/NZ">New Zealand</a></p>')
    assert choose(page("New Zealand - Wikipedia", body, head)) == "New Zealand"


def test_domain_suffix_without_spaces_is_cut() -> None:
    html = page("Spring Boot 2.0 教程 Part3-CSDN.NET", f'<div class="content">{ZH_BODY}</div>')
    assert choose(html) == "Spring Boot 2.0 教程 Part3"
    assert extract(html, "https://blog.example.net/a/1").title == "Spring Boot 2.0 教程 Part3"


def test_forum_topic_line() -> None:
    body = (
        '<table><tr><td class="large"><b>主题：</b> 老桥为什么关闭了？</td></tr>'
        '<tr><td>作者：老王 时间：2019-02-20 02:26</td></tr></table>'
        f'<div class="content">{ZH_BODY}</div>'
    )
    assert choose(page("CCTV.com- 示例论坛 :: null", body)) == "老桥为什么关闭了？"


def test_welcome_title_names_the_site() -> None:
    body = f'<b>茉莉：老桥的故事</b><div class="content">{ZH_BODY}</div>'
    assert choose(page("谢谢您访问〖示例中心〗", body)) == "茉莉：老桥的故事"


# --- English news --------------------------------------------------------------------------

NEWS = (
    '<header><a href="/" class="logo">The Daily Example</a><nav><a href="/">Home</a>'
    ' <a href="/world">World</a> <a href="/sport">Sport</a></nav></header>'
    "{headline}"
    '<p class="byline">By Jane Roe</p>'
    '<div class="content">{body}</div>'
    '<aside><h2>Most read</h2><h3><a href="/x">Ten things you missed this week</a></h3></aside>'
    "<footer><b>The Daily Example</b> Copyright 2019</footer>"
)


def test_english_news_og_title_and_title_differ_the_visible_one_they_agree_on_wins() -> None:
    head = '<meta property="og:title" content="Mayor resigns after audit">'
    html = page("Mayor quits amid audit row | The Daily Example",
                NEWS.format(headline="<h1>Mayor resigns after audit</h1>", body=EN_BODY), head)
    assert choose(html) == "Mayor resigns after audit"
    assert extract(html, "https://daily.example/2019/mayor").title == "Mayor resigns after audit"


def test_og_title_site_suffix_is_cut_when_nothing_visible_confirms_it() -> None:
    head = ('<meta property="og:title" content="Mayor resigns after audit | The Daily Example">'
            '<meta property="og:site_name" content="The Daily Example">')
    html = page("The Daily Example", NEWS.format(headline="", body=EN_BODY), head)
    assert choose(html) == "Mayor resigns after audit"


def test_site_name_title_repeated_in_logo_and_footer_loses_to_the_headline() -> None:
    headline = '<span class="headline">Skating champion dies at 40</span>'
    html = page("The Daily Example", NEWS.format(headline=headline, body=EN_BODY))
    assert choose(html, "https://daily.example/2008/01/skating.html") == (
        "Skating champion dies at 40")


def test_page_marker_and_permalink_mark_are_cut() -> None:
    headline = "<h1>River rises, old bridge closed (2/3)¶</h1>"
    html = page("River rises, old bridge closed - Page 2 | The Daily Example",
                NEWS.format(headline=headline, body=EN_BODY))
    assert choose(html) == "River rises, old bridge closed"


def test_only_candidate_is_the_title() -> None:
    html = page("Only the title names this page – Example Site",
                f'<div class="content">{EN_BODY}</div>')
    assert choose(html) == "Only the title names this page"


def test_json_ld_article_headline_beats_an_unconfirmed_heading() -> None:
    head = ('<script type="application/ld+json">{"@context": "https://schema.org", '
            '"@type": "NewsArticle", "headline": "Bridge reopens after repairs"}</script>'
            '<script type="application/ld+json">{"@type": "WebSite", "name": "Example"}</script>')
    html = page("Example", f'<h1>Lorem</h1><div class="content">{EN_BODY}</div>', head)
    assert choose(html) == "Bridge reopens after repairs"


def test_dc_title_property_list_is_read() -> None:
    head = '<meta property="x:title dc:title" content="Declared in Dublin Core">'
    html = page("Title element", f'<h1>Test document</h1><div class="content">{EN_BODY}</div>',
                head)
    assert choose(html) == "Declared in Dublin Core"


# --- options -------------------------------------------------------------------------------


def test_title_options_are_frozen_and_change_the_vote() -> None:
    html = page("Base URL test", f'<h1>Lorem</h1><div class="content">{EN_BODY}</div>')
    assert choose(html) == "Base URL test"  # a one-word heading agreeing with nothing: a label
    trusting_headings = dataclasses.replace(DEFAULT_TITLE, declared_title=-1.0)
    assert choose(html, options=trusting_headings) == "Lorem"
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_TITLE.near = 0.0  # type: ignore[misc]


def test_no_candidate_gives_the_url_slug() -> None:
    html = '<html><body><div class="content"><p>x</p></div></body></html>'
    assert choose(html, "https://x.example/news/old-bridge-closed.html") == "old bridge closed"


@pytest.mark.parametrize("text", [
    *map(chr, range(128)), "Read more »", "snake_case and CamelCase 2024!", "  \n\t ",
    "Ünïcödé café", "新闻：标题_第2页", "Straße", "ﬁnance", "١٢٣ arabic digits", "x\u200by",
])
def test_word_chars_keeps_exactly_the_letters_and_digits(text: str) -> None:
    """The ASCII shortcut keeps what the pattern over every script keeps (\\w without "_"),
    character for character; title keys compare equal however a title is spelled."""
    assert word_chars(text) == re.sub(r"[\W_]+", "", text)
    assert text_key(text) == re.sub(r"[\W_]+", "", text.casefold())


# --- site names a Chinese <title> joins without the usual separators; badges in a headline ---


@pytest.mark.parametrize("title", [
    "老桥因河水上涨关闭——示例网",  # a double dash before the site (inside a headline: a subtitle)
    "老桥因河水上涨关闭－示例网－中国领先的新闻门户",  # full-width hyphens
    "【示例网】老桥因河水上涨关闭",  # the site in brackets before the headline
])
def test_site_name_joined_the_chinese_way_is_cut_from_a_title_without_headline_markup(
    title: str,
) -> None:
    assert choose(page(title, f'<div class="content">{ZH_BODY}</div>')) == "老桥因河水上涨关闭"


def test_a_headline_with_a_subtitle_after_a_double_dash_keeps_it() -> None:
    title = "老桥因河水上涨关闭——来自东岸居民的报道"
    assert choose(page(title, f'<div class="content">{ZH_BODY}</div>')) == title


@pytest.mark.parametrize("headline", [
    "<h1>老桥因河水上涨关闭<span class=\"article-tag\">原创</span></h1>",
    "<h1>老桥因河水上涨关闭 <em>独家</em></h1>",
    "<h1><span class=\"type\">[转载]</span> 老桥因河水上涨关闭</h1>",
])
def test_a_badge_inside_the_headline_is_not_part_of_the_title(headline: str) -> None:
    html = page("老桥因河水上涨关闭_手机示例网", PORTAL.format(headline=headline, body=ZH_BODY))
    assert choose(html) == "老桥因河水上涨关闭"


def test_a_kicker_before_the_headline_is_kept_when_the_title_has_it_too() -> None:
    html = page("东岸 老桥因河水上涨关闭_示例网",
                PORTAL.format(headline="<h1>东岸 老桥因河水上涨关闭</h1>", body=ZH_BODY))
    assert choose(html) == "东岸 老桥因河水上涨关闭"


def test_a_slogan_after_the_sites_name_is_the_sites_too() -> None:
    html = page("老桥因河水上涨关闭 - 示例网 - 中国领先的中文资讯服务平台",
                f'<div class="content">{ZH_BODY}</div>')
    assert choose(html) == "老桥因河水上涨关闭"


@pytest.mark.parametrize("title", ["(2 封私信 / 80 条消息) 老桥因河水上涨关闭 - 知乎",
                                   "(3) 老桥因河水上涨关闭"])
def test_an_unread_count_before_the_title_is_not_the_title(title: str) -> None:
    assert choose(page(title, f'<div class="content">{ZH_BODY}</div>')) == "老桥因河水上涨关闭"


def test_an_english_title_ending_with_the_post_after_the_sites_name_keeps_the_post() -> None:
    # "Site - Blog - Post" (Squarespace): the parts after the site's name are the headline's.
    html = page("Wedding Photography - Blue Lily Photo - Blue Lily Blog - A Morning on the Glacier",
                f'<div class="content">{EN_BODY}</div>',
                head='<meta property="og:site_name" content="Blue Lily Photo">')
    assert choose(html) == "A Morning on the Glacier"
