"""A WARC packaged as WACZ 1.1.1 (Web Archive Collection Zipped), what ReplayWeb.page opens:

    archive/data.warc.gz   the WARC, stored (a zip member is read at its offsets unpacked)
    indexes/index.cdxj     every capture, sorted (``cdxj``)
    pages/pages.jsonl      the pages, the entry points a replay lists
    datapackage.json       each file's size and SHA-256, the package's name and time
    datapackage-digest.json  the digest of datapackage.json

Every member is stored, not deflated: the WARC is gzipped record by record already, and a
reader seeks into it by the CDXJ offsets.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path

from pipeline.warc.cdxj import cdxj
from pipeline.warc.export import SOFTWARE, Exported

WACZ_VERSION = "1.1.1"
WARC_MEMBER = "archive/data.warc.gz"
_CHUNK = 1 << 20


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def pages_jsonl(exported: Exported) -> str:
    lines = [{"format": "json-pages-1.0", "id": "pages", "title": "All Pages"}]
    for number, (capture, title) in enumerate(exported.pages, start=1):
        ts = datetime.strptime(capture.timestamp, "%Y%m%d%H%M%S").replace(tzinfo=UTC)
        lines.append({"id": f"page-{number}", "url": capture.url,
                      "ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "title": title})
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def write_wacz(out: Path, warc: Path, exported: Exported, title: str) -> None:
    """The package at ``out`` (written whole; the caller renames it into place), around the
    WARC file ``warc`` that ``exported`` describes (written as ``WARC_MEMBER``)."""
    texts = {"indexes/index.cdxj": cdxj(exported.captures).encode("utf-8"),
             "pages/pages.jsonl": pages_jsonl(exported).encode("utf-8")}
    resources = [{"name": Path(WARC_MEMBER).name, "path": WARC_MEMBER,
                  "hash": f"sha256:{_file_sha256(warc)}", "bytes": warc.stat().st_size}]
    resources += [{"name": Path(name).name, "path": name,
                   "hash": f"sha256:{hashlib.sha256(data).hexdigest()}", "bytes": len(data)}
                  for name, data in texts.items()]
    package = json.dumps({
        "profile": "data-package", "wacz_version": WACZ_VERSION, "title": title,
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "software": SOFTWARE,
        "mainPageURL": exported.pages[0][0].url if exported.pages else None,
        "resources": resources,
    }, ensure_ascii=False, indent=1).encode("utf-8")
    digest = json.dumps({"path": "datapackage.json",
                         "hash": f"sha256:{hashlib.sha256(package).hexdigest()}"}).encode()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as z:
        z.write(warc, WARC_MEMBER)
        for name, data in texts.items():
            z.writestr(name, data)
        z.writestr("datapackage.json", package)
        z.writestr("datapackage-digest.json", digest)
