"""How fast the localize stage brings images home, how much smaller they get, at what memory.

    .venv/bin/python -m bench.assets [--articles 50] [--workers 8] [--delay-ms 0]

Each article has 6 distinct images of mixed formats and sizes (a 2400 px JPEG photo, a 900 px
JPEG, a PNG photo, a transparent PNG diagram wider than 1600 px, a WebP, and an animated GIF
or an AVIF), served from 127.0.0.1 by a child process (so its memory and image drawing are not
counted). Articles go through ``localize_stage`` on a pool of ``--workers`` threads sharing one
session and HostGate, as the Runner runs them. ``--delay-ms`` is the per-host spacing: 0 by
default, so the figure is the stage's own cost, not the 300 ms politeness wait.
Peak memory is this process's maximum resident set size (it includes the interpreter and
imports, measured before the run as the baseline).
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import multiprocessing.connection
import os
import resource
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PIL import Image, ImageDraw

from pipeline.net.breaker import HostBreakers
from pipeline.net.cookies import CookieStore
from pipeline.net.politeness import HostGate
from pipeline.net.session import new_session
from pipeline.records.article import Article
from pipeline.records.settings import MB, Settings
from pipeline.records.task import Task
from pipeline.rules.model import Rules
from pipeline.run.localize import localize_stage
from pipeline.run.stages import StageContext
from pipeline.store.archive import Archive
from pipeline.web.addresses import AddressPolicy
from tests.sites.images import ImageServer, animated_gif_bytes, encoded, picture

IMAGES_PER_ARTICLE = 6


@functools.cache
def _noise() -> Image.Image:
    return Image.effect_noise((2600, 1800), 40).convert("RGB")


def photo(size: tuple[int, int], seed: int) -> Image.Image:
    """A picture with sensor-like noise, so it compresses like a photograph, not a gradient."""
    x, y = seed * 7 % 200, seed * 13 % 200
    noise = _noise().crop((x, y, x + size[0], y + size[1]))
    return Image.blend(picture(size, seed), noise, 0.25)


def diagram(size: tuple[int, int], seed: int) -> Image.Image:
    img = Image.new("RGBA", size, (255, 255, 255, 0))
    d = ImageDraw.Draw(img)
    for i in range(12):
        x = (seed * 37 + i * size[0] // 12) % size[0]
        d.rectangle((x, size[1] // 3, x + size[0] // 16, size[1] * 2 // 3),
                    outline=(30, 60, 150, 255), width=4)
        d.line((x, size[1] // 2, x + size[0] // 10, size[1] // 2), fill=(0, 0, 0, 255), width=3)
    return img


def article_images(n: int) -> list[tuple[str, bytes]]:
    """The six images of article ``n``: (path, bytes)."""
    last = (f"/a{n}/anim.gif", animated_gif_bytes((320, 240), frames=6, seed=n)) if n % 2 else (
        f"/a{n}/photo.avif", encoded(photo((800, 600), n + 500), "AVIF", quality=60, speed=10))
    return [
        (f"/a{n}/big.jpg", encoded(photo((2400, 1600), n), "JPEG", quality=92)),
        (f"/a{n}/mid.jpg", encoded(photo((900, 600), n + 100), "JPEG", quality=90)),
        (f"/a{n}/photo.png", encoded(photo((1200, 800), n + 200), "PNG")),
        (f"/a{n}/diagram.png", encoded(diagram((2000, 900), n), "PNG")),
        (f"/a{n}/photo.webp", encoded(photo((1600, 1067), n + 300), "WEBP", quality=85)),
        last,
    ]


def serve(articles: int, conn: multiprocessing.connection.Connection) -> None:
    """Child process: draw the images, serve them, report (origin, paths, bytes), wait."""
    with ImageServer() as server:
        paths, total = [], 0
        for n in range(articles):
            for path, body in article_images(n):
                server.put(path, body, "application/octet-stream")
                paths.append(path)
                total += len(body)
        conn.send((server.origin, paths, total))
        conn.recv()  # the parent is done


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=50)
    ap.add_argument("--workers", type=int, default=Settings().global_connections)
    ap.add_argument("--delay-ms", type=int, default=0)
    args = ap.parse_args(argv)

    parent, child = multiprocessing.get_context("fork").Pipe()
    server = multiprocessing.get_context("fork").Process(target=serve,
                                                         args=(args.articles, child))
    server.start()
    origin, paths, input_bytes = parent.recv()
    settings = Settings().with_overrides(host_delay_ms=args.delay_ms,
                                         per_host_connections=args.workers,
                                         global_connections=args.workers)
    baseline_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with tempfile.TemporaryDirectory() as tmp, new_session(settings) as session:
        ctx = StageContext(archive=Archive.open(Path(tmp)), settings=settings, rules=Rules(),
                           breakers=HostBreakers(settings.host_failures_to_trip),
                           session=session, gate=HostGate(settings), cookies=CookieStore(),
                           cancel=threading.Event(), on_attempt=lambda task, attempt: None,
                           addresses=AddressPolicy.from_setting(settings.allow_addresses))

        def one(n: int) -> tuple[int, int]:
            urls = [origin + p for p in paths[n * IMAGES_PER_ARTICLE:(n + 1) * IMAGES_PER_ARTICLE]]
            body = "".join(f'<p><img src="{u}" alt=""/></p>' for u in urls)
            article = Article(url=f"{origin}/a{n}/index.html", title=f"Article {n}",
                              content_html=body, text="", images=urls)
            assets = localize_stage(ctx, Task(n + 1, article.url), article, None).assets
            return assets.ok, assets.total

        cpu0, wall0 = time.process_time(), time.perf_counter()
        with ThreadPoolExecutor(args.workers) as pool:
            results = list(pool.map(one, range(args.articles)))
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        files = [p for p in ctx.archive.assets_dir.rglob("*") if p.is_file()]
        output_bytes = sum(p.stat().st_size for p in files)
        kinds: dict[str, int] = {}
        for p in files:
            kinds[p.suffix] = kinds.get(p.suffix, 0) + 1
    parent.send("done")
    server.join()
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    ok, total = sum(r[0] for r in results), sum(r[1] for r in results)

    print(f"articles {args.articles} × {IMAGES_PER_ARTICLE} images, workers {args.workers}, "
          f"host delay {args.delay_ms} ms, cores {os.cpu_count()}")
    print(f"images ok        {ok} / {total}  (stored files: "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) + ")")
    print(f"input bytes      {input_bytes:,} ({input_bytes / MB:.1f} MB)")
    print(f"output bytes     {output_bytes:,} ({output_bytes / MB:.1f} MB)")
    print(f"ratio            {output_bytes / input_bytes:.3f} (output / input)")
    print(f"wall             {wall:.2f} s   cpu {cpu:.2f} s")
    print(f"images/s         {total / wall:.1f}   ({total / cpu:.1f} per cpu-second)")
    print(f"peak memory      {peak_kb / 1024:.0f} MB RSS "
          f"(baseline before the run {baseline_kb / 1024:.0f} MB)")


if __name__ == "__main__":
    main()
