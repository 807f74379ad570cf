"""Title, publish time, author and language of a page (seed 001; issue 4 §5–6).

Read from the whole page before noise removal: the visible headline and the date line next to it
often sit in a header block that the body extractor throws away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from lxml import etree

from pipeline.extract.dom import selector, tag_of, text_of

# Separators between a headline and the site name in <title> (seed 000: h1 > title > URL).
_TITLE_SPLIT = re.compile(
    r"\s+[-|–—·•»:]+\s+|(?<=[\u4e00-\u9fff）)])-|-(?=[\u4e00-\u9fff])|\s*[|_｜•»]+\s*|"
    r"\s*-{2,}\s*|\s+::\s+"
)
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
    r"(?:^|[\s（(])文\s*[/／]\s*([\u4e00-\u9fff·]{2,8})" + _CJK_NAME_END + "|"
    # 本报记者 张三 / （记者 张三）, not "记者了解到"
    r"(?:^|[\s（(【]|本报|本台|社|网)记者\s*(?!" + _REPORTER_VERBS + r")"
    r"([\u4e00-\u9fff]{2,3})" + _CJK_NAME_END + "|"
    r"^[Bb]y\s+([A-Z][\w.'’-]+(?:\s+(?:[A-Z][\w.'’-]+|de|van|von|da|and)){0,6})"
)
_MAYBE_DATE = re.compile(r"\d|作者|文|记者|^[Bb]y\s")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")


_TITLE_CLASS = re.compile(r"title|heading|headline|(?:^|[\s_-])tit\d*(?:$|[\s_-])", re.I)
_HEADLINE_TAGS = {"h1": 0.3, "h2": 0.2, "h3": 0.15, "h4": 0.05, "h5": 0.05}
_BOLD_TAGS = frozenset(("b", "strong", "font"))
_SKIP_TEXT = frozenset(("script", "style", "noscript", "title", "option", "textarea", "head"))
_END_PUNCT = tuple("。.；;：:，,")  # a headline may end in ？ or ！, not in these
_CATEGORY = re.compile(r"^\s*(?:\[[^\]]{1,12}\]|【[^】]{1,12}】)\s*(?=\S)")  # [专栏] 标题
_TOPIC_LABEL = re.compile(r"^\s*(?:主题|标题|title)\s*[:：]\s*", re.I)
_METADATA_LINE = re.compile(
    r"作者[:：]|来源[:：]|发布|日期|时间[:：]|编辑[:：]|(?:19|20)\d\d[-/年.]\d", re.I)


def headline_text(el: etree._Element) -> str:
    """An element's text as one line."""
    return text_of(el)


@dataclass
class Headline:
    """A visible text that may be the headline: where it is, what it says, how it looks."""

    index: int
    el: etree._Element
    text: str
    look: float  # h1 > h2 > title-like class > bold


@dataclass
class PageFacts:
    """Everything the metadata needs, read in one pass before noise removal changes the tree;
    ``order`` numbers the elements so later choices can say "near the article"."""

    order: dict[etree._Element, int]
    refs: list[str]
    segments: list[str]
    headlines: list[Headline]
    dates: list[tuple[int, str, bool]]  # (element index, ISO date, follows a cue word)
    authors: list[tuple[int, str]]
    meta_date: str | None
    meta_author: str | None
    lang: str | None
    selected_title: tuple[str, etree._Element] | None


@dataclass
class PageMeta:
    title: str
    published: str | None
    author: str | None
    lang: str | None


