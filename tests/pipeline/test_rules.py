import json
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from pipeline.cli.main import main
from pipeline.records.errors import RulesError
from pipeline.records.failures import Code
from pipeline.records.task import Status
from pipeline.rules.model import (
    DEFAULT_KEEP_ATTRS,
    RULE_SPECS,
    BadValue,
    SiteRules,
    load_rules,
    parse_rules,
)
from pipeline.rules.yaml_file import MAX_NESTING
from pipeline.store.archive import DEFAULT_ARCHIVE, Archive
from pipeline.store.tasks import TaskStore

RULES = """\
default:
  strip: [nav, .ad]
  tracking_params: [src]
example.com:
  content_selector: article .post
  strip_extra: [.share]
  concurrency: 1
news.example.com:
  delay_ms: 1000
  headers: {Referer: "https://example.com/"}
"""


def test_host_widening_and_merge() -> None:
    rules = parse_rules(RULES)
    deep = rules.for_host("a.b.example.com")
    assert deep.content_selector == "article .post"
    assert deep.strip_all == ("nav", ".ad", ".share")
    assert deep.concurrency == 1
    news = rules.for_host("x.news.example.com")
    assert news.delay_ms == 1000
    assert news.content_selector is None  # the nearest section wins; it does not inherit siblings
    assert dict(news.headers) == {"Referer": "https://example.com/"}
    other = rules.for_host("example.org")
    assert other == rules.default and other.keep_attrs == DEFAULT_KEEP_ATTRS
    assert rules.for_host("notexample.com") == rules.default
    assert rules.section_for("X.News.Example.COM.") == "news.example.com"  # as cookies match


def test_the_section_a_host_s_rules_go_in() -> None:
    """One www. rule (``urls.site_domain``) for the window, ``run --render`` and harvest: a
    section that applies wins; else the site's domain, never a top-level domain."""
    rules = parse_rules("www.kept.example:\n  delay_ms: 5\nnews.example.com:\n  delay_ms: 7\n")
    assert rules.section_for_host("www.kept.example") == "www.kept.example"
    assert rules.section_for_host("a.news.example.com") == "news.example.com"
    assert rules.section_for_host("www.example.org") == "example.org"
    assert rules.section_for_host("www.com") == "www.com"
    assert rules.section_for_host("[::1]") == "[::1]"


def test_an_address_is_under_no_section_but_its_own() -> None:
    rules = parse_rules("0.1:\n  delay_ms: 5\n127.0.0.1:\n  delay_ms: 7\n")
    assert rules.section_for("10.0.0.1") is None  # never widened like a domain name
    assert rules.for_host("127.0.0.1").delay_ms == 7


