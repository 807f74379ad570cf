from pathlib import Path

from pipeline.intake.links import add_links
from pipeline.rules.model import parse_rules
from pipeline.store.tasks import TaskStore
from pipeline.web.urls import MAX_URL_CHARS

MIXED = """\
Reading list 读书清单
https://example.com/a?utm_source=wx&utm_medium=x
重复一次：https://EXAMPLE.com:443/a#comments ，再来一个 [文章](https://example.com/b?spm=1)
<DT><A HREF="https://example.org/bookmarked">bookmark</A>
javascript:alert(1) file:///etc/passwd ftp://example.com/x mailto:a@example.com
https://example.com/c?src=feed&id=1
"""


def test_mixed_paste_reports_added_duplicates_rejected(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "tasks.csv")
    rules = parse_rules("example.com:\n  tracking_params: [src]\n")
    report = add_links(store, MIXED, cat1="01_读书", cat2="2026", rules=rules)
    assert [t.url for t in report.added] == [
        "https://example.org/bookmarked",  # an <a href> pasted along: HTML links come first
        "https://example.com/a",
        "https://example.com/b",
        "https://example.com/c?id=1",
    ]
    assert report.duplicates == [("https://EXAMPLE.com:443/a#comments", 2)]
    assert [reason.text.split(",")[0] for _, reason in report.rejected] == [
        "only http and https links are archived"] * 4
    assert {t.cat1 for t in store.tasks()} == {"01_读书"}
    assert report.summary() == "added 4, duplicates 1, rejected 4"
    # pasting again adds nothing and names the tasks that already hold the links
    again = add_links(store, MIXED, rules=rules)
    assert (len(again.added), len(again.duplicates)) == (0, 5)


def test_bookmarks_export_is_read_as_html(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "tasks.csv")
    export = ('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p><DT><A HREF="https://example.org/x">X</A>'
              '<DT><A HREF="https://example.org/y?fbclid=1">Y</A></DL>')
    report = add_links(store, export)
    assert [t.url for t in report.added] == ["https://example.org/x", "https://example.org/y"]
    assert report.added[1].original_url == "https://example.org/y?fbclid=1"


def test_links_over_8_kb_are_rejected_with_the_reason(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "tasks.csv")
    long_link = "https://example.com/?q=" + "a" * (9 * 1024 - 23)  # 9 KB as pasted
    encoded = "https://example.com/" + "茶" * 1_000  # 1,020 pasted, 9,020 once percent-encoded
    at_limit = "https://example.com/" + "b" * (MAX_URL_CHARS - 20)
    report = add_links(store, f"{long_link}\n{encoded}\n{at_limit}\nhttps://example.com/ok\n")
    assert [(link, reason.text) for link, reason in report.rejected] == [
        (long_link, f"link is {9 * 1024:,} characters long; the longest taken is 8,192"),
        (encoded, "link is 9,020 characters long once percent-encoded;"
                  " the longest taken is 8,192"),
    ]
    assert [t.url for t in report.added] == [at_limit, "https://example.com/ok"]
    store.save()
    assert len(TaskStore(tmp_path / "tasks.csv")) == 2


def test_links_to_no_valid_host_are_rejected_intranet_names_kept(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "tasks.csv")
    paste = ("http://a..b/ http://-/ http://xn--/\n"
             "http://wiki/Start http://localhost:8080/notes http://10.0.0.7/a https://例子.中国/\n")
    report = add_links(store, paste)
    bad = ["http://a..b/", "http://-/", "http://xn--/"]
    assert [link for link, _ in report.rejected] == bad
    assert [reason.text.startswith(f"bad host name in {link!r}: ")
            for link, reason in report.rejected] == [True] * len(bad)
    assert [t.url for t in report.added] == [
        "http://wiki/Start", "http://localhost:8080/notes", "http://10.0.0.7/a",
        "https://xn--fsqu00a.xn--fiqs8s/"]


def test_keep_params_from_rules_yaml(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "tasks.csv")
    rules = parse_rules("default:\n  keep_params: [spm]\n"
                        "github.com:\n  keep_params: [ref]\n  tracking_params: [tab]\n")
    paste = ("https://github.com/o/r/blob/x/contents/a.md?ref=main&tab=readme\n"
             "https://github.com/o/r?ref=newsletter&spm=1\n"  # the site keeps ref whatever it says
             "https://example.com/a?ref=twitter&spm=2\n"
             "https://example.com/b?ref=dev&tab=1\n")
    report = add_links(store, paste, rules=rules)
    assert [t.url for t in report.added] == [
        "https://github.com/o/r/blob/x/contents/a.md?ref=main",
        "https://github.com/o/r?ref=newsletter&spm=1",  # and the default's keep_params too
        "https://example.com/a?spm=2",  # a campaign-ish ref elsewhere: dropped
        "https://example.com/b?ref=dev&tab=1",  # a branch-like ref: kept
    ]


def test_links_with_credentials_are_refused_with_the_reason(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "tasks.csv")
    report = add_links(store, "https://me:hunter2@intranet.example/wiki https://intranet.example/\n")
    assert [t.url for t in report.added] == ["https://intranet.example/"]
    [(link, reason)] = report.rejected
    assert link == "https://me:hunter2@intranet.example/wiki"
    assert reason.text == ("link to intranet.example carries a user name or password:"
                           " credentials do not belong in a task list; add the link without them")


def test_a_link_that_looks_like_one_site_is_not_archived_as_another(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "tasks.csv")
    report = add_links(store, "<a href='https://evil.example\\@good.example/'>good</a>")
    assert [t.url for t in report.added] == ["https://evil.example/@good.example/"]


def test_chinese_paste_from_weibo(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "tasks.csv")
    paste = ("详见https://example.com/a这篇文章……另见https://example.com/b——"
             "\u200bhttps://example.com/c?from=timeline\u200b 和 [https://example.com/d](https://example.com/d)")
    report = add_links(store, paste)
    assert [t.url for t in report.added] == [
        "https://example.com/a", "https://example.com/b", "https://example.com/c",
        "https://example.com/d"]
    assert report.rejected == []
