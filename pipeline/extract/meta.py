"""Title, publish time, author and language of a page (seed 001; issue 4 §5–6).

Read from the whole page before noise removal: the visible headline and the date line next to it
often sit in a header block that the body extractor throws away.

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
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from lxml import etree

from pipeline.extract.dom import BLOCK_TAGS, text_of
from pipeline.rules.selectors import selector
from pipeline.text.cjk import HAN, HAN_CHAR, HAN_OR_KANA

_DATE_META = (
    "article:published_time", "og:article:published_time", "og:published_time",
    "og:release_date", "published_time", "article.published", "article_date_original",
    "publishdate", "publish_date", "publish-date", "pubdate", "ptime", "publishtime",
    "publish_time", "publication_date", "datepublished", "dc.date.issued", "dc.date.created",
    "dcterms.issued", "dcterms.created", "dc.date", "sailthru.date", "parsely-pub-date",
    "og:time", "release_date", "date", "weibo:article:create_at", "article:modified_time",
)
_AUTHOR_META = ("author", "article:author", "byl", "dc.creator", "sailthru.author",
                "parsely-author", "og:article:author")
_JSONLD_DATE = re.compile(r'"datePublished"\s*:\s*"([^"]+)"')
_JSONLD_AUTHOR = re.compile(
    r'"author"\s*:\s*(?:\[\s*)?(?:\{[^{}]*?"name"\s*:\s*"([^"]+)"|"([^"]+)")'
)
_MONTHS = {m: i + 1 for i, m in enumerate(
    "jan feb mar apr may jun jul aug sep oct nov dec".split())}
_TIME = r"(?:[\sT日]*(\d{1,2})[:：时](\d{1,2})(?:[:：分](\d{1,2}))?)?"
_DATE_PATTERNS = (
    re.compile(r"((?:19|20)\d{2})\s*[年\-/.]\s*(\d{1,2})\s*[月\-/.]\s*(\d{1,2})(?!\d)" + _TIME),
)
# 9/17/2004 5:54:13 AM: month first (US and ASP default), unless the first number can't be one.
_SLASH_DATE = re.compile(
    r"(?<![\d/])(\d{1,2})/(\d{1,2})/((?:19|20)\d{2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?"
    r"(?:\s*([AaPp])\.?[Mm]\.?)?)?"
)
_EN_DATES = (
    re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|"
               r"rd|th)?,?\s+((?:19|20)\d{2})", re.I),
    re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
               r"[a-z]*\.?,?\s+((?:19|20)\d{2})", re.I),
)
_DATE_CUE = re.compile(
    r"发布|发表|时间|日期|来源|更新|published|posted|updated|date|on\s*$", re.I)
_REPORTER_VERBS = (
    "了解|获悉|介绍|透露|看到|发现|采访|注意|调查|观察|表示|得知|来到|走访|从|在|日前|近日|昨日|今天|今日"
)
_CJK_NAME_END = r"(?=[\s）)，,、|]|$|报道|摄|发自)"
_AUTHOR_TEXT = re.compile(
    r"(?:作者|撰文)\s*[:：/／]\s*(?![a-z]+\b)([^\s:：，,|=\"'<>]{2,20})|"
    r"(?:^|[\s（(])文\s*[/／]\s*([" + HAN + r"·]{2,8})" + _CJK_NAME_END + "|"
    # 本报记者 张三 / （记者 张三）, not "记者了解到"
    r"(?:^|[\s（(【]|本报|本台|社|网)记者\s*(?!" + _REPORTER_VERBS + r")"
    r"([" + HAN + r"]{2,3})" + _CJK_NAME_END + "|"
    r"^[Bb]y\s+([A-Z][\w.'’-]+(?:\s+(?:[A-Z][\w.'’-]+|de|van|von|da|and)){0,6})"
)
_YEAR = re.compile(r"(?:19|20)\d{2}")
_MAYBE_DATE = re.compile(r"\d|作者|文|记者|^[Bb]y\s")


@dataclass(frozen=True)
class TitleOptions:
    """Every weight and threshold of the title vote (see ``_choose_title``). Tuned on the
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

# Separators between a headline and the site or section name in a declared title.
_TITLE_SPLIT = re.compile(
    r"\s+[-|–—·•»«:/>›]+\s+|(?<=[" + HAN + r"）)])-|-(?=[" + HAN + r"])|\s*[|_｜•»«]+\s*|"
    r"\s*-{2,}\s*|\s+::\s+|"
    # "…Part3-CSDN.NET": a hyphen before a closing domain name (not inside one: "my-site.com")
    r"(?<![a-z])-(?=[\w.-]+\.(?i:com|net|org|cn|info|cc|tv)(?:\.[a-z]{2})?\s*$)"
)
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
_PAGE_TITLES = ("<title>", "title")
_META_ORDER = ("dc:title", "dcterm:title", "og:title", "weibo:article:title",
               "weibo:webpage:title", "title", "twitter:title", "parsely-title")

# Class or id naming a headline; storyhead/ArticleHead are the old news CMS templates' names.
_TITLE_CLASS = re.compile(
    r"title|heading|headline|(?:story|article|art|news|post|entry)[-_]?head(?!er)|"
    r"(?:^|[\s_-])tit\d*(?:$|[\s_-])", re.I)