@pytest.mark.parametrize(
    "text, message",
    [
        ("default:\n  strip: [nav]\nexample.com:\n  concurency: 2\n",
         r"rules.yaml, line 4: example.com.concurency: unknown key"),
        ("example.com:\n  delay_ms: soon\n",
         r"line 2: example.com.delay_ms: expected a whole number"),
        ("example.com:\n  strip: 5\n", r"line 2: example.com.strip: expected a list of strings"),
        ("example.com: [a, b]\n", r"line 1: example.com: expected a mapping"),
        ("default:\n  strip: [nav\n", r"line 3: not valid YAML"),
        ("- a\n- b\n", r"line 1: expected a mapping of sections"),
    ],
)
def test_errors_name_line_and_key(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        parse_rules(text)


def test_yaml_tags_are_refused() -> None:
    with pytest.raises(RulesError, match="not valid YAML"):
        parse_rules("default: !!python/object/apply:os.system ['echo hi']\n")


def test_bundled_default_rules_load(tmp_path: Path) -> None:
    rules = load_rules(DEFAULT_ARCHIVE / "rules.yaml")
    assert "nav" in rules.default.strip
    assert load_rules(tmp_path / "missing.yaml") == parse_rules("")


SELECTOR_KEYS = ("content_selector", "title_selector", "strip", "strip_extra")


@pytest.mark.parametrize("key", SELECTOR_KEYS)
@pytest.mark.parametrize("section", ["default", "example.com"])
def test_an_invalid_selector_fails_the_file_naming_line_and_key(key: str, section: str) -> None:
    bad = '"p[["' if key.endswith("selector") else '[nav, "p[["]'
    text = f"other.org:\n  min_chars: 10\n{section}:\n  delay_ms: 5\n  {key}: {bad}\n"
    with pytest.raises(RulesError) as failure:
        parse_rules(text, "archive/rules.yaml")
    error = failure.value
    assert (error.path, error.line, error.key) == ("archive/rules.yaml", 5, f"{section}.{key}")
    assert str(error).startswith(f"archive/rules.yaml, line 5: {section}.{key}: ")
    assert "'p[['" in str(error) and "not valid CSS" in str(error)


def test_only_selector_keys_are_read_as_css() -> None:
    """Attribute and parameter names are no CSS: '[[' there matches nothing, it is no error."""
    others = "keep_attrs: ['[[']\n  tracking_params: ['[[']\n  lazy_attrs: ['[[']\n"
    assert parse_rules("default:\n  " + others).default.keep_attrs == ("[[",)


def test_valid_selectors_still_load() -> None:
    text = ('default:\n  strip: [nav, "[class*=advert]", "div > p.note:nth-child(2n+1)"]\n'
            'example.com:\n  content_selector: "article .post, #main"\n'
            "  title_selector: h1.headline\n  strip_extra: [.share]\n")
    rules = parse_rules(text).for_host("www.example.com")
    assert rules.content_selector == "article .post, #main"
    assert rules.strip_all[-1] == ".share"


@pytest.mark.parametrize(
    "text, line",
    [
        ("default:\n  strip: " + "[" * 5000 + "]" * 5000 + "\n", 2),
        ("default:\n  strip: " + "[" * 5000 + "\n", 2),  # never closed
        ("a:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 400)), MAX_NESTING + 1),
    ],
    ids=["flow", "unclosed", "block"],
)
def test_deep_nesting_is_a_one_line_rules_error(text: str, line: int) -> None:
    with pytest.raises(RulesError) as failure:
        parse_rules(text)
    assert failure.value.line == line
    assert "\n" not in str(failure.value) and len(str(failure.value)) < 120
    assert "nested" in str(failure.value)


def _archive_with_bad_selector(root: Path) -> Archive:
    """An archive of three fetched pages (stored, not yet cleaned) whose rules.yaml holds one
    selector cssselect cannot read."""
    archive = Archive.open(root)
    store = TaskStore(archive.tasks_path)
    page = ("<html><head><title>Tea</title></head><body><article>"
            + "<p>Tea is a drink made by steeping processed leaves in hot water.</p>" * 20
            + "</article></body></html>").encode()
    for n in range(1, 4):
        url = f"https://example.com/tea/{n}"
        task = store.add(url, url, "01_tea")
        meta = json.dumps({"final_url": url,
                           "headers": {"Content-Type": "text/html; charset=utf-8"}})
        archive.store_raw(task.id, page, meta)
        store.update(task.id, status=Status.FETCHED)
    store.save()
    archive.rules_path.write_text(
        "default:\n  strip: [nav]\nexample.com:\n  strip_extra: [.share, 'div[[oops']\n",
        encoding="utf-8")
    return archive


@pytest.mark.parametrize("command", [["clean"], ["clean", "--domain", "example.com"], ["run"]])
def test_commands_stop_on_a_bad_selector_before_touching_a_task(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    archive = _archive_with_bad_selector(tmp_path / "archive")
    before = archive.tasks_path.read_bytes()
    assert main([*command, "--archive", str(archive.root)]) == 1
    err = capsys.readouterr().err
    assert err == (f"error: {archive.rules_path}, line 4: example.com.strip_extra: rules"
                   " selector 'div[[oops' is not valid CSS"
                   " (Expected ident or '*', got <DELIM '[' at 4>)\n")
    assert archive.tasks_path.read_bytes() == before
    assert not any(archive.has_clean(n) for n in range(1, 4))


def test_an_encoding_the_decoder_cannot_read_is_refused_when_read() -> None:
    with pytest.raises(RulesError, match=r"line 2: a\.example\.encoding: expected an encoding"
                                         r" browsers read .*not 'klingon'"):
        parse_rules("a.example:\n  encoding: klingon\n")
    assert parse_rules("a.example:\n  encoding: GBK\n").for_host("a.example").encoding == "GBK"


# -- issue 25: a hostile rules.yaml is refused in one line naming its file and line ------------


def _one_line(error: RulesError) -> str:
    text = str(error)
    assert "\n" not in text and len(text) < 200, text
    return text


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("a.example:\n  delay_ms: 1\nb.example:\n  delay_ms: 2\na.example:\n  delay_ms: 3\n",
         5, "a.example: the same section as line 1"),
        # one site, written two ways: case, a final dot, Unicode and its A-label
        ("a.example:\n  delay_ms: 1\nA.Example.:\n  delay_ms: 2\n", 3,
         "A.Example.: the same section as line 1"),
        ("例子.中国:\n  delay_ms: 1\nxn--fsqu00a.xn--fiqs8s:\n  delay_ms: 2\n", 3,
         "the same section as line 1"),
        ("a.example:\n  delay_ms: 1\n  min_chars: 5\n  delay_ms: 2\n", 4,
         "a.example.delay_ms: written twice, on lines 2 and 4"),
        ("default: {strip: [nav], strip: [aside]}\n", 1,
         "default.strip: written twice, on lines 1 and 1"),
        ("a.example:\n  headers:\n    X-A: b\n    X-A: c\n", 4,
         "a.example.X-A: written twice, on lines 3 and 4"),
    ],
    ids=["section", "same-host", "idna", "key", "flow-key", "header"],
)
def test_a_section_or_key_written_twice_names_both_lines(text: str, line: int,
                                                         message: str) -> None:
    with pytest.raises(RulesError) as failure:
        parse_rules(text)
    assert failure.value.line == line
    assert message in _one_line(failure.value)


def test_a_merge_key_may_still_be_overridden() -> None:
    """``<<: *base`` then the same key is YAML's way to override, not a key written twice."""
    text = ("a.example: &base\n  delay_ms: 1\n  min_chars: 5\n"
            "b.example:\n  <<: *base\n  delay_ms: 2\n")
    rules = parse_rules(text)
    assert (rules.for_host("b.example").delay_ms, rules.for_host("b.example").min_chars) == (2, 5)


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("delay_ms", "99999999999999999999999", "expected a whole number from 0 to 60000"),
        ("delay_ms", "-1", "expected a whole number from 0 to 60000, not -1"),
        ("delay_ms", "9" * 5000, "Exceeds the limit (4300 digits)"),
        ("concurrency", "0", "expected a whole number from 1 to 16, not 0"),
        ("concurrency", "17", "expected a whole number from 1 to 16, not 17"),
        ("min_chars", "10000000", "expected a whole number from 0 to 1000000"),
        ("delay_ms", "1.5", "expected a whole number from 0 to 60000, not 1.5"),
    ],
)
def test_every_number_has_a_range(key: str, value: str, message: str) -> None:
    with pytest.raises(RulesError) as failure:
        parse_rules(f"a.example:\n  {key}: {value}\n")
    assert failure.value.line == 2
    assert message in _one_line(failure.value)


