"""Who wrote a page: the author it declares for machines (metas, JSON-LD, itemprop and
rel=author, a byline element outside the comments), else a byline line near the headline
(作者：…, 文/…, 本报记者 …, By …).

Apart from the title and the dates: its own patterns and its own rules for a name."""

from __future__ import annotations

import re

from pipeline.extract.dom import text_of
from pipeline.extract.meta.facts import PageFacts
from pipeline.extract.meta.head import Head, Marked
from pipeline.text.cjk import HAN
from pipeline.text.lazy_patterns import compiled

_AUTHOR_META = ("author", "article:author", "byl", "dc.creator", "sailthru.author",
                "parsely-author", "og:article:author")
_JSONLD_AUTHOR = re.compile(
    r'"author"\s*:\s*(?:\[\s*)?(?:\{[^{}]*?"name"\s*:\s*"([^"]+)"|"([^"]+)")'
)
_REPORTER_VERBS = (
    "了解|获悉|介绍|透露|看到|发现|采访|注意|调查|观察|表示|得知|来到|走访|从|在|日前|近日|昨日|今天|今日"
)
_CJK_NAME_END = r"(?=[\s）)，,、|]|$|报道|摄|发自)"
# Compiled when a line has 者 or 文 (``compiled``): its Han classes are slow to compile, and a
# batch of English pages never needs them.
_CJK_BYLINE = (
    r"(?:作者|撰文)\s*[:：/／]\s*(?![a-z]+\b)([^\s:：，,|=\"'<>]{2,20})|"
    r"(?:^|[\s（(])文\s*[/／]\s*([" + HAN + r"·]{2,8})" + _CJK_NAME_END + "|"
    # 本报记者 张三 / （记者 张三）, not "记者了解到"
    r"(?:^|[\s（(【]|本报|本台|社|网)记者\s*(?!" + _REPORTER_VERBS + r")"
    r"([" + HAN + r"]{2,3})" + _CJK_NAME_END
)
_BY_LINE = re.compile(r"[Bb]y\s+([A-Z][\w.'’-]+(?:\s+(?:[A-Z][\w.'’-]+|de|van|von|da|and)){0,6})")


def byline_author(text: str) -> str | None:
    """The name a byline line gives: "By …" at its start, else 作者：…, 文/…, 本报记者 …
    anywhere (none of those can start with a "B", so the order changes no answer)."""
    if m := _BY_LINE.match(text):
        return m.group(1)
    if "者" in text or "文" in text:  # every CJK byline has 作者, 撰文, 文 or 记者
        if m := compiled(_CJK_BYLINE).search(text):
            return next(g for g in m.groups() if g)
    return None


def declared_author(head: Head, marked: Marked, metas: dict[str, str]) -> str | None:
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


def choose_author(facts: PageFacts, head: int | None, at: int) -> str | None:
    lo = head if head is not None else at - 150
    return next((name for i, name in facts.authors if lo <= i <= at + 40), None)
