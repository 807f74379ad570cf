"""Duplicates through real runs: local pages, a real archive, the CLI's report and decisions."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.records.errors import KuaibuError
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.store import duplicates as duplicates_store
from pipeline.store.duplicates import Decided, DecisionsError, read_decisions
from pipeline.usecases.workspace import Workspace
from tests.sites.articles import ArticleSite, article

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0)

BRIDGE = [
    "去年秋天，我在山里的一个村子住了三个月，跟着一位七十岁的老木匠修一座廊桥。"
    "桥不大，一孔跨过溪水，桥面上盖着瓦顶的长廊，两边是可以坐人的木凳。",
    "村里人赶集、放学、躲雨都从这里过，谁也说不清它建于哪一年。老木匠说，他小时候桥就在，"
    "他爷爷小时候桥也在。修桥的第一件事是认木头：哪根梁还撑得住，哪根已经被虫蛀空了。",
    "老木匠用指节敲，听声音；我用手机拍照，回去再对着照片一根根编号。换下来的旧梁没有扔，"
    "劈开做了凳腿和窗框，村里人说这是让老桥换个地方接着住。",
    "最难的是屋顶。瓦要一片片揭下来，洗干净，能用的再盖回去。碎了的要去邻村的老窑找同样的"
    "青瓦，颜色差一点都不行，老木匠说远看会像补丁。我们花了两个星期才凑齐。",
    "完工那天下了小雨，村里的孩子在长廊里跑来跑去，老人们坐在木凳上抽烟。老木匠什么也没说，"
    "只是用手摸了摸新换的那根梁，像摸一头老牛的背。",
]
# What a repost says differently: the year at the foot of its text. (A footer line of its
# own, "本文原载于…", is cut by the extractor as the source line it is, and the two copies come
# out the same: exact duplicates.)
FOOTER = "这座桥的修缮记录写于{}年冬天。"


def with_footer(year: int) -> list[str]:
    return BRIDGE[:-1] + [BRIDGE[-1] + FOOTER.format(year)]


TEA = [
    "The tea harvest in the hills starts before dawn, when the leaves are still cold and wet. "
    "Pickers take only the bud and the two leaves below it, and a good picker fills a basket "
    "by noon.",
    "In the afternoon the leaves are spread on bamboo trays to wither. The farmer turns them by "
    "hand every hour, smelling them to judge when they are ready for the wok.",
    "Firing is the hardest step. The wok is hot enough that a drop of water dances on it, and "
    "the leaves are pressed against the iron with bare palms until they turn dark and fragrant.",
    "A family that has fired tea for four generations can tell by the sound of the leaves when "
    "to stop. Newcomers burn a batch or two before they learn to listen.",
]


def tea(variant: str) -> list[str]:
    """The tea article with a few words of its own, so two copies are near, not exact."""
    return TEA[:-1] + [f"{TEA[-1]} Noted for {variant}."]


def run(ws: Workspace) -> None:
    ws.run()
    ws.store.merge_file()


def workspace(tmp_path: Path) -> Workspace:
    return Workspace.open(tmp_path / "archive", FAST)


def test_identical_text_under_two_urls_is_a_duplicate_of_the_lower_id(tmp_path: Path) -> None:
    """Three runs in which the lower id finishes last: the original is still the lower id."""
    with ArticleSite() as site:
        for round_ in range(3):
            ws = Workspace.open(tmp_path / f"archive{round_}", FAST)
            first = site.put(f"/{round_}/a.html", article("廊桥修缮笔记", BRIDGE))
            second = site.put(f"/{round_}/b.html", article("廊桥修缮笔记（转载）", BRIDGE))
            site.delay[f"/{round_}/a.html"] = 0.4 + 0.2 * round_  # #1 finishes after #2
            ws.add_links(f"{first}\n{second}")
            run(ws)
            one, two = ws.task(1), ws.task(2)
            assert (one.status, one.duplicate_of) == (Status.LOCALIZED, None)
            assert (two.status, two.duplicate_of) == (Status.DUPLICATE, 1)
            assert one.content_hash == two.content_hash


def near_pair_archive(tmp_path: Path, site: ArticleSite) -> Workspace:
    ws = workspace(tmp_path)
    original = site.put("/news/bridge.html",
                        article("廊桥修缮笔记", with_footer(2023)))
    repost = site.put("/reprint/bridge.html",
                      article("廊桥修缮笔记", with_footer(2024)))
    other = site.put("/food/tea.html", article("Firing tea", TEA, lang="en"))
    ws.add_links("\n".join((original, repost, other)))
    run(ws)
    return ws


def test_footer_year_makes_a_near_duplicate_listed_with_both_urls(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ArticleSite() as site:
        ws = near_pair_archive(tmp_path, site)
        assert ws.task(1).content_hash != ws.task(2).content_hash
        archive = str(ws.archive.root)
        assert main(["dupes", "--archive", archive]) == 0
    out = capsys.readouterr().out
    assert "exact duplicates 0, near duplicates 1 (0 decided, 1 to judge" in out
    assert "#1 ~ #2" in out and "undecided" in out
    with open(ws.archive.logs_dir / "near_duplicates.csv", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 1
    row = rows[0]
    assert (row["first_id"], row["second_id"], row["decision"]) == ("1", "2", "")
    assert row["first_url"].endswith("/news/bridge.html")
    assert row["second_url"].endswith("/reprint/bridge.html")
    assert 0 < int(row["distance"]) <= 5
    html = (ws.archive.logs_dir / "near_duplicates.html").read_text(encoding="utf-8")
    assert "<del>2023</del><ins>2024</ins>" in html
    assert "/news/bridge.html" in html and "/reprint/bridge.html" in html


def test_the_report_diffs_some_pairs_and_any_pair_on_demand(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing the pairs never waits on diffing them all: past the first REPORT_DIFFS the page
    says how to see a pair's differences, and ``dupes --diff`` shows them."""
    monkeypatch.setattr(duplicates_store, "REPORT_DIFFS", 0)
    with ArticleSite() as site:
        ws = near_pair_archive(tmp_path, site)
        archive = str(ws.archive.root)
        assert main(["dupes", "--archive", archive]) == 0
    html = (ws.archive.logs_dir / "near_duplicates.html").read_text(encoding="utf-8")
    assert "<del>" not in html and "dupes --diff 1 2" in html
    capsys.readouterr()
    assert main(["dupes", "--archive", archive, "--diff", "1", "2"]) == 0
    out = capsys.readouterr().out
    assert "#1 → #2 differ in 1 place:" in out and "[-2023-]{+2024+}" in out
    assert main(["dupes", "--archive", archive, "--diff", "1", "9"]) != 0
    assert "no task #9" in capsys.readouterr().err


