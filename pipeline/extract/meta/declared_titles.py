"""What a page declares its title to be (JSON-LD, dc:title, og:title, meta title,
twitter:title, the <title>), each split on its site separators into the story's part and the
parts that name the site, a channel or a blog.

Apart from the vote (``title``) because the walk reads them too: a plain element saying a
declared title is a headline candidate (``headlines.EchoTest``)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from pipeline.extract.meta.head import Head
from pipeline.extract.meta.text import (
    element_text,
    reads_as_name,
    strip_marks,
    text_key,
    visual_len,
)
from pipeline.text.cjk import HAN, HAN_CHAR
from pipeline.text.lazy_patterns import compiled


def _separators(han: str) -> str:
    """Separators between a headline and the site or section name in a declared title; a hyphen
    next to a Han character is one, for ``han`` the Han range ("" leaves out what only Han
    text can match)."""
    return (
        r"\s+[-|–—·•»«:/>›]+\s+|(?<=[" + han + r"）)])-|" + (han and r"-(?=[" + han + r"])|")
        + r"\s*[|_｜•»«>›→－]+\s*|\s*-{2,}\s*|\s+::\s+|"
        # "…Part3-CSDN.NET": a hyphen before a closing domain name (not inside one: "my-site.com")
        r"(?<![a-z])-(?=[\w.-]+\.(?i:com|net|org|cn|info|cc|tv)(?:\.[a-z]{2})?\s*$)"
    )


# A title without Han is split by the pattern without the Han classes, which compiles in a fifth
# of the time; the whole one is compiled when a Han title first comes (``compiled``).
_SEPARATORS_NO_HAN = re.compile(_separators(""))


def _title_split(text: str) -> re.Pattern[str]:
    """The separators' pattern for ``text`` and every part of it: both match alike where no Han
    character is."""
    return compiled(_separators(HAN)) if HAN_CHAR.search(text) else _SEPARATORS_NO_HAN


# Where a Chinese title may name its site without a separator of its own: after a "——" (which
# inside a headline opens its subtitle, so it divides only from a part naming the site) and in
# brackets before the headline ("【示例网】…").
_SITE_DASH = re.compile(r"\s*——\s*")
_SITE_BRACKETS = re.compile(r"^\s*[【\[]([^】\]]{1,20})[】\]]\s*")
# What a signed-in page counts in its tab before the title: "(3) …", "(2 封私信 / 80 条消息) …".
_UNREAD = re.compile(r"^[(（]\s*\d+[^)）]{0,20}[)）]\s+(?=\S)")
# Readability.js's article types: a WebPage's or WebSite's name is the site's, not a headline.
_JSONLD_ARTICLE = re.compile(
    r"^(?:Article|AdvertiserContentArticle|NewsArticle|AnalysisNewsArticle|AskPublicNewsArticle|"
    r"BackgroundNewsArticle|OpinionNewsArticle|ReportageNewsArticle|ReviewNewsArticle|Report|"
    r"SatiricalArticle|ScholarlyArticle|MedicalScholarlyArticle|SocialMediaPosting|BlogPosting|"
    r"LiveBlogPosting|DiscussionForumPosting|TechArticle|APIReference)$"
)
# Title metas as Readability.js reads them: a property may list several names; name="DC.title"
# is dc:title. Their order is its order of trust.
_TITLE_PROPERTY = re.compile(r"(?:^|\s)(dc|dcterm|og|twitter)\s*:\s*title(?:\s|$)", re.I)
_TITLE_NAME = re.compile(
    r"^\s*(?:(dc|dcterm|og|twitter|parsely|weibo:(?:article|webpage))\s*[-.:]\s*)?title\s*$", re.I
)
# <meta name="title"> is the <title> again (often the site's description): trusted as little.
PAGE_TITLES = ("<title>", "title")
_META_ORDER = ("dc:title", "dcterm:title", "og:title", "weibo:article:title",
               "weibo:webpage:title", "title", "twitter:title", "parsely-title")
# A site's own name, not a story's: blog and portal names (…的博客, …门户网站) up to 12 CJK
# characters; the words a headline may end in too (…网, …频道, …论坛) only in short names.
# Both are read on the text's last SITE_WORDS_TAIL characters only, which hold any match: its
# longest word, the character its \b looks at and the newline $ allows after it (an alternation
# without a literal start is tried at every character of the text).
_SITE_WORDS = re.compile(r"(?:的博客|的空间|博客|官网|官方网站|门户网站|门户|网站|\bweblog)$", re.I)
_SHORT_SITE_WORDS = re.compile(r"(?:网|在线|频道|论坛|社区|首页|专栏|\bblog)$", re.I)
SITE_WORDS_TAIL = 8
# … the welcome line old portals put in every page's <title> …
_WELCOME = re.compile(r"^(?:欢迎|谢谢您?|感谢您?)(?:访问|光临|来到)|^welcome\s+to\b", re.I)
# … and a domain name ("…-CSDN.NET", "SJSUSpartans.com—Official Web Site of …").
_TLDS = "com|net|org|cn|gov|edu|info|biz|tv|cc|co|io|me|uk|au|in|de|fr|jp|hk|tw|ca|nz|za"
_DOMAIN = re.compile(
    rf"(?:https?://)?(?:www\.)?[a-z0-9][\w-]*(?:\.[\w-]+)*\.(?:{_TLDS})(?:\.[a-z]{{2}})?\b", re.I)
# The dot and top-level domain every match holds, looked for first: sre tries _DOMAIN at every
# character and backtracks through each word, where this starts at a dot.
_DOT_TLD = re.compile(rf"\.(?:{_TLDS})", re.I)
_LIST_COMMA = re.compile(r"[,，、]")
# What joins a breadcrumb's steps ("世艺网>艺术教育", "首页 » 新闻", "首页->军事").
_CRUMB_STEP = re.compile(r"\s*-*[>»›→]+\s*")
# … every one of which holds an arrow: a text without one is a single step, told without the
# split (which tries its leading white space at every character).
CRUMB_ARROWS = ">»›→"


def declared_titles(head: Head) -> list[tuple[str, str]]:
    """What the page declares its title to be, most trusted first (Readability.js's order:
    JSON-LD, dc:title, og:title, meta title, twitter:title), then the <title>."""
    title_el = head.title
    # An unclosed <title> swallows the page as text: keep what comes before the first tag.
    page_title = (element_text(title_el).split("<", 1)[0][:300].strip()
                  if title_el is not None else "")
    page_title = _UNREAD.sub("", page_title)
    out = []
    if ld := _jsonld_titles(head.scripts):
        headline, name = ld
        if headline and name and headline != name:
            # Some sites put their own name in "name": the one the <title> repeats wins.
            in_title = [text_key(t) in text_key(page_title) for t in (headline, name)]
            ld = (headline, "") if in_title == [True, False] else ("", name)
        out += [("jsonld", t) for t in ld if t]
    values: dict[str, str] = {}
    for el in head.metas:
        content = " ".join((el.get("content") or "").split())
        if not content:
            continue
        if m := _TITLE_PROPERTY.search(el.get("property") or ""):
            values[f"{m.group(1).lower()}:title"] = content  # the last one wins, as there
        elif _TITLE_NAME.match(name := el.get("name") or ""):
            values["".join(name.lower().split()).replace(".", ":")] = content
    out += [(k, values[k]) for k in _META_ORDER if k in values]
    if page_title:
        out.append(("<title>", page_title))
    return out


def _jsonld_titles(scripts: list[etree._Element]) -> tuple[str, str] | None:
    """headline and name of the first JSON-LD article (only an article's name is a headline)."""
    for script in scripts:
        if (script.get("type") or "").strip().lower() != "application/ld+json" or not script.text:
            continue
        raw = script.text.strip().removeprefix("<![CDATA[").removesuffix("]]>")
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):  # broken, or nested past what json reads
            continue
        items = data if isinstance(data, list) else [data]
        for d in list(items):
            if isinstance(d, dict) and isinstance(graph := d.get("@graph"), list):
                items += graph
        for item in items:
            if not isinstance(item, dict):
                continue
            types = item.get("@type")
            if any(isinstance(t, str) and _JSONLD_ARTICLE.match(t)
                   for t in (types if isinstance(types, list) else [types])):
                headline, name = (item.get(k) for k in ("headline", "name"))
                return (" ".join(headline.split()) if isinstance(headline, str) else "",
                        " ".join(name.split()) if isinstance(name, str) else "")
    return None


