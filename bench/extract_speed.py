"""Median and p95 milliseconds per page for Kuaibu and trafilatura, same pages, same run.

    python bench/extract_speed.py [scrapinghub-dev zh-news-dev] [--data DIR] [--rounds N]

Both get the same decoded text (decoding is shared by any caller) and run interleaved page by
page, so machine load affects both alike; each page's time is its best of ``--rounds``.
Target: Kuaibu's median ≤ 0.5 × trafilatura's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from peers import DEFAULT_DATA, EXTRACTORS

from pipeline.decode import decode_html


def best_ms(fn, html: str, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        fn(html)
        best = min(best, time.perf_counter() - t)
    return best * 1000


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="*", default=["scrapinghub-dev", "zh-news-dev"])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    pages = [
        p for name in args.datasets for p in sorted((args.data / name / "pages").glob("*.html"))
    ]
    htmls = [decode_html(p.read_bytes()).text for p in pages]
    names = ("kuaibu", "trafilatura")
    times: dict[str, list[float]] = {n: [] for n in names}
    for html in htmls:
        for name in names:
            EXTRACTORS[name](html)  # warm caches (regexes, selectors, imports)
            times[name].append(best_ms(EXTRACTORS[name], html, args.rounds))
    print(f"pages={len(htmls)} ({', '.join(args.datasets)})  cores={os.cpu_count()}  "
          f"best of {args.rounds} rounds per page")
    for name in names:
        print(f"{name:<12} median {statistics.median(times[name]):7.2f} ms/page   "
              f"p95 {p95(times[name]):7.2f} ms/page")
    ratio = statistics.median(times["kuaibu"]) / statistics.median(times["trafilatura"])
    print(f"ratio kuaibu/trafilatura (median) = {ratio:.2f}   target ≤ 0.50")


if __name__ == "__main__":
    main()
