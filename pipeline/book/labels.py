"""The few words a book prints itself, in the book's language (Chinese or English).

The punctuation that joins a label to what follows is a word of the language too: Chinese
writes the full-width colon and comma (``原文链接：``, ``13 篇文章，…``) with no space after, and
lists names with the enumeration comma (``、``); English writes ``": "`` and ``", "``. So the
templates join with ``labels.colon``, ``labels.comma`` and ``labels.list``, never with
punctuation of their own. ``labels.lang`` is the labels' own language tag. A chapter's header
speaks its article's language when the labels are written in it (an English article in a
Chinese book says "Published: ", issue 29); in any other language it keeps the book's words,
marked as the book's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Protocol

from pipeline.text.language import primary_subtag

_CJK_LANGUAGES = frozenset(("zh", "ja", "ko"))

LABELS: dict[str, dict[str, str]] = {
    "zh": {
        "index": "文章索引", "uncategorized": "未分类", "contents": "目录", "cover": "封面",
        "title": "标题", "source": "来源", "published": "发布", "fetched": "抓取",
        "chars": "字数", "articles": "篇文章", "volume": "第 {k}/{n} 卷",
        "original": "原文链接", "images": "图片", "books": "电子书",
        "guide": "导览", "updated": "更新于",
        "colon": "：", "comma": "，", "list": "、", "unit_chars": "字", "unit_words": "词",
        "lang": "zh",
    },
    "en": {
        "index": "Index of articles", "uncategorized": "Uncategorized", "contents": "Contents",
        "cover": "Cover", "title": "Title", "source": "Source", "published": "Published",
        "fetched": "Fetched", "chars": "Length", "articles": "articles",
        "volume": "Volume {k} of {n}", "original": "Original",
        "images": "Images", "books": "Books", "guide": "Guide",
        "updated": "Updated on",
        "colon": ": ", "comma": ", ", "list": ", ", "unit_chars": "characters",
        "unit_words": "words", "lang": "en",
    },
}


class Voter(Protocol):
    """An article as the vote for a book's language reads it (an ``Entry``, an index row)."""

    @property
    def lang(self) -> str | None: ...


def book_language(entries: Iterable[Voter], chosen: str | None = None) -> str:
    """``chosen`` (the ``book_language`` setting) when given; else the language most
    articles give, counted by primary subtag (``zh``, ``zh-CN`` and ``zh-Hans`` are one
    vote each for Chinese) and told as the commonest full tag of the winner; a tie goes to a
    CJK language, whose readers the book's labels would otherwise fail, then to the first
    article's. Every article has its own language (``collect.entry_of``) unless it has no
    letters at all; a book of only such articles is English."""
    # each full tag counted first, in the order first met
    return language_of(Counter(e.lang for e in entries if e.lang), chosen)


def language_of(tags: Mapping[str, int], chosen: str | None = None) -> str:
    """``book_language`` from the votes counted already: each full tag's count, in the
    order first met (index.html keeps each category's and adds them up)."""
    if chosen:
        return chosen
    if not tags:
        return "en"
    votes: Counter[str] = Counter()
    for tag, n in tags.items():
        votes[primary_subtag(tag)] += n
    best = max(votes.values())
    tied = [p for p, n in votes.items() if n == best]
    winner = next((p for p in tied if p in _CJK_LANGUAGES), tied[0])
    return max((t for t in tags if primary_subtag(t) == winner), key=tags.__getitem__)


def labels_for(lang: str | None) -> dict[str, str]:
    """The labels of ``lang``: Chinese for any ``zh`` tag, English for every other language
    (the two the book's own words are written in)."""
    return LABELS["zh" if (lang or "").lower().startswith("zh") else "en"]


def chapter_labels(lang: str | None, book: dict[str, str]) -> dict[str, str]:
    """The labels of a chapter in ``lang``: its own language's when they are written in it,
    else the book's (``book``)."""
    primary = (lang or "").lower().split("-", 1)[0]
    return LABELS[primary] if primary in LABELS else book
