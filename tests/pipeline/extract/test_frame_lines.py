"""The lines that frame an article and those that only look like it (issue 27): each page is
written here."""

from __future__ import annotations

from pipeline.extract import extract
from tests.pipeline.extract.pages import PROSE, article_page

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