def test_decisions_are_stored_and_honoured_by_runs_and_builds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ArticleSite() as site:
        ws = near_pair_archive(tmp_path, site)
        archive = str(ws.archive.root)
        # undecided, the later of the pair is left out of the book, and the summary says so
        assert main(["build", "--archive", archive]) == 0
        out = capsys.readouterr().out
        assert "2 articles bound" in out and "left out 1 near duplicate (" in out
        assert "#2 nearly repeats #1" in out
        assert main(["dupes", "--archive", archive, "--duplicate", "2", "--of", "1"]) == 0
        assert "#2 is a duplicate of #1" in capsys.readouterr().out
        decided = read_decisions(ws.archive.decisions_path)
        assert [(d.duplicate, d.original, d.decision.value) for d in decided.values()] == [
            (2, 1, "duplicate")]
        ws = workspace(tmp_path)
        assert (ws.task(2).status, ws.task(2).duplicate_of) == (Status.DUPLICATE, 1)
        run(ws)  # a later run leaves the person's decision alone
        assert ws.task(2).status == Status.DUPLICATE
        assert set(ws.build().task_ids) == {1, 3}
        [pair] = ws.near_duplicates()  # still listed, with its decision, to be changed
        assert pair.decided is not None and pair.decided.duplicate == 2
        assert main(["dupes", "--archive", archive, "--keep-both", "1", "2"]) == 0
        ws = workspace(tmp_path)
        assert ws.task(2).status in (Status.LOCALIZED, Status.DONE)
        result = ws.build()
        assert set(result.task_ids) == {1, 2, 3}
        with zipfile.ZipFile(result.epubs[0]) as book:
            chapters = [n for n in book.namelist() if n.startswith("EPUB/text/")]
            texts = "".join(book.read(n).decode("utf-8") for n in chapters)
        assert texts.count("写于2023年") == 1 and texts.count("写于2024年") == 1
        assert main(["dupes", "--archive", archive, "--undecide", "1", "2"]) == 0
        assert read_decisions(ws.archive.decisions_path) == {}


