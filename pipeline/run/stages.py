"""One task through one stage: the I/O edge around the pure stage functions.

Each stage reads what the archive holds, calls its pure function (``fetch_page``,
``decode_html``, ``extract``), writes its output temp-then-rename and returns the changes for
the task's row. The Runner decides which stage a task needs from what the archive holds.
A page whose site's rule (or the ``render`` setting) asks for the browser is fetched as any
other, then rendered (``pipeline.net.render``); the clean stage reads the rendered DOM, stored
beside the raw bytes, so cleaning it again never needs the browser. A page the person's
browser sent (the extension, issue 33) is stored the same way by ``store_capture``.
"""

from __future__ import annotations

import html
import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jinja2
import requests

from pipeline.extract import extract
from pipeline.net.breaker import HostBreakers
from pipeline.net.cookies import CookieStore
from pipeline.net.fetch import fetch_page
from pipeline.net.fetcher import Attempt, Fetcher, RawPage
from pipeline.net.politeness import HostGate
from pipeline.net.render import Rendered, Renderer, fetch_through, wants_browser
from pipeline.records.article import Article
from pipeline.records.capture import CapturedPage
from pipeline.records.errors import ErrorKind, FetchError
from pipeline.records.failures import Code, failure
from pipeline.records.settings import Settings
from pipeline.records.task import Status, Task
from pipeline.rules.model import Rules
from pipeline.store.archive import Archive, write_atomic
from pipeline.store.asset_map import AssetMap
from pipeline.text.decode import Decoded, decode_html
from pipeline.text.dedup import content_hash, simhash
from pipeline.text.templating import environment
from pipeline.web.addresses import AddressPolicy, origin_host
from pipeline.web.urls import host_of


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
    # the run's address policy before any link is known (the setting, the network); each
    # task's is made from it by ``addresses_for``
    addresses: AddressPolicy
    # the run's browser (it starts with the first page rendered); None: none in this run
    renderer: Renderer | None = None
    # the policies made so far, by the host that vouches for them: one lookup per host a run
    _policies: dict[str, AddressPolicy] = field(default_factory=dict, init=False, repr=False)

    def addresses_for(self, task: Task) -> AddressPolicy:
        """The task's address policy (see pipeline.web.addresses): its page, redirects, images and
        browser requests are all judged by it, a found task's as its page's link."""
        origin = origin_host(task.url, task.found_on)
        policy = self._policies.get(origin)
        if policy is None:
            policy = self._policies[origin] = self.addresses.for_task(task.url, task.found_on)
        return policy

    def fetcher_for(self, task: Task) -> Fetcher:
        """What the task's requests share: the run's session, gate, breakers, cookies and
        stop, the task's address policy, and its lines in the fetch log."""
        return Fetcher(self.session, self.settings, self.rules, cancel=self.cancel,
                       gate=self.gate, breakers=self.breakers, cookies=self.cookies,
                       addresses=self.addresses_for(task),
                       on_attempt=lambda attempt: self.on_attempt(task, attempt))


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
    page, rendered = _fetch_and_render(ctx, task, attempt)
    changed = _store(ctx, task, page, decode_page(page, ctx.rules, ctx.settings), rendered)
    return {"fetched_at": page.fetched_at, "error": ""}, changed


def refresh_stage(ctx: StageContext, task: Task,
                  attempt: int | None = None) -> tuple[RawPage, Article] | None:
    """Ask the site again for an archived article: None when its text is as archived (the
    same bytes, or other bytes around the same words: nothing is written then). Otherwise
    the new page is stored, the old page and its record going to 00_raw/history/<id>/, and
    returned with its article, which the caller saves. A page that fails now (FetchError,
    ExtractError for a page without an article; RetryLater as in ``fetch_stage``) writes
    nothing: the archived version stays as it was."""
    page, rendered = _fetch_and_render(ctx, task, attempt)
    # a rendered page's shell is often the same while the data its scripts read is not
    if rendered is None and page.body == ctx.archive.raw_html(task.id).read_bytes():
        return None
    decoded = decode_page(page, ctx.rules, ctx.settings)
    text, url = ((rendered.html, rendered.final_url) if rendered is not None
                 else (decoded.text, page.final_url))
    article = extract(text, url, ctx.rules.for_host(host_of(url)), rendered=rendered is not None)
    if content_hash(article.text) == task.content_hash:
        return None
    _store(ctx, task, page, decoded, rendered)
    return page, article


