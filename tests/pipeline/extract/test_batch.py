"""extract_folder: the benchmark contract (raw bytes in, one JSON line per page out)."""

from __future__ import annotations

import json
from pathlib import Path

from pipeline.extract.batch import extract_folder
from tests.pipeline.extract.pages import ZH_PROSE, article_page


def test_folder_to_jsonl_with_decoding_and_failures(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    body = "".join(f"<p>{p}</p>" for p in ZH_PROSE)
    gbk = article_page(body, title="老桥因河水上涨关闭_示例网", headline="老桥因河水上涨关闭")
    (pages / "gbk-no-charset.html").write_bytes(
        gbk.replace('<meta charset="utf-8">', "").encode("gbk")
    )
    (pages / "empty.html").write_bytes(b"")
    (pages / "notes.txt").write_text("not a page")
    calls: list[tuple[int, int]] = []
    out = tmp_path / "out.jsonl"

    n = extract_folder(pages, out, progress=lambda done, total: calls.append((done, total)))

    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert n == 2 and calls == [(1, 2), (2, 2)]
    by_id = {rec["id"]: rec for rec in lines}
    assert set(by_id) == {"gbk-no-charset", "empty"}
    assert by_id["empty"]["text"] == ""
    zh = by_id["gbk-no-charset"]
    assert zh["title"] == "老桥因河水上涨关闭"
    assert ZH_PROSE[1] in zh["text"]
    assert set(zh) == {"id", "title", "text", "published", "author", "lang", "error"}
    assert zh["lang"] == "zh" and by_id["empty"]["lang"] is None
    assert zh["error"] is None and by_id["empty"]["error"] == "no article found"


def test_a_page_lxml_refuses_is_that_page_failure_not_the_batch(tmp_path: Path) -> None:
    """An XML declaration naming a garbage encoding made lxml raise ValueError and stopped the
    whole folder; control characters in text did the same when paragraphs were regrouped."""
    pages = tmp_path / "pages"
    pages.mkdir()
    body = "".join(f"<p>{p}</p>" for p in ZH_PROSE)
    (pages / "a-xml-decl.html").write_bytes(
        b'<?xml version="1.0" encoding="\xc3\xbfgarbage!!">' + article_page(body).encode()
    )
    (pages / "b-control.html").write_bytes(
        article_page(body.replace("。", "\x01<br><br>\x0b", 2)).encode()
    )
    (pages / "c-good.html").write_bytes(article_page(body).encode())
    out = tmp_path / "out.jsonl"

    assert extract_folder(pages, out) == 3

    by_id = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert all(ZH_PROSE[2] in by_id[i]["text"] for i in ("b-control", "c-good"))
    assert ZH_PROSE[2] in by_id["a-xml-decl"]["text"]


def test_any_exception_on_one_page_becomes_its_error(tmp_path: Path, monkeypatch) -> None:
    import pipeline.extract.batch as batch

    def explode(text: str, url: str) -> None:
        if "boom" in text:
            raise RuntimeError("boom")
        return real(text, url)

    real = batch.extract
    monkeypatch.setattr(batch, "extract", explode)
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "a.html").write_text("<p>boom</p>")
    (pages / "b.html").write_text(article_page("".join(f"<p>{p}</p>" for p in ZH_PROSE)))
    out = tmp_path / "out.jsonl"

    extract_folder(pages, out)

    by_id = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert by_id["a"]["error"] == "internal error: RuntimeError: boom"
    assert ZH_PROSE[1] in by_id["b"]["text"]
