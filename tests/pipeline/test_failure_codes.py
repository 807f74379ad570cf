"""Every failure code has one English sentence, is produced by a test for real, and rides in
tasks.csv beside the sentence (``pipeline/records/failures.py``)."""

from __future__ import annotations

import ast
import re
import socket
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from pipeline.extract import extract
from pipeline.intake.harvest import candidates, classify
from pipeline.net.breaker import HostBreakers
from pipeline.net.causes import connection_failure
from pipeline.net.cookies import CookieStore, load_cookies, parse_cookie_string
from pipeline.net.fetch import fetch_page
from pipeline.net.fetcher import Fetcher
from pipeline.net.politeness import HostGate
from pipeline.net.render import browser_problem
from pipeline.net.session import new_session
from pipeline.records.errors import KuaibuError, RulesError
from pipeline.records.failures import (
    MESSAGES,
    Code,
    Failure,
    arity,
    dump_args,
    failure,
    load_failure,
)
from pipeline.records.settings import Settings
from pipeline.records.task import Status, Task, failure_changes
from pipeline.rules.model import Rules, SiteRules, parse_rules
from pipeline.rules.yaml_file import read_rules_text
from pipeline.run.stages import StageContext, fetch_stage
from pipeline.store.archive import Archive
from pipeline.store.tasks import TaskStore
from pipeline.web.addresses import AddressPolicy
from pipeline.web.urls import MAX_URL_CHARS, check_url_length, normalize_url
from tests.sites.faults import FaultServer

REPO = Path(__file__).resolve().parents[2]
SETTINGS = Settings().with_overrides(retries=0, read_timeout=0.5, page_deadline=1.0,
                                     connect_timeout=0.5, max_page_bytes=1024 * 1024,
                                     max_redirects=2)
# Fault-server paths and the code each fails with.
PATHS = {
    "/status?code=404&fail=9": Code.HTTP_STATUS,
    "/status?code=599&fail=9": Code.HTTP_STATUS_UNNAMED,
    "/pdf": Code.NOT_HTML,
    "/interstitial": Code.INTERSTITIAL,
    "/truncated?fail=9": Code.TRUNCATED,
    "/unterminated?fail=9": Code.CUT_SHORT,
    "/loop/a": Code.REDIRECT_LOOP,
    "/chain?n=5": Code.TOO_MANY_REDIRECTS,
    "/redirect?to=ftp://a.example/": Code.REDIRECT_TO,
    "/big?mb=2": Code.TOO_LARGE,
    "/slow?fail=9&delay=2": Code.READ_TIMEOUT,
    "/reset?fail=9": Code.CONNECTION_BROKEN,
    "/endless": Code.DEADLINE,
    "/corrupt-gzip": Code.CORRUPT,
    "/untyped": Code.NOT_HTML_UNTYPED,
    "/silent": Code.BODY_STALLED,
}
# What an operating system says when a connection fails, and the code it is read as.
CAUSES = {
    "[Errno 111] Connection refused": Code.CONNECTION_REFUSED,
    "[Errno -2] Name or service not known": Code.HOST_NOT_FOUND,
    "[Errno -3] Temporary failure in name resolution": Code.DNS_TEMPORARY,
    "[Errno 101] Network is unreachable": Code.NETWORK_UNREACHABLE,
    "[Errno 104] Connection reset by peer": Code.CONNECTION_RESET,
    "[Errno 71] Protocol error": Code.CONNECTION_FAILED,
}
LINKS = {
    "not a link": Code.NOT_A_LINK,
    "mailto:x@a.example": Code.SCHEME_NOT_ARCHIVED,
    "http:///x": Code.LINK_HAS_NO_HOST,
    "http://a.example:99999/": Code.BAD_PORT,
    "http://[zz]/": Code.BAD_IPV6_HOST,
    "http://a..b/": Code.BAD_HOST_NAME,
    "http://me:pw@a.example/": Code.CREDENTIALS,
}
# Codes another test produces for real (a browser, a run): that test, which must name the
# code or quote its sentence.
ELSEWHERE = {
    Code.NOT_IN_SAVED_PAGE: ("tests/pipeline/test_importing.py::"
                             "test_images_a_save_lacks_are_missing_unless_fetching_them_is_allowed"),
    Code.TOO_SLOW: ("tests/pipeline/test_fetch.py::"
                    "test_a_body_that_cannot_finish_in_time_is_cut_when_that_is_clear"),
    Code.INTERNAL:
        "tests/pipeline/test_error_kinds.py::test_a_bug_in_a_stage_is_an_internal_failure",
    Code.NEW_RULES_FAILED:
        "tests/pipeline/test_runner.py::test_new_rules_that_fail_keep_the_article_a_task_had",
    Code.RENDER_TIMEOUT:
        "tests/pipeline/test_render.py::test_a_render_past_the_page_deadline_fails_saying_so",
    Code.RENDERED_TOO_LARGE:
        "tests/pipeline/test_render.py::test_a_rendered_page_over_the_size_limit_is_refused",
    Code.NEEDS_PLAYWRIGHT:
        "tests/pipeline/test_render.py::test_browser_problem_names_what_to_install",
    Code.CHROMIUM_DID_NOT_START:
        "tests/pipeline/test_render.py::test_a_browser_that_does_not_start_fails_saying_so",
    # a book the reader cannot open (issue 28): each code is asserted where it is made
    **{code: "tests/pipeline/book/test_reading.py::test_a_damaged_book_is_one_line"
       for code in (Code.BOOK_UNREADABLE, Code.BOOK_BAD_XML, Code.BOOK_NO_PACKAGE,
                    Code.BOOK_EMPTY_SPINE)},
    **{code: "tests/pipeline/book/test_reading.py::"
             "test_a_book_cut_short_or_missing_a_chapter_is_one_line"
       for code in (Code.BOOK_NOT_ZIP, Code.BOOK_PART_MISSING, Code.BOOK_FILE)},
    **{code: "tests/pipeline/book/test_reading.py::"
             "test_a_part_is_read_within_its_limit_whatever_the_zip_declares"
       for code in (Code.BOOK_PART_TOO_LARGE, Code.BOOK_TOO_MANY_PARTS)},
    Code.BOOK_PART_DAMAGED:
        "tests/pipeline/book/test_reading.py::test_a_chapter_whose_bytes_were_damaged_is_one_line",
}