def _fetch_and_render(ctx: StageContext, task: Task,
                      attempt: int | None) -> tuple[RawPage, Rendered | None]:
    """The page, and its rendering when its site's rule (else the ``render`` setting) asks
    for the browser. A browser asked for and missing fails the task before any request, its
    kind ``rules``: the rule cannot work on this machine, and ``run --kind rules`` takes the
    task up again once Chromium is installed (or the rule is changed)."""
    renderer = None
    if wants_browser(ctx.settings, ctx.rules.for_host(host_of(task.url)).render):
        renderer = ctx.renderer
        problem = failure(Code.NO_BROWSER_THIS_RUN) if renderer is None else renderer.problem()
        if problem:
            raise FetchError(problem, kind=ErrorKind.RULES)
    page = _fetch(ctx, task, attempt)
    if renderer is None:
        return page, None
    fetch = fetch_through(ctx.fetcher_for(task), page.final_url)
    rendered = renderer.render(page, fetch, ctx.cancel)
    for refused in rendered.blocked():  # the requests made are logged by fetch_resource
        ctx.on_attempt(task, Attempt(refused.url, 1, None, refused.outcome, 0.0))
    return page, rendered


def _fetch(ctx: StageContext, task: Task, attempt: int | None) -> RawPage:
    return fetch_page(ctx.fetcher_for(task), task.url, attempt=attempt)


def decode_page(page: RawPage, rules: Rules, settings: Settings) -> Decoded:
    """A fetched page's text as the fetch stage decodes it: its header's charset, the site's
    forced ``encoding`` when its rules name one (a harvest reads list pages this way too)."""
    return decode_html(page.body, _header(page.headers, "Content-Type"),
                       rules.for_host(host_of(page.url)).encoding, settings)


