"""The scoring functions themselves: measure, score, best_candidate, the junk test, chrome
removal, <br> runs, the baseline. Small trees, exact expectations."""

from __future__ import annotations

from dataclasses import replace

import pytest
from lxml import etree

from pipeline.extract import density
from pipeline.extract.dom import parse, split_br_runs, text_of
from pipeline.extract.options import DEFAULT, ExtractOptions

SENTENCE = "The river rose overnight, and by morning the old bridge was closed to traffic."


def body_of(html: str) -> etree._Element:
    body = parse(html).find("body")
    assert body is not None
    return body


def by_id(root: etree._Element, ident: str) -> etree._Element:
    found = root.xpath(f"//*[@id='{ident}']")
    assert found, ident
    return found[0]


def scored(html: str, opts: ExtractOptions = DEFAULT) -> tuple[etree._Element, dict]:
    body = body_of(html)
    stats = density.measure(body)
    density.score(stats, opts)
    return body, stats


def test_measure_counts_text_links_and_punctuation_bottom_up() -> None:
    body = body_of("<div id='d'><p id='p'>Hello, world. <a href='/x'>a link</a></p>"
                   "<a name='n'>anchor</a> tail</div>")
    stats = density.measure(body)
    p = stats[by_id(body, "p")]
    assert p.chars == len("Hello,world.alink")
    assert p.links == len("alink")  # the <a href> is a link
    assert p.punct == 2 and p.commas == 1
    d = stats[by_id(body, "d")]
    assert d.links == len("alink")  # an <a> without href is text, not a link
    assert d.chars == p.chars + len("anchor") + len("tail")
    assert d.flow == len("anchor") + len("tail")  # the <p> is a block of its own


@pytest.mark.parametrize("href", ["#sec2", "javascript:void(0)"])
def test_links_to_the_same_page_or_a_script_are_text(href: str) -> None:
    body = body_of(f"<p id='p'><a href='{href}'>Section two</a> follows here.</p>")
    assert density.measure(body)[by_id(body, "p")].links == 0


def test_score_prefers_prose_to_a_link_list() -> None:
    html = (f"<div id='story'><p>{SENTENCE}</p><p>{SENTENCE}</p><p>{SENTENCE}</p></div>"
            "<div id='links'>" + "".join(f"<p><a href='/{i}'>Another story number {i}</a></p>"
                                         for i in range(12)) + "</div>")
    body, stats = scored(html)
    assert stats[by_id(body, "story")].score > 10
    assert not stats[by_id(body, "links")].candidate  # linked blocks give no points
    best, _ = density.best_candidate(stats)
    assert best is by_id(body, "story")


def test_score_flows_up_with_less_weight_each_level() -> None:
    body, stats = scored(f"<div id='a'><div id='b'><div id='c'><p>{SENTENCE}</p></div></div></div>")
    a, b, c = (stats[by_id(body, x)].score for x in "abc")
    # each starts from the same tag base; the parent gets all, the grandparent half, …
    assert c > b > a > 0


def test_class_weights_count_only_when_the_pass_weighs_them() -> None:
    html = f"<div id='x' class='sidebar'><p>{SENTENCE}</p></div>"
    body, weighed = scored(html)
    _, plain = scored(html, replace(DEFAULT, weigh_classes=False))
    x = by_id(body, "x")
    assert density.class_weight(x) == -DEFAULT.class_weight
    assert density.class_weight(x, replace(DEFAULT, weigh_classes=False)) == 0
    assert plain[next(k for k in plain if k.get("id") == "x")].score == pytest.approx(
        weighed[x].score + DEFAULT.class_weight)


def test_best_candidate_is_none_without_prose() -> None:
    _, stats = scored("<div><a href='/a'>Home</a> <a href='/b'>News</a></div>")
    assert density.best_candidate(stats) is None


def test_close_rivals_sharing_an_ancestor_make_it_the_article() -> None:
    """A how-to cut into steps: each step scores alone and none wins by much."""
    steps = "".join(
        f"<section><div><div><div><div id='s{i}' class='step'><p>{SENTENCE} Step {i}, and"
        f" more.</p><p>{SENTENCE}</p></div></div></div></div></section>" for i in range(4))
    body, stats = scored(f"<div id='article'>{steps}</div><div><p>{SENTENCE}</p></div>")
    best, _ = density.best_candidate(stats)
    assert best is by_id(body, "article")
    alone, _ = density.best_candidate(stats, replace(DEFAULT, close_rivals=99))
    assert alone is not by_id(body, "article")  # without the rule one step would win


def test_body_wins_when_paragraphs_sit_right_in_it() -> None:
    paragraphs = "".join(f"<p>{SENTENCE} Paragraph {i}.</p>" for i in range(12))
    body, stats = scored(f"{paragraphs}<table><tr><td><p>{SENTENCE}</p></td></tr></table>")
    best, _ = density.best_candidate(stats)
    assert best is body


def junk(html: str, ident: str) -> bool:
    body, stats = scored(html)
    return density._is_junk(by_id(body, ident), stats, DEFAULT, stats[body].chars)


