"""What an extraction kept of a page's text and what it cut, run by run (the raw pane's marks)."""

from __future__ import annotations

from pipeline.text.textdiff import kept_and_cut


def test_runs_join_back_into_the_page_and_mark_the_article() -> None:
    page = "Home · About\nA bridge stands.\n\nIt has stood for years.\n© 2024 Span\n"
    article = "A bridge stands.\nIt has stood for years."
    runs = kept_and_cut(page, article)
    assert "".join(text for text, _ in runs) == page  # blank lines and all
    assert [(text.strip(), kept) for text, kept in runs] == [
        ("Home · About", False), ("A bridge stands.\n\nIt has stood for years.", True),
        ("© 2024 Span", False)]


def test_chinese_is_marked_character_by_character() -> None:
    runs = kept_and_cut("首页 新闻\n石拱桥为什么不倒。\n版权所有", "石拱桥为什么不倒。")
    assert [text.strip() for text, kept in runs if kept] == ["石拱桥为什么不倒。"]
    assert "".join(text for text, kept in runs if not kept).split() == ["首页", "新闻", "版权所有"]


def test_nothing_to_compare() -> None:
    assert kept_and_cut("", "anything") == []
    assert kept_and_cut("  only words  ", "") == [("  only words  ", False)]
