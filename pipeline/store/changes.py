"""04_logs/changes.csv: every article a refresh found changed, a line each.

The log is for a person ("what changed in my archive this month?") and for a spreadsheet
(UTF-8 with a BOM, as tasks.csv, so Excel reads its Chinese), so each line says it all: the
task, when, the content hashes before and after (the old page is in 00_raw/history/<id>/),
the characters before and after, and one line on what changed.
Cells are formula-guarded as tasks.csv's are: a changed title may start with "=".
"""

from __future__ import annotations

import csv
from dataclasses import dataclass

from pipeline.records.article import Article
from pipeline.records.task import Task
from pipeline.store.archive import Archive
from pipeline.store.task_csv import guard_cell, unguard_cell
from pipeline.text.textdiff import quote, summary

CHANGES_LOG = "changes.csv"
CHANGES_HEADER = ("id", "when", "old_hash", "new_hash", "chars_before", "chars_after",
                  "summary", "url")


def change_summary(old: Article | None, new: Article) -> str:
    """What changed, in a line: the title when it did, then where the text did."""
    if old is None:
        return "the archived article could not be read; the new one replaces it"
    parts = []
    if old.title != new.title:
        parts.append(f"title “{quote(old.title)}” → “{quote(new.title)}”")
    if old.text != new.text:
        parts.append(summary(old.text, new.text))
    return "; ".join(parts)


def log_change(archive: Archive, task: Task, old: Article | None, new: Article,
               new_hash: str, when: str) -> None:
    row = (task.id, when, task.content_hash, new_hash, old.chars if old else "", new.chars,
           change_summary(old, new), task.url)
    archive.append_csv(CHANGES_LOG, CHANGES_HEADER,
                       [[guard_cell(str(cell)) for cell in row]])


@dataclass(frozen=True)
class Change:
    task_id: int
    when: str
    chars_before: str
    chars_after: str
    summary: str
    url: str


def read_changes(archive: Archive) -> list[Change]:
    """The log's lines, oldest first; a line a person broke is skipped, not fatal (the log
    is a record, never read back into the archive)."""
    path = archive.logs_dir / CHANGES_LOG
    if not path.exists():
        return []
    out = []
    with open(path, encoding="utf-8-sig", newline="") as f:
        for row in csv.DictReader(f):
            cells = {k: unguard_cell(v or "") for k, v in row.items() if k}
            try:
                out.append(Change(int(cells["id"]), cells["when"], cells["chars_before"],
                                  cells["chars_after"], cells["summary"], cells["url"]))
            except (KeyError, ValueError):
                continue
    return out
