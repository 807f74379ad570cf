"""The title vote: which candidate is the page's headline (seed 001; issue 4).

The title is a vote among candidates (issue 4: "the headline is the candidate that agrees best
with the others and sits just above the body; a name repeated across the site's navigation is not
a headline"). Visible candidates are h1–h6, elements whose class says title, bold lines and a
forum's 主题： line; declared ones are JSON-LD headline/name, dc:title, og:title, twitter:title and
the <title>, each split on its site separators. A visible candidate scores by agreement with the
declared titles, nearness to the article's first text, look and length. A declared title also
stands on its own: an explicit meta (og:title, JSON-LD, dc:title) above any heading nothing
confirms, the <title>'s story part above one that reads less like a headline. Site, channel and
blog names, breadcrumbs and the navigation's link texts lose; page markers ("(第2页)", "Page 2")
are cut off. Every weight is in ``TitleOptions``.

Apart from the walk that finds the candidates (``headlines``, ``declared_titles``): the vote
runs once the article's start is known, on what the walk recorded (``facts.PageFacts``).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from pipeline.extract.meta.dates import iter_dates
from pipeline.extract.meta.declared_titles import (
    PAGE_TITLES,
    Declared,
    breadcrumb,
    declare,
    site_like,
)
from pipeline.extract.meta.facts import Headline, PageFacts
from pipeline.extract.meta.headlines import METADATA_LINE
from pipeline.extract.meta.text import strip_marks, text_key
from pipeline.text.cjk import HAN, HAN_CHAR, HAN_OR_KANA


@dataclass(frozen=True)
class TitleOptions:
    """Every weight and threshold of the title vote (see ``choose_title``). Tuned on the
    zh-news, l3s-gn1 and readability-js dev sets together, never on one alone."""

    # How a visible candidate looks: a page's own headline markup outranks bold text.
    look_h1: float = 0.45
    look_h2: float = 0.3
    look_h3: float = 0.22
    look_minor: float = 0.08  # h4–h6, b, strong, font
    look_class: float = 0.22  # class or id says title / headline
    look_echo: float = 0.02  # a plain element whose text is a declared title
    agree: float = 1.0  # × agreement (0–1) with the best-matching declared title
    extra_source: float = 0.1  # for each further declared title that agrees as well
    min_cover: float = 0.3  # a visible text inside a declared title covers at least this share
    near: float = 0.6  # × nearness (0–1) to the article's first text element
    above_span: int = 150  # elements above the article's start where nearness reaches 0
    below_span: int = 60  # … below it; further down, an unconfirmed heading is a section's
    prose_chars: int = 80  # … as is one after a text this long (CJK = 3) below the start
    shape: float = 2.0  # × how much a text reads like a headline by its length (0–1)
    shape_words: float = 4.0  # words of a full headline …
    cjk_per_word: float = 1.5  # … where this many CJK or kana characters make a word
    long_words: float = 30.0  # longer than this, a text reads less and less like a headline
    repeated_link: float = 0.4  # the text is link text elsewhere twice (half for once): a list
    in_nav: float = 0.4  # the candidate sits in a nav, menu or breadcrumb container
    # A declared title on its own: an explicit meta outscores any unconfirmed heading; the
    # <title>'s story part scores this + shape, like a heading without look or nearness.
    declared_meta: float = 3.5  # og:title / JSON-LD / dc:title / twitter:title
    declared_title: float = 0.8  # the <title> (and <meta name="title">)
    min_score: float = 0.5  # no candidate scores this much: the URL's slug is the title


DEFAULT_TITLE = TitleOptions()

_END_PUNCT = tuple("。.；;：:，,")  # a headline may end in ？ or ！, not in these
_CLOSING = re.compile(r"[”’\"')）]+$")  # a quotation's end: the sentence inside it ended
_SECTION_NUMBER = re.compile(
    r"^\s*(?:[一二三四五六七八九十]+、|[(（][一二三四五六七八九十\d]+[)）]|\d+(?:\.\d+)*[.、]\s*\S)")
_CATEGORY = re.compile(r"^\s*(?:\[[^\]]{1,12}\]|【[^】]{1,12}】)\s*(?=\S)")  # [专栏] 标题
# A badge a portal or blog sets inside its headline markup after the words (原创, 独家, 置顶, 精华,
# 【荐】; the headline "老桥明天重新开放原创" is the <title>'s "老桥明天重新开放"), or before
# them in brackets ([转载]: bare words before a headline are its kicker).
_BRACKETED = r"[\[【(（][^\]】)）]{1,8}[\]】)）]"
_BADGE_AFTER = re.compile(r"\s*(?:[" + HAN + r"]{1,4}|" + _BRACKETED + r")\s*")
_BADGE_BEFORE = re.compile(r"\s*" + _BRACKETED + r"\s*")
# Never the headline, even when they repeat it: a syndicated story's 原标题 (its original
# headline), a byline or source line.
_NOT_HEADLINE = re.compile(r"原标题|原题[:：]|作者[:：]|来源[:：]|编辑[:：]|责任编辑")
# Breadcrumbs: "当前位置：首页 > 军事", "Home > News > …", "首页->军事技术".
_CRUMB_LABEL = re.compile(
    r"^\s*(?:您|你)?(?:现在|当前|所在)?的?位置\s*[:：]|^\s*(?:首页|主页|home)\s*(?:>|»|›|→|->|＞|/|\|)",
    re.I)
_CRUMB_SEP = re.compile(r"\s(?:>|»|›|→|＞)\s|->|>>|→")
_CRUMB_SEP_ARROWS = ">»›→＞"  # one is in every separator: a text without one is no trail
_WORD = re.compile(r"[^\W\d_]{2,}")  # letter-spaced "e C e n t r a l" is no sentence
_NUMBER = re.compile(r"\d+")


def choose_title(
    facts: PageFacts, url: str, at: int, options: TitleOptions = DEFAULT_TITLE
) -> tuple[str, int | None]:
    """The best-scoring candidate, visible (``_score_visible``) or declared
    (``_score_declared``); the index is the visible headline's, for the date next to it.
    Without any candidate, the URL's slug (seed 000: h1 > title > URL)."""
    if facts.selected_title:
        text, el = facts.selected_title
        return text, facts.order.get(el)
    names = facts.site_names
    titles = [declare(source, text, names) for source, text in facts.declared]
    site_keys = _site_keys(titles)
    badged = _badge_units(titles)
    best: tuple[float, str, int | None] = (options.min_score, "", None)
    for h in facts.headlines:
        scored = _score_visible(h, titles, site_keys, badged, facts, names, at, options)
        if scored and scored[0] > best[0]:
            best = (scored[0], scored[1], h.index)
    for d in titles:
        if d.head and (score := _score_declared(d, titles, options)) > best[0]:
            best = (score, d.head, None)
    if best[1]:
        return best[1], best[2]
    slug = unquote(urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1])
    slug = re.sub(r"\.\w{2,5}$", "", slug)
    return " ".join(re.split(r"[-_+]+", slug)).strip(), None


