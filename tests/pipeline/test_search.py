"""Full-text search: Chinese words of two characters and English words alike, best first."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.records.article import Article
from pipeline.store.search import MARK, SearchIndex, match_query, tokens


def _article(title: str, text: str) -> Article:
    return Article(url="https://a.example/", title=title, content_html="", text=text)


@pytest.fixture
def index(tmp_path: Path) -> SearchIndex:
    index = SearchIndex(tmp_path / "search.db")
    index.put(1, _article("一座廊桥的修缮笔记", "木拱廊桥的修缮从拆下桥屋开始。工匠们先量尺寸。"))
    index.put(2, _article("Patching a tube amplifier", "The old amplifier hummed; a new capacitor"
                          " fixed it. 电容换了以后，噪声没了。"))
    index.put(3, _article("手冲咖啡笔记", "水温九十度，咖啡粉要磨细。桥是一个比喻。"))
    return index


def test_a_two_character_chinese_word_is_found_where_it_is(index: SearchIndex) -> None:
    assert [h.task_id for h in index.search("廊桥")] == [1]
    assert [h.task_id for h in index.search("修缮")] == [1]  # inside a longer run of ideographs
    assert [h.task_id for h in index.search("咖啡 笔记")] == [3]  # every word must be there
    assert {h.task_id for h in index.search("笔记")} == {1, 3}
    assert index.search("桥屋开") and not index.search("屋桥")  # a phrase, in its order


def test_an_english_word_and_a_single_character(index: SearchIndex) -> None:
    assert [h.task_id for h in index.search("Amplifier")] == [2]  # case does not count
    assert [h.task_id for h in index.search("capacitor 电容")] == [2]
    assert {h.task_id for h in index.search("桥")} == {1, 3}  # also where it ends a run


def test_a_title_match_ranks_first_and_the_snippet_marks_the_word(index: SearchIndex) -> None:
    index.put(4, _article("另一篇", "这里也提到了一次笔记，但只在正文里。"))
    hits = index.search("笔记")
    assert [h.task_id for h in hits][-1] == 4  # in the body only: after the title matches
    assert f"{MARK[0]}笔记{MARK[1]}" in hits[-1].snippet


def test_indexing_again_replaces_and_dropping_removes(index: SearchIndex) -> None:
    index.put(1, _article("一座石桥", "石桥没有屋顶。"))
    assert not index.search("廊桥") and [h.task_id for h in index.search("石桥")] == [1]
    index.drop([1])
    assert not index.search("石桥") and len(index) == 2


def test_queries_cannot_break_the_match_syntax() -> None:
    assert match_query('a "b OR c* NEAR(') == '"a" AND "b" AND "OR" AND "c" AND "NEAR"'
    assert match_query("  ") is None
    assert tokens("廊桥的") == " 廊桥 桥的 的 "


def test_a_damaged_index_is_named_and_index_makes_it_again(tmp_path: Path) -> None:
    from pipeline.store.search import IndexProblem, SearchIndexError
    from pipeline.usecases.workspace import Workspace
    from tests.small_archive import make_small_archive

    root = make_small_archive(tmp_path / "archive")
    (root / "search.db").write_bytes(b"not a database\n" * 100)
    ws = Workspace.open(root)
    with pytest.raises(SearchIndexError) as damaged:
        ws.search("harbour")
    assert damaged.value.problem is IndexProblem.DAMAGED
    assert str(damaged.value).startswith(f"the search index {root / 'search.db'} is damaged")
    assert ws.rebuild_index() == 3  # derived: replaced, not refused
    assert [h.task_id for h in ws.search("harbour")] == [1]


def test_a_read_only_workspace_searches_without_making_an_index(tmp_path: Path) -> None:
    """No index file and none may be made: the articles are searched in memory, and the
    caller hears why; nothing is written."""
    from pipeline.usecases.workspace import Workspace
    from tests.small_archive import make_small_archive, tree_digest

    root = make_small_archive(tmp_path / "archive")
    for name in ("search.db", "search.db-wal", "search.db-shm"):
        (root / name).unlink(missing_ok=True)
    opened = Workspace.open(root)
    ws = Workspace(opened.archive, opened.store, opened.settings, read_only=True)
    before = tree_digest(root)
    heard: list[str] = []
    assert [h.task_id for h in ws.search("廊桥", note=heard.append)] == [2]
    assert heard == [f"the search index {root / 'search.db'} cannot be written here;"
                     " searched 01_clean without it"]
    assert tree_digest(root) == before


def test_a_search_leaves_out_the_trash_and_tasks_gone_from_the_list(tmp_path: Path) -> None:
    """The hits are looked up in the list one by one (not the list gone through)."""
    from pipeline.records.settings import Settings
    from pipeline.usecases.workspace import Workspace
    from tests.pipeline.book.synthetic import add_article

    ws = Workspace.open(tmp_path, Settings())
    for n in (1, 2, 3):
        task = ws.store.add(f"https://a.example/{n}")
        add_article(ws.archive, task.id, url=task.url, title=f"Bridge {n}",
                    content_html=f"<p>The covered bridge, part {n}.</p>")
    ws.save()
    assert sorted(h.task_id for h in ws.search("bridge")) == [1, 2, 3]
    ws.remove([2])
    ws.store.remove([3])
    assert [h.task_id for h in ws.search("bridge")] == [1]
    ws.restore([2])
    assert sorted(h.task_id for h in ws.search("bridge")) == [1, 2]
    ws.close()
