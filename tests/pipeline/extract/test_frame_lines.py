"""The lines that frame an article and those that only look like it (issue 27): each page is
written here."""

from __future__ import annotations

from pipeline.extract import extract
from tests.pipeline.extract.pages import PROSE, ZH_PROSE, article_page

URL = "https://news.example.com/2019/02/river-rises.html"


def test_a_dated_line_after_the_story_has_begun_is_the_story_s_own() -> None:
    """A paragraph that an inline ad table split: its first words stand as a short block of
    their own after the container's opening words, and their date is no date line."""
    body = (f"<table><tr><td class='content'>{ZH_PROSE[0]}"
            "<p>八个月四轮谈判，2004年9月，</p>"
            "<table align='left'><tr><td><script src='/ad.js'></script></td></tr></table>"
            f"双方第一次坐到了一起。<p>{ZH_PROSE[1]}</p><p>{ZH_PROSE[2]}</p></td></tr></table>")
    a = extract(article_page(body, byline=""), URL)
    assert "八个月四轮谈判，2004年9月，" in a.text
    assert ZH_PROSE[2] in a.text


def test_a_time_stamp_written_as_spans_before_the_first_paragraph_is_trimmed() -> None:
    stamp = ('<span class="story-date"><span class="date">5 April 2013</span> '
             '<span class="time-text">Last updated at </span>'
             '<span class="time">08:09 GMT</span></span>')
    body = stamp + "".join(f"<p>{p}</p>" for p in PROSE)
    a = extract(article_page(body, byline=""), URL)
    assert "Last updated" not in a.text
    assert a.text.startswith(PROSE[0])


def test_a_byline_written_as_spans_before_the_first_paragraph_stays() -> None:
    """A byline beside the date is a line some truths keep: only a bare time stamp goes."""
    stamp = ('<span class="posted">Posted by <span class="author">Jane Roe</span> on '
             '5 April 2013 at 08:09</span>')
    body = stamp + "".join(f"<p>{p}</p>" for p in PROSE)
    a = extract(article_page(body, byline=""), URL)
    assert "Posted by Jane Roe" in a.text


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
