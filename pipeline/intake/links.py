"""Adding pasted links to the task list, with a report a person can act on."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from pipeline.records.errors import KuaibuError
from pipeline.records.failures import Failure
from pipeline.records.task import Task
from pipeline.rules.model import Rules
from pipeline.store.tasks import TaskStore
from pipeline.web.urls import UrlRejected, check_url_length, find_links, host_of, normalize_url


class SourceError(KuaibuError):
    """A file of links that cannot be read."""


def read_text_source(source: str) -> str:
    """A file's or stdin's ("-") text: UTF-8 (with or without BOM), else GB18030 (what
    Chinese Windows saves); the window's dropped files and ``add`` read it the same way."""
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as e:
        raise SourceError(f"cannot read {source}: {e.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("gb18030", errors="replace")


class PageKind(StrEnum):
    """What a harvest finds a page to be (``harvest.classify``): a list of article links, whose
    links are added, or an article itself, added as one task."""

    LIST = "list"
    DETAIL = "detail"


@dataclass
class IntakeReport:
    added: list[Task] = field(default_factory=list)
    duplicates: list[tuple[str, int]] = field(default_factory=list)  # (link, existing task id)
    rejected: list[tuple[str, Failure]] = field(default_factory=list)  # (link, why)

    def summary(self) -> str:
        return (f"added {len(self.added)}, duplicates {len(self.duplicates)},"
                f" rejected {len(self.rejected)}")


def _normalized(link: str, rules: Rules) -> str:
    """``link``'s canonical form under the rules of its site: the site's tracking_params and
    keep_params add to the defaults' (a section's list would otherwise replace them)."""
    default = rules.default
    url = normalize_url(link, default.tracking_params, keep=default.keep_params)
    site = rules.for_host(host_of(url))
    if (site.tracking_params, site.keep_params) == (default.tracking_params, default.keep_params):
        return url
    return normalize_url(link, site.tracking_params + default.tracking_params,
                         keep=site.keep_params + default.keep_params)


def task_url(link: str, rules: Rules) -> str:
    """The URL a link is a task under: its canonical form under its site's rules, within
    the length a cell takes (as given and once normalized); UrlRejected says why not."""
    check_url_length(link)
    url = _normalized(link, rules)
    check_url_length(url, encoded=True)  # each non-ASCII character grows to up to 12
    return url


def known_links(store: TaskStore, links: Iterable[str], rules: Rules | None = None
                ) -> dict[str, int]:
    """The links of ``links`` the list already holds as tasks (not in the trash), each with
    its task's id: read in the canonical form ``add_links`` would give them, so a link that
    differs only by tracking parameters or spelling is known too."""
    rules = rules or Rules()
    known: dict[str, int] = {}
    for link in links:
        try:
            existing = store.find_url(_normalized(link, rules))
        except UrlRejected:
            continue
        if existing is not None and not store.get(existing).deleted:
            known[link] = existing
    return known


def add_links(store: TaskStore, text: str, cat1: str = "", cat2: str = "",
              rules: Rules | None = None, found_on: str = "") -> IntakeReport:
    """Find every link in ``text`` and add the new ones as pending tasks.

    ``found_on``: the page the links were found on (a harvest's), recorded with each task
    added or taken back from the trash so a run judges it as that page's link; "" for links a
    person gave. A link already on the list stays as it was added.

    Tracking parameters the user listed in rules.yaml (``tracking_params``, in ``default:``
    or in a domain's section) are dropped on top of the built-in list; those under
    ``keep_params`` are kept though a list names them. Links longer than MAX_URL_CHARS, as
    pasted or once normalized, are rejected with their length: one pasted blob must not become
    a cell that makes tasks.csv unreadable.
    """
    rules = rules or Rules()
    report = IntakeReport()
    for link in find_links(text):
        try:
            url = task_url(link, rules)
        except UrlRejected as e:
            report.rejected.append((link, e.failure))
            continue
        existing = store.find_url(url)
        if existing is not None and store.get(existing).deleted:
            # added again from the trash: the task comes back as it was, files and all
            report.added.append(store.update(existing, deleted_at="", found_on=found_on))
        elif existing is not None:
            report.duplicates.append((link, existing))
        else:
            task = store.add(url, link, cat1.strip(), cat2.strip())
            report.added.append(store.update(task.id, found_on=found_on) if found_on else task)
    return report
