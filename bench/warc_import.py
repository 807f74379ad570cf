"""A ~1 GB synthetic WARC read in bounded memory (issue 31): written in a temp folder (pages
of ~20 KB, each with one ~700 KB photo at its own address, gzipped record by record as
crawlers write them), then read by a child process, whose peak memory, time and cores are
printed. The child imports it into a fresh archive (``Workspace.import_pages``, what the
``import`` command and the window call: tasks made, pages cleaned, images localized from the
WARC), or with ``--reader-only`` only reads every page and its image through ``read_warc``.

    python -m bench.warc_import [--gigabytes 1.0] [--reader-only]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

REPO = Path(__file__).resolve().parents[1]
PHOTOS = 40  # distinct photos, each used by many pages at their own addresses
READER = """
import sys
from pathlib import Path
from lxml import html
from pipeline.intake.saved_page import ImportLimits, SavedPage
from pipeline.intake.warc_reader import read_warc
from pipeline.records.settings import Settings
pages = images = refused = 0
for found in read_warc(Path(sys.argv[1]), ImportLimits.from_settings(Settings())):
    if not isinstance(found, SavedPage):
        refused += 1
        continue
    pages += 1
    for src in html.fromstring(found.raw).xpath("//img/@src"):
        images += found.resources(src) is not None
print(f"{pages} pages, {images} images read, {refused} refused")
"""
IMPORT = """
import sys
from pathlib import Path
from pipeline.usecases.workspace import Workspace
ws = Workspace.open(Path(sys.argv[2]))
summary = ws.import_pages([Path(sys.argv[1])])
ws.close()
images = sum(t.images_ok for t in summary.imported)
print(f"{len(summary.imported)} pages imported, {images} images, {len(summary.failed)} failed,"
      f" {len(summary.duplicates)} duplicates, {len(summary.refused)} refused")
"""


def photo(seed: int) -> bytes:
    """A noisy 1200x800 JPEG of ~700 KB: incompressible, as photos are."""
    rng = random.Random(seed)
    image = Image.frombytes("RGB", (1200, 800), rng.randbytes(1200 * 800 * 3))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90)
    return out.getvalue()


def page(n: int, image_url: str) -> bytes:
    # every page its own text: a page repeating another's would be imported as its duplicate
    words = " ".join(f"word{(n * 7919 + i * 31) % 100_003}" for i in range(2800))
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Page {n}</title></head>"
            f"<body><article><h1>Page {n}</h1><p>{words}</p><img src='{image_url}'>"
            f"<p>{words}</p></article></body></html>").encode()


def write_warc(path: Path, gigabytes: float) -> int:
    """The synthetic crawl; how many pages it holds."""
    photos = [photo(seed) for seed in range(PHOTOS)]
    target = gigabytes * 1e9
    pages = 0
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=True, warc_version="1.1")
        while f.tell() < target:
            url = f"https://bench.example/{pages // 1000}/{pages}.html"
            image_url = f"https://img.bench.example/{pages}.jpg"
            for address, body, mime in ((url, page(pages, image_url), "text/html"),
                                        (image_url, photos[pages % PHOTOS], "image/jpeg")):
                http = StatusAndHeaders("200 OK", [("Content-Type", mime),
                                                   ("Content-Length", str(len(body)))],
                                        protocol="HTTP/1.1")
                writer.write_record(writer.create_warc_record(
                    address, "response", payload=io.BytesIO(body), length=len(body),
                    http_headers=http))
            pages += 1
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--gigabytes", type=float, default=1.0)
    parser.add_argument("--reader-only", action="store_true",
                        help="read every page and image, make no archive")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        warc = Path(tmp) / "crawl.warc.gz"
        started = time.perf_counter()
        pages = write_warc(warc, args.gigabytes)
        print(f"wrote {warc.stat().st_size / 1e9:.2f} GB, {pages:,} pages with a photo each,"
              f" in {time.perf_counter() - started:.0f} s")
        if args.reader_only:
            command = [sys.executable, "-c", READER, str(warc)]
        else:
            command = [sys.executable, "-c", IMPORT, str(warc), str(Path(tmp) / "archive")]
        started = time.perf_counter()
        proc = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
        elapsed = time.perf_counter() - started
        print(proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "")
        if proc.returncode != 0:
            print(proc.stderr[-2000:], file=sys.stderr)
            sys.exit(proc.returncode)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{'reader' if args.reader_only else 'import'}: {elapsed:.0f} s,"
          f" {pages / elapsed:.0f} pages/s, peak memory {peak_mb:.0f} MB,"
          f" {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
