"""Which archived articles go into a book, and in what order (issue 6, seed 003 §3.1).

Categories sort by their ``NN_`` prefix as a number (so ``10_`` comes after ``9_``), then by
name; articles with no category go last, under a default one; articles with a cat1 but no
cat2 come first in their cat1. Within a category, articles keep the task list's order (the
order a person pasted or arranged them: a book is theirs), or sort by published date (undated
ones last) or by title, as ``Settings.book_order`` (``build --order``) says.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Generic, Protocol, TypeVar

from pipeline.book.values import clean_url, xml_safe
from pipeline.book.xhtml import link_fragments
from pipeline.records.article import Article
from pipeline.records.task import HAS_ARTICLE, Task
from pipeline.store.archive import Archive
from pipeline.store.asset_map import AssetMap
from pipeline.text.language import article_language, language_tag
from pipeline.text.textdiff import reading_length
from pipeline.web.urls import host_of

_PREFIX = re.compile(r"^(\d+)[_ ]\s*")


@dataclass(frozen=True)
class Entry:
    """One article as the book sees it: the task's row plus what its clean record says."""

    task_id: int
    url: str
    title: str
    cat1: str
    cat2: str
    published: str | None
    fetched: str | None
    author: str | None
    lang: str | None
    chars: int
    revised: str | None = None  # when a refresh found the article changed (Task.revised_at)
    given_title: str = ""  # the title a person gave (Task.title): a later edit dates the book
    length: int = 0  # as readers count (pipeline.text.textdiff.reading_length): words or 字
    length_unit: str = "chars"  # "words" for a spaced script
    # (URL, fragment) of each link to a place in another page: the ids other chapters keep
    fragment_links: tuple[tuple[str, str], ...] = ()
    # ``url`` as a link a validator accepts (``values.clean_url``; None: it cannot be one)
    link: str | None = None

    def shown_length(self, labels: dict[str, str]) -> str:
        """``1,858 字`` or ``478 words``: the count with what it counts."""
        return f"{self.length:,} {labels['unit_' + self.length_unit]}"

    @property
    def domain(self) -> str:
        return host_of(self.url) if "://" in self.url else ""

    @property
    def published_day(self) -> str:
        return day_of(self.published)

    @property
    def fetched_day(self) -> str:
        return (self.fetched or "")[:10]

    @property
    def revised_day(self) -> str:
        return (self.revised or "")[:10]


