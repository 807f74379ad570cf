"""Make an archive of 1,000, 10,000 or 100,000 articles for the scale benchmarks (issue 30).

    .venv/bin/python -m bench.make_library DEST [--articles 10000] [--seed 1] [--no-index]
                                           [--workers N]

DEST must not exist, or be empty. What it holds is what a run leaves behind, written directly
(no network, no extractor): ``tasks.csv`` (through ``TaskStore``, one save), ``archive.json``,
for each article its raw page and record (00_raw/<id>.html, .json, the record's "url" the
task's), its article (01_clean/<id>.json, the ``Article``) and a plain clean page
(01_clean/<id>.html), an image map (01_clean/<id>.assets.json) once localized, a dozen small
images in 02_assets shared by a third of the articles, ``entries.db`` (what the clean and
localize stages keep for the book's index) and ``search.db`` (the index a run
keeps; ``--no-index`` leaves it out, as in an archive older than the index).

The text (``bench.dedup``'s generators, a pure function of seed and number): a third of the
articles Chinese, a third English, a third paragraphs of both mixed; 600 to 8,000 characters
(log-normal). About 2 % are near duplicates of an earlier article (one small edit: a word, a
year, a sentence, a paragraph appended) and 0.5 % exact duplicates (status ``duplicate``).
Categories: 8 first-level (Chinese and English names), 2–6 second-level each; 300 hosts.
Statuses: mostly localized, some done, cleaned, fetched, pending and failed (with codes).

Speed: the articles are made by a pool of ``--workers`` processes (default: the core count)
in chunks of 500, SimHash only for the articles in a near-duplicate pair (a seeded random
fingerprint for the rest: unrelated texts' are as far apart). Measured on 2 cores shared at a
load of 13–20: 1,000 in 20 s, 10,000 in 3 min, 100,000 in 52 min (the files in 28, the search
index, made in one process as the chunks arrive, the rest: ``--no-index`` leaves it out).
Prints what it made and how long it took.

From Python: ``make_library(dest, articles, seed=1, index=True)`` (the benchmarks call it).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from bench.dedup import EDIT_KINDS, _en_text, _rng, _zh_text, edit
from pipeline.book.entry_cache import EntryCache
from pipeline.records.article import Article, Method
from pipeline.records.failures import Code, failure
from pipeline.records.task import Status, Task, failure_changes
from pipeline.store.archive import Archive
from pipeline.store.asset_map import AssetEntry, AssetMap
from pipeline.store.search import SearchIndex
from pipeline.store.tasks import TaskStore
from pipeline.text.dedup import content_hash, simhash

CATEGORIES = {
    "01_新闻": ("国内", "国际", "社会"),
    "02_科技": ("人工智能", "手机", "网络", "数据"),
    "03_Culture": ("Books", "Film", "Music", "Art", "Theatre"),
    "04_历史": ("古代", "近代"),
    "05_Travel": ("Asia", "Europe", "Americas", "Africa", "Oceania", "Islands"),
    "06_生活": ("美食", "咖啡", "家居"),
    "07_Science": ("Physics", "Biology", "Climate", "Space"),
    "08_读书笔记": ("小说", "散文", "诗歌", "传记", "哲学"),
}
HOSTS = 300
IMAGES = 12  # small images in 02_assets, shared by the articles that show one
NEAR_SHARE = 0.02
EXACT_SHARE = 0.005
# status by share of the articles (the rest localized)
STATUS_SHARES = ((Status.DONE, 0.05), (Status.CLEANED, 0.03), (Status.FETCHED, 0.01),
                 (Status.PENDING, 0.02), (Status.FAILED, 0.02))
CHUNK = 500  # articles a worker makes at a time
STAMP = "2026-11-02T08:00:00+00:00"


def host(n: int) -> str:
    return f"site{n % HOSTS}.example.{'cn' if n % 3 else 'com'}"


def url_of(n: int) -> str:
    return f"https://{host(n)}/{2015 + n % 11}/{n % 12 + 1:02d}/post-{n}.html"


def image_url(k: int) -> str:
    return f"https://img.example.net/pictures/{k}.png"


@dataclass(frozen=True)
class Plan:
    """What article ``n`` is: its status, and the earlier article it copies (near or exact)."""

    status: Status
    near_of: int | None = None
    exact_of: int | None = None


def plan_of(seed: int, n: int) -> Plan:
    """Article ``n``'s plan: a pure function of seed and number (each worker draws its own)."""
    rng = random.Random(seed << 40 | n << 1 | 1)
    draw = rng.random()
    status = Status.LOCALIZED
    for candidate, share in STATUS_SHARES:
        if draw < share:
            status = candidate
            break
        draw -= share
    if n > 10:
        copy = rng.random()
        if copy < NEAR_SHARE:
            return Plan(status, near_of=rng.randrange(1, n))
        if copy < NEAR_SHARE + EXACT_SHARE:
            return Plan(Status.DUPLICATE, exact_of=rng.randrange(1, n))
    return Plan(status)


