"""How close polite fetching comes to the fastest schedule its own limits allow.

    .venv/bin/python -m bench.fetch_throughput [--hosts 10] [--pages 30] [--seed 3]

Local servers on 127.0.0.1 … 127.0.0.N (Linux routes all of 127/8 to loopback), each page with
50–150 ms of simulated latency, fetched through one HostGate + fetch_page by a pool of
``global_connections`` workers, with the default settings (2 per host, 8 in all, 300 ms).
The lower bound is the larger of: per host, (pages − 1) × delay + its shortest page (starts
must be spaced); per host, its total latency / per-host connections; overall, the total
latency / global connections. Target: wall / bound ≤ 1.15.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from itertools import pairwise

from pipeline.net.fetch import fetch_page
from pipeline.net.fetcher import Fetcher
from pipeline.net.politeness import HostGate
from pipeline.net.session import new_session
from pipeline.records.settings import Settings
from pipeline.rules.model import Rules
from tests.sites.faults import FaultServer


def lower_bound(latencies: list[list[float]], settings: Settings) -> float:
    """The shortest wall time any schedule obeying the politeness limits could reach."""
    delay = settings.host_delay_ms / 1000
    per_host = max(
        max((len(lat) - 1) * delay + min(lat), sum(lat) / settings.per_host_connections)
        for lat in latencies
    )
    overall = sum(map(sum, latencies)) / settings.global_connections
    return max(per_host, overall)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hosts", type=int, default=10)
    ap.add_argument("--pages", type=int, default=30)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)

    settings = Settings()
    rng = random.Random(args.seed)
    latencies = [[rng.uniform(0.05, 0.15) for _ in range(args.pages)] for _ in range(args.hosts)]
    with ExitStack() as stack:
        servers = [stack.enter_context(FaultServer(f"127.0.0.{h + 1}")) for h in range(args.hosts)]
        # Round-robin by host: the order a scheduler should hand tasks out, so that a worker
        # is not left waiting on one busy host while others are free.
        urls = [
            servers[h].url(f"/ok?latency={latencies[h][p]:.4f}&n={p}")
            for p in range(args.pages)
            for h in range(args.hosts)
        ]
        session = stack.enter_context(new_session(settings))
        fetcher = Fetcher(session, settings, Rules(), gate=HostGate(settings))
        pool = stack.enter_context(ThreadPoolExecutor(settings.global_connections))
        started = time.monotonic()
        pages = list(pool.map(lambda u: fetch_page(fetcher, u), urls))
        wall = time.monotonic() - started

    bound = lower_bound(latencies, settings)
    min_gap = min(b - a for s in servers for a, b in pairwise(s.starts()))
    print(f"pages fetched     {sum(p.status == 200 for p in pages)} / {len(urls)}"
          f" ({args.hosts} hosts × {args.pages}, latency 50–150 ms)")
    print(f"wall time         {wall:.2f} s")
    print(f"lower bound       {bound:.2f} s  (2 per host, 8 in all, 300 ms between starts)")
    print(f"ratio             {wall / bound:.3f}  (target ≤ 1.15)")
    print(f"at the servers    peak per host {max(s.peak_open for s in servers)},"
          f" closest starts to one host {min_gap * 1000:.1f} ms")
    print(f"peak memory       {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MB"
          " RSS (this process: client and servers)")
    print(f"cores             {os.cpu_count()}")


if __name__ == "__main__":
    main()
