"""Pick content: a selector named by ids and classes, found on the site's other pages too."""

from __future__ import annotations

import pytest

from pipeline.extract import extract
from pipeline.extract.dom import parse
from pipeline.extract.suggest import (
    element_tree,
    looks_generated,
    selector_for_element,
    suggest,
)
from pipeline.rules.findings import Reason
from pipeline.rules.model import SiteRules

PAGE = """<html><body><div id="nav">Home News</div>
<div class="wrap"><div class="wrap"><article class="post-body entry">
<h1>Title</h1><p>The first paragraph of the article, long enough to matter.</p>
<p>And its closing paragraph, which ends the piece.</p></article></div></div>
<div class="comments">Nice!</div></body></html>"""


def test_suggested_selector_is_unique_and_holds_the_text() -> None:
    text = ("The first paragraph of the article, long enough to matter.\n"
            "And its closing paragraph, which ends the piece.")
    assert suggest(PAGE, text).selector == "article.post-body"
    assert suggest(PAGE, "nothing on this page at all, not one word").selector is None
    assert suggest(PAGE, "short").reason_code is Reason.NOT_ON_PAGE


# --- a portal: one template, five articles ------------------------------------------------------

_STORIES = [
    ("news", "Harbour bridge reopens after repairs", "Workers on the northern span.", [
        "The harbour bridge reopened to traffic on Monday morning after eight months of "
        "repairs, the city's transport office said, ahead of schedule and under budget.",
        "Engineers replaced the cables on the northern span and resurfaced the deck, work "
        "that had been delayed twice by storms during the winter.",
        "Commuters who had used the ferry since March said the crossing now took ten minutes "
        "instead of forty, and shops on the quay expected more visitors.",
    ]),
    ("sport", "Rowing club wins the river cup", "The crew at the finish line.", [
        "The university rowing club won the river cup on Saturday for the first time in "
        "twelve years, beating the defending champions by half a length.",
        "The crew trained through the winter on borrowed boats after their boathouse flooded, "
        "and their coach said the win belonged to the volunteers who rebuilt it.",
        "The club plans to enter the national regatta in June and is raising money for a new "
        "eight, which costs more than the club's whole yearly budget.",
    ]),
    ("news", "Old library to become a museum", "The reading room in 1930.", [
        "The council voted on Tuesday to turn the old central library into a museum of the "
        "city's history, two years after the books moved to the new building.",
        "The reading room, with its painted ceiling and iron galleries, will be restored and "
        "opened to visitors, while the stacks become storage for the collections.",
        "Work is to start in the autumn and take about three years, paid for by a national "
        "heritage grant and donations from local firms.",
    ]),
    ("money", "Bakery chain opens its tenth shop", "Queues on the first morning.", [
        "A family bakery that started with one oven in a garage opened its tenth shop on "
        "Wednesday, in the former bank on the market square.",
        "The owners said demand for their rye bread had grown every year since they began "
        "selling at the Saturday market, and that they now employ sixty people.",
        "They will not open more shops for now, they said, because every loaf is still shaped "
        "by hand and they do not want to change that.",
    ]),
    ("news", "Night buses return to the east side", "A night bus on Station Road.", [
        "Night buses will run again on the east side from next month, the transport office "
        "said, after residents collected four thousand signatures asking for them.",
        "The service was cut three years ago to save money, leaving shift workers at the "
        "hospital and the port with no way home after midnight.",
        "Two routes will run every half hour from midnight to five, and a third is planned if "
        "enough people use the first two during the trial.",
    ]),
]


