"""decode_html: the seed's order, and the U+FFFD check that catches lying declarations."""

from __future__ import annotations

import codecs

from pipeline.decode import decode_html

ZH = "新闻正文：经济学家认为，今年的增长将放缓。" * 20


def page(body: str, head: str = "", title: str = "标题") -> str:
    return f"<html><head>{head}<title>{title}</title></head><body><p>{body}</p></body></html>"


def test_utf8_header_on_gbk_body_falls_back_to_gb18030() -> None:
    raw = page(ZH).encode("gbk")
    got = decode_html(raw, "text/html; charset=utf-8")
    assert got.encoding == "gb18030"
    assert ZH in got.text
    assert "header charset utf-8" in got.reason and "gb18030 gave 0%" in got.reason


def test_meta_only_charset_is_used() -> None:
    raw = page(ZH, '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">')
    got = decode_html(raw.encode("gbk"))
    assert got.encoding == "gb18030"  # GB2312 widened to its superset
    assert got.reason == "meta charset gb18030"
    assert ZH in got.text


def test_html5_meta_charset() -> None:
    raw = page("Grüße aus Köln", '<meta charset="windows-1252">', title="Köln").encode("cp1252")
    got = decode_html(raw)
    assert got.encoding == "cp1252"
    assert "Grüße aus Köln" in got.text


def test_gbk_without_any_declaration_is_detected() -> None:
    got = decode_html(page(ZH).encode("gbk"))
    assert got.encoding == "gb18030"
    assert ZH in got.text
    assert got.reason.startswith("detected")


def test_utf8_page_with_stale_gbk_meta_is_read_as_utf8() -> None:
    raw = page(ZH, '<meta charset="gbk">').encode("utf-8")
    got = decode_html(raw)
    assert got.encoding == "utf-8"
    assert ZH in got.text
    assert "but bytes are UTF-8" in got.reason


def test_rules_encoding_wins_over_everything() -> None:
    raw = page(ZH).encode("gbk")
    got = decode_html(raw, "text/html; charset=gbk", forced="gb2312")
    assert got.reason == "rules encoding gb18030"
    assert ZH in got.text


def test_mixed_encodings_decode_with_replacement_not_dropped() -> None:
    head = page(ZH).encode("utf-8")
    tail = "<p>旧数据段落</p>".encode("gbk")
    got = decode_html(head + tail, "text/html; charset=utf-8")
    assert got.encoding == "utf-8"
    assert ZH in got.text  # the UTF-8 part survives intact
    assert "\ufffd" in got.text  # the GBK part is replaced, not fatal


def test_bom_decides_when_no_header() -> None:
    raw = codecs.BOM_UTF16_LE + page("Hello 世界").encode("utf-16-le")
    got = decode_html(raw)
    assert got.encoding == "utf-16-le"
    assert "Hello 世界" in got.text
    assert not got.text.startswith("\ufeff")


def test_utf8_bom_is_stripped() -> None:
    got = decode_html(codecs.BOM_UTF8 + page("café").encode("utf-8"))
    assert got.encoding == "utf-8" and got.reason == "BOM utf-8"
    assert got.text.startswith("<html>")


def test_unknown_charset_label_is_ignored() -> None:
    got = decode_html(page("plain").encode(), "text/html; charset=x-no-such-thing")
    assert got.encoding == "utf-8"
    assert "plain" in got.text


def test_default_latin1_header_yields_to_the_page_meta() -> None:
    raw = page(ZH, '<meta http-equiv="Content-Type" content="text/html; charset=gbk">')
    got = decode_html(raw.encode("gbk"), "text/html; charset=ISO-8859-1")
    assert got.encoding == "gb18030"
    assert ZH in got.text
    assert "over the default header" in got.reason


def test_latin1_header_alone_is_believed() -> None:
    raw = page("Grüße aus Köln", title="Köln").encode("latin-1")
    got = decode_html(raw, "text/html; charset=iso-8859-1")
    assert got.encoding == "cp1252" and got.reason == "header charset cp1252"
    assert "Grüße aus Köln" in got.text