_BYLINE_CLASS = re.compile(r"byline|author", re.I)
_HEADLINE_TAGS = {"h1": "h1", "h2": "h2", "h3": "h3", "h4": "minor", "h5": "minor", "h6": "minor"}
_BOLD_TAGS = frozenset(("b", "strong", "font"))
_NOT_HEADLINE_TAGS = frozenset(("html", "body", "head", "title", "meta", "script", "style", "li"))
_SKIP_TEXT = frozenset(("script", "style", "noscript", "title", "option", "textarea", "head"))
_END_PUNCT = tuple("。.；;：:，,")  # a headline may end in ？ or ！, not in these
_CLOSING = re.compile(r"[”’\"')）]+$")  # a quotation's end: the sentence inside it ended
_SECTION_NUMBER = re.compile(
    r"^\s*(?:[一二三四五六七八九十]+、|[(（][一二三四五六七八九十\d]+[)）]|\d+(?:\.\d+)*[.、]\s*\S)")
_CATEGORY = re.compile(r"^\s*(?:\[[^\]]{1,12}\]|【[^】]{1,12}】)\s*(?=\S)")  # [专栏] 标题
_TOPIC_LABEL = re.compile(r"^\s*(?:主题|标题|title)\s*[:：]\s*", re.I)
# Forums and portals: 作者/来源/发布 lines …
_METADATA_LINE = re.compile(
    r"作者[:：]|来源[:：]|发布|日期|时间[:：]|编辑[:：]|(?:19|20)\d\d[-/年.]\d", re.I)
# … even when they repeat the headline: a syndicated story's 原标题 (its original headline), a
# byline or source line.
_NOT_HEADLINE = re.compile(r"原标题|原题[:：]|作者[:：]|来源[:：]|编辑[:：]|责任编辑")
# Paginated articles: "(第2页)", "(页 1)", "(1/3)", "- Page 2" belong to the page, not the story.
_PAGE_MARK = re.compile(
    r"\s*(?:[(（\[【]\s*(?:第?\s*[\d一二三四五六七八九十]+\s*页|页\s*\d+|\d+\s*/\s*\d+|"
    r"page\s*\d+(?:\s*of\s*\d+)?)\s*[)）\]】]|"
    r"(?:\s+|\s*[-_|:：,，]\s*)(?:第\s*[\d一二三四五六七八九十]+\s*页|page\s+\d+(?:\s+of\s+\d+)?))\s*$",
    re.I,
)
# Documentation generators (Sphinx, MkDocs, Docusaurus) end headings in a permalink mark.
_PERMALINK = re.compile(r"\s*[¶#§]\s*$")
# Breadcrumbs: "当前位置：首页 > 军事", "Home > News > …", "首页->军事技术".
_CRUMB_LABEL = re.compile(
    r"^\s*(?:您|你)?(?:现在|当前|所在)?的?位置\s*[:：]|^\s*(?:首页|主页|home)\s*(?:>|»|›|→|->|＞|/|\|)",
    re.I)
_CRUMB_SEP = re.compile(r"\s(?:>|»|›|→|＞)\s|->|>>|→")
# A site's own name, not a story's: blog and portal names (…的博客, …门户网站) up to 12 CJK
# characters; the words a headline may end in too (…网, …频道, …论坛) only in short names.
_SITE_WORDS = re.compile(r"(?:的博客|的空间|博客|官网|官方网站|门户网站|门户|网站|\bweblog)$", re.I)
_SHORT_SITE_WORDS = re.compile(r"(?:网|在线|频道|论坛|社区|首页|专栏|\bblog)$", re.I)
# … the welcome line old portals put in every page's <title> …
_WELCOME = re.compile(r"^(?:欢迎|谢谢您?|感谢您?)(?:访问|光临|来到)|^welcome\s+to\b", re.I)
# … and a domain name ("…-CSDN.NET", "SJSUSpartans.com—Official Web Site of …").
_DOMAIN = re.compile(
    r"(?:https?://)?(?:www\.)?[a-z0-9][\w-]*(?:\.[\w-]+)*\.(?:com|net|org|cn|gov|edu|info|biz|tv|"
    r"cc|co|io|me|uk|au|in|de|fr|jp|hk|tw|ca|nz|za)(?:\.[a-z]{2})?\b", re.I)
_LIST_COMMA = re.compile(r"[,，、]")
# Navigation, menus, breadcrumbs (Chinese portals: class="position", "daohang", "weizhi"); not
# "canvas", not the utility class "position-relative".
_NAV_CLASS = re.compile(
    r"nav(?!a)|menu|crumb|daohang|weizhi|(?<![\w-])(?:position|location)(?![\w-])", re.I)
# The site's logo, brand or masthead: its name, however big it is printed.
_BRAND_CLASS = re.compile(r"logo|brand|masthead|site[-_]?(?:name|title)|blogname", re.I)
# The words a match of each chrome pattern has (tested for ASCII text only).
_CHROME_WORDS = {
    _NAV_CLASS: ("nav", "menu", "crumb", "daohang", "weizhi", "position", "location"),
    _BRAND_CLASS: ("logo", "brand", "masthead", "site", "blogname"),
}
_ROOT_HREF = re.compile(r"^(?:(?:https?:)?//[^/?#]+/?|\.?/|(?:\.?/)?index\.\w{2,5})$", re.I)
_NON_WORD = re.compile(r"[\W_]+")
_WORD = re.compile(r"[^\W\d_]{2,}")  # letter-spaced "e C e n t r a l" is no sentence
_NUMBER = re.compile(r"\d+")
# A separator right after (or before) a headline inside a title; "——" joining a Chinese
# headline to its second line, or a word's hyphen, is none.
_SEPARATED_END = re.compile(r"(?:[|_｜»/>:：-]|\s[–—·•])\s*$")
_SEPARATED = re.compile(r"\s*(?:[|_｜»/>:：]|-(?!-*\w*-\w)|\s[–—·•]\s)")


@lru_cache(maxsize=8192)
def _key(text: str) -> str:
    """What two spellings of one title share: letters and digits, case folded (curly or straight
    quotes, "And"/"and", a dropped apostrophe all compare equal)."""
    return _NON_WORD.sub("", text.casefold())


