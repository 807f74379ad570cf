"""A list page's article links, found and added.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from pipeline.intake.links import IntakeReport, PageKind
from pipeline.records.bounds import (
    HARVEST_LIMIT,
    NEXT_PAGES,
)
from pipeline.records.errors import KuaibuError
from pipeline.records.failures import Failure
from pipeline.rules.model import Rules
from pipeline.usecases.editing import TaskEditing
from pipeline.web.addresses import AddressPolicy
from pipeline.web.urls import host_of

if TYPE_CHECKING:  # the runner, extractor and binder are imported when a use case needs them
    from pipeline.intake.harvest import Candidate
    from pipeline.net.fetcher import Attempt, Fetcher


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
    # the links the archive held as tasks before this harvest (``known_links``), by task id
    known: dict[str, int] = field(default_factory=dict)


class Harvesting(TaskEditing):
    """A list page's article links, found and added (built on ``TaskEditing``: what a
    harvest chooses is added as pasted links are)."""

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
        known = self.known_links([c.url for c in found] if found else picked)
        report = (None if dry_run
                  else self.add_links("\n".join(picked), cat1, cat2, found_on=found_on))
        return HarvestResult(kind, reason, pages, found, chosen, report, found_on, known)

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


def _best(found: list[Candidate], limit: int | None) -> list[Candidate]:
    """The chosen candidates, only the best ``limit`` by score when given (page order breaks
    ties), in page order."""
    chosen = [c for c in found if c.chosen]
    if limit is None or limit >= len(chosen):
        return chosen
    best = sorted(range(len(chosen)), key=lambda i: (-chosen[i].score, i))[:limit]
    return [chosen[i] for i in sorted(best)]
