"""A small archive made without the network, as the fetch, clean and localize stages leave it:
three tasks with their raw page and record (00_raw), article (01_clean), image map, and a
search index. Tests that run commands against an archive copy it instead of running a demo."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from pipeline.records.article import Article
from pipeline.store.asset_map import AssetMap
from pipeline.usecases.workspace import Workspace
from tests.waiting import PATIENCE

REPO = Path(__file__).resolve().parents[1]
MAIN = REPO / "main.py"

ARTICLES = (
    ("https://news.example/harbour", "The old harbour",
     "The harbour wall was built of granite blocks. Boats still moor by the harbour steps."),
    ("https://news.example/bridge", "廊桥的修缮", "木拱廊桥的修缮从拆下桥屋开始。工匠们先量尺寸。"),
    ("https://blog.example/tea", "Tea notes", "Green tea wants water below boiling."),
)


def make_small_archive(root: Path) -> Path:
    """The archive at ``root`` (made), its tasks localized and indexed; ``root``."""
    ws = Workspace.open(root)
    with ws.store.transaction() as store:
        ids = [store.add(url).id for url, _, _ in ARTICLES]
    for task_id, (url, title, text) in zip(ids, ARTICLES, strict=True):
        html = f"<html><head><title>{title}</title></head><body><p>{text}</p></body></html>"
        meta = {"url": url, "final_url": url, "status": 200, "headers": {},
                "fetched_at": "2024-05-01T08:00:00+00:00", "encoding": "utf-8",
                "bytes": len(html.encode())}
        ws.archive.store_raw(task_id, html.encode(), json.dumps(meta))
        article = Article(url=url, title=title, content_html=f"<p>{text}</p>", text=text)
        ws.archive.clean_meta(task_id).write_text(article.to_json(), encoding="utf-8")
        ws.archive.clean_html(task_id).write_text(f"<p>{text}</p>", encoding="utf-8")
        ws.archive.assets_map(task_id).write_text(AssetMap({}).to_json(), encoding="utf-8")
    ws.close()
    ws = Workspace.open(root)  # statuses follow the outputs: localized
    ws.rebuild_index()
    ws.close()
    return root


def tree_digest(root: Path) -> str:
    """Every path under ``root`` with its bytes: equal digests, nothing was written."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        digest.update(str(path.relative_to(root)).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def run_main(*args: str | Path, prefix: tuple[str, ...] = (),
             stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``main.py ARGS`` as a person runs it, in its own process (``prefix``: e.g. ``unshare``
    with a mount script that ends in ``exec "$@"``; see ``in_namespace``)."""
    return subprocess.run([*prefix, sys.executable, str(MAIN), *map(str, args)], input=stdin,
                          capture_output=True, text=True, timeout=2 * PATIENCE, cwd=REPO)


def in_namespace(script: str) -> tuple[str, ...]:
    """A ``run_main`` prefix: a user and mount namespace of its own (``unshare -rm``) where
    ``script`` mounts (a tmpfs, a read-only bind) before the command runs; the mounts end
    with the process, and no one else sees them."""
    return ("unshare", "-rm", "sh", "-ec", f'{script}\nexec "$@"', "kuaibu")


def namespaces_refused(folder: Path) -> str | None:
    """Why ``in_namespace`` cannot work here (the reason a test is skipped with), or None:
    found by trying, as kernels, containers and sandboxes differ."""
    try:
        proc = subprocess.run(["unshare", "-rm", "sh", "-ec",
                               f"mount -t tmpfs -o size=64k tmpfs '{folder}'"],
                              capture_output=True, text=True, timeout=PATIENCE)
    except OSError as e:
        return f"unshare cannot be run: {e}"
    if proc.returncode != 0:
        return f"unshare -rm with a tmpfs mount is not permitted here: {proc.stderr.strip()}"
    return None