@lru_cache(maxsize=1024)
def title_segments(text: str) -> tuple[str, ...]:
    """A declared title's parts between site separators, page markers cut off."""
    return tuple(s for seg in _title_split(text).split(text) if (s := strip_marks(seg)))


def site_like(text: str, names: set[str]) -> bool:
    """Positive evidence that a text names the site, a channel or a blog, not a story."""
    key = text_key(text)
    return not key or key in names or _names_a_site(text)


@lru_cache(maxsize=8192)
def _names_a_site(text: str) -> bool:
    """``site_like``'s evidence in the text alone: a welcome line, a site word at its end, a
    domain name (which needs a dot) making up much of it."""
    if _WELCOME.search(text):
        return True
    vlen = visual_len(text)
    tail = text[-SITE_WORDS_TAIL:]
    if (vlen <= 36 and _SITE_WORDS.search(tail)) or (vlen <= 18 and _SHORT_SITE_WORDS.search(tail)):
        return True
    m = _DOMAIN.search(text) if "." in text and _DOT_TLD.search(text) else None
    return m is not None and len(m.group()) >= 0.4 * len(text)


def breadcrumb(text: str, names: set[str]) -> bool:
    """A trail from the site's home to a channel: steps joined by arrows (> » › →), the first
    naming the site ("世艺网>艺术教育"). It names where a page is filed, never the page, though
    its last step may be the story's headline (``declare`` keeps that)."""
    if not any(arrow in text for arrow in CRUMB_ARROWS) or len(
            steps := _CRUMB_STEP.split(text)) < 2:
        return False
    return all(len(title_segments(s)) == 1 for s in steps) and site_like(steps[0], names)


