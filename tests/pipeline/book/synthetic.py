"""Synthetic archives for book tests and the build benchmark: articles written straight into
01_clean (and images into 02_assets with their map), as the clean and localize stages would."""

from __future__ import annotations

import hashlib
import io
import os

from PIL import Image

from pipeline.records.article import Article
from pipeline.records.task import Task
from pipeline.store.archive import Archive, write_atomic
from pipeline.store.asset_map import AssetEntry, AssetMap


def jpeg(width: int = 64, height: int = 48, *, noise: bool = False, seed: int = 0) -> bytes:
    """A real JPEG: flat colour (tiny) or noise (about as big as a photo of that size)."""
    if noise:
        image = Image.frombytes("RGB", (width, height), os.urandom(width * height * 3))
    else:
        image = Image.new("RGB", (width, height), (seed * 37 % 256, seed * 91 % 256, 120))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=82)
    return out.getvalue()


def store_image(archive: Archive, data: bytes, ext: str = "jpg") -> str:
    """Keep image bytes content-addressed in 02_assets; the archive-relative path."""
    digest = hashlib.sha256(data).hexdigest()
    path = archive.asset_path(digest, ext)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_bytes(data)
    return path.relative_to(archive.root).as_posix()


def add_article(archive: Archive, task_id: int, *, url: str, content_html: str, title: str = "",
                task_title: str = "", cat1: str = "", cat2: str = "", published: str | None = None,
                lang: str | None = None, author: str | None = None, status: str = "cleaned",
                images: dict[str, str | None] | None = None, text: str = "") -> Task:
    """Write one cleaned article (and, when ``images`` maps URL → stored path or None for a
    failed download, its assets map); return its task row."""
    article = Article(url=url, title=title, content_html=content_html,
                      text=text or " ".join(content_html.split())[:2000], author=author,
                      published=published, lang=lang, images=list(images or ()))
    write_atomic(archive.clean_meta(task_id), article.to_json().encode("utf-8"))
    if images is not None:
        amap = AssetMap({u: AssetEntry(u, path=p, error=None if p else "HTTP 404")
                         for u, p in images.items()})
        write_atomic(archive.assets_map(task_id), amap.to_json().encode("utf-8"))
    return Task(id=task_id, url=url, title=task_title, extracted_title=title, cat1=cat1,
                cat2=cat2, status=status, fetched_at="2024-05-01T08:00:00+00:00")
