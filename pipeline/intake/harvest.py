"""Harvest: the article links of a list page (a channel front page, a blog index, a tag page).

Pure functions over a page's text and URL (``classify``, ``candidates``, ``next_page``); the
fetching and adding are ``Workspace.harvest``'s. Depth 1 only: a harvest reads the list page
(and at most the next pages a person asked for), never the pages it finds — a crawl that
follows links grows by thousands of pages per level.

A link found on a page is the page's link, not the person's: ``refuse_by_address`` judges each
candidate by the page's address policy (pipeline.web.addresses), so a public page's links to
``10.1.2.3``, ``[::1]`` or a name that resolves to loopback are left out, saying why, and the
tasks added remember the page (``Task.found_on``) so a run judges them the same way.

The judgement is structural, not a list of site class names: a link inside ``<nav>``,
``<header>``, ``<footer>`` or ``<aside>`` is chrome; a short one-word link in a block of mostly
such links is a tag cloud, a pagination or a share bar; the block holding the page's "next"
link is its pagination. What is left is ranked by how article-like it looks.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from statistics import median
from urllib.parse import urljoin, urlsplit

from lxml import etree

from pipeline.assets.sources import document_base
from pipeline.extract.dom import parse, tag_of, text_of
from pipeline.intake.links import PageKind
from pipeline.records.failures import Code, Failure, failure
from pipeline.text.cjk import cjk_char
from pipeline.text.markup import LAYOUT_TAGS, NAVIGATION_TAGS
from pipeline.web.addresses import AddressPolicy, link_host
from pipeline.web.urls import UrlRejected, host_in_domain, host_of, normalize_url, site_domain


@dataclass(frozen=True)
class HarvestOptions:
    """Every number the harvest judges by, in one place to tune."""

    # a link text this short (characters), or one Latin word, is "short" (a tag, a page number)
    short_chars: int = 4
    short_word_chars: int = 20
    # a block of at least this many links, this share of them short, is a cloud or a bar
    short_block_links: int = 3
    short_block_share: float = 0.6
    # how far up from a link its block is looked for
    block_levels: int = 3
    # the next link's block is pagination when it holds at most this many links
    pagination_links: int = 20
    # siblings of one shape, at least this many, make a repeated list
    min_list_items: int = 5
    # a text block (own text, links left out) this long means an article page
    detail_block_chars: int = 500
    # a link text this many width units long scores full marks (a CJK character counts 2)
    full_text_units: int = 24
    text_weight: float = 2.0
    list_weight: float = 2.0
    url_shape_weight: float = 1.0
    short_penalty: float = 1.0
    # a candidate scoring at least this is chosen (unless the site's pattern decides)
    choose_score: float = 2.5


OPTIONS = HarvestOptions()

# Resource files: never an article page, whatever the link says.
RESOURCE_EXTENSIONS = frozenset(
    "css js mjs json xml rss atom png jpg jpeg gif webp svg ico bmp avif tif tiff pdf zip rar "
    "7z gz tgz bz2 xz tar mp3 mp4 m4a m4v wav ogg webm avi mov flv wmv mkv doc docx xls xlsx "
    "ppt pptx apk exe dmg iso woff woff2 ttf otf eot".split()
)
_CHROME_TAGS = LAYOUT_TAGS | NAVIGATION_TAGS
# What a page's "next page" link says (compared lower-case, arrows and spaces trimmed).
NEXT_TEXTS = frozenset(("下一页", "下页", "next", "next page", "›", "»", "后页", "下一頁"))
_NEXT_TRIM = " \t>›»→＞"
# URL shapes of article pages: a date (/2024/05/, /2024-05-12, 20240512) or a numeric id
_DATE_PATH = re.compile(r"(?:^|[/_-])(?:19|20)\d\d(?:[/_-]?(?:0[1-9]|1[0-2]))(?:\D|$)")
_NUMERIC_ID = re.compile(r"(?:^|[/_=-])\d{3,}(?:\.s?html?)?(?:$|[/?&#])")


@dataclass(frozen=True)
class Candidate:
    """A link of a list page that may be an article: where it goes, what it says, and why it
    scores what it does (so a person can see why one was chosen and another not)."""

    url: str
    text: str
    score: float
    reasons: tuple[Failure, ...]  # not failures: the reasons for its score
    chosen: bool = False
    rank: int = 0  # 1 = most article-like of its page
    refused: Failure | None = None  # why the page's address policy refuses it, if it does


@dataclass
class _Link:
    """One ``<a href>`` as the page shows it, before it is judged."""

    el: etree._Element
    url: str
    text: str
    excluded: str = ""  # why it is no candidate ("" while it is one)
    group: str | None = None  # the sibling group (repeated list) it sits in
    extra_texts: list[str] = field(default_factory=list)


# -- the page's links --------------------------------------------------------------------------

def _resolve(href: str | None, base: str) -> str | None:
    """A link's normalized absolute URL; None for what is no page link (empty, ``#``-only,
    ``javascript:``, ``mailto:``, anything but http/https)."""
    href = (href or "").strip()
    if not href or href.startswith("#"):
        return None
    try:
        return normalize_url(urljoin(base, href))
    except (UrlRejected, ValueError):
        return None


def _is_resource(url: str) -> bool:
    """Whether the URL's path ends in a resource file's extension."""
    path = urlsplit(url).path.lower()
    name = path.rsplit("/", 1)[-1]
    return "." in name and name.rsplit(".", 1)[1] in RESOURCE_EXTENSIONS


def _link_text(el: etree._Element) -> str:
    """What a link says: its text, else its ``title``, else its image's ``alt``."""
    text = text_of(el) or (el.get("title") or "").strip()
    if not text:
        alts = [(img.get("alt") or "").strip() for img in el.iter("img")]
        text = next((a for a in alts if a), "")
    return text