@lru_cache(maxsize=8192)
def _clean(text: str) -> str:
    """A candidate's text without the page marker and permalink mark around the headline.
    Each pattern runs only when the text ends (white space aside) as a match of it must: in
    ¶, # or §, and in a bracket, 页 or a digit."""
    if (end := text.rstrip()[-1:]) and end in "¶#§":
        text = _PERMALINK.sub("", text)
    if (end := text.rstrip()[-1:]) and (end in ")）]】页" or end.isdigit()):
        text = _PAGE_MARK.sub("", text)
    return text.strip()


@dataclass
class Headline:
    """A visible text that may be the headline: where it is, what it says, how it looks."""

    index: int
    el: etree._Element
    text: str
    kind: str  # h1, h2, h3, minor, class, echo (see TitleOptions.look_*)
    link_keys: frozenset[str]  # texts of the links in or around it (a headline linking to itself)
    in_nav: bool
    in_brand: bool  # in the site's logo or masthead


@dataclass
class PageFacts:
    """Everything the metadata needs, read in one pass before noise removal changes the tree;
    ``order`` numbers the elements so later choices can say "near the article"."""

    order: dict[etree._Element, int]
    declared: list[tuple[str, str]]  # (source, text): JSON-LD, metas, then <title>
    site_names: set[str]  # keys of og:site_name and of the texts of links to a site's home
    link_texts: Counter[str]  # keys of link texts → how often
    prose: list[tuple[int, int]]  # (element index, visual length) of the longer texts, in order
    headlines: list[Headline]
    dates: list[tuple[int, str, bool]]  # (element index, ISO date, follows a cue word)
    authors: list[tuple[int, str]]
    meta_date: str | None
    meta_author: str | None
    lang: str | None
    selected_title: tuple[str, etree._Element] | None
    source_version: str | None  # what the page says it documents (a docs site's version)
    site_name: str | None  # the name the site gives itself (og:site_name, application-name)


@dataclass
class PageMeta:
    title: str
    published: str | None
    author: str | None
    lang: str | None
    source_version: str | None = None
    site_name: str | None = None


def gather(root: etree._Element, title_selector: str | None = None) -> PageFacts:
    """Read titles, dates and authors with their positions (one walk over the tree).

    This walk visits every element of the page once per extraction pass, so it is kept lean:
    the head's metas, scripts and <title> come from one C-level pass (``_Head``), a decision
    that depends on an element's tag, class and id only is cached across elements, and what a
    headline needs from its surroundings (the links in and around it, a nav container above
    it) is read after the walk from what the walk recorded."""
    head = _Head(root)
    metas = _meta_map(head.metas)
    selected = None
    if title_selector:
        for el in selector(title_selector)(root):
            if text := text_of(el):
                selected = (text, el)
                break
    declared = _declared_titles(head)
    site_names = {_key(metas.get("og:site_name", ""))}
    link_texts: Counter[str] = Counter()
    link_keys: dict[etree._Element, str] = {}  # every link → the key of its whole text
    # A plain element saying a declared title (or a segment of it) is a candidate too: old
    # table layouts put the headline in a <td> or <p> with no heading markup at all.
    wanted = {_key(u) for _, text in declared for u in (text, *_segments(text))} - {""}
    echoes = _EchoTest(wanted, declared) if wanted else None
    order: dict[etree._Element, int] = {}
    found: list[tuple[int, etree._Element, str, str]] = []  # (index, element, text, kind)
    taken: set[etree._Element] = set()
    dates: list[tuple[int, str, bool]] = []
    authors: list[tuple[int, str]] = []
    prose: list[tuple[int, int]] = []
    marked: list[etree._Element] = []  # see _Marked
    prev = ""  # the text before, for a date's cue word
    for i, el in enumerate(root.iter()):
        order[el] = i
        tag = el.tag
        if not isinstance(tag, str):  # a comment or processing instruction (as tag_of)
            continue
        if tag == "a":
            link_keys[el] = _read_link(el, link_texts, site_names)
        cls = el.get("class")
        if (el.get("itemprop") in _MARK_PROPS or el.get("rel") == "author" or tag == "time"
                or (cls and "byline" in cls)):
            marked.append(el)
        if tag not in _NOT_HEADLINE_TAGS and (kind := _headline_kind(tag, cls, el.get("id"))):
            _add_candidate(i, el, kind, found, taken)
        # Texts of white space only (most tails: the markup's indentation) count for nothing.
        own = el.text
        if own and tag not in _SKIP_TEXT and (text := own.strip()):
            if echoes is not None:
                for echo in echoes.find(el, text):
                    if echo not in taken:
                        found.append((order[echo], echo, _text_of(echo), "echo"))
                        taken.add(echo)
            if tag != "a":  # a date in link text dates another page (an archive, a related story)
                prev = _read_text(i, el, own, text, prev, prose, dates, authors)
        tail = el.tail
        if tail and (text := tail.strip()):
            prev = _read_text(i, el, tail, text, prev, prose, dates, authors)
    around = _Surroundings(link_keys)
    headlines = [around.headline(index, el, text, kind) for index, el, text, kind in found]
    headlines.sort(key=lambda h: h.index)
    return PageFacts(
        order=order, declared=declared, site_names=site_names - {""}, link_texts=link_texts,
        prose=prose, headlines=headlines, dates=dates, authors=authors,
        meta_date=_meta_date(head, _Marked(marked), metas),
        meta_author=_meta_author(head, _Marked(marked), metas), lang=find_lang(root, metas),
        selected_title=selected, source_version=_source_version(metas),
        site_name=_site_name(metas),
    )


