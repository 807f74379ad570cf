"""The Article record: what the clean stage makes of a page and every later stage reads."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Article:
    url: str
    title: str
    content_html: str
    text: str
    author: str | None = None
    published: str | None = None  # ISO 8601; with a zone offset when the page gives one
    lang: str | None = None
    images: list[str] = field(default_factory=list)  # absolute URLs, document order
    confidence: float = 0.0  # 0–1; low means "needs review"
    # Which extraction produced the text: "rules" (a content_selector), "strict", a relaxed
    # cascade pass ("unlikely candidates kept", …) or "baseline" (every prose paragraph).
    method: str = "strict"

    @property
    def chars(self) -> int:
        """Characters of body text, white space not counted (what a reader calls 字数)."""
        return len("".join(self.text.split()))

    def to_json(self) -> str:
        data: dict[str, Any] = asdict(self)
        data["chars"] = self.chars
        return json.dumps(data, ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Article:
        data = json.loads(text)
        data.pop("chars", None)
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in known})