# Codes no test can make happen, each with why it is kept. REQUEST_FAILED: the last branch
# of fetch's ``_send``, for a requests error none of the branches above it names (requests
# documents none that reaches it); kept so such an error fails its task, not the run.
UNPRODUCIBLE = {Code.REQUEST_FAILED}


# rules.yaml texts and the code each is refused with (the file, a section, a key's value).
RULES_TEXTS = {
    "a: [b": Code.RULES_NOT_YAML,
    "a.example: {}\n# \x07\n": Code.RULES_CONTROL_CHARACTER,
    "a.example:\n  user_agent: \"x\\x01\"\n": Code.RULE_CONTROL_CHARACTER,
    "- a\n- b\n": Code.RULES_NOT_SECTIONS,
    "a.example:\n  strip: x\n  strip: y\n": Code.RULES_KEY_TWICE,
    "a.example: {}\nA.example: {}\n": Code.RULES_SECTION_TWICE,
    "a.example/x: {}\n": Code.RULES_SECTION_NAME,
    "a.example: [1]\n": Code.RULES_SECTION_NOT_RULES,
    "a.example:\n  no_such_key: 1\n": Code.RULES_UNKNOWN_KEY,
    "a.example:\n  user_agent: \"\"\n": Code.RULE_NOT_TEXT,
    "a.example:\n  user_agent: \" x\"\n": Code.RULE_HEADER_VALUE,
    "a.example:\n  strip: 3\n": Code.RULE_NOT_LIST,
    "a.example:\n  strip: [" + ", ".join(["p"] * 201) + "]\n": Code.RULE_LIST_TOO_LONG,
    "a.example:\n  concurrency: 0\n": Code.RULE_WHOLE_NUMBER,
    "a.example:\n  encoding: klingon\n": Code.RULE_ENCODING,
    "a.example:\n  article_link_pattern: \"(\"\n": Code.RULE_REGEX,
    "a.example:\n  render: sometimes\n": Code.RULE_CHOICE,
    "a.example:\n  headers: [x]\n": Code.RULE_NOT_HEADERS,
    "a.example:\n  headers: {" + ", ".join(f"h{n}: v" for n in range(201)) + "}\n":
        Code.RULE_TOO_MANY_HEADERS,
    "a.example:\n  headers: {\"a b\": v}\n": Code.RULE_HEADER_NAME,
    "a.example:\n  headers: {X-A: v, x-a: w}\n": Code.RULE_HEADER_TWICE,
    "".join("  " * n + f"k{n}:\n" for n in range(25)): Code.RULES_TOO_DEEP,
    "".join(f"s{n}.example: {{}}\n" for n in range(2001)): Code.RULES_TOO_MANY_SECTIONS,
    "a.example:\n  strip: [" + "x" * 300_000 + "]\n": Code.RULES_TOO_LARGE,
}


