"""Statuses and failure kinds as types: each failure is recorded with its kind in tasks.csv,
``status --failed`` groups by it, ``run --retry-failed --kind`` chooses by it, and old files
(without the column) still load with their text unchanged."""

from __future__ import annotations

import csv
import socket
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType

import pytest

from pipeline.cli.main import main
from pipeline.intake.links import add_links
from pipeline.net.fetch import fetch_page
from pipeline.net.fetcher import Fetcher
from pipeline.net.session import new_session
from pipeline.records.errors import ErrorKind, ExtractError, FetchError, NeedsJavaScript
from pipeline.records.settings import Settings
from pipeline.records.task import STATUSES, Status
from pipeline.rules.model import Rules
from pipeline.rules.selectors import selector
from pipeline.run.runner import Runner
from pipeline.store.archive import Archive
from pipeline.store.task_csv import COLUMNS
from pipeline.store.tasks import TaskStore
from tests.sites.faults import FaultServer, fault_servers

# No retries inside a run: each path is asked once per run, so the server's counts say which
# tasks a later run took up again.
ONCE = Settings().with_overrides(retries=0, read_timeout=2.0, host_delay_ms=0)
# The 500 answers once, then serves a good page: a retry of it succeeds. The last page's
# article is nothing but a <noscript> asking for JavaScript: a shell that scripts fill in.
PATHS = {
    "/status?code=404&fail=9": ErrorKind.HTTP_4XX,
    "/status?code=500&fail=1": ErrorKind.HTTP_5XX,
    "/pdf": ErrorKind.NOT_HTML,
    "/links": ErrorKind.NO_ARTICLE,
    "/ok?text=%3Cnoscript%3EJavaScript%20is%20required%3C/noscript%3E": ErrorKind.NEEDS_JS,
}