def _store(ctx: StageContext, task: Task, page: RawPage, decoded: Decoded,
           rendered: Rendered | None) -> bool:
    """00_raw/<id>.html (and <id>.rendered.html) and its record; False when those bytes were
    stored already."""
    record: dict[str, object] = {
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
    dom = None
    if rendered is not None:
        dom = rendered.html.encode("utf-8")
        record["rendered"] = True
        record["render"] = {
            "final_url": rendered.final_url,
            "elapsed": round(rendered.elapsed, 3),
            "bytes": len(dom),
            "requests": rendered.counts(),
            "browser_requests": [{"url": r.url, "type": r.resource_type, "outcome": r.outcome}
                                 for r in rendered.requests],
        }
    return ctx.archive.store_raw(task.id, page.body,
                                 json.dumps(record, ensure_ascii=False, indent=1), dom)


def store_capture(archive: Archive, task: Task, page: CapturedPage, at: str) -> bool:
    """A page the person's browser sent, stored as a rendered page is: its DOM in
    00_raw/<id>.rendered.html (and as <id>.html: no bytes came over the network, the DOM is
    all there is), its record saying it came from the browser, which one and when, and the
    selection, when there was one, as the document the article is cleaned from. False when
    the same DOM and selection are stored already; an earlier copy goes to history as a
    refetch's does."""
    dom = page.html.encode("utf-8")
    capture: dict[str, object] = {"by": "browser", "browser": page.browser, "at": at,
                                  "title": page.title}
    if page.selection.strip():
        capture["selection"] = selection_document(page.title, page.selection)
    record: dict[str, object] = {
        "url": task.url,  # first: Archive.fetched_url reads it from the record's head
        "final_url": page.url,
        "fetched_at": at,
        "encoding": "utf-8",
        "encoding_reason": "the browser's DOM",
        "bytes": len(dom),
        "rendered": True,
        "render": {"final_url": page.url, "bytes": len(dom)},
        "capture": capture,
    }
    return archive.store_raw(task.id, dom, json.dumps(record, ensure_ascii=False, indent=1),
                             dom, new_record=_selection(archive, task) != capture.get("selection"))


def _selection(archive: Archive, task: Task) -> object:
    """The selection a task's stored capture holds (None: none, or no capture)."""
    try:
        record = json.loads(archive.raw_meta(task.id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return (record.get("capture") or {}).get("selection") if isinstance(record, dict) else None


def selection_document(title: str, selection: str) -> str:
    """The person's selection as a page of its own, under the page's title: the article is
    what they selected, and nothing else of the page can be taken for it."""
    return ('<!DOCTYPE html><html><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title></head><body>"
            f'<article data-kuaibu-selection="">{selection}</article></body></html>')


def article_from_raw(archive: Archive, task: Task, rules: Rules, settings: Settings) -> Article:
    """The article in a stored raw page, with the rules given; reads only, no network.

    The rules editor calls this to preview a rule before anyone saves it.
    """
    stored = decode_stored(archive, task, rules, settings)
    return extract(stored.text, stored.url, rules.for_host(host_of(stored.url)),
                   rendered=stored.rendered)


def awaits_rendering(ctx: StageContext, task: Task) -> bool:
    """A page stored unrendered whose site now asks for the browser (a needs-javascript
    failure taken up again after the rule was set): it is fetched again and rendered, not
    cleaned as the shell it is. An imported page is what the person saved: never fetched
    in its place."""
    if not wants_browser(ctx.settings, ctx.rules.for_host(host_of(task.url)).render):
        return False
    record = json.loads(ctx.archive.raw_meta(task.id).read_text(encoding="utf-8"))
    return not record.get("rendered") and not record.get("imported")


@dataclass(frozen=True)
class StoredPage:
    """A stored page as the clean stage reads it: its text, the address it came from and
    whether that text is a browser's DOM (a shell even the browser left empty is then not
    told to turn rendering on)."""

    text: str
    url: str
    rendered: bool


def decode_stored(archive: Archive, task: Task, rules: Rules,
                  settings: Settings) -> StoredPage:
    """A task's stored raw page as text, decoded as at fetch time (with the site's forced
    encoding, if any), and the final URL it came from; for a rendered page, its DOM as the
    browser left it (UTF-8) and the address the browser ended at; for a capture of a
    selection, the selection (``selection_document``)."""
    record = json.loads(archive.raw_meta(task.id).read_text(encoding="utf-8"))
    url = record.get("final_url") or task.url
    selection = (record.get("capture") or {}).get("selection")
    if isinstance(selection, str):  # a capture of what the person selected
        return StoredPage(selection, url, True)
    rendered = archive.raw_rendered(task.id)
    if record.get("rendered") and rendered.exists():
        return StoredPage(rendered.read_text(encoding="utf-8"),
                          record.get("render", {}).get("final_url") or url, True)
    decoded = decode_html(archive.raw_html(task.id).read_bytes(),
                          _header(record.get("headers", {}), "Content-Type"),
                          rules.for_host(host_of(url)).encoding, settings)
    return StoredPage(decoded.text, url, False)


def save_clean(archive: Archive, task: Task, article: Article) -> None:
    """01_clean/<id>.html (readable in a browser) then <id>.json, the proof of completion;
    then its summary in the book's cache (``entry_cache``) and its id in the clean journal
    (index.html's pages follow it)."""
    from pipeline.book.entry_cache import EntryCache

    write_clean_page(archive, task, article)
    write_atomic(archive.clean_meta(task.id), article.to_json().encode("utf-8"))
    with EntryCache(archive) as cache:
        cache.put_articles([(task.id, article)])
    archive.note_changed([task.id])


def save_localized(archive: Archive, task: Task, article: Article, assets: AssetMap) -> None:
    """The clean page with its images at their local files, then 01_clean/<id>.assets.json,
    the proof of completion; then what index.html shows of it in the book's cache, and its
    id in the clean journal."""
    from pipeline.book.entry_cache import EntryCache

    write_clean_page(archive, task, article, assets)
    write_atomic(archive.assets_map(task.id), assets.to_json().encode("utf-8"))
    with EntryCache(archive) as cache:
        cache.put_images([(task.id, assets)])
    archive.note_changed([task.id])


@lru_cache(maxsize=8)
def _page_environment(root: Path, overridden: bool) -> jinja2.Environment:
    """An archive's templates for its clean pages, made once per process and per whether the
    archive has a templates/ folder (a new environment per page was a fifth of the clean
    stage's time; an edited template is read again by Jinja itself). Jinja environments
    render from many threads at once."""
    return environment(root)


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

    env = _page_environment(archive.root, (archive.root / "templates").is_dir())
    css = stylesheet(env)  # read each time: a person may be editing an override
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
