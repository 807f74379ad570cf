"""The visible headline candidates the walk finds: headings, elements whose class or id says
title, bold lines, a forum's 主题： line, and plain elements that say a declared title; with
what each needs from around it (the links in and around it, a nav or brand container above
it).

Apart from the vote (``title``): this is what the walk does at each element, kept lean since
it runs over every element of the page once per extraction pass."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from lxml import etree

from pipeline.extract.dom import BLOCK_TAGS
from pipeline.extract.meta.dates import iter_dates
from pipeline.extract.meta.facts import Headline
from pipeline.extract.meta.text import element_text, raw_text, text_key, word_chars

# Class or id naming a headline; storyhead/ArticleHead are the old news CMS templates' names.
_TITLE_WORDS = (r"title|heading|headline|(?:story|article|art|news|post|entry)[-_]?head(?!er)|"
                r"(?:^|[\s_-])tit\d*(?:$|[\s_-])")
_TITLE_CLASS = re.compile(_TITLE_WORDS, re.I)
# … for a lower-cased ASCII value, the same answer without folding case at each character.
_TITLE_CLASS_LOWER = re.compile(_TITLE_WORDS)
_BYLINE_CLASS = re.compile(r"byline|author", re.I)
_HEADLINE_TAGS = {"h1": "h1", "h2": "h2", "h3": "h3", "h4": "minor", "h5": "minor", "h6": "minor"}
_BOLD_TAGS = frozenset(("b", "strong", "font"))
NOT_HEADLINE_TAGS = frozenset(("html", "body", "head", "title", "meta", "script", "style", "li"))
_TOPIC_LABEL = re.compile(r"^\s*(?:主题|标题|title)\s*[:：]\s*", re.I)
# Forums and portals: 作者/来源/发布时间 lines, each label a word of its own with its colon
# (发布于 with its date), or a date. A headline may say 发布 or 日期 ("Vue 3.0 正式发布",
# "获取当前日期和时间") without being one.
METADATA_LINE = re.compile(
    r"(?<![^\W\d_])(?:作者|来源|发布|发表|日期|时间|编辑)(?:时间|日期)?\s*[:：]|"
    r"(?:发布|发表)于\s*\d|(?:19|20)\d\d[-/年.]\d", re.I)
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
# A separator right after (or before) a headline inside a title; "——" joining a Chinese
# headline to its second line, or a word's hyphen, is none.
_SEPARATED_END = re.compile(r"(?:[|_｜»/>:：-]|\s[–—·•])\s*$")
_SEPARATED = re.compile(r"\s*(?:[|_｜»/>:：]|-(?!-*\w*-\w)|\s[–—·•]\s)")


def add_candidate(
    i: int, el: etree._Element, kind: str,
    found: list[tuple[int, etree._Element, str, str]], taken: set[etree._Element],
) -> None:
    """Record a headline candidate (element ``i`` of the walk) with the text it says."""
    target, text = el, element_text(el)
    if _TOPIC_LABEL.match(text) and (parent := el.getparent()) is not None:
        # Forums: <b>主题：</b> the thread's title
        target, text, kind = parent, _TOPIC_LABEL.sub("", element_text(parent)), "class"
    if kind != "minor" and (lead := " ".join((target.text or "").split())) != text and (
        len(lead) >= 4 and (METADATA_LINE.search(text) or iter_dates(text))
    ):
        text = lead  # the headline's own text, without the dateline or byline inside it
    if 2 <= len(text) <= 200 and target not in taken:
        found.append((i, target, text, kind))
        taken.add(target)


def read_link(a: etree._Element, link_texts: Counter[str], site_names: set[str]) -> str:
    """Count a link's text; a link to a home page names a site: the logo, a blog's or a
    channel's name ("网易娱乐" → http://ent.163.com/), or another site's in the footer.
    Returns the key of the link's whole text (for the headlines that hold or are the link).

    The key is taken from the raw text: collapsing white space first changes no key, since
    ``text_key`` drops all of it."""
    raw = raw_text(a)
    full = word_chars(raw.casefold())  # text_key, not cached: most link texts are read once
    key = full if len(raw) <= 100 or len(" ".join(raw.split())) <= 100 else ""
    if key:
        link_texts[key] = link_texts.get(key, 0) + 1
    # A home page's address has at most three slashes ("https://example.com/").
    if (href := a.get("href")) and href.count("/") <= 3 and _ROOT_HREF.match(href.strip()):
        alts = (text_key(i.get("alt") or "") for i in a.iter("img"))
        site_names.update(k for k in [key, *alts] if k)
    return full


def headline_kind(tag: str, cls: str | None, ident: str | None) -> str:
    """h1, h2, h3, minor (h4–h6, b, strong, font), class (its class, id or own tag name says
    title) or "" (no candidate). An author's byline is none, however it is styled. Asked once
    per tag, class and id (``meta.gather`` remembers it), never for ``NOT_HEADLINE_TAGS``.

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
    if _tag_says_title(tag):
        return "class"  # a CMS's own tag: <arttitle>, <headline>
    return "minor" if tag in _BOLD_TAGS else ""


