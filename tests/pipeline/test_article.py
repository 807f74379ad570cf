"""The Article record's extraction method is an enum whose values are the strings the clean
records have always held: old files read, new files write the same words."""

from __future__ import annotations

import json

from pipeline.records.article import Article, Method


def test_the_method_reads_and_writes_the_old_strings() -> None:
    old = json.dumps({"url": "https://a.example/p", "title": "T", "content_html": "<p>x</p>",
                      "text": "x", "method": "unlikely candidates kept"})
    article = Article.from_json(old)
    assert article.method is Method.UNLIKELY_KEPT
    assert json.loads(article.to_json())["method"] == "unlikely candidates kept"
    assert f"{article.method}" == "unlikely candidates kept"  # as the report prints it


def test_a_method_no_extraction_writes_reads_as_the_default() -> None:
    for value in ("hand edited", None, 3):
        record = json.dumps({"url": "u", "title": "", "content_html": "", "text": "",
                             "method": value})
        assert Article.from_json(record).method is Method.STRICT