def _score_visible(
    h: Headline, titles: list[Declared], site_keys: frozenset[str], badged: tuple[str, ...],
    facts: PageFacts, names: set[str], at: int, o: TitleOptions,
) -> tuple[float, str] | None:
    """agreement with the declared titles + look + nearness + length − link and nav penalties.
    A breadcrumb, a site's logo or name, a 原标题 or byline line, and (when nothing declared
    confirms it) a section heading below the article's start, a sentence or a dateline are
    never the headline."""
    text = strip_marks(h.text)
    if h.in_brand or len(text) < 2 or _NOT_HEADLINE.search(text):
        return None
    if _CRUMB_LABEL.search(text) or any(a in text for a in _CRUMB_SEP_ARROWS) and len(
            _CRUMB_SEP.findall(text)) >= 2 or breadcrumb(text, names):
        return None
    key = text_key(text)
    if not key or _site_like_visible(text, key, site_keys, names):
        return None
    agreements = [_agreement(text, d, o) for d in titles]
    if (stripped := _CATEGORY.sub("", text)) != text:
        # [专栏] 标题: the category label goes unless the declared title has it too
        alt = [_agreement(stripped, d, o) for d in titles]
        if max(alt, default=0.0) >= max(agreements, default=0.0):
            text, key, agreements = stripped, text_key(stripped), alt
    if max(agreements, default=0.0) < 1.0 and (told := _without_badge(text, badged)):
        text, key, agreements = told, text_key(told), [_agreement(told, d, o) for d in titles]
    agree = max(agreements, default=0.0)
    if agree < 0.6:
        # Unconfirmed: not a section's heading below the start (past the article's first prose,
        # or far), a sentence, a numbered section ("二、调查中发现的问题", "3. Results") or a
        # date/byline line.
        if h.index > at and (h.index > at + o.below_span or _prose_between(facts, at, h.index, o)):
            return None
        if _CLOSING.sub("", text).endswith(_END_PUNCT):
            return None
        if _SECTION_NUMBER.match(text) or METADATA_LINE.search(text) or iter_dates(text):
            return None
    extra = o.extra_source * max(0, sum(a >= 0.6 for a in agreements) - 1)
    repeated = facts.link_texts[key] - (key in h.link_keys)
    score = (
        o.agree * agree + extra + _look(h.kind, o) + o.near * _nearness(h.index, at, o)
        + o.shape * _shape(text, o)
        - o.repeated_link * min(1.0, repeated / 2) - (o.in_nav if h.in_nav else 0.0)
    )
    return score, text


