"""Which URL an ``<img>`` really shows (issue 5, "Finding the real image"; seed 003 §2.3).

Lazy-loading pages keep the real address in ``data-src``/``data-srcset`` (and site-specific
attributes from rules.yaml) and put a placeholder in ``src``: a lazy attribute stands in for its
plain twin. Of what remains, ``<picture><source>`` and ``srcset`` come first (the largest
candidate not wider than the size cap), then ``src``, then the ``<noscript>`` copy a page keeps
for browsers without JavaScript. Placeholders (1×1 GIFs, tiny ``data:`` URIs, spinners) never
win over a real source. Every URL is made absolute here, against ``<base href>`` when the page
has one, before anything is downloaded (the seed's order).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes, urljoin

from lxml import etree

from pipeline.records.errors import AssetError

DEFAULT_LAZY_SRC = ("data-src", "data-original", "data-lazy-src", "data-actualsrc",
                    "data-echo", "data-url")
LAZY_SRCSET = ("data-srcset", "data-lazy-srcset")
LAZY_BACKGROUND = ("data-bg", "data-background", "data-background-image")
# A data: URI this short holds a placeholder (a 1×1 GIF is about 70 characters), not a picture.
TINY_DATA_URI = 512
# Types a <picture><source> may offer that Kuaibu cannot keep; the next source is used instead.
_UNREADABLE_TYPES = frozenset({"image/svg+xml", "image/jxl", "image/heic", "image/heif"})
# A file is a placeholder when its name is made only of these words (and sizes like 1x1),
# at least one of them a word no real picture is named by alone: "lazy-bg.jpg" is not one.
_PLACEHOLDER_WORDS = frozenset({"blank", "spacer", "pixel", "transparent", "placeholder",
                                "loading", "loader", "lazy", "lazyload", "spinner", "grey",
                                "gray", "empty", "clear", "trans"})
_FILLER_WORDS = frozenset({"img", "image", "default", "white", "small", "icon", "gif", "dot"})
_SIZE_WORD = re.compile(r"\d+(?:x\d+)?|\d+(?:\.\d+)?x")
_IMAGE_EXT = re.compile(r"\.(?:gif|png|svg|jpe?g|webp)$", re.I)
_BACKGROUND = re.compile(r"background(?:-image)?\s*:[^;]*?url\(\s*(['\"]?)(.*?)\1\s*\)", re.I)
_SMALL_SCREEN = re.compile(r"max-width", re.I)
# A srcset's white space and commas before a candidate, and its URL: up to white space (\s is
# str.isspace's white space; read a character at a time in Python, a srcset took 30 µs).
_SRCSET_GAP = re.compile(r"[\s,]*")
_SRCSET_URL = re.compile(r"\S*")


@dataclass(frozen=True)
class Candidate:
    """One entry of a ``srcset``: a URL with its width (``480w``) or density (``2x``)."""

    url: str
    width: int | None = None
    density: float = 1.0


def image_source(el: etree._Element, base_url: str, lazy_attrs: tuple[str, ...] = (),
                 max_edge: int = 1600) -> str | None:
    """The absolute URL (or ``data:`` URI) the ``<img>`` ``el`` shows, or None.

    ``lazy_attrs`` are rules.yaml's extra lazy-load attributes; they are tried before the
    usual ones.
    """
    lazy = lazy_attrs + DEFAULT_LAZY_SRC
    for srcset in _srcsets(el):
        chosen = choose_candidate(parse_srcset(srcset), max_edge)
        if chosen and not is_placeholder(chosen):
            return _absolute(base_url, chosen)
    # A lazy attribute is trusted whatever its file is called; only tiny data: URIs are not.
    src = _first_real(el, lazy, placeholders_ok=True, tiny_ok=False) or _first_real(el, ("src",))
    if src is None:
        src = _noscript_source(el)
    if src is None:  # only placeholders: keep the visible one rather than lose the <img>
        plain = (el.get("src") or "").strip()
        src = plain if plain and not _is_tiny_data(plain) else None
    return _absolute(base_url, src) if src else None


def background_image(el: etree._Element, base_url: str) -> str | None:
    """The URL of an element's inline ``background-image`` (or its lazy twin), or None."""
    value = _first_real(el, LAZY_BACKGROUND)
    if value is None:
        match = _BACKGROUND.search(el.get("style") or "")
        value = match.group(2).strip() if match else None
    return _absolute(base_url, value) if value and not is_placeholder(value) else None


def document_base(root: etree._Element, page_url: str) -> str:
    """The URL relative references resolve against: ``<base href>`` if any, else the page's."""
    base = root.find(".//base[@href]")
    return urljoin(page_url, base.get("href", "").strip()) if base is not None else page_url


