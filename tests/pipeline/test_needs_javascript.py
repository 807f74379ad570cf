"""Pages that scripts fill in, through a whole run against a local site (issue 19): the one
whose article sits in JSON-LD is archived without a browser, the empty shell fails as
"needs-javascript" with the advice in its error column."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.records.settings import Settings
from pipeline.usecases.workspace import Workspace
from tests.pipeline.extract.pages import ZH_PROSE
from tests.sites.articles import ArticleSite

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0, host_delay_ms=0)
STORY = [f"{p}（第{n}段）" for n in range(1, 4) for p in ZH_PROSE]


def app_page(head: str = "") -> str:
    """A single-page app as fetched: metadata, a mount point, a bundle; no article markup."""
    return f"""<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">
<title>河水上涨，老桥封闭 - 示例新闻</title>{head}</head>
<body><noscript>You need to enable JavaScript to run this app.</noscript>
<div id="root"></div><script src="/static/js/main.8e1f.js"></script></body></html>"""


def rows(root: Path) -> dict[str, dict[str, str]]:
    with open(root / "tasks.csv", encoding="utf-8-sig", newline="") as f:
        return {row["url"]: row for row in csv.DictReader(f)}


def test_json_ld_article_is_archived_and_an_empty_shell_needs_javascript(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle",
                       "headline": "河水上涨，老桥封闭", "datePublished": "2026-11-30",
                       "articleBody": "\n".join(STORY)}, ensure_ascii=False)
    ws = Workspace.open(tmp_path / "archive", FAST)
    with ArticleSite() as site:
        story = site.put("/news/bridge", app_page(
            f'<script type="application/ld+json">{body}</script>'))
        shell = site.put("/app/feed", app_page())
        ws.add_links(f"{story}\n{shell}")
        ws.run()
    root = ws.archive.root
    saved = rows(root)
    assert saved[story]["status"] in ("cleaned", "localized"), saved[story]["error"]
    story_id = int(saved[story]["id"])
    record = json.loads((root / "01_clean" / f"{story_id}.json").read_text(encoding="utf-8"))
    assert record["text"].split("\n") == STORY
    assert (record["method"], record["title"]) == ("json-ld", "河水上涨，老桥封闭")
    assert record["published"].startswith("2026-11-30")

    failed = saved[shell]
    assert (failed["status"], failed["error_kind"]) == ("failed", "needs-javascript")
    assert failed["error"].startswith('needs JavaScript: a <noscript> asks for JavaScript')
    assert "add render: browser to the 127.0.0.1: section of rules.yaml" in failed["error"]
    assert ws.archive.has_raw(int(failed["id"]))  # kept for a run once rendering is on

    assert main(["status", "--failed", "--archive", str(root)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "  needs-javascript 1" in out
    assert out[out.index("needs-javascript:") + 1].startswith(f"  #{failed['id']} {shell} — ")
