"""Bytes → text for a fetched page, with the decision recorded (seed 003 §2.1, §4.1).

The order is the seed's: a charset forced by rules.yaml → the Content-Type header → a BOM →
``<meta charset>`` / ``http-equiv`` in the first 1024 bytes → detection (charset-normalizer).
Declarations lie often on Chinese sites (a UTF-8 header on a GBK body, a stale meta on a UTF-8
page), so every result is checked: more than ``replacement_ratio`` U+FFFD characters and the page
is decoded again as GB18030 and as UTF-8, keeping the one with the fewest replacements. A page
that mixes encodings is decoded with replacement, never dropped.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

import charset_normalizer

from pipeline.settings import Settings

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE: its BOM starts the same way
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_HEADER_CHARSET = re.compile(r"""charset\s*=\s*["']?([\w.:-]+)""", re.I)
# <meta charset="x"> and <meta http-equiv="Content-Type" content="text/html; charset=x">
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)""", re.I)
# GB2312 and GBK are subsets of GB18030: decoding as the superset loses nothing and saves the
# characters sites use beyond their declared set (seed 003 §2.1).
_SUPERSETS = {"gb2312": "gb18030", "gbk": "gb18030", "gb18030": "gb18030", "ascii": "utf-8",
              "iso8859-1": "cp1252", "latin-1": "cp1252"}


@dataclass(frozen=True)
class Decoded:
    """A decoded page: its text, the codec that produced it, and why that codec was chosen."""

    text: str
    encoding: str
    reason: str


def decode_html(
    body: bytes,
    content_type: str | None = None,
    forced: str | None = None,
    settings: Settings | None = None,
) -> Decoded:
    """Decode a page's bytes; see the module docstring for the order and the U+FFFD check."""
    settings = settings or Settings()
    encoding, source = _declared(body, content_type, forced)
    if encoding is None:
        encoding, source = _detect(body), "detected"
    elif encoding != "utf-8" and source != "rules encoding" and _is_utf8(body):
        # Text in another encoding is almost never also valid UTF-8 with multibyte sequences:
        # a stale or copied declaration on a UTF-8 page is far more likely (seed 003 §4.1).
        encoding, source = "utf-8", f"{source} {encoding} but bytes are UTF-8:"
    text = _decode(body, encoding)
    ratio = _fffd_ratio(text)
    reason = f"{source} {encoding}"
    if ratio <= settings.replacement_ratio:
        return Decoded(text, encoding, reason)
    best = (ratio, encoding, text)
    tried = [f"{reason} gave {ratio:.0%} U+FFFD"]
    for alt in ("gb18030", "utf-8"):
        if alt == encoding:
            continue
        alt_text = _decode(body, alt)
        alt_ratio = _fffd_ratio(alt_text)
        tried.append(f"{alt} gave {alt_ratio:.0%}")
        if alt_ratio < best[0]:
            best = (alt_ratio, alt, alt_text)
    return Decoded(best[2], best[1], "; ".join(tried))


def _declared(
    body: bytes, content_type: str | None, forced: str | None
) -> tuple[str | None, str]:
    """The first encoding that something declares, and what declared it."""
    if forced and (name := _canonical(forced)):
        return name, "rules encoding"
    header = None
    if content_type and (m := _HEADER_CHARSET.search(content_type)):
        header = _canonical(m.group(1))
        # ISO-8859-1 is what servers (Tomcat, old Apache set-ups) send when nobody configured a
        # charset: on its own it is believed, but a page's own declaration outranks it.
        if header and header != "cp1252":
            return header, "header charset"
    for bom, name in _BOMS:
        if body.startswith(bom):
            return name, "BOM"
    if meta := _META_CHARSET.search(body[:1024]):
        if name := _canonical(meta.group(1).decode("ascii", "replace")):
            # A UTF-16 meta read as ASCII bytes cannot be true: the bytes would not be ASCII.
            if not name.startswith("utf-16") and not name.startswith("utf-32"):
                if header and name != header:
                    return name, f"meta charset (over the default header {header})"
                return name, "meta charset"
    if header:
        return header, "header charset"
    return None, ""


def _canonical(label: str) -> str | None:
    """Python's codec name for a charset label (GB2312/GBK widened to GB18030), or None."""
    try:
        name = codecs.lookup(label.strip().strip("\"'")).name
    except LookupError:
        return None
    return _SUPERSETS.get(name, name)


def _is_utf8(body: bytes) -> bool:
    """True when the bytes are strict UTF-8 and not plain ASCII (which any codec would read)."""
    if body.isascii():
        return False
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _detect(body: bytes) -> str:
    """Guess an undeclared encoding: strict UTF-8 first (cheap, and never wrong when it passes)."""
    if body.isascii() or _is_utf8(body):
        return "utf-8"
    best = charset_normalizer.from_bytes(body[:200_000]).best()
    if best is None:
        return "gb18030"
    return _canonical(best.encoding) or "gb18030"


def _decode(body: bytes, encoding: str) -> str:
    text = body.decode(encoding, errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


def _fffd_ratio(text: str) -> float:
    return text.count("\ufffd") / len(text) if text else 0.0
