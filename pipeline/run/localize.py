"""The localize stage for one article: every image brought home, or logged and shown missing.

Writes, in this order: the images (02_assets, content-addressed), failures appended to
04_logs/assets.csv, 01_clean/<id>.html re-rendered with local paths, and last
01_clean/<id>.assets.json — its existence means "localized". 01_clean/<id>.json is left as
the extractor wrote it (original image URLs); the book applies the map itself.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from pipeline.assets.images import process_image
from pipeline.assets.sources import decode_data_uri
from pipeline.assets.store import store_image
from pipeline.net.fetch import fetch_resource
from pipeline.net.fetcher import Want
from pipeline.records.article import Article
from pipeline.records.errors import AssetError, FetchError, RetryLater, StopRequested
from pipeline.records.failures import Code, failure
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.run.stages import StageContext, save_localized
from pipeline.store.archive import Archive, utc_now
from pipeline.store.asset_map import AssetEntry, AssetMap
from pipeline.web.urls import host_of

ASSETS_LOG = "assets.csv"
ASSETS_LOG_HEADER = ("time", "task", "page", "image", "reason")
# Decoding is CPU work (Pillow releases the GIL): more images at once than cores only adds
# memory — up to ~30 MB each for a 2400 px photo — while downloads go on meanwhile.
_DECODING = threading.BoundedSemaphore(os.cpu_count() or 1)
# Every format the image stage reads; the bytes decide, this only tells servers what we take.
IMAGE_ACCEPT = "image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8,*/*;q=0.5"


@dataclass(frozen=True)
class SavedImages:
    """Where an imported page's images come from: the save's own resources first (an
    absolute URL → its bytes, or None), and the web only when the person allowed it."""

    resources: Callable[[str], bytes | None]
    fetch_missing: bool = False


def imported_record(archive: Archive, task_id: int) -> dict[str, object] | None:
    """The "imported" block of a task's 00_raw record (where its page was saved from), or
    None for a fetched page (or none stored)."""
    try:
        record = json.loads(archive.raw_meta(task_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    block = record.get("imported") if isinstance(record, dict) else None
    return block if isinstance(block, dict) else None


def _not_at_hand(url: str) -> bytes | None:
    return None


def left_by_import(archive: Archive, task_id: int) -> SavedImages | None:
    """An imported page's images when a run other than its import localizes it (the import
    was killed or stopped between batches; lost images retried): its save is not at hand,
    so an image is missing as not in the saved page — importing the files again reads them —
    and the web is asked only if the import allowed it (``--fetch-missing``). None for a
    fetched page."""
    record = imported_record(archive, task_id)
    if record is None:
        return None
    return SavedImages(_not_at_hand, record.get("fetch_missing") is True)


def image_want(settings: Settings) -> Want:
    """An image request: any body up to ``max_image_bytes``; its type is sniffed later."""
    return Want(IMAGE_ACCEPT, settings.max_image_bytes, settings.image_deadline, noun="image",
                html_page=False)


@dataclass
class Localized:
    """One pass over an article's images. ``retry`` maps the images worth another attempt to
    the seconds to wait for it: while it is not empty nothing is written, and the caller
    comes back with ``assets`` as ``previous`` and ``retry`` as ``only``."""

    assets: AssetMap
    retry: dict[str, float] = field(default_factory=dict)


def localize_stage(ctx: StageContext, task: Task, article: Article,
                   previous: AssetMap | None, attempt: int | None = None,
                   only: Collection[str] | None = None,
                   saved: SavedImages | None = None) -> Localized:
    """Localize the images of ``article`` (task ``task``); a failed image never fails it.

    Entries of ``previous`` that are stored and still on disk are kept, so a retry fetches
    only what failed; with ``only``, every other entry of ``previous`` is kept as it is (a
    later pass asks again only for what may still come). ``attempt``: each image gets that
    one attempt and a retryable failure comes back in ``retry`` (see ``Localized``); without
    it, retries happen in place. ``saved``: an imported page's images, read from its save
    before (or instead of) the web. Raises StopRequested when ``ctx.cancel`` is set; nothing is
    marked localized then.
    """
    archive, settings = ctx.archive, ctx.settings
    done = Localized(AssetMap())
    for index, url in enumerate(article.images):
        if ctx.cancel.is_set():
            raise StopRequested()
        kept = previous.entries.get(url) if previous else None
        if kept is not None and (_still_stored(archive, kept)
                                 or only is not None and url not in only):
            entry = kept
        elif index >= settings.max_images_per_article:
            entry = AssetEntry(url, error=f"more than {settings.max_images_per_article} "
                                          "images in the article")
        else:
            try:
                entry = _localize_one(ctx, task, article, url, attempt, saved)
            except RetryLater as later:
                entry = AssetEntry(url, error=later.reason)
                done.retry[url] = later.wait
        done.assets.entries[url] = entry
    if done.retry:
        return done
    failed = [entry for entry in done.assets.entries.values() if entry.error]
    _log_failures(archive, task, article.url, failed)
    save_localized(archive, task, article, done.assets)
    return done


def _still_stored(archive: Archive, entry: AssetEntry) -> bool:
    """An earlier entry is reused only if it names a content address that is on disk (the
    map is a file a person could edit; a path from it must not lead anywhere else)."""
    name = PurePosixPath(entry.path or "")
    try:
        path = archive.asset_path(name.stem, name.suffix.lstrip("."))
    except ValueError:
        return False
    return path.relative_to(archive.root).as_posix() == entry.path and path.is_file()


def _localize_one(ctx: StageContext, task: Task, article: Article, url: str,
                  attempt: int | None, saved: SavedImages | None) -> AssetEntry:
    """One image stored, or its entry with the reason; RetryLater passes through."""
    try:
        data = (decode_data_uri(url) if url.startswith("data:")
                else saved.resources(url) if saved is not None else None)
        if data is None and saved is not None and not saved.fetch_missing:
            raise AssetError(failure(Code.NOT_IN_SAVED_PAGE))
        if data is None:
            data = _download(ctx, task, article, url, attempt)
        with _DECODING:
            image = process_image(data, ctx.settings)
        path = store_image(ctx.archive, image)
    except RetryLater:
        raise
    except (AssetError, FetchError) as e:
        return AssetEntry(url, error=str(e), code=e.failure.code.value if e.failure else None)
    return AssetEntry(url, path=path, width=image.width, height=image.height)


def _download(ctx: StageContext, task: Task, article: Article, url: str,
              attempt: int | None) -> bytes:
    """The image's bytes, asked for the way its page would: same session, gate, cookies and
    retries, with the page as Referer (rules.yaml's ``referer`` for the image's or the page's
    host overrides it)."""
    page_rules = ctx.rules.for_host(host_of(article.url))
    referer = page_rules.referer or article.url
    page = fetch_resource(ctx.fetcher_for(task), url, image_want(ctx.settings),
                          referer=referer, attempt=attempt)
    return page.body


def _log_failures(archive: Archive, task: Task, page_url: str, failed: list[AssetEntry]) -> None:
    """One CSV line per image that is missing, appended to 04_logs/assets.csv."""
    if not failed:
        return
    now = utc_now()
    archive.append_csv(ASSETS_LOG, ASSETS_LOG_HEADER,
                       ((now, task.id, page_url, _loggable(entry.url), entry.error)
                        for entry in failed))


def _loggable(url: str) -> str:
    """A data: URI can be megabytes; the log keeps its head."""
    return url if not url.startswith("data:") or len(url) <= 80 else url[:77] + "…"
