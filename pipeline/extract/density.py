"""Finding the article in a page: noise removal, block scoring, and selection.

The seeds' method (001, 004; 《基于文本及符号密度的网页正文提取方法》): every block of text
is scored on its length, its punctuation (Chinese and Western: running prose has it, menus
do not) and its link density; the score flows up to the ancestors, weighted by tag/class/id
hints; the best ancestor wins. Then the selection is expanded (content-like siblings join
it, so headings, captions and tables between paragraphs stay) and shrunk (link lists, share
bars and other non-content blocks inside it are cut).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

from lxml import etree

from pipeline.extract.class_words import words_in
from pipeline.extract.dom import BLOCK_TAGS, remove, tag_of
from pipeline.extract.inline_chrome import cut_to_trigger
from pipeline.extract.notes import NOTE
from pipeline.extract.options import DEFAULT, ExtractOptions
from pipeline.rules.selectors import selector
from pipeline.text.markup import HEADING_TAGS, LAYOUT_TAGS, NAVIGATION_TAGS, drop_never_read

# Page chrome: removed unless it holds the article itself (some sites wrap everything in it).
# Layout chrome (``markup.LAYOUT_TAGS`` and the classes below) may wrap the article on some
# themes, so only the strict pass drops it; a relaxed pass keeps it. Regions that are never the
# article (navigation, comment threads, share bars, ads, "related" and "most read" lists) go in
# every pass: kept, a long comment thread outscores a short post. Each is an alternation of
# words in lower case, read in any case by ``class_words.words_in``.
_LAYOUT = (
    r"ai2html|banner|breadcrumb|combx|community|cover-wrap|extra|foot|gdpr|header|legends|"
    r"menu|remark|rss|sidebar|skyscraper|supplemental|agegate|pagination|pager|popup|"
    r"toolbar|widget|navbar|cookie|login|signup|teaser|\brail|rollover|tooltip|popover|"
    r"hovercard|flyout|byline|timestamp|dateline"
)
_NEVER_CONTENT = (
    r"-ad-|ad-break|comment|disqus|replies|respond|shoutbox|social|sponsor|related|outbrain|"
    r"taboola|promo|recommend|trending|popular|most-?read"
)
_MAYBE = r"and|article|body|column|content|main|shadow|post|entry|story"
# A comment's own parts: in "comment-body", "commentcontent", "post-comments" the content word
# names the comment's body, not the article's, and saves nothing ("commentary" is an article).
_COMMENT = r"comment(?!ary)|disqus|replies|respond"
_POSITIVE = (
    r"article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|detail|"
    r"zhengwen|neirong|wenzhang"
)
_NEGATIVE = (
    r"-ad-|\bads?\b|hidden|\bhid\b|banner|combx|comment|\bcom-|contact|foot|gdpr|masthead|"
    r"outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|"
    r"tags|tool|widget|recommend|\bnav|menu|copyright|byline|author|meta|breadcrumb|"
    r"subscribe|newsletter|social|(?<![a-z])hot(?![a-z])|(?<![a-z])rank"
)


_says_layout, _says_never_content, _says_maybe, _says_positive, _says_negative, _says_comment = (
    map(words_in, (_LAYOUT, _NEVER_CONTENT, _MAYBE, _POSITIVE, _NEGATIVE, _COMMENT)))
_ALWAYS_HIDDEN = frozenset(
    ("hidden", "hide", "sr-only", "visually-hidden", "screen-reader-text", "screen-reader-only",
     "visuallyhidden", "invisible", "print-only", "printonly")
)
_SHOWN_AT = re.compile(r"d-(?:sm|md|lg|xl|xxl)-(?!none)")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
# The characters ``measure`` counts in a block's text, each written once: counted by
# str.count, one scan at C speed each, in about half the time str.translate takes to delete
# them (it looks every character of the text up in a table; issue 27 §10).
_WS = " \t\n\r\f\v\u00a0\u3000\u200b\ufeff"
_PUNCT = "，。！？；：、,.!?;“”「」《》（）\"'"
_COMMAS = "，,、"
# … and those an ASCII text can hold, all an English page's plain texts need counted (a scan
# for a character the text cannot hold is a scan all the same).
_COUNTED = (_WS, _PUNCT, _COMMAS)
_ASCII_COUNTED = tuple("".join(c for c in chars if c.isascii()) for chars in _COUNTED)
_TAG_BASE = {
    "div": 5, "article": 10, "main": 8, "section": 3, "pre": 3, "td": 3, "blockquote": 3,
    "address": -3, "ol": -3, "ul": -3, "dl": -3, "dd": -3, "dt": -3, "li": -3, "form": -3,
    "th": -5, "h1": -5, "h2": -5, "h3": -5, "h4": -5, "h5": -5, "h6": -5,
}


@dataclass(slots=True)
class Stats:
    """Text measures of one element: all its text, and its own flow (inline text only)."""

    chars: int = 0
    links: int = 0
    punct: int = 0
    commas: int = 0
    flow: int = 0
    flow_links: int = 0
    flow_punct: int = 0
    score: float = 0.0
    candidate: bool = False

    @property
    def link_density(self) -> float:
        return self.links / self.chars if self.chars else 0.0


def class_weight(el: etree._Element, opts: ExtractOptions = DEFAULT) -> int:
    """+w for content-like class/id words, −w for chrome-like ones (each attribute counted);
    0 when the pass ignores class names."""
    if not opts.weigh_classes:
        return 0
    return (_attr_weight(el.get("class")) + _attr_weight(el.get("id"))) * opts.class_weight


# Class names repeat hundreds of times in a page and across a site's pages: decide each once.
@lru_cache(maxsize=8192)
def _attr_weight(attr: str | None) -> int:
    if not attr:
        return 0
    return (1 if _says_positive(attr) else 0) - (1 if _says_negative(attr) else 0)


@lru_cache(maxsize=8192)
def _unlikely(attrs: str, layout_too: bool) -> bool:
    """Class/id words of chrome, unless a content word says the block may be the article.

    Read one token at a time, each token's words once (an element's id seldom repeats, the
    tokens of its class do): no word of these patterns holds white space, so the tokens
    answer as the whole string does. One loop over the tokens' answers (a list of them and
    three scans of it took a microsecond more for each new value, about 190 a page)."""
    chrome = maybe = False
    for token in attrs.split():
        never, layout, content = _chrome_words(token)
        chrome = chrome or never or layout_too and layout
        maybe = maybe or content
    return chrome and not maybe


@lru_cache(maxsize=8192)
def _chrome_words(attr: str) -> tuple[bool, bool, bool]:
    """Whether a token of a class or id has words of chrome that is never content, of layout
    chrome, and of a block that may be the article (a token that names a comment names no
    article, whatever content word it joins: the body of a comment is a comment)."""
    return (_says_never_content(attr), _says_layout(attr),
            _says_maybe(attr) and not _says_comment(attr))


def remove_noise(
    root: etree._Element, strip: tuple[str, ...] = (), opts: ExtractOptions = DEFAULT
) -> None:
    """Drop what is never article text: rules' strip selectors, what never reaches a reader
    (``markup.NEVER_READ_TAGS``: never content, and costly to score), hidden nodes."""
    for css in strip:
        for el in selector(css)(root):
            remove(el)
    # A <noscript> holding pages of text is the page itself, swallowed by a tag it leaves open
    # (``<noscript><div></noscript>``: libxml2 keeps the rest of the page inside it).
    for el in root.iter("noscript"):
        if sum(len(t) for t in el.itertext()) > opts.noscript_max_chars:
            el.tag = "div"
    drop_never_read(root)
    for el in _MAYBE_HIDDEN(root):
        if _hidden(el):
            remove(el)
    for el in _WITH_CLASS(root):
        if _hidden_by_class(el.get("class", "")):
            remove(el)


# Attribute steps rather than a predicate on every element: libxml2 evaluates a predicate such
# as contains(@style, …) at a cost on each element, three times what finding the elements
# that carry the attributes costs; ``_hidden`` then reads the few it finds.
_MAYBE_HIDDEN = etree.XPath("//@hidden/.. | //@aria-hidden/.. | //@style/..")
_WITH_CLASS = etree.XPath("//@class/..")


def _hidden(el: etree._Element) -> bool:
    """hidden, aria-hidden="true", or an inline style saying display:none or visibility:hidden
    (its property name written in lower case)."""
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return True
    style = el.get("style")
    return bool(style and ("display" in style or "visibility" in style)
                and _HIDDEN_STYLE.search(style))


@lru_cache(maxsize=8192)
def _hidden_by_class(classes: str) -> bool:
    """Classes that mean "never shown on screen" in the common CSS frameworks (Bootstrap's
    d-none unless a breakpoint shows it again, sr-only, visually-hidden, hidden)."""
    tokens = classes.lower().split()
    if _ALWAYS_HIDDEN.intersection(tokens):
        return True
    return "d-none" in tokens and not any(_SHOWN_AT.match(t) for t in tokens)


# Markup that names the article by a standard, not by a site's taste: HTML5's <article> and
# <main>, schema.org's articleBody, the hAtom (hentry, entry-content) and microformats2
# (h-entry, e-content) classes that Blogger, WordPress and TypePad themes carry. Chrome that
# holds such an element is kept: Blogger puts every post inside a "widget".
_ARTICLE_TAGS = frozenset(("article", "main"))
_BODY_CLASSES = frozenset(("entry-content", "e-content"))  # the post's body, not its entry
_ARTICLE_CLASSES = _BODY_CLASSES | {"hentry", "h-entry"}


def _marks_article(el: etree._Element, cls: str | None) -> bool:
    """The element (whose class is ``cls``) is article markup by a standard (the tags,
    articleBody, the classes). ``remove_chrome`` asks the same of every element in two halves:
    the tag and class in its walk, the itemprop by ``_ARTICLE_BODY``."""
    return (el.tag in _ARTICLE_TAGS or el.get("itemprop") == "articleBody"
            or bool(cls and _article_class(cls)))


@lru_cache(maxsize=8192)
def _article_class(cls: str) -> bool:
    """A class of a standard's article markup is among the tokens (a page repeats classes)."""
    return not _ARTICLE_CLASSES.isdisjoint(cls.split())


