"""Every tunable default in one place.

The numbers are the seed workflow's (003: "起步参数"): they are what a polite batch archiver
uses on Chinese and Western sites alike. Pass a ``Settings`` down; never read globals.
"""

from __future__ import annotations

from collections.abc import Iterable
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

    def __post_init__(self) -> None:
        """Refuse values no run could work with (they arrive from --set and the settings
        dialog), so the mistake is named at once instead of hanging a run."""
        positive = ("connect_timeout", "read_timeout", "max_page_bytes", "per_host_connections",
                    "global_connections", "max_image_bytes", "max_images_per_article",
                    "max_image_pixels", "epub_budget_bytes", "max_redirects")
        for name in positive:
            if getattr(self, name) <= 0:
                raise ValueError(f"setting {name} must be above 0, not {getattr(self, name)}")
        for name in ("retries", "host_delay_ms", "retry_after_cap", "tasks_flush_seconds"):
            if getattr(self, name) < 0:
                raise ValueError(f"setting {name} must be 0 or more, not {getattr(self, name)}")
        if not 1 <= self.jpeg_quality <= 100:
            raise ValueError(f"setting jpeg_quality must be 1–100, not {self.jpeg_quality}")
        if self.image_max_edge < 16:
            raise ValueError(
                f"setting image_max_edge must be 16 or more, not {self.image_max_edge}")
        if self.sort_by not in ("published", "title"):
            raise ValueError(
                f"setting sort_by must be published or title, not {self.sort_by!r}")

    def with_overrides(self, **changes: Any) -> Settings:
        """A copy with some values changed; unknown names are an error, not a silent no-op."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise ValueError(f"unknown setting(s): {', '.join(unknown)}")
        return replace(self, **changes)

    def with_text_overrides(self, pairs: Iterable[str]) -> Settings:
        """A copy with ``name=value`` changes as typed on a command line (``--set``).

        Values take the type of the default: numbers, comma-separated lists of seconds, text.
        """
        changes: dict[str, Any] = {}
        for pair in pairs:
            name, eq, text = pair.partition("=")
            name = name.strip().replace("-", "_")
            if not eq or not hasattr(self, name):
                known = ", ".join(f.name for f in fields(self))
                raise ValueError(f"--set takes NAME=VALUE with NAME one of: {known}")
            default = getattr(self, name)
            try:
                if isinstance(default, tuple):
                    changes[name] = tuple(float(x) for x in text.split(",") if x.strip())
                elif isinstance(default, (int, float)):
                    changes[name] = type(default)(text)
                else:
                    changes[name] = text or None
            except ValueError:
                kind = "whole number" if isinstance(default, int) else "number"
                raise ValueError(f"--set {name}: {text!r} is not a {kind}") from None
        return self.with_overrides(**changes)