def _badge_units(titles: list[Declared]) -> tuple[str, ...]:
    """The declared titles' parts a visible headline may carry a badge beside (see
    ``_without_badge``), in order: Chinese ones of four characters or more. Read once a page,
    not once for each of its headline candidates."""
    return tuple(unit for d in titles for unit, _ in d.units
                 if len(unit) >= 4 and HAN_CHAR.search(unit))


def _without_badge(text: str, badged: tuple[str, ...]) -> str | None:
    """A visible headline that is a declared title's part (of ``_badge_units``) with a badge
    (``_BADGE_AFTER``, ``_BADGE_BEFORE``) on one end: that part, as the title declares it.
    Chinese only: an English headline longer than its og:title by a word is a longer
    headline."""
    for unit in badged:
        if unit == text:
            continue
        if text.startswith(unit) and _BADGE_AFTER.fullmatch(text[len(unit):]):
            return unit
        if text.endswith(unit) and _BADGE_BEFORE.fullmatch(text[: -len(unit)]):
            return unit
    return None


def _prose_between(facts: PageFacts, at: int, index: int, o: TitleOptions) -> bool:
    """Body prose between the article's start and an element: that element is in or after the
    article, not its headline."""
    for pos, size in facts.prose[bisect_right(facts.prose, (at, 1 << 30)):]:
        if pos >= index:
            return False
        if size >= o.prose_chars:
            return True
    return False


def _site_keys(titles: list[Declared]) -> frozenset[str]:
    """Keys of the declared titles' site parts."""
    return frozenset(text_key(s) for d in titles
                     for s, is_site in zip(d.segments, d.site, strict=True) if is_site)


def _site_like_visible(text: str, key: str, site_keys: frozenset[str], names: set[str]) -> bool:
    """A visible text that is a declared title's site part, or names a site by itself."""
    return key in site_keys or site_like(text, names)


def _score_declared(d: Declared, titles: list[Declared], o: TitleOptions) -> float:
    """A declared title standing alone: trust in its source + length + the other declared
    titles agreeing with it (og:title = the <title>'s first part)."""
    others = sum(1 for e in titles if e is not d and _agreement(d.head, e, o) >= 0.6)
    if d.source not in PAGE_TITLES:
        return o.declared_meta + o.extra_source * others  # declared for this: length is no matter
    return o.declared_title + o.shape * _shape(d.head, o) + o.extra_source * others


def _agreement(text: str, d: Declared, o: TitleOptions) -> float:
    """How well a text agrees with a declared title, 0–1: 1 for a segment of it; less when one
    contains the other ("IOL: Trio set for Derby debuts", a headline with a kicker), by the
    share the shorter covers and by how much the shared part reads like a headline (a site's
    name inside a copyright line shares a word or two). A site segment agrees with nothing."""
    key = text_key(text)
    best = 0.0
    for unit, other in d.units:
        if key == other:
            return 1.0
        if key in other or other in key:
            cover = min(len(key), len(other)) / max(len(key), len(other))
            if cover >= o.min_cover:
                shared = unit if other in key else text
                best = max(best, (0.5 + 0.5 * cover) * _shape(shared, o))
    return best


def _look(kind: str, o: TitleOptions) -> float:
    return {"h1": o.look_h1, "h2": o.look_h2, "h3": o.look_h3, "minor": o.look_minor,
            "class": o.look_class, "echo": o.look_echo}.get(kind, 0.0)


def _nearness(index: int, at: int, o: TitleOptions) -> float:
    """1 at the article's start, falling to 0 ``above_span`` elements above it (sidebars and
    ads may come between) or ``below_span`` below it (a dateline or kicker may come first)."""
    if index <= at:
        return max(0.0, 1 - (at - index) / o.above_span)
    return max(0.0, 1 - (index - at) / o.below_span)


def _shape(text: str, o: TitleOptions) -> float:
    """How much a text reads like a headline by its length: a word or two is a label or a
    section's name, a sentence is a headline, a paragraph is not."""
    ideographs, letters, numbers = _word_counts(text)
    # Numbers count half: "08-11 17:09" is a time, "Reading 0-2 Portsmouth" a headline.
    words = letters + numbers / 2 + ideographs / o.cjk_per_word
    score = min(1.0, words / o.shape_words)
    if words > o.long_words:
        score *= max(0.0, 1 - (words - o.long_words) / o.long_words)
    return score


@lru_cache(maxsize=8192)
def _word_counts(text: str) -> tuple[int, int, int]:
    """CJK and kana characters, words and numbers of a text, for ``_shape``."""
    rest = HAN_OR_KANA.sub(" ", text)
    return len(HAN_OR_KANA.findall(text)), len(_WORD.findall(rest)), len(_NUMBER.findall(rest))