def _portal_page(i: int) -> str:
    """A page of the portal: chrome around ``div.content``, which holds the headline, a
    date line, a captioned picture, an ad, a paragraph of <br> runs and an editor's credit."""
    category, title, caption, paras = _STORIES[i]
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8">
<title>{title} - {category.title()} - Portal</title></head><body>
<div class="header"><div class="logo"><a href="/">Portal</a></div>
<ul class="nav"><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li>
<li><a href="/money">Money</a></li></ul></div>
<div class="crumbs"><a href="/">Home</a> &gt; <a href="/{category}">{category.title()}</a></div>
<div class="main clearfix">
 <div class="left">
  <div class="article-{category} content" id="c-8372{i + 1}">
   <h1>{title}</h1>
   <div class="info"><span class="time">2024-03-0{i + 1} 10:00</span>
    <span class="source">Source: Daily</span></div>
   <p>PORTAL, March {i + 1} (Daily) -</p>
   <div class="pic"><img src="/img/{i}.jpg"><p class="caption">{caption}</p></div>
   <p>{paras[0]}</p>
   <p>{paras[1]}</p>
   <div class="ad"><script>show_ad("{i}")</script>
    <a href="/ads/1">Buy a new car today at low rates</a></div>
   <p>{paras[2]}<br><br>Readers can send their views to the letters page.<br><br>
   More on this story in tomorrow's paper.</p>
   <p class="editor">(Editor: Wang)</p>
  </div>
  <div class="share"><a href="/s/wb">Weibo</a> <a href="/s/wx">WeChat</a></div>
  <div class="related"><h3>Related</h3><ul>
   <li><a href="/a1">Ferry timetable changes again this spring</a></li>
   <li><a href="/a2">City budget for roads approved after long debate</a></li></ul></div>
 </div>
 <div class="right sidebar"><h3>Most read</h3><ul>
  <li><a href="/r1">Ten things about the bridge you never knew</a></li>
  <li><a href="/r2">Where to eat near the market square this week</a></li></ul></div>
</div>
<div class="footer"><p>Copyright 2024 Portal. <a href="/about">About</a></p></div>
</body></html>"""


PORTAL = [_portal_page(i) for i in range(len(_STORIES))]


def _compact(text: str) -> str:
    return "".join(text.split())


def _text(html: str) -> str:
    return extract(html, "https://portal.example/news/1.html").text


def test_pick_content_on_the_portal_page_matches_the_article_on_all_its_pages() -> None:
    text = _text(PORTAL[0])
    # What the head-and-tail search missed: the extracted text starts with a short date line
    # whose next paragraph, in the page, comes after a captioned picture the text leaves out.
    assert text.startswith("PORTAL, March 1 (Daily) -\nThe harbour bridge")
    got = suggest(PORTAL[0], text, PORTAL)
    assert got.selector == "div.content"
    assert (got.matched_pages, got.site_pages) == (5, 5)
    assert got.reason_code is Reason.WHOLE and got.reason == "holds the whole article"
    assert got.share == 1.0
    assert got.path == "/html/body/div[3]/div[1]/div[1]"
    assert suggest(PORTAL[0], text).selector is not None  # the head-and-tail search gave None
    rules = SiteRules(content_selector=got.selector)
    for html in PORTAL:  # the rule finds, on every page, all the extractor found there
        ruled = extract(html, "https://portal.example/a.html", rules)
        assert ruled.method == "rules"
        assert all(_compact(line) in _compact(ruled.text) for line in _text(html).splitlines())


def test_site_pages_decide_between_the_elements_class_names() -> None:
    text = _text(PORTAL[0])
    # On its own the page cannot tell its section's class from the template's.
    alone = suggest(PORTAL[0], text)
    assert alone.selector == "div.article-news"
    assert (alone.matched_pages, alone.site_pages) == (0, 0)
    # Across the site, only div.content finds the article on every page (three are news).
    news = [PORTAL[i] for i in (0, 2, 4)]
    assert suggest(PORTAL[0], text, news).selector == "div.article-news"
    assert suggest(PORTAL[0], text, PORTAL).selector == "div.content"


@pytest.mark.parametrize(("name", "generated"), [
    ("c-83724", True), ("post-1234", True), ("ember1234", True), ("css-1q2w3e", True),
    ("Body__3xK9z", True), ("a1b2", True), ("sc-bdVaJa", True),
    ("content", False), ("artibody", False), ("col-md-8", False), ("main-content", False),
    ("h2", False), ("content2", False),
])
def test_names_a_program_made_up_are_recognised(name: str, generated: bool) -> None:
    assert looks_generated(name) is generated


def test_an_element_named_only_by_a_generated_id_is_scoped_by_its_ancestor() -> None:
    html = f"""<html><body><div id="menu"><a href="/">Home</a></div>