def caught(call: Callable[[], object]) -> Failure:
    try:
        call()
    except KuaibuError as e:
        assert e.failure is not None, f"{e!r} carries no code"
        assert e.failure.text == str(e)
        return e.failure
    raise AssertionError("no failure")


@pytest.fixture(scope="module")
def produced(tmp_path_factory: pytest.TempPathFactory) -> dict[Code, list[Failure]]:
    """Each failure the pipeline raises, produced for real, by the code it was raised with."""
    found: list[tuple[Code, Failure]] = []
    archive_root = tmp_path_factory.mktemp("codes") / "archive"
    with FaultServer() as server, new_session(SETTINGS) as session:
        def fetch(url: str, **kw: Any) -> Callable[[], object]:
            return partial(fetch_page, Fetcher(session, SETTINGS, Rules(), **kw), url)
        for path, code in PATHS.items():
            found.append((code, caught(fetch(server.url(path)))))
        with FaultServer() as gone:
            dead = gone.url("/ok")
        found.append((Code.CONNECTION_REFUSED, caught(fetch(dead))))
        breakers = HostBreakers(1)
        caught(fetch(dead, breakers=breakers))
        found.append((Code.HOST_UNREACHABLE, caught(fetch(dead, breakers=breakers))))
        found.append((Code.TLS, caught(fetch(server.url("/ok").replace("http:", "https:")))))
        found.append((Code.ADDRESS_LOCAL, caught(fetch(server.url("/ok"),
                                                       addresses=AddressPolicy()))))
        found.append((Code.ADDRESS_NEVER_WIDENABLE, caught(fetch("http://169.254.169.254/"))))
        found.append((Code.ADDRESS_NEVER, caught(fetch("http://0.0.0.0/"))))
        found.append((Code.UNSUPPORTED_SCHEME, caught(fetch("ftp://a.example/"))))
        found.append((Code.NO_HOST_IN_URL, caught(fetch("http:///x"))))
        found.append((Code.INVALID_URL, caught(fetch("http://127.0.0.1:99999/"))))
        with full_listener() as port:
            found.append((Code.CONNECT_TIMEOUT, caught(fetch(f"http://127.0.0.1:{port}/"))))
    for cause, code in CAUSES.items():
        found.append((code, connection_failure(cause)))
    for link, code in LINKS.items():
        found.append((code, caught(partial(normalize_url, link))))
    found.append((Code.LINK_TOO_LONG, caught(lambda: check_url_length("h" * (MAX_URL_CHARS + 1)))))
    found.append((Code.LINK_TOO_LONG_ENCODED,
                  caught(lambda: check_url_length("h" * (MAX_URL_CHARS + 1), encoded=True))))
    found.append((Code.NO_ARTICLE, caught(lambda: extract(
        "<html><body><ul><li><a href=/>x</a></li></ul>", "https://a.example/"))))
    shell = "<html><body><div id=root></div><script src=/app.js></script></body></html>"
    found.append((Code.NEEDS_JAVASCRIPT, caught(lambda: extract(shell, "https://a.example/"))))
    found.append((Code.NEEDS_JAVASCRIPT_RENDERED,
                  caught(lambda: extract(shell, "https://a.example/", rendered=True))))
    found.append((Code.BAD_SELECTOR, caught(lambda: extract(
        "<html><body><p>x</p></body></html>", "https://a.example/", SiteRules(strip=("p[[",))))))
    nowhere = browser_problem(Settings(browser_path="/nonexistent/chromium"))
    assert nowhere is not None
    found.append((Code.NO_CHROMIUM_AT, nowhere))
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PATH", "")  # no Chromium on it
        chromium_missing = browser_problem(Settings())
    assert chromium_missing is not None
    found.append((Code.NO_CHROMIUM, chromium_missing))
    rendering = SETTINGS.with_overrides(render="browser")
    with new_session(rendering) as session:
        ctx = StageContext(
            archive=Archive.open(archive_root), settings=rendering, rules=Rules(),
            session=session, gate=HostGate(rendering), cookies=CookieStore(),
            breakers=HostBreakers(1), cancel=threading.Event(),
            on_attempt=lambda task, attempt: None, addresses=AddressPolicy())
        found.append((Code.NO_BROWSER_THIS_RUN, caught(
            lambda: fetch_stage(ctx, Task(id=1, url="https://a.example/")))))
    found += harvest_reasons()
    found += rules_failures(tmp_path_factory.mktemp("rules"))
    by_code: dict[Code, list[Failure]] = {}
    for code, got in found:
        assert got.code is code, (code, got)
        by_code.setdefault(code, []).append(got)
    return by_code


