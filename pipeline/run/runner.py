"""The scheduler: takes tasks through the stages, politely, and can pause, stop and resume.

Workers (``settings.global_connections`` threads) take tasks from one queue ordered round-robin
by host, so no host's politeness wait holds up the others. A request worth retrying puts its
task back in the queue with a not-before time (``WorkQueue``), so a retry's wait never holds a
worker; a host that cannot be reached trips its circuit breaker (``HostBreakers``) and the
rest of its requests in the run fail at once. Which stage a task needs is read from the
archive, never from the status word, so a run after a crash or a kill picks up exactly where
the outputs end. A failed task never stops the batch.
"""


from __future__ import annotations

import csv
import io
import threading
import time
import traceback
from collections import Counter, defaultdict, deque
from collections.abc import Collection, Iterable, Mapping

from pipeline.net.breaker import HostBreakers
from pipeline.net.cookies import load_cookies
from pipeline.net.fetcher import Attempt
from pipeline.net.politeness import HostGate
from pipeline.net.render import Renderer
from pipeline.net.session import new_session
from pipeline.records.article import Article
from pipeline.records.errors import (
    DiskFull,
    ErrorKind,
    ExtractError,
    FetchError,
    RetryLater,
    StopRequested,
    TaskFileError,
)
from pipeline.records.events import Count, Listener, LogLine, Progress, TaskChanged
from pipeline.records.failures import Code, Failure, failure
from pipeline.records.settings import Settings
from pipeline.records.task import HAS_ARTICLE, Status, Task, failure_changes
from pipeline.rules.model import Rules, load_rules
from pipeline.run.localize import SavedImages, left_by_import, localize_stage
from pipeline.run.reconcile import reconcile, stage_reached
from pipeline.run.schedule import WorkQueue
from pipeline.run.stages import (
    StageContext,
    article_from_raw,
    awaits_rendering,
    cleaned_changes,
    fetch_stage,
    refresh_stage,
    save_clean,
    save_localized,
)
from pipeline.store.archive import Archive, utc_now, write_atomic
from pipeline.store.asset_map import AssetMap
from pipeline.store.changes import log_change
from pipeline.store.search import SearchIndex, SearchIndexError
from pipeline.store.tasks import TaskStore
from pipeline.text.dedup import settle_exact
from pipeline.web.addresses import SYSTEM, AddressPolicy, Network
from pipeline.web.urls import host_of

_RUNNABLE = (Status.PENDING, Status.RUNNING, Status.FETCHED, Status.CLEANED)


def _lost_images(task: Task) -> bool:
    """A localized task some of whose images could not be brought home."""
    return (task.status in (Status.LOCALIZED, Status.DONE)
            and (task.images_ok or 0) < (task.images_total or 0))


def _retried(task: Task, kinds: frozenset[ErrorKind] | None) -> bool:
    """What a retry takes up besides the runnable tasks: failed tasks of the kinds asked
    for, and (when no kind is named, since lost images are no failure) lost images."""
    if kinds is None:
        return task.status == Status.FAILED or _lost_images(task)
    return task.failure_kind in kinds


def _originals(tasks: Iterable[Task]) -> dict[str, int]:
    """Content hash → the lowest id of the tasks that hold that article."""
    out: dict[str, int] = {}
    for t in tasks:
        if t.content_hash and t.status in HAS_ARTICLE and not t.deleted:
            out[t.content_hash] = min(t.id, out.get(t.content_hash, t.id))
    return out


def interleave_by_host(tasks: Iterable[Task]) -> list[int]:
    """Task ids ordered round-robin over hosts (a, b, c, a, b, c, …)."""
    by_host: dict[str, deque[int]] = defaultdict(deque)
    for task in tasks:
        by_host[host_of(task.url)].append(task.id)
    order: list[int] = []
    queues = list(by_host.values())
    while queues:
        order.extend(q.popleft() for q in queues)
        queues = [q for q in queues if q]
    return order


