"""Every tunable default in one place.

The numbers are the seed workflow's (003: "起步参数"): they are what a polite batch archiver
uses on Chinese and Western sites alike. Pass a ``Settings`` down; never read globals.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

MB = 1024 * 1024


@dataclass(frozen=True)
class Settings:
    # fetch (seed 003 §3.2)
    connect_timeout: float = 8.0
    read_timeout: float = 20.0
    max_page_bytes: int = 5 * MB
    retries: int = 2
    retry_waits: tuple[float, ...] = (2.0, 6.0)
    retry_after_cap: float = 120.0
    max_redirects: int = 10
    per_host_connections: int = 2
    global_connections: int = 8
    host_delay_ms: int = 300
    # truthful: names the tool and what it does, and points at no page that does not exist
    user_agent: str = "Kuaibu/0.1 (offline article archiver)"
    accept_language: str = "zh-CN,zh;q=0.9,en;q=0.8"
    cookies_file: str | None = None
    # decode: re-decode when more than this share of characters are U+FFFD (seed 003 §2.1)
    replacement_ratio: float = 0.01
    # assets (seed 003 §3.2: 1600 px, q82)
    image_max_edge: int = 1600
    jpeg_quality: int = 82
    max_image_bytes: int = 20 * MB
    max_images_per_article: int = 200
    max_image_pixels: int = 50_000_000
    # book
    epub_budget_bytes: int = 50 * MB
    sort_by: str = "published"  # or "title"
    # task list: how often the store flushes status changes to tasks.csv
    tasks_flush_seconds: float = 1.0

    def with_overrides(self, **changes: Any) -> Settings:
        """A copy with some values changed; unknown names are an error, not a silent no-op."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise ValueError(f"unknown setting(s): {', '.join(unknown)}")
        return replace(self, **changes)