# ``_marks_article``'s itemprop, asked of a page's elements at once: a step to the attribute
# rather than a predicate on every element (see ``_MAYBE_HIDDEN``).
_ARTICLE_BODY = etree.XPath(".//@itemprop[. = 'articleBody']/..")


def marked_as_article(el: etree._Element) -> bool:
    """The element, or one around it, is the article by the page's own markup."""
    return _marks_article(el, el.get("class")) or any(
        _marks_article(a, a.get("class")) for a in el.iterancestors())


# Never removed for their class: the page itself, the article markup, links, table parts.
_NOT_CHROME = frozenset(("html", "body", "article", "main", "a", "td", "tr", "tbody", "table"))


def remove_chrome(root: etree._Element, opts: ExtractOptions = DEFAULT) -> None:
    """Drop page chrome (nav, comments, share bars; in the strict pass sidebars and widgets
    too) unless it holds the article. One walk finds both the chrome and the article markup."""
    tags = NAVIGATION_TAGS | LAYOUT_TAGS if opts.strip_unlikely else NAVIGATION_TAGS
    marked: list[etree._Element] = []
    chrome: list[etree._Element] = []
    inline: list[tuple[etree._Element, str]] = []  # decided in their sentence, below
    for el in root.iter(etree.Element):  # elements only, chosen in C
        tag = el.tag
        cls, ident = el.get("class"), el.get("id")
        if tag in _ARTICLE_TAGS or cls and _article_class(cls):  # _marks_article, itemprop below
            marked.append(el)
        if tag in tags:
            chrome.append(el)
        elif (cls or ident) and tag not in _NOT_CHROME:
            attrs = f"{cls or ''} {ident or ''}"
            if tag not in BLOCK_TAGS and _unlikely(attrs, True):
                inline.append((el, attrs))
            elif _unlikely(attrs, opts.strip_unlikely):
                chrome.append(el)
    # Nor what the article points at (its notes), nor code: a highlighter's classes name the
    # code's tokens ("token comment", "hljs-meta"), not the page's regions.
    marked += _ARTICLE_BODY(root)  # the few elements with an itemprop, found by libxml2
    spared = {a for el in marked for a in el.iterancestors()}
    spared.update(d for pre in root.iter("pre") for d in pre.iterdescendants())
    for el, attrs in inline:  # in a sentence, cut to its trigger in every pass (inline_chrome)
        if el not in spared and el.get(NOTE) is None and not cut_to_trigger(el, opts) and (
                _unlikely(attrs, opts.strip_unlikely)):
            chrome.append(el)
    cut_from: dict[etree._Element, list[etree._Element]] = {}
    for el in chrome:
        if el not in spared and el.get(NOTE) is None:
            if (parent := el.getparent()) is not None:
                cut_from.setdefault(parent, []).append(el)
            remove(el)
    for box, cut in cut_from.items():
        if box not in spared and _titled_cut(box, cut):
            remove(box)