def rules_failures(folder: Path) -> list[tuple[Code, Failure]]:
    """Each way rules.yaml is refused, by its code: the texts above, a file that is not
    UTF-8, and the cookie rules."""
    def problem(call: Callable[[], object]) -> Failure:
        try:
            call()
        except RulesError as e:
            assert e.problem is not None, f"{e} carries no code"
            assert str(e).endswith(e.problem.text)
            return e.problem
        raise AssertionError("no RulesError")

    out = [(code, problem(partial(parse_rules, text))) for text, code in RULES_TEXTS.items()]
    latin1 = folder / "rules.yaml"
    latin1.write_bytes("a.example:\n  strip: [\"é\"]\n".encode("latin-1"))
    out.append((Code.RULES_NOT_UTF8, problem(partial(read_rules_text, latin1))))
    out.append((Code.RULE_COOKIE_PAIRS, problem(partial(parse_cookie_string, "a=1; b",
                                                        "a.example"))))
    out.append((Code.RULE_COOKIES_IN_DEFAULT, problem(partial(
        load_cookies, Settings(), parse_rules("default:\n  cookies: a=1\n")))))
    return out


def harvest_reasons() -> list[tuple[Code, Failure]]:
    """Harvest's reasons (not failures, said alike): a list page's, an article page's, one
    page's, and each link's."""
    items = "".join(f"<li><a href='/2024/05/{n:02d}/a.html'>第{n}篇文章的标题写在这里</a></li>"
                    for n in range(1, 7))
    items += "".join(f"<li><a href='/p/{n}00{n}'>标签{n}</a></li>" for n in range(1, 3))
    listing = f"<html><body><ul>{items}</ul></body></html>"
    url = "https://a.example/list"
    out = [(Code.LIST_PAGE, classify(listing, url)[1]),
           (Code.ARTICLE_PAGE, classify(f"<html><body><p>{'字' * 600}</p></body></html>", url)[1]),
           (Code.ONE_PAGE, classify("<html><body><p>短</p></body></html>", url)[1])]
    for c in candidates(listing, url, site_pattern="/2024/"):
        out += [(r.code, r) for r in c.reasons]
    return out


class full_listener:  # noqa: N801 - used as a context manager, named for what it gives
    """A port whose listener's queue is full, so a connection to it is never answered: the
    kernel drops the SYN, and the client's connect times out (no fixed sleep: the timeout
    is the client's own)."""

    def __enter__(self) -> int:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(0)
        port = self.listener.getsockname()[1]
        self.fillers = []
        for _ in range(4):  # fill the queue (its length is the backlog plus one, or so)
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", port))
            self.fillers.append(s)
        return port

    def __exit__(self, *exc: object) -> None:
        for s in self.fillers:
            s.close()
        self.listener.close()


