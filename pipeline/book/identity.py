"""A stable identifier per collection, kept in 03_output/books.json.

A reader's library matches books by ``dc:identifier``: rebuilding the same collection (the whole
archive, one cat1, or one set of ids) must keep it, so a new build replaces the old book
instead of sitting beside it. The first id is a uuid5 of the archive path and the collection,
then stored, so moving the archive folder keeps it too. The file also lists each collection's
EPUB files, so a rebuild can remove volumes that no longer exist, and when it was built from
which articles under which titles a person gave them, so a book older than its articles (or
their titles) can be called out of date. The same collection bound in another format (a PDF)
is recorded the same way under the collection's ``formats``: each format is built, and goes out
of date, on its own.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pipeline.store.archive import Archive, write_atomic

REGISTRY = "books.json"


@dataclass(frozen=True)
class Collection:
    key: str  # "all", "cat1:<name>", "ids:<sorted ids>"
    title: str
    stem: str  # file name without extension


@dataclass(frozen=True)
class Built:
    """One collection as its last build left it."""

    key: str
    files: list[str]  # EPUB names in 03_output
    built_at: str  # ISO 8601, UTC
    task_ids: list[int]  # the articles bound, in book order
    # the title a person gave each article (Task.title; "" when none) as bound; None for a
    # build from before titles were recorded: nothing to compare
    titles: dict[int, str] | None = None
    format: str = "epub"  # the files' kind: "epub" (the record itself) or a key of "formats"


def built_collections(archive: Archive) -> list[Built]:
    """Every collection books.json knows, as last built, in each format (a file from before
    builds were dated has no time and no articles: it counts as out of date)."""
    out = []
    for key, record in _load(archive.output_dir / REGISTRY).items():
        out.append(_built(key, record, "epub"))
        formats = record.get("formats")
        for name, built in formats.items() if isinstance(formats, dict) else ():
            if isinstance(built, dict):
                out.append(_built(key, built, str(name)))
    return out


def _built(key: str, record: dict[str, object], format: str) -> Built:
    files = record.get("files")
    ids = record.get("task_ids")
    titles = record.get("titles")
    return Built(
        key, [f for f in files if isinstance(f, str)] if isinstance(files, list) else [],
        str(record.get("built_at") or ""),
        [i for i in ids if isinstance(i, int)] if isinstance(ids, list) else [],
        {int(i): t for i, t in titles.items() if i.isdigit() and isinstance(t, str)}
        if isinstance(titles, dict) else None, format)


def _load(path: Path) -> dict[str, dict[str, object]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    books = data.get("collections") if isinstance(data, dict) else None
    return books if isinstance(books, dict) else {}


def collection_uuid(archive: Archive, key: str) -> uuid.UUID:
    """The collection's id: the stored one, else a new uuid5 (not yet stored)."""
    stored = _load(archive.output_dir / REGISTRY).get(key, {}).get("id")
    try:
        return uuid.UUID(str(stored))
    except ValueError:
        return uuid.uuid5(uuid.NAMESPACE_URL, f"kuaibu:{archive.root.as_posix()}:{key}")


def volume_uuid(collection: uuid.UUID, index: int, count: int) -> uuid.UUID:
    """One book keeps the collection's id; volumes get ids derived from it."""
    return collection if count == 1 else uuid.uuid5(collection, f"volume {index} of {count}")


def record_build(archive: Archive, key: str, ident: uuid.UUID, files: list[Path],
                 task_ids: list[int], titles: dict[int, str], format: str = "epub"
                 ) -> list[Path]:
    """Store the collection's id and, for this ``format``, its files, time, articles and the
    titles a person gave them (``titles``: only those with one); the files of its previous
    build in this format that are gone."""
    path = archive.output_dir / REGISTRY
    books = _load(path)
    record = dict(books.get(key, {}))
    formats = record.get("formats")
    formats = dict(formats) if isinstance(formats, dict) else {}
    before = record if format == "epub" else formats.get(format)
    previous = before.get("files") if isinstance(before, dict) else None
    names = [f.name for f in files]
    # to the microsecond: an article cleaned in the same second as the build must not look newer
    built = {"files": names, "built_at": datetime.now(UTC).isoformat(), "task_ids": task_ids,
             "titles": {str(i): t for i, t in titles.items()}}
    if format == "epub":
        record.update(built)
    else:
        formats[format] = built
    record["id"] = str(ident)
    if formats:
        record["formats"] = formats
    books[key] = record
    write_atomic(path, json.dumps({"collections": books}, ensure_ascii=False, indent=1)
                 .encode("utf-8"))
    if not isinstance(previous, list):
        return []
    return [archive.output_dir / name for name in previous if isinstance(name, str)
            and name not in names and Path(name).name == name and name.endswith(f".{format}")]