def _add_candidate(
    i: int, el: etree._Element, kind: str,
    found: list[tuple[int, etree._Element, str, str]], taken: set[etree._Element],
) -> None:
    """Record a headline candidate (element ``i`` of the walk) with the text it says."""
    target, text = el, _text_of(el)
    if _TOPIC_LABEL.match(text) and (parent := el.getparent()) is not None:
        # Forums: <b>主题：</b> the thread's title
        target, text, kind = parent, _TOPIC_LABEL.sub("", _text_of(parent)), "class"
    if kind != "minor" and (lead := " ".join((target.text or "").split())) != text and (
        len(lead) >= 4 and (_METADATA_LINE.search(text) or _iter_dates(text))
    ):
        text = lead  # the headline's own text, without the dateline or byline inside it
    if 2 <= len(text) <= 200 and target not in taken:
        found.append((i, target, text, kind))
        taken.add(target)


def _read_text(
    i: int, el: etree._Element, raw: str, text: str, prev: str,
    prose: list[tuple[int, int]], dates: list[tuple[int, str, bool]],
    authors: list[tuple[int, str]],
) -> str:
    """Read a text or tail of element ``i`` (``text`` is ``raw`` stripped, never empty): a
    longer one is prose, a short one may be a date or byline line. Returns ``text``, the text
    before the next one."""
    if len(raw) >= 30 and (size := _visual_len(text)) >= 30:
        prose.append((i, size))
    # Date and byline lines are short; long texts are body prose, whose dates don't count.
    if len(raw) > 300:
        return prev
    if _MAYBE_DATE.search(text):
        for iso, start in _iter_dates(text):
            dates.append((i, iso, bool(_DATE_CUE.search((prev + " " + text[:start])[-14:]))))
        # Every byline pattern has 者 (作者, 记者), 文 or a leading "By".
        if ("者" in text or "文" in text or text.startswith(("By", "by"))) and (
            (m := _AUTHOR_TEXT.search(text)) and not _in_comments(el)
        ):
            authors.append((i, next(g for g in m.groups() if g)))
    return text


def _text_of(el: etree._Element) -> str:
    """``text_of``, without starting a text iterator for an element without children."""
    if len(el):
        return text_of(el)
    return " ".join(el.text.split()) if el.text else ""


class _Head:
    """The <meta> and <script> elements and the first <title>, in document order, collected in
    one pass (metas and JSON-LD are read for the title, the date and the author)."""

    def __init__(self, root: etree._Element) -> None:
        self.metas: list[etree._Element] = []
        self.scripts: list[etree._Element] = []
        self.title: etree._Element | None = None
        for el in root.iter("meta", "script", "title"):
            tag = el.tag
            if tag == "meta":
                self.metas.append(el)
            elif tag == "script":
                self.scripts.append(el)
            elif self.title is None and el is not root:
                self.title = el


class _Marked:
    """Elements that mark a date or an author for machines (itemprop, rel, <time pubdate>) or
    a byline by class, in document order. The walk collects a superset cheaply (an XPath query
    per kind costs a tree walk each); each method here is exactly its query's filter."""

    def __init__(self, found: list[etree._Element]) -> None:
        self.found = found

    def dates(self) -> list[etree._Element]:
        """As ``//*[@itemprop='datePublished'] | //time[@pubdate]``."""
        return [el for el in self.found if el.get("itemprop") == "datePublished"
                or (el.tag == "time" and el.get("pubdate") is not None)]

    def authors(self) -> list[etree._Element]:
        """As ``//*[@itemprop='author'] | //*[@rel='author']``."""
        return [el for el in self.found
                if el.get("itemprop") == "author" or el.get("rel") == "author"]

    def bylines(self) -> list[etree._Element]:
        """As ``//*[contains(concat(' ', normalize-space(@class), ' '), ' byline ')]`` (a class
        token, as XPath's normalize-space splits them), not inside the comments."""
        return [el for el in self.found
                if "byline" in _XPATH_SPACE.split(el.get("class") or "")
                and not _in_comments(el)]


_MARK_PROPS = frozenset(("datePublished", "author"))
_XPATH_SPACE = re.compile(r"[ \t\r\n]+")  # XPath's white space, not Python's wider one


def _meta_map(metas: list[etree._Element]) -> dict[str, str]:
    """meta name/property/itemprop (lower-cased) → content; the first occurrence wins."""
    out: dict[str, str] = {}
    for el in metas:
        key = el.get("property") or el.get("name") or el.get("itemprop") or el.get("http-equiv")
        content = el.get("content")
        if key and content and content.strip():
            out.setdefault(key.strip().lower(), content.strip())
    return out


# The metas documentation generators write for the version a page documents: DocSearch's
# (Docusaurus, Sphinx and MkDocs themes), and the plain names others use. Two pages stating
# different versions are two editions, never duplicates of each other (see pipeline.text.dedup).
_VERSION_METAS = ("docsearch:version", "docs-version", "doc-version", "version")


def _site_name(metas: dict[str, str]) -> str | None:
    """The site's own name, as its pages declare it: what a title must not merely be (the run
    report flags an article whose title is this name)."""
    name = " ".join((metas.get("og:site_name") or metas.get("application-name") or "").split())
    return name[:200] or None


def _source_version(metas: dict[str, str]) -> str | None:
    return next((metas[k][:100] for k in _VERSION_METAS if k in metas), None)


def _declared_titles(head: _Head) -> list[tuple[str, str]]:
    """What the page declares its title to be, most trusted first (Readability.js's order:
    JSON-LD, dc:title, og:title, meta title, twitter:title), then the <title>."""
    title_el = head.title
    # An unclosed <title> swallows the page as text: keep what comes before the first tag.
    page_title = text_of(title_el).split("<", 1)[0][:300].strip() if title_el is not None else ""
    out = []
    if ld := _jsonld_titles(head.scripts):
        headline, name = ld
        if headline and name and headline != name:
            # Some sites put their own name in "name": the one the <title> repeats wins.
            in_title = [_key(t) in _key(page_title) for t in (headline, name)]
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


