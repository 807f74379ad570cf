"""When a page was published: what it declares for machines (metas, JSON-LD, itemprop), else
the date shown next to the headline, read from the visible text by its patterns (Chinese
年月日 and dashed dates, US slashed dates, English month names).

Apart from the title vote because dates are read the same way wherever they appear: in the
walk's short texts, in a meta's content and in a headline that is really a dateline."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from functools import cached_property
from urllib.parse import urlsplit

from lxml import etree

from pipeline.extract.dom import text_of
from pipeline.extract.meta.facts import PageFacts
from pipeline.extract.meta.head import Head, Marked

_DATE_META = (
    "article:published_time", "og:article:published_time", "og:published_time",
    "og:release_date", "published_time", "article.published", "article_date_original",
    "publishdate", "publish_date", "publish-date", "pubdate", "ptime", "publishtime",
    "publish_time", "publication_date", "datepublished", "dc.date.issued", "dc.date.created",
    "dcterms.issued", "dcterms.created", "dc.date", "sailthru.date", "parsely-pub-date",
    "og:time", "release_date", "date", "weibo:article:create_at", "article:modified_time",
)
_JSONLD_DATE = re.compile(r'"datePublished"\s*:\s*"([^"]+)"')
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
DATE_CUE = re.compile(
    r"发布|发表|时间|日期|来源|更新|published|posted|updated|date|on\s*$", re.I)
# … of which these say the date is the publication's: a portal's 发布日期 line under the article
# outweighs a date shown without a label (the site's clock above the headline, a date in the text).
_PUBLISHED_CUE = re.compile(r"发布|发表|发稿|published", re.I)
# … and these that it is a later edit's: a page that shows both dates ("已于 … 修改", "编辑于 …",
# "Updated …") was published at the other one.
_MODIFIED_CUE = re.compile(r"修改|编辑于|更新|updated|modified|last\s+edited", re.I)
# Chinese puts the verb after the date too: "于 2020-03-05 10:23 发布", "2021-04-01 修改".
_CUE_AFTER = re.compile(r"[\d\s年月日时分秒:：/.\-]*(?:首次)?(发布|发表|修改|编辑|更新)")
_YEAR = re.compile(r"(?:19|20)\d{2}")
# Portals and apps show this year's stories without the year: "03-05 10:23", "3月5日 10:23".
# The time is part of the pattern: a bare "3-5" is a score. Read as "--MM-DDTHH:MM" (ISO 8601's
# date without a year) until ``choose_date`` knows the year.
_YEARLESS = re.compile(
    r"(?<![\d\-/.:年])(\d{1,2})(?:-(\d{1,2})\s+|\s*月\s*(\d{1,2})\s*日\s*)"
    r"(\d{1,2})[:：](\d{2})(?:[:：]\d{2})?(?!\d)")
# … and without the time when a label says it is a date (a time in a span of its own beside it:
# "<span>发布时间：03-05</span><span>10:23</span>"); read as "--MM-DD".
_LABELLED_DAY = re.compile(
    r"(?:发布|发表|时间|日期)\s*[:：]\s*(\d{1,2})(?:-(\d{1,2})|\s*月\s*(\d{1,2})\s*日)"
    r"(?![\d\-/.:：]|\s*\d{1,2}[:：])")
# Full-width digits ("２０２０年３月５日") read as ASCII ones.
_WIDE_DIGIT = re.compile("[０-９]")
_NARROW = str.maketrans("０１２３４５６７８９", "0123456789")
# A year and its month in a URL's path: /2020/03/05/, /20200305/, /2020-03/.
_URL_YEAR = re.compile(
    r"(?<!\d)((?:19|20)\d{2})[-/_]?(?:0[1-9]|1[0-2])(?:[-/_]?(?:0[1-9]|[12]\d|3[01]))?(?!\d)")
# … and the whole date, where a site files each story under the day it ran.
_URL_DATE = re.compile(
    r"(?<!\d)((?:19|20)\d{2})[-/_]?(0[1-9]|1[0-2])[-/_]?(0[1-9]|[12]\d|3[01])(?!\d)")
_COPYRIGHT = re.compile(r"©|[Cc]opyright|COPYRIGHT|版权")
# Apps and portals that draw the date line with a script hold the time in it, and the page
# shows none without JavaScript: a variable (WeChat's ``var ct = "1577836800"``, ``var
# createTime = '2020-03-05 10:23'``) or a field of the page's state object (``publishTime:
# 1583370000`` on Toutiao, ``"pubtime": "…"`` on Tencent, ``"newsTime"`` on ifeng, milliseconds
# on 36kr), as a Unix time (seconds or milliseconds) or a date.
_SCRIPT_TIME = re.compile(
    r"(?<![\w$])[\"']?(?:ct|create_?[tT]ime|publish_?[tT]ime|pub_?[tT]ime|news_?[tT]ime|"
    r"publish_?[dD]ate|pub_?[dD]ate)[\"']?\s*[:=]\s*"
    r"(?:[\"']([^\"'\n]{8,25})[\"']|(\d{10}(?:\d{3})?)(?!\d))")
_SCRIPT_TIME_HINT = re.compile(r"ct\b|[tT]ime|[dD]ate")
# A date element whose text a script draws, or says relatively ("前天 10:23", "3 hours ago"),
# holds the time in an attribute: a forum's <span title="2020-3-5 10:23:45">, a portal's
# <span class="time" data-val="1583370000000">. ``holds_date`` tells them, as the XPath
# ``//*[contains(@class, 'time') or contains(@class, 'date') or contains(@id, 'time') or
# contains(@id, 'date')] | //span[@title]`` finds them (``meta.gather``'s walk asks it of every
# element: that query tries its predicate on every element, a millisecond a page).
_UNIX_TIME = re.compile(r"\d{10}(?:\d{3})?")
# A Unix time is shown in China Standard Time: the pages that set one this way are Chinese apps.
_CHINA_TIME = timezone(timedelta(hours=8))


def declared_date(head: Head, marked: Marked, metas: dict[str, str]) -> str | None:
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


def holds_date(says: bool | None, el: etree._Element) -> bool:
    """The element may hold a date in an attribute (see ``HiddenDate``): its class or id says
    time or date, or it is a ``<span title>``. ``says`` is ``markup_holds_date`` of its tag,
    class and id (decided once per distinct triple by ``meta.gather``)."""
    return says if says is not None else el.get("title") is not None


def markup_holds_date(tag: str, cls: str | None, ident: str | None) -> bool | None:
    """``holds_date`` as far as tag, class and id tell (what ``meta.gather`` decides once per
    distinct triple): None for a <span> whose class and id say nothing, which holds a date
    when it has a title."""
    if cls and ("time" in cls or "date" in cls) or ident and ("time" in ident or "date" in ident):
        return True
    return None if tag == "span" else False


class HiddenDate:
    """A date the page holds for a script to show (``_SCRIPT_TIME``) or keeps in a date
    element's attribute (``holds_date``), taken only when the page declares none and shows
    none (``meta.resolve``), so read only then: most pages never pay for reading their
    scripts (a pattern tried at every character of them, milliseconds a page). The walk
    hands over the scripts and the date holders as the page had them; noise removal takes
    them out of the tree later, but an element taken out keeps its text and attributes (the
    one attribute a later step adds, ``notes.NOTE``, is empty: no date)."""

    def __init__(self, scripts: list[etree._Element], holders: list[etree._Element]) -> None:
        self._scripts = scripts
        self._holders = holders

    @cached_property
    def value(self) -> str | None:
        for script in self._scripts:
            if (text := script.text) and _SCRIPT_TIME_HINT.search(text):
                for m in _SCRIPT_TIME.finditer(text):
                    if iso := _time_value(m.group(1) or m.group(2)):
                        return iso
        for el in self._holders:
            for name, value in el.attrib.items():
                if (name == "title" or name.startswith("data-")) and len(value) <= 25 and (
                    iso := _time_value(value.strip())
                ):
                    return iso
        return None


def _time_value(value: str) -> str | None:
    """A Unix time (seconds or milliseconds, shown in China's time) or a date written alone."""
    if _UNIX_TIME.fullmatch(value):
        return datetime.fromtimestamp(int(value[:10]), _CHINA_TIME).isoformat()
    return parse_date(value) if value[:1].isdigit() else None


def cue_of(before: str, shown: str = "") -> int:
    """What the words around a date say of it: 2 that it is the publication's (发布, 发表,
    published), 1 that it is the page's (时间, 来源, posted …), -1 that it is a later edit's
    (修改, 更新, updated), 0 nothing. ``before`` ends where the date starts, ``shown`` starts
    there: a verb right after the date ("于 … 发布") says more than a word before it."""
    if m := _CUE_AFTER.match(shown):
        before = m.group(1)
    before = before[-14:]
    if not DATE_CUE.search(before):
        return -1 if _MODIFIED_CUE.search(before) else 0
    if _PUBLISHED_CUE.search(before):
        return 2
    return -1 if _MODIFIED_CUE.search(before) else 1


def copyright_years(text: str) -> list[int]:
    """The years of a copyright line ("©1997-2020 示例公司版权所有"): the last is the year the
    page was served."""
    return [int(y) for y in _YEAR.findall(text)] if _COPYRIGHT.search(text) else []


def choose_date(facts: PageFacts, head: int | None, at: int, url: str = "") -> str | None:
    """A date shown between the headline and the article (a cue word such as 发布 or Posted wins
    over a bare date), else one labelled as the publication's below the headline (a portal's
    发布日期 line under the article), else one just above the headline or at the very top of
    the article, else one with a cue word below it (blog footers: 发表于 …, posted @ …); dates
    in links and deep in the body are ignored. A date shown without its year takes the year
    from ``year_of``, or is none. A date said to be an edit's is taken only when no other is
    shown."""
    dates = [(i, iso, cue) for i, shown, cue in facts.dates
             if (iso := shown if shown[0] != "-" else _with_year(shown, facts, url))]
    return (_choose([d for d in dates if d[2] >= 0], head, at)
            or _choose([d for d in dates if d[2] < 0], head, at))


def _choose(dates: list[tuple[int, str, int]], head: int | None, at: int) -> str | None:
    lo = min(head, at) if head is not None else at - 150
    hi = max(at, lo + 30)
    between = [d for d in dates if lo <= d[0] <= hi]
    if cued := next((iso for _, iso, cue in between if cue), None):
        return cued
    if head is not None and (dateline := next((d for d in between if d[0] <= at), None)):
        return dateline[1]
    if published := next((iso for i, iso, cue in dates if cue == 2 and i >= lo), None):
        return published
    for window in (
        between,
        [d for d in dates if lo - 30 <= d[0] < lo],  # a date bar above the headline
        [d for d in dates if hi < d[0] <= hi + 10],
    ):
        for _, iso, cue in window:
            if cue:
                return iso
        if window:
            return window[0][1]
    return next((iso for i, iso, cue in dates if cue and i >= lo), None)


def _with_year(yearless: str, facts: PageFacts, url: str) -> str | None:
    """A "--MM-DDTHH:MM" (or "--MM-DD") date in the year the page's URL gives, else the year
    its copyright line ends in (a page shows this year's stories without their year, and says
    when it was served there); without either, no date: a guessed year is wrong more often
    than not."""
    path = urlsplit(url).path if url else ""
    year = int(m.group(1)) if (m := _URL_YEAR.search(path)) else facts.served_year
    if not year:
        return None
    if len(yearless) == 7:
        return _iso(str(year), yearless[2:4], yearless[5:7])
    return _iso(str(year), yearless[2:4], yearless[5:7], yearless[8:10], yearless[11:13])


def url_date(url: str) -> str | None:
    """The day a URL's path files the story under (/2020/03/05/, /20200305/, /2020-03-05/):
    the publication date of a page that neither declares nor shows one."""
    m = _URL_DATE.search(urlsplit(url).path) if url else None
    return _iso(*m.groups()) if m else None


def iter_dates(text: str) -> list[tuple[str, int]]:
    """The dates a text shows, with where each starts: ISO dates, and "--MM-DDTHH:MM" for one
    shown without its year (``_YEARLESS``), "--MM-DD" for one labelled without it either."""
    found: list[tuple[str, int]] = []
    if _WIDE_DIGIT.search(text):
        text = text.translate(_NARROW)  # one character for one: the positions stay
    if ":" in text or "：" in text:
        for m in _LABELLED_DAY.finditer(text):
            mon, dashed, written = m.groups()
            day = dashed or written
            if _iso("2000", mon, day):
                found.append((f"--{int(mon):02d}-{int(day):02d}", m.start(1)))
        for m in _YEARLESS.finditer(text):
            mon, dashed, written, hour, minute = m.groups()
            shown = (int(mon), int(dashed or written), int(hour), int(minute))
            if _iso("2000", *map(str, shown)):  # a leap year: 02-29 is a date
                found.append(("--{:02d}-{:02d}T{:02d}:{:02d}".format(*shown), m.start()))
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
    return next((iso for iso, _ in iter_dates(value) if iso[0] != "-"), None)
