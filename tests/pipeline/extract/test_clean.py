"""clean(): the whitelist is also a valid structure (what epubcheck checks in a chapter)."""

from __future__ import annotations

import pytest
from lxml import etree

from pipeline.extract.clean import clean
from pipeline.extract.dom import parse
from pipeline.text.markup import NEVER_READ_TAGS

ALLOWED_PARENTS = {
    "li": {"ul", "ol"}, "dt": {"dl"}, "dd": {"dl"}, "tr": {"table", "thead", "tbody", "tfoot"},
    "td": {"tr"}, "th": {"tr"}, "caption": {"table"}, "figcaption": {"figure"},
}
NO_LOOSE_TEXT = {"ul", "ol", "dl", "table", "thead", "tbody", "tfoot", "tr"}


def cleaned(body: str) -> etree._Element:
    root = parse(f"<html><body><div id='c'>{body}</div></body></html>")
    out = clean(root.xpath("//div[@id='c']"), "https://example.com/", ("href", "src", "alt"))
    return etree.fromstring(f"<div>{out.html}</div>")


def test_lists_and_tables_hold_only_their_own_children() -> None:
    tree = cleaned(
        "<ul>loose text<li>one</li><p>a paragraph in a list</p><div>two</div><dd>three</dd></ul>"
        "<dl><dt>term</dt><li>stray item</li></dl>"
        "<table>cell-less text<td>orphan cell</td><tr><td>ok</td><p>para in row</p></tr></table>"
        "<figcaption>caption without figure</figcaption><li>item without list</li>"
    )
    for el in tree.iter():
        if el.tag in ALLOWED_PARENTS:
            assert el.getparent().tag in ALLOWED_PARENTS[el.tag], etree.tostring(el)
        if el.tag in NO_LOOSE_TEXT:
            assert not (el.text or "").strip(), etree.tostring(el)
            assert all(not (c.tail or "").strip() for c in el), etree.tostring(el)
            assert all(c.tag in ALLOWED_PARENTS and el.tag in ALLOWED_PARENTS[c.tag] for c in el)
    text = "".join(tree.itertext())
    for piece in ("loose text", "a paragraph in a list", "two", "three", "stray item",
                  "cell-less text", "orphan cell", "para in row", "caption without figure",
                  "item without list"):
        assert piece in text


@pytest.mark.parametrize("tag", sorted(NEVER_READ_TAGS))
def test_never_read_tags_go_with_their_content_whatever_the_parser_did(tag: str) -> None:
    # Built by hand, not parsed: a head in a body, text inside an <input> (no parser makes
    # these) must go all the same.
    root = etree.Element("div")
    etree.SubElement(root, "p").text = "before"
    hostile = etree.SubElement(root, tag, onclick="steal()", title="SECRET")
    hostile.text = "SECRET"
    etree.SubElement(hostile, "b").text = "SECRET"
    hostile.tail = "tail stays"
    out = clean([root], "https://example.com/", ("title", "onclick"))
    assert "SECRET" not in out.html and "steal" not in out.html
    assert out.text == "before\ntail stays"


def test_asked_for_attributes_but_never_handlers_or_script_urls() -> None:
    root = parse("<html><body><div id='c'><p onclick='steal()' onmouseover='steal()' "
                 "title='t' lang='en'>x <a href='javascript:steal()' title='javascript:x'>a</a> "
                 "<a href='/rel' ONLOAD='steal()'>b</a></p></div></body></html>")
    out = clean(root.xpath("//div[@id='c']"), "https://example.com/",
                ("href", "title", "lang", "onclick", "onmouseover", "ONLOAD"))
    assert out.html == ('<p title="t" lang="en">x a <a href="https://example.com/rel">b</a>'
                        "</p>")