class Placed(Protocol):
    """What orders and groups an article: an ``Entry``, or index.html's kept line of it."""

    @property
    def task_id(self) -> int: ...
    @property
    def cat1(self) -> str: ...
    @property
    def cat2(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def published(self) -> str | None: ...


P = TypeVar("P", bound=Placed)


def day_of(published: str | None) -> str:
    """A published date's YYYY-MM-DD, or "" when it is missing or not ISO 8601."""
    return published[:10] if published and _instant(published) else ""


def display_category(name: str) -> str:
    """A category as a reader sees it: ``03_性能优化`` → ``性能优化`` (the prefix only sorts)."""
    return _PREFIX.sub("", name).strip() or name.strip()


@lru_cache(maxsize=4096)  # a book sorts 100,000 entries by a few dozen names
def category_key(name: str) -> tuple[int, int, str]:
    """Numbered first, by number; then named; the empty (default) category last."""
    if not name:
        return (2, 0, "")
    m = _PREFIX.match(name)
    if m:
        return (0, int(m.group(1)), display_category(name).casefold())
    return (1, 0, name.casefold())


def category_place(cat1: str, cat2: str) -> tuple[object, ...]:
    """Where a pair of categories sorts in a book (index.html orders its category pages by
    it): articles with no cat2 sit directly under their cat1, before its cat2 groups."""
    sub = category_key(cat2) if cat2 else (-1, 0, "")
    return (category_key(cat1), cat1, sub, cat2)


def _instant(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def ordered(entries: Iterable[P], order: str) -> list[P]:
    """Category order, then inside each category the entries' own order (``list``: give them
    in the task list's order), date or title order (``Settings`` has already refused any
    other ``order``)."""

    places: dict[tuple[str, str], tuple[object, ...]] = {}

    def place(e: P) -> tuple[object, ...]:
        """Where its category puts it (each pair of categories worked out once)."""
        found = places.get((e.cat1, e.cat2))
        if found is None:
            found = places[(e.cat1, e.cat2)] = category_place(e.cat1, e.cat2)
        return found

    if order == "list":  # a stable sort: inside a category, the order they were given in
        return sorted(entries, key=place)
    if order == "title":
        return sorted(entries, key=lambda e: (*place(e), e.title.casefold(), e.task_id))

    def by_date(e: P) -> tuple[object, ...]:
        moment = _instant(e.published)
        when = moment.timestamp() if moment else 0.0
        return (*place(e), moment is None, when, e.title.casefold(), e.task_id)

    return sorted(entries, key=by_date)


def _clean_title(text: str) -> str:
    return " ".join(xml_safe(text).split())


@dataclass(frozen=True)
class Summary:
    """What the book's view of an article takes from its clean record: everything but the
    body (``entry_cache`` keeps these, so index.html needs no article read)."""

    url: str
    title: str  # cleaned
    published: str | None
    author: str | None
    # the article's language: the one the clean stage decided, else (a record from before
    # issue 27 may hold none, or a charset) its title and text's
    lang: str | None
    chars: int
    length: int
    length_unit: str
    fragment_links: tuple[tuple[str, str], ...]
    link: str | None  # ``url`` as a link (``values.clean_url``), made once, not per build

    @classmethod
    def from_json(cls, text: str) -> Summary:
        data = json.loads(text)
        data["fragment_links"] = tuple(tuple(link) for link in data["fragment_links"])
        return cls(**data)


def summary_of(article: Article) -> Summary:
    """An article's summary, with the links to other pages' places, which only a whole book
    resolves (most articles link to no fragment)."""
    length, unit = reading_length(article.text)
    title = _clean_title(article.title)
    return Summary(
        url=article.url, title=title, published=article.published,
        author=_clean_title(article.author or "") or None,
        lang=language_tag(article.lang) or article_language(f"{title}\n{article.text}"),
        chars=article.chars, length=length, length_unit=unit,
        fragment_links=(tuple(link_fragments(article.content_html))
                        if "#" in article.content_html else ()),
        link=clean_url(article.url) if article.url else None)


def load_entry(archive: Archive, task: Task) -> Entry | None:
    """The book's view of one task, or None when its clean record is missing or unreadable."""
    article = archive.read_article(task.id)
    return None if article is None else entry_of(task, article)


def entry_of(task: Task, article: Article) -> Entry:
    """One article as a book shows it (``entry_from`` its summary)."""
    return entry_from(task, summary_of(article))


def entry_from(task: Task, summary: Summary) -> Entry:
    """One article as a book shows it: the title a person gave wins over the extracted one;
    the language is the article's own (``Summary.lang``)."""
    title = _clean_title(task.title) or summary.title or _clean_title(task.extracted_title) \
        or task.url
    return Entry(
        task_id=task.id,
        url=summary.url or task.url,
        title=title,
        cat1=task.cat1.strip(),
        cat2=task.cat2.strip(),
        published=summary.published,
        fetched=task.fetched_at or None,
        author=summary.author,
        lang=summary.lang,
        chars=summary.chars,
        revised=task.revised_at or None,
        given_title=task.title,
        length=summary.length, length_unit=summary.length_unit,
        fragment_links=summary.fragment_links,
        link=summary.link if summary.url else clean_url(task.url),
    )


def select(tasks: Iterable[Task], *, cat1: str | None = None,
           task_ids: set[int] | None = None) -> list[Task]:
    """Bindable tasks (cleaned, localized or done), narrowed to one category or some ids.

    ``cat1`` matches the stored name or its display form (``Demo`` finds ``01_Demo``).
    """
    chosen = [t for t in tasks if t.status in HAS_ARTICLE]
    if task_ids is not None:
        chosen = [t for t in chosen if t.id in task_ids]
    if cat1 is not None:
        wanted = cat1.strip()
        chosen = [t for t in chosen
                  if t.cat1.strip() == wanted or display_category(t.cat1) == wanted]
    return chosen


def load_assets(archive: Archive, task_id: int) -> AssetMap:
    """The article's image map; an article not yet localized has none (every image missing)."""
    return archive.read_assets(task_id) or AssetMap()


@dataclass
class Cat2Group(Generic[P]):
    name: str  # as stored ("" when the articles sit directly under their cat1)
    entries: list[P]

    @property
    def display(self) -> str:
        return display_category(self.name)


@dataclass
class Cat1Group(Generic[P]):
    name: str  # "" is the default category
    direct: list[P]  # articles with no cat2, listed before the cat2 groups
    children: list[Cat2Group[P]]

    @property
    def entries(self) -> list[P]:
        return self.direct + [e for child in self.children for e in child.entries]


def group(entries: Iterable[P]) -> list[Cat1Group[P]]:
    """Ordered entries as the two-level tree the TOC and both index pages show."""
    groups: list[Cat1Group[P]] = []
    for e in entries:
        if not groups or groups[-1].name != e.cat1:
            groups.append(Cat1Group(e.cat1, [], []))
        top = groups[-1]
        if not e.cat2:
            top.direct.append(e)
        elif top.children and top.children[-1].name == e.cat2:
            top.children[-1].entries.append(e)
        else:
            top.children.append(Cat2Group(e.cat2, [e]))
    return groups
