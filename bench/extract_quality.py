"""Score Kuaibu's extraction on every dev set, side by side with its peers.

    python bench/extract_quality.py [DATASET ...] [--data DIR] [--worst N] [--only-kuaibu]
                                    [--no-cache] [--cache DIR]

Kuaibu runs through the benchmark contract (``extract_folder``); trafilatura, trafilatura with
``favor_precision`` and readability-lxml get the same decoded pages (``peers.py``). Each set's
own ``score.py --json`` gives the figures. An extractor is only as good as its worst set, so all
seven sets are scored by default, and the last line counts the sets where Kuaibu is *ahead*:
its mF1 ≥ the best peer mF1 and its failures ≤ the fewest peer failures. The ``lang`` column
is Kuaibu's alone (score.py does not read it): the share of pages whose truth names a language
where Kuaibu's ``lang`` has the same primary subtag (``en-US`` is ``en``), per set and overall.

Peers are slow (minutes on 1,600 pages) and do not change while Kuaibu is being worked on, so
their predictions are cached per (peer, version, dataset, hash of the decoded page); a second
run only extracts with Kuaibu. Extraction runs in a pool of ``os.cpu_count()`` processes.
The data stays where it is (default ``../shared/bench`` beside the repository).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from peers import DEFAULT_DATA, PEERS, Prediction, peer_version, predict_file

from pipeline.extract.batch import extract_folder
from pipeline.text.decode import decode_html

DATASETS = ("scrapinghub-dev", "zh-news-dev", "dragnet-dev", "cleaneval-dev",
            "cleanportaleval-dev", "l3s-gn1-dev", "readability-js-dev")
DEFAULT_CACHE = Path.home() / ".cache" / "kuaibu-bench"
CHUNK = 8  # pages per pool task: small enough to balance, large enough to amortise pickling
Job = tuple[str, str, list[Path]]  # (set, extractor, the pages of a peer chunk)


@dataclass(frozen=True)
class Figures:
    """One extractor's scores on one set, as score.py reports them."""

    f1: float
    mf1: float
    fail: int
    title: float | None
    date: float | None
    miss: int
    per_page: dict[str, float]
    lang: tuple[int, int] | None = None  # (pages right, pages whose truth has a language)

    @classmethod
    def from_json(cls, r: dict[str, Any]) -> Figures:
        return cls(r["f1"], r["macro_f1"], r["failures"], r["title_match"], r["date_match"],
                   r["missing"], {row["id"]: row["f1"] for row in r.get("per_page", [])})


@dataclass(frozen=True)
class Best:
    """The best value any peer reaches on a set, each measure taken on its own."""

    mf1: float
    fail: int
    title: float | None
    date: float | None

    @classmethod
    def of(cls, peers: Sequence[Figures]) -> Best:
        def top(values: list[float | None]) -> float | None:
            known = [v for v in values if v is not None]
            return max(known) if known else None

        return cls(max(p.mf1 for p in peers), min(p.fail for p in peers),
                   top([p.title for p in peers]), top([p.date for p in peers]))

    def ahead(self, k: Figures) -> bool:
        return k.mf1 >= self.mf1 and k.fail <= self.fail


class PeerCache:
    """Peer predictions on disk, one JSON file per (peer, version, dataset), keyed by the hash
    of the decoded page: the hash covers the page bytes and the decoder, which is shared with
    Kuaibu and may change under the peers."""

    def __init__(self, root: Path | None) -> None:
        self.root = root

    def _path(self, peer: str, dataset: str) -> Path:
        assert self.root is not None
        return self.root / peer / peer_version(peer) / f"{dataset}.json"

    def load(self, peer: str, dataset: str) -> dict[str, Prediction]:
        if self.root is None or not self._path(peer, dataset).is_file():
            return {}
        return json.loads(self._path(peer, dataset).read_text(encoding="utf-8"))

    def save(self, peer: str, dataset: str, preds: dict[str, Prediction]) -> None:
        if self.root is None:
            return
        path = self._path(peer, dataset)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(preds, ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)  # a run stopped half-way never leaves a truncated cache