<div class="story"><div id="c-83724"><p>{_STORIES[0][3][0]}</p><p>{_STORIES[0][3][1]}</p></div>
<p class="more">{_STORIES[1][3][0]}</p></div></body></html>"""
    text = f"{_STORIES[0][3][0]}\n{_STORIES[0][3][1]}"
    got = suggest(html, text)
    assert got.selector == "div.story div"
    assert got.reason_code is Reason.WHOLE


def test_an_article_split_across_two_siblings_gets_the_larger_part_and_says_so() -> None:
    paras = _STORIES[2][3] + _STORIES[3][3][:1]
    ads = "".join(f"<li><a href='/x{i}'>Offer number {i} for our readers</a></li>"
                  for i in range(6))
    html = f"""<html><body><div class="top">Portal</div>
<div class="story-a"><p>{paras[0]}</p><p>{paras[1]}</p><p>{paras[2]}</p></div>
<ul class="offers">{ads}</ul>
<div class="story-b"><p>{paras[3]}</p></div>
<div class="bottom">Copyright</div></body></html>"""
    got = suggest(html, "\n".join(paras))
    assert got.selector == "div.story-a"
    assert got.reason_code is Reason.SPLIT
    assert 0.6 < got.share < 0.9
    assert got.reason.startswith("no single element holds the whole article: this one holds ")
    assert got.reason.endswith(f"{got.share:.0%} of its text")


def test_picking_an_element_in_the_tree_names_it_by_its_classes() -> None:
    text = _text(PORTAL[0])
    tree = element_tree(PORTAL[0])
    content = next(n for n in tree if "content" in n.classes)
    assert (content.tag, content.id, content.classes) == ("div", "c-83721",
                                                          ("article-news", "content"))
    parent = next(n for n in reversed(tree[:tree.index(content)]) if n.depth < content.depth)
    assert content.depth == parent.depth + 1 and content.path.startswith(parent.path + "/")
    assert all(n.chars >= 50 for n in tree)
    assert not any(n.tag == "ul" and "nav" in n.classes for n in tree)  # too little text

    got = selector_for_element(PORTAL[0], content.path, PORTAL, text)
    assert got.selector == "div.content"
    assert (got.matched_pages, got.site_pages, got.reason_code) == (5, 5, Reason.WHOLE)
    assert got.path == content.path

    paragraph = next(n for n in tree if n.tag == "p" and n.path.startswith(content.path))
    none = selector_for_element(PORTAL[0], paragraph.path, PORTAL)
    # a paragraph without a class of its own has no name but its position: none is made up
    assert none.selector is None and none.reason_code is Reason.NO_SELECTOR
    assert selector_for_element(PORTAL[0], "/html/body/div[9]").reason_code is Reason.NO_ELEMENT


def test_a_pick_is_named_by_the_path_dom_parse_gives_it() -> None:
    root = parse(PORTAL[1])
    left = root.xpath("//div[@class='left']")[0]
    got = selector_for_element(PORTAL[1], root.getroottree().getpath(left), PORTAL,
                               _text(PORTAL[1]))
    assert got.selector == "div.left"
    assert got.reason_code is Reason.WHOLE  # the article, with only a related list besides
    caption = root.xpath("//div[@class='pic']")[0]
    pic = selector_for_element(PORTAL[1], root.getroottree().getpath(caption), PORTAL,
                               _text(PORTAL[1]))
    assert pic.selector == "div.pic"
    assert pic.reason_code is Reason.PART and pic.share == 0.0
    assert pic.matched_pages == 0  # a caption is no article on any page
    assert "nth-child" not in (got.selector or "") + (pic.selector or "")


def test_a_wrapper_holding_the_same_text_names_an_unnamed_pick() -> None:
    html = f"""<html><body><div class="nav"><a href="/">Home</a></div>
