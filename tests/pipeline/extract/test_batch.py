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
    assert set(zh) == {"id", "title", "text", "published", "author"}
