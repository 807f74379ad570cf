"""Image bytes in, small EPUB-safe image bytes out (seed 003 §3.2: longest edge 1600 px, q82).

Every reader shows JPEG, PNG and GIF; WebP, AVIF, BMP and TIFF are converted to one of them.
PNG is kept where JPEG would hurt (transparency, line art: few colours), GIF is kept as sent
when it fits (animation intact), photos become JPEG. EXIF orientation is applied, since EPUB
readers ignore it. Pillow only ever sees the one format the bytes were sniffed as, and an image
with more pixels than ``settings.max_image_pixels`` is refused before it is decoded.
"""

from __future__ import annotations

import io
import struct
import warnings
import zlib
from dataclasses import dataclass

from PIL import Image, ImageOps, features

from pipeline.assets.sniff import PILLOW_FORMATS, describe_non_image, sniff_image
from pipeline.records.errors import AssetError
from pipeline.records.settings import Settings

# Pillow only warns for images between its pixel limit (Image.MAX_IMAGE_PIXELS, ~89 M) and
# twice that; a decompression bomb must raise (issue 5), in the app as under pytest. The
# check that matters is settings.max_image_pixels (50 M), made below on the header alone and
# without touching Pillow's globals (threads with other Settings may run at the same time);
# Pillow's own limit stays as the net under it, so a setting above ~89 M has no effect.
warnings.filterwarnings("error", category=Image.DecompressionBombWarning)

# What a broken file makes Pillow's decoders raise.
_DECODE_ERRORS = (OSError, SyntaxError, ValueError, EOFError, IndexError, struct.error,
                  zlib.error)
_EXIF_ORIENTATION = 0x0112
_LINE_ART_COLOURS = 256
_BACKGROUND_SHARE = 0.2


@dataclass(frozen=True)
class Processed:
    """An image ready to store: its bytes, the extension they deserve, and their size."""

    data: bytes
    ext: str  # "jpg", "png" or "gif"
    width: int
    height: int


def process_image(data: bytes, settings: Settings) -> Processed:
    """Check, orient, shrink and re-encode one image; AssetError says why one cannot be kept."""
    kind = sniff_image(data)
    if kind is None:
        raise AssetError(describe_non_image(data))
    if kind == "avif" and not features.check("avif"):
        raise AssetError("an AVIF image, which this Pillow cannot read")
    try:
        with Image.open(io.BytesIO(data), formats=[PILLOW_FORMATS[kind]]) as im:
            width, height = im.size
            if width * height > settings.max_image_pixels:
                raise AssetError(f"decompression bomb: {width}×{height} pixels is more than "
                                 f"{settings.max_image_pixels:,}")
            return _convert(im, data, kind, settings)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
        raise AssetError(f"decompression bomb: {e}") from None
    except _DECODE_ERRORS as e:
        raise AssetError(f"corrupt {kind.upper()} image: {e}") from None


def _convert(im: Image.Image, data: bytes, kind: str, settings: Settings) -> Processed:
    limit = settings.image_max_edge
    if kind == "gif" and max(im.size) <= limit:
        im.load()  # the first frame must decode: a broken GIF is not kept
        return Processed(data, "gif", *im.size)  # kept as sent: palette and animation intact
    if kind == "jpeg":
        # Decode at 1/2, 1/4 or 1/8 scale when the target allows: far less memory and time.
        im.draft("RGB", _fitted(im.size, limit))
    turned = im.getexif().get(_EXIF_ORIENTATION, 1) not in (1, None)
    im = ImageOps.exif_transpose(im) if turned else im
    im.load()
    alpha = _has_alpha(im)
    keep_png = alpha or (kind != "jpeg" and _is_line_art(im))
    mode = "RGBA" if alpha else "RGB"
    im = im if im.mode == mode else im.convert(mode)
    resized = max(im.size) > limit
    if resized:
        im.thumbnail((limit, limit), Image.Resampling.LANCZOS)
    if keep_png:
        if kind == "png" and not (resized or turned):
            return Processed(data, "png", *im.size)
        return Processed(_encoded(im, "PNG"), "png", *im.size)
    out = _encoded(im, "JPEG", quality=settings.jpeg_quality, optimize=True)
    if kind == "jpeg" and not (resized or turned) and len(data) <= len(out):
        out = data  # re-encoding at q82 would only grow an already small JPEG
    return Processed(out, "jpg", *im.size)


def _fitted(size: tuple[int, int], limit: int) -> tuple[int, int]:
    """``size`` scaled down (never up) so its longest edge is at most ``limit``."""
    w, h = size
    scale = min(1.0, limit / max(w, h))
    return max(1, round(w * scale)), max(1, round(h * scale))


def _has_alpha(im: Image.Image) -> bool:
    """True when some pixel is not fully opaque (an unused alpha channel does not count)."""
    if "A" not in im.getbands() and "transparency" not in im.info:
        return False
    lowest, _ = im.convert("RGBA").getchannel("A").getextrema()
    return isinstance(lowest, int) and lowest < 255


def _is_line_art(im: Image.Image) -> bool:
    """Diagrams, charts, screenshots of text (JPEG would smear them): few colours, one of
    them a background covering much of the picture. A smooth gradient or a grey photo has
    few colours too, but none that dominates. Palette images stay as they are."""
    if im.mode in ("1", "P"):
        return True
    colours = im.convert("RGB").getcolors(_LINE_ART_COLOURS)
    if colours is None:
        return False
    return max(count for count, _ in colours) >= _BACKGROUND_SHARE * im.width * im.height


def _encoded(im: Image.Image, fmt: str, **options: object) -> bytes:
    out = io.BytesIO()
    im.save(out, fmt, **options)
    return out.getvalue()