def page_key(page: Path) -> str:
    return hashlib.sha256(decode_html(page.read_bytes()).text.encode("utf-8")).hexdigest()


def predict_chunk(peer: str, pages: list[Path]) -> list[Prediction]:
    """A pool task: a few pages through one peer."""
    return [predict_file(peer, page) for page in pages]


def log(started: float, message: str) -> None:
    print(f"[{time.monotonic() - started:5.0f} s] {message}", file=sys.stderr, flush=True)


class Run:
    """All extractions of all sets in one process pool, scored set by set as each completes."""

    def __init__(self, data: Path, out: Path, cache: PeerCache, peers: Sequence[str],
                 per_page: bool) -> None:
        self.data, self.out, self.cache, self.peers, self.per_page = (
            data, out, cache, peers, per_page)
        self.started = time.monotonic()
        self.pending: dict[tuple[str, str], int] = {}  # (set, extractor) → tasks not done
        self.preds: dict[tuple[str, str], dict[str, Prediction]] = {}
        self.keys: dict[str, dict[str, str]] = {}  # set → page id → cache key
        self.scoring: dict[str, subprocess.Popen[str]] = {}

    def submit(self, pool: ProcessPoolExecutor, dataset: str) -> dict[Future[Any], Job]:
        """Queue one set: Kuaibu's folder as one task (the contract), each peer's uncached
        pages in chunks."""
        pages = sorted((self.data / dataset / "pages").glob("*.html"))
        (self.out / dataset).mkdir()
        jobs: dict[Future[Any], Job] = {
            pool.submit(extract_folder, self.data / dataset / "pages",
                        self.out / dataset / "kuaibu.jsonl"): (dataset, "kuaibu", [])
        }
        self.pending[dataset, "kuaibu"] = 1
        if self.peers:
            self.keys[dataset] = {p.stem: page_key(p) for p in pages}
        notes = [f"kuaibu {len(pages)} pages"]
        for peer in self.peers:
            cached = self.cache.load(peer, dataset)
            self.preds[dataset, peer] = {
                p.stem: cached[self.keys[dataset][p.stem]] for p in pages
                if self.keys[dataset][p.stem] in cached
            }
            todo = [p for p in pages if p.stem not in self.preds[dataset, peer]]
            chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
            for chunk in chunks:
                jobs[pool.submit(predict_chunk, peer, chunk)] = (dataset, peer, chunk)
            self.pending[dataset, peer] = len(chunks)
            notes.append(f"{peer} {len(todo)} to extract ({len(pages) - len(todo)} cached)")
        log(self.started, f"{dataset}: queued {', '.join(notes)}")
        for peer in self.peers:
            if not self.pending[dataset, peer]:
                self._finish(dataset, peer)
        return jobs

    def done(self, job: Job, future: Future[Any]) -> None:
        dataset, extractor, chunk = job
        if extractor == "kuaibu" and future.exception() is not None:
            self._crashed(dataset, future.exception())
        elif extractor != "kuaibu":
            self.preds[dataset, extractor].update(zip([p.stem for p in chunk], future.result(),
                                                      strict=True))
        self.pending[dataset, extractor] -= 1
        if not self.pending[dataset, extractor]:
            self._finish(dataset, extractor)

    def _crashed(self, dataset: str, error: BaseException) -> None:
        """The contract broke: say on which page, and score what it wrote (the pages it never
        reached count as missing, as they would for a user of ``main.py extract``)."""
        written = (self.out / dataset / "kuaibu.jsonl").read_text(encoding="utf-8").splitlines()
        pages = [p.stem for p in sorted((self.data / dataset / "pages").glob("*.html"))]
        page = pages[len(written)] if len(written) < len(pages) else "?"
        log(self.started, f"{dataset}: KUAIBU RAISED on page {page}: {error!r}; "
                          f"{len(pages) - len(written)} pages left unextracted")

    def _finish(self, dataset: str, extractor: str) -> None:
        log(self.started, f"{dataset}: {extractor} done")
        if extractor != "kuaibu":
            self._write_peer(dataset, extractor)
        if not any(n for (d, _), n in self.pending.items() if d == dataset):
            self.scoring[dataset] = subprocess.Popen(
                self._score_cmd(dataset), stdout=subprocess.PIPE, text=True)

    def _write_peer(self, dataset: str, peer: str) -> None:
        preds = self.preds[dataset, peer]
        with (self.out / dataset / f"{peer}.jsonl").open("w", encoding="utf-8") as f:
            for page_id in sorted(preds):
                f.write(json.dumps({"id": page_id, **preds[page_id]}, ensure_ascii=False) + "\n")
        self.cache.save(peer, dataset, {self.keys[dataset][i]: p for i, p in preds.items()})

    def _score_cmd(self, dataset: str) -> list[str]:
        files = [self.out / dataset / f"{e}.jsonl" for e in ("kuaibu", *self.peers)]
        cmd = [sys.executable, str(self.data / "score.py"), str(self.data / dataset),
               *map(str, files), "--json"]
        return cmd + ["--per-page"] if self.per_page else cmd

    def scores(self, dataset: str) -> dict[str, Figures]:
        """The set's figures per extractor (waits for its scorer)."""
        proc = self.scoring[dataset]
        out, _ = proc.communicate()
        if proc.returncode:
            raise SystemExit(f"score.py failed on {dataset} (exit {proc.returncode})")
        raw = json.loads(out)
        by_name = {"kuaibu": raw} if not self.peers else raw  # one file: one bare object
        figures = {name: Figures.from_json(r) for name, r in by_name.items()}
        figures["kuaibu"] = replace(figures["kuaibu"], lang=lang_count(
            self.data / dataset / "truth.jsonl", self.out / dataset / "kuaibu.jsonl"))
        return figures