def _titled_cut(box: etree._Element, cut: list[etree._Element]) -> bool:
    """A box that chrome removal left holding only headings, over a list of links longer than
    they are: the headings titled the chrome ("Related Stories" over its links, in a box whose
    "story" class saved it). A box left with words or a picture of its own, one whose heading
    outweighs what went (a section title beside a share bar), or one whose cut part was prose
    (a comment under its heading, which some truths keep), stays."""
    # The headings first: most boxes have none, and then neither the box's pictures nor its
    # text (a walk over all of it, often the whole body) need reading.
    if box.tag in _NOT_CHROME:
        return False
    headings = sum(_text_chars(h) for h in box.iter(*HEADING_TAGS))
    if not headings or box.find(".//img") is not None or headings != _text_chars(box):
        return False
    went = sum(map(_text_chars, cut))
    linked = sum(_text_chars(a) for el in cut for a in el.iter("a") if _goes_somewhere(a))
    return 2 * headings <= went < 2 * linked


def _text_chars(el: etree._Element) -> int:
    """The characters of the element's text that are not white space (its pieces joined first:
    one split, not one a piece)."""
    return len("".join("".join(el.itertext()).split()))


def measure(root: etree._Element) -> dict[etree._Element, Stats]:
    """Stats for every element, children before parents (one pass over the tree)."""
    stats: dict[etree._Element, Stats] = {}
    for el in reversed(list(root.iter())):
        tag = el.tag
        if not isinstance(tag, str):  # a comment or processing instruction (as tag_of)
            continue
        s = Stats()
        own = [el.text or ""]
        for child in el:  # one loop: the children's tails and their sums (added in any order)
            if tail := child.tail:
                own.append(tail)
            cs = stats.get(child)
            if cs is None:
                continue
            s.chars += cs.chars
            s.links += cs.links
            s.punct += cs.punct
            s.commas += cs.commas
            if child.tag not in BLOCK_TAGS:
                # an inline child's own flow only: blocks nested in a <font> are not this line
                s.flow += cs.flow
                s.flow_links += cs.flow_links
                s.flow_punct += cs.flow_punct
        text = "".join(own)
        # Most texts and tails are the markup's indentation: one strip says so, where the
        # counts take a scan per character of _WS.
        ws, puncts, commas = _ASCII_COUNTED if text.isascii() else _COUNTED
        if text.strip(ws) and (n := len(text) - sum(map(text.count, ws))):
            punct = sum(map(text.count, puncts))
            s.chars += n
            s.flow += n
            s.punct += punct
            s.flow_punct += punct
            s.commas += sum(map(text.count, commas))
        if tag == "a" and _goes_somewhere(el):
            s.links = s.chars
            s.flow_links = s.flow
        stats[el] = s
    return stats