def _read_link(a: etree._Element, link_texts: Counter[str], site_names: set[str]) -> str:
    """Count a link's text; a link to a home page names a site: the logo, a blog's or a
    channel's name ("网易娱乐" → http://ent.163.com/), or another site's in the footer.
    Returns the key of the link's whole text (for the headlines that hold or are the link).

    The key is taken from the raw text: collapsing white space first changes no key, since
    ``_key`` drops all of it."""
    raw = "".join(a.itertext()) if len(a) else a.text or ""
    full = _NON_WORD.sub("", raw.casefold())  # _key, not cached: most link texts are read once
    key = full if len(raw) <= 100 or len(" ".join(raw.split())) <= 100 else ""
    if key:
        link_texts[key] = link_texts.get(key, 0) + 1
    # A home page's address has at most three slashes ("https://example.com/").
    if (href := a.get("href")) and href.count("/") <= 3 and _ROOT_HREF.match(href.strip()):
        site_names.update(k for k in [key, *(_key(i.get("alt") or "") for i in a.iter("img"))] if k)
    return full


@lru_cache(maxsize=16384)
def _headline_kind(tag: str, cls: str | None, ident: str | None) -> str:
    """h1, h2, h3, minor (h4–h6, b, strong, font), class (its class, id or own tag name says
    title) or "" (no candidate). An author's byline is none, however it is styled. Decided once
    per tag, class and id (a page repeats them), never for ``_NOT_HEADLINE_TAGS``.

    The patterns are read against class and id one at a time (they were read against
    "class id"): neither matches across that space, and the space stands for the start or end
    that ``_TITLE_CLASS``'s "tit" needs around it, so the answers are the same, and a class
    shared by many elements with different ids is read once."""
    byline_cls, title_cls = _class_says(cls) if cls else (False, False)
    byline_id, title_id = _class_says(ident) if ident else (False, False)
    if byline_cls or byline_id:
        return ""
    if tag in _HEADLINE_TAGS:
        return _HEADLINE_TAGS[tag]
    if title_cls or title_id:
        return "class"
    if tag not in BLOCK_TAGS and _TITLE_CLASS.search(tag):
        return "class"  # a CMS's own tag: <arttitle>, <headline>
    return "minor" if tag in _BOLD_TAGS else ""


@lru_cache(maxsize=8192)
def _class_says(attr: str) -> tuple[bool, bool]:
    """Whether a class or id names a byline, and whether it names a title."""
    if attr.isascii():
        # Within ASCII, ignoring case is lower-casing: a match needs the patterns' words.
        low = attr.lower()
        byline = "byline" in low or "author" in low  # all of _BYLINE_CLASS
        return byline, ("tit" in low or "head" in low) and bool(_TITLE_CLASS.search(attr))
    return bool(_BYLINE_CLASS.search(attr)), bool(_TITLE_CLASS.search(attr))


class _EchoTest:
    """Finds the elements whose text is a declared title (see ``find``), for one page."""

    def __init__(self, wanted: set[str], declared: list[tuple[str, str]]) -> None:
        self.wanted = wanted
        # The keys' first one and two characters: a key that is or begins a wanted one starts so.
        self.starts = {w[:1] for w in wanted} | {w[:2] for w in wanted}
        self.titles = [t for _, t in declared]
        # Declared titles have their white space collapsed, so no newline: a text without one
        # is in this string exactly when it is in one of the titles.
        self.joined = "\n".join(self.titles)

    def find(self, el: etree._Element, text: str) -> list[etree._Element]:
        """The element, or its parent, when its whole text is a declared title or segment: a
        headline whose own text is only the start of one was broken over several inline
        elements. Also the element whose text a declared title has before or after a separator
        the split does not take ("Kat to go to London... with Sallu-India Buzz-The Times of
        India"). ``text`` is the element's own text, stripped (never empty)."""
        if len(text) < 2:
            return []  # its white space collapsed, it is no longer
        # Cheap tests first. Unless its text is in a declared title (for ``_bounded``), an
        # element is an echo only when its key is or begins a wanted key; most texts start
        # like none (``_key`` of a text's start is the start of its key).
        start = _NON_WORD.sub("", text[:16].casefold())  # _key, not cached
        starts = start[:2] in self.starts if len(start) >= 2 or len(text) <= 16 else True
        if not starts and (text[:2] if not text[1].isspace() else text[0] + " ") not in self.joined:
            return []  # … nor are its first two characters in a declared title
        own = " ".join(text.split())
        if not 2 <= len(own) <= 200 or (not starts and own not in self.joined):
            return []
        key = _key(own)
        if not key:
            return []
        wanted = self.wanted
        if key in wanted:
            return [el]
        if len(own) >= 8 and not len(el) and any(_bounded(own, t) for t in self.titles):
            return [el]
        if len(key) < 4 or not any(w.startswith(key) for w in wanted):
            return []
        parent = el.getparent()
        return [e for e in (el, parent) if e is not None and _key(text_of(e)) in wanted][:1]


def _bounded(part: str, title: str) -> bool:
    """The title has ``part`` at one end, cut from the rest by a separator."""
    if title.startswith(part):
        return bool(_SEPARATED.match(title[len(part):]))
    return title.endswith(part) and bool(_SEPARATED_END.search(title[: -len(part)]))