def test_the_ranges_are_the_settings_ranges() -> None:
    """A site's delay and connections override two settings: the same limits, declared once."""
    from pipeline.records.settings import SPECS

    assert SPECS["host_delay_ms"].high == 60_000 and SPECS["per_host_connections"].high == 16
    edge = parse_rules("a.example:\n  delay_ms: 60000\n  concurrency: 16\n  min_chars: 0\n")
    assert (edge.for_host("a.example").delay_ms, edge.for_host("a.example").concurrency) == (
        60_000, 16)


@pytest.mark.parametrize(
    "rule, message",
    [
        ('headers: {X-A: "b\\r\\nInjected: 1"}', "U+000D"),
        ('headers: {X-A: "b\\nInjected: 1"}', "U+000A"),
        ('headers: {X-A: "b\\0"}', "U+0000"),
        ('headers: {"X A": b}', "expected a header name"),
        ('headers: {"X-A:": b}', "expected a header name"),
        ("headers: {X-A: b, x-a: c}", "each header once ('X-A' and 'x-a' are one name)"),
        ('user_agent: "Kuaibu\\r\\nX-Evil: 1"', "U+000D"),
        ('referer: "https://a.example/\\n"', "U+000A"),
        ("user_agent: 快捕", "expected a header value"),
        ('cookies: "a=b\\r\\nc=d"', "U+000D"),
        ('content_selector: "p\\0"', "U+0000"),
    ],
)
def test_what_is_sent_as_a_header_is_checked_when_read(rule: str, message: str) -> None:
    with pytest.raises(RulesError) as failure:
        parse_rules(f"default:\n  strip: [nav]\na.example:\n  {rule}\n")
    assert failure.value.line == 4
    assert message in _one_line(failure.value)