def own_text(seed: int, n: int) -> tuple[str, str]:
    """Article ``n``'s own text and language: paragraphs separated by a blank line."""
    rng = _rng(seed, n)
    kind = rng.random()
    chars = int(min(8000, max(600, math.exp(rng.gauss(7.8, 0.6)))))
    if kind < 1 / 3:
        return _zh_text(rng, chars).replace("\n", "\n\n"), "zh"
    if kind < 2 / 3:
        return _en_text(rng, chars), "en"
    parts, length = [], 0
    while length < chars:
        piece = (_zh_text(rng, 300).replace("\n", "") if rng.random() < 0.5
                 else _en_text(rng, 300).replace("\n", " ").strip())
        parts.append(piece)
        length += len(piece)
    return "\n\n".join(parts), "zh"


def text_of(seed: int, n: int, plan: Plan) -> tuple[str, str]:
    """The text article ``n`` holds: its own, its original's, or its original's edited."""
    if plan.exact_of is not None:
        return text_of(seed, plan.exact_of, plan_of(seed, plan.exact_of))
    if plan.near_of is not None:
        text, lang = text_of(seed, plan.near_of, plan_of(seed, plan.near_of))
        rng = _rng(seed, n)
        kind = rng.choice(EDIT_KINDS)
        if kind == "year" and not any(c.isdigit() for c in text):
            kind = "word"
        edit_lang = "zh" if lang == "zh" and any("\u4e00" <= c <= "\u9fff" for c in text[:50]) \
            else "en"
        try:
            return edit(text, kind, edit_lang, rng), lang
        except (IndexError, ValueError):  # no sentence of that language to edit: append one
            return edit(text, "paragraph", edit_lang, rng), lang
    return own_text(seed, n)


def article_of(seed: int, n: int, plan: Plan) -> Article:
    text, lang = text_of(seed, n, plan)
    paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()]
    first = paragraphs[0] if paragraphs else text
    title = (first[:18] if lang == "zh" else " ".join(first.split()[:8])).rstrip("，,。. ")
    rng = random.Random(seed << 40 | n << 1)
    images = [image_url(rng.randrange(IMAGES)) for _ in range(rng.choice((0, 0, 1, 3)))]
    html_parts = []
    for i, p in enumerate(paragraphs):
        if i and i % 7 == 0:
            html_parts.append(f"<h2>{_escape(p[:12])}</h2>")
        html_parts.append(f"<p>{_escape(p)}</p>")
        if i < len(images):
            html_parts.append(f'<figure><img src="{images[i]}" alt="图 {i + 1}"></figure>')
    body = "\n".join(html_parts)
    return Article(url=url_of(n), title=title, content_html=body, text="\n\n".join(paragraphs),
                   author=f"作者{n % 97}", published=f"{2015 + n % 11}-{n % 12 + 1:02d}-01",
                   lang=lang, images=images, confidence=round(0.55 + (n % 45) / 100, 2),
                   method=Method.STRICT, site_name=host(n))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _write(path: Path, data: str | bytes) -> None:
    """A plain write: the generator's archive is made once, not kept through a crash."""
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def _images(archive: Archive) -> list[AssetEntry]:
    """The shared images, written once: small PNGs of distinct colours."""
    from hashlib import sha256

    from PIL import Image

    entries = []
    for k in range(IMAGES):
        buf = BytesIO()
        Image.new("RGB", (64 + 8 * k, 48), ((37 * k) % 256, (91 * k) % 256, 160)).save(buf,
                                                                                       "PNG")
        data = buf.getvalue()
        digest = sha256(data).hexdigest()
        path = archive.asset_path(digest, "png")
        path.parent.mkdir(parents=True, exist_ok=True)
        _write(path, data)
        entries.append(AssetEntry(image_url(k), str(path.relative_to(archive.root)),
                                  width=64 + 8 * k, height=48))
    return entries


Row = tuple[Task, str, str]  # the task, and the article's title and text for the index ("" none)


def paired_articles(seed: int, articles: int) -> frozenset[int]:
    """The articles in a near-duplicate pair: each copy and the article it copies."""
    paired: set[int] = set()
    for n in range(1, articles + 1):
        if (near_of := plan_of(seed, n).near_of) is not None:
            paired.update((n, near_of))
    return frozenset(paired)


def fingerprint(seed: int, n: int, text: str, paired: frozenset[int]) -> int:
    """The SimHash of an article in a near-duplicate pair; for any other a seeded random one
    (SimHash is most of the generator's time, and two unrelated texts' fingerprints are as
    far apart as random ones: a 100,000 draw holds one or two false pairs within 8 bits)."""
    if n in paired:
        return simhash(text)
    return random.Random(seed << 40 | n << 2 | 2).getrandbits(64)