def _page_links(root: etree._Element, url: str) -> list[_Link]:
    """Every page link of the document, in page order."""
    base = document_base(root, url)
    links = []
    for el in root.iter("a"):
        target = _resolve(el.get("href"), base)
        if target is not None:
            links.append(_Link(el, target, _link_text(el)))
    return links


# -- structure ---------------------------------------------------------------------------------

def is_short(text: str, options: HarvestOptions = OPTIONS) -> bool:
    """A tag's, a page number's or a share button's text: a few characters, or one Latin
    word. Article titles are sentences (or, in Chinese, runs of many characters)."""
    if len(text) <= options.short_chars:
        return True
    return (" " not in text and not cjk_char().search(text)
            and len(text) <= options.short_word_chars)


def _in_chrome(el: etree._Element) -> str:
    """The chrome element (``markup``'s layout and navigation tags: header, footer, aside, nav,
    menu) a link sits in, or "": the same tags the extractor takes for chrome."""
    for anc in el.iterancestors():
        tag = tag_of(anc)
        if tag in _CHROME_TAGS or (anc.get("role") or "") == "navigation":
            return tag or "navigation"
    return ""


def _block_of(el: etree._Element, options: HarvestOptions) -> etree._Element | None:
    """The nearest ancestor (a few levels up) that holds several links: the block a link is
    one of (a list, a tag cloud, a share bar)."""
    for level, anc in enumerate(el.iterancestors()):
        if level >= options.block_levels:
            return None
        if sum(1 for _ in anc.iter("a")) >= options.short_block_links:
            return anc
    return None


def _short_block(block: etree._Element, options: HarvestOptions) -> bool:
    """Whether most links of a block are short texts (a cloud, a pagination, a share bar)."""
    texts = [_link_text(a) for a in block.iter("a")]
    short = sum(1 for t in texts if is_short(t, options))
    return (len(texts) >= options.short_block_links
            and short / len(texts) >= options.short_block_share)


def _shape(el: etree._Element) -> tuple[str, str]:
    """An element's tag and classes: siblings of one shape are items of one list."""
    return tag_of(el), " ".join(sorted((el.get("class") or "").split()))


def _item_group(el: etree._Element, options: HarvestOptions) -> tuple[str, int] | None:
    """The repeated sibling group a link belongs to: the nearest ancestor-or-self that has
    at least ``min_list_items`` siblings of its own shape; (group id, item count) or None."""
    for node in (el, *el.iterancestors()):
        parent = node.getparent()
        if parent is None or tag_of(parent) in ("body", "html"):
            return None
        shape = _shape(node)
        same = sum(1 for sib in parent if isinstance(sib.tag, str) and _shape(sib) == shape)
        if same >= options.min_list_items:
            # keyed by the parent's path: lxml's element proxies come and go, their ids too
            return f"{parent.getroottree().getpath(parent)} {shape}", same
    return None


