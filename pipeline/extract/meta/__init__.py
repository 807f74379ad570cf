"""Title, publish time, author and language of a page (seed 001; issue 4 §5–6).

Read from the whole page before noise removal: the visible headline and the date line next to it
often sit in a header block that the body extractor throws away.

Two steps: ``gather`` walks the page once and records every fact with its position
(``facts.PageFacts``); once the extractor knows where the article starts, ``resolve`` chooses
the title, the date and the author nearest to it. The package is split by what is read:
``head`` (what the page declares for machines), ``headlines`` and ``declared_titles`` (the
title's candidates), ``title`` (their vote, with every weight in ``TitleOptions``), ``dates``,
``byline``, and ``text`` (the helpers they share)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from pipeline.extract.dom import text_of
from pipeline.extract.meta.byline import byline_author, choose_author, declared_author
from pipeline.extract.meta.dates import (
    HiddenDate,
    choose_date,
    copyright_years,
    cue_of,
    declared_date,
    holds_date,
    iter_dates,
    markup_holds_date,
    url_date,
)
from pipeline.extract.meta.declared_titles import PAGE_TITLES, declared_titles, title_segments
from pipeline.extract.meta.facts import PageFacts
from pipeline.extract.meta.head import (
    MARK_PROPS,
    Head,
    Marked,
    declared_langs,
    in_comments,
    meta_map,
    site_name_of,
    source_version_of,
)
from pipeline.extract.meta.headlines import (
    NOT_HEADLINE_TAGS,
    EchoTest,
    Surroundings,
    add_candidate,
    headline_kind,
    read_link,
)
from pipeline.extract.meta.text import element_text, reads_as_name, text_key, visual_len
from pipeline.extract.meta.title import DEFAULT_TITLE, TitleOptions, choose_title
from pipeline.rules.selectors import selector

_SKIP_TEXT = frozenset(("script", "style", "noscript", "title", "option", "textarea", "head"))
_MAYBE_DATE = re.compile(r"\d|作者|文|记者|^[Bb]y\s")
# A character each of its matches but "By " has: one class, tried as a regex scans a text far
# faster than the alternatives (most texts have none and are passed over on it).
_MAYBE_DATE_CHAR = re.compile(r"[\d作文记]")


@dataclass
class PageMeta:
    title: str
    published: str | None
    author: str | None
    declared_langs: tuple[str, ...]  # as the page writes them; the text decides (language)
    source_version: str | None = None
    site_name: str | None = None


def gather(root: etree._Element, title_selector: str | None = None) -> PageFacts:
    """Read titles, dates and authors with their positions (one walk over the tree).

    This walk visits every element of the page once per extraction pass, so it is kept lean:
    the head's metas, scripts and <title> come from one C-level pass (``Head``), a decision
    that depends on an element's tag, class and id only is cached across elements, and what a
    headline needs from its surroundings (the links in and around it, a nav container above
    it) is read after the walk from what the walk recorded."""
    head = Head(root)
    metas = meta_map(head.metas)
    selected = None
    if title_selector:
        for el in selector(title_selector)(root):
            if text := text_of(el):
                selected = (text, el)
                break
    declared = declared_titles(head)
    site_names = {text_key(metas.get("og:site_name", ""))}
    link_texts: Counter[str] = Counter()
    # A <title> as short as a name is the channel's name when the page shows it again in two
    # places (the masthead and the breadcrumb): a story's headline is shown once. (What JSON-LD
    # or og:title declare is the article's, however often a page about it repeats it.)
    short_titles = {text for source, text in declared
                    if source in PAGE_TITLES and reads_as_name(text)}
    shown: Counter[str] = Counter()  # how often the page shows each of those
    link_keys: dict[etree._Element, str] = {}  # every link → the key of its whole text
    # A plain element saying a declared title (or a segment of it) is a candidate too: old
    # table layouts put the headline in a <td> or <p> with no heading markup at all.
    wanted = {text_key(u) for _, text in declared for u in (text, *title_segments(text))} - {""}
    echoes = EchoTest(wanted, declared) if wanted else None
    order: dict[etree._Element, int] = {}
    found: list[tuple[int, etree._Element, str, str]] = []  # (index, element, text, kind)
    taken: set[etree._Element] = set()
    dates: list[tuple[int, str, int]] = []
    years: list[int] = []  # of the copyright lines
    authors: list[tuple[int, str]] = []
    prose: list[tuple[int, int]] = []
    marked: list[etree._Element] = []  # see Marked
    holders: list[etree._Element] = []  # see HiddenDate
    prev = ""  # the text before, for a date's cue word
    for i, el in enumerate(root.iter()):
        order[el] = i
        tag = el.tag
        if not isinstance(tag, str):  # a comment or processing instruction (as tag_of)
            continue
        if tag == "a":
            link_keys[el] = read_link(el, link_texts, site_names)
        cls, ident = el.get("class"), el.get("id")
        kind, marks, holds = _by_markup(tag, cls, ident)
        # Read here, not by a query of attribute steps: two attributes more on every element
        # cost less than that query's four walks over every node (issue 27 §10).
        if marks or el.get("itemprop") in MARK_PROPS or el.get("rel") == "author":
            marked.append(el)
        if holds_date(holds, el):
            holders.append(el)
        if kind:
            add_candidate(i, el, kind, found, taken)
        # Texts of white space only (most tails: the markup's indentation) count for nothing.
        own = el.text
        if own and tag not in _SKIP_TEXT and (text := own.strip()):
            if short_titles and text in short_titles:
                shown[text] += 1
            if echoes is not None:
                for echo in echoes.find(el, text):
                    if echo not in taken:
                        found.append((order[echo], echo, element_text(echo), "echo"))
                        taken.add(echo)
            if tag != "a":  # a date in link text dates another page (an archive, a related story)
                prev = _read_text(i, el, own, text, prev, prose, dates, years, authors)
        tail = el.tail
        if tail and (text := tail.strip()):
            prev = _read_text(i, el, tail, text, prev, prose, dates, years, authors)
    site_names.update(text_key(t) for t, n in shown.items() if n > 1)
    meta_date = declared_date(head, Marked(marked), metas)
    around = Surroundings(link_keys)
    headlines = [around.headline(index, el, text, kind) for index, el, text, kind in found]
    headlines.sort(key=lambda h: h.index)
    return PageFacts(
        order=order, declared=declared, site_names=site_names - {""}, link_texts=link_texts,
        prose=prose, headlines=headlines, dates=dates, authors=authors,
        meta_date=meta_date, served_year=max(years, default=None),
        meta_author=declared_author(head, Marked(marked), metas),
        declared_langs=declared_langs(root, metas),
        selected_title=selected, source_version=source_version_of(metas),
        site_name=site_name_of(metas),
        hidden_date=None if meta_date else HiddenDate(head.scripts, holders),
        declared_url=head.canonical or metas.get("og:url"),
    )


@lru_cache(maxsize=16384)
def _by_markup(tag: str, cls: str | None, ident: str | None) -> tuple[str, bool, bool | None]:
    """What an element's tag, class and id alone decide, once per distinct triple (a page
    repeats them on most of its elements): its headline kind (``headline_kind``), whether it
    is a date or author mark by tag or class (a <time>, a byline class: see ``Marked``), and
    whether it holds a date (``markup_holds_date``)."""
    kind = "" if tag in NOT_HEADLINE_TAGS else headline_kind(tag, cls, ident)
    marks = tag == "time" or bool(cls and "byline" in cls)
    return kind, marks, markup_holds_date(tag, cls, ident)


def _read_text(
    i: int, el: etree._Element, raw: str, text: str, prev: str,
    prose: list[tuple[int, int]], dates: list[tuple[int, str, int]], years: list[int],
    authors: list[tuple[int, str]],
) -> str:
    """Read a text or tail of element ``i`` (``text`` is ``raw`` stripped, never empty): a
    longer one is prose, a short one may be a date, copyright or byline line. Returns ``text``,
    the text before the next one."""
    if len(raw) >= 30 and (size := visual_len(text)) >= 30:
        prose.append((i, size))
    # Date and byline lines are short; long texts are body prose, whose dates don't count.
    if len(raw) > 300:
        return prev
    if (_MAYBE_DATE_CHAR.search(text) or text[:2] in ("By", "by")) and _MAYBE_DATE.search(text):
        for iso, start in iter_dates(text):
            dates.append((i, iso, cue_of(prev + " " + text[:start], text[start:])))
        years += copyright_years(text)
        if (name := byline_author(text)) and not in_comments(el):
            authors.append((i, name))
    return text


def resolve(
    facts: PageFacts, url: str, start: etree._Element | None,
    options: TitleOptions = DEFAULT_TITLE,
) -> PageMeta:
    """Choose title, date and author now that the article's first element is known."""
    at = facts.order.get(start, 0) if start is not None else 0
    title, head_index = choose_title(facts, url, at, options)
    # A page read without its URL (a saved file, the benchmark's contract) names its address.
    address = url or facts.declared_url or ""
    return PageMeta(
        title=title,
        published=(facts.meta_date or choose_date(facts, head_index, at, address)
                   or (facts.hidden_date and facts.hidden_date.value) or url_date(address)),
        author=facts.meta_author or choose_author(facts, head_index, at),
        declared_langs=facts.declared_langs, source_version=facts.source_version,
        site_name=facts.site_name,
    )