def is_placeholder(url: str) -> bool:
    """A lazy-load stand-in: a tiny or SVG ``data:`` URI, or a file named like a spacer."""
    if url.startswith("data:"):
        return _is_tiny_data(url) or url[5:].lower().startswith("image/svg")
    name = url.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    ext = _IMAGE_EXT.search(name)
    if ext is None:
        return False
    words = [w for w in re.split(r"[-_.@\s]+", name[: ext.start()].lower()) if w]
    return any(w in _PLACEHOLDER_WORDS for w in words) and all(
        w in _PLACEHOLDER_WORDS or w in _FILLER_WORDS or _SIZE_WORD.fullmatch(w) for w in words)


def parse_srcset(value: str) -> list[Candidate]:
    """The candidates of a ``srcset`` (HTML §4.8.4.3.11): URLs may contain commas, descriptors
    follow after white space; malformed descriptors drop only their own candidate."""
    out: list[Candidate] = []
    pos, n = 0, len(value)
    while pos < n:
        start = pos = _SRCSET_GAP.match(value, pos).end()  # type: ignore[union-attr]
        pos = _SRCSET_URL.match(value, pos).end()  # type: ignore[union-attr]
        url = value[start:pos]
        descriptors = ""
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            end = value.find(",", pos)
            end = n if end < 0 else end
            descriptors, pos = value[pos:end].strip(), end
        if url:
            candidate = _candidate(url, descriptors)
            if candidate is not None:
                out.append(candidate)
    return out


def choose_candidate(candidates: list[Candidate], max_edge: int) -> str | None:
    """The largest candidate not wider than ``max_edge`` (or the narrowest when all are wider);
    with densities only, the densest, since it is shrunk to the cap anyway."""
    sized = [c for c in candidates if c.width is not None]
    if sized:
        fitting = [c for c in sized if c.width is not None and c.width <= max_edge]
        if fitting:
            return max(fitting, key=lambda c: c.width or 0).url
        return min(sized, key=lambda c: c.width or 0).url
    return max(candidates, key=lambda c: c.density).url if candidates else None


def decode_data_uri(uri: str) -> bytes:
    """The bytes of a ``data:`` URI (RFC 2397), base64 or percent-encoded."""
    header, comma, payload = uri.partition(",")
    if not comma or not header.lower().startswith("data:"):
        raise AssetError("malformed data: URI")
    if header.lower().endswith(";base64"):
        try:
            return base64.b64decode("".join(payload.split()), validate=True)
        except (binascii.Error, ValueError):
            raise AssetError("malformed data: URI (bad base64)") from None
    return unquote_to_bytes(payload)


def _srcsets(el: etree._Element) -> list[str]:
    """The srcsets that apply, in the order a browser on a large screen would use them: the
    ``<source>`` elements of an enclosing ``<picture>``, then the image's own."""
    sets: list[str] = []
    # lxml's HTML parser does not know <source> is empty and nests what follows inside it
    picture = next(el.iterancestors("picture"), None)
    if picture is not None:
        for source in picture.iter("source"):
            kind = (source.get("type") or "").strip().lower()
            if kind in _UNREADABLE_TYPES or _SMALL_SCREEN.search(source.get("media") or ""):
                continue
            sets.append(_first_real(source, LAZY_SRCSET + ("srcset",), placeholders_ok=True)
                        or "")
    sets.append(_first_real(el, LAZY_SRCSET + ("srcset",), placeholders_ok=True) or "")
    return [s for s in sets if s]


def _first_real(el: etree._Element, names: tuple[str, ...], placeholders_ok: bool = False,
                tiny_ok: bool = True) -> str | None:
    for name in names:
        value = (el.get(name) or "").strip()
        if not value or (not tiny_ok and _is_tiny_data(value)):
            continue
        if placeholders_ok or not is_placeholder(value):
            return value
    return None


def _noscript_source(el: etree._Element) -> str | None:
    """The ``<img>`` of a ``<noscript>`` right after the image or after its sole wrapper."""
    node: etree._Element | None = el
    for _ in range(2):
        if node is None:
            return None
        following = node.getnext()
        if following is not None and following.tag == "noscript":
            fallback = following.find(".//img")
            src = (fallback.get("src") or "").strip() if fallback is not None else ""
            return src if src and not is_placeholder(src) else None
        parent = node.getparent()
        node = parent if parent is not None and len(parent) == 1 else None
    return None


def _candidate(url: str, descriptors: str) -> Candidate | None:
    if not descriptors:
        return Candidate(url)
    words = descriptors.split()
    if len(words) != 1:
        # "480w 2x" is invalid; a height descriptor ("400h") may follow a width
        widths = [w for w in words if w.endswith("w")]
        words = widths[:1] if widths else words[:1]
    word = words[0].lower()
    try:
        if word.endswith("w"):
            return Candidate(url, width=int(word[:-1]))
        if word.endswith("x"):
            return Candidate(url, density=float(word[:-1]))
    except ValueError:
        return None
    return None


def _is_tiny_data(url: str) -> bool:
    return url.startswith("data:") and len(url) < TINY_DATA_URI


def _absolute(base_url: str, url: str) -> str:
    return url if url.startswith("data:") else urljoin(base_url, url)
