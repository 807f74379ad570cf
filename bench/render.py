"""What rendering app pages in Chromium costs, beside fetching the same pages plainly.

    .venv/bin/python -m bench.render [--pages 20] [--workers N]

A local single-page app (``tests/sites/spa.py``: a shell whose script fetches its article's
data after 300 ms and builds six paragraphs, two images and two lazy ones below a spacer) on
127.0.0.1, its images on 127.0.0.2. Each page is fetched with ``fetch_page`` and rendered
through one ``Renderer`` (Chromium launched once, a fresh context per page) by ``--workers``
threads (default: the ``render_pages`` setting), with the default settings but no delay between
requests to a host (the cost measured is the browser's, not politeness). The browser's memory
is sampled every 50 ms over the processes under this one whose name says Chromium (Linux
/proc): the sum of their RSS (shared pages counted in each) and of their PSS (shared pages
split), peaks of each. The plain fetch of the same pages gets only their empty shells.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from pipeline.net.fetch import fetch_page
from pipeline.net.fetcher import Fetcher, RawPage
from pipeline.net.render import Rendered, Renderer, browser_problem, fetch_through
from pipeline.net.session import new_session
from pipeline.records.settings import Settings
from pipeline.rules.model import Rules
from tests.sites.spa import SpaSite, paragraphs

SAMPLE_S = 0.05
BROWSER_NAMES = ("chrom", "headless_shell")  # /proc/<pid>/comm of Chromium's processes


def descendants(root: int) -> list[int]:
    """Every process under ``root``, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        kids = children.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


def _kb(path: str, field: str) -> int:
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def browser_memory() -> tuple[int, int, int]:
    """Chromium's processes under this one: how many, their RSS and PSS summed (kB)."""
    count = rss = pss = 0
    for pid in descendants(os.getpid()):
        try:
            with open(f"/proc/{pid}/comm", encoding="utf-8") as f:
                name = f.read().strip()
        except OSError:
            continue
        if any(n in name for n in BROWSER_NAMES):
            count += 1
            rss += _kb(f"/proc/{pid}/status", "VmRSS")
            pss += _kb(f"/proc/{pid}/smaps_rollup", "Pss")
    return count, rss, pss


class Peak:
    """Samples ``browser_memory`` on a thread until stopped; keeps the peaks."""

    def __init__(self) -> None:
        self.processes = self.rss = self.pss = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Peak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._done.wait(SAMPLE_S):
            count, rss, pss = browser_memory()
            self.processes = max(self.processes, count)
            self.rss, self.pss = max(self.rss, rss), max(self.pss, pss)


def timed(pool: ThreadPoolExecutor, work: Callable[[str], object],
          urls: list[str]) -> tuple[float, list[float]]:
    """Wall time of ``work`` over ``urls`` in ``pool``, and each call's seconds."""
    def one(url: str) -> float:
        started = time.monotonic()
        work(url)
        return time.monotonic() - started

    started = time.monotonic()
    each = list(pool.map(one, urls))
    return time.monotonic() - started, each


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=20)
    ap.add_argument("--workers", type=int, default=Settings().render_pages)
    args = ap.parse_args(argv)
    settings = Settings().with_overrides(host_delay_ms=0)
    if problem := browser_problem(settings):
        raise SystemExit(problem)

    with (SpaSite() as site, new_session(settings) as session, Renderer(settings) as renderer,
          ThreadPoolExecutor(args.workers) as pool):
        urls = [site.put(f"p{n}", f"第{n}篇", paragraphs(f"p{n}")) for n in range(args.pages)]
        warm = site.put("warm", "预热", paragraphs("warm"))

        fetcher = Fetcher(session, settings, Rules())

        def fetched(url: str) -> RawPage:
            return fetch_page(fetcher, url)

        def rendered(url: str) -> Rendered:
            page = fetched(url)
            done = renderer.render(page, fetch_through(fetcher, page.final_url))
            if "第1段" not in done.html:
                raise SystemExit(f"{url} rendered without its article")
            return done

        plain_wall, plain_each = timed(pool, fetched, urls)
        with Peak() as peak:
            started = time.monotonic()
            rendered(warm)  # Chromium starts here
            first = time.monotonic() - started
            wall, each = timed(pool, rendered, urls)
        images = sum(h.path.startswith("/img/p") for h in site.images.hits)

    n = args.pages
    print(f"pages             {n} app pages, {args.workers} at once"
          f" (each: 6 paragraphs, 2 images + 2 lazy ones; data after 300 ms)")
    print(f"plain fetch       {plain_wall:.2f} s, {n / plain_wall:.1f} pages/s,"
          f" median {statistics.median(plain_each) * 1000:.0f} ms/page (shells only)")
    print(f"first render      {first:.2f} s (Chromium launched, one page)")
    print(f"rendered          {wall:.2f} s, {n / wall:.2f} pages/s,"
          f" median {statistics.median(each):.2f} s/page, slowest {max(each):.2f} s")
    print(f"images fetched    {images} of {4 * n} by the browser, the lazy ones after a scroll")
    print(f"browser memory    peak RSS {peak.rss / 1024:.0f} MB summed over"
          f" {peak.processes} processes, peak PSS {peak.pss / 1024:.0f} MB")
    print(f"cores             {os.cpu_count()}")


if __name__ == "__main__":
    main()
