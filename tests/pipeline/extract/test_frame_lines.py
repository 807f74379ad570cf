"""The lines that frame an article and those that only look like it (issue 27): each page is
written here."""

from __future__ import annotations

from pipeline.extract import extract
from tests.pipeline.extract.pages import PROSE, ZH_PROSE, article_page

URL = "https://news.example.com/2019/02/river-rises.html"


def test_the_heading_of_a_list_of_links_chrome_removal_cut_goes_with_it() -> None:
    """A box whose content word ("story") saved it from chrome removal, left holding only
    the heading of the links that went."""
    box = ('<div class="story-feature related"><h2>Related Stories</h2>'
           '<ul class="related-links-list">'
           '<li><a href="/a">Flood defences tested again as the river rises</a></li>'
           '<li><a href="/b">Bridge repairs to cost more than planned</a></li>'
           '<li><a href="/c">Town council asks for help with the clean-up</a></li></ul></div>')
    body = f"<p>{PROSE[0]}</p>{box}" + "".join(f"<p>{p}</p>" for p in PROSE[1:])
    a = extract(article_page(body), URL)
    assert "Related Stories" not in a.text
    assert PROSE[0] in a.text and PROSE[1] in a.text


def test_a_section_heading_beside_a_cut_share_bar_stays() -> None:
    box = ('<div class="section-head"><h2>What the engineers found at dawn</h2>'
           '<div class="social-share"><a href="/share?fb">Share</a></div></div>')
    body = f"<p>{PROSE[0]}</p>{box}" + "".join(f"<p>{p}</p>" for p in PROSE[1:])
    a = extract(article_page(body), URL)
    assert "What the engineers found at dawn" in a.text


def test_a_line_that_is_one_link_into_the_page_frames_the_story() -> None:
    """"Post a comment" above the story, "Back to top" below it: controls, however they link
    (to a place on the page, which counts as no link for the density)."""
    body = ('<p><a href="#comm">发表评论</a></p>' + "".join(f"<p>{p}</p>" for p in PROSE)
            + '<p><a href="#top">Back to top</a></p>')
    a = extract(article_page(body, byline=""), URL)
    assert a.text.startswith(PROSE[0])
    assert a.text.endswith(PROSE[-1])


# A story of the 2000s in a table layout: its first paragraph bare in the cell, the next ones
# opened by <P>s that are never closed, as the editors of the time wrote them.
ZH_URL = "http://news.example.cn/2005/07/18/bridge.htm"
ZH_DATED = "两轮谈判2004年9月，双方第一次在广州见面。"


def zh_table_page(cell: str) -> str:
    return f"""<html><head><meta charset="utf-8"><title>老桥封闭 河水上涨_新闻中心</title></head>
<body><table width="760"><tr><td class="nav"><a href="/">首页</a> | <a href="/news">新闻</a>
| <a href="/sports">体育</a></td></tr>
<tr><td><div class="Heading">老桥封闭 河水上涨</div></td></tr>
<tr><td class="Content">{cell}</td></tr>
<tr><td class="copy">版权所有 新闻中心</td></tr></table></body></html>"""


def test_a_dated_paragraph_after_the_bare_first_one_is_the_storys() -> None:
    """The head trim judges the lines the article opens with; a short paragraph naming a date
    after the first paragraph (bare in its cell) is behind the head, not a date line."""
    cell = (f"　　{ZH_PROSE[0]}<P>　　{ZH_DATED}<P>　　{ZH_PROSE[1]}"
            f"<P>　　{ZH_PROSE[2]}")
    a = extract(zh_table_page(cell), ZH_URL)
    assert ZH_DATED in a.text
    assert a.text.startswith(ZH_PROSE[0]) and a.text.rstrip().endswith(ZH_PROSE[2])


def test_the_date_and_source_lines_before_the_bare_first_paragraph_still_go() -> None:
    """Lines before the story's first words are its head, as they were; a bare date run among
    them is passed over like a date line (it stays: it is no block of its own to cut)."""
    cell = (f"<P>2005-07-18 13:03 来源：本报</P>　　{ZH_PROSE[0]}<P>　　{ZH_DATED}"
            f"<P>　　{ZH_PROSE[1]}<P>　　{ZH_PROSE[2]}")
    a = extract(zh_table_page(cell), ZH_URL)
    assert "来源" not in a.text and ZH_DATED in a.text
    bare_date = (f"2005-07-18 13:03<P>来源：本报</P><P>　　{ZH_PROSE[0]}</P>"
                 f"<P>　　{ZH_PROSE[1]}<P>　　{ZH_PROSE[2]}")
    assert "来源" not in extract(zh_table_page(bare_date), ZH_URL).text


def test_a_bare_name_or_link_run_is_no_sentence_and_the_head_goes_on() -> None:
    """Bare words that are no sentence (the author's name, a row of section links) do not
    end the head: the date line after them still goes."""
    for bare in ("王小明", '<a href="/a">要闻</a> | <a href="/b">财经</a> |'):
        cell = (f"{bare}<P>2005-07-18 13:03 来源：本报</P><P>　　{ZH_PROSE[0]}"
                f"<P>　　{ZH_PROSE[1]}<P>　　{ZH_PROSE[2]}")
        a = extract(zh_table_page(cell), ZH_URL)
        assert "来源" not in a.text and ZH_PROSE[0] in a.text
