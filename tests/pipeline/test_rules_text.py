"""Form edits to rules.yaml keep comments and other sections."""

from __future__ import annotations

import pytest

from pipeline.rules.model import parse_rules
from pipeline.rules.text_edit import FlowSectionError, set_section_keys

RULES = """\
# my notes about sites
default:
  strip: [nav, footer]  # keep these

example.com:
  # their article body
  content_selector: div.old
  strip_extra:
    - .ads
    - .share
  min_chars: 200

other.org:
  encoding: gb18030
"""


def test_set_keys_in_a_section_keeps_everything_else() -> None:
    out = set_section_keys(RULES, "example.com",
                           {"content_selector": "article .body", "strip_extra": None,
                            "cookies": "a=1"})
    rules = parse_rules(out)
    site = rules.for_host("www.example.com")
    assert site.content_selector == "article .body" and site.cookies == "a=1"
    assert site.strip_extra == () and site.min_chars == 200
    assert rules.for_host("other.org").encoding == "gb18030"
    for kept in ("# my notes about sites", "# keep these", "# their article body"):
        assert kept in out
    assert ".ads" not in out


def test_a_missing_section_is_appended_and_empty_values_add_nothing() -> None:
    assert set_section_keys(RULES, "new.net", {"cookies": None}) == RULES
    out = set_section_keys(RULES, "new.net", {"strip_extra": [".x", ".y"], "encoding": "big5"})
    assert out.startswith(RULES.rstrip("\n"))
    site = parse_rules(out).for_host("new.net")
    assert site.strip_extra == (".x", ".y") and site.encoding == "big5"


def test_an_inline_section_is_left_to_the_text() -> None:
    with pytest.raises(FlowSectionError):
        set_section_keys("a.com: {min_chars: 3}\n", "a.com", {"encoding": "utf-8"})


@pytest.mark.parametrize("written", ["例子.中国", "Example.COM.", "'example.com'", "\"[::1]\""])
def test_a_section_is_found_by_the_host_it_names(written: str) -> None:
    """The rules read ``例子.中国`` as its A-label: a form edit to that host's section edits
    that section, rather than add a second one the file would then refuse."""
    text = f"{written}:\n  min_chars: 5\n"
    (section,) = parse_rules(text).domains
    out = set_section_keys(text, section, {"render": "browser"})
    assert parse_rules(out).domains == {section: {"min_chars": 5, "render": "browser"}}