def _goes_somewhere(a: etree._Element) -> bool:
    """A link leads to another page. An <a> without href (a name, a footnote target), one to a
    place on the same page (a table of contents, a heading's own anchor, a footnote mark) and
    one that only runs a script (a "show more" toggle) are part of the text, not navigation."""
    href = (a.get("href") or "").strip()
    return bool(href) and not href.startswith("#") and not href.lower().startswith("javascript:")


def score(stats: dict[etree._Element, Stats], opts: ExtractOptions = DEFAULT) -> None:
    """Give each text block's score to its ancestors (parent fully, then less and less)."""
    for el, s in stats.items():
        if s.flow < opts.para_min_chars and not s.flow_punct:
            continue
        if tag_of(el) not in BLOCK_TAGS or tag_of(el) in ("html", "body"):
            continue
        ld = s.flow_links / s.flow if s.flow else 1.0
        if ld > opts.block_max_link_density:
            continue
        points = (1 + s.flow_punct + min(s.flow / 100, 3)) * (1 - ld) ** 2
        # The block itself is a candidate too: text in a lone <td> or <div> with <br> runs.
        _credit(el, stats, points, opts)
        ancestor = el.getparent()
        level = 0
        while ancestor is not None and level < opts.ancestor_levels:
            _credit(ancestor, stats, points / (1 if level == 0 else 2 if level == 1 else level * 3),
                    opts)
            ancestor = ancestor.getparent()
            level += 1


def _credit(
    el: etree._Element, stats: dict[etree._Element, Stats], points: float, opts: ExtractOptions
) -> None:
    s = stats.get(el)
    if s is None or tag_of(el) in ("html", "a"):
        return
    if not s.candidate:
        s.candidate = True
        s.score += _TAG_BASE.get(tag_of(el), 0) + class_weight(el, opts)
    s.score += points


def best_candidate(
    stats: dict[etree._Element, Stats], opts: ExtractOptions = DEFAULT
) -> tuple[etree._Element, float] | None:
    """The highest-scoring block (scores discounted by link density), moved up when its parent
    holds more of the article; None when nothing on the page reads as prose."""
    ranked = sorted(
        ((s.score * (1 - s.link_density), el) for el, s in stats.items()
         if s.candidate and tag_of(el) != "body"),
        key=lambda pair: pair[0], reverse=True,
    )[: opts.top_candidates]
    if not ranked or ranked[0][0] <= 0:
        return None
    best_score, best = ranked[0]
    best = _common_holder(best, best_score, ranked[1:], stats, opts)
    # Readability's walk up: a parent scoring higher than the child is the fuller article.
    last = best_score
    parent = best.getparent()
    # The walk may end at <body>: pages whose posts or paragraphs sit right in it (forum
    # threads, old hand-written pages) have no other block that holds them all.
    while parent is not None and tag_of(parent) != "html":
        ps = stats.get(parent)
        if ps is None or not ps.candidate:
            parent = parent.getparent()
            continue
        pscore = ps.score * (1 - ps.link_density)
        if pscore < best_score / 3:
            break
        if pscore > last:
            best, best_score = parent, pscore
            break
        last = pscore
        parent = parent.getparent()
    # Old hand-written pages put their paragraphs right in <body>: no block holds more than a
    # few of them, and the body's own score dwarfs the best block's.
    body = best.getroottree().getroot().find("body")
    if body is not None and (bs := stats.get(body)) is not None and bs.candidate:
        if bs.score * (1 - bs.link_density) >= opts.body_ratio * best_score:
            return body, bs.score * (1 - bs.link_density)
    best = _declared_body(best, stats, opts)
    # A lone child carries no more than its parent: take the parent (it may hold captions).
    while (parent := best.getparent()) is not None and tag_of(parent) not in ("body", "html"):
        if len(parent) != 1:
            break
        best = parent
    return best, best_score


def _marks_body(el: etree._Element) -> bool:
    """The element is the post's body (not the whole entry) by a standard: schema.org's
    articleBody, hAtom's entry-content, microformats2's e-content."""
    cls = el.get("class")
    return el.get("itemprop") == "articleBody" or bool(cls) and not _BODY_CLASSES.isdisjoint(
        cls.split())


def _declared_body(best: etree._Element, stats: dict[etree._Element, Stats],
                   opts: ExtractOptions) -> etree._Element:
    """The body the page's markup declares, when the winning block lies inside it and is not
    mostly links. Blogger and TypePad posts leave the editor's wrappers in the body: the bulk
    of a long post sits in a <div> it never closed and outscores the body around it, while
    the first paragraphs are bare text beside it (measured on the dev sets: only posts with
    such markup change, all for the better)."""
    for a in best.iterancestors():
        if tag_of(a) in ("body", "html"):
            break
        if _marks_body(a):
            s = stats.get(a)
            if s is not None and s.link_density <= opts.holder_max_link_density:
                return a
            break
    return best


