"""Near duplicates for a person to judge, and what they decided.

``near_pairs`` proposes the pairs of articles whose SimHashes are within
``NEAR_DUPLICATE_BITS`` (pipeline.text.dedup), except two editions of one page: URLs that differ
by a version or language marker, or pages of one site stating different versions (across
sites a stated version is the software's, not the text's: a repost elsewhere is no edition).
A person marks one of a pair the duplicate of the other, or keeps both; the decision goes to
``<archive>/duplicates.csv`` (a file they may read and edit too) and is honoured from then
on: a duplicate is neither run, refreshed nor bound, and a pair kept both is bound twice.
Until someone decides, a build leaves the later of the pair out (``Workspace.left_out``).

``dupes`` writes the proposals to 04_logs/near_duplicates.csv (for a spreadsheet) and
04_logs/near_duplicates.html (each pair with where the two texts differ, word by word).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum
from itertools import repeat
from operator import attrgetter
from pathlib import Path

from pipeline.records.article import Article
from pipeline.records.errors import KuaibuError
from pipeline.records.task import HAS_ARTICLE, Status, Task
from pipeline.store.archive import Archive, file_lock, utc_now, write_atomic
from pipeline.store.task_csv import guard_cell
from pipeline.store.tasks import LOCK_WAIT_SECONDS
from pipeline.text.dedup import NEAR_DUPLICATE_BITS, edition_marker, near_duplicate_pairs
from pipeline.text.templating import environment
from pipeline.text.textdiff import Hunk, hunks
from pipeline.web.urls import host_of

DECISIONS_HEADER = ("duplicate", "original", "decision", "decided_at")
REPORT_CSV = "near_duplicates.csv"
REPORT_HTML = "near_duplicates.html"
REPORT_HEADER = ("first_id", "second_id", "distance", "decision", "first_title",
                 "second_title", "first_url", "second_url")
HUNKS_SHOWN = 5  # places of difference the report shows a pair
# The report diffs the first this many undecided pairs (closest first): a diff takes 30–50 ms,
# and an archive of 100,000 articles holds thousands of pairs no one reads at once; the others
# say how to see theirs (``dupes --diff A B``, or the window's pair view)
REPORT_DIFFS = 100


class Decision(StrEnum):
    DUPLICATE = "duplicate"  # ``duplicate`` is a copy of ``original``: not bound
    KEEP_BOTH = "keep-both"  # both are bound; the pair is not proposed again as undecided


class DecisionsError(KuaibuError):
    """duplicates.csv does not read; it is left as it is."""


@dataclass(frozen=True)
class Decided:
    duplicate: int  # for KEEP_BOTH, the later of the two
    original: int
    decision: Decision
    decided_at: str

    @property
    def pair(self) -> tuple[int, int]:
        return min(self.duplicate, self.original), max(self.duplicate, self.original)

    def describe(self) -> str:
        if self.decision == Decision.KEEP_BOTH:
            return "keep both"
        return f"#{self.duplicate} is a duplicate of #{self.original}"


def read_decisions(path: Path) -> dict[tuple[int, int], Decided]:
    """The decisions by pair (lower id, higher id); none when the file is missing. Raises
    DecisionsError naming the line for a file that does not read."""
    if not path.exists():
        return {}
    out: dict[tuple[int, int], Decided] = {}
    with open(path, encoding="utf-8-sig", newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames is None or not {"duplicate", "original", "decision"} <= set(
                reader.fieldnames):
            raise DecisionsError(f"{path}, line 1: the header must name the columns"
                                 f" {', '.join(DECISIONS_HEADER)}")
        for row in reader:
            try:
                decided = Decided(int(row["duplicate"]), int(row["original"]),
                                  Decision(row["decision"].strip()),
                                  (row.get("decided_at") or "").strip())
            except (TypeError, ValueError):
                raise DecisionsError(
                    f"{path}, line {reader.line_num}: expected two task ids and"
                    f" 'duplicate' or 'keep-both', got {list(row.values())}") from None
            out[decided.pair] = decided
    return out


def change_decisions(path: Path, decide: Callable[[dict[tuple[int, int], Decided]], None]
                     ) -> dict[tuple[int, int], Decided]:
    """Read, change (``decide`` edits the mapping in place) and replace duplicates.csv under
    its lock, so two writers never lose each other's decisions."""
    with file_lock(path.with_name(f".{path.name}.lock"), LOCK_WAIT_SECONDS,
                   f"{path} is being saved by another writer; try again"):
        decisions = read_decisions(path)
        decide(decisions)
        buf = io.StringIO(newline="")
        writer = csv.writer(buf, lineterminator="\r\n")
        writer.writerow(DECISIONS_HEADER)
        for d in sorted(decisions.values(), key=lambda d: d.pair):
            writer.writerow((d.duplicate, d.original, d.decision.value, d.decided_at))
        write_atomic(path, buf.getvalue().encode("utf-8"))
    return decisions