def gather(root: etree._Element, title_selector: str | None = None) -> PageFacts:
    """Read titles, dates and authors with their positions (one walk over the tree)."""
    metas = _meta_map(root)
    selected = None
    if title_selector:
        for el in selector(title_selector)(root):
            if text := text_of(el):
                selected = (text, el)
                break
    title_el = root.find(".//title")
    page_title = text_of(title_el) if title_el is not None else ""
    refs = [" ".join(r.split()) for r in (metas.get("og:title"), metas.get("twitter:title"),
                                         page_title) if r and r.strip()]
    segments = [seg.strip() for r in refs for seg in _TITLE_SPLIT.split(r) if seg.strip()]
    order: dict[etree._Element, int] = {}
    headlines: list[Headline] = []
    dates: list[tuple[int, str, bool]] = []
    authors: list[tuple[int, str]] = []
    exact = set(refs) | set(segments)
    prev = ""
    for i, el in enumerate(root.iter()):
        order[el] = i
        tag = tag_of(el)
        if not tag:
            continue
        look = _headline_look(el, tag)
        if look:
            text = headline_text(el)
            if _TOPIC_LABEL.match(text) and (parent := el.getparent()) is not None:
                # Forums: <b>主题：</b> the thread's title
                text, el, look = _TOPIC_LABEL.sub("", headline_text(parent)), parent, 0.12
            if 2 <= len(text) <= 200 and not _METADATA_LINE.search(text):
                headlines.append(Headline(i, el, text, look))
        elif el.text and tag not in _SKIP_TEXT and " ".join(el.text.split()) in exact:
            headlines.append(Headline(i, el, " ".join(el.text.split()), 0.02))
        # A date in link text dates another page (an archive, a related story): skip it.
        own = el.text if tag not in _SKIP_TEXT and tag != "a" else None
        for raw in (own, el.tail):
            # Date and byline lines are short; long texts are body prose, whose dates don't count.
            if not raw or len(raw) > 300 or not (text := raw.strip()):
                continue
            prev, before = text, prev
            if not _MAYBE_DATE.search(text):
                continue
            for iso, start in _iter_dates(text):
                dates.append((i, iso, bool(_DATE_CUE.search((before + " " + text[:start])[-14:]))))
            if (m := _AUTHOR_TEXT.search(text)) and not _in_comments(el):
                authors.append((i, next(g for g in m.groups() if g)))
    return PageFacts(
        order=order, refs=refs, segments=segments, headlines=headlines, dates=dates,
        authors=authors, meta_date=_meta_date(root, metas), meta_author=_meta_author(root, metas),
        lang=find_lang(root, metas), selected_title=selected,
    )


def _meta_map(root: etree._Element) -> dict[str, str]:
    """meta name/property/itemprop (lower-cased) → content; the first occurrence wins."""
    out: dict[str, str] = {}
    for el in root.iter("meta"):
        key = el.get("property") or el.get("name") or el.get("itemprop") or el.get("http-equiv")
        content = el.get("content")
        if key and content and content.strip():
            out.setdefault(key.strip().lower(), content.strip())
    return out


def _headline_look(el: etree._Element, tag: str) -> float:
    if tag in _HEADLINE_TAGS:
        return _HEADLINE_TAGS[tag]
    if tag in ("html", "body", "head", "title", "meta", "script", "style", "li"):
        return 0.0
    cls, ident = el.get("class"), el.get("id")
    if (cls or ident) and _title_like(f"{cls or ''} {ident or ''}"):
        return 0.12
    if tag == "a":
        return 0.0
    if tag in _BOLD_TAGS:
        return 0.05
    return 0.0


@lru_cache(maxsize=8192)
def _title_like(attrs: str) -> bool:
    return bool(_TITLE_CLASS.search(attrs))


def resolve(facts: PageFacts, url: str, start: etree._Element | None) -> PageMeta:
    """Choose title, date and author now that the article's first element is known."""
    at = facts.order.get(start, 0) if start is not None else 0
    title, head_index = _choose_title(facts, url, at)
    return PageMeta(
        title=title,
        published=facts.meta_date or _choose_date(facts, head_index, at),
        author=facts.meta_author or _choose_author(facts, head_index, at),
        lang=facts.lang,
    )


def _choose_title(facts: PageFacts, url: str, at: int) -> tuple[str, int | None]:
    """The visible headline: the heading-like text that best matches <title>/og:title, nearest
    the article; without a match, a strong heading just above the article; then <title> without
    its site name; then the URL's slug (seed 000: h1 > title > URL)."""
    if facts.selected_title:
        text, el = facts.selected_title
        return text, facts.order.get(el)
    best: tuple[float, Headline] | None = None
    for h in facts.headlines:
        match, full = _match(h.text, facts.refs, facts.segments) if facts.refs else (0.0, "")
        near = _nearness(h.index, at)
        if match > 0.5:
            weight = 1 + match + h.look + near
            if full != h.text and h.look < 0.2:
                h = Headline(h.index, h.el, full, h.look)
        elif h.index > at:
            continue  # an unmatched heading below the article's start is a section's
        elif h.look >= 0.12 and near > 0 and not h.text.endswith(_END_PUNCT):
            weight = 0.5 + h.look + near  # an unmatched heading just above the article
        elif h.look >= 0.05 and near > 0.2 and len(h.text) >= 4 and not h.text.endswith(_END_PUNCT):
            weight = 0.3 + h.look + near  # bold text right above the article
        else:
            continue
        if match <= 0.5:
            h = Headline(h.index, h.el, _CATEGORY.sub("", h.text), h.look)
        if best is None or weight > best[0]:
            best = (weight, h)
    if best is not None and (best[0] >= 0.6 or not facts.refs):
        return best[1].text, best[1].index
    if facts.refs:
        pieces = [p.strip() for p in _TITLE_SPLIT.split(facts.refs[0]) if p.strip()]
        return max(pieces, key=_visual_len), None
    slug = unquote(urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1])
    slug = re.sub(r"\.\w{2,5}$", "", slug)
    return " ".join(re.split(r"[-_+]+", slug)).strip(), None


