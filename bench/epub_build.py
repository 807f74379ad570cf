"""Book build speed and memory: 1,000 articles with 3,000 images, synthesized locally.

    .venv/bin/python -m bench.epub_build [--articles 1000] [--images 3000] [--dir DIR]

The archive (cleaned articles, localized noise JPEGs that do not compress, like photos) is made
first; then ``build_books`` runs in a fresh child process, so its peak RSS is the build's own.
Targets (issue 6): under 30 s, and peak memory under 1.5 × the total image bytes + 200 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.records.settings import MB, Settings
from pipeline.store.archive import Archive
from pipeline.store.tasks import TaskStore
from tests.pipeline.book.synthetic import add_article, jpeg, store_image

if TYPE_CHECKING:
    from pipeline.book import BuildResult

PARAGRAPH_ZH = ("石拱桥之所以能立几百年，是因为每一块拱石都把压力传给邻居，整圈拱始终处于受压状态。"
                "一旦地基沉降，推力线偏出拱圈，铰点就会出现。")
PARAGRAPH_EN = ("An arch is a pile of stones that has agreed to push on each other, and the "
                "whole art of building one is keeping that agreement in force. ")


def synthesize(root: Path, articles: int, images: int, seed: int = 6) -> int:
    """Write the archive; returns the total bytes of its images."""
    rng = random.Random(seed)
    archive = Archive.open(root)
    store = TaskStore(archive.tasks_path)
    per_article = [images // articles + (1 if i < images % articles else 0)
                   for i in range(articles)]
    total = 0
    for i in range(articles):
        url = f"https://site{i % 40}.example/post/{i}.html"
        srcs: dict[str, str | None] = {}
        parts = []
        for k in range(per_article[i]):
            data = jpeg(rng.choice((320, 400, 480)), rng.choice((240, 300)), noise=True)
            total += len(data)
            src = f"https://img{i % 7}.example/{i}/{k}.jpg"
            srcs[src] = store_image(archive, data)
            parts.append(f'<figure><img src="{src}" alt="图 {k}"><figcaption>图 {k}'
                         "</figcaption></figure>")
        paragraphs = [f"<p>{PARAGRAPH_ZH * rng.randint(2, 6)}</p>" if j % 2 else
                      f"<p>{PARAGRAPH_EN * rng.randint(2, 5)}</p>" for j in range(12)]
        link = (f'<p><a href="https://site{(i + 1) % 40}.example/post/{i + 1}.html">下一篇</a>'
                "</p>")
        body = "".join(p for pair in zip(paragraphs, parts + [""] * 12, strict=False)
                       for p in pair) + link
        task = add_article(archive, i + 1, url=url, title=f"第 {i} 篇：石桥与推力线 {i}",
                           cat1=f"{i % 10:02d}_专题{i % 10}", cat2=f"子类{i % 3}",
                           published=f"20{10 + i % 14}-0{1 + i % 9}-1{i % 10}",
                           lang="zh-CN", content_html=body, images=srcs)
        store.add(url, cat1=task.cat1, cat2=task.cat2)
        store.update(i + 1, status="localized", extracted_title=task.extracted_title,
                     fetched_at=task.fetched_at)
    store.save()
    return total


def timed_build(root: Path, bind: Callable[..., BuildResult],
                settings: Settings) -> tuple[BuildResult, dict[str, object]]:
    """Run in the child: the build alone (``bind``: one format's binder), its seconds and
    peak RSS; the PDF bench times its build the same way."""
    archive = Archive.open(root)
    tasks = TaskStore(archive.tasks_path).tasks()
    start = time.perf_counter()
    result = bind(archive, tasks, settings)
    elapsed = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return result, {"seconds": elapsed, "peak_bytes": peak_kb * 1024,
                    "articles": result.articles}


def build(root: Path, budget: int) -> dict[str, object]:
    """Run in the child: the EPUB build, timed, with its peak RSS and the books' sizes."""
    from pipeline.book import build_books

    result, figures = timed_build(root, build_books,
                                  Settings().with_overrides(epub_budget_bytes=budget))
    return {**figures, "epubs": [(p.name, p.stat().st_size) for p in result.epubs]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--articles", type=int, default=1000)
    parser.add_argument("--images", type=int, default=3000)
    parser.add_argument("--dir", type=Path, help="archive folder (default: a temp folder)")
    parser.add_argument("--budget-mb", type=int, default=Settings().epub_budget_bytes // MB,
                        help="size budget per book (default: the setting, 50)")
    parser.add_argument("--build-only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build_only:
        print(json.dumps(build(args.build_only, args.budget_mb * MB)))
        return
    with tempfile.TemporaryDirectory(prefix="kuaibu-bench-") as tmp:
        root = args.dir or Path(tmp) / "archive"
        start = time.perf_counter()
        image_bytes = synthesize(root, args.articles, args.images)
        print(f"synthesized {args.articles} articles, {args.images} images "
              f"({image_bytes / MB:.1f} MB) in {time.perf_counter() - start:.1f} s")
        child = subprocess.run([sys.executable, "-m", "bench.epub_build", "--build-only",
                                str(root), "--budget-mb", str(args.budget_mb)],
                               capture_output=True, text=True, check=True)
        report = json.loads(child.stdout)
    seconds, peak = float(report["seconds"]), int(report["peak_bytes"])
    memory_target = 1.5 * image_bytes + 200 * MB
    print(f"cores: {os.cpu_count()}")
    print(f"build: {seconds:.2f} s for {report['articles']} articles "
          f"(target < 30 s: {'ok' if seconds < 30 else 'MISSED'})")
    print(f"peak memory: {peak / MB:.1f} MB (target < 1.5 × {image_bytes / MB:.1f} MB + 200 MB "
          f"= {memory_target / MB:.1f} MB: {'ok' if peak < memory_target else 'MISSED'})")
    for name, size in report["epubs"]:
        print(f"  {name}: {size / MB:.1f} MB")


if __name__ == "__main__":
    main()