<div class="entry"><div><div><p>{_STORIES[4][3][0]}</p><p>{_STORIES[4][3][1]}</p></div></div></div>
<div class="page"><div class="entry-list"><p>{_STORIES[3][3][2]}</p></div></div></body></html>"""
    inner = "/html/body/div[2]/div/div"  # div.entry div finds its parent too; nothing else
    assert selector_for_element(html, "/html/body/div[2]/div").selector == "div.entry > div"
    got = selector_for_element(html, inner)
    assert got.selector == "div.entry" and got.path == "/html/body/div[2]"
    assert got.reason_code is Reason.PICKED and got.share == 0.0


def test_a_pick_holding_the_page_more_than_the_article_says_so() -> None:
    lines = "".join(f"<li><a href='/x{i}'>Another headline from the archive, number {i}</a></li>"
                    for i in range(12))
    html = f"""<html><body><div class="page"><div class="story"><p>{_STORIES[0][3][0]}</p></div>
<ul class="list">{lines}</ul></div></body></html>"""
    got = selector_for_element(html, "/html/body/div", article_text=_STORIES[0][3][0])
    assert got.selector == "div.page" and got.reason_code is Reason.WIDE
    assert got.reason.startswith("holds the whole article, but ")


def test_an_element_nearly_as_good_that_the_whole_site_has_wins() -> None:
    # A photo post: its text is one long caption. The caption box holds it and nothing else,
    # but only the post body is on every page of the site.
    caption = " ".join(_STORIES[1][3])
    photo = f"""<html><body><div class="menu"><a href="/">Home</a></div>
<div class="entry-content"><div class="wp-caption"><img src="/a.jpg">
<p class="wp-caption-text">{caption}</p></div><p>Photo: the club.</p></div></body></html>"""
    others = [f"""<html><body><div class="menu"><a href="/">Home</a></div>
<div class="entry-content">{"".join(f"<p>{p}</p>" for p in story[3])}</div></body></html>"""
              for story in _STORIES[2:]]
    assert suggest(photo, caption).selector == "p.wp-caption-text"
    got = suggest(photo, caption, [photo, *others])
    assert got.selector == "div.entry-content"
    assert (got.matched_pages, got.site_pages, got.reason_code) == (4, 4, Reason.WHOLE)


def test_paragraphs_standing_in_the_body_have_no_element_to_name() -> None:
    paras = _STORIES[0][3] + _STORIES[1][3][:1]
    html = f"<html><body>{''.join(f'<p>{p}</p>' for p in paras)}</body></html>"
    got = suggest(html, "\n".join(paras))
    assert got.selector is None and got.reason_code is Reason.IN_BODY


def test_a_wrapper_holding_the_article_and_a_long_list_is_proposed_and_said_to_be_wide() -> None:
    # Text an element misses no rule brings back; a list it holds besides, a strip rule removes.
    paras = _STORIES[2][3] + _STORIES[3][3][:2]
    links = "".join(f"<li><a href='/x{i}'>Another headline from our archive, number {i}</a></li>"
                    for i in range(16))
    html = f"""<html><body><div class="top">Portal</div><div class="main">
<div class="story-a">{"".join(f"<p>{p}</p>" for p in paras[:3])}</div>
<ul class="more">{links}</ul>
<div class="story-b">{"".join(f"<p>{p}</p>" for p in paras[3:])}</div></div>
<div class="bottom">Copyright</div></body></html>"""
    got = suggest(html, "\n".join(paras))
    assert got.selector == "div.main" and got.reason_code is Reason.WIDE
    assert got.share == 1.0


def test_a_line_a_strip_rule_cut_short_is_still_found_in_its_paragraph() -> None:
    long, short = " ".join(_STORIES[4][3]), _STORIES[0][3][0]
    cut = len(long) // 2
    html = f"""<html><body><div class="nav"><a href="/">Home</a></div><div class="text">
<h1>Night buses</h1><p>{long[:cut]} <span class="inline-ad">Advertisement</span>{long[cut:]}</p>
<p>{short}</p></div><div class="foot">Copyright</div></body></html>"""
    text = extract(html, "https://x.example/", SiteRules(strip=("span.inline-ad",))).text
    assert "Advertisement" not in text
    got = suggest(html, text)  # the page as it is, without the strip rule
    assert got.selector == "div.text"
    assert (got.reason_code, got.share) == (Reason.WHOLE, 1.0)