def test_every_code_has_one_sentence(produced: dict[Code, list[Failure]]) -> None:
    assert set(MESSAGES) == set(Code)
    for code in Code:
        MESSAGES[code].format(*("x" * arity(code)))
    for failures in produced.values():
        for f in failures:
            assert len(f.args) == arity(f.code), f


def test_every_code_is_produced_by_a_test(produced: dict[Code, list[Failure]]) -> None:
    """A code no test produces is a sentence nobody has seen; one produced elsewhere must be
    named there (the code or its sentence's words)."""
    assert set(produced).isdisjoint(ELSEWHERE)
    assert set(Code) - set(produced) - set(ELSEWHERE) == UNPRODUCIBLE
    for code, node in ELSEWHERE.items():
        path, name = node.split("::")
        tree = ast.parse((REPO / path).read_text(encoding="utf-8"))
        [test] = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
        lines = (REPO / path).read_text(encoding="utf-8").splitlines()
        first = min([test.lineno] + [d.lineno for d in test.decorator_list])  # its table too
        source = "\n".join(lines[first - 1:test.end_lineno])
        words = [w.strip() for w in re.split(r"\{\d\}", MESSAGES[code]) if len(w.strip()) > 5]
        assert f"Code.{code.name}" in source or any(w in source for w in words), (code, node)


def test_a_wrapped_failure_says_both(produced: dict[Code, list[Failure]]) -> None:
    [redirect] = produced[Code.REDIRECT_TO]
    assert redirect.text == "redirect to unsupported URL scheme: ftp (only http and https)"
    assert isinstance(redirect.args[0], Failure)
    assert redirect.args[0].code is Code.UNSUPPORTED_SCHEME


def test_codes_and_arguments_ride_in_tasks_csv(produced: dict[Code, list[Failure]],
                                               tmp_path: Path) -> None:
    every = [f for failures in produced.values() for f in failures]
    store = TaskStore(tmp_path / "tasks.csv")
    for i, f in enumerate(every, start=1):
        store.add(f"https://a.example/{i}")
        store.update(i, status=Status.FAILED, error_kind="network", **failure_changes(f))
    store.save()
    again = TaskStore(tmp_path / "tasks.csv")
    assert [again.get(i).failure for i in range(1, len(every) + 1)] == every
    assert [again.get(i).error for i in range(1, len(every) + 1)] == [f.text for f in every]


def test_a_row_from_before_codes_reads_and_has_only_its_sentence(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    path.write_text("id,url,status,error,error_kind\n"
                    "1,https://a.example/,failed,HTTP 404 Not Found,http-4xx\n", encoding="utf-8")
    task = TaskStore(path).get(1)
    assert (task.error, task.failure, task.error_code) == ("HTTP 404 Not Found", None, "")


def test_a_code_that_no_longer_says_the_error_is_not_believed(tmp_path: Path) -> None:
    """A person edits the error cell (or the code): the sentence stands, the code is ignored,
    and nothing is rewritten until the task changes."""
    f = failure(Code.HTTP_STATUS, 404, "Not Found")
    edited = Task(id=1, url="https://a.example/", status=Status.FAILED, error="gone for good",
                  error_code=f.code.value, error_args=dump_args(f.args))
    assert edited.failure is None
    assert Task(id=1, url="https://a.example/", status=Status.FAILED, error=f.text,
                error_code="no-such-code", error_args=dump_args(f.args)).failure is None
    assert load_failure("http-status", "not json") is None
    assert load_failure("http-status", '["404"]') is None  # one argument short



def test_hostile_code_cells_are_no_failure() -> None:
    """Cells a person (or another program) wrote: read as no code, never a traceback."""
    for args in ("[" * 100_000, '{"code": "tls"}', '[{"code": "nope", "args": []}]',
                 '[{"args": []}]', "[1, 2]", '"x"'):
        assert load_failure("tls", args) is None, args
    assert load_failure("", "") is None