def test_header_text_a_request_can_carry_still_loads() -> None:
    rules = parse_rules('a.example:\n  headers: {X-Api-Key: "a b\\tc", Accept-Language: zh-CN}\n'
                        "  user_agent: Mozilla/5.0 (X11; Linux) Kuaibu\n"
                        "  referer: https://a.example/list?p=1\n  cookies: nick=张三\n")
    assert dict(rules.for_host("a.example").headers)["X-Api-Key"] == "a b\tc"


@pytest.mark.parametrize("name", ["../../etc", "a b", "a.example/path", "a.example:8080",
                                  "user@a.example", "a.example?x", "[a]", "http://a.example",
                                  "exa mple.com", ".", "%2e", "*.a.example"])
def test_a_section_is_default_or_a_host(name: str) -> None:
    with pytest.raises(RulesError) as failure:
        parse_rules(f"default:\n  strip: [nav]\n{name!r}:\n  delay_ms: 5\n")
    assert failure.value.line == 3
    assert "section name: expected default or a site's host name" in _one_line(failure.value)


def test_section_names_are_read_as_a_url_reads_its_host() -> None:
    rules = parse_rules("DEFAULT:\n  delay_ms: 1\nNews.Example.COM.:\n  delay_ms: 2\n"
                        "例子.中国:\n  delay_ms: 3\n'[::1]':\n  delay_ms: 4\n"
                        "0x7f.1:\n  delay_ms: 5\n")
    assert rules.default.delay_ms == 1
    assert sorted(rules.domains) == ["127.0.0.1", "[::1]", "news.example.com",
                                     "xn--fsqu00a.xn--fiqs8s"]
    assert rules.for_host("www.xn--fsqu00a.xn--fiqs8s").delay_ms == 3
    assert rules.for_host("[::1]").delay_ms == 4
    with pytest.raises(RulesError, match="section name"):
        rules.with_section("../../etc", {"delay_ms": 5})


@pytest.mark.parametrize(
    "text, line, char",
    [
        ("default:\n  strip: [nav]\n  delay_ms: 5\x00\n", 3, "U+0000"),
        ("default:\n  user_agent: a\x07b\n", 2, "U+0007"),
        ("a.example:\n  delay_ms: 5\n\x1b[2J\n", 3, "U+001B"),
        ("default:\n  strip: [nav\x85]\n", None, None),  # NEL is a YAML line break: valid
    ],
)
def test_a_control_character_is_one_line(text: str, line: int | None, char: str | None) -> None:
    if char is None:
        parse_rules(text)
        return
    with pytest.raises(RulesError) as failure:
        parse_rules(text)
    assert failure.value.line == line
    assert f"holds the control character {char}" in _one_line(failure.value)


