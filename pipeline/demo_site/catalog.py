"""What each page of the demo site is: the articles in paste order, and the special pages.

The server serves ``site/`` as files; this module names the pages that play a role so the server,
the ``demo`` command and the tests agree on them. ``title`` and ``published`` are what a person
reading the page would say they are (the site suffix of a portal ``<title>`` is not part of the
title), so later stages can be checked against them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DemoArticle:
    path: str  # URL path on the demo site
    layout: str  # semantic | portal | blog | docs | news | hotlink
    lang: str  # "zh" or "en"
    title: str
    published: str  # ISO 8601 date (time too where the page gives one)


ARTICLES: tuple[DemoArticle, ...] = (
    DemoArticle(
        "/articles/stone-arch-bridges.html", "semantic", "en",
        "Why a Stone Arch Stands", "2024-03-14T09:30:00+08:00",
    ),
    DemoArticle(
        "/articles/covered-bridge-repair.html", "semantic", "zh",
        "一座廊桥的修缮笔记", "2024-04-02T18:05:00+08:00",
    ),
    DemoArticle(
        "/portal/2019/02/20/brick-tea.shtml", "portal", "zh",
        "砖茶的前世今生", "2019-02-20T02:26",
    ),
    DemoArticle(
        "/portal/2019/03/05/winter-cycling.shtml", "portal", "zh",
        "北方城市的冬季骑行", "2019-03-05T08:10",
    ),
    DemoArticle(
        "/blog/2019/02/20/patching-a-tube/", "blog", "en",
        "Patching an Inner Tube at the Roadside", "2019-02-20",
    ),
    DemoArticle(
        "/blog/2019/03/11/pour-over-notes/", "blog", "zh",
        "手冲咖啡的三个变量", "2019-03-11",
    ),
    DemoArticle(
        "/docs/rust/ownership.html", "docs", "en",
        "Ownership and Borrowing in Rust", "2023-09-01",
    ),
    DemoArticle(
        "/docs/python/generators.html", "docs", "zh",
        "Python 生成器与惰性求值", "2023-10-15",
    ),
    DemoArticle(
        "/news/2024/05/night-market.html", "news", "zh",
        "夜市重开第一周：摊主与街坊的新约定", "2024-05-18T21:40",
    ),
    DemoArticle(
        "/news/2024/06/canal-cleanup.html", "news", "en",
        "Volunteers Clear the Old Canal in One Weekend", "2024-06-09T16:00:00+01:00",
    ),
    DemoArticle(
        "/photo/shop-sign-lettering.html", "hotlink", "zh",
        "老街招牌上的手写字", "2024-07-21",
    ),
    DemoArticle(
        "/photo/letterpress-workshop.html", "hotlink", "en",
        "A Morning in a Letterpress Workshop", "2024-08-03",
    ),
)

LIST_PATH = "/"
# An article URL that answers with an anti-bot "please wait" page instead of the story.
INTERSTITIAL_PATH = "/news/2024/07/bus-routes.html"
# The Chinese semantic article as a person would get it from a share button.
TRACKING_VARIANT_PATH = (
    "/articles/covered-bridge-repair.html?utm_source=wechat&spm=1.2&from=timeline"
)

# A reposted copy of one article: a few words of one sentence changed and another footer, as
# a site that copies an article edits it (a near duplicate for SimHash: a whole sentence of
# this short article rewritten would be 5–8 bits away, beyond NEAR_DUPLICATE_BITS). It is
# derived from the original when served, so the two can never drift apart by accident.
NEAR_DUPLICATE_PATH = "/repost/covered-bridge-repair.html"
NEAR_DUPLICATE_OF = "/articles/covered-bridge-repair.html"
NEAR_DUPLICATE_EDITS: tuple[tuple[str, str], ...] = (
    (
        "修到第三个月，村里的孩子已经能叫出每一种木料的名字。",
        "修到第三个月，村里的孩子已经叫得出每一种木头的名字。",
    ),
    (
        "<p>本文为原创，转载请联系作者。© 2024 石与水</p>",
        "<p>本文转载自“石与水”，仅供学习交流，如有侵权请联系删除。</p>",
    ),
)

# Everything under this path answers 403 unless the Referer comes from the site itself.
HOTLINK_PROTECTED_PREFIX = "/protected/"