class _Surroundings:
    """What a page's headline candidates need from around them: the keys of the links in and
    around each (the walk recorded every link's) and whether a nav or brand container holds it.
    Each element's class and id are read once, however many candidates sit below it."""

    def __init__(self, link_keys: dict[etree._Element, str]) -> None:
        self.link_keys = link_keys
        self.own: dict[etree._Element, tuple[bool, bool]] = {}  # (nav, brand) by its own markup
        self.nav: dict[etree._Element, bool] = {}  # it or an ancestor is nav

    def headline(self, index: int, el: etree._Element, text: str, kind: str) -> Headline:
        if len(el):
            links = {self._link_key(a) for a in el.iter("a")}
        else:
            links = {self._link_key(el)} if el.tag == "a" else set()
        links.update(self._link_key(a) for a in el.iterancestors("a"))
        brand = False
        e: etree._Element | None = el
        for _ in range(4):  # the element and its three nearest ancestors
            if e is None:
                break
            if self._own(e)[1]:
                brand = True
                break
            e = e.getparent()
        return Headline(index, el, text, kind, frozenset(links), self._in_nav(el), brand)

    def _link_key(self, a: etree._Element) -> str:
        """The key of a link's whole text (a link above the walked root, which gather never
        meets, is read here)."""
        key = self.link_keys.get(a)
        return _key(text_of(a)) if key is None else key

    def _own(self, el: etree._Element) -> tuple[bool, bool]:
        """Whether the element is a <nav> or its class or id says nav, menu or breadcrumb, and
        whether they say logo, brand or masthead."""
        if (says := self.own.get(el)) is None:
            says = (el.tag == "nav" or _chrome_class(el, _NAV_CLASS),
                    _chrome_class(el, _BRAND_CLASS))
            self.own[el] = says
        return says

    def _in_nav(self, el: etree._Element) -> bool:
        """The element or an ancestor is nav (the answer remembered for every element on the
        way up, so the candidates of one block share the climb)."""
        known = self.nav
        climbed: list[etree._Element] = []
        inside = False
        e: etree._Element | None = el
        while e is not None:
            if e in known:
                inside = known[e]
                break
            climbed.append(e)
            e = e.getparent()
        for e in reversed(climbed):
            inside = inside or self._own(e)[0]
            known[e] = inside
        return inside


def _chrome_class(el: etree._Element, pattern: re.Pattern[str]) -> bool:
    """The element's class or id matches a chrome pattern (read one at a time: as in
    ``_headline_kind``, no match spans the space of "class id")."""
    cls, ident = el.get("class"), el.get("id")
    return bool(cls and _class_matches(cls, pattern)) or bool(
        ident and _class_matches(ident, pattern))


@lru_cache(maxsize=8192)
def _class_matches(attr: str, pattern: re.Pattern[str]) -> bool:
    if attr.isascii() and not any(w in attr.lower() for w in _CHROME_WORDS[pattern]):
        return False  # within ASCII, ignoring case is lower-casing: a match needs a word
    return bool(pattern.search(attr))


@lru_cache(maxsize=1024)
def _segments(text: str) -> tuple[str, ...]:
    """A declared title's parts between site separators, page markers cut off."""
    return tuple(s for seg in _TITLE_SPLIT.split(text) if (s := _clean(seg)))


def _site_like(text: str, names: set[str]) -> bool:
    """Positive evidence that a text names the site, a channel or a blog, not a story."""
    key = _key(text)
    return not key or key in names or _names_a_site(text)


@lru_cache(maxsize=8192)
def _names_a_site(text: str) -> bool:
    """``_site_like``'s evidence in the text alone: a welcome line, a site word at its end, a
    domain name (which needs a dot) making up much of it."""
    if _WELCOME.search(text):
        return True
    vlen = _visual_len(text)
    if (vlen <= 36 and _SITE_WORDS.search(text)) or (vlen <= 18 and _SHORT_SITE_WORDS.search(text)):
        return True
    m = _DOMAIN.search(text) if "." in text else None
    return m is not None and len(m.group()) >= 0.4 * len(text)


def _site_part(text: str, names: set[str]) -> bool:
    """A declared title's part naming the site, or listing keywords for search engines
    ("workington news sport, west cumbria news, lake district news")."""
    return _site_like(text, names) or len(_LIST_COMMA.findall(text)) >= 3


@dataclass
class _Declared:
    """A declared title read against the page: its segments, which of them name the site, and
    the headline part that is left (empty when the whole title names the site)."""

    source: str
    text: str
    segments: tuple[str, ...]
    site: list[bool]
    head: str
    # What ``_agreement`` compares with: (text, key) of each segment not naming the site, then
    # of the whole title when it has several, the empty keys left out.
    units: tuple[tuple[str, str], ...] = ()


def _declare(source: str, text: str, names: set[str]) -> _Declared:
    segments = _segments(text) or (text,)
    site = [_site_part(s, names) for s in segments]
    head = _strip_site_ends(text, names) if not all(site) else ""
    if source in _PAGE_TITLES and len(parts := _segments(head)) > 1:
        head = max(parts, key=_visual_len)  # of a <title>'s parts, the story's is the longest
    cleaned = _clean(text)
    units = list(zip(segments, site, strict=True))
    if len(units) > 1:
        units.append((cleaned, False))
    keyed = tuple((unit, other) for unit, is_site in units if not is_site and (other := _key(unit)))
    return _Declared(source, cleaned, segments, site, head, keyed)


def _strip_site_ends(text: str, names: set[str]) -> str:
    """A declared title without the site, channel or blog names at its ends (the rest stays as
    written: "Friday Facts #282 - 0.17 in sight | Factorio" keeps its inner " - ")."""
    while parts := list(_TITLE_SPLIT.finditer(text)):
        if _site_part(text[parts[-1].end():], names):
            text = text[:parts[-1].start()]
        elif _site_part(text[:parts[0].start()], names):
            text = text[parts[0].end():]
        else:
            break
    return _clean(text)