class Runner:
    """One run over an archive. ``pause``/``resume``/``stop`` may be called from any thread."""

    def __init__(self, archive: Archive, store: TaskStore, settings: Settings | None = None,
                 rules: Rules | None = None, listener: Listener | None = None,
                 network: Network = SYSTEM) -> None:
        self.archive = archive
        self.network = network  # the address policy's resolver and class table (a test's)
        self.store = store
        self.settings = settings or Settings()
        self.rules = rules if rules is not None else load_rules(archive.rules_path)
        self._listener = listener or (lambda event: None)
        self._cancel = threading.Event()
        self._stopped = False  # stop() was called: a run of batches takes no more
        self._unpaused = threading.Event()
        self._unpaused.set()
        self._lock = threading.Lock()
        self._hashes: dict[str, int] = {}
        self._counts: Counter[Count] = Counter()
        self._total = 0
        self._started = 0.0
        self._refetch = False
        self._refreshing = False
        # a refreshed article's images as they were: its new map reuses those still stored
        self._previous_assets: dict[int, AssetMap] = {}
        self._retry_images = False
        # imported pages' images: read from their saves (see ``run_imported``)
        self._saved: Mapping[int, SavedImages] = {}
        self._unsaved = False  # the last save found tasks.csv broken
        self._fatal: DiskFull | None = None  # what stopped the run, to raise when it ends
        self._index: SearchIndex | None = None  # opened by the first clean
        self._index_failed = False
        self._page_tries: dict[int, int] = {}  # the next attempt of a page put back
        # a localize pass put back: the images so far, those to ask for again, the attempt
        self._image_passes: dict[int, tuple[AssetMap, frozenset[str], int]] = {}

    # -- control -----------------------------------------------------------------------------

    def pause(self) -> None:
        self._unpaused.clear()

    def resume(self) -> None:
        self._unpaused.set()

    def stop(self) -> None:
        self._stopped = True
        self._end_workers()

    def _end_workers(self) -> None:
        self._cancel.set()
        self._unpaused.set()

    @property
    def paused(self) -> bool:
        return not self._unpaused.is_set()

    # -- the run -----------------------------------------------------------------------------

    def run(self, task_ids: Iterable[int] | None = None, retry_failed: bool = False,
            refetch: bool = False, kinds: Collection[ErrorKind] | None = None,
            lock_wait: float = 0.0) -> Progress:
        """Process the runnable tasks (or just ``task_ids``); returns the final progress.

        ``retry_failed`` takes up failed tasks and lost images too; with ``kinds``, only the
        failed tasks of those kinds. ``refetch`` downloads the chosen tasks again even when
        their page is stored: a page whose bytes changed keeps its old copy in
        00_raw/history and is cleaned again.
        Raises ArchiveBusy while another run works on the same archive (still, after waiting
        ``lock_wait`` seconds for it to end).
        """
        with self.archive.run_lock(lock_wait):
            return self._run(task_ids, retry_failed, refetch,
                             frozenset(kinds) if kinds is not None else None)

    def run_imported(self, batches: Iterable[Mapping[int, SavedImages]]) -> list[Progress]:
        """Clean and localize imported pages, a batch at a time under one run lock (so no
        other run takes them, or fetches their images, in between): ``batches`` adds each
        batch's tasks with their raw pages stored, and maps their ids to where their images
        come from. A batch's saves are dropped once its tasks are done, so memory holds one
        batch. Raises ArchiveBusy, before any batch is asked for, while another run works."""
        done = []
        with self.archive.run_lock():
            for batch in batches:
                if self._stopped:
                    break
                self._cancel.clear()  # each batch's workers are stopped at its end
                self._saved = batch
                try:
                    done.append(self._run(list(batch), False, False, None))
                finally:
                    self._saved = {}
        return done

    def refresh(self, task_ids: Iterable[int]) -> Progress:
        """Ask the sites again for archived articles (politely, as any run fetches).

        An article whose text is as archived changes only its ``last_checked``, and no file
        is written. A changed one keeps its old page and record in 00_raw/history/<id>/, is
        cleaned and localized again, gets ``revised_at`` (the book says "updated on") and a
        line in 04_logs/changes.csv. One that fails now (an error page, an interstitial, no
        article) stays as archived and bindable; the reason goes to its ``refresh_error``,
        not its status. Duplicates and tasks without an article are not checked.
        """
        with self.archive.run_lock():
            return self._run(task_ids, False, False, None, refresh=True)

    def _run(self, task_ids: Iterable[int] | None, retry_failed: bool, refetch: bool,
             kinds: frozenset[ErrorKind] | None, refresh: bool = False) -> Progress:
        reconcile(self.archive, self.store)  # the unfinished writes swept first
        self._settle_duplicates()  # a run killed before it settled them
        wanted = set(task_ids) if task_ids is not None else None
        self._refetch, self._refreshing = refetch, refresh
        self._retry_images = retry_failed and kinds is None  # see _retried
        statuses: tuple[Status, ...] = _RUNNABLE + ((Status.FAILED,) if wanted else ())
        if refetch:
            statuses += (Status.LOCALIZED, Status.DONE)
        snapshot = [t for t in self.store.tasks() if not t.deleted]
        if refresh:
            tasks = [t for t in snapshot if t.status in HAS_ARTICLE
                     and self.archive.has_raw(t.id) and (wanted is None or t.id in wanted)]
        else:
            tasks = [t for t in snapshot
                     if (t.status in statuses or retry_failed and _retried(t, kinds))
                     and (wanted is None or t.id in wanted)]
        self._hashes = _originals(snapshot)
        self._total, self._counts, self._started = len(tasks), Counter(), time.monotonic()
        work = WorkQueue(interleave_by_host(tasks))
        self._page_tries, self._image_passes = {}, {}
        ctx = StageContext(
            archive=self.archive, settings=self.settings, rules=self.rules,
            session=new_session(self.settings), gate=HostGate(self.settings),
            breakers=HostBreakers(self.settings.host_failures_to_trip, self._log_trip),
            cookies=load_cookies(self.settings, self.rules), cancel=self._cancel,
            on_attempt=self._log_attempt,
            addresses=AddressPolicy.from_setting(self.settings.allow_addresses, self.network),
            renderer=Renderer(self.settings),  # Chromium starts only if a page asks for it
        )
        for warning in ctx.cookies.warnings:  # a cookie line left out, said once per run
            self.archive.append_log("fetch.log", f"{utc_now()}\t{warning}")
            self._listener(LogLine(warning))
        workers = [threading.Thread(target=self._work, args=(ctx, work), name=f"kuaibu-{n}",
                                    daemon=True)
                   for n in range(min(self.settings.global_connections, len(tasks)))]
        for w in workers:
            w.start()
        try:
            for w in workers:
                while w.is_alive():
                    w.join(0.2)
                    self._save_if_due()
        finally:
            self._end_workers()  # a KeyboardInterrupt here still lets the workers finish cleanly
            for w in workers:
                w.join()
            for task_id in work.leftover():  # put back for a retry when the run stopped
                self._put_back(task_id)
            ctx.session.close()
            if ctx.renderer is not None:
                ctx.renderer.close()
            self._close_index()
            self._settle_duplicates()
            self._save()
        if self._fatal is not None:
            raise self._fatal
        return self._progress()

    def reclean(self, task_ids: Iterable[int]) -> Progress:
        """Clean stored pages again after a rules change: no network, nothing refetched.

        Tasks with no raw page yet are left for the next run. Their images are localized
        again by the next run only if the new article names other images. A task that had an
        article keeps it when the new rules find none: its status stays, its error says "new
        rules failed: …", and a build still binds the old article.
        """
        ids = [i for i in task_ids if self.archive.has_raw(i)]
        self._total, self._counts, self._started = len(ids), Counter(), time.monotonic()
        self._hashes = _originals(t for t in self.store.tasks() if t.id not in ids)
        try:
            for task_id in ids:
                if self._cancel.is_set():
                    break
                task = self.store.get(task_id)
                had_article = task.status in HAS_ARTICLE and self.archive.has_clean(task_id)
                if self._clean(task, keep_old=had_article):
                    self._keep_assets_if_valid(task_id)
                    self._count(Count.FINISHED)
                self._save_if_due()
        finally:
            self._close_index()
            self._settle_duplicates()
            self._save()
        return self._progress()

    def _keep_assets_if_valid(self, task_id: int) -> None:
        """After a re-clean: an asset map that still covers every image stays (no download);
        one that does not is dropped, so the next run localizes the article again."""
        previous = self.archive.read_assets(task_id)
        article = self.archive.read_article(task_id)
        if previous is None or article is None:
            return
        if not set(article.images) <= set(previous.entries):
            self.archive.drop_assets_map(task_id)
            return
        assets = AssetMap({url: previous.entries[url] for url in article.images})
        save_localized(self.archive, self.store.get(task_id), article, assets)
        self._set(task_id, status=Status.LOCALIZED, images_total=assets.total,
                  images_ok=assets.ok)

    def _work(self, ctx: StageContext, work: WorkQueue) -> None:
        while (task_id := work.take(self._cancel)) is not None:
            try:
                if (wait := self._process(ctx, task_id)) is not None:
                    work.put(task_id, wait)
            except StopRequested:
                self._put_back(task_id)
                return
            except DiskFull as e:  # every task would fail the same way: stop, and say why
                self._fatal = self._fatal or e
                self.stop()
                self._put_back(task_id)
                return
            except Exception as e:  # a bug must not stop the batch; the task says what broke
                self.archive.append_log("errors.log", f"{utc_now()} #{task_id}\n"
                                        + traceback.format_exc())
                self._fail(task_id, failure(Code.INTERNAL, type(e).__name__, e),
                           ErrorKind.INTERNAL)
            finally:
                work.done()

    def _wait_unpaused(self) -> None:
        while not self._unpaused.wait(0.2):
            pass
        if self._cancel.is_set():
            raise StopRequested()

    def _process(self, ctx: StageContext, task_id: int) -> float | None:
        """Take a task as far as it goes now; the seconds after which it wants to be taken
        up again (a retry put back), else None (finished, failed or a duplicate)."""
        refetch = self._refetch and task_id not in self._image_passes
        refresh = self._refreshing and task_id not in self._image_passes
        retry_images = self._retry_images
        while True:
            self._wait_unpaused()
            reached = stage_reached(self.archive, task_id)
            task = self.store.get(task_id)
            if refresh:
                refresh = False
                step: bool | float = self._refresh(ctx, task)
            elif (reached == Status.PENDING or refetch
                  or reached == Status.FETCHED and awaits_rendering(ctx, task)):
                refetch = False
                step = self._fetch(ctx, task, reached)
            elif reached == Status.FETCHED:
                step = self._clean(task)
            elif (reached == Status.CLEANED or task_id in self._image_passes
                  or retry_images and _lost_images(task)):
                retry_images = False
                step = self._localize(ctx, task)
            else:
                if task.status != reached:
                    self._set(task_id, status=reached)
                break
            if step is False:  # failed or a duplicate: already counted finished
                return None
            if step is not True:
                return float(step)
        self._count(Count.FINISHED)
        return None

    def _fetch(self, ctx: StageContext, task: Task, reached: Status) -> bool | float:
        """The fetch stage for one task: True when the page is stored, False when it failed
        (counted finished), or the seconds to wait before its next attempt."""
        self._set(task.id, status=Status.RUNNING)
        attempt = self._page_tries.pop(task.id, 1)
        try:
            changes, changed = fetch_stage(ctx, task, attempt)
        except RetryLater as later:
            self._page_tries[task.id] = later.attempt + 1
            return later.wait
        except FetchError as e:
            self._fail(task.id, e.failure, e.kind, attempts=task.attempts + 1)
            return False
        if changed and reached != Status.PENDING:
            self.archive.forget_derived(task.id)  # made again from the new page
            self._listener(LogLine(f"#{task.id} changed since it was last fetched;"
                                   " the old copy is in 00_raw/history"))
        self._set(task.id, attempts=task.attempts + 1,
                  status=stage_reached(self.archive, task.id), **changes)
        self._count(Count.FETCHED)
        return True

    def _refresh(self, ctx: StageContext, task: Task) -> bool | float:
        """The check of one archived article (see ``refresh``): True when it changed and was
        cleaned again (its images come next), False when it is as it was or could not be
        checked (counted finished), or the seconds to wait before the next attempt."""
        attempt = self._page_tries.pop(task.id, 1)
        try:
            found = refresh_stage(ctx, task, attempt)
        except RetryLater as later:
            self._page_tries[task.id] = later.attempt + 1
            return later.wait
        except (FetchError, ExtractError) as e:
            reason = e.reason if isinstance(e, FetchError) else str(e)
            self._set(task.id, last_checked=utc_now(), refresh_error=reason)
            self._listener(LogLine(f"#{task.id} could not be checked: {reason};"
                                   " the archived version stays"))
            self._count(Count.UNCHECKED)
            self._count(Count.FINISHED)
            return False
        now = utc_now()
        if found is None:
            self._set(task.id, last_checked=now, refresh_error="")
            self._count(Count.UNCHANGED)
            self._count(Count.FINISHED)
            return False
        page, article = found
        old = self.archive.read_article(task.id)
        previous = self.archive.read_assets(task.id)
        if previous is not None:
            self._previous_assets[task.id] = previous
        self.archive.drop_assets_map(task.id)  # made again, from previous
        save_clean(self.archive, task, article)
        self._index_article(task.id, article)
        changes = cleaned_changes(article)
        log_change(self.archive, task, old, article, str(changes["content_hash"]), now)
        self._listener(LogLine(f"#{task.id} changed since it was archived;"
                               " the old copy is in 00_raw/history"))
        self._set(task.id, fetched_at=page.fetched_at, last_checked=now, revised_at=now,
                  refresh_error="", attempts=task.attempts + 1,
                  **self._standing(task.id, changes))
        self._count(Count.CHANGED)
        if self.store.get(task.id).status == Status.DUPLICATE:
            self._count(Count.FINISHED)
            return False
        return True

    def _localize(self, ctx: StageContext, task: Task) -> bool | float:
        """Bring the article's images home; a retry fetches only the ones that failed. True
        when done, or the seconds to wait before asking again for the images worth it."""
        self._set(task.id, status=Status.RUNNING)
        article = self.archive.read_article(task.id)
        if article is None:  # damaged since it was written: clean the page again
            self._image_passes.pop(task.id, None)
            self.archive.forget_derived(task.id)
            self._set(task.id, status=stage_reached(self.archive, task.id))
            return True
        saved = self._saved.get(task.id) or left_by_import(self.archive, task.id)
        if task.id in self._image_passes:
            previous, only, attempt = self._image_passes.pop(task.id)
            done = localize_stage(ctx, task, article, previous, attempt, only, saved)
        else:
            attempt = 1
            kept = (self._previous_assets.pop(task.id)
                    if task.id in self._previous_assets else None)
            done = localize_stage(ctx, task, article,
                                  kept or self.archive.read_assets(task.id), 1, saved=saved)
        if done.retry:
            self._image_passes[task.id] = (done.assets, frozenset(done.retry), attempt + 1)
            return max(done.retry.values())
        assets = done.assets
        self._set(task.id, status=Status.LOCALIZED, images_total=assets.total,
                  images_ok=assets.ok)
        self._count(Count.LOCALIZED)
        return True

    def _clean(self, task: Task, keep_old: bool = False) -> bool:
        """The clean stage for one task. False: the task failed or is a duplicate, goes no
        further and is already counted as finished. ``keep_old``: a failure leaves the
        task's article and status as they are, with the reason in its error."""
        try:
            article = article_from_raw(self.archive, task, self.rules, self.settings)
        except ExtractError as e:
            if not keep_old:
                self._fail(task.id, e.failure, e.kind)
                return False
            kept = failure(Code.NEW_RULES_FAILED, e.failure)
            self._set(task.id, **failure_changes(kept))
            self._listener(LogLine(f"#{task.id} kept its article: {kept}"))
            self._count(Count.KEPT)  # not a failure: the task still has its article
            self._count(Count.FINISHED)
            return False
        save_clean(self.archive, task, article)
        self._index_article(task.id, article)
        task = self._set(task.id, **self._standing(task.id, cleaned_changes(article)))
        self._count(Count.CLEANED)
        if task.status == Status.DUPLICATE:
            self._count(Count.FINISHED)
            return False
        return True

    def _standing(self, task_id: int, changes: dict[str, object]) -> dict[str, object]:
        """A cleaned article's changes, as a duplicate when an earlier task (a lower id)
        holds its text. A later task holding it is left to ``_settle_duplicates``, which makes
        it this one's duplicate when the run ends: which task is the original never depends
        on which finished first."""
        digest = str(changes["content_hash"])
        with self._lock:
            original = self._hashes.get(digest)
            if original is None or original > task_id:
                self._hashes[digest] = original = task_id
        if original != task_id:
            return {**changes, "status": Status.DUPLICATE, "duplicate_of": original}
        return {**changes, "duplicate_of": None}

    def _settle_duplicates(self) -> None:
        """Make each exact duplicate point at the lowest id with its text (``settle_exact``);
        a duplicate left without its original becomes one again."""
        for task_id, original in settle_exact(self.store.tasks()):
            if original is None:
                self._set(task_id, status=stage_reached(self.archive, task_id),
                          duplicate_of=None)
            else:
                self._set(task_id, status=Status.DUPLICATE, duplicate_of=original)

    def _put_back(self, task_id: int) -> None:
        """A task a stop or a full disk interrupted: back to what its outputs show. One never
        taken up (or only checked, as a refresh checks) keeps its status."""
        if self.store.get(task_id).status == Status.RUNNING:
            self._set(task_id, status=stage_reached(self.archive, task_id))

    # -- bookkeeping ---------------------------------------------------------------------------

    def _set(self, task_id: int, **changes: object) -> Task:
        task = self.store.update(task_id, **changes)
        self._listener(TaskChanged(task))
        return task

    def _fail(self, task_id: int, reason: Failure, kind: ErrorKind, **changes: object) -> None:
        self._set(task_id, status=Status.FAILED, error_kind=kind, **failure_changes(reason),
                  **changes)
        self._listener(LogLine(f"#{task_id} failed: {reason}"))
        self._count(Count.FAILED)
        self._count(Count.FINISHED)

    def _count(self, key: Count) -> None:
        with self._lock:
            self._counts[key] += 1
        if key == Count.FINISHED:
            self._listener(self._progress())

    def _progress(self) -> Progress:
        with self._lock:
            counts = dict(self._counts)
        return Progress.of(self._total, time.monotonic() - self._started, counts)

    def _index_article(self, task_id: int, article: Article) -> None:
        """Put a cleaned article in the archive's search index. The index is derived (``python
        main.py index`` makes it again), so a failure to write it is said once, not fatal."""
        try:
            with self._lock:
                if self._index is None:
                    self._index = SearchIndex.of(self.archive.root)
            self._index.put(task_id, article)
        except SearchIndexError as e:
            if not self._index_failed:
                self._index_failed = True
                self._listener(LogLine(f"search index not updated ({e});"
                                       " 'python main.py index' makes it again"))

    def _close_index(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None

    def _log_trip(self, host: str, reason: str) -> None:
        line = f"{utc_now()}\t{host}\t{reason}: its other requests in this run fail at once"
        self.archive.append_log("fetch.log", line)
        self._listener(LogLine(line))

    def _log_attempt(self, task: Task, attempt: Attempt) -> None:
        line = attempt.log_line(f"#{task.id}", utc_now())
        self.archive.append_log("fetch.log", line)
        self._listener(LogLine(line))

    def _save_if_due(self) -> None:
        """A batched save; failures.csv is written once, at the end of the run. A task list
        broken by a hand edit meanwhile is left as it is and the run goes on: its statuses
        wait in the store, and its work is in the archive either way."""
        try:
            self.store.save_if_due()
        except TaskFileError as e:
            if not self._unsaved:
                self._listener(LogLine(f"{e}; the run goes on and saves once it is fixed"))
            self._unsaved = True
        else:
            self._unsaved = False

    def _save(self) -> None:
        self.store.save()
        self._write_failures()

    def _write_failures(self) -> None:
        """04_logs/failures.csv: the failed tasks as they stand, for a person or a retry."""
        buf = io.StringIO(newline="")
        writer = csv.writer(buf, lineterminator="\r\n")
        writer.writerow(["id", "url", "reason", "attempts", "updated_at", "kind"])
        for t in self.store.tasks():
            if t.failure_kind is not None:
                writer.writerow([t.id, t.url, t.error, t.attempts, t.updated_at, t.failure_kind])
        write_atomic(self.archive.logs_dir / "failures.csv", buf.getvalue().encode("utf-8-sig"))