def make_chunk(root: str, seed: int, first: int, last: int, images: list[AssetEntry],
               paired: frozenset[int]) -> list[Row]:
    """Articles ``first`` to ``last`` written into the archive at ``root``; their rows."""
    archive = Archive(Path(root))
    rows: list[Row] = []
    articles: list[tuple[int, Article]] = []
    maps: list[tuple[int, AssetMap]] = []
    for n in range(first, last + 1):
        plan = plan_of(seed, n)
        url = url_of(n)
        task = Task(id=n, url=url, original_url=url, cat1=list(CATEGORIES)[n % len(CATEGORIES)],
                    added_at=STAMP, updated_at=STAMP, status=plan.status)
        task.cat2 = CATEGORIES[task.cat1][n // len(CATEGORIES) % len(CATEGORIES[task.cat1])]
        if plan.status in (Status.PENDING, Status.FAILED):
            if plan.status == Status.FAILED:
                task.error_kind = "http-4xx"
                task.attempts = 1
                gone = failure(Code.HTTP_STATUS, 404, "Not Found")
                for name, value in failure_changes(gone).items():
                    setattr(task, name, value)
            rows.append((task, "", ""))
            continue
        article = article_of(seed, n, plan)
        raw = (f"<!doctype html><html><head><meta charset=utf-8><title>{_escape(article.title)}"
               f"</title></head><body><article><h1>{_escape(article.title)}</h1>"
               f"{article.content_html}</article></body></html>")
        _write(archive.raw_html(n), raw)
        _write(archive.raw_meta(n), json.dumps(
            {"url": url, "final_url": url, "status": 200,
             "headers": {"Content-Type": "text/html; charset=utf-8"}, "fetched_at": STAMP,
             "elapsed": 0.2, "redirects": [], "attempts": 1, "encoding": "utf-8",
             "encoding_reason": "header", "bytes": len(raw.encode())}, ensure_ascii=False))
        task.fetched_at = STAMP
        if plan.exact_of is not None:
            task.duplicate_of = plan.exact_of
            task.content_hash = content_hash(article.text)
            rows.append((task, "", ""))
            continue
        if plan.status == Status.FETCHED:
            rows.append((task, "", ""))
            continue
        _write(archive.clean_html(n), f"<!doctype html><html><head><meta charset=utf-8><title>"
               f"{_escape(article.title)}</title></head><body><h1>{_escape(article.title)}</h1>"
               f"{article.content_html}</body></html>")
        _write(archive.clean_meta(n), article.to_json())
        articles.append((n, article))
        task.extracted_title = article.title
        task.chars = article.chars
        task.confidence = article.confidence
        task.content_hash = content_hash(article.text)
        task.fingerprint = f"{fingerprint(seed, n, article.text, paired):016x}"
        task.images_total = len(article.images)
        if plan.status in (Status.LOCALIZED, Status.DONE):
            found = {e.url: e for e in images}
            assets = AssetMap({src: found[src] for src in article.images})
            _write(archive.assets_map(n), assets.to_json())
            maps.append((n, assets))
            task.images_ok = assets.ok
        rows.append((task, article.title, article.text))
    with EntryCache(archive) as cache:  # what the clean and localize stages put in
        cache.put_articles(articles)
        cache.put_images(maps)
    return rows


def _chunk(args: tuple[str, int, int, int, list[AssetEntry], frozenset[int]]) -> list[Row]:
    return make_chunk(*args)


def make_library(dest: Path, articles: int, seed: int = 1, index: bool = True,
                 workers: int | None = None, say=print) -> Archive:  # noqa: ANN001
    """An archive of ``articles`` articles at ``dest`` (see the module); returns it."""
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise SystemExit(f"{dest} is not empty")
    started = time.perf_counter()
    archive = Archive.open(dest, name=f"library of {articles:,}")
    images = _images(archive)
    paired = paired_articles(seed, articles)
    jobs = [(str(archive.root), seed, first, min(first + CHUNK - 1, articles), images, paired)
            for first in range(1, articles + 1, CHUNK)]
    store = TaskStore(archive.tasks_path, ids=archive)
    search = SearchIndex.of(archive.root) if index else None
    indexed = 0

    def texts(rows_of: Iterator[list[Row]]) -> Iterator[tuple[int, Article]]:
        nonlocal indexed
        for rows in rows_of:
            for task, title, text in rows:
                store.insert(task)
                if title or text:
                    indexed += 1
                    yield task.id, Article(url=task.url, title=title, content_html="",
                                           text=text)

    with multiprocessing.Pool(workers or os.cpu_count() or 1) as pool:
        made = pool.imap(_chunk, jobs)
        if search is not None:
            search.rebuild(texts(made))
            search.close()
        else:
            for _ in texts(made):
                pass
    files = time.perf_counter() - started
    t = time.perf_counter()
    store.save()
    say(f"made {articles:,} tasks ({indexed:,} articles) in {dest}: files"
        f"{' and index' if index else ''} {files:.1f} s, tasks.csv {time.perf_counter() - t:.1f} s")
    return archive


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dest", type=Path)
    ap.add_argument("--articles", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-index", action="store_true", help="leave search.db out")
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    make_library(args.dest, args.articles, args.seed, not args.no_index, args.workers)
    print(f"cores {os.cpu_count()}, load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
