"""Extraction speed of Kuaibu against trafilatura: whole processes and page by page, same pages.

    python bench/extract_speed.py [DATASET ...] [--data DIR] [--rounds N] [--every K]
                                  [--whole-process | --per-page]

Pages: every ``--every``-th page (default 4, about 400 pages) of each dev set in sorted order, so
each set weighs as its size does and a run with both modes stays near three minutes on 2 cores;
``--every 1`` takes all 1,618 pages (about 6 minutes).

Whole process (``--whole-process``): ``python main.py extract --dir X --jsonl OUT`` against
``python bench/peers.py --whole X --jsonl OUT`` (trafilatura with its metadata, pages read from
disk and decoded the same way), alternating which goes first for ``--rounds`` rounds so drift in
machine load hits both alike. Medians of wall and CPU seconds are quoted; CPU moves less than
wall when other work shares the cores. This is what a user of the contract waits for: imports,
reading, decoding and writing included. Both run with their bytecode cached, as installed code
runs (pip compiles a package's modules when it installs it): the children write and read it
under a folder of the benchmark's own (``PYTHONPYCACHEPREFIX``, whatever
``PYTHONDONTWRITEBYTECODE`` says), filled by one untimed run of each before the rounds.
Without that, a shell that forbids bytecode makes Kuaibu compile its modules on every run
while trafilatura's installed bytecode is read (``--no-bytecode-cache`` measures that way).

Per page (``--per-page``): both get the same decoded text (decoding is shared by any caller) and
run interleaved page by page; each page's time is its best of ``--rounds``, which also drops
the first call's imports and compiled-pattern caches.

By default both modes run. Target: Kuaibu ≤ 0.4 × trafilatura (issue 27).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from peers import DEFAULT_DATA, EXTRACTORS, REPO

from pipeline.text.decode import decode_html

DATASETS = ("scrapinghub-dev", "zh-news-dev", "dragnet-dev", "cleaneval-dev",
            "cleanportaleval-dev", "l3s-gn1-dev", "readability-js-dev")
NAMES = ("kuaibu", "trafilatura")
TARGET = 0.4


def select_pages(data: Path, datasets: Sequence[str], every: int) -> list[tuple[str, Path]]:
    """(set, page) pairs: every ``every``-th page of each set, in sorted order."""
    return [(name, page) for name in datasets
            for page in sorted((data / name / "pages").glob("*.html"))[::every]]


def link_pages(pages: Sequence[tuple[str, Path]], folder: Path) -> None:
    """One folder for both processes: links, not copies, named by set so that ids of different
    sets cannot collide."""
    for dataset, page in pages:
        (folder / f"{dataset}--{page.name}").symlink_to(page.resolve())


def time_process(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=REPO, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def child_env(tmp: Path, bytecode_cache: bool) -> dict[str, str]:
    """The children's environment: with ``bytecode_cache``, bytecode written and read under
    ``tmp`` (see the module's docstring)."""
    env = dict(os.environ)
    if bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    return env


def whole_process(pages: Sequence[tuple[str, Path]], rounds: int, bytecode_cache: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder, out = Path(tmp) / "pages", Path(tmp) / "out.jsonl"
        folder.mkdir()
        link_pages(pages, folder)
        env = child_env(Path(tmp), bytecode_cache)
        commands = {
            "kuaibu": [sys.executable, "main.py", "extract", "--dir", str(folder),
                       "--jsonl", str(out)],
            "trafilatura": [sys.executable, "bench/peers.py", "--whole", str(folder),
                            "--jsonl", str(out)],
        }
        if bytecode_cache:
            for name in NAMES:  # untimed: compiles and caches each side's bytecode
                time_process(commands[name], env)
        runs: dict[str, list[tuple[float, float]]] = {n: [] for n in NAMES}
        for r in range(rounds):
            for name in NAMES if r % 2 == 0 else NAMES[::-1]:
                runs[name].append(time_process(commands[name], env))
                print(f"  round {r + 1}: {name:<12} {runs[name][-1][0]:6.2f} s wall",
                      file=sys.stderr, flush=True)
    wall = {n: statistics.median(w for w, _ in runs[n]) for n in NAMES}
    cpu = {n: statistics.median(c for _, c in runs[n]) for n in NAMES}
    cached = "bytecode cached" if bytecode_cache else "no bytecode cache"
    print(f"whole process, median of {rounds} rounds (A/B alternating, {cached}):")
    for name, what in zip(NAMES, ("main.py extract", "peers.py --whole"), strict=True):
        print(f"  {name:<12} {what:<17} wall {wall[name]:7.2f} s   cpu {cpu[name]:7.2f} s   "
              f"({1000 * wall[name] / len(pages):.1f} ms/page wall)")
    print(f"  ratio kuaibu/trafilatura       wall {wall['kuaibu'] / wall['trafilatura']:7.2f}"
          f"     cpu {cpu['kuaibu'] / cpu['trafilatura']:7.2f}     target ≤ {TARGET:.2f}")


def best_ms(fn: Callable[[str], object], html: str, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        fn(html)
        best = min(best, time.perf_counter() - t)
    return best * 1000


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def per_page(pages: Sequence[tuple[str, Path]], rounds: int) -> None:
    print("  timing page by page…", file=sys.stderr, flush=True)
    htmls = [decode_html(page.read_bytes()).text for _, page in pages]
    times: dict[str, list[float]] = {n: [] for n in NAMES}
    for html in htmls:
        for name in NAMES:
            times[name].append(best_ms(EXTRACTORS[name], html, rounds))
    print(f"per page, best of {rounds} rounds, interleaved:")
    for name in NAMES:
        print(f"  {name:<12} median {statistics.median(times[name]):7.2f} ms/page   "
              f"p95 {p95(times[name]):7.2f} ms/page")
    ratio = statistics.median(times["kuaibu"]) / statistics.median(times["trafilatura"])
    print(f"  ratio kuaibu/trafilatura (median) = {ratio:.2f}   target ≤ {TARGET:.2f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="*", default=list(DATASETS), help="default: all seven")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--every", type=int, default=4, help="take every K-th page of each set")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--whole-process", action="store_true", help="only the whole processes")
    mode.add_argument("--per-page", action="store_true", help="only the page-by-page timing")
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="whole processes as the shell's environment says (see above)")
    args = ap.parse_args(argv)
    if missing := [name for name in args.datasets if not any((args.data / name / "pages").glob(
            "*.html"))]:  # a fresh clone has no ../shared/bench: say where pages were looked for
        ap.error(f"no pages in {', '.join(str(args.data / n / 'pages') for n in missing)}"
                 " (--data DIR: the folder holding the dev sets)")
    pages = select_pages(args.data, args.datasets, args.every)
    print(f"extraction speed: {len(pages)} pages (1 in {args.every} of each of "
          f"{', '.join(args.datasets)})  cores={os.cpu_count()}")
    sys.stdout.flush()
    if not args.per_page:
        whole_process(pages, args.rounds, not args.no_bytecode_cache)
    if not args.whole_process:
        per_page(pages, args.rounds)


if __name__ == "__main__":
    main()
