"""Which local file stands for each image of an article, and how the HTML is pointed at it.

The localize stage writes one ``AssetMap`` per article (01_clean/<id>.assets.json); the clean
page and the book both rewrite the article's ``<img>`` from it, each with its own path prefix.
An image that could not be brought home becomes a visible placeholder with its alt text and a
link to the original, never a remote ``src``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class AssetEntry:
    url: str  # absolute, as the article names it
    path: str | None = None  # relative to the archive root: "02_assets/ab/<sha256>.<ext>"
    error: str | None = None  # why it is missing, when path is None
    code: str | None = None  # the failure's code (pipeline.records.failures.Code), if it has one
    width: int | None = None
    height: int | None = None


@dataclass
class AssetMap:
    entries: dict[str, AssetEntry] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return len(self.entries)

    @property
    def ok(self) -> int:
        return sum(1 for e in self.entries.values() if e.path)

    def to_json(self) -> str:
        return json.dumps({"images": [asdict(e) for e in self.entries.values()]},
                          ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str) -> AssetMap:
        return cls({d["url"]: AssetEntry(**d) for d in json.loads(text)["images"]})


MISSING_LABEL = {"zh": "图片未能保存", "en": "Image not saved"}
# The placeholder's class, which style.css sets as an inline-block box. Only a placeholder wears
# it: a page's own element that claims it (a list, a table, a nest of them) would be laid out as
# inline-blocks inside inline-blocks, which WeasyPrint measures again at every line break it
# tries (ten tag-soup articles took minutes as a PDF).
MISSING_CLASS = "missing-image"


def rewrite_images(content_html: str, href_for: Callable[[str], str | None],
                   lang: str | None = None) -> str:
    """Point every ``<img src>`` at ``href_for(src)``, or replace it with a placeholder.

    The placeholder keeps what a reader needs: the alt text and a link to the original.
    """
    from lxml import etree, html  # here: the archive's every reader imports this module

    label = MISSING_LABEL["zh" if (lang or "").startswith("zh") else "en"]
    parts = html.fragments_fromstring(content_html) if content_html.strip() else []
    wrapper = html.Element("div")
    for part in parts:
        if isinstance(part, str):
            wrapper.text = (wrapper.text or "") + part
        else:
            wrapper.append(part)
    for el in wrapper.iter():
        classes = (el.get("class") or "").split() if isinstance(el.tag, str) else []
        if MISSING_CLASS in classes:
            el.set("class", " ".join(c for c in classes if c != MISSING_CLASS))
    for img in list(wrapper.iter("img")):
        src = img.get("src") or ""
        href = href_for(src) if src else None
        if href is not None:
            img.set("src", href)
            continue
        placeholder = html.Element("span", {"class": MISSING_CLASS})
        alt = (img.get("alt") or "").strip()
        placeholder.text = f"[{label}{': ' + alt if alt else ''}] "
        if src.startswith(("http://", "https://")):
            link = etree.SubElement(placeholder, "a", href=src)
            link.text = src if len(src) <= 60 else src[:57] + "…"
        placeholder.tail = img.tail
        img.getparent().replace(img, placeholder)
    inner = html.tostring(wrapper, encoding="unicode")
    return inner[len("<div>") : -len("</div>")]
