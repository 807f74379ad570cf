from pathlib import Path

from pipeline.book.collect import (
    Entry,
    category_key,
    display_category,
    group,
    load_entry,
    ordered,
    select,
)
from pipeline.records.task import Task
from pipeline.store.archive import Archive


def entry(task_id: int, title: str, cat1: str = "", cat2: str = "",
          published: str | None = None) -> Entry:
    return Entry(task_id, f"https://x.example/{task_id}", title, cat1, cat2, published, None,
                 None, None, 10)


def test_numbered_categories_sort_by_number_and_default_goes_last() -> None:
    names = ["", "10_十", "9_nine", "Beta", "01_one", "alpha"]
    assert sorted(names, key=category_key) == ["01_one", "9_nine", "10_十", "alpha", "Beta", ""]
    assert display_category("03_性能优化") == "性能优化"
    assert display_category("2024 notes") == "notes"
    assert display_category("07_") == "07_"


def test_published_order_puts_undated_last_and_respects_zones() -> None:
    entries = [
        entry(1, "b", published=None),
        entry(2, "a", published="2021-01-01T09:00:00+08:00"),  # 01:00 UTC
        entry(3, "c", published="2021-01-01T02:00:00+00:00"),
        entry(4, "d", published="garbage"),
        entry(5, "e", published="2020-12-31"),
    ]
    assert [e.task_id for e in ordered(entries, "published")] == [5, 2, 3, 1, 4]
    assert [e.task_id for e in ordered(entries, "title")] == [2, 1, 3, 4, 5]


def test_tree_has_direct_articles_before_subcategories() -> None:
    entries = ordered([
        entry(1, "x", "01_A", "02_sub"), entry(2, "y", "01_A"), entry(3, "z", "01_A", "01_sub"),
        entry(4, "w"), entry(5, "v", "02_B"),
    ], "title")
    tree = group(entries)
    assert [g.name for g in tree] == ["01_A", "02_B", ""]
    assert [e.task_id for e in tree[0].direct] == [2]
    assert [(c.display, [e.task_id for e in c.entries]) for c in tree[0].children] == \
        [("sub", [3]), ("sub", [1])]
    assert [e.task_id for e in tree[0].entries] == [2, 3, 1]


def test_select_takes_bindable_statuses_and_narrows() -> None:
    tasks = [Task(i, f"https://x.example/{i}", status=s, cat1=c) for i, (s, c) in enumerate([
        ("cleaned", "01_Demo"), ("localized", "01_Demo"), ("done", "Other"), ("failed", "01_Demo"),
        ("duplicate", "01_Demo"), ("pending", "01_Demo"), ("fetched", "01_Demo"),
    ], 1)]
    assert [t.id for t in select(tasks)] == [1, 2, 3]
    assert [t.id for t in select(tasks, cat1="Demo")] == [1, 2]
    assert [t.id for t in select(tasks, cat1="01_Demo", task_ids={2, 3, 4})] == [2]


def test_entry_title_prefers_the_users_then_the_record(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "a")
    archive.clean_meta(1).write_text(
        '{"url": "https://x.example/1", "title": " Extracted\\n  title ", "text": "一 二 三",'
        ' "content_html": "", "lang": "zh_CN", "published": "2020-01-02"}', encoding="utf-8")
    task = Task(1, "https://x.example/1", title="", extracted_title="old")
    e = load_entry(archive, task)
    assert e is not None and e.title == "Extracted title" and e.chars == 3 and e.lang == "zh-CN"
    task.title = "Mine"
    assert load_entry(archive, task).title == "Mine"  # type: ignore[union-attr]
    archive.clean_meta(2).write_text("{not json", encoding="utf-8")
    assert load_entry(archive, Task(2, "https://x.example/2")) is None
