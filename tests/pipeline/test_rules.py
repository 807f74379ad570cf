import json
from pathlib import Path

import pytest

from pipeline.archive import DEFAULT_ARCHIVE, Archive
from pipeline.cli import main
from pipeline.errors import RulesError
from pipeline.rules import DEFAULT_KEEP_ATTRS, load_rules, parse_rules
from pipeline.rules_yaml import MAX_NESTING
from pipeline.tasks import Status, TaskStore

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
