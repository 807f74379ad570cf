"""The records the one walk (``meta.gather``) fills and the votes (``title``, ``dates``,
``byline``) read.

Apart so that the votes can name them without importing the walk that makes them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

if TYPE_CHECKING:
    from pipeline.extract.meta.dates import HiddenDate


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
    dates: list[tuple[int, str, int]]  # (element index, ISO date, its cue: dates.cue_of)
    authors: list[tuple[int, str]]
    meta_date: str | None
    served_year: int | None  # the last year of the copyright line: when the page was served
    meta_author: str | None
    declared_langs: tuple[str, ...]  # <html lang>, Content-Language, og:locale, as written
    selected_title: tuple[str, etree._Element] | None
    source_version: str | None  # what the page says it documents (a docs site's version)
    site_name: str | None  # the name the site gives itself (og:site_name, application-name)
    hidden_date: HiddenDate | None = None  # held for a script to show, read when asked
    declared_url: str | None = None  # the page's own address (canonical link, og:url)