def _next_anchor(root: etree._Element, base: str) -> etree._Element | None:
    """The page's own "next page" link: ``rel=next`` first, else a link saying 下一页 / Next /
    › / »."""
    anchors = [a for a in root.iter("a") if _resolve(a.get("href"), base)]
    for a in anchors:
        if "next" in (a.get("rel") or "").lower().split():
            return a
    for a in anchors:
        text = _link_text(a).strip().lower()
        if text in NEXT_TEXTS or text.strip(_NEXT_TRIM) in NEXT_TEXTS:
            return a
    return None


# -- judging -----------------------------------------------------------------------------------

def _exclude(links: list[_Link], root: etree._Element, url: str, same_site: bool,
             options: HarvestOptions) -> None:
    """Mark each link that is no article candidate, with why."""
    site = _site_domain(url)
    nxt = _next_anchor(root, document_base(root, url))
    pager = nxt.getparent() if nxt is not None else None
    if pager is not None and sum(1 for _ in pager.iter("a")) > options.pagination_links:
        pager = None
    page = normalize_url(url)
    for link in links:
        block = _block_of(link.el, options)
        if link.url == page:
            link.excluded = "the page itself"
        elif _is_resource(link.url):
            link.excluded = "a resource file"
        elif same_site and not host_in_domain(host_of(link.url), site):
            link.excluded = f"another site ({host_of(link.url)})"
        elif chrome := _in_chrome(link.el):
            link.excluded = f"in the page's <{chrome}>"
        elif pager is not None and (link.el is nxt or pager in link.el.iterancestors()):
            link.excluded = "in the next-page block"
        elif is_short(link.text, options) and block is not None and _short_block(block, options):
            link.excluded = "a short link in a block of short links (tags, pages, sharing)"


def _site_domain(url: str) -> str:
    """The domain "same site" means: the page's site's (``urls.site_domain``)."""
    return site_domain(host_of(normalize_url(url)))


def _width(text: str) -> int:
    """A text's length in width units: a CJK character says about as much as two letters."""
    return len(text) + len(cjk_char().findall(text))


def _url_shape(url: str) -> Failure | None:
    """What in a URL's path says "article": a date or a numeric id (None when neither)."""
    parts = urlsplit(url)
    path = parts.path + ("?" + parts.query if parts.query else "")
    if _DATE_PATH.search(parts.path):
        return failure(Code.DATE_IN_URL)
    if _NUMERIC_ID.search(path):
        return failure(Code.ID_IN_URL)
    return None


def _score(link: _Link, main_group: str | None, items: int,
           options: HarvestOptions) -> tuple[float, list[Failure]]:
    """How article-like a link looks, and the reasons that add up to it."""
    units = _width(link.text)
    score = options.text_weight * min(units / options.full_text_units, 1.0)
    reasons = [failure(Code.LINK_TEXT, len(link.text))]
    if main_group is not None and link.group == main_group:
        score += options.list_weight
        reasons.append(failure(Code.IN_MAIN_LIST, items))
    if shape := _url_shape(link.url):
        score += options.url_shape_weight
        reasons.append(shape)
    if is_short(link.text, options):
        score -= options.short_penalty
        reasons.append(failure(Code.SHORT_TEXT))
    return round(score, 2), reasons


def _main_group(links: list[_Link], options: HarvestOptions) -> tuple[str | None, int]:
    """The page's main repeated list: the sibling group holding most candidate links with
    texts that are not short; (its id, its link count) or (None, 0)."""
    counts: Counter[str] = Counter(
        link.group for link in links
        if link.group is not None and not link.excluded and not is_short(link.text, options))
    if not counts:
        return None, 0
    group, count = counts.most_common(1)[0]
    return (group, count) if count >= options.min_list_items else (None, 0)


def _judged(html: str, url: str, same_site: bool,
            options: HarvestOptions) -> tuple[etree._Element, list[_Link], str | None, int]:
    """The page's links, each excluded or placed in its sibling group, and the main group."""
    root = parse(html)
    links = _page_links(root, url)
    _exclude(links, root, url, same_site, options)
    for link in links:
        found = _item_group(link.el, options)
        link.group = found[0] if found else None
    group, count = _main_group(links, options)
    return root, links, group, count


def _merged(links: list[_Link]) -> list[_Link]:
    """One link per URL, at its first place, with the longest text any of its links has (a
    thumbnail and its title, a "read more")."""
    first: dict[str, _Link] = {}
    for link in links:
        if link.excluded:
            continue
        seen = first.setdefault(link.url, link)
        if seen is not link and len(link.text) > len(seen.text):
            seen.text, seen.group = link.text, link.group if link.group is not None else seen.group
    return list(first.values())