def _site_part(text: str, names: set[str]) -> bool:
    """A declared title's part naming the site, or listing keywords for search engines
    ("workington news sport, west cumbria news, lake district news")."""
    return site_like(text, names) or len(_LIST_COMMA.findall(text)) >= 3


@dataclass
class Declared:
    """A declared title read against the page: its segments, which of them name the site, and
    the headline part that is left (empty when the whole title names the site)."""

    source: str
    text: str
    segments: tuple[str, ...]
    site: list[bool]
    head: str
    # What ``title._agreement`` compares with: (text, key) of each segment not naming the site, then
    # of the whole title when it has several, the empty keys left out.
    units: tuple[tuple[str, str], ...] = ()


def declare(source: str, text: str, names: set[str]) -> Declared:
    segments = title_segments(text) or (text,)
    site = [_site_part(s, names) for s in segments]
    if breadcrumb(text, names):
        # Every step but the last is the site's; the last stands alone as the title only when it
        # is as long as a headline ("艺术教育" is a channel), but a headline the page shows may
        # agree with it (a blog's "Free Range Librarian › OCLC's un-hire").
        site = [True] * (len(segments) - 1) + [site[-1]]
        head = "" if site[-1] or reads_as_name(segments[-1]) else segments[-1]
    else:
        head = _strip_site_ends(text, names) if not all(site) else ""
    if source in PAGE_TITLES and len(parts := title_segments(head)) > 1:
        head = max(parts, key=visual_len)  # of a <title>'s parts, the story's is the longest
    cleaned = strip_marks(text)
    units = list(zip(segments, site, strict=True))
    if len(units) > 1:
        units.append((cleaned, False))
    keyed = tuple((unit, other) for unit, is_site in units
                  if not is_site and (other := text_key(unit)))
    return Declared(source, cleaned, segments, site, head, keyed)


def _strip_site_ends(text: str, names: set[str]) -> str:
    """A declared title without the site, channel or blog names at its ends (the rest stays as
    written: "Friday Facts #282 - 0.17 in sight | Factorio" keeps its inner " - ")."""
    separators = _title_split(text)
    while parts := list(separators.finditer(text)):
        if _site_part(text[parts[-1].end():], names):
            text = text[:parts[-1].start()]
        elif _site_part(text[:parts[0].start()], names):
            text = text[parts[0].end():]
        else:
            break
    # The site's name in the middle of a Chinese title: what follows it is the site's too (its
    # slogan, its domain). Chinese titles lead with the headline; an English one may end with it
    # after the site and its section ("Blue Lily Photo - Blue Lily Blog - Glacier").
    parts = list(separators.finditer(text))
    for before, after in zip(parts, parts[1:], strict=False):
        if HAN_CHAR.search(text[:before.start()]) and _site_part(
            text[before.end():after.start()], names
        ):
            text = text[:before.start()]
            break
    if (parts := list(_SITE_DASH.finditer(text))) and _site_part(text[parts[-1].end():], names):
        text = text[:parts[-1].start()]
    if (m := _SITE_BRACKETS.match(text)) and text[m.end():] and site_like(m.group(1), names):
        text = text[m.end():]
    return strip_marks(text)