def test_junk_test_cuts_link_lists_and_share_bars_not_prose() -> None:
    links = "".join(f"<li><a href='/{i}'>Related story {i}</a></li>" for i in range(6))
    assert junk(f"<div><ul id='u'>{links}</ul><p>{SENTENCE}</p></div>", "u")
    assert junk(f"<div><div id='s' class='share'><a href='/f'>Share</a></div>"
                f"<p>{SENTENCE}</p></div>", "s")
    assert not junk(f"<div><div id='q'><p>{SENTENCE} It cites <a href='/r'>a report</a>, "
                    f"which says so.</p></div></div>", "q")
    assert junk("<div><p id='ad'>Advertisement</p></div>", "ad")
    assert junk("<div><h2 id='h'><a href='/x'>Most read</a></h2></div>", "h")
    assert not junk("<div><h2 id='h'><a href='#s'>Where it started</a></h2></div>", "h")


def test_chrome_is_removed_but_not_when_it_holds_the_article_markup() -> None:
    body = body_of(
        "<div id='w' class='widget Blog'><div class='post hentry'>"
        f"<div class='post-body entry-content'>{SENTENCE}</div></div></div>"
        "<div id='side' class='sidebar'>Archive</div><nav id='n'>Home</nav>"
        "<div id='c' class='comments'><p>First!</p></div>")
    density.remove_chrome(body)
    ids = {el.get("id") for el in body.iter()}
    assert "w" in ids  # a Blogger widget that holds the post stays
    assert not {"side", "n", "c"} & ids


def test_a_relaxed_pass_keeps_layout_chrome_but_never_comments() -> None:
    html = ("<div id='side' class='sidebar'><p>Text</p></div>"
            "<div id='c' class='comment-list'><p>First!</p></div>")
    body = body_of(html)
    density.remove_chrome(body, replace(DEFAULT, strip_unlikely=False))
    ids = {el.get("id") for el in body.iter()}
    assert "side" in ids and "c" not in ids


@pytest.mark.parametrize(("attrs", "chrome"), [
    ("class='SideBar'", True),  # class words are read in any case
    ("class='Comments-Ü'", True),  # and in a class that is not ASCII
    ("class='RELATED-links'", True),
    ("class='sidebar-Main'", False),  # a content word says it may be the article
    ("class='Comment-Body'", True),  # but not the body of a comment
    ("class='commentary-body'", False),  # an opinion piece is an article
    ("class='Sidebar' id='MAIN'", False),  # in its id as well
    ("class='box' id='FOOTER-7'", True),  # a chrome word in the id alone
    ("class='mainland' id='x'", False),  # "main": may be the article
    ("class='trail-guide'", False),  # "rail" only as a word's start
    ("class='x' id='rail-1'", True),
])
def test_chrome_words_are_read_in_class_and_id_whatever_their_case(
        attrs: str, chrome: bool) -> None:
    body = body_of(f"<div id='keep'><div {attrs}><p>Text</p></div></div>")
    density.remove_chrome(body)
    assert (len(by_id(body, "keep")) == 0) is chrome


def test_br_runs_become_paragraphs() -> None:
    body = body_of("<td id='t'>One line<br>same paragraph<br><br>Second <b>bold</b>"
                   "<br/> <br/>\n<br>Third.<div>block</div>after</td>")
    split_br_runs(body)
    td = by_id(body, "t")
    assert [text_of(p) for p in td.iter("p")] == [
        "One linesame paragraph", "Second bold", "Third.", "after"]
    assert len(td.find("p").findall("br")) == 1  # a single <br> stays a line break
    assert td.find("div") is not None


def test_a_paragraph_split_by_br_runs_becomes_a_div() -> None:
    body = body_of("<p id='p'>A<br><br>B</p>")
    split_br_runs(body)
    assert by_id(body, "p").tag == "div"
    assert [text_of(p) for p in by_id(body, "p").iter("p")] == ["A", "B"]


def test_baseline_takes_prose_lines_in_order_and_no_links() -> None:
    body = body_of(f"<div><span>{SENTENCE} First.</span></div><ul><li><a href='/a'>"
                   f"{SENTENCE}</a></li></ul><blockquote>{SENTENCE} Second.</blockquote>"
                   "<div>Short label</div>")
    lines = density.baseline(body)
    assert [text_of(el).split()[-1] for el in lines] == ["First.", "Second."]


def test_short_text_page_is_kept_but_a_link_page_is_not() -> None:
    assert density.is_short_text_page(body_of("<div>Test</div>"))
    assert not density.is_short_text_page(body_of("<a href='/a'>Home</a> <a href='/b'>News</a>"))
    assert not density.is_short_text_page(body_of("<div id='root'></div>"))


def test_options_are_frozen_and_the_cascade_relaxes_step_by_step() -> None:
    with pytest.raises(AttributeError):
        DEFAULT.article_chars = 1  # type: ignore[misc]
    names = [name for name, _ in DEFAULT.cascade()]
    assert names == ["strict", "unlikely candidates kept", "class weights off",
                     "conditional cleaning off"]
    flags = [(o.strip_unlikely, o.weigh_classes, o.clean_conditionally)
             for _, o in DEFAULT.cascade()]
    assert flags == [(True, True, True), (False, True, True), (False, False, True),
                     (False, False, False)]


@pytest.mark.parametrize("end", ["</body>", "</BODY >", "</Html>", "</hTmL\n>"])
def test_text_after_the_page_end_stays_in_the_body_however_the_tag_is_written(end: str) -> None:
    """A browser keeps what follows </body> or </html> in the body; the tag's case and the
    space before its ">" do not matter to it."""
    root = parse(f"<html><body><p>Story.</p>{end}<p>More of the story.</p></html>")
    body = root.find("body")
    assert body is not None
    assert [text_of(p) for p in body.iter("p")] == ["Story.", "More of the story."]