def _common_holder(
    best: etree._Element, best_score: float, others: list[tuple[float, etree._Element]],
    stats: dict[etree._Element, Stats], opts: ExtractOptions,
) -> etree._Element:
    """Readability's alternative top candidate: when several blocks score nearly as well as the
    best one and share an ancestor with it, the article is that ancestor. Pages built of
    repeated sections (how-to steps, a story cut into boxes, Q&A) give each section its own
    points and no section wins by much."""
    close = [el for score, el in others if score >= best_score * opts.close_rival_ratio]
    if len(close) < opts.close_rivals:
        return best
    lineages = [set(el.iterancestors()) for el in close]
    for ancestor in best.iterancestors():
        if tag_of(ancestor) in ("body", "html"):
            break
        if sum(ancestor in lineage for lineage in lineages) >= opts.close_rivals:
            # a holder that is mostly links joins the article to the site's lists around it
            linked = stats[ancestor].link_density > opts.holder_max_link_density
            return best if linked else ancestor
    return best


def rival_score(best: etree._Element, stats: dict[etree._Element, Stats]) -> float:
    """The best score of a block outside the chosen one (neither inside it nor around it)."""
    around = set(best.iterancestors())
    rival = 0.0
    for el, s in stats.items():
        if s.candidate and el not in around and el is not best:
            final = s.score * (1 - s.link_density)
            if final > rival and not any(a is best for a in el.iterancestors()):
                rival = final
    return rival


def repeated_posts(
    best: etree._Element, stats: dict[etree._Element, Stats]
) -> list[etree._Element] | None:
    """Several posts on one page (a blog's archive or day page): when the best block's wrapper
    repeats beside itself, each copy holding a block of the same tag and class and some prose,
    all of them are the article, in page order. None when nothing repeats."""
    marker = best
    while marker.get("class") is None and len(marker) == 1:
        marker = marker[0]
    cls = marker.get("class")
    if not cls or '"' in cls:
        return None
    probe = f'.//{tag_of(marker)}[@class="{cls}"]'
    unit = best
    for _ in range(8):
        parent = unit.getparent()
        if parent is None or tag_of(parent) == "html":
            return None
        peers = [
            sib for sib in parent
            if sib is unit or (
                tag_of(sib) == tag_of(unit) and sib.get("class") == unit.get("class")
                and _is_prose(stats.get(sib)) and sib.xpath(probe)
            )
        ]
        if len(peers) > 1:
            return peers
        unit = parent
    return None


def _is_prose(s: Stats | None) -> bool:
    return s is not None and s.chars >= 150 and s.link_density < 0.3 and s.punct >= 3


def expand(
    best: etree._Element, best_score: float, stats: dict[etree._Element, Stats],
    opts: ExtractOptions = DEFAULT,
) -> list[etree._Element]:
    """Content-like siblings of the best block join it ("expand the selection", seed 004); a
    table cell's siblings are the other cells of its layout (``_layout_cells``)."""
    parent = best.getparent()
    if parent is None:
        return [best]
    if tag_of(best) == "td" and (cells := _layout_cells(best, best_score, stats, opts)):
        return cells
    threshold = max(10.0, best_score * 0.2)
    picked: list[etree._Element] = []
    for sib in parent:
        if sib is best:
            picked.append(sib)
            continue
        s = stats.get(sib)
        if s is None or not s.chars and not _count_img(sib):
            continue
        if sib.get(NOTE) is not None and best.get(NOTE) is not None:
            picked.append(sib)  # the notes the article's marks point at, or the reverse
            continue
        same_class = sib.get("class") and sib.get("class") == best.get("class")
        bonus = best_score * 0.2 if same_class else 0
        if s.candidate and s.score * (1 - s.link_density) + bonus >= threshold:
            if not story_list(sib, s, opts):  # teasers of other stories read as prose too
                picked.append(sib)
        elif tag_of(sib) == "p" or tag_of(sib) not in BLOCK_TAGS:
            ld = s.link_density
            if s.chars > 80 and ld < 0.25:
                picked.append(sib)
            elif 0 < s.chars <= 80 and ld == 0 and s.punct and _ends_sentence(sib):
                picked.append(sib)
    return _fill_gaps(parent, picked, stats)


_count_headings = etree.XPath("count(.//h1|.//h2|.//h3|.//h4|.//h5|.//h6)")
_count_a = etree.XPath("count(.//a[@href])")


def story_list(el: etree._Element, s: Stats, opts: ExtractOptions) -> bool:
    """A list of other stories (a site's latest news, a blog's recent posts): several
    headings, each over a teaser's few sentences, and links that lead to the stories (one for
    every two headings at least: a linked headline or a "Read more"). An article's own
    sections run longer under their headings; a list of headings without sentences (jobs,
    products) is no teaser list. Measured on the dev sets: only boxes of teasers beside an
    article change."""
    headings = int(_count_headings(el))
    return (headings >= opts.story_list_headings and s.chars < headings * opts.teaser_max_chars
            and s.punct >= headings * opts.teaser_min_punct and _count_a(el) * 2 >= headings)


