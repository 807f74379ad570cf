"""A run whose images sit mostly on dead hosts: does it take as long as its live work, or as
long as its dead hosts make it wait?

    .venv/bin/python -m bench.fetch_faults [--pages 150] [--seed 5]
    .venv/bin/python -m bench.fetch_faults --deadlines [--deadline 2] [--runs 5]

150 article pages on one local host (127.0.0.1), four images each: 600 images over 100 hosts
(127.0.1.x): 80 refuse connections (nothing listens there), 5 trickle bytes (one every half
second, so only the image deadline ends them), 15 serve their images. The real ``Runner`` runs
them with the default settings (2 per host, 8 in all, 300 ms between starts, 2 retries).

Printed: the run's wall time; the politeness lower bound of the reachable work (per live host,
(requests − 1) × delay + its latency: starts must be spaced); their ratio (target ≤ 1.3);
images fetched from live hosts (all); requests made to each dead host, from 04_logs/fetch.log
(target ≤ 3 per dead host).

``--deadlines``: one request at a time to each body shape that never ends
(tests/sites/faults.py ``NEVER_ENDING``: no length, chunked, trickling, silent, no headers),
as a page and as an image, with both deadlines set to ``--deadline`` seconds. Printed per
shape: how far past the deadline the fetch returned, median and worst of ``--runs`` (target:
under 1 s; issue 25), and the core count.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import socket
import statistics
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import quote

import requests

from pipeline.intake.links import add_links
from pipeline.net.fetch import fetch_resource
from pipeline.net.fetcher import Fetcher, Want
from pipeline.net.session import new_session
from pipeline.records.errors import FetchError
from pipeline.records.settings import Settings
from pipeline.rules.model import Rules
from pipeline.run.localize import image_want
from pipeline.run.runner import Runner
from pipeline.store.archive import Archive
from pipeline.store.tasks import TaskStore
from tests.sites.faults import NEVER_ENDING, FaultServer, served_as
from tests.sites.images import ImageServer, jpeg_bytes

DEAD, TRICKLE, LIVE = 80, 5, 15
IMAGES_PER_PAGE = 4
DEAD_IMAGES, TRICKLE_IMAGES = 6, 2  # per host; the rest of the 600 are on the live hosts
PAGE_LATENCY = 0.05


def free_port() -> int:
    """A port nothing listens on (on every 127.0.1.x: a connection there is refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=150)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--deadlines", action="store_true",
                    help="how far past its deadline a never-ending request returns")
    ap.add_argument("--deadline", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if args.deadlines:
        deadlines(args.deadline, args.runs)
    else:
        dead_hosts(args.pages, args.seed)


def deadlines(deadline: float, runs: int) -> None:
    """Per never-ending body shape, as a page and as an image: seconds past the deadline."""
    settings = Settings().with_overrides(page_deadline=deadline, image_deadline=deadline)
    wants = {"page": (Want.page(settings), "text/html"),
             "image": (image_want(settings), "image/jpeg")}
    print(f"deadline {deadline:g} s, {runs} runs each; seconds past the deadline, median / worst"
          " (target < 1)")
    width = max(map(len, NEVER_ENDING))
    print(f"{'shape':{width}} {'page':>13} {'image':>13}")
    with FaultServer() as server, new_session(settings) as session:
        for shape, path in NEVER_ENDING.items():
            cells = []
            for want, content_type in wants.values():
                url = server.url(served_as(path, content_type))
                past = [_seconds_past(session, url, settings, want) for _ in range(runs)]
                cells.append(f"{statistics.median(past):6.3f} /{max(past):6.3f}")
            print(f"{shape:{width}} {cells[0]:>13} {cells[1]:>13}")
    print(f"cores {os.cpu_count()}")


def _seconds_past(session: requests.Session, url: str, settings: Settings, want: Want) -> float:
    started = time.monotonic()
    try:
        fetch_resource(Fetcher(session, settings, Rules()), url, want)
    except FetchError as e:
        if not e.reason.startswith("no complete answer within"):
            raise SystemExit(f"{url}: failed otherwise: {e.reason}") from None
    else:
        raise SystemExit(f"{url}: a never-ending body came back as complete")
    return time.monotonic() - started - want.deadline


def dead_hosts(page_count: int, seed: int) -> None:
    """The run over mostly dead image hosts (the module's first mode)."""
    rng = random.Random(seed)
    settings = Settings()
    total = page_count * IMAGES_PER_PAGE
    dead_each = DEAD_IMAGES
    with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        pages = stack.enter_context(FaultServer())
        trickle = [stack.enter_context(FaultServer(f"127.0.1.{1 + i}")) for i in range(TRICKLE)]
        live = [stack.enter_context(ImageServer(f"127.0.1.{1 + TRICKLE + i}"))
                for i in range(LIVE)]
        port = free_port()
        dead = [f"http://127.0.1.{1 + TRICKLE + LIVE + i}:{port}" for i in range(DEAD)]
        images = [f"{origin}/img/{n}.jpg" for origin in dead for n in range(dead_each)]
        images += [t.url(f"/trickle?every=0.5&type=image/jpeg&n={n}")
                   for t in trickle for n in range(TRICKLE_IMAGES)]
        n = 0
        while len(images) < total:
            images.append(live[n % LIVE].put(f"/img/{n}.jpg", jpeg_bytes(seed=n), "image/jpeg"))
            n += 1
        rng.shuffle(images)
        links = []
        for k in range(page_count):
            tags = "".join(f'<img src="{u}" alt="{k}">' for u in
                           images[k * IMAGES_PER_PAGE:(k + 1) * IMAGES_PER_PAGE])
            text = f"第{k}篇。" + "一段足够长的正文，让这一页被当作文章来读。" * 12 + tags
            links.append(pages.url(f"/ok?latency={PAGE_LATENCY}&text={quote(text)}"))
        archive = Archive.open(Path(tmp) / "archive")
        store = TaskStore(archive.tasks_path)
        add_links(store, "\n".join(links))
        started = time.monotonic()
        progress = Runner(archive, store, settings).run()
        wall = time.monotonic() - started
        log = (archive.logs_dir / "fetch.log").read_text(encoding="utf-8")
        live_served = sum(len([h for h in s.hits if h.path.startswith("/img/")]) for s in live)
        live_images = sum(1 for u in images if any(u.startswith(s.origin) for s in live))
    delay = settings.host_delay_ms / 1000
    live_requests = [live_images / LIVE] * LIVE
    bound = max((page_count - 1) * delay + PAGE_LATENCY, *((r - 1) * delay for r in live_requests))
    tries = Counter(m.group(1) for m in re.finditer(r"\thttp://(127\.0\.1\.\d+):" + str(port),
                                                    log))
    per_dead = [tries.get(origin.split("//")[1].split(":")[0], 0) for origin in dead]
    tasks = store.tasks()
    print(f"pages             {page_count}, localized {sum(t.status == 'localized' for t in tasks)}"
          f", failed {progress.failed}")
    print(f"images            {total}: {DEAD} dead hosts × {dead_each}, {TRICKLE} trickling ×"
          f" {TRICKLE_IMAGES}, {live_images} on {LIVE} live hosts")
    print(f"wall time         {wall:.1f} s")
    print(f"lower bound       {bound:.1f} s  (reachable work: {page_count} pages on one host,"
          f" {settings.host_delay_ms} ms between starts)")
    print(f"ratio             {wall / bound:.2f}  (target ≤ 1.3)")
    print(f"live images       {sum(t.images_ok or 0 for t in tasks)} of {live_images} stored"
          f" ({live_served} requests served)")
    print(f"dead-host tries   max {max(per_dead)}, mean {sum(per_dead) / DEAD:.2f} per host"
          f" (target ≤ 3), {sum(per_dead)} in all for {DEAD * dead_each} images")
    print(f"cores             {os.cpu_count()}")


if __name__ == "__main__":
    main()
