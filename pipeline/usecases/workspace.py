"""The use cases: one archive as the command line, the demo and the window work on it.

Both faces call only this layer (and the records it hands out: ``Task``, ``Article``,
``Settings``, ``Archive`` paths), so an action does the same thing whichever face asked for it:
the window's Build marks tasks done as ``build`` does, a domain's re-clean picks the same tasks.
Every change to tasks.csv goes through the ``TaskStore``, which merges it into the file as it
is; nothing here keeps a copy of the list that it writes back whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.intake.links import IntakeReport, PageKind, add_links
from pipeline.records.article import Article
from pipeline.records.bounds import (
    HARVEST_LIMIT,
    NEXT_PAGES,
    SEARCH_QUERY_CHARS,
    SEARCH_QUERY_WORDS,
)
from pipeline.records.errors import ErrorKind, KuaibuError, TaskFileError
from pipeline.records.events import Listener, Progress
from pipeline.records.failures import Failure
from pipeline.records.settings import Settings
from pipeline.records.task import HAS_ARTICLE, Status, Task
from pipeline.rules.model import Rules, load_rules, parse_rules
from pipeline.store.archive import Archive, ArchiveBusy
from pipeline.store.tasks import TaskStore
from pipeline.web.addresses import SYSTEM, AddressPolicy, Network
from pipeline.web.urls import host_in_domain, host_of

if TYPE_CHECKING:  # the runner, extractor and binder are imported when a use case needs them
    from pipeline.book import BuildResult
    from pipeline.intake.harvest import Candidate
    from pipeline.net.fetcher import Attempt, Fetcher
    from pipeline.rules.findings import Node as PageNode
    from pipeline.rules.findings import RuleEffect, Suggestion
    from pipeline.run.report import Report as RunReport
    from pipeline.run.runner import Runner
    from pipeline.store.changes import Change
    from pipeline.store.duplicates import NearPair
    from pipeline.store.search import Hit as SearchHit
    from pipeline.store.search import SearchIndex
    from pipeline.text.textdiff import Hunk

# What a person may change in a task's row, from either face.
EDITABLE_FIELDS = ("title", "cat1", "cat2")
# How many of a site's stored pages "Pick content" checks a selector on.
SITE_PAGES = 30


# A task list that lacks more than this share of the tasks whose pages 00_raw holds (or
# holds none of them) is taken for an emptied or cut-short file, not a person's deletions
# (the trash is the way to take many off the list), and refused until ``recover``.
TRUNCATED_SHARE = 0.5


class NoSuchTask(KuaibuError):
    """A task id that the list does not hold."""


class NoArchive(KuaibuError):
    """The folder named is not there (only the commands that add tasks make an archive)."""


class ReadOnlyArchive(KuaibuError):
    """What was asked would write to an archive this process cannot write to."""


class TaskListTruncated(TaskFileError):
    """tasks.csv lacks most of the archive's tasks (emptied, or cut short): loading it would
    lose them. The message is one line with the count and what to run. A TaskFileError: like a
    file that does not parse, it is never merged into nor written over (a run logs it once
    and goes on, the window says it and follows the file again once it is whole)."""

    def __init__(self, path: Path, lost: int, archived: int) -> None:
        super().__init__(f"{path} lacks {lost:,} of the {archived:,} tasks whose pages 00_raw"
                         " holds; opening it would lose them: run 'python main.py recover' to"
                         " rebuild the list from 00_raw (nothing was changed)")
        self.lost, self.archived = lost, archived


@dataclass(frozen=True)
class Recovery:
    """What ``recover`` did: the tasks brought back from their records in 00_raw, how many
    the list held already, and the records it left out (id, why)."""

    restored: list[int]
    held: int
    left_out: list[tuple[int, str]]


@dataclass(frozen=True)
class Trial:
    """One stored page under rules being tried: its article now, and under those rules."""

    task: Task
    before_chars: int | None  # the stored article's; None when it has none
    before_confidence: float | None
    after_chars: int | None  # None when the rules find no article
    after_confidence: float | None
    error: str = ""  # why the rules find no article

    @property
    def change(self) -> int:
        return (self.after_chars or 0) - (self.before_chars or 0)

    @property
    def lost(self) -> bool:
        """An article the page had, gone under these rules."""
        return self.before_chars is not None and self.after_chars is None


@dataclass(frozen=True)
class Undone:
    """An undone rules change: the saved copy the file came back from, and the tasks of the
    sections it changed (to clean again)."""

    restored_from: Path
    sections: list[str]
    task_ids: list[int]


@dataclass(frozen=True)
class Book:
    """A book in 03_output as its last build left it, and whether the archive has moved on:
    articles added to its collection or gone from it, or cleaned again since it was bound."""

    key: str  # its collection: "all", "cat1:<name>", or a set of ids
    files: list[Path]
    built_at: str
    task_ids: list[int]  # the articles bound, in book order
    added: int = 0
    gone: int = 0
    cleaned_again: int = 0

    @property
    def articles(self) -> int:
        return len(self.task_ids)

    @property
    def out_of_date(self) -> bool:
        return bool(self.added or self.gone or self.cleaned_again) or not self.built_at


@dataclass(frozen=True)
class Preview:
    """What the window shows for one task: the chapter as the book will show it, and the
    raw page's text beside it (what was cut)."""

    task: Task
    article: Article | None
    chapter_html: str  # "" when there is no article yet; images relative to base
    base: Path  # the archive root
    stylesheet: str  # the book's CSS, for the chapter
    raw_text: str  # "" before the page is fetched
    note: str = ""  # e.g. "test of the rules as typed, not saved"


@dataclass(frozen=True)
class HarvestResult:
    """What a harvest of a list page found: the first page's kind and why, the pages read,
    every candidate (each page's in page order; those the page's address policy refuses say
    why) and the chosen ones; ``report`` is the add report (None on a dry run)."""

    kind: PageKind
    reason: Failure  # why (not a failure: ``pipeline.records.failures`` says harvest's reasons too)
    pages: list[str]
    candidates: list[Candidate]
    chosen: list[Candidate]
    report: IntakeReport | None
    # the list page as given: the candidates' ``found_on`` when added (a detail page is the
    # person's own link, added as pasted)
    found_on: str = ""


