"""The Article record: what the clean stage makes of a page and every later stage reads."""

from __future__ import annotations

import json
from dataclasses import MISSING, asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any


class Method(StrEnum):
    """Which extraction produced an article's text. The values are what 01_clean/<id>.json
    has always held, so old records read as they are."""

    RULES = "rules"  # the site's content_selector
    STRICT = "strict"  # the cascade's first pass
    # the relaxed cascade passes, in order
    UNLIKELY_KEPT = "unlikely candidates kept"
    CLASS_WEIGHTS_OFF = "class weights off"
    CONDITIONAL_OFF = "conditional cleaning off"
    BASELINE = "baseline"  # no pass found prose: every prose paragraph of the page
    WHOLE_PAGE = "whole page"  # a short page's few words, all it holds
    JSON_LD = "json-ld"  # the body the page embeds for search engines
    NEXT_DATA = "next-data"  # … or in Next.js's __NEXT_DATA__


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
    method: Method = Method.STRICT  # which extraction produced the text
    # the version the page says it documents (a docs site's <meta name="docsearch:version">)
    source_version: str | None = None
    # the name the site gives itself (og:site_name): a title that is only this is suspect
    site_name: str | None = None
    # private-use code points clean dropped (an icon font's glyphs, a broken source's
    # characters): every reader without that font draws them as empty boxes
    private_use_dropped: int = 0

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
        """The record in an 01_clean/<id>.json. A file a person edited may hold a number or
        null where text belongs: such values are read as text, as every reader needs them.
        Raises ValueError for text that is not a JSON object (a damaged file)."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not an article record: the JSON is not an object")
        values: dict[str, Any] = {}
        for f in fields(cls):
            value = data.get(f.name)
            if f.name == "images":
                values[f.name] = [str(v) for v in value] if isinstance(value, list) else []
            elif f.name == "confidence":
                values[f.name] = float(value) if isinstance(value, (int, float)) else 0.0
            elif f.name == "private_use_dropped":
                values[f.name] = value if isinstance(value, int) and value > 0 else 0
            elif f.name == "method":  # a name no extraction writes (a hand edit): the default
                values[f.name] = Method(value) if value in set(Method) else Method.STRICT
            elif f.default is MISSING:  # url, title, content_html, text
                values[f.name] = "" if value is None else str(value)
            elif value:
                values[f.name] = str(value)
        return cls(**values)
