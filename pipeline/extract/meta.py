"""Title, publish time, author and language of a page (seed 001; issue 4 §5–6).

Read from the whole page before noise removal: the visible headline and the date line next to it
often sit in a header block that the body extractor throws away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from difflib import SequenceMatcher
from urllib.parse import unquote, urlsplit

from lxml import etree

from pipeline.extract.dom import selector, tag_of, text_of

# Separators between a headline and the site name in <title> (seed 000: h1 > title > URL).
_TITLE_SPLIT = re.compile(r"\s+[-|–—·•»:]+\s+|\s*[|_｜–—·•»]+\s*|\s*-{2,}\s*|——|\s+::\s+")
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
_EN_DATES = (
    re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|"
               r"rd|th)?,?\s+((?:19|20)\d{2})", re.I),
    re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
               r"[a-z]*\.?,?\s+((?:19|20)\d{2})", re.I),
)
_DATE_CUE = re.compile(
    r"发布|发表|时间|日期|来源|更新|published|posted|updated|date|on\s*$", re.I)
_AUTHOR_TEXT = re.compile(
    r"(?:作者|撰文|文)\s*[:：/／]\s*([^\s:：，,|]{2,20})|记者\s*([^\s:：，,|]{2,4})"
)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")


@dataclass
class PageMeta:
    """What the page says about its article; ``headline`` is the element the title came from."""

    title: str
    published: str | None
    author: str | None
    lang: str | None
    headline: etree._Element | None


def read_meta(root: etree._Element, url: str, title_selector: str | None = None) -> PageMeta:
    metas = _meta_map(root)
    title, headline = find_title(root, url, metas, title_selector)
    return PageMeta(
        title=title,
        published=find_published(root, metas, headline),
        author=find_author(root, metas, headline),
        lang=find_lang(root, metas),
        headline=headline,
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


# --- title ---------------------------------------------------------------------------------


def find_title(
    root: etree._Element, url: str, metas: dict[str, str], title_selector: str | None = None
) -> tuple[str, etree._Element | None]:
    """The visible headline: a heading (or title-like block) that matches <title>/og:title,
    else the first h1, else og:title or <title> without the site name, else the URL's slug."""
    if title_selector:
        for el in selector(title_selector)(root):
            if text := text_of(el):
                return text, el
    title_el = root.find(".//title")
    page_title = text_of(title_el) if title_el is not None else ""
    refs = [r for r in (metas.get("og:title"), metas.get("twitter:title"), page_title) if r]
    refs = [" ".join(r.split()) for r in refs]
    segments = [s for r in refs for s in _TITLE_SPLIT.split(r) if s.strip()]
    best: tuple[float, str, etree._Element] | None = None
    for rank, el in enumerate(_headline_candidates(root)):
        text = text_of(el)
        if not 2 <= len(text) <= 200:
            continue
        match = _match(text, refs, segments)
        if match <= 0.5:
            continue
        # Prefer real headings and earlier nodes when the match is as good.
        weight = match + (0.15 if tag_of(el) == "h1" else 0.1 if tag_of(el) in ("h2", "h3") else 0)
        weight -= rank * 1e-4
        if best is None or weight > best[0]:
            best = (weight, text, el)
    if best is not None:
        return best[1], best[2]
    h1 = next((el for el in root.iter("h1") if 2 <= len(text_of(el)) <= 200), None)
    if h1 is not None and not refs:
        return text_of(h1), h1
    if refs:
        pieces = _TITLE_SPLIT.split(refs[0])
        return max(pieces, key=len).strip(), None
    if h1 is not None:
        return text_of(h1), h1
    slug = unquote(urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1])
    slug = re.sub(r"\.\w{2,5}$", "", slug)
    return " ".join(re.split(r"[-_+]+", slug)).strip(), None


def _headline_candidates(root: etree._Element) -> list[etree._Element]:
    """Headings first, then blocks whose class/id says title or headline, then short bold text."""
    return root.xpath(
        "//h1 | //h2 | //h3"
        " | //*[self::div or self::span or self::td or self::p or self::strong or self::b"
        " or self::font or self::h4 or self::h5][contains(translate(@class,'TITLEHADN','titlehadn'),"
        "'title') or contains(translate(@id,'TITLEHADN','titlehadn'),'title')"
        " or contains(@class,'headline')]"
        " | //b | //strong | //font"
    )


