"""What a body is from its first bytes, never from its URL or Content-Type: an image's type,
or an HTML page.

Proxy and CDN URLs (``/image?id=…``, WeChat's ``mmbiz`` links) carry no extension, and servers
label images wrongly or answer with an HTML error page under an image name; only the bytes say
what arrived. The fetcher asks the same of a page sent with no Content-Type.
"""

from __future__ import annotations

import re

# Pillow's format names for the types Kuaibu reads; everything else is refused.
PILLOW_FORMATS = {
    "jpeg": "JPEG", "png": "PNG", "gif": "GIF", "webp": "WEBP", "avif": "AVIF",
    "bmp": "BMP", "tiff": "TIFF",
}
SNIFF_BYTES = 64  # what ``sniff_image`` reads of a file: its ftyp box's brands at most
_AVIF_BRANDS = (b"avif", b"avis")
_HTML = re.compile(rb"<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]", re.I)
_SVG = re.compile(rb"<svg[\s>]", re.I)


def sniff_image(data: bytes) -> str | None:
    """The image type of ``data`` ("jpeg", "png", …, keys of PILLOW_FORMATS), or None."""
    head = data[:32]
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head[4:8] == b"ftyp" and _iso_brands(data) & set(_AVIF_BRANDS):
        return "avif"
    if head[:2] == b"BM" and len(data) > 26:
        return "bmp"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    return None


def looks_like_html(data: bytes, window: int = 1024) -> bool:
    """Whether the first ``window`` bytes open an HTML document (a doctype, or an html, head or
    body tag): the one test for "an HTML page" whatever its label."""
    return bool(_HTML.search(data[:window]))


def describe_non_image(data: bytes) -> str:
    """What a body that is not an image looks like, for the reason a person reads."""
    head = data[:1024]
    if not data:
        return "empty response"
    if _SVG.search(head):
        return "an SVG image (not kept: it may carry scripts)"
    if looks_like_html(head):
        return "an HTML page, not an image"
    return "not an image (unknown bytes)"


def _iso_brands(data: bytes) -> set[bytes]:
    """The major and compatible brands of an ISO base media file's ``ftyp`` box."""
    size = int.from_bytes(data[:4], "big")
    box = data[8:min(size, SNIFF_BYTES)] if 16 <= size else b""
    return {box[i:i + 4] for i in range(0, len(box), 4) if i != 4}
