"""PDF build speed and memory (issue 29): a big synthetic book through ``build --format pdf``.

    .venv/bin/python -m bench.pdf_build [--articles 300] [--images 900] [--page A4|A5]

The archive is the EPUB bench's (``bench.epub_build.synthesize``: cleaned articles, Chinese and
English paragraphs, localized noise JPEGs); ``build_pdfs`` then runs in a fresh child process,
so its peak RSS is the build's own. WeasyPrint lays a document out whole in memory; the PDF
splits where the EPUB does (``epub_budget_bytes``, 50 MB of chapters and images a volume), so
time grows with the book and peak memory with one volume: this prints both, the cores it ran
on, and each volume's pages and size. Issue 29's size: ``--articles 1000 --images 3000``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.epub_build import synthesize, timed_build
from pipeline.records.settings import MB, Settings


def build(root: Path, page: str) -> dict[str, object]:
    """Run in the child: the PDF build, timed, with its peak RSS and each PDF's size and pages."""
    from pipeline.book.pdf import build_pdfs

    result, figures = timed_build(root, build_pdfs, Settings().with_overrides(pdf_page=page))
    return {**figures, "pdfs": [(p.name, p.stat().st_size, _pages(p)) for p in result.pdfs]}


def _pages(pdf: Path) -> int:
    """The page count pdfinfo reads (poppler-utils), or 0 without it."""
    try:
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in info.splitlines()
                 if line.startswith("Pages:")), 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--articles", type=int, default=300)
    parser.add_argument("--images", type=int, default=900)
    parser.add_argument("--page", choices=("A4", "A5"), default="A4")
    parser.add_argument("--dir", type=Path, help="archive folder (default: a temp folder)")
    parser.add_argument("--build-only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build_only:
        print(json.dumps(build(args.build_only, args.page)))
        return
    with tempfile.TemporaryDirectory(prefix="kuaibu-bench-") as tmp:
        root = args.dir or Path(tmp) / "archive"
        start = time.perf_counter()
        image_bytes = synthesize(root, args.articles, args.images)
        print(f"synthesized {args.articles} articles, {args.images} images "
              f"({image_bytes / MB:.1f} MB) in {time.perf_counter() - start:.1f} s")
        child = subprocess.run([sys.executable, "-m", "bench.pdf_build", "--build-only",
                                str(root), "--page", args.page],
                               capture_output=True, text=True, check=True)
        report = json.loads(child.stdout.splitlines()[-1])
    print(f"cores: {os.cpu_count()}")
    print(f"build: {float(report['seconds']):.2f} s for {report['articles']} articles"
          f" ({args.page})")
    print(f"peak memory: {int(report['peak_bytes']) / MB:.1f} MB")
    for name, size, pages in report["pdfs"]:
        print(f"  {name}: {size / MB:.1f} MB, {pages} pages")


if __name__ == "__main__":
    main()
