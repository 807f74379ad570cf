import re
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.demo_site.server import DemoSite
from pipeline.store.tasks import TaskStore
from tests.pipeline.book.index_reading import index_text
from tests.pipeline.book.validator import assert_valid
from tests.sites.faults import FaultServer
from tests.waiting import PATIENCE

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site() -> DemoSite:
    with DemoSite() as s:
        yield s


def test_add_and_status_on_demo_urls(tmp_path: Path, site: DemoSite,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    paste = tmp_path / "links.txt"
    paste.write_text(site.paste_text(), encoding="utf-8")
    archive = tmp_path / "arch"
    args = ["add", str(paste), "--cat1", "01_周末", "--cat2", "demo", "--archive", str(archive)]
    assert main(args) == 0
    out = capsys.readouterr().out
    n_articles = len(site.article_urls)
    # articles + near-duplicate + interstitial are new; the tracking variant is a duplicate
    assert out.startswith(f"added {n_articles + 2}, duplicates 1, rejected 2")
    assert "rejected: mailto:editor@example.com" in out
    for folder in ("00_raw", "01_clean", "02_assets", "03_output", "04_logs"):
        assert (archive / folder).is_dir()
    assert (archive / "rules.yaml").is_file()
    store = TaskStore(archive / "tasks.csv")
    assert {t.url for t in store.tasks()} >= set(site.article_urls)
    assert {(t.cat1, t.cat2, t.status) for t in store.tasks()} == {("01_周末", "demo", "pending")}

    # --archive before the command works the same
    assert main(["--archive", str(archive), "status"]) == 0
    assert f"pending    {n_articles + 2}" in capsys.readouterr().out


def test_add_from_stdin_via_main_py(tmp_path: Path, site: DemoSite) -> None:
    proc = subprocess.run(
        [sys.executable, str(REPO / "main.py"), "--archive", str(tmp_path), "add", "-"],
        input="\n".join(site.article_urls[:3]).encode(), capture_output=True, timeout=PATIENCE,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().startswith("added 3, duplicates 0, rejected 0")


def test_errors_are_one_line_and_non_zero(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("no links here, 没有链接\n", encoding="utf-8")
    assert main(["add", str(empty), "--archive", str(tmp_path)]) == 1
    assert main(["add", str(tmp_path / "missing.txt"), "--archive", str(tmp_path)]) == 1
    (tmp_path / "rules.yaml").write_text("default:\n  stripp: [nav]\n", encoding="utf-8")
    links = tmp_path / "links.txt"
    links.write_text("https://example.com/\n", encoding="utf-8")
    assert main(["add", str(links), "--archive", str(tmp_path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"error: no links found in {empty}"
    assert err[1].startswith(f"error: cannot read {tmp_path / 'missing.txt'}")
    assert err[2].startswith("error: ") and "line 2: default.stripp: unknown key" in err[2]
    assert len(err) == 3


def test_gbk_text_file_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    links = tmp_path / "links.txt"
    links.write_bytes("收藏：https://example.com/茶\n".encode("gbk"))
    assert main(["add", str(links), "--archive", str(tmp_path)]) == 0
    assert TaskStore(tmp_path / "tasks.csv").get(1).url == "https://example.com/%E8%8C%B6"


def test_demo_leaves_a_valid_epub_and_index(tmp_path: Path) -> None:
    """`python main.py demo`, as a person runs it: serve, add, run, bind, print the paths."""
    proc = subprocess.run(
        [sys.executable, str(REPO / "main.py"), "demo", "--archive", str(tmp_path / "a")],
        capture_output=True, timeout=5 * PATIENCE, text=True,  # serve, run, bind
    )
    assert proc.returncode == 0, proc.stderr
    lines = dict(line.split(":", 1) for line in proc.stdout.splitlines()
                 if line.startswith(("EPUB:", "Index:")))
    epub, index = Path(lines["EPUB"].strip()), Path(lines["Index"].strip())
    assert epub.parent == index.parent == tmp_path / "a" / "03_output"
    assert_valid(epub)
    assert "一座廊桥的修缮笔记" in index_text(index)  # on its category's page
    assert "failed 1 of 14 tasks" in proc.stdout  # the anti-bot page, and only it
    store = TaskStore(tmp_path / "a" / "tasks.csv")
    # the repost with one sentence changed is a near duplicate, left out until judged
    assert "left out 1 near duplicate (" in proc.stdout
    assert sorted(t.status for t in store.tasks() if t.status != "done") == [
        "failed", "localized"]


def test_settings_and_a_cookies_file_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = str(tmp_path / "a")
    cookies = tmp_path / "cookies.txt"
    cookies.write_text("# Netscape HTTP Cookie File\n"
                       "127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tabc123\n"
                       "a line no exporter writes\n", encoding="utf-8")
    with FaultServer() as server:
        links = tmp_path / "links.txt"
        links.write_text(f"{server.url('/headers')}\n{server.url('/status?code=500&fail=9')}\n",
                         encoding="utf-8")
        assert main(["add", str(links), "--archive", archive]) == 0
        assert main(["run", "--cookies", str(cookies), "--archive", archive,
                     "--set", "retries=0", "--set", "host_delay_ms=0"]) == 3  # one failed
        sent = [h.headers for h in server.hits if h.path == "/headers"]
        assert sent and sent[0].get("Cookie") == "session=abc123"
        assert server.count("/status?code=500&fail=9") == 1  # retries=0: one attempt, no retry
    out = capsys.readouterr().out
    assert "failed 1 of 2 tasks" in out
    log = (Path(archive) / "04_logs" / "fetch.log").read_text(encoding="utf-8")
    assert f"{cookies}, line 3: " in log and "that cookie is left out" in log  # said, not lost
    assert main(["--set", "read_timeout=soon", "status", "--archive", archive]) == 1
    assert main(["run", "--set", "per_host_connections=0", "--archive", archive]) == 1
    assert main(["run", "--cookies", str(tmp_path / "none.txt"), "--archive", archive]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == ["error: --set read_timeout: 'soon' is not a number",
                   "error: setting per_host_connections must be above 0, not 0",
                   f"error: no such cookies file: {tmp_path / 'none.txt'}"]


def test_run_exits_3_when_tasks_failed_and_0_when_none(tmp_path: Path) -> None:
    from tests.sites.faults import FaultServer

    with FaultServer() as server:
        links = tmp_path / "links.txt"
        links.write_text(server.url("/status?code=404&fail=9") + "\n", encoding="utf-8")
        archive = ["--archive", str(tmp_path / "a"), "--set", "host_delay_ms=0"]
        assert main(["add", str(links), *archive]) == 0
        assert main(["run", *archive]) == 3  # finished, with a failed task
        assert main(["run", *archive]) == 0  # nothing left to do, nothing failed in this run


def _fetched_site(tmp_path: Path) -> tuple[str, Path]:
    """An archive of three local pages, run to the end."""
    from tests.pipeline.test_runner import page_url
    from tests.sites.faults import FaultServer

    root = tmp_path / "a"
    with FaultServer() as server:
        links = tmp_path / "links.txt"
        links.write_text("\n".join(page_url(server, n) for n in range(3)), encoding="utf-8")
        assert main(["add", str(links), "--archive", str(root)]) == 0
        assert main(["run", "--archive", str(root), "--set", "host_delay_ms=0"]) == 0
    return str(root), root


def test_rules_check_and_test_write_nothing(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    archive, root = _fetched_site(tmp_path)
    capsys.readouterr()
    assert main(["rules", "check", "--archive", archive]) == 0
    assert "valid" in capsys.readouterr().out
    state = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert main(["rules", "test", "--domain", "127.0.0.1", "--content", "div.none",
                 "--archive", archive]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 stored pages of 127.0.0.1: 0 would lose their article")
    assert main(["rules", "test", "--domain", "127.0.0.1", "--content", "p[[",
                 "--archive", archive]) == 1
    assert "127.0.0.1.content_selector: rules selector 'p[['" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == state
    (root / "rules.yaml").write_text("127.0.0.1:\n  strip: ['div[[x']\n", encoding="utf-8")
    assert main(["rules", "check", "--archive", archive]) == 1
    assert main(["clean", "--domain", "127.0.0.1", "--archive", archive]) == 1
    err = capsys.readouterr().err
    assert "line 2: 127.0.0.1.strip: rules selector 'div[[x' is not valid CSS" in err
    assert (root / "tasks.csv").read_bytes() == state[root / "tasks.csv"]


def test_rules_that_fail_keep_every_article_and_undo_restores_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pipeline.usecases.workspace import Workspace

    archive, root = _fetched_site(tmp_path)
    original = (root / "rules.yaml").read_bytes()
    ws = Workspace.open(root)
    ws.save_rules(original.decode("utf-8") + "\n127.0.0.1:\n  min_chars: 100000\n")
    ws.close()
    assert main(["clean", "--domain", "127.0.0.1", "--archive", archive]) == 0
    assert main(["build", "--archive", archive]) == 0
    assert "3 articles bound" in capsys.readouterr().out  # the old articles, all of them
    assert main(["rules", "undo", "--archive", archive]) == 0
    out = capsys.readouterr().out
    assert "sections changed: 127.0.0.1" in out and "cleaned 3, failed 0 of 3" in out
    assert (root / "rules.yaml").read_bytes() == original  # byte for byte
    assert main(["rules", "undo", "--archive", archive]) == 1  # nothing further back


def test_search_finds_what_a_run_cleaned_and_index_makes_it_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive, root = _fetched_site(tmp_path)  # pages "第N篇：一段足够长的正文，写着它自己的编号 N…"
    capsys.readouterr()
    assert main(["search", "编号", "--archive", archive]) == 0
    out = capsys.readouterr().out
    assert sum(line.startswith("#") for line in out.splitlines()) == 3 and "[编号]" in out
    assert main(["search", "第1篇", "--limit", "5", "--archive", archive]) == 0
    assert capsys.readouterr().out.startswith("#2 ")  # task 2 holds page 1
    (root / "search.db").unlink()  # derived: gone, it is made again from 01_clean
    assert main(["search", "正文", "--archive", archive]) == 0
    assert sum(line.startswith("#") for line in capsys.readouterr().out.splitlines()) == 3
    assert main(["index", "--archive", archive]) == 0
    assert capsys.readouterr().out.startswith("search index: 3 articles in ")


def test_books_says_when_a_book_is_older_than_its_articles(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive, root = _fetched_site(tmp_path)
    assert main(["build", "--archive", archive]) == 0
    capsys.readouterr()
    assert main(["books", "--archive", archive]) == 0
    out = capsys.readouterr().out
    # the build time to the second, as a person reads it
    assert re.fullmatch(r"a\.epub  3 articles, built \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00"
                        r"  up to date\n", out)
    assert main(["edit", "--id", "1", "--title", "另一个标题", "--archive", archive]) == 0
    assert capsys.readouterr().out == "changed title of 1 task\n"
    assert main(["books", "--archive", archive]) == 0
    assert capsys.readouterr().out.strip().endswith("OUT OF DATE: 1 retitled since")
    assert main(["clean", "--id", "2", "--archive", archive]) == 0
    assert main(["remove", "--id", "3", "--archive", archive]) == 0
    capsys.readouterr()
    assert main(["books", "--archive", archive]) == 0
    assert "OUT OF DATE: 1 gone, 1 cleaned again, 1 retitled since" in capsys.readouterr().out
    assert main(["build", "--archive", archive, "--id", "1"]) == 0
    assert "\n1 article bound\n" in capsys.readouterr().out


def test_extract_over_a_folder_pays_for_no_collector_passes(tmp_path: Path) -> None:
    """`extract` over a folder is timed as a whole process against trafilatura's: its pages'
    objects (freed as each page ends) never make the cycle collector walk what is alive, a
    long page's tens of thousands of elements included."""
    pages = tmp_path / "pages"
    pages.mkdir()
    para = "<p>A sentence of the story, with a <a href='/x'>link</a> and a comma, here.</p>"
    for n in range(12):
        pages.joinpath(f"{n}.html").write_text(
            f"<html><head><title>Story {n}</title></head><body><nav><a href='/'>Home</a></nav>"
            f"<article><h1>Story {n}</h1>{para * (150 if n else 12_000)}</article></body></html>")
    code = f"""if True:
        import gc, sys
        import pipeline.extract.batch as batch
        from pipeline.cli.main import main
        passes, first_page = [], batch.extract_page
        def counting(*args):  # counts from the first page on, not during the imports
            if not gc.callbacks:
                gc.callbacks.append(lambda phase, info: passes.append(phase))
            return first_page(*args)
        batch.extract_page = counting
        main(['extract', '--dir', {str(pages)!r}, '--jsonl', {str(tmp_path / 'o')!r}],
             own_process=True)  # as the launcher and the installed command run it
        sys.exit(f"collector passes: {{len(passes)}}" if passes else 0)
    """
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=PATIENCE, cwd=Path(__file__).parents[2])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len((tmp_path / "o").read_text().splitlines()) == 12


def test_a_command_run_in_a_callers_process_leaves_its_collector_as_it_was(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only a command's own process freezes what opening the archive made out of the
    garbage collector's walks (``run_command``); a caller's (a test session) keeps it whole."""
    import gc

    store = TaskStore(tmp_path / "tasks.csv")
    store.add("https://a.example/1")
    store.save()
    frozen = gc.get_freeze_count()
    assert main(["status", "--archive", str(tmp_path)]) == 0
    assert "1 task in" in capsys.readouterr().out
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_extract_in_a_callers_process_leaves_its_collector_as_it_was(tmp_path: Path) -> None:
    """The one rule for every command: only its own process has the collector tuned."""
    import gc

    pages = tmp_path / "pages"
    pages.mkdir()
    pages.joinpath("1.html").write_text("<html><body><article><h1>Story</h1>"
                                        + "<p>A sentence of the story, here.</p>" * 40
                                        + "</article></body></html>")
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        assert main(["extract", "--dir", str(pages), "--jsonl", str(tmp_path / "o")]) == 0
        assert gc.get_threshold() == threshold and gc.get_freeze_count() == frozen
    finally:
        gc.set_threshold(*threshold)