@lru_cache(maxsize=1024)
def _tag_says_title(tag: str) -> bool:
    """An inline tag named for a title (a page has a few tags, read on each element whose
    class and id are new)."""
    return tag not in BLOCK_TAGS and bool(_TITLE_CLASS.search(tag))


@lru_cache(maxsize=8192)
def _class_says(attr: str) -> tuple[bool, bool]:
    """Whether a class or id names a byline, and whether it names a title."""
    if attr.isascii():
        # Within ASCII, ignoring case is lower-casing: a match needs the patterns' words.
        low = attr.lower()
        byline = "byline" in low or "author" in low  # all of _BYLINE_CLASS
        return byline, ("tit" in low or "head" in low) and bool(_TITLE_CLASS_LOWER.search(low))
    return bool(_BYLINE_CLASS.search(attr)), bool(_TITLE_CLASS.search(attr))


class EchoTest:
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
        # like none (``text_key`` of a text's start is the start of its key).
        if (head := text[:2].casefold()).isalnum():
            # Most texts begin with two letters or digits: those begin the key.
            starts = head[:2] in self.starts
        else:
            start = word_chars(text[:16].casefold())  # text_key, not cached
            starts = start[:2] in self.starts if len(start) >= 2 or len(text) <= 16 else True
        if not starts and (text[:2] if not text[1].isspace() else text[0] + " ") not in self.joined:
            return []  # … nor are its first two characters in a declared title
        own = " ".join(text.split())
        if not 2 <= len(own) <= 200 or (not starts and own not in self.joined):
            return []
        key = text_key(own)
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
        return [e for e in (el, parent)
                if e is not None and text_key(element_text(e)) in wanted][:1]


def _bounded(part: str, title: str) -> bool:
    """The title has ``part`` at one end, cut from the rest by a separator."""
    if title.startswith(part):
        return bool(_SEPARATED.match(title[len(part):]))
    return title.endswith(part) and bool(_SEPARATED_END.search(title[: -len(part)]))


class Surroundings:
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
        return text_key(element_text(a)) if key is None else key

    def _own(self, el: etree._Element) -> tuple[bool, bool]:
        """Whether the element is a <nav> or its class or id says nav, menu or breadcrumb, and
        whether they say logo, brand or masthead."""
        if (says := self.own.get(el)) is None:
            says = self.own[el] = _chrome_says(el.tag, el.get("class"), el.get("id"))
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


@lru_cache(maxsize=8192)
def _chrome_says(tag: str, cls: str | None, ident: str | None) -> tuple[bool, bool]:
    """``Surroundings._own`` for a tag, class and id: decided once per distinct triple (the
    ancestors of a page's candidates share a few)."""
    return (tag == "nav" or _chrome_class(cls, ident, _NAV_CLASS),
            _chrome_class(cls, ident, _BRAND_CLASS))


def _chrome_class(cls: str | None, ident: str | None, pattern: re.Pattern[str]) -> bool:
    """An element's class or id matches a chrome pattern (read one at a time: as in
    ``headline_kind``, no match spans the space of "class id")."""
    return bool(cls and _class_matches(cls, pattern)) or bool(
        ident and _class_matches(ident, pattern))


@lru_cache(maxsize=8192)
def _class_matches(attr: str, pattern: re.Pattern[str]) -> bool:
    if attr.isascii() and not any(w in attr.lower() for w in _CHROME_WORDS[pattern]):
        return False  # within ASCII, ignoring case is lower-casing: a match needs a word
    return bool(pattern.search(attr))
