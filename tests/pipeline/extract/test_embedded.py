"""Article text a page embeds for machines (JSON-LD articleBody, Next.js __NEXT_DATA__) becomes
the article when the markup holds none, or a fraction of it (issue 19)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from lxml import etree

from pipeline.extract import extract
from pipeline.extract.embedded import find_body, reads_as_prose
from pipeline.extract.options import DEFAULT
from pipeline.records.errors import NeedsJavaScript
from tests.pipeline.extract.pages import PROSE, ZH_PROSE, article_page

URL = "https://app.example.com/news/river-rises"
HEADLINE = "River rises, old bridge closed"


def ld(data: object) -> str:
    """A JSON-LD script as sites write it: "</" escaped, so no string ends the script."""
    text = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return f'<script type="application/ld+json">{text}</script>'


def shell(head: str = "", body: str = "") -> str:
    """A single-page app as fetched: metadata in the head, an empty mount point, a bundle."""
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>{HEADLINE} - Example News</title>
<meta property="og:title" content="{HEADLINE}">
<meta property="article:published_time" content="2026-11-30T08:00:00+08:00">
<meta name="author" content="Lin Qiao">{head}</head>
<body><div id="root"></div>{body}<script src="/static/js/main.3f2a1c.js"></script></body></html>"""


def test_json_ld_plain_text_body_is_the_article_of_a_shell() -> None:
    a = extract(shell(ld({"@context": "https://schema.org", "@type": "NewsArticle",
                          "headline": HEADLINE, "articleBody": "\n\n".join(PROSE)})), URL)
    assert a.method == "json-ld"
    assert a.text.split("\n") == PROSE  # a paragraph a line
    assert etree.fromstring(f"<div>{a.content_html}</div>").findall("p")[0].text == PROSE[0]
    # title, date and author come from the page's metadata, as for any article
    assert (a.title, a.published, a.author) == (HEADLINE, "2026-11-30T08:00:00+08:00", "Lin Qiao")
    assert 0 < a.confidence <= DEFAULT.relaxed_confidence


def test_json_ld_html_body_goes_through_the_whitelist() -> None:
    body = (f'<h2>{HEADLINE}</h2><p onclick="steal()">{PROSE[0]}</p>'
            f'<script>alert("x")</script><p>{PROSE[1]} <a href="javascript:go()">more</a></p>'
            f'<figure><img src="/img/bridge.jpg" alt="The bridge"></figure><p>{PROSE[2]}</p>')
    a = extract(shell(ld({"@type": "Article", "articleBody": body})), URL)
    assert a.method == "json-ld"
    assert a.text.split("\n") == [PROSE[0], f"{PROSE[1]} more", PROSE[2]]  # headline dropped
    for never in ("script", "alert", "onclick", "javascript:"):
        assert never not in a.content_html
    assert a.images == ["https://app.example.com/img/bridge.jpg"]


def test_json_ld_body_inside_a_graph_and_in_an_array() -> None:
    graph = {"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "name": "Example News"},
        {"@type": ["BlogPosting"], "headline": HEADLINE, "articleBody": " ".join(PROSE)}]}
    assert extract(shell(ld(graph)), URL).text == " ".join(PROSE)
    zh = [f"{p}（{n}）" for n in range(3) for p in ZH_PROSE]
    array = [{"@type": "BreadcrumbList"}, {"@type": "ReportageNewsArticle",
                                           "articleBody": "\n".join(zh)}]
    a = extract(shell(ld(array)), URL)
    assert (a.method, a.text) == ("json-ld", "\n".join(zh))


def test_an_article_type_s_text_counts_and_a_web_page_s_does_not() -> None:
    posting = {"@type": "DiscussionForumPosting", "text": " ".join(PROSE)}
    assert find_body(shell(ld(posting))) is not None
    assert find_body(shell(ld({"@type": "WebPage", "text": " ".join(PROSE)}))) is None


def test_next_data_body_is_the_prose_string_that_stands_out() -> None:
    data = {"props": {"pageProps": {
        "post": {"id": 17, "slug": "river-rises", "title": HEADLINE,
                 "cover": "https://cdn.example.com/" + "a1b2c3" * 60 + ".jpg",
                 "content": "".join(f"<p>{p}</p>" for p in PROSE)},
        "related": [{"title": "Why the market fell again", "excerpt": PROSE[3][:90]}],
        "tracking": "x" * 2000}},
        "page": "/news/[slug]", "buildId": "b1"}
    script = ('<script id="__NEXT_DATA__" type="application/json">'
              f'{json.dumps(data)}</script>')
    page = shell(body=script).replace('<div id="root"></div>', '<div id="__next"></div>')
    a = extract(page, URL)
    assert (a.method, a.text.split("\n")) == ("next-data", PROSE)


def test_next_data_of_a_list_page_gives_no_body() -> None:
    """Several bodies of a like length: a list page's, none of them is the page's article."""
    posts = [{"body": " ".join(PROSE)}, {"body": " ".join(reversed(PROSE))}]
    script = ('<script id="__NEXT_DATA__" type="application/json">'
              f'{json.dumps({"props": {"pageProps": {"posts": posts}}})}</script>')
    assert find_body(shell(body=script)) is None


