"""Score Kuaibu's extraction side by side with trafilatura and readability-lxml.

    python bench/extract_quality.py [scrapinghub-dev zh-news-dev] [--data DIR] [--worst N]

Kuaibu runs through the benchmark contract (``extract_folder``); the peers get the same decoded
pages. Predictions go to a temporary folder and the dataset's own ``score.py`` prints the table.
The data stays where it is (default ``../shared/bench`` beside the repository).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from peers import DEFAULT_DATA, EXTRACTORS

from pipeline.decode import decode_html
from pipeline.extract.batch import extract_folder

TARGETS = {
    "scrapinghub-dev": "targets: F1 ≥ 0.97 (trafilatura 0.966, readability 0.963), ≤ 1 page F1<0.5",
    "zh-news-dev": "targets: F1 ≥ 0.96, ≤ 1 page F1<0.5, date ≥ 0.90, title ≥ 0.90",
}


def run_peer(name: str, pages: Path, out: Path) -> None:
    with out.open("w", encoding="utf-8") as f:
        for page in sorted(pages.glob("*.html")):
            pred = EXTRACTORS[name](decode_html(page.read_bytes()).text)
            f.write(json.dumps({"id": page.stem, **pred}, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="*", default=["scrapinghub-dev", "zh-news-dev"])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder holding datasets")
    ap.add_argument("--worst", type=int, default=0, help="list the N worst pages")
    ap.add_argument("--only-kuaibu", action="store_true", help="skip the peers (faster)")
    args = ap.parse_args(argv)
    scorer = args.data / "score.py"
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.datasets:
            dataset = args.data / name
            outs = [Path(tmp) / name / "kuaibu.jsonl"]
            outs[0].parent.mkdir(parents=True)
            extract_folder(dataset / "pages", outs[0])
            if not args.only_kuaibu:
                for peer in ("trafilatura", "readability"):
                    outs.append(Path(tmp) / name / f"{peer}.jsonl")
                    run_peer(peer, dataset / "pages", outs[-1])
            print(f"\n== {name} ==  ({TARGETS.get(name, '')})")
            sys.stdout.flush()
            cmd = [sys.executable, str(scorer), str(dataset), *map(str, outs)]
            if args.worst:
                cmd += ["--worst", str(args.worst)]
            subprocess.run(cmd, check=True)


if __name__ == "__main__":
    main()
