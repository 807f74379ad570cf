"""A text names a site by the same evidence when only its end is read for the site words and a
domain is looked for only where a dot and a top-level domain are (issue 27 §10)."""

from __future__ import annotations

import importlib
import itertools
import re

import pytest

# the module, not the function of its name that pipeline.extract.meta imports
titles = importlib.import_module("pipeline.extract.meta.declared_titles")

ENDS = ["的博客", "博客", "官方网站", "门户网站", "网站", "weblog", "WebLog", "blog", "BLOG", "网",
        "首页", "在线", "专栏", "社区"]
BEFORE = ["", "a", "x ", "-", "我的", "小明", "Tech", "my_", "3"]
AFTER = ["", "\n", " ", "\n\n", "x", "!"]


@pytest.mark.parametrize("pattern", [titles._SITE_WORDS, titles._SHORT_SITE_WORDS])
def test_the_site_words_are_found_in_the_end_of_a_text_as_in_all_of_it(
        pattern: re.Pattern[str]) -> None:
    found = 0
    for before, end, after in itertools.product(BEFORE, ENDS, AFTER):
        for text in (before + end + after, "A long headline about " + before + end + after):
            whole = pattern.search(text) is not None
            assert (pattern.search(text[-titles.SITE_WORDS_TAIL:]) is not None) == whole, text
            found += whole
    assert found > 100


@pytest.mark.parametrize("text", [
    "SJSUSpartans.com—Official Web Site", "CSDN.NET", "www.example.co.uk", "a.b", "Mr. Smith",
    "news.sina.com.cn 新浪", "example.commerce", "x.Info!", "3.14", "e.g. this", "中国.cn",
])
def test_a_domain_is_found_only_where_a_dot_and_a_top_level_domain_are(text: str) -> None:
    if titles._DOMAIN.search(text):
        assert titles._DOT_TLD.search(text)