def test_a_teaser_in_json_ld_leaves_the_article_to_the_markup() -> None:
    teaser = {"@type": "NewsArticle", "articleBody": PROSE[0]}
    a = extract(article_page(head=ld(teaser)), URL)
    assert a.method == "strict" and all(p in a.text for p in PROSE)


BRIEF = ("The city closed the old bridge on Tuesday after the river rose overnight; "
         "drivers should use the northern crossing.")
KUAIXUN = "【快讯】昨夜河水上涨，老桥今晨起禁止通行，请司机改走北边的桥。"


def test_a_brief_declared_by_the_site_is_the_article_of_a_shell() -> None:
    """A news brief or a 快讯 is short, and still the site's whole article: where the markup
    holds none, its JSON-LD body stands in at any length a brief has (issue 27)."""
    for brief in (BRIEF, KUAIXUN):
        assert len("".join(brief.split())) < DEFAULT.embedded_min_chars
        a = extract(shell(ld({"@type": "NewsArticle", "headline": HEADLINE,
                              "articleBody": brief})), URL)
        assert (a.method, a.text, a.title) == ("json-ld", brief, HEADLINE)


def test_a_brief_beside_a_page_with_no_article_is_the_article() -> None:
    page = ("<html><head><title>Brief</title>"
            + ld({"@type": "NewsArticle", "articleBody": BRIEF})
            + "</head><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav></body></html>")
    assert extract(page, URL).text == BRIEF


def test_a_short_declared_body_that_is_no_prose_leaves_the_shell_a_shell() -> None:
    for placeholder in ("undefined", "{{ article.body }}", "Loading"):
        with pytest.raises(NeedsJavaScript):
            extract(shell(ld({"@type": "NewsArticle", "articleBody": placeholder})), URL)


def test_a_brief_never_replaces_an_article_the_markup_holds() -> None:
    a = extract(article_page(body=f"<p>{PROSE[0]}</p><p>{PROSE[1]}</p>",
                             head=ld({"@type": "NewsArticle", "articleBody": BRIEF})), URL)
    assert a.method == "strict" and BRIEF not in a.text


def test_a_short_cut_of_a_longer_body_gives_way_to_it() -> None:
    """A paywall's first paragraph in the markup, the whole story in JSON-LD."""
    story = {"@type": "NewsArticle", "articleBody": "\n".join(PROSE * 2)}
    a = extract(article_page(body=f"<p>{PROSE[0]}</p>", head=ld(story)), URL)
    assert a.method == "json-ld" and a.text == "\n".join(PROSE * 2)
    assert a.title == HEADLINE


def test_a_long_article_in_the_markup_is_never_replaced() -> None:
    many = [f"{p} ({n})" for n in range(3) for p in PROSE]
    body = "".join(f"<p>{p}</p>" for p in many)
    story = {"@type": "NewsArticle", "articleBody": "\n".join(many * 3)}
    assert extract(article_page(body=body, head=ld(story)), URL).method == "strict"


def test_json_that_breaks_or_exceeds_the_bounds_is_ignored() -> None:
    body = {"@type": "Article", "articleBody": " ".join(PROSE)}
    for broken in ('{"@type": "Article", "articleBody": "unterminated',
                   "[" * 100_000 + "]" * 100_000, "<!-- not json -->"):
        assert find_body(shell(f'<script type="application/ld+json">{broken}</script>')) is None
    small = replace(DEFAULT, embedded_json_max_chars=100)
    assert find_body(shell(ld(body)), small) is None
    assert find_body(shell(ld(body))) is not None
    # a body string that holds "</p>" unescaped still ends at </script>, not before
    raw = ('<script type="application/ld+json">{"@type": "Article", "articleBody": '
           f'"<p>{PROSE[0]}</p><p>{PROSE[1]}</p><p>{PROSE[2]}</p>"}}</script>')
    found = find_body(shell(raw))
    assert found is not None and PROSE[2] in found.html


def test_deep_next_data_is_walked_within_its_bound() -> None:
    deep: object = " ".join(PROSE)
    for _ in range(500):
        deep = {"child": deep}
    script = ('<script id="__NEXT_DATA__" type="application/json">'
              f'{json.dumps({"props": {"pageProps": deep}})}</script>')
    assert find_body(shell(body=script)) is not None
    assert find_body(shell(body=script), replace(DEFAULT, embedded_json_max_nodes=100)) is None


def test_prose_is_told_from_tokens_urls_and_code() -> None:
    assert reads_as_prose(" ".join(PROSE)) and reads_as_prose("".join(ZH_PROSE))
    assert not reads_as_prose("eyJhbGciOiJIUzI1NiJ9" * 40)
    assert not reads_as_prose(" ".join(f"https://cdn.example.com/{n}.jpg" for n in range(40)))
    assert not reads_as_prose("function f(a) { return a.b = c; }. " * 20)
    assert not reads_as_prose(".a { color: red; } .b { margin: 0; }. " * 20)
