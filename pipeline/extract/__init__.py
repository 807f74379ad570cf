"""The clean stage's heart: decoded HTML + URL + rules → Article (issue 4).

Rules first ("manual first, algorithm as fallback", seed 003 §3.3): ``strip`` selectors go
before anything else and a matching ``content_selector`` wins; otherwise the density method in
``density`` finds the article. Built on lxml alone (see ``dom``): one parse, one tree, mutated
in place, because the speed target allows no second tree.

Pages that scripts fill in (issue 19) are looked at only when the markup gave no article or a
short one: the body the page embeds for machines may stand in (``embedded``), else a shell is
named as one (``scripted``), so a page that needs a browser does not read as "no article".
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import replace

from lxml import etree

from pipeline.assets.sources import document_base
from pipeline.extract import density, embedded, meta, scripted
from pipeline.extract.clean import clean
from pipeline.extract.dom import PRIVATE_USE, parse, split_br_runs, tag_of
from pipeline.extract.images import mark_images
from pipeline.extract.meta.facts import PageFacts
from pipeline.extract.notes import mark_notes
from pipeline.extract.options import DEFAULT, ExtractOptions
from pipeline.extract.sentences import count_sentences
from pipeline.records.article import Article, Method
from pipeline.records.errors import BadSelectorError, ExtractError, NeedsJavaScript
from pipeline.records.failures import Code, failure
from pipeline.rules.model import SiteRules
from pipeline.rules.selectors import selector
from pipeline.text.language import article_language
from pipeline.web.urls import host_of

__all__ = ["extract"]


def extract(
    html: str, url: str, rules: SiteRules | None = None, options: ExtractOptions = DEFAULT,
    *, rendered: bool = False,
) -> Article:
    """Cut the article out of a page. Raises ExtractError("no article found") for empty pages,
    list pages and texts shorter than ``rules.min_chars``, NeedsJavaScript for a shell that
    scripts fill in.

    The markup decides (``_from_markup``) unless it gave no article, or a short one holding
    a fraction of the body the page embeds (JSON-LD, __NEXT_DATA__): that body is then the
    article (method "json-ld" / "next-data"), with the page's title, date and author. Where
    the markup holds no article (none, or a shell's few words) the body the site declares is
    the article at any length, a news brief's too. A page left without an article, or a tiny
    one, that looks like a script-built shell fails as one; ``rendered`` (the HTML is a
    browser's DOM) changes only what that failure advises.
    """
    rules = rules or SiteRules()
    pages = _Pages(html, url, rules, options)
    article: Article | None = None
    try:
        article = _from_markup(pages, rules, options)
    except BadSelectorError:
        raise
    except ExtractError as e:
        failure = e
    if article is not None and (article.method == Method.RULES
                                or article.chars >= options.embedded_dom_max_chars):
        return article
    body = embedded.find_body(html, options)
    if body is not None and body.chars < rules.min_chars:
        body = None
    if body is not None and (article is None or body.chars >= options.embedded_min_chars
                             and article.chars < options.embedded_dom_share * body.chars):
        return _embedded_article(pages, body, rules, options)
    if article is None or article.chars < options.article_chars:
        if signal := scripted.shell_signal(html, options):
            if body is not None:  # a shell's few words are not its article; its own body is
                return _embedded_article(pages, body, rules, options)
            host = host_of(url) or "<host>"
            raise NeedsJavaScript(signal, host, rendered=rendered)
    if article is None:
        raise failure
    return article


def _from_markup(pages: _Pages, rules: SiteRules, options: ExtractOptions) -> Article:
    """The article the page's markup holds.

    A matching ``content_selector`` decides alone. Otherwise the cascade runs: the strict pass,
    then relaxed ones, stopping at the first text long enough to be a whole article, so the
    common page pays for one pass only (a retry gets a fresh tree, since a pass cuts it; see
    ``_Pages``). When no pass reaches that length, the first pass that found prose wins: measured
    on the dev sets, a short strict result beats a longer relaxed one, since what a relaxed
    pass adds is mostly what the strict one rightly cut (a sidebar, a comment thread). When no
    pass finds prose, the baseline (every prose paragraph of the page) stands in, then a page's
    few words if it holds nothing else. A short text that reads as an article (a brief, a
    three-sentence post) is never traded for a relaxed pass's block elsewhere on the page:
    what the strict pass cut and a relaxed one keeps there is the chrome beside the post, even
    when the post joins that block as its sibling."""
    short: Article | None = None
    marked = False
    for name, opts in options.cascade():
        page = pages.for_pass()
        if name == Method.STRICT and (content := _by_selector(page.root, rules.content_selector)):
            return _article(page, content, None, 1.0, Method.RULES, rules, options)
        try:
            content, confidence, stats, winner = _by_density(page.body, opts)
            if short is not None and _elsewhere(winner, short, marked, options):
                continue
            article = _article(page, content, stats, confidence, name, rules, opts)
        except ExtractError:
            continue
        if article.chars >= max(rules.min_chars, opts.article_chars):
            return article
        if short is None and article.chars >= rules.min_chars:
            short, marked = article, density.marked_as_article(winner)
    if short is not None:
        return short
    page = pages.last()
    method, lines = Method.BASELINE, density.baseline(page.body, options)
    if not lines and density.is_short_text_page(page.body, options):
        method, lines = Method.WHOLE_PAGE, [page.body]
    if not lines:
        raise ExtractError(failure(Code.NO_ARTICLE))
    article = _article(page, lines, None, options.baseline_confidence, method, rules, options)
    if article.chars < rules.min_chars:
        raise ExtractError(failure(Code.NO_ARTICLE))
    return article


def _elsewhere(winner: etree._Element, short: Article, marked: bool,
               options: ExtractOptions) -> bool:
    """A later pass's winning block lies elsewhere on the page than an earlier short article
    that reads as running text: it does not hold the short one's longest line. The block that
    won decides, not the content grown around it: a teaser list or a sidebar the strict pass
    cut may win a relaxed pass and take the post in as a sibling (issue 27 item 3). (A label,
    a heading or a poll the strict pass found is no article, and any later pass may replace
    it; inside the page's own article markup, ``marked``, two sentences are a post.) White
    space is left out of the comparison, as the article's text lays it out anew."""
    if count_sentences(short.text) < (options.short_marked_sentences if marked
                                      else options.short_article_sentences):
        return False
    line = "".join(max(short.text.splitlines(), key=len).split())
    return line not in "".join("".join(winner.itertext()).split())


def _embedded_article(pages: _Pages, body: embedded.EmbeddedBody, rules: SiteRules,
                      options: ExtractOptions) -> Article:
    """The embedded body as the article, cut by the same whitelist as any markup; the page is
    read as for a pass, for its metadata and its base URL. The confidence is a relaxed
    pass's: the site's own text, but nothing on the page confirms it is all there."""
    page = pages.read()
    content = [embedded.body_tree(body, page.base, rules.lazy_attrs)]
    return _article(page, content, None, options.relaxed_confidence, body.source, rules,
                    options)


class _Page:
    """A parsed page ready for a pass: images resolved and metadata read before noise removal
    (the headline and date line often sit in blocks the body extractor throws away), and the
    footnotes the article points at marked before chrome removal could take them.

    ``facts`` given (the same page, read before) are not gathered again: parsing is
    deterministic, so the new tree's elements stand where the old ones stood and take their
    positions (``facts.order`` then numbers the elements of both trees)."""

    def __init__(self, html: str, url: str, rules: SiteRules, options: ExtractOptions,
                 facts: PageFacts | None = None) -> None:
        self.url = url
        self.root = parse(html)
        self.base = document_base(self.root, url)
        mark_images(self.root, self.base, rules.lazy_attrs)
        if facts is None:
            self.facts = meta.gather(self.root, rules.title_selector)
        else:
            positions = zip(self.root.iter(), facts.order.values(), strict=True)
            self.facts = _renumbered(facts, positions)
        density.remove_noise(self.root, rules.strip_all, options)
        mark_notes(self.root, options)
        split_br_runs(self.root)

    @property
    def body(self) -> etree._Element:
        body = self.root.find("body")
        return body if body is not None else self.root

    def duplicate(self) -> _Page:
        """Another tree for another pass, prepared as this one is; its elements take the
        positions of this tree's (the elements noise removal left: the order is read on those)."""
        twin = copy.copy(self)
        twin.root = copy.deepcopy(self.root)
        order = self.facts.order
        twin.facts = _renumbered(self.facts, (
            (new, order[old]) for old, new in zip(self.root.iter(), twin.root.iter(), strict=True)
            if old in order))
        return twin


def _renumbered(facts: PageFacts,
                positions: Iterable[tuple[etree._Element, int]]) -> PageFacts:
    """The facts with the elements of another tree of the same page numbered too."""
    return replace(facts, order={**facts.order, **dict(positions)})


class _Pages:
    """The trees of one page's passes. The first pass takes a tree of its own, so the common
    page (one pass) pays for one parse and one gather. A retry parses again, keeps that tree
    untouched, and gives each later pass a copy of it (a copy costs a fraction of preparing
    a tree); the facts are gathered once for all."""

    def __init__(self, html: str, url: str, rules: SiteRules, options: ExtractOptions) -> None:
        self._args = (html, url, rules, options)
        self._first: _Page | None = None
        self._master: _Page | None = None

    def for_pass(self) -> _Page:
        """A tree the pass may cut."""
        if self._first is None:
            self._first = _Page(*self._args)
            return self._first
        return self._prepared().duplicate()

    def last(self) -> _Page:
        """A tree for the last pass, which cuts nothing (the baseline): the kept one itself."""
        return self._prepared()

    def read(self) -> _Page:
        """A page for its facts and base URL alone, whatever its tree has been through."""
        return self._first or self._prepared()

    def _prepared(self) -> _Page:
        if self._master is None:
            facts = self._first.facts if self._first is not None else None
            self._master = _Page(*self._args, facts=facts)
        return self._master


def _article(
    page: _Page,
    content: list[etree._Element],
    stats: dict[etree._Element, density.Stats] | None,
    confidence: float,
    method: Method,
    rules: SiteRules,
    options: ExtractOptions = DEFAULT,
) -> Article:
    start = _first_text(content)
    while start not in page.facts.order and (up := start.getparent()) is not None:
        start = up  # a paragraph made from <br> runs after the facts were read: its container
    head = meta.resolve(page.facts, page.url, start, options.title)
    if stats is not None:
        content = density.trim(content, stats, head.title)
    if not content:
        raise ExtractError(failure(Code.NO_ARTICLE))
    cleaned = clean(content, page.base, rules.keep_attrs, drop_heading=head.title,
                    caption_max_chars=options.caption_max_chars,
                    caption_share=options.caption_share, hard_wrap=options.hard_wrap)
    chars = len("".join(cleaned.text.split()))
    if chars == 0:
        raise ExtractError(failure(Code.NO_ARTICLE))
    if method not in (Method.RULES, Method.STRICT):
        confidence = min(confidence, options.relaxed_confidence)
    title, dropped = PRIVATE_USE.subn("", head.title)
    return Article(
        url=page.url,
        title=title.strip() if dropped else title,
        content_html=cleaned.html,
        text=cleaned.text,
        author=head.author,
        published=head.published,
        lang=article_language(cleaned.text, head.declared_langs, options.language),
        images=cleaned.images,
        confidence=round(confidence * min(1.0, chars / options.confident_chars), 3),
        method=method,
        source_version=head.source_version,
        site_name=head.site_name,
        private_use_dropped=cleaned.private_use_dropped + dropped,
    )


def _first_text(content: list[etree._Element]) -> etree._Element:
    """Where the reader's eye lands: the first element of the selection that carries text."""
    for top in content:
        for el in top.iter():
            if (el.text or "").strip():
                return el
    return content[0]


def _by_selector(root: etree._Element, css: str | None) -> list[etree._Element] | None:
    """The rules' content blocks in document order (nested matches folded into their outer one)."""
    if not css:
        return None
    matched = selector(css)(root)
    outer = [el for el in matched if not any(a in matched for a in el.iterancestors())]
    return outer or None


def _by_density(
    body: etree._Element, opts: ExtractOptions
) -> tuple[list[etree._Element], float, dict[etree._Element, density.Stats], etree._Element]:
    """The content, its confidence, the blocks' measures, and the block that won (the content
    may hold its siblings too)."""
    density.remove_chrome(body, opts)
    stats = density.measure(body)
    density.score(stats, opts)
    found = density.best_candidate(stats, opts)
    if found is None:
        raise ExtractError(failure(Code.NO_ARTICLE))
    best, best_score = found
    if stats[best].link_density > opts.list_page_link_density:
        raise ExtractError(failure(Code.NO_ARTICLE))  # a list of links, not an article
    if tag_of(best) == "body":
        content = [best]
    else:
        content = (density.repeated_posts(best, stats)
                   or density.expand(best, best_score, stats, opts))
    density.cut_comment_thread(content)
    if opts.clean_conditionally:
        density.shrink(content, stats, opts)
    rival = density.rival_score(best, stats)
    return content, _confidence(best_score, rival, stats[best].link_density, opts), stats, best


def _confidence(
    best_score: float, rival: float, link_density: float, opts: ExtractOptions
) -> float:
    """Strong prose evidence, few links and no close rival elsewhere on the page → near 1;
    a thin winner, or two blocks that both read like the article (an archive page, a page
    with a long comment) → low, so the task is flagged "needs review"."""
    strength = min(1.0, best_score / opts.strong_score) * (1 - link_density)
    return strength * (1 - opts.rival_penalty * min(1.0, rival / best_score))
