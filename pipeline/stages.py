"""One task through one stage: the I/O edge around the pure stage functions.

Each stage reads what the archive holds, calls its pure function (``fetch_page``,
``decode_html``, ``extract``), writes its output temp-then-rename and returns the changes for
the task's row. The Runner decides which stage a task needs from what the archive holds.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import requests

from pipeline.addresses import AddressPolicy
from pipeline.archive import Archive, write_atomic
from pipeline.article import Article
from pipeline.asset_map import AssetMap
from pipeline.breaker import HostBreakers
from pipeline.cookies import CookieStore
from pipeline.decode import Decoded, decode_html
from pipeline.dedup import content_hash, simhash
from pipeline.extract import extract
from pipeline.fetch import Attempt, RawPage, fetch_page
from pipeline.politeness import HostGate
from pipeline.rules import Rules
from pipeline.settings import Settings
from pipeline.tasks import Status, Task
from pipeline.templating import environment
from pipeline.urls import host_of


@dataclass
class StageContext:
    """Everything a stage needs that lives as long as the run."""

    archive: Archive
    settings: Settings
    rules: Rules
    session: requests.Session
    gate: HostGate
    breakers: HostBreakers
    cookies: CookieStore
    cancel: threading.Event
    on_attempt: Callable[[Task, Attempt], None]
    # a task's address policy from the link it was added with (see pipeline.addresses); its
    # page, redirects and images are all judged by it. None: each URL judged as a pasted link
    address_policy: Callable[[str], AddressPolicy] | None = None

    def addresses_for(self, task: Task) -> AddressPolicy | None:
        return self.address_policy(task.url) if self.address_policy is not None else None


def _header(headers: Mapping[str, str], name: str) -> str | None:
    name = name.lower()
    return next((v for k, v in headers.items() if k.lower() == name), None)


def fetch_stage(ctx: StageContext, task: Task,
                attempt: int | None = None) -> tuple[dict[str, object], bool]:
    """Download the page into 00_raw/<id>.html with its record in <id>.json (``attempt``:
    that one attempt, RetryLater when another is worth making; see ``fetch_resource``).

    Returns the task's changes and whether the stored bytes changed (False for a refetch
    that found the page as it was).
    """
    page = _fetch(ctx, task, attempt)
    changed = _store(ctx, task, page, _decode(ctx, page))
    return {"fetched_at": page.fetched_at, "error": ""}, changed


def refresh_stage(ctx: StageContext, task: Task,
                  attempt: int | None = None) -> tuple[RawPage, Article] | None:
    """Ask the site again for an archived article: None when its text is as archived (the
    same bytes, or other bytes around the same words: nothing is written then). Otherwise
    the new page is stored, the old page and its record going to 00_raw/history/<id>/, and
    returned with its article, which the caller saves. A page that fails now (FetchError,
    ExtractError for a page without an article; RetryLater as in ``fetch_stage``) writes
    nothing: the archived version stays as it was."""
    page = _fetch(ctx, task, attempt)
    if page.body == ctx.archive.raw_html(task.id).read_bytes():
        return None
    decoded = _decode(ctx, page)
    article = extract(decoded.text, page.final_url,
                      ctx.rules.for_host(host_of(page.final_url)))
    if content_hash(article.text) == task.content_hash:
        return None
    _store(ctx, task, page, decoded)
    return page, article


def _fetch(ctx: StageContext, task: Task, attempt: int | None) -> RawPage:
    return fetch_page(
        ctx.session, task.url, ctx.settings, ctx.rules.for_host(host_of(task.url)), ctx.cancel,
        gate=ctx.gate, breakers=ctx.breakers, attempt=attempt,
        addresses=ctx.addresses_for(task), cookies=ctx.cookies,
        on_attempt=lambda attempt: ctx.on_attempt(task, attempt),
    )


def _decode(ctx: StageContext, page: RawPage) -> Decoded:
    return decode_html(page.body, _header(page.headers, "Content-Type"),
                       ctx.rules.for_host(host_of(page.url)).encoding, ctx.settings)


def _store(ctx: StageContext, task: Task, page: RawPage, decoded: Decoded) -> bool:
    """00_raw/<id>.html and its record; False when those bytes were stored already."""
    record = {
        "url": page.url,
        "final_url": page.final_url,
        "status": page.status,
        "headers": dict(page.headers),
        "fetched_at": page.fetched_at,
        "elapsed": round(page.elapsed, 3),
        "redirects": list(page.redirects),
        "attempts": page.attempts,
        "encoding": decoded.encoding,
        "encoding_reason": decoded.reason,
        "bytes": len(page.body),
    }
    return ctx.archive.store_raw(task.id, page.body,
                                 json.dumps(record, ensure_ascii=False, indent=1))


def article_from_raw(archive: Archive, task: Task, rules: Rules, settings: Settings) -> Article:
    """The article in a stored raw page, with the rules given; reads only, no network.

    The rules editor calls this to preview a rule before anyone saves it.
    """
    text, url = decode_stored(archive, task, rules, settings)
    return extract(text, url, rules.for_host(host_of(url)))


def decode_stored(archive: Archive, task: Task, rules: Rules,
                  settings: Settings) -> tuple[str, str]:
    """A task's stored raw page as text, decoded as at fetch time (with the site's forced
    encoding, if any), and the final URL it came from."""
    record = json.loads(archive.raw_meta(task.id).read_text(encoding="utf-8"))
    url = record.get("final_url") or task.url
    decoded = decode_html(archive.raw_html(task.id).read_bytes(),
                          _header(record.get("headers", {}), "Content-Type"),
                          rules.for_host(host_of(url)).encoding, settings)
    return decoded.text, url


def save_clean(archive: Archive, task: Task, article: Article) -> None:
    """01_clean/<id>.html (readable in a browser) then <id>.json, the proof of completion."""
    write_clean_page(archive, task, article)
    write_atomic(archive.clean_meta(task.id), article.to_json().encode("utf-8"))


def write_clean_page(archive: Archive, task: Task, article: Article,
                     assets: AssetMap | None = None) -> None:
    """01_clean/<id>.html: the article's chapter as the book shows it, for a browser, its
    images at their local files (relative to 01_clean/) once localized, placeholders before
    and for the ones that could not be saved; 01_clean/style.css beside it."""
    from pipeline.book.pages import stylesheet
    from pipeline.book.standalone import STYLESHEET, standalone_chapter

    def href_for(src: str) -> str | None:
        entry = assets.entries.get(src) if assets is not None else None
        return f"../{entry.path}" if entry is not None and entry.path else None

    env = environment(archive.root)
    css = stylesheet(env)
    css_path = archive.clean_dir / STYLESHEET
    if not css_path.exists() or css_path.read_bytes() != css:
        write_atomic(css_path, css)
    write_atomic(archive.clean_html(task.id), standalone_chapter(env, task, article,
                                                                 href_for))


def cleaned_changes(article: Article) -> dict[str, object]:
    """The task row's view of an article."""
    return {
        "status": Status.CLEANED,
        "extracted_title": article.title,
        "chars": article.chars,
        "confidence": article.confidence,
        "content_hash": content_hash(article.text),
        "fingerprint": f"{simhash(article.text):016x}",
        "images_total": len(article.images),
        "error": "",
    }