def closed_port() -> int:
    """A local port nothing listens on: connecting to it is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def csv_rows(path: Path) -> dict[str, dict[str, str]]:
    """tasks.csv as a plain csv reader sees it, by URL."""
    with open(path, encoding="utf-8-sig", newline="") as f:
        return {row["url"]: row for row in csv.DictReader(f)}


@pytest.fixture
def failed_run(tmp_path: Path) -> Iterator[tuple[Archive, FaultServer, dict[str, ErrorKind]]]:
    """An archive after one run over a site whose every page fails in its own way: 404, 500,
    a refused port, a PDF, a list page, a script-built shell, and a host whose rules selector
    is not valid CSS."""
    archive = Archive.open(tmp_path / "archive")
    # rules.yaml refuses such a selector when it is read; rules made in code still reach
    # extraction, the one way left for a task to fail with kind "rules"
    rules = Rules(domains=MappingProxyType({"127.0.0.2": {"content_selector": "p[["}}))
    with fault_servers("127.0.0.1", "127.0.0.2") as (site, ruled):
        expected = {site.url(path): kind for path, kind in PATHS.items()}
        expected[f"http://127.0.0.1:{closed_port()}/gone"] = ErrorKind.NETWORK
        expected[ruled.url("/ok")] = ErrorKind.RULES
        store = TaskStore(archive.tasks_path)
        add_links(store, "\n".join(expected))
        Runner(archive, store, ONCE, rules=rules).run()
        yield archive, site, expected


def test_each_failure_is_saved_with_its_kind(
        failed_run: tuple[Archive, FaultServer, dict[str, ErrorKind]]) -> None:
    archive, _, expected = failed_run
    rows = csv_rows(archive.tasks_path)
    assert {url: (rows[url]["status"], rows[url]["error_kind"]) for url in expected} == {
        url: ("failed", kind.value) for url, kind in expected.items()}
    header = list(next(iter(rows.values())))
    assert header.index("error_kind") == header.index("error") + 1
    with open(archive.logs_dir / "failures.csv", encoding="utf-8-sig", newline="") as f:
        assert {r["url"]: r["kind"] for r in csv.DictReader(f)} == {
            url: kind.value for url, kind in expected.items()}


def test_status_failed_groups_by_kind(
        failed_run: tuple[Archive, FaultServer, dict[str, ErrorKind]],
        capsys: pytest.CaptureFixture[str]) -> None:
    archive, _, expected = failed_run
    assert main(["status", "--failed", "--archive", str(archive.root)]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = lines.index("failed by kind:") + 1
    counts = lines[first:first + len(expected)]
    assert sorted(line.split() for line in counts) == sorted(
        [kind.value, "1"] for kind in expected.values())
    store = TaskStore(archive.tasks_path)
    for url, kind in expected.items():
        task = store.get(store.find_url(url) or 0)
        # each kind's heading, then its task with id, link and reason
        heading = lines.index(f"{kind}:")
        assert lines[heading + 1] == f"  #{task.id} {url} — {task.error}"


def test_retry_failed_by_kind_takes_up_only_that_kind(
        failed_run: tuple[Archive, FaultServer, dict[str, ErrorKind]],
        capsys: pytest.CaptureFixture[str]) -> None:
    archive, site, expected = failed_run
    before = {path: site.count(path) for path in PATHS}
    assert set(before.values()) == {1}
    assert main(["run", "--retry-failed", "--kind", "http-5xx", "--set", "retries=0",
                 "--set", "host_delay_ms=0", "--archive", str(archive.root)]) == 0
    again = {path: site.count(path) - before[path] for path in PATHS}
    assert again == {path: int(kind == ErrorKind.HTTP_5XX) for path, kind in PATHS.items()}
    rows = csv_rows(archive.tasks_path)
    retried = rows[site.url("/status?code=500&fail=1")]
    assert (retried["status"], retried["error"], retried["error_kind"]) == ("localized", "", "")
    assert {rows[u]["error_kind"] for u in expected} - {""} == (
        {k.value for k in expected.values()} - {"http-5xx"})
    assert "failed 0 of 1 task in" in capsys.readouterr().out


def test_an_unknown_kind_is_a_usage_error(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["run", "--kind", "dns", "--archive", str(tmp_path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'dns'" in err
    assert all(f"'{kind}'" in err for kind in ErrorKind)


OLD_HEADER = [c for c in COLUMNS if c != "error_kind"] + ["我的备注"]


def test_an_old_tasks_csv_without_kinds_loads_and_keeps_its_text(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tasks.csv"
    rows = [dict.fromkeys(OLD_HEADER, "") | {"id": "1", "url": "https://a.example.com/",
                                             "status": "failed", "error": "HTTP 404 Not Found",
                                             "attempts": "1", "我的备注": "再试"},
            dict.fromkeys(OLD_HEADER, "") | {"id": "2", "url": "https://b.example.com/",
                                             "status": "localized", "attempts": "1"}]
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        writer = csv.DictWriter(f, OLD_HEADER, lineterminator="\r\n")
        writer.writeheader()
        writer.writerows(rows)
    store = TaskStore(path)
    failed, done = store.tasks()
    assert (failed.status, failed.error_kind, failed.failure_kind) == (
        Status.FAILED, "", ErrorKind.UNKNOWN)
    assert done.failure_kind is None and failed.extra == {"我的备注": "再试"}
    # the new column comes beside error; the person's column stays last
    assert store.columns == OLD_HEADER[:OLD_HEADER.index("error") + 1] + ["error_kind"] + \
        OLD_HEADER[OLD_HEADER.index("error") + 1:]
    store.save()
    saved = csv_rows(path)
    for row in rows:
        assert {k: v for k, v in saved[row["url"]].items() if k != "error_kind"} == row
    assert main(["status", "--failed", "--archive", str(tmp_path)]) == 0
    assert "  unknown       1" in capsys.readouterr().out


def test_status_values_are_the_words_of_the_file(tmp_path: Path) -> None:
    words = ("pending", "fetched", "cleaned", "localized", "done", "running", "failed",
             "duplicate")
    assert tuple(s.value for s in Status) == words == STATUSES
    store = TaskStore(tmp_path / "tasks.csv")
    for word in words:
        store.update(store.add(f"https://example.com/{word}").id, status=word)
    store.save()
    assert [r["status"] for r in csv_rows(tmp_path / "tasks.csv").values()] == list(words)
    assert all(type(t.status) is Status for t in TaskStore(tmp_path / "tasks.csv").tasks())


def test_the_kind_goes_when_the_failure_does(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "tasks.csv")
    task = store.add("https://example.com/")
    store.update(task.id, status="failed", error="HTTP 503", error_kind="http-5xx")
    assert store.get(task.id).failure_kind is ErrorKind.HTTP_5XX
    assert store.update(task.id, status="running").error_kind == ""
    with pytest.raises(ValueError, match="unknown error kind"):
        store.update(task.id, status="failed", error_kind="dns")


def test_a_bug_in_a_stage_is_an_internal_failure(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr("pipeline.run.runner.fetch_stage", broken)
    archive = Archive.open(tmp_path / "archive")
    store = TaskStore(archive.tasks_path)
    add_links(store, "https://example.com/")
    Runner(archive, store, ONCE).run()
    task = store.get(1)
    assert (task.status, task.error_kind) == ("failed", "internal")
    assert task.error.startswith("internal error: ZeroDivisionError")


@pytest.mark.parametrize("path, kind", [
    ("/interstitial?fail=9", ErrorKind.INTERSTITIAL),
    ("/status?code=503&fail=9", ErrorKind.HTTP_5XX),
    ("/status?code=410&fail=9", ErrorKind.HTTP_4XX),
    ("/big?mb=2", ErrorKind.TOO_LARGE),
    ("/truncated?fail=9", ErrorKind.TRUNCATED),
    ("/unterminated?fail=9", ErrorKind.TRUNCATED),
    ("/loop/a", ErrorKind.REDIRECT),
    ("/redirect?to=ftp://example.com/", ErrorKind.REDIRECT),
    ("/slow?delay=1&fail=9", ErrorKind.NETWORK),
])
def test_each_fetch_failure_names_its_kind(fault_server: FaultServer, path: str,
                                           kind: ErrorKind) -> None:
    settings = ONCE.with_overrides(read_timeout=0.3, max_page_bytes=1024 * 1024)
    with new_session(settings) as session, pytest.raises(FetchError) as failure:
        fetch_page(Fetcher(session, settings, Rules()), fault_server.url(path))
    assert failure.value.kind is kind, failure.value.reason


def test_a_link_without_http_is_a_bad_url() -> None:
    with new_session(ONCE) as session, pytest.raises(FetchError) as failure:
        fetch_page(Fetcher(session, ONCE, Rules()), "file:///etc/passwd")
    assert failure.value.kind is ErrorKind.BAD_URL


def test_an_invalid_selector_is_a_rules_failure() -> None:
    """extract says "invalid selector" only in its message; this holds the wording to it."""
    with pytest.raises(ExtractError) as failure:
        selector("p[[")
    assert failure.value.kind is ErrorKind.RULES
    assert ExtractError("no article found").kind is ErrorKind.NO_ARTICLE


def test_a_shell_names_its_signal_and_how_to_render_it() -> None:
    failure = NeedsJavaScript("an empty #root beside scripts (1 file)", "app.example.com")
    assert isinstance(failure, ExtractError) and failure.kind is ErrorKind.NEEDS_JS
    assert str(failure) == (
        "needs JavaScript: an empty #root beside scripts (1 file); add render: browser to the "
        "app.example.com: section of rules.yaml (or \"Render with browser\" in the rules "
        "editor or the Failures tab), which needs pip install -e '.[browser]' and Chromium "
        "(Debian: apt install chromium)")
