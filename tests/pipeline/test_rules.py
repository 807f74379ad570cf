from pathlib import Path

import pytest

from pipeline.archive import DEFAULT_ARCHIVE
from pipeline.errors import RulesError
from pipeline.rules import DEFAULT_KEEP_ATTRS, load_rules, parse_rules

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