def test_a_rules_file_too_large_or_of_too_many_sections_is_refused_quickly(
        tmp_path: Path) -> None:
    from pipeline.rules.yaml_file import MAX_RULES_BYTES, MAX_SECTIONS

    path = tmp_path / "rules.yaml"
    path.write_text("".join(f"s{i}.example:\n  delay_ms: 1\n" for i in range(200_000)),
                    encoding="utf-8")
    with pytest.raises(RulesError) as failure:
        load_rules(path)
    assert failure.value.line is None
    assert f"more than the {MAX_RULES_BYTES // 1024} KB" in _one_line(failure.value)
    with pytest.raises(RulesError):
        parse_rules(path.read_text(encoding="utf-8"))  # as typed in the editor
    many = "".join(f"s{i}:\n" for i in range(MAX_SECTIONS + 1))
    assert len(many.encode()) < MAX_RULES_BYTES
    with pytest.raises(RulesError) as failure:
        parse_rules(many)
    assert failure.value.line == MAX_SECTIONS + 1
    assert f"more than {MAX_SECTIONS} sections" in _one_line(failure.value)
    assert len(parse_rules(many[:-len(f"s{MAX_SECTIONS}:\n")]).domains) == MAX_SECTIONS


def test_a_file_not_utf8_names_the_line_of_its_first_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_bytes("default:\n  strip: [nav]\na.example:\n  user_agent: 快捕\n".encode("gbk"))
    with pytest.raises(RulesError) as failure:
        load_rules(path)
    assert failure.value.line == 4
    assert "not UTF-8 text (byte 0xbf)" in _one_line(failure.value)


BAD_FILES = {
    "huge": "".join(f"s{i}.example:\n  delay_ms: 1\n" for i in range(200_000)).encode(),
    "twice": b"a.example:\n  delay_ms: 1\na.example:\n  delay_ms: 2\n",
    "delay": b"a.example:\n  delay_ms: 99999999999999999999999\n",
    "header": b'a.example:\n  headers: {X-A: "b\\r\\nInjected: 1"}\n',
    "section": b"../../etc:\n  delay_ms: 1\n",
    "nul": b"default:\n  delay_ms: 5\x00\n",
    "gbk": "a.example:\n  user_agent: 快捕\n".encode("gbk"),
}


@pytest.mark.parametrize("bad", sorted(BAD_FILES))
@pytest.mark.parametrize("command", [["rules", "check"], ["clean"], ["run"], ["status"],
                                     ["rules", "set", "--domain", "b.example",
                                      "--value", "delay_ms=5"]])
def test_every_command_stops_on_a_bad_file_in_one_line_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str],
        bad: str) -> None:
    archive = _archive_with_bad_selector(tmp_path / "archive")
    archive.rules_path.write_bytes(BAD_FILES[bad])
    before = archive.tasks_path.read_bytes()
    code = main([*command, "--archive", str(archive.root)])
    err = capsys.readouterr().err
    if command == ["status"] and code == 0:
        return  # status reads no rules
    assert code == 1
    assert err.startswith(f"error: {archive.rules_path}") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert archive.rules_path.read_bytes() == BAD_FILES[bad]
    assert archive.tasks_path.read_bytes() == before