def _layout_cells(
    best: etree._Element, best_score: float, stats: dict[etree._Element, Stats],
    opts: ExtractOptions = DEFAULT,
) -> list[etree._Element] | None:
    """An article that a table layout cuts into cells: pages of the 2000s put a story's parts
    (an essay and its addendum, a transcript's turns) in rows of one table, and the best cell
    is one part of it. Its siblings in the row are not where the rest is: the other cells of
    the winning cell's table that read as prose (scoring ``layout_cell_share`` of the winner,
    and at least the floor a sibling needs) join it, in page order. A cell of a table nested
    inside is a block of its own cell, not of the layout. None when no other cell reads as
    prose (measured on the dev sets: only table layouts change, CleanEval's pages)."""
    table = next(best.iterancestors("table"), None)
    if table is None:
        return None
    threshold = max(10.0, best_score * opts.layout_cell_share)
    cells = [
        td for td in table.iter("td")
        if td is best or (s := stats.get(td)) is not None and s.candidate
        and s.score * (1 - s.link_density) >= threshold
        and next(td.iterancestors("table")) is table
    ]
    return cells if len(cells) > 1 else None


def _ends_sentence(el: etree._Element) -> bool:
    return _is_sentence("".join(el.itertext()).rstrip())


def _is_sentence(text: str) -> bool:
    return bool(text) and text[-1] in ".!?。！？…”\"』」"


def _fill_gaps(
    parent: etree._Element, picked: list[etree._Element], stats: dict[etree._Element, Stats]
) -> list[etree._Element]:
    """Headings, figures, tables and code between picked blocks stay in (content is contiguous)."""
    if len(picked) < 2:
        return picked
    children = list(parent)
    first, last = children.index(picked[0]), children.index(picked[-1])
    chosen = set(picked)
    out = []
    for child in children[first : last + 1]:
        if child in chosen:
            out.append(child)
            continue
        s = stats.get(child)
        if s is None:
            continue
        tag = tag_of(child)
        if tag in HEADING_TAGS or tag in ("figure", "table", "pre", "blockquote", "img", "ul",
                                          "ol"):
            if s.link_density < 0.5 and class_weight(child) >= 0:
                out.append(child)
        elif s.chars and s.link_density < 0.3 and class_weight(child) >= 0 and not s.candidate:
            out.append(child)
    return out


# The place a "12 Comments" link jumps to: an anchor named "comments" (Movable Type, TypePad,
# many hand-made blogs), in any case. A block of that name (a heading, a thread's container) is
# chrome removal's to judge: it goes, or stays because it holds the article's own markup.
_THREAD_MARK = etree.XPath(
    ".//a[translate(@id, 'COMENTS', 'comets') = 'comments'"
    " or translate(@name, 'COMENTS', 'comets') = 'comments']")


# A heading that opens a thread without an anchor: it counts the comments ("12 replies",
# "3 Responses", "24 thoughts on …") or invites one ("Leave a Reply"), the whole of its text.
_THREAD_HEADING = re.compile(
    r"(?:\d+|no|one|two|three) (?:comments?|replies|responses|reactions)(?: (?:to|on) .*)?|"
    r"\d+ thoughts on .*|comments?|(?:leave|post|add|write) a (?:comment|reply)", re.I)


def cut_comment_thread(content: list[etree._Element]) -> None:
    """Cut a comment thread that follows the post inside the selection: templates that write
    each comment as a bare paragraph and a "Posted by" line, beside the post and with no
    comment class, mark where the thread starts for the "N Comments" link, or open it with a
    heading that counts the comments. From that mark (with the heading it opens) to the end
    of its container, all is thread."""
    for top in content:
        marks = _THREAD_MARK(top) or [h for h in top.iter(*HEADING_TAGS) if h is not top
                                      and _THREAD_HEADING.fullmatch(flow_text(h))]
        if not marks:
            continue
        start = marks[0]
        up = start.getparent()
        # "<h2><a id="comments"></a>Comments</h2>": an anchor that opens a heading marks it
        if (up is not None and up is not top and tag_of(up) in HEADING_TAGS
                and start.getprevious() is None and not (up.text or "").strip()):
            start = up
        for el in [start, *start.itersiblings()]:
            remove(el)


def shrink(
    content: list[etree._Element], stats: dict[etree._Element, Stats],
    opts: ExtractOptions = DEFAULT,
) -> None:
    """Cut non-content blocks inside the selection (readability's conditional cleaning)."""
    for top in content:
        whole = stats[top].chars if top in stats else 0
        for el in reversed(list(top.iter("div", "section", "ul", "ol", "dl", "table", "aside",
                                        "header", "footer", "nav", "figure", "p", "h1", "h2",
                                        "h3", "h4", "h5", "h6", "center"))):
            if el is top:
                continue
            if _is_junk(el, stats, opts, whole):
                remove(el)