def resolve(
    facts: PageFacts, url: str, start: etree._Element | None,
    options: TitleOptions = DEFAULT_TITLE,
) -> PageMeta:
    """Choose title, date and author now that the article's first element is known."""
    at = facts.order.get(start, 0) if start is not None else 0
    title, head_index = _choose_title(facts, url, at, options)
    return PageMeta(
        title=title,
        published=facts.meta_date or _choose_date(facts, head_index, at),
        author=facts.meta_author or _choose_author(facts, head_index, at),
        lang=facts.lang, source_version=facts.source_version, site_name=facts.site_name,
    )


def _choose_title(
    facts: PageFacts, url: str, at: int, options: TitleOptions = DEFAULT_TITLE
) -> tuple[str, int | None]:
    """The best-scoring candidate, visible (``_score_visible``) or declared
    (``_score_declared``); the index is the visible headline's, for the date next to it.
    Without any candidate, the URL's slug (seed 000: h1 > title > URL)."""
    if facts.selected_title:
        text, el = facts.selected_title
        return text, facts.order.get(el)
    names = facts.site_names
    titles = [_declare(source, text, names) for source, text in facts.declared]
    site_keys = _site_keys(titles)
    best: tuple[float, str, int | None] = (options.min_score, "", None)
    for h in facts.headlines:
        scored = _score_visible(h, titles, site_keys, facts, names, at, options)
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
    h: Headline, titles: list[_Declared], site_keys: frozenset[str], facts: PageFacts,
    names: set[str], at: int, o: TitleOptions,
) -> tuple[float, str] | None:
    """agreement with the declared titles + look + nearness + length − link and nav penalties.
    A breadcrumb, a site's logo or name, a 原标题 or byline line, and (when nothing declared
    confirms it) a section heading below the article's start, a sentence or a dateline are
    never the headline."""
    text = _clean(h.text)
    if h.in_brand or len(text) < 2 or _NOT_HEADLINE.search(text):
        return None
    if _CRUMB_LABEL.search(text) or len(_CRUMB_SEP.findall(text)) >= 2:
        return None
    key = _key(text)
    if not key or _site_like_visible(text, key, site_keys, names):
        return None
    agreements = [_agreement(text, d, o) for d in titles]
    if (stripped := _CATEGORY.sub("", text)) != text:
        # [专栏] 标题: the category label goes unless the declared title has it too
        alt = [_agreement(stripped, d, o) for d in titles]
        if max(alt, default=0.0) >= max(agreements, default=0.0):
            text, key, agreements = stripped, _key(stripped), alt
    agree = max(agreements, default=0.0)
    if agree < 0.6:
        # Unconfirmed: not a section's heading below the start (past the article's first prose,
        # or far), a sentence, a numbered section ("二、调查中发现的问题", "3. Results") or a
        # date/byline line.
        if h.index > at and (h.index > at + o.below_span or _prose_between(facts, at, h.index, o)):
            return None
        if _CLOSING.sub("", text).endswith(_END_PUNCT):
            return None
        if _SECTION_NUMBER.match(text) or _METADATA_LINE.search(text) or _iter_dates(text):
            return None
    extra = o.extra_source * max(0, sum(a >= 0.6 for a in agreements) - 1)
    repeated = facts.link_texts[key] - (key in h.link_keys)
    score = (
        o.agree * agree + extra + _look(h.kind, o) + o.near * _nearness(h.index, at, o)
        + o.shape * _shape(text, o)
        - o.repeated_link * min(1.0, repeated / 2) - (o.in_nav if h.in_nav else 0.0)
    )
    return score, text


def _prose_between(facts: PageFacts, at: int, index: int, o: TitleOptions) -> bool:
    """Body prose between the article's start and an element: that element is in or after the
    article, not its headline."""
    for pos, size in facts.prose[bisect_right(facts.prose, (at, 1 << 30)):]:
        if pos >= index:
            return False
        if size >= o.prose_chars:
            return True
    return False


def _site_keys(titles: list[_Declared]) -> frozenset[str]:
    """Keys of the declared titles' site parts."""
    return frozenset(_key(s) for d in titles
                     for s, is_site in zip(d.segments, d.site, strict=True) if is_site)


def _site_like_visible(text: str, key: str, site_keys: frozenset[str], names: set[str]) -> bool:
    """A visible text that is a declared title's site part, or names a site by itself."""
    return key in site_keys or _site_like(text, names)


def _score_declared(d: _Declared, titles: list[_Declared], o: TitleOptions) -> float:
    """A declared title standing alone: trust in its source + length + the other declared
    titles agreeing with it (og:title = the <title>'s first part)."""
    others = sum(1 for e in titles if e is not d and _agreement(d.head, e, o) >= 0.6)
    if d.source not in _PAGE_TITLES:
        return o.declared_meta + o.extra_source * others  # declared for this: length is no matter
    return o.declared_title + o.shape * _shape(d.head, o) + o.extra_source * others


def _agreement(text: str, d: _Declared, o: TitleOptions) -> float:
    """How well a text agrees with a declared title, 0–1: 1 for a segment of it; less when one
    contains the other ("IOL: Trio set for Derby debuts", a headline with a kicker), by the
    share the shorter covers and by how much the shared part reads like a headline (a site's
    name inside a copyright line shares a word or two). A site segment agrees with nothing."""
    key = _key(text)
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


def _visual_len(text: str) -> int:
    """Length as a reader sees it: a CJK character weighs about as much as a short word."""
    return len(text) if text.isascii() else len(text) + 2 * len(HAN_CHAR.findall(text))