def lang_count(truth: Path, predictions: Path) -> tuple[int, int]:
    """(pages whose predicted ``lang`` has the truth's primary subtag, pages whose truth has
    a ``lang``)."""
    def primary(tag: object) -> str | None:
        return tag.split("-", 1)[0].lower() if isinstance(tag, str) and tag else None

    def read(path: Path) -> dict[str, str | None]:
        rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
        return {row["id"]: primary(row.get("lang")) for row in rows}

    wanted = {page: lang for page, lang in read(truth).items() if lang}
    got = read(predictions)
    return sum(got.get(page) == lang for page, lang in wanted.items()), len(wanted)


def extract_all(data: Path, datasets: Sequence[str], out: Path, cache: PeerCache,
                peers: Sequence[str], per_page: bool) -> dict[str, dict[str, Figures]]:
    run = Run(data, out, cache, peers, per_page)
    # spawn: workers import the engine as it is on disk now, and no fork of a threaded process
    pool = ProcessPoolExecutor(os.cpu_count(), mp_context=multiprocessing.get_context("spawn"))
    with pool:
        jobs: dict[Future[Any], Job] = {}
        for dataset in datasets:
            jobs.update(run.submit(pool, dataset))
        try:
            for future in as_completed(jobs):
                run.done(jobs[future], future)
        except BaseException:
            pool.shutdown(cancel_futures=True)  # do not wait minutes for peers nobody reads
            raise
    log(run.started, "extraction done; waiting for the scorers")
    return {dataset: run.scores(dataset) for dataset in datasets}


def share(count: tuple[int, int] | None, width: int = 6) -> str:
    return cell(count[0] / count[1] if count and count[1] else None, width)


def cell(value: float | int | None, width: int = 6) -> str:
    if value is None:
        return f"{'-':>{width}}"
    return f"{value:>{width}}" if isinstance(value, int) else f"{value:{width}.3f}"