def _visual_len(text: str) -> int:
    """Length as a reader sees it: a CJK character weighs about as much as a short word."""
    return len(text) + 2 * len(_CJK.findall(text))


def _nearness(index: int, at: int) -> float:
    """0.6 right at the article's start, falling off with distance; text far below it, 0."""
    if index <= at:
        distance = at - index
    else:
        distance = (index - at) * 3
    return max(0.0, 0.6 - distance * 0.004)


def _match(text: str, refs: list[str], segments: list[str]) -> tuple[float, str]:
    """How well a visible text matches the page's declared titles (0–1.2), and the headline it
    stands for: a visible part of a longer declared title (a headline broken over two lines or
    two elements) stands for the whole declared segment."""
    if text in refs or text in segments:
        # Only the longest segment is the headline; the others name the site or section.
        site_like = len(segments) > 1 and text != max(segments, key=_visual_len)
        return (0.5 if site_like else 1.2), text
    best, full = 0.0, text
    for seg in segments:
        if len(text) >= 4 and text in seg and len(text) >= 0.4 * len(seg):
            score = 0.6 + len(text) / len(seg) * 0.5
            if score > best:
                best, full = score, seg
        elif len(seg) >= 4 and seg in text:
            # A heading that adds a kicker or subtitle to the declared title.
            best = max(best, 0.6 + len(seg) / len(text) * 0.5)
    return min(best, 1.1), full


def _meta_date(root: etree._Element, metas: dict[str, str]) -> str | None:
    """meta → JSON-LD → itemprop/<time pubdate>: what the page declares for machines."""
    for key in _DATE_META:
        if key in metas and (iso := parse_date(metas[key])):
            return iso
    for script in root.iter("script"):
        if script.get("type", "").lower() == "application/ld+json" and script.text:
            if (m := _JSONLD_DATE.search(script.text)) and (iso := parse_date(m.group(1))):
                return iso
    for el in root.xpath("//*[@itemprop='datePublished'] | //time[@pubdate]"):
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


def _meta_author(root: etree._Element, metas: dict[str, str]) -> str | None:
    for key in _AUTHOR_META:
        if name := _author_name(metas.get(key)):
            return name
    for script in root.iter("script"):
        if script.get("type", "").lower() == "application/ld+json" and script.text:
            if m := _JSONLD_AUTHOR.search(script.text):
                if name := _author_name(m.group(1) or m.group(2)):
                    return name
    for el in root.xpath("//*[@itemprop='author'] | //*[@rel='author']"):
        if name := _author_name(el.get("content") or text_of(el)):
            return name
    # A "byline" element (hAtom, WordPress themes), not one inside the comments
    for el in root.xpath(_BYLINE_XPATH):
        if name := _author_name(text_of(el)):
            return name
    return None


_IN_COMMENTS = "ancestor-or-self::*[contains(@class, 'comment') or contains(@id, 'comment')]"
_BYLINE_XPATH = (
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' byline ')]"
    f"[not({_IN_COMMENTS})]"
)


def _in_comments(el: etree._Element) -> bool:
    """Inside a comment thread: a commenter's "by …" is not the article's author."""
    return bool(el.xpath(f"boolean({_IN_COMMENTS})"))


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
    """The declared language (<html lang>, content-language), else a guess from the script."""
    lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang")
    lang = lang or metas.get("content-language") or metas.get("og:locale")
    if lang:
        return lang.strip().replace("_", "-").split(",")[0] or None
    return None


def guess_lang(text: str) -> str | None:
    """zh/ja/ko from the characters of the article text; None for other scripts."""
    sample = text[:2000]
    if _KANA.search(sample):
        return "ja"
    if _HANGUL.search(sample):
        return "ko"
    if len(_CJK.findall(sample)) > len(sample) * 0.2:
        return "zh"
    return None