# Lines that frame an article rather than belong to it (seed 004: "trim head and tail").
_HEAD_LINE = re.compile(
    r"(?:19|20)\d\d\s*[-/年.]\s*\d|\d/(?:19|20)\d\d|来源[:：]|作者[:：]|编辑[:：]|发布|更新|浏览|点击[:：数]|字号|"
    r"^(?:by|posted|updated|published)\b|当前位置|您的位置|所在位置|^you are here|"
    r"\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4}\b|"
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\b",
    re.I,
)
_TAIL_LINE = re.compile(
    r"责任编辑|编辑[:：]|责编|返回|打印|关闭窗口|分享到|转载|免责|版权|copyright|©|"
    r"all rights reserved|"
    r"发表于|阅读[:：(（]|评论[:：(（]|^posted\b|click here|^\d*\s*comments?$|"
    r"share (?:this|it)\b|follow us\b|^follow \w+ on\b",
    re.I,
)


_AD_LABEL = re.compile(r"^(?:advertisements?|advertising|sponsored|ad|广告|推广)$", re.I)


# Characters outside its links a line needs to be a sentence written around them.
_SENTENCE_CHARS = 20


def _linked_sentence(el: etree._Element, s: Stats) -> bool:
    """A short line whose words are mostly links is a link line ("Read more: …", "Tags: …"),
    unless it is a sentence: words of its own around the links and a full stop at its end
    ("P.S.: the lens is sold on Amazon and on eBay."). Measured on the dev sets: the lines
    this keeps are mostly the post's own (six pages better, two a little worse)."""
    return s.flow - s.flow_links >= _SENTENCE_CHARS and _ends_sentence(el)


def trim(
    content: list[etree._Element], stats: dict[etree._Element, Stats], title: str
) -> list[etree._Element]:
    """Remove the headline, date/source lines and link lines at the head of the selection, and
    editor credits, copyright and link lines at its tail (a few lines at most on each side).
    Returns the selection without the top-level blocks that were cut (maybe none left)."""
    # Lines are leaf blocks: all their text is their own flow (no nested blocks).
    lines = [
        el for top in content for el in top.iter()
        if (s := stats.get(el)) is not None and s.flow and s.flow == s.chars
        and tag_of(el) in BLOCK_TAGS
    ]
    cut: set[etree._Element] = set()

    def framing(el: etree._Element, pattern: re.Pattern[str]) -> bool:
        s = stats[el]
        if el is content[0] and len(content) == 1 or s.flow > 100 or el.get(NOTE) is not None:
            return False
        text = flow_text(el)
        return (text == title or bool(pattern.search(text))
                or (s.flow_links > s.flow / 2 and not _linked_sentence(el, s)) or _jump(el))

    def frames(run: str) -> bool:
        return len(run) <= 100 and (run == title or bool(_HEAD_LINE.search(run)))

    for el in list(islice(_opening(content, lines, frames), 5)):
        if not framing(el, _HEAD_LINE):
            break
        remove(el)
        cut.add(el)
    tail = [el for el in lines[-6:] if el not in cut]
    # From a credit or copyright line on, the short lines that follow are boilerplate too.
    start = next((i for i, el in enumerate(tail) if framing(el, _TAIL_LINE)), len(tail))
    if not all(stats[el].flow <= 100 for el in tail[start:]):
        start = len(tail)
    while start > 0 and framing(tail[start - 1], _TAIL_LINE):
        start -= 1
    for el in tail[start:]:
        remove(el)
        cut.add(el)
    return [el for el in content if el not in cut]


def _opening(content: list[etree._Element], lines: list[etree._Element],
             frames: Callable[[str], bool]) -> Iterator[etree._Element]:
    """The lines the selection opens with, in order, up to its first words that stand in no
    line of their own and read as a sentence that does not frame it. An editor of the 2000s
    left a story's first paragraph bare in its cell and wrapped only the next ones in
    ``<p>``: the head is behind that bare text, and a short paragraph after it that names a
    date ("两轮谈判2004年9月，双方第一次见面。") is the story's, not a date line. A bare run
    that frames (a date, the headline) or is no sentence (an author's name) is passed over,
    as a line would be; it stays, as it always did. Measured on the dev sets: three pages
    better, one worse (a kicker sentence above a post's "Posted by" line)."""
    is_line = set(lines)
    run: list[str] = []

    def story_words() -> bool:  # the bare run so far is a sentence of the story's
        text = " ".join("".join(run).split())
        run.clear()
        return _is_sentence(text) and not frames(text)

    for top in content:
        inside: etree._Element | None = None
        for event, el in etree.iterwalk(top, events=("start", "end")):
            if inside is not None:
                if event == "end" and el is inside:
                    inside = None
                    if el is not top:
                        run.append(el.tail or "")
                continue
            if tag_of(el) in BLOCK_TAGS and story_words():
                return
            if event == "start":
                if el in is_line:
                    yield el
                    inside = el
                elif isinstance(el.tag, str):
                    run.append(el.text or "")
            elif el is not top:
                run.append(el.tail or "")
        if story_words():
            return


