"""Reading the archive: failures, a task's log, search, an article and its preview.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.records.article import Article
from pipeline.records.bounds import (
    SEARCH_QUERY_CHARS,
    SEARCH_QUERY_WORDS,
)
from pipeline.records.errors import ErrorKind, KuaibuError
from pipeline.records.task import Task
from pipeline.usecases.base import WorkspaceBase
from pipeline.web.urls import host_of

if TYPE_CHECKING:  # the runner, extractor and binder are imported when a use case needs them

    from pipeline.store.search import Hit as SearchHit
    from pipeline.store.search import SearchIndex


@dataclass(frozen=True)
class Preview:
    """What the window shows for one task: the chapter as the book will show it, and the
    raw page's text beside it, each part marked kept or cut."""

    task: Task
    article: Article | None
    chapter_html: str  # "" when there is no article yet; images relative to base
    base: Path  # the archive root
    stylesheet: str  # the book's CSS, for the chapter
    raw_text: str  # "" before the page is fetched
    note: str = ""  # e.g. "test of the rules as typed, not saved"
    # the raw text in runs, each True where the article kept it and False where it was cut
    # (``textdiff.kept_and_cut``); empty without an article or a raw page
    raw_parts: tuple[tuple[str, bool], ...] = ()


class Library(WorkspaceBase):
    """Reading the archive: failures, a task's log, search, an article and its preview."""

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
                if index.is_empty() and any(self.archive.clean_dir.glob("*.json")):
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
        hits = index.search(query, limit + 50)
        known = self.store.held(h.task_id for h in hits)
        return [h for h in hits if h.task_id in known][:limit]

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

    def preview(self, task: Task, article: Article | None = None, note: str = "") -> Preview:
        """The chapter the book would show for a task (``article``: one not saved, e.g. a
        rules test) and the raw page's text."""
        from pipeline.book.pages import stylesheet
        from pipeline.book.standalone import standalone_chapter
        from pipeline.extract.dom import page_text
        from pipeline.text.templating import environment
        from pipeline.text.textdiff import kept_and_cut

        if article is None:
            article = self.archive.read_article(task.id)
        env = environment(self.archive.root)
        chapter = ""
        if article is not None:
            assets = self.archive.read_assets(task.id)
            files = {url: e.path  # relative to the archive root, the preview's base
                     for url, e in (assets.entries.items() if assets else ()) if e.path}
            chapter = standalone_chapter(env, task, article, files.get).decode()
        raw_text = page_text(self.raw_html(task))
        # the title is the article's too (the chapter's heading), though not in its text
        parts = (tuple(kept_and_cut(raw_text, f"{article.title}\n{article.text}"))
                 if article and raw_text else ())
        return Preview(task=task, article=article, chapter_html=chapter, base=self.archive.root,
                       stylesheet=stylesheet(env).decode("utf-8"), raw_text=raw_text,
                       note=note, raw_parts=parts)