@pytest.mark.parametrize(
    "domain, value, message",
    [
        ("../../etc", "delay_ms=5", "section name: expected default or a site's host name"),
        ("a b", "delay_ms=5", "section name"),
        ("a.example", 'headers={"X-A": "b\\r\\nInjected: 1"}', "U+000D"),
        ("a.example", "delay_ms=99999999999999999999999", "from 0 to 60000"),
        ("a.example", "concurrency=0", "from 1 to 16"),
        ("a.example", "user_agent=\x07", "control character"),
    ],
)
def test_rules_set_checks_before_writing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         domain: str, value: str, message: str) -> None:
    archive = Archive.open(tmp_path / "archive")
    archive.rules_path.write_text("# mine\ndefault:\n  strip: [nav]\n", encoding="utf-8")
    before = archive.rules_path.read_bytes()
    assert main(["rules", "set", "--domain", domain, "--value", value,
                 "--archive", str(archive.root)]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert archive.rules_path.read_bytes() == before
    assert main(["rules", "set", "--domain", "A.Example", "--value", "delay_ms=60000",
                 "--archive", str(archive.root)]) == 0
    assert load_rules(archive.rules_path).for_host("a.example").delay_ms == 60_000


def test_undo_never_puts_back_a_file_the_checks_refuse(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A rules file saved before these checks may hold what they refuse now (a section written
    twice): undo says so and leaves rules.yaml as it is."""
    from pipeline.usecases.workspace import Workspace

    archive = Archive.open(tmp_path / "archive")
    ws = Workspace.open(archive.root)
    ws.save_rules("a.example:\n  delay_ms: 1\n")
    ws.save_rules("a.example:\n  delay_ms: 2\n")
    older = sorted(ws.rules_history.glob("*.yaml"))[-1]
    ws.close()
    older.write_text("a.example:\n  delay_ms: 1\na.example:\n  delay_ms: 3\n", encoding="utf-8")
    assert main(["rules", "undo", "--archive", str(archive.root)]) == 1
    err = capsys.readouterr().err
    assert f"{older}, line 3: a.example: the same section as line 1" in err
    assert archive.rules_path.read_text(encoding="utf-8") == "a.example:\n  delay_ms: 2\n"
    assert older.exists()


@pytest.mark.parametrize("key", ["strip", "strip_extra", "keep_attrs", "tracking_params"])
def test_a_list_holds_at_most_so_many_items(key: str) -> None:
    """Every strip selector is searched for on every page: 30,000 of them fit in the size
    limit and cost seconds a page."""
    from pipeline.rules.model import MAX_LIST_ITEMS

    items = ", ".join(f"c{i}" for i in range(MAX_LIST_ITEMS + 1))
    with pytest.raises(RulesError) as failure:
        parse_rules(f"a.example:\n  {key}: [{items}]\n")
    assert failure.value.line == 2
    assert f"a list of at most {MAX_LIST_ITEMS} strings, not {MAX_LIST_ITEMS + 1}" in _one_line(
        failure.value)
    fine = items.rsplit(", ", 1)[0]
    assert len(getattr(parse_rules(f"default:\n  {key}: [{fine}]\n").default, key)) == 200


def test_the_files_check_and_rules_set_are_made_from_each_keys_spec(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every SiteRules field is a key with its spec, and a key's converter is what both the
    file's check and ``rules set`` apply: there is no second table of keys to forget."""
    assert list(RULE_SPECS) == [f.name for f in fields(SiteRules)]

    def refuse(value: Any) -> str:
        raise BadValue(Code.RULE_CHOICE, "what this key's spec says")

    monkeypatch.setitem(RULE_SPECS, "referer", replace(RULE_SPECS["referer"], convert=refuse))
    with pytest.raises(RulesError, match="line 2: a.example.referer: expected what this key's"):
        parse_rules("a.example:\n  referer: https://a.example/\n")
    archive = Archive.open(tmp_path / "archive")
    assert main(["rules", "set", "--domain", "a.example", "--value", "referer=https://a.example/",
                 "--archive", str(archive.root)]) == 1
    assert "expected what this key's spec says" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["content_selecter=article", "content_selecter="])
def test_rules_set_takes_only_the_keys_the_rules_declare(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    """A misspelt key is refused in one line naming the keys there are, even one to remove,
    which no file check would see (it said "removed" and wrote nothing)."""
    archive = Archive.open(tmp_path / "archive")
    archive.rules_path.write_text("# mine\ndefault:\n  strip: [nav]\n", encoding="utf-8")
    before = archive.rules_path.read_bytes()
    assert main(["rules", "set", "--domain", "a.example", "--value", value,
                 "--archive", str(archive.root)]) == 1
    out, err = capsys.readouterr()
    assert err.startswith("error: --value: content_selecter: unknown key (known: article_link")
    assert err.count("\n") == 1 and "Traceback" not in err and out == ""
    assert archive.rules_path.read_bytes() == before