def _jump(el: etree._Element) -> bool:
    """A line that is one link into the page ("发表评论" to #comm above the story, "Back to
    top" below it): a control, not the story's words, though such a link counts as none in
    the link density (a footnote mark, a table of contents)."""
    links = el.findall(".//a[@href]")
    return (len(links) == 1 and links[0].get("href", "").startswith("#")
            and "".join(flow_text(el).split()) == "".join("".join(links[0].itertext()).split()))


def flow_text(el: etree._Element) -> str:
    """An element's own line: its text and its inline children's, not its blocks'."""
    parts = [el.text or ""]
    for child in el:
        if tag_of(child) not in BLOCK_TAGS:
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())


# The junk test asks these of dozens of blocks a page: compiled once, and counted by libxml2
# (a list of the elements would make a Python object of each only to count them).
_count_img = etree.XPath("count(.//img)")
_count_p = etree.XPath("count(.//p)")
_count_li = etree.XPath("count(.//li)")
_has_th_or_caption = etree.XPath("boolean(.//th|.//caption)")
_has_pre_or_table = etree.XPath("boolean(.//pre|.//table)")
_in_figure = etree.XPath("boolean(ancestor::figure)")


def _is_junk(el: etree._Element, stats: dict[etree._Element, Stats], opts: ExtractOptions,
             whole: int) -> bool:
    """Whether a block inside the selection is chrome. ``whole`` is the selection's length: a
    block holding most of it, inside a frame (a date line, a headline), is the post's own
    body however many links it carries (a deals post whose every sentence names a shop): cut
    for its links, it would leave the frame alone (issue 27 item 3)."""
    s = stats.get(el)
    if s is None or el.get(NOTE) is not None:  # footnotes and their marks are the article's
        return False
    tag = tag_of(el)
    weight = class_weight(el, opts)
    ld = s.link_density
    if tag in HEADING_TAGS:
        return weight < 0 or ld > 0.33
    if s.chars < 20 and _AD_LABEL.match(" ".join("".join(el.itertext()).split())):
        return True
    if tag == "p":
        # a line of links ("Previous story | Next story | …"), however long it runs
        short_or_list = s.chars < 200 or len(el.findall(".//a")) >= 3
        return s.chars > 0 and ld > 0.8 and short_or_list and weight <= 0
    if tag == "blockquote" or el.find(".//blockquote") is not None:
        return ld > 0.5  # quotations and embedded posts are part of the story
    if tag == "table" and _has_th_or_caption(el):
        return ld > 0.5
    plain_list = _plain_list(el, s)
    if weight + (s.score if s.candidate and not plain_list else 0) < 0:
        return True
    if s.commas >= 10:
        return False
    imgs = int(_count_img(el))
    paras = int(_count_p(el))
    lis = int(_count_li(el)) - 100
    if tag == "figure":
        return ld > 0.5
    if imgs > 1 and paras / imgs < 0.5 and s.chars < 100:
        return not _in_figure(el)
    if lis > paras and tag not in ("ul", "ol"):
        return True
    if s.chars < 25 and not s.punct and imgs == 0 and (s.links or not s.chars):
        return not _has_pre_or_table(el)
    if weight < 25 and ld > 0.2:
        # Prose with a few links (sources, references) keeps its punctuation; link lists don't.
        # A list's points need none when most of their words are not links.
        return ld > 0.5 or (s.punct * 30 < s.chars and not plain_list
                            and not whole > s.chars >= whole / 2)
    return weight >= 25 and ld > 0.5


def _plain_list(el: etree._Element, s: Stats) -> bool:
    """A list of running text (the points of an argument, steps): its items are short lines
    without full stops under a tag that scores below zero, so its score says nothing and its
    class alone judges it, as Readability.js judges every block. A list whose words are mostly
    anchors, even ones that only run a script ("Send us a tip", "Print"), is a toolbar."""
    if tag_of(el) not in ("ul", "ol"):
        return False
    anchored = sum(len("".join("".join(a.itertext()).split())) for a in el.iter("a"))
    return anchored * 2 < s.chars


def baseline(body: etree._Element, opts: ExtractOptions = DEFAULT) -> list[etree._Element]:
    """The last resort when no pass finds a block: every prose line of the page, in order
    (trafilatura's baseline does the same with its paragraphs). A line is a leaf block whose own
    text has sentence punctuation and few links; a page of links and labels gives nothing."""
    stats = measure(body)
    lines = []
    for el, s in stats.items():
        if tag_of(el) not in BLOCK_TAGS or tag_of(el) in ("html", "body") or not s.flow:
            continue
        if s.flow_links / s.flow > opts.block_max_link_density / 2 or not s.flow_punct:
            continue
        if s.flow < opts.para_min_chars * 2:
            continue
        lines.append(el)
    # measure() lists children before parents: restore page order, drop nested repeats
    chosen = set(lines)
    return [el for el in body.iter() if el in chosen
            and not any(a in chosen for a in el.iterancestors())]


def is_short_text_page(body: etree._Element, opts: ExtractOptions = DEFAULT) -> bool:
    """A page holding only a few words, and not mostly links: its text is all there is to keep
    (a note, a one-line announcement). A list of links or an empty shell is not such a page."""
    s = measure(body).get(body)
    return bool(s and 0 < s.chars < opts.short_page_chars
                and s.link_density <= opts.list_page_link_density)