def _meta_date(head: _Head, marked: _Marked, metas: dict[str, str]) -> str | None:
    """meta → JSON-LD → itemprop/<time pubdate>: what the page declares for machines."""
    for key in _DATE_META:
        if key in metas and (iso := parse_date(metas[key])):
            return iso
    for script in head.scripts:
        if script.get("type", "").lower() == "application/ld+json" and script.text:
            if (m := _JSONLD_DATE.search(script.text)) and (iso := parse_date(m.group(1))):
                return iso
    for el in marked.dates():
        value = el.get("datetime") or el.get("content") or text_of(el)
        if iso := parse_date(value):
            return iso
    return None


def _choose_date(facts: PageFacts, head: int | None, at: int) -> str | None:
    """A date shown between the headline and the article (a cue word such as 发布 or Posted wins
    over a bare date), else just above the headline or at the very top of the article, else one
    with a cue word below
    it (blog footers: 发表于 …, posted @ …); dates in links and deep in the body are ignored."""
    lo = min(head, at) if head is not None else at - 150
    hi = max(at, lo + 30)
    for window in (
        [d for d in facts.dates if lo <= d[0] <= hi],
        [d for d in facts.dates if lo - 30 <= d[0] < lo],  # a date bar above the headline
        [d for d in facts.dates if hi < d[0] <= hi + 10],
    ):
        for _, iso, cue in window:
            if cue:
                return iso
        if window:
            return window[0][1]
    return next((iso for i, iso, cue in facts.dates if cue and i >= lo), None)


def _choose_author(facts: PageFacts, head: int | None, at: int) -> str | None:
    lo = head if head is not None else at - 150
    return next((name for i, name in facts.authors if lo <= i <= at + 40), None)


def _iter_dates(text: str) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    if not _YEAR.search(text):
        return found  # every pattern below needs a year
    for pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if iso := _iso(*m.groups()):
                found.append((iso, m.start()))
    for m in _SLASH_DATE.finditer(text):
        a, b, year, hh, mm, ss, ampm = m.groups()
        month, day = (a, b) if int(a) <= 12 else (b, a)
        if hh is not None and ampm:
            hh = str(int(hh) % 12 + (12 if ampm in "Pp" else 0))
        if iso := _iso(year, month, day, hh, mm, ss):
            found.append((iso, m.start()))
    for i, pattern in enumerate(_EN_DATES):
        for m in pattern.finditer(text):
            mon, day, year = (m.group(1), m.group(2), m.group(3)) if i == 0 else (
                m.group(2), m.group(1), m.group(3))
            if iso := _iso(year, str(_MONTHS[mon[:3].lower()]), day):
                found.append((iso, m.start()))
    found.sort(key=lambda f: f[1])
    return found


def _iso(year: str, month: str, day: str, hh: str | None = None, mm: str | None = None,
         ss: str | None = None) -> str | None:
    try:
        d = datetime(int(year), int(month), int(day))
        if hh is not None and mm is not None:
            d = d.replace(hour=int(hh), minute=int(mm), second=int(ss or 0))
            return d.isoformat()
    except ValueError:
        return None
    if not 1990 <= d.year <= 2100:
        return None
    return d.date().isoformat()


def parse_date(value: str | None) -> str | None:
    """An ISO 8601 string (offset kept when given) from a meta/JSON-LD/visible date, or None."""
    if not value:
        return None
    value = value.strip()
    try:
        d = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if 1990 <= d.year <= 2100:
            return d.isoformat() if (d.hour or d.minute or d.tzinfo) else d.date().isoformat()
    except ValueError:
        pass
    if value.isdigit() and len(value) in (10, 13):  # epoch seconds / milliseconds
        return None
    dates = _iter_dates(value)
    return dates[0][0] if dates else None


# --- author and language -------------------------------------------------------------------


def _meta_author(head: _Head, marked: _Marked, metas: dict[str, str]) -> str | None:
    for key in _AUTHOR_META:
        if name := _author_name(metas.get(key)):
            return name
    for script in head.scripts:
        if script.get("type", "").lower() == "application/ld+json" and script.text:
            if m := _JSONLD_AUTHOR.search(script.text):
                if name := _author_name(m.group(1) or m.group(2)):
                    return name
    for el in marked.authors():
        if name := _author_name(el.get("content") or text_of(el)):
            return name
    # A "byline" element (hAtom, WordPress themes), not one inside the comments
    for el in marked.bylines():
        if name := _author_name(text_of(el)):
            return name
    return None


_IN_COMMENTS_XPATH = etree.XPath(
    "boolean(ancestor-or-self::*[contains(@class, 'comment') or contains(@id, 'comment')])"
)


def _in_comments(el: etree._Element) -> bool:
    """Inside a comment thread: a commenter's "by …" is not the article's author."""
    return bool(_IN_COMMENTS_XPATH(el))


_BYLINE_TAIL = re.compile(
    r"\s+(?:@|•|\||·|-\s|–|—)|\s+\d{4}[-/]|"
    r"\s+(?:on\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d",
    re.I,
)


def _author_name(value: str | None) -> str | None:
    """A person's or desk's name from a byline: no "By", no handle, date or reading time."""
    if not value or value.startswith(("http:", "https:")):
        return None
    name = re.sub(r"^\s*by\s+", "", " ".join(value.split()), flags=re.I)
    name = _BYLINE_TAIL.split(name, maxsplit=1)[0].strip(" ,;:")
    return name if 2 <= len(name) <= 100 else None


def find_lang(root: etree._Element, metas: dict[str, str]) -> str | None:
    """The declared language (<html lang>, content-language, og:locale), or None: the article's
    text is then guessed from (``cjk.guess_lang``)."""
    lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang")
    lang = lang or metas.get("content-language") or metas.get("og:locale")
    if lang:
        return lang.strip().replace("_", "-").split(",")[0] or None
    return None