def print_set(dataset: str, figures: dict[str, Figures], best: Best | None) -> None:
    print(f"\n== {dataset} ==")
    print(f"{'':<22} {'F1':>6} {'mF1':>6} {'fail':>5} {'title':>6} {'date':>6} {'miss':>5} "
          f"{'lang':>6}")
    for name, f in figures.items():
        print(f"{name:<22} {cell(f.f1)} {cell(f.mf1)} {cell(f.fail, 5)} {cell(f.title)} "
              f"{cell(f.date)} {cell(f.miss, 5)} {share(f.lang)}")
    if best is not None:
        print(f"{'best peer':<22} {'':>6} {cell(best.mf1)} {cell(best.fail, 5)} "
              f"{cell(best.title)} {cell(best.date)}")


def print_worst(figures: dict[str, Figures], n: int) -> None:
    """Kuaibu's n worst pages, each with the best peer F1 on that page: a page where a peer
    does well is a page Kuaibu can learn from."""
    k = figures["kuaibu"]
    peers = [f for name, f in figures.items() if name != "kuaibu"]
    print(f"worst {n} pages of kuaibu" + ("  (best peer F1 on the page)" if peers else ""))
    for page_id in sorted(k.per_page, key=k.per_page.__getitem__)[:n]:
        peer = f"  ({max(p.per_page[page_id] for p in peers):.3f})" if peers else ""
        print(f"  {k.per_page[page_id]:.3f}{peer}  {page_id}")


def print_summary(results: dict[str, dict[str, Figures]], bests: dict[str, Best]) -> None:
    print("\n== summary: kuaibu / best peer ==  (ahead: mF1 ≥ best peer mF1 and fail ≤ fewest "
          "peer fail)")
    print(f"{'set':<22} {'mF1':>15} {'fail':>11} {'title':>15} {'date':>15}  ahead  {'lang':>6}")
    for dataset, figures in results.items():
        k, b = figures["kuaibu"], bests[dataset]
        print(f"{dataset:<22} {cell(k.mf1)} / {cell(b.mf1)} {cell(k.fail, 4)} / {cell(b.fail, 4)} "
              f"{cell(k.title)} / {cell(b.title)} {cell(k.date)} / {cell(b.date)}  "
              f"{'yes' if b.ahead(k) else 'no':<5}  {share(k.lang)}")
    ahead = [d for d in results if bests[d].ahead(results[d]["kuaibu"])]
    titles = [f"{d} {results[d]['kuaibu'].title:.3f} vs {bests[d].title:.3f}"
              for d in results if results[d]["kuaibu"].title is not None
              and bests[d].title is not None]
    print(f"\nKuaibu ahead on {len(ahead)} of {len(results)} sets"
          f"{' (' + ', '.join(ahead) + ')' if ahead else ''}"
          f"{'; title vs best peer: ' + ', '.join(titles) if titles else ''}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="*", default=list(DATASETS), help="default: all seven")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder holding datasets")
    ap.add_argument("--worst", type=int, default=0, help="list Kuaibu's N worst pages per set")
    ap.add_argument("--only-kuaibu", action="store_true", help="skip the peers")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="peer predictions cache")
    ap.add_argument("--no-cache", action="store_true", help="extract with every peer again")
    args = ap.parse_args(argv)
    peers = () if args.only_kuaibu else PEERS
    versions = ", ".join(sorted({peer_version(p).rsplit("-", 1)[0] for p in peers}))
    print(f"extraction quality: {len(args.datasets)} sets, cores={os.cpu_count()}"
          f"{', peers ' + versions if peers else ''}")
    cache = PeerCache(None if args.no_cache else args.cache)
    with tempfile.TemporaryDirectory() as tmp:
        results = extract_all(args.data, args.datasets, Path(tmp), cache, peers,
                              per_page=bool(args.worst))
    bests = {d: Best.of([f[p] for p in peers]) for d, f in results.items()} if peers else {}
    for dataset, figures in results.items():
        print_set(dataset, figures, bests.get(dataset))
        if args.worst:
            print_worst(figures, args.worst)
    if peers:
        print_summary(results, bests)
    counts = [f["kuaibu"].lang for f in results.values() if f["kuaibu"].lang]
    right, total = sum(c[0] for c in counts), sum(c[1] for c in counts)
    print(f"\nlanguage right on {right} of {total} pages that have one ({share((right, total))})")


if __name__ == "__main__":
    main()
