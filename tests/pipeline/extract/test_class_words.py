"""The fast class-word tests answer as the alternations they read, in any case (issue 27 §10)."""

from __future__ import annotations

import re

import pytest

from pipeline.extract import density
from pipeline.extract.class_words import words_in

ALTERNATIONS = [density._LAYOUT, density._NEVER_CONTENT, density._MAYBE, density._POSITIVE,
                density._NEGATIVE, density._COMMENT]
# Each kind of word at the start, the middle and the end of a value, beside letters that do
# or do not end its assertions, in both cases, and values outside ASCII.
VALUES = [
    "rail", "right-rail", "guardrail", "Rail2", "ads", "ad", "loads", "ad-slot", "top_ads",
    "adsense", "hid", "hidden", "unhid", "com-box", "telecom-x", "nav", "navbar", "canav",
    "hot", "hot-news", "shot", "hot2", "HOT", "rank", "prank", "ranking", "most-read",
    "mostread", "MOST-READ", "most--read", "commentary", "comments", "post-comments",
    "comment-body", "commentary-box", "pager", "pagination", "page", "foot", "footer",
    "cover-wrap", "coverwrap", "ai2html", "ai3html", "-ad-", "x-ad-y", "ad-break", "header",
    "masthead", "entry-content", "h-entry", "zhengwen", "col-md-8", "menu-item-4751", "",
    "İhot", "hıdden", "ſidebar", "Kookie", "ＮＡＶ", "評論-comment", "rаil",  # Cyrillic а
]


@pytest.mark.parametrize("words", ALTERNATIONS, ids=lambda w: w[:20])
def test_a_value_holds_a_word_exactly_when_the_alternation_finds_one(words: str) -> None:
    test = words_in(words)
    for value in VALUES + [v.upper() for v in VALUES] + [f"a {v} b" for v in VALUES]:
        assert test(value) == (re.search(words, value, re.I) is not None), value


def test_words_of_every_form_are_read() -> None:
    test = words_in(r"foot|footer|\brail|most-?read|(?<![a-z])hot(?![a-z])|comment(?!ary)")
    assert [v for v in ("footnote", "right-rail", "trail", "mostread", "hot-news", "shot",
                        "commentary", "comment") if test(v)] == [
        "footnote", "right-rail", "mostread", "hot-news", "comment"]