def candidates(html: str, url: str, *, pattern: str | None = None, same_site: bool = True,
               site_pattern: str | None = None,
               options: HarvestOptions = OPTIONS) -> list[Candidate]:
    """The page's candidate article links in page order, each scored with its reasons, ranked
    and marked chosen. ``pattern`` (a person's ``--pattern``) keeps only the URLs it matches;
    ``site_pattern`` (the site's ``article_link_pattern``) decides what is chosen, the score
    only ranks then."""
    _, links, group, items = _judged(html, url, same_site, options)
    wanted = re.compile(pattern) if pattern else None
    site = re.compile(site_pattern) if site_pattern else None
    out = []
    for link in _merged(links):
        if wanted is not None and not wanted.search(link.url):
            continue
        score, reasons = _score(link, group, items, options)
        if site is not None:
            chosen = bool(site.search(link.url))
            reasons.append(failure(Code.MATCHES_PATTERN if chosen else Code.MISSES_PATTERN))
        else:
            chosen = score >= options.choose_score
        out.append(Candidate(link.url, link.text, score, tuple(reasons), chosen))
    return ranked(out)


def ranked(found: list[Candidate]) -> list[Candidate]:
    """The candidates in the order given (page order), each with its rank: chosen first,
    then by score, page order breaking ties (several pages' candidates are ranked together
    once joined)."""
    order = sorted(range(len(found)), key=lambda i: (not found[i].chosen, -found[i].score, i))
    ranks = {index: rank for rank, index in enumerate(order, start=1)}
    return [replace(c, rank=ranks[i]) for i, c in enumerate(found)]


def refuse_by_address(found: list[Candidate], addresses: AddressPolicy) -> list[Candidate]:
    """The candidates, each judged by the address policy of the page they were found on:
    one it refuses is not chosen and says why. Judged per host (one lookup each); a name
    that does not resolve now is left in, and its run judges it again."""
    verdicts: dict[str, Failure | None] = {}
    out = []
    for c in found:
        host = link_host(c.url)
        if host not in verdicts:
            verdicts[host] = addresses.refusal_of(c.url)
        reason = verdicts[host]
        out.append(c if reason is None else replace(c, chosen=False, refused=reason))
    return out


def next_page(html: str, url: str) -> str | None:
    """The URL of the list's next page (``rel=next``, 下一页, 下页, Next, ›, »), or None."""
    root = parse(html)
    base = document_base(root, url)
    for link in root.iter("link"):
        if "next" in (link.get("rel") or "").lower().split():
            found = _resolve(link.get("href"), base)
            if found:
                return found if found != normalize_url(url) else None
    anchor = _next_anchor(root, base)
    found = _resolve(anchor.get("href"), base) if anchor is not None else None
    return found if found and found != normalize_url(url) else None


# -- list or detail ----------------------------------------------------------------------------

def _own_text(el: etree._Element) -> int:
    """Characters of a block's text outside links and nested blocks' links: the prose of it."""
    total = len(text_of(el))
    linked = sum(len(text_of(a)) for a in el.iter("a"))
    return total - linked


def _dominant_block(root: etree._Element) -> int:
    """The longest prose one block holds: the paragraphs under one parent, links left out."""
    best = 0
    for parent in {p.getparent() for p in root.iter("p", "pre", "blockquote")}:
        if parent is not None and _in_chrome(parent) == "" and tag_of(parent) not in _CHROME_TAGS:
            best = max(best, sum(_own_text(child) for child in parent
                                 if tag_of(child) in ("p", "pre", "blockquote")))
    return best


def classify(html: str, url: str, options: HarvestOptions = OPTIONS) -> tuple[PageKind, Failure]:
    """A list or a detail page, with the reason: many links with short anchor texts over repeated
    sibling blocks make a list page; one dominant text block makes an article page."""
    root, links, group, items = _judged(html, url, False, options)
    prose = _dominant_block(root)
    listed = [link for link in links if group is not None and link.group == group
              and not link.excluded and not is_short(link.text, options)]
    listed_chars = sum(len(link.text) for link in listed)
    if group is not None and prose < max(options.detail_block_chars, listed_chars):
        texts = median(len(link.text) for link in listed)
        return PageKind.LIST, failure(Code.LIST_PAGE, items, f"{texts:g}", prose)
    if prose >= options.detail_block_chars:
        return PageKind.DETAIL, failure(Code.ARTICLE_PAGE, prose, len(listed))
    return PageKind.DETAIL, failure(Code.ONE_PAGE, options.min_list_items, prose)