def record(path: Path, duplicate: int, original: int, decision: Decision | None,
           decided_at: str = "") -> None:
    """Store one pair's decision (None: undecided again), made now or at ``decided_at`` (a
    decision put back as it was)."""
    pair = (min(duplicate, original), max(duplicate, original))

    def decide(decisions: dict[tuple[int, int], Decided]) -> None:
        if decision is None:
            decisions.pop(pair, None)
        else:
            decisions[pair] = Decided(duplicate, original, decision, decided_at or utc_now())

    change_decisions(path, decide)


_ID, _FINGERPRINT = attrgetter("id"), attrgetter("fingerprint")
# Asked about this few tasks, whether a task may be proposed is checked only of those found
# close to them (``near_pairs``)
_CHECKED_AFTER = 8


@dataclass(frozen=True)
class NearPair:
    first: Task  # the lower id
    second: Task
    distance: int
    decided: Decided | None


def near_pairs(tasks: Iterable[Task], decisions: dict[tuple[int, int], Decided],
               article_of: Callable[[int], Article | None],
               max_bits: int = NEAR_DUPLICATE_BITS,
               involving: Collection[int] | None = None) -> list[NearPair]:
    """The near-duplicate pairs of the archive's articles, closest first (with
    ``involving``, only those one of these tasks is in). A task a decision made a duplicate
    stays listed with its pair (so the decision can be changed); exact duplicates are not
    near ones. ``article_of`` reads an article (for the version a page states), only for
    the pairs the fingerprints propose. ``tasks``: the list as ``TaskStore.tasks()`` gives
    it, the trash left out.

    Asked about a few tasks (a one-article build), the others are not looked at one by one
    in Python: their fingerprints are gathered and compared in builtins, and only the tasks
    found close are checked for whether they may be proposed."""
    decided_ids = {i for pair in decisions for i in pair}

    def proposable(t: Task) -> bool:
        return t.status in HAS_ARTICLE or t.status == Status.DUPLICATE and t.id in decided_ids

    fingerprinted = list(filter(_FINGERPRINT, tasks))
    if involving is None or len(involving) > _CHECKED_AFTER:
        fingerprinted = list(filter(proposable, fingerprinted))
    ids = list(map(_ID, fingerprinted))
    by_id = dict(zip(ids, fingerprinted, strict=True))
    hashes = list(map(int, map(_FINGERPRINT, fingerprinted), repeat(16)))
    found = near_duplicate_pairs(ids, hashes, max_bits, involving)
    pairs = []
    for a, b, distance in found:
        first, second = by_id[a], by_id[b]
        if not (proposable(first) and proposable(second)):
            continue
        if edition_marker(first.url, second.url) is not None:
            continue
        if host_of(first.url) == host_of(second.url):  # a site's own editions of a page
            versions = [(article.source_version if article else None)
                        for article in (article_of(a), article_of(b))]
            if all(versions) and versions[0] != versions[1]:
                continue
        pairs.append(NearPair(first, second, distance, decisions.get((a, b))))
    return sorted(pairs, key=lambda p: (p.distance, p.first.id, p.second.id))


def text_hunks(first: int, second: int,
               article_of: Callable[[int], Article | None]) -> list[Hunk]:
    """Where the texts of two tasks' articles differ, word by word ([] without both)."""
    a, b = article_of(first), article_of(second)
    if a is None or b is None:
        return []
    return hunks(a.text, b.text)


def write_report(archive: Archive, pairs: list[NearPair],
                 article_of: Callable[[int], Article | None]) -> tuple[Path, Path]:
    """04_logs/near_duplicates.csv and .html, replaced whole (they are derived); the page
    shows where the texts differ for the first ``REPORT_DIFFS`` undecided pairs."""
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(REPORT_HEADER)
    for p in pairs:
        writer.writerow([guard_cell(str(cell)) for cell in (
            p.first.id, p.second.id, p.distance, p.decided.describe() if p.decided else "",
            p.first.display_title, p.second.display_title, p.first.url, p.second.url)])
    csv_path = archive.logs_dir / REPORT_CSV
    write_atomic(csv_path, buf.getvalue().encode("utf-8-sig"))
    entries = []
    undecided = 0
    for p in pairs:
        entry: dict[str, object] = {"pair": p, "diffed": False,
                                    "decision": p.decided.describe() if p.decided else ""}
        if p.decided is None and undecided < REPORT_DIFFS:
            undecided += 1
            found = text_hunks(p.first.id, p.second.id, article_of)
            entry.update(diffed=True, hunks=found[:HUNKS_SHOWN],
                         more=max(0, len(found) - HUNKS_SHOWN))
        entries.append(entry)
    html = environment(archive.root).get_template("near_duplicates.html.j2").render(
        entries=entries, generated=utc_now())
    html_path = archive.logs_dir / REPORT_HTML
    write_atomic(html_path, html.encode("utf-8"))
    return csv_path, html_path