def _match(text: str, refs: list[str], segments: list[str]) -> float:
    """How well a visible text matches the page's declared titles (0–1.2)."""
    if text in refs or text in segments:
        return 1.2
    best = 0.0
    for ref in refs:
        if len(text) >= 4 and text in ref:
            best = max(best, len(text) / max(len(s) for s in _TITLE_SPLIT.split(ref)) * 1.0)
        m = SequenceMatcher(None, text, ref, autojunk=False).find_longest_match(
            0, len(text), 0, len(ref)
        )
        best = max(best, m.size / max(len(text), 1) * (0.9 if m.size >= 0.8 * len(text) else 0.6))
    return min(best, 1.1)


# --- dates ---------------------------------------------------------------------------------


def find_published(
    root: etree._Element, metas: dict[str, str], headline: etree._Element | None
) -> str | None:
    """meta → JSON-LD → itemprop/<time> → a dated line near the headline (body dates ignored)."""
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
    return _date_near(root, headline)


def _date_near(root: etree._Element, headline: etree._Element | None) -> str | None:
    """The first date after the headline (within a short stretch of text); a date with a cue
    word (发布, 时间, Posted…) before it wins over a bare one. No headline: cue words only."""
    texts = _texts_after(root, headline, limit=600) if headline is not None else None
    if texts is None:
        texts = _texts_after(root, None, limit=100_000)
        cue_only = True
    else:
        cue_only = False
    bare: str | None = None
    for prev, text in zip([""] + texts, texts):
        for m in _iter_dates(text):
            iso, start = m
            before = (prev + text[:start])[-12:]
            if _DATE_CUE.search(before):
                return iso
            if bare is None:
                bare = iso
    if cue_only:
        return None
    if bare is None and headline is not None:
        # The date line sometimes precedes the headline (e.g. in a breadcrumb bar).
        return _date_near(root, None)
    return bare


def _texts_after(root: etree._Element, start: etree._Element | None, limit: int) -> list[str]:
    """Text nodes in document order after ``start`` (or from the top), up to ``limit`` chars."""
    out: list[str] = []
    total = 0
    seen_start = start is None
    skip = ("script", "style", "noscript", "head", "title", "option", "textarea")
    for el in root.iter():
        tag = tag_of(el)
        if not seen_start:
            if el is start:
                seen_start = True
                if el.tail and el.tail.strip():
                    out.append(el.tail.strip())
            continue
        if start is not None and _inside(el, start):
            continue
        for text in (el.text if tag not in skip else None, el.tail):
            if text and text.strip():
                out.append(text.strip())
                total += len(text)
        if total >= limit:
            break
    return out


def _inside(el: etree._Element, ancestor: etree._Element) -> bool:
    parent = el.getparent()
    while parent is not None:
        if parent is ancestor:
            return True
        parent = parent.getparent()
    return False


def _iter_dates(text: str) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    for pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if iso := _iso(*m.groups()):
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


def find_author(
    root: etree._Element, metas: dict[str, str], headline: etree._Element | None
) -> str | None:
    for key in _AUTHOR_META:
        value = metas.get(key)
        if value and not value.startswith(("http:", "https:")) and len(value) <= 100:
            return value
    for script in root.iter("script"):
        if script.get("type", "").lower() == "application/ld+json" and script.text:
            if m := _JSONLD_AUTHOR.search(script.text):
                name = m.group(1) or m.group(2)
                if name and not name.startswith(("http:", "https:")):
                    return name
    for el in root.xpath("//*[@itemprop='author'] | //*[@rel='author']"):
        name = el.get("content") or text_of(el)
        if name and len(name) <= 100:
            return name
    texts = _texts_after(root, headline, limit=400) if headline is not None else []
    for text in texts:
        if m := _AUTHOR_TEXT.search(text):
            return m.group(1) or m.group(2)
    return None


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
