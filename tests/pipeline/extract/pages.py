"""Small hand-written pages: a typical article layout with chrome around a body."""

from __future__ import annotations

PROSE = [
    "The river rose overnight, and by morning the old bridge was closed to traffic, "
    "according to the city engineer, who inspected it at dawn.",
    "Residents on the east bank said they had not seen water this high since 1998, when "
    "the same bridge was washed out and took two years to rebuild.",
    "Officials expect the level to fall by Friday, but warned that more rain is forecast "
    "for the weekend, and asked drivers to use the northern crossing instead.",
    "Shops near the bridge stayed open, although several owners moved their stock to "
    "upper floors, just in case the water reached the street.",
]

ZH_PROSE = [
    "昨夜河水上涨，今天早上老桥已经禁止通行。市政工程师在黎明时分进行了检查，他说桥墩没有明显损坏。",
    "东岸居民表示，自一九九八年以来从未见过这么高的水位，当年同一座桥被冲毁，花了两年才重建。",
    "官员预计水位将在周五回落，但提醒周末还会有降雨，请司机改走北边的桥。",
]

NAV = """<nav><ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li>
<li><a href="/sport">Sport</a></li><li><a href="/tech">Technology</a></li></ul></nav>"""

SIDEBAR = """<div class="sidebar"><h3>Most read</h3><ul>
<li><a href="/a">Ten things you missed this week</a></li>
<li><a href="/b">Published 2001-01-01: the archive opens</a></li>
<li><a href="/c">Why the market fell again</a></li></ul></div>"""


def prose_around(part: str) -> str:
    """An article body with ``part`` (a list, a code block…) between its second and third
    paragraphs: what a part inside running text looks like."""
    return "".join(f"<p>{p}</p>" for p in PROSE[:2]) + part + f"<p>{PROSE[2]}</p>"


def article_page(
    body: str | None = None,
    *,
    title: str = "River rises, old bridge closed - The Daily Example",
    headline: str = "River rises, old bridge closed",
    head: str = "",
    byline: str = '<p class="meta">Published 2019-02-20 02:26</p>',
    after: str = "",
) -> str:
    if body is None:
        body = "".join(f"<p>{p}</p>" for p in PROSE)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>{head}</head>
<body>
<header><div class="logo">The Daily Example</div>{NAV}</header>
<div id="main">
  <h1>{headline}</h1>
  {byline}
  <div class="article-body">{body}</div>
  {after}
</div>
{SIDEBAR}
<footer><p>Copyright 2019 The Daily Example. <a href="/about">About us</a></p></footer>
</body></html>"""