class Workspace:
    """One open archive: its folder, its task list and the settings the faces run with."""

    def __init__(self, archive: Archive, store: TaskStore, settings: Settings,
                 network: Network = SYSTEM, read_only: bool = False) -> None:
        self.archive = archive
        self.store = store
        self.settings = settings
        self.network = network  # the address policy's resolver and class table (a test's)
        self.reconciled = 0  # statuses corrected when it was opened
        # the folder cannot be written (a mounted backup, a disc, another user's folder):
        # only what reads works; see ``open``
        self.read_only = read_only

    @classmethod
    def open(cls, root: Path, settings: Settings | None = None,
             network: Network = SYSTEM, *, create: bool = True) -> Workspace:
        """Open an archive; statuses are made to agree with the stage outputs, unless a run is
        working on it (the run does that itself when it starts). A missing folder is made
        with ``create``, else refused (a typo must not leave an empty archive behind). A
        folder this process cannot write is opened read-only: nothing is made, reconciled or
        locked, the task list is read as the file says. ``network`` is the address policy's
        resolver and class table (a test's hook). A task list that lacks most of the
        archive's tasks raises TaskListTruncated, nothing written (see ``TRUNCATED_SHARE``;
        ``recover`` brings them back); on a read-only archive, where nothing can be lost,
        it is read as it is."""
        workspace = cls._load(root, settings, network, create=create, vet=True)
        if not workspace.read_only:
            refuse_truncated(workspace.archive, workspace.store)
            workspace.reconciled = workspace.reconcile()
        return workspace

    @classmethod
    def _load(cls, root: Path, settings: Settings | None, network: Network = SYSTEM, *,
              create: bool, vet: bool) -> Workspace:
        """The archive and its list as read (see ``open``); ``vet``: the list refuses to
        take in a file cut short by another writer meanwhile (every face but ``recover``)."""
        settings = settings or Settings()
        root = Path(root)
        if not root.exists() and not create:
            raise NoArchive(f"no archive at {root} ('add', 'harvest' or 'demo' makes one)")
        if root.exists() and not root.is_dir():
            raise NoArchive(f"{root} is a file, not an archive folder")
        read_only = root.exists() and not Archive(root.resolve()).writable
        archive = Archive(root.resolve()) if read_only else Archive.open(root)
        store = TaskStore(archive.tasks_path, flush_seconds=settings.tasks_flush_seconds,
                          ids=archive, vet=partial(refuse_truncated, archive) if vet else None)
        return cls(archive, store, settings, network, read_only=read_only)

    def refuse_writing(self, what: str) -> None:
        """Raise ReadOnlyArchive when the archive is read-only, ``what`` saying what would
        have written to it (e.g. "'index' writes search.db"); nothing otherwise."""
        if self.read_only:
            raise ReadOnlyArchive(f"{self.archive.root} is read-only here: {what}; status,"
                                  " search, books, report --out and build --out only read")

    @classmethod
    def recover(cls, root: Path, settings: Settings | None = None) -> tuple[Workspace, Recovery]:
        """Rebuild the task list from the records in 00_raw (the records are the truth): each
        record whose id the list lacks comes back as a task with its id, URL and fetch time,
        its article's title and figures when 01_clean holds it; the rows still in the file
        stay as they are. Written under the list's lock, merged into the file as it is. A
        record whose URL the list holds under another id, or that names none, is left out
        and set aside to 00_raw/history/<id>/ (kept). Raises ArchiveBusy during a run."""
        workspace = cls._load(root, settings, create=False, vet=False)
        workspace.refuse_writing("'recover' writes tasks.csv")
        archive = workspace.archive
        restored: list[int] = []
        left_out: list[tuple[int, str]] = []
        with archive.run_lock(), workspace.store.transaction() as store:
            held = {t.id for t in store.tasks()}
            archived = sorted(archive.record_ids())
            for task_id in archived:
                if task_id in held:
                    continue
                task = workspace._recovered(task_id)
                if isinstance(task, str):
                    left_out.append((task_id, task))
                elif (other := store.find_url(task.url)) is not None:
                    left_out.append((task_id, f"its page is in the list as #{other}"))
                else:
                    store.insert(task)
                    restored.append(task_id)
            for task_id, _ in left_out:
                archive.set_aside(task_id)
            left_out = [(i, f"{why}; kept in 00_raw/history/{i}") for i, why in left_out]
        workspace.reconciled = workspace.reconcile()
        return workspace, Recovery(restored, len(archived) - len(restored) - len(left_out),
                                   left_out)

    def _recovered(self, task_id: int) -> Task | str:
        """A task as its record in 00_raw and its outputs tell it, or why they cannot."""
        import json

        from pipeline.records.task import TASK_IDS
        from pipeline.run.runner import stage_reached
        from pipeline.run.stages import cleaned_changes
        from pipeline.store.archive import utc_now

        try:
            record = json.loads(self.archive.raw_meta(task_id).read_bytes())
        except (OSError, ValueError):
            return "its record in 00_raw is not readable JSON"
        url = record.get("url") if isinstance(record, dict) else None
        if not isinstance(url, str) or "://" not in url or task_id not in TASK_IDS:
            return "its record in 00_raw names no link"
        fetched = str(record.get("fetched_at") or "")
        task = Task(id=task_id, url=url, original_url=url, added_at=fetched or utc_now(),
                    fetched_at=fetched, updated_at=utc_now())
        if (article := self.archive.read_article(task_id)) is not None:
            for name, value in cleaned_changes(article).items():
                setattr(task, name, value)
            if (assets := self.archive.read_assets(task_id)) is not None:
                task.images_ok = assets.ok
        task.status = stage_reached(self.archive, task_id)
        return task

    def reconcile(self) -> int:
        """Move each status to what the archive's outputs show (after a kill, a hand edit);
        how many changed. Nothing while a run holds the archive: its tasks are in flight."""
        from pipeline.run.runner import reconcile

        try:
            with self.archive.run_lock():
                self.archive.sweep_unfinished_writes()
                # judged on the file as it is: a run that just ended saved statuses (a
                # failure after the fetch among them) this store has not seen yet
                self.store.merge_file()
                changed = reconcile(self.archive, self.store)
                if changed:
                    self.store.save()
                return changed
        except ArchiveBusy:
            return 0

    # -- the task list ---------------------------------------------------------------------------

    def tasks(self) -> list[Task]:
        """The task list, the trash left out."""
        return [t for t in self.store.tasks() if not t.deleted]

    def trash(self) -> list[Task]:
        """The tasks taken off the list and not yet gone for good."""
        return [t for t in self.store.tasks() if t.deleted]

    def task(self, task_id: int) -> Task:
        try:
            return self.store.get(task_id)
        except KeyError:
            raise NoSuchTask(f"no task #{task_id} in {self.archive.tasks_path}") from None

    def refresh(self) -> bool:
        """Take in what other writers (a run, a terminal, a person in Excel) saved meanwhile;
        False when the file is as this workspace last saw it. A file emptied or cut short
        meanwhile raises TaskListTruncated and is not taken in: the list stays as it was."""
        return self.store.merge_file()

    def add_links(self, text: str, cat1: str = "", cat2: str = "",
                  folders_as_categories: bool = False, found_on: str = "") -> IntakeReport:
        """Add the links in ``text`` as pending tasks and save, ids and duplicate checks
        decided on the file as it is. ``folders_as_categories``: a bookmarks export's links
        are filed by their folders (the outermost the category, the rest the subcategory);
        links outside any folder get ``cat1``/``cat2``. ``found_on``: the page a harvest
        found them on (``HarvestResult.found_on``), so a run judges them as its links."""
        from pipeline.web.urls import bookmark_folders

        rules = self.rules()
        folders = bookmark_folders(text) if folders_as_categories else {}
        with self.store.transaction() as store:
            if not folders:
                return add_links(store, text, cat1, cat2, rules, found_on)
            report = IntakeReport()
            by_folder: dict[tuple[str, ...], list[str]] = {}
            for link, path in folders.items():
                by_folder.setdefault(path, []).append(link)
            for path, links in by_folder.items():
                one = add_links(store, "\n".join(links), path[0] if path else cat1,
                                " / ".join(path[1:]) if path else cat2, rules)
                report.added += one.added
                report.duplicates += one.duplicates
                report.rejected += one.rejected
            return report

    def harvest(self, url: str, cat1: str = "", cat2: str = "", *, pattern: str | None = None,
                same_site: bool = True, limit: int | None = None, next_pages: int = 0,
                dry_run: bool = False) -> HarvestResult:
        """The article links of a list page (and of at most ``next_pages`` of its next pages),
        added as tasks with the categories given; a detail page is added as one task. Depth 1:
        the pages found are never read here. ``limit``: the best ``limit`` by rank, kept in
        page order. The pages are fetched with the archive's settings, rules, cookies and
        politeness, as a run fetches them. The links found are the page's: its next pages are
        fetched, and its candidates judged, by the list page's address policy; those it
        refuses are never chosen, and the tasks added remember the page (``found_on``)."""
        import re

        from pipeline.intake.harvest import classify
        from pipeline.net.cookies import load_cookies
        from pipeline.net.fetcher import Fetcher
        from pipeline.net.politeness import HostGate
        from pipeline.net.session import new_session
        from pipeline.web.urls import normalize_url

        # said without the CLI's flag names (the CLI checks its flags before this, in its words)
        for name, value, bound in (("the limit", limit, HARVEST_LIMIT),
                                   ("next pages", next_pages, NEXT_PAGES)):
            try:
                if value is not None:
                    bound.check(value)
            except ValueError as e:
                raise KuaibuError(f"{name} {e}") from None
        try:
            re.compile(pattern or "")
        except re.error as e:
            raise KuaibuError(
                f"the pattern {pattern!r} is not a regular expression ({e})") from None
        rules = self.rules()
        found: list[Candidate] = []
        list_url = normalize_url(url)
        # the list page is the person's link; what it links to is its own, so its next
        # pages and candidates are judged by its policy (as AddressPolicy.for_task(link,
        # found_on=list_url) makes it for each: the page vouches for all of them)
        addresses = self._addresses().for_task(list_url)
        # one session and gate for the pages of one harvest: the next page waits its turn
        # at the host as a run's requests do
        with new_session(self.settings) as session:
            fetch = partial(self._harvest_page, Fetcher(
                session, self.settings, rules, gate=HostGate(self.settings),
                cookies=load_cookies(self.settings, rules), addresses=addresses,
                on_attempt=self._log_harvest_attempt))
            page_url, html = fetch(list_url)
            kind, reason = classify(html, page_url)
            if kind is PageKind.DETAIL:
                pages, picked, found_on = [page_url], [page_url], ""
            else:
                pages, found = self._harvest_list(fetch, page_url, html, rules, pattern,
                                                  same_site, next_pages, addresses)
                picked, found_on = [c.url for c in _best(found, limit)], list_url
        chosen = [c for c in found if c.url in set(picked)]
        report = (None if dry_run
                  else self.add_links("\n".join(picked), cat1, cat2, found_on=found_on))
        return HarvestResult(kind, reason, pages, found, chosen, report, found_on)

    def _harvest_list(self, fetch: Callable[[str], tuple[str, str]], url: str, html: str,
                      rules: Rules, pattern: str | None, same_site: bool,
                      next_pages: int,
                      addresses: AddressPolicy) -> tuple[list[str], list[Candidate]]:
        """The candidates of a list page and its next pages, each URL once (at its first
        place: a list that moves while it is read shows an article twice), those the page's
        ``addresses`` refuse marked so."""
        from pipeline.intake.harvest import candidates, next_page, ranked, refuse_by_address

        pages: list[str] = [url]
        found: list[Candidate] = []
        seen: set[str] = set()
        while True:
            site = rules.for_host(host_of(url)).article_link_pattern
            for c in candidates(html, url, pattern=pattern, same_site=same_site,
                                site_pattern=site):
                if c.url not in seen:
                    seen.add(c.url)
                    found.append(c)
            nxt = next_page(html, url)
            if len(pages) > next_pages or nxt is None or nxt in pages:
                return pages, ranked(refuse_by_address(found, addresses))
            url, html = fetch(nxt)
            pages.append(url)

    def _harvest_page(self, fetcher: Fetcher, url: str) -> tuple[str, str]:
        """One page fetched and decoded as the fetch stage does (the site's forced encoding
        honoured): its final URL and its text."""
        from pipeline.net.fetch import fetch_page
        from pipeline.run.stages import decode_page

        page = fetch_page(fetcher, url)
        return page.final_url, decode_page(page, fetcher.rules, self.settings).text

    def _log_harvest_attempt(self, attempt: Attempt) -> None:
        from pipeline.store.archive import utc_now

        self.archive.append_log("fetch.log", attempt.log_line("harvest", utc_now()))

    def edit(self, task_ids: Iterable[int], **changes: str) -> list[Task]:
        """Set a person's fields (``EDITABLE_FIELDS``) on tasks; saved by the next ``save``."""
        bad = sorted(set(changes) - set(EDITABLE_FIELDS))
        if bad:
            raise KuaibuError(f"cannot edit {', '.join(bad)}; only {', '.join(EDITABLE_FIELDS)}")
        values = {name: value.strip() for name, value in changes.items()}
        return [self.store.update(self.task(i).id, **values) for i in task_ids]

    def remove(self, task_ids: Iterable[int]) -> None:
        """Move tasks to the trash: off the list, out of runs and books, their files kept
        until the trash is emptied (``restore`` brings them back); saved by ``save``."""
        from pipeline.store.archive import utc_now

        now = utc_now()
        for task_id in task_ids:
            self.store.update(self.task(task_id).id, deleted_at=now)

    def restore(self, task_ids: Iterable[int]) -> list[Task]:
        """Take tasks out of the trash, as they were; saved by ``save``."""
        return [self.store.update(self.task(i).id, deleted_at="") for i in task_ids]

    def empty_trash(self) -> int:
        """Remove the trashed tasks for good: their rows, pages, articles and index entries
        (images stay: named by their content, another article may show the same one). Saved
        at once; how many went."""
        from pipeline.store.search import SearchIndex, SearchIndexError

        gone = [t.id for t in self.trash()]
        if not gone:
            return 0
        for task_id in gone:
            self.archive.forget(task_id)
        try:
            index = SearchIndex.of(self.archive.root)
            try:
                index.drop(gone)
            finally:
                index.close()
        except SearchIndexError:
            pass  # derived, and a search leaves out ids not on the list: 'index' tidies it
        self.store.remove(gone)
        self.store.save()
        return len(gone)

    def save(self) -> None:
        self.store.save()

    def close(self) -> None:
        """Save what is unsaved; a workspace with nothing to say writes nothing, nor does a
        read-only one (a file it would convert, e.g. UTF-16, stays as it is)."""
        if self.store.dirty and not self.read_only:
            self.store.save()

    def counts(self) -> Counter[Status]:
        return Counter(t.status for t in self.tasks())

    def failures(self) -> list[tuple[ErrorKind, list[Task]]]:
        """The failed tasks by kind, the commonest kind first (the one worth a retry of its
        own), ties in ``ErrorKind`` order."""
        by_kind: dict[ErrorKind, list[Task]] = {}
        for t in self.tasks():
            if (kind := t.failure_kind) is not None:
                by_kind.setdefault(kind, []).append(t)
        order = list(ErrorKind)
        return sorted(by_kind.items(), key=lambda kv: (-len(kv[1]), order.index(kv[0])))

    def failures_by_domain(self) -> list[tuple[str, list[Task]]]:
        """The failed tasks by host, the host with most failures first (a dead site, a site
        that blocks: retried, or fixed in its rules, together)."""
        by_host: dict[str, list[Task]] = {}
        for t in self.tasks():
            if t.failure_kind is not None:
                by_host.setdefault(host_of(t.url), []).append(t)
        return sorted(by_host.items(), key=lambda kv: (-len(kv[1]), kv[0]))

    def fetch_log(self, task_id: int, limit: int = 50) -> list[str]:
        """The last ``limit`` lines of 04_logs/fetch.log about one task: each request, its
        try number, what came back and how long it took (what a failure's reason is from)."""
        path = self.archive.logs_dir / "fetch.log"
        if not path.exists():
            return []
        marker = f"\t#{task_id}\t"
        with open(path, encoding="utf-8", errors="replace") as f:
            return [line.rstrip("\n") for line in f if marker in line][-limit:]

    def near_duplicates(self) -> list[NearPair]:
        """Pairs of articles whose texts are nearly the same, closest first, with what a
        person decided of each (see pipeline.store.duplicates); editions of one page are left out.
        Articles cleaned before fingerprints were what they are now get theirs first."""
        from pipeline.store.duplicates import near_pairs, read_decisions

        self._fill_fingerprints()
        return near_pairs(self.tasks(), read_decisions(self.archive.decisions_path),
                          self.article)

    def left_out(self) -> dict[int, int]:
        """What a build leaves out: the later task of each near-duplicate pair no one has
        judged → the task it nearly repeats."""
        return {p.second.id: p.first.id for p in self.near_duplicates() if p.decided is None}

    def exact_duplicates(self, pairs: Iterable[NearPair]) -> list[Task]:
        """The duplicates a run set aside (the same text, or the same link at intake): every
        task marked duplicate except those a person's decision on one of ``pairs`` made so."""
        judged = {(p.first.id, p.second.id) for p in pairs}
        judged |= {(b, a) for a, b in judged}
        return [t for t in self.tasks() if t.status == Status.DUPLICATE
                and (t.id, t.duplicate_of) not in judged]

    def dupes_report(self) -> tuple[list[NearPair], Path, Path]:
        """The near duplicates, written to 04_logs/near_duplicates.csv and .html."""
        from pipeline.store.duplicates import write_report

        pairs = self.near_duplicates()
        csv_path, html_path = write_report(self.archive, pairs, self.article)
        return pairs, csv_path, html_path

    def run_report(self) -> RunReport:
        """The run report over the list as the file says now (see pipeline.run.report): the
        read-through sample seeded by the archive and the day, so it holds for a day."""
        from pipeline.run.report import build_report

        self.store.merge_file()  # a run in another process may have finished tasks
        seed = f"{self.archive.root}|{datetime.now(UTC).date().isoformat()}"
        return build_report(self.tasks(), self.archive.read_article, self.archive.read_assets,
                            sample_seed=seed, site_names=[self.archive.name])

    def report(self) -> Path:
        """Write 04_logs/report.html (what went wrong and where to look); its path."""
        return self.write_report(self.run_report())

    def write_report(self, report: RunReport) -> Path:
        from pipeline.run.report import write_report

        self.refuse_writing("the report writes 04_logs/report.html (report --out - prints it)")
        return write_report(self.archive, report)

    def render_report(self, report: RunReport) -> str:
        """The report page as ``write_report`` writes it, to put elsewhere (``report --out``)."""
        from pipeline.run.report import render_report

        return render_report(self.archive, report)

    def pair_differences(self, pair: NearPair) -> list[Hunk]:
        """Where the two texts of a pair differ, word by word."""
        from pipeline.store.duplicates import pair_hunks

        return pair_hunks(pair, self.article)

    def mark_duplicate(self, duplicate: int, original: int) -> None:
        """A person's decision: ``duplicate`` is a copy of ``original``, so it is not bound
        (nor run or refreshed) until the decision changes."""
        from pipeline.store.duplicates import Decision, record

        if duplicate == original:
            raise KuaibuError(f"#{duplicate} cannot be a duplicate of itself")
        first, second = self.task(duplicate), self.task(original)
        record(self.archive.decisions_path, first.id, second.id, Decision.DUPLICATE)
        with self.store.transaction() as store:
            self._undo_decided(store, original, duplicate)
            store.update(duplicate, status=Status.DUPLICATE, duplicate_of=original)

    def keep_both(self, a: int, b: int) -> None:
        """A person's decision: both of a near-duplicate pair are bound."""
        from pipeline.store.duplicates import Decision, record

        first, second = sorted((self.task(a).id, self.task(b).id))
        record(self.archive.decisions_path, second, first, Decision.KEEP_BOTH)
        self._undecide_tasks(first, second)

    def undecide(self, a: int, b: int) -> None:
        """Take a pair's decision back: it is proposed again, as if never judged."""
        from pipeline.store.duplicates import record

        record(self.archive.decisions_path, a, b, None)
        self._undecide_tasks(a, b)

    def _undecide_tasks(self, a: int, b: int) -> None:
        with self.store.transaction() as store:
            self._undo_decided(store, a, b)
            self._undo_decided(store, b, a)

    def _undo_decided(self, store: TaskStore, task_id: int, of: int) -> None:
        """``task_id`` back to what its outputs show if it was made a duplicate of ``of``."""
        from pipeline.run.runner import stage_reached

        task = store.get(task_id)
        if task.status == Status.DUPLICATE and task.duplicate_of == of:
            store.update(task_id, status=stage_reached(self.archive, task_id),
                         duplicate_of=None)

    def _fill_fingerprints(self) -> None:
        from pipeline.text.dedup import simhash

        missing = [t for t in self.tasks() if not t.fingerprint and t.status in HAS_ARTICLE]
        for t in missing:
            if (article := self.article(t.id)) is not None:
                self.store.update(t.id, fingerprint=f"{simhash(article.text):016x}")
        if missing and not self.read_only:  # read-only: computed for this look, not kept
            self.store.save()

    # -- rules -----------------------------------------------------------------------------------

    def rules(self) -> Rules:
        """rules.yaml as saved; a broken file raises RulesError naming its line."""
        return load_rules(self.archive.rules_path)

    def rules_text(self) -> str:
        """rules.yaml's text as saved ("" before there is one); RulesError when it is too
        large or not UTF-8, so that no one opens, or edits, what cannot be read back."""
        from pipeline.rules.yaml_file import read_rules_text

        path = self.archive.rules_path
        return read_rules_text(path) if path.exists() else ""

    @property
    def rules_history(self) -> Path:
        """04_logs/rules-history/: each rules.yaml as it was before a save, oldest first."""
        return self.archive.logs_dir / "rules-history"

    def save_rules(self, text: str) -> Rules:
        """Write rules.yaml, after checking it (a file that does not validate is refused);
        the file as it was is kept in ``rules_history`` first, for ``undo_rules``."""
        from pipeline.store.archive import utc_now, write_atomic

        rules = parse_rules(text, str(self.archive.rules_path))
        path, data = self.archive.rules_path, text.encode("utf-8")
        if path.exists() and path.read_bytes() != data:
            self.rules_history.mkdir(parents=True, exist_ok=True)
            # sorted by name is oldest first: the count keeps saves within a second apart
            count = len(list(self.rules_history.glob("*.yaml")))
            stamp = utc_now().replace(":", "").replace("+00:00", "Z")
            write_atomic(self.rules_history / f"{count:05d}-{stamp}.yaml", path.read_bytes())
        write_atomic(path, data)
        return rules

    def set_rules(self, section: str, values: Mapping[str, object | None]) -> Rules:
        """Set keys of one section of rules.yaml (None removes a key), the rest of the file
        and its comments kept, then save it as ``save_rules`` does (checked first; the old
        file kept for ``undo_rules``): what the window's one-click rules and ``rules set``
        write."""
        path = self.archive.rules_path
        self.rules()  # a file that does not validate is refused before it is touched
        changed = self.edit_rules_text(self.rules_text(), section.strip().lower(), values)
        if changed is None:
            raise KuaibuError(f"section {section} of {path.name} is written inline"
                              " ({…}); edit it by hand")
        return self.save_rules(changed)

    def check_rules(self, text: str) -> Rules:
        """Rules text as a person types it, checked as rules.yaml is when read (RulesError
        naming its line), not saved: the rules editor's check as you type, and its preview."""
        return parse_rules(text, self.archive.rules_path.name)

    @staticmethod
    def edit_rules_text(text: str, section: str,
                        values: Mapping[str, object | None]) -> str | None:
        """``text`` with one section's keys set to ``values`` (None removes a key; comments
        and the other sections kept), not saved: ``set_rules``, and the rules editor's form
        writing into its text. None when the section is written inline (``site: {a: b}``),
        which only the text itself can change."""
        from pipeline.rules.text_edit import FlowSectionError, set_section_keys

        try:
            return set_section_keys(text, section, values)
        except FlowSectionError:
            return None

    def browser_problem(self) -> Failure | None:
        """What to install before pages can be rendered (None: Playwright and a Chromium are
        there), so an option to render says so instead of failing later."""
        from pipeline.net.render import browser_problem

        return browser_problem(self.settings)

    def render_sites(self, task_ids: Iterable[int]) -> list[str]:
        """Have the tasks' sites rendered with the browser from now on (``render: browser``
        in the section each host's rules come from, else one for the host); the sections
        set. Refused, writing nothing, when no browser can render here."""
        if problem := self.browser_problem():
            raise KuaibuError(problem)
        rules = self.rules()
        sections = sorted({rules.section_for_host(host_of(self.task(i).url)) for i in task_ids})
        for section in sections:
            self.set_rules(section, {"render": "browser"})
        return sections

    def undo_rules(self) -> Undone | None:
        """Put back rules.yaml as it was before the last save, byte for byte; the tasks of
        the sections that changed are the caller's to clean again. None: nothing to undo."""
        from pipeline.records.errors import RulesError
        from pipeline.store.archive import write_atomic

        saved = sorted(self.rules_history.glob("*.yaml")) if self.rules_history.is_dir() else []
        if not saved:
            return None
        last = saved[-1]
        try:
            now: Rules | None = self.rules()
        except RulesError:  # edited by hand into a broken file: every section may differ
            now = None
        restored = load_rules(last)  # one the checks now refuse is not put back
        write_atomic(self.archive.rules_path, last.read_bytes())
        last.unlink()
        sections = (restored.sections_differing(now) if now is not None
                    else ["default"])
        if "default" in sections:
            ids = self.reclean_ids()
        else:
            ids = sorted({i for d in sections for i in self.reclean_ids(domain=d)})
        return Undone(last, sections, ids)

    def rule_effects(self, task: Task, rules: Rules) -> list[RuleEffect]:
        """What each of the rules for the task's host does on its stored page ([] before
        the page is fetched)."""
        from pipeline.extract.effects import rule_effects

        html = self.raw_html(task, rules)
        return rule_effects(html, rules.for_host(host_of(task.url))) if html else []

    def try_rules(self, rules: Rules, *, domain: str | None = None,
                  task_ids: Iterable[int] | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  stop: Callable[[], bool] | None = None) -> list[Trial]:
        """Every stored page of a domain (or the tasks named) extracted again with ``rules``,
        nothing written: each with its article before and after, the ones that got worse
        first (articles lost, then the largest losses)."""
        from pipeline.records.errors import ExtractError

        ids = self.reclean_ids(task_ids, domain)
        trials: list[Trial] = []
        for done, task_id in enumerate(ids, start=1):
            if stop is not None and stop():
                break
            task = self.task(task_id)
            before = self.archive.read_article(task_id)
            try:
                after: Article | None = self.test_rules(task, rules)
                error = ""
            except ExtractError as e:
                after, error = None, str(e)
            trials.append(Trial(
                task, before.chars if before else None, before.confidence if before else None,
                after.chars if after else None, after.confidence if after else None, error))
            if progress is not None:
                progress(done, len(ids))
        return sorted(trials, key=lambda t: (not t.lost, t.change, t.task.id))

    # -- running ---------------------------------------------------------------------------------

    def runner(self, listener: Listener | None = None) -> Runner:
        """A Runner on this archive (its pause, resume and stop are the caller's to use)."""
        from pipeline.run.runner import Runner

        return Runner(self.archive, self.store, self.settings, listener=listener,
                      network=self.network)

    def _addresses(self) -> AddressPolicy:
        """The address policy before any link is known: the setting, over this network."""
        return AddressPolicy.from_setting(self.settings.allow_addresses, self.network)

    def run(self, task_ids: Iterable[int] | None = None, *, retry_failed: bool = False,
            refetch: bool = False, kinds: Iterable[ErrorKind] | None = None,
            listener: Listener | None = None) -> Progress:
        """Fetch, clean and localize the runnable tasks (or ``task_ids``)."""
        return self.runner(listener).run(task_ids, retry_failed=retry_failed, refetch=refetch,
                                         kinds=list(kinds) if kinds is not None else None)

    def refresh_ids(self, task_ids: Iterable[int] | None = None, cat1: str | None = None,
                    older_than: timedelta | None = None) -> list[int]:
        """The archived articles a check for updates takes: those named, or of a category
        (stored or display name), or all; with ``older_than``, only those not checked (or
        fetched, when never checked) for that long. Duplicates are never checked."""
        from pipeline.book.collect import select

        chosen = select(self.tasks(), cat1=cat1,
                        task_ids=set(task_ids) if task_ids is not None else None)
        if older_than is not None:
            cutoff = datetime.now(UTC) - older_than
            chosen = [t for t in chosen if _before(t.last_checked or t.fetched_at, cutoff)]
        return [t.id for t in chosen if self.archive.has_raw(t.id)]

    def check_updates(self, task_ids: Iterable[int],
                      listener: Listener | None = None) -> Progress:
        """Ask the sites again for archived articles (see ``Runner.refresh``)."""
        return self.runner(listener).refresh(list(task_ids))

    def changes(self, since: str = "") -> list[Change]:
        """The lines of 04_logs/changes.csv written at ``since`` (an ISO time) or later."""
        from pipeline.store.changes import read_changes

        return [c for c in read_changes(self.archive) if c.when >= since]

    def reclean_ids(self, task_ids: Iterable[int] | None = None,
                    domain: str | None = None) -> list[int]:
        """The stored pages a re-clean takes: the tasks named, or those of a domain and its
        sub-domains, or every task. Duplicates are named only by id: a rules change cuts an
        original and its duplicate alike, and only the original is bound."""
        if task_ids is not None:
            chosen = [self.task(i) for i in task_ids]
        else:
            chosen = [t for t in self.tasks() if t.status != Status.DUPLICATE
                      and (domain is None or host_in_domain(host_of(t.url), domain))]
        return [t.id for t in chosen if self.archive.has_raw(t.id)]

    def reclean(self, task_ids: Iterable[int], listener: Listener | None = None) -> Progress:
        """Clean stored pages again with the saved rules: no network, nothing refetched."""
        return self.runner(listener).reclean(list(task_ids))

    # -- the book --------------------------------------------------------------------------------

    def build(self, *, cat1: str | None = None, split_by: str | None = None,
              task_ids: Iterable[int] | None = None, title: str | None = None,
              progress: Callable[[int, int], None] | None = None,
              out: Path | None = None) -> BuildResult:
        """Bind the articles as the task list says now into EPUB books (in 03_output, or in
        ``out``); the localized ones that went in are marked done, unless the archive is
        read-only. Of a near-duplicate pair no one has judged, the later task is left out
        (``BuildResult.left_out``): a repost is not bound twice until a person says "keep
        both"."""
        from dataclasses import replace

        from pipeline.book import build_books
        from pipeline.book.collect import select

        if out is None:
            self.refuse_writing("binding writes 03_output (build --out DIR binds elsewhere)")
        archive = self.archive if out is None else self.archive.with_output(out)
        self.store.merge_file()  # a run may have finished tasks since this face last looked
        left_out = self.left_out()
        result = build_books(archive, [t for t in self.tasks() if t.id not in left_out],
                             self.settings, cat1=cat1, split_by=split_by,
                             task_ids=set(task_ids) if task_ids is not None else None,
                             title=title, progress=progress)
        wanted = {t.id for t in select(self.tasks(), cat1=cat1, task_ids=(
            set(task_ids) if task_ids is not None else None))}
        result = replace(result, left_out=sorted(
            (dup, of) for dup, of in left_out.items() if dup in wanted))
        if self.read_only:
            return result
        with self.store.transaction() as store:
            for task_id in result.task_ids:
                try:
                    bound = store.get(task_id)
                except KeyError:
                    continue  # taken off the list while the book was bound
                if bound.status == Status.LOCALIZED:
                    store.update(task_id, status=Status.DONE)
        return result

    # -- searching ---------------------------------------------------------------------------------

    def search(self, query: str, limit: int = 50,
               note: Callable[[str], None] | None = None) -> list[SearchHit]:
        """The articles holding every word of ``query``, best first, with marked snippets;
        tasks taken off the list are not among them. An archive whose index is missing (one
        older than the index, or the file deleted) has it made first. When the file cannot
        be made or written (a full disk, a read-only archive) the articles are searched in
        an index made in memory from 01_clean/, and ``note`` hears why; a damaged file is
        SearchIndexError (``rebuild_index`` replaces it)."""
        from pipeline.store.search import IndexProblem, SearchIndex, SearchIndexError

        words = len(query.split())
        if len(query) > SEARCH_QUERY_CHARS or words > SEARCH_QUERY_WORDS:
            raise KuaibuError(f"a search takes at most {SEARCH_QUERY_WORDS} words and"
                              f" {SEARCH_QUERY_CHARS:,} characters, not {words:,} words and"
                              f" {len(query):,} characters")
        try:
            index = SearchIndex.of(self.archive.root, read_only=self.read_only)
            try:
                if len(index) == 0 and any(self.archive.clean_dir.glob("*.json")):
                    self._rebuild(index)
                return self._hits(index, query, limit)
            finally:
                index.close()
        except SearchIndexError as e:
            if e.problem not in (IndexProblem.FULL, IndexProblem.READ_ONLY):
                raise
            if note is not None:
                note(f"{e}; searched 01_clean without it")
        index = SearchIndex.in_memory()
        try:
            self._rebuild(index)
            return self._hits(index, query, limit)
        finally:
            index.close()

    def _hits(self, index: SearchIndex, query: str, limit: int) -> list[SearchHit]:
        known = {t.id for t in self.tasks()}
        return [h for h in index.search(query, limit + 50) if h.task_id in known][:limit]

    def rebuild_index(self) -> int:
        """Make the search index again from 01_clean/; how many articles it holds. A damaged
        file is replaced: the index is derived, and this is how it is made again."""
        from pipeline.store.search import INDEX_NAME, IndexProblem, SearchIndexError

        self.refuse_writing("making the search index writes search.db")
        try:
            return self._rebuild_file()
        except SearchIndexError as e:
            if e.problem is not IndexProblem.DAMAGED:
                raise
        for suffix in ("", "-wal", "-shm"):
            (self.archive.root / f"{INDEX_NAME}{suffix}").unlink(missing_ok=True)
        return self._rebuild_file()

    def _rebuild_file(self) -> int:
        from pipeline.store.search import SearchIndex

        index = SearchIndex.of(self.archive.root)
        try:
            return self._rebuild(index)
        finally:
            index.close()

    def _rebuild(self, index: SearchIndex) -> int:
        articles = ((t.id, a) for t in self.store.tasks()
                    if (a := self.archive.read_article(t.id)) is not None)
        return index.rebuild(articles)

    def books(self) -> list[Book]:
        """Every book the archive's builds made that is still in 03_output."""
        from datetime import datetime

        from pipeline.book.collect import display_category, select
        from pipeline.book.identity import built_collections

        collections = built_collections(self.archive)
        if not collections:  # nothing to compare: the near-duplicate search is not needed
            return []
        left_out = self.left_out()
        bindable = [t for t in select(self.tasks()) if t.id not in left_out]
        out = []
        for built in collections:
            files = [self.archive.output_dir / f for f in built.files
                     if (self.archive.output_dir / f).is_file()]
            if not files:
                continue
            bound = set(built.task_ids)
            if built.key == "all":
                now = {t.id for t in bindable}
            elif built.key.startswith("cat1:") and "|" not in built.key:
                shown = built.key.removeprefix("cat1:")
                now = {t.id for t in bindable if (display_category(t.cat1) if t.cat1 else "")
                       == shown}
            else:  # a set of ids chosen by hand: only what left it counts
                now = bound & {t.id for t in bindable}
            stamp = (datetime.fromisoformat(built.built_at).timestamp() if built.built_at
                     else 0.0)
            again = sum(1 for i in bound & now if self.archive.has_clean(i)
                        and self.archive.clean_meta(i).stat().st_mtime > stamp)
            out.append(Book(built.key, files, built.built_at, built.task_ids, len(now - bound),
                            len(bound - now), again))
        return out

    # -- reading one task ------------------------------------------------------------------------

    def article(self, task_id: int) -> Article | None:
        return self.archive.read_article(task_id)

    def raw_html(self, task: Task, rules: Rules | None = None) -> str:
        """The stored raw page, decoded as the clean stage decodes it ("" before fetch). A
        rules.yaml being edited into a broken state still lets the page show."""
        from pipeline.records.errors import RulesError
        from pipeline.run.stages import decode_stored

        if not self.archive.has_raw(task.id):
            return ""
        if rules is None:
            try:
                rules = self.rules()
            except RulesError:
                rules = Rules()
        return decode_stored(self.archive, task, rules, self.settings).text

    def test_rules(self, task: Task, rules: Rules) -> Article:
        """The article of a stored page with ``rules`` (as typed, maybe unsaved); no network.
        Raises ExtractError when they find no article."""
        from pipeline.run.stages import article_from_raw

        return article_from_raw(self.archive, task, rules, self.settings)

    def suggest(self, task: Task, rules: Rules) -> Suggestion:
        """"Pick content": a content selector for the element holding what the extractor
        itself picks (the rules' own content_selector set aside), checked on the domain's
        other stored pages (how many it finds the article in), with why when no single
        element holds the article."""
        from pipeline.extract.suggest import suggest

        automatic = Rules(default=rules.default)
        article = self.test_rules(task, automatic)
        return suggest(self.raw_html(task, automatic), article.text,
                       self._site_pages(task, automatic))

    def selector_for_element(self, task: Task, path: str, rules: Rules) -> Suggestion:
        """The stable selector for an element a person picked on the task's stored page
        (``path`` from ``element_tree``), checked on the domain's other stored pages."""
        from pipeline.extract.suggest import selector_for_element
        from pipeline.records.errors import ExtractError

        automatic = Rules(default=rules.default)
        try:
            text = self.test_rules(task, automatic).text
        except ExtractError:
            text = ""
        return selector_for_element(self.raw_html(task, automatic), path,
                                    self._site_pages(task, automatic), text)

    def element_tree(self, task: Task) -> list[PageNode]:
        """The blocks of the task's stored page that hold text, to pick one from."""
        from pipeline.extract.suggest import element_tree

        html = self.raw_html(task)
        return element_tree(html) if html else []

    def _site_pages(self, task: Task, rules: Rules, limit: int = SITE_PAGES) -> list[str]:
        """The stored pages of the task's host other than its own, the latest ``limit``
        (a selector checked on a few dozen is checked well enough, and each costs a parse)."""
        host = host_of(task.url)
        others = [t for t in self.tasks() if t.id != task.id and host_of(t.url) == host
                  and self.archive.has_raw(t.id)]
        return [self.raw_html(t, rules) for t in others[-limit:]]

    def preview(self, task: Task, article: Article | None = None, note: str = "") -> Preview:
        """The chapter the book would show for a task (``article``: one not saved, e.g. a
        rules test) and the raw page's text."""
        from pipeline.book.pages import stylesheet
        from pipeline.book.standalone import standalone_chapter
        from pipeline.extract.dom import page_text
        from pipeline.text.templating import environment

        if article is None:
            article = self.archive.read_article(task.id)
        env = environment(self.archive.root)
        chapter = ""
        if article is not None:
            assets = self.archive.read_assets(task.id)
            files = {url: e.path  # relative to the archive root, the preview's base
                     for url, e in (assets.entries.items() if assets else ()) if e.path}
            chapter = standalone_chapter(env, task, article, files.get).decode()
        return Preview(task=task, article=article, chapter_html=chapter, base=self.archive.root,
                       stylesheet=stylesheet(env).decode("utf-8"),
                       raw_text=page_text(self.raw_html(task)), note=note)

    def render(self, url: str) -> Article:
        """A page rendered in the browser and extracted, nothing stored: a quick check of what
        a site's ``render: browser`` rule would archive (``python main.py render URL``). The
        page and every request of the browser are fetched with the archive's settings, rules,
        cookies and politeness, as a run fetches them. Raises KuaibuError naming what to
        install when this machine cannot render; FetchError, ExtractError as a run fails."""
        from pipeline.extract import extract
        from pipeline.net.cookies import load_cookies
        from pipeline.net.fetch import fetch_page
        from pipeline.net.fetcher import Fetcher
        from pipeline.net.politeness import HostGate
        from pipeline.net.render import Renderer, fetch_through
        from pipeline.net.session import new_session

        rules = self.rules()
        gate, cookies = HostGate(self.settings), load_cookies(self.settings, rules)
        addresses = self._addresses().for_task(url)
        with Renderer(self.settings) as renderer, new_session(self.settings) as session:
            if problem := renderer.problem():
                raise KuaibuError(problem)
            fetcher = Fetcher(session, self.settings, rules, gate=gate, cookies=cookies,
                              addresses=addresses)
            page = fetch_page(fetcher, url)
            rendered = renderer.render(page, fetch_through(fetcher, page.final_url))
        return extract(rendered.html, rendered.final_url,
                       rules.for_host(host_of(rendered.final_url)), rendered=True)


def refuse_truncated(archive: Archive, store: TaskStore) -> None:
    """Raise TaskListTruncated when ``store`` (the file as read) lacks more than
    ``TRUNCATED_SHARE`` of the tasks whose pages 00_raw holds, or all of them."""
    archived = archive.record_ids()
    lost = len(archived - store.ids())
    if archived and (lost == len(archived) or lost > TRUNCATED_SHARE * len(archived)):
        raise TaskListTruncated(archive.tasks_path, lost, len(archived))


def _best(found: list[Candidate], limit: int | None) -> list[Candidate]:
    """The chosen candidates, only the best ``limit`` by score when given (page order breaks
    ties), in page order."""
    chosen = [c for c in found if c.chosen]
    if limit is None or limit >= len(chosen):
        return chosen
    best = sorted(range(len(chosen)), key=lambda i: (-chosen[i].score, i))[:limit]
    return [chosen[i] for i in sorted(best)]


def _before(stamp: str, cutoff: datetime) -> bool:
    """Whether an ISO time in a task's row is before ``cutoff``; an empty or unreadable one
    (a hand edit) counts as long ago."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return True
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)) < cutoff