def test_a_decision_put_back_leaves_both_files_as_they_were(tmp_path: Path) -> None:
    """How a face undoes a decision: ``decision`` read before it, ``put_decision`` after;
    duplicates.csv's decisions (their times too) and the pair's tasks as they were, each step
    redone too."""
    with ArticleSite() as site:
        ws = near_pair_archive(tmp_path, site)

    def state() -> tuple[list[Decided], list[tuple[Status, int | None]]]:
        ws.store.merge_file()
        return (list(read_decisions(ws.archive.decisions_path).values()),
                [(ws.task(i).status, ws.task(i).duplicate_of) for i in (1, 2)])

    assert ws.decision(1, 2) is None
    undecided = state()
    ws.mark_duplicate(2, 1)
    marked, decided = state(), ws.decision(2, 1)
    assert decided is not None and marked[1] == [(Status.LOCALIZED, None), (Status.DUPLICATE, 1)]
    ws.put_decision(1, 2, None)
    assert state() == undecided
    ws.put_decision(1, 2, decided)
    assert state() == marked
    ws.keep_both(1, 2)
    kept = state()
    ws.put_decision(2, 1, decided)
    assert state() == marked
    ws.mark_duplicate(1, 2)  # the other way round: #2 is bound again, #1 set aside
    assert state()[1] == [(Status.DUPLICATE, 2), (Status.LOCALIZED, None)]
    ws.put_decision(1, 2, decided)
    assert state() == marked
    with pytest.raises(KuaibuError, match="not one on #1 and #3"):
        ws.put_decision(1, 3, decided)
    assert kept[1] == undecided[1]


EDITIONS = [
    ("/docs/v1/install.html", "/docs/v2/install.html"),
    ("/manual/1.2/install.html", "/manual/1.3/install.html"),
    ("/guide/en/install.html", "/guide/zh/install.html"),
    ("/page.html?version=1", "/page.html?version=2"),
    ("/plain/a.html", "/plain/b.html"),  # the control: no marker, so proposed
]


@pytest.mark.parametrize("paths", EDITIONS, ids=lambda p: p[0])
def test_editions_are_never_proposed(tmp_path: Path, paths: tuple[str, str]) -> None:
    """The same page for two versions of a product or two languages is two editions."""
    with ArticleSite() as site:
        ws = workspace(tmp_path)
        links = [site.put(path, article("Installing", tea(path), lang="en")) for path in paths]
        ws.add_links("\n".join(links))
        run(ws)
    assert all(t.status == Status.LOCALIZED for t in ws.tasks())
    found = [(p.first.url, p.second.url) for p in ws.near_duplicates()]
    assert found == ([tuple(links)] if paths[0].startswith("/plain/") else [])


def test_pages_stating_different_versions_are_never_proposed(tmp_path: Path) -> None:
    with ArticleSite() as site:
        ws = workspace(tmp_path)
        links = []
        for n, version in enumerate(("3.11", "3.12", "3.12")):
            head = f'<meta name="docsearch:version" content="{version}">'
            links.append(site.put(f"/stated/{n}.html",
                                  article("Installing", tea(str(n)), lang="en", head=head)))
        ws.add_links("\n".join(links))
        run(ws)
    assert ws.article(1) is not None and ws.article(1).source_version == "3.11"
    assert [(p.first.id, p.second.id) for p in ws.near_duplicates()] == [(2, 3)]


def test_a_broken_decisions_file_is_reported_and_left_as_it_is(tmp_path: Path) -> None:
    with ArticleSite() as site:
        ws = near_pair_archive(tmp_path, site)
    ws.archive.decisions_path.write_text("duplicate,original,decision\n2,one,duplicate\n",
                                         encoding="utf-8")
    before = ws.archive.decisions_path.read_bytes()
    with pytest.raises(DecisionsError, match="line 2"):
        ws.keep_both(1, 2)
    assert main(["dupes", "--archive", str(ws.archive.root)]) == 1
    assert ws.archive.decisions_path.read_bytes() == before


def test_articles_cleaned_before_fingerprints_get_theirs_and_their_pair_is_found(
        tmp_path: Path) -> None:
    """A list whose tasks lack fingerprints (cleaned before there were any): the search
    makes them and finds the pair with them, and the list keeps them."""
    with ArticleSite() as site:
        ws = near_pair_archive(tmp_path, site)
    fingerprints = {i: ws.task(i).fingerprint for i in (1, 2)}
    with ws.store.transaction() as store:
        for i in (1, 2):
            store.update(i, fingerprint="")
    assert ws.left_out({1}) == {2: 1}
    assert {i: ws.task(i).fingerprint for i in (1, 2)} == fingerprints
    assert all(fingerprints.values())
