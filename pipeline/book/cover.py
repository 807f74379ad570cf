"""The cover: title, details (volume, categories, date range, article count) drawn with Pillow
in a font with CJK glyphs, on a palette and motif of the title's own.

Pillow's built-in font has no Chinese, so a system font is required; a missing one is a clear
error naming what to install, never a cover of empty boxes. A character that font lacks (an
emoji, a rare symbol) is drawn as a mark, never as the font's ".notdef" box ("tofu").

Covers tell books apart on a shelf of thumbnails: the colours and the motif come from a hash
of the title, so two books differ at a glance while a book built again looks the same. Nothing
here is random and text is laid out with Pillow's basic engine (the same on every machine,
whether libraqm is installed or not), so the same title, details and font give the same pixels.
"""

from __future__ import annotations

import colorsys
import hashlib
import io
import re
import shutil
import subprocess
import unicodedata
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pipeline.records.errors import BookError

# Common places, Linux / Windows / macOS; ``fc-list`` is asked when none of them exists.
CJK_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "C:/Windows/Fonts/msyh.ttc",
    "C:/Windows/Fonts/simhei.ttf",
    "/System/Library/Fonts/PingFang.ttc",
    "/System/Library/Fonts/STHeiti Light.ttc",
    "/Library/Fonts/Arial Unicode.ttf",
)
COVER_SIZE = (1200, 1800)  # 2:3, what most readers' library views expect
NOT_A_CHARACTER = "\U0010fffd"  # private use: no font draws it, so it shows the .notdef box

RGB = tuple[int, int, int]

_MARGIN = 110
_TITLE_TOP = 330
_TITLE_LINES = 5
_DETAIL_LINES = 2  # each detail wraps to at most this many lines
_DETAIL_SIZE, _DETAIL_LEADING = 48, 64
_FOOTER_GAP = 150  # the details end this far above the bottom edge; "Kuaibu" sits below
_PROBE_SIZE = 32
# What stands for a character the font cannot draw; which one comes from the character, so
# two emoji-only titles still look different.
_MARKS = ("●", "◆", "▲", "★")
_MOTIFS = ("stripes", "rings", "dots", "bars")
# Break anywhere between CJK characters and marks; elsewhere at spaces.
_TOKEN = re.compile(r"[\u25a0-\u27bf\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|\S+\s*|\s+")
# Unicode's default-ignorable code points: invisible by definition, so never drawn (a font
# without them would otherwise show a box for the variation selector after "❤️").
_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
_ZWJ = "\u200d"


@dataclass(frozen=True)
class CoverPalette:
    """A cover's colours and motif, all from its title's hash (``palette_for``)."""

    background: RGB
    pattern: RGB  # the motif: a shade lighter than the background, so text stays legible
    title: RGB
    text: RGB
    accent: RGB
    motif: str  # one of _MOTIFS
    seed: bytes  # the hash's remaining bytes: where and how large the motif's shapes are


def find_cjk_font(candidates: Sequence[str] = CJK_FONT_CANDIDATES,
                  ask_fontconfig: bool = True) -> Path:
    """A font file with Chinese glyphs, or a BookError saying what to install."""
    for candidate in candidates:
        if _has_cjk(Path(candidate)):
            return Path(candidate)
    fc_list = shutil.which("fc-list") if ask_fontconfig else None
    if fc_list:
        listing = subprocess.run([fc_list, ":lang=zh", "file"], capture_output=True, text=True,
                                 timeout=20, check=False).stdout
        for line in sorted(listing.splitlines()):
            path = Path(line.split(":", 1)[0].strip())
            if path.suffix.lower() in (".ttf", ".ttc", ".otf") and _has_cjk(path):
                return path
    raise BookError(
        "no font with Chinese glyphs was found for the book cover; install one "
        "(Debian/Ubuntu: apt install fonts-wqy-microhei or fonts-noto-cjk) and build again"
    )


def _has_cjk(path: Path) -> bool:
    """Whether the font draws 汉 as itself rather than as its "missing glyph" box."""
    if not path.is_file():
        return False
    try:
        _probe(str(path))
    except OSError:
        return False
    return has_glyph(path, "汉")


def _font(path: Path | str, size: int) -> ImageFont.FreeTypeFont:
    """The font at ``size``, laid out one glyph per code point: what ``has_glyph`` checks is
    then exactly what is drawn, and the pixels do not depend on whether libraqm is present."""
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=8)
def _probe(path: str) -> tuple[ImageFont.FreeTypeFont, bytes]:
    """The font at the probing size and its .notdef glyph's pixels (loaded once per font)."""
    font = _font(path, _PROBE_SIZE)
    return font, glyph_pixels(font, NOT_A_CHARACTER)


def glyph_pixels(font: ImageFont.FreeTypeFont, char: str) -> bytes:
    """``char`` drawn alone in ``font``: the pixels two glyphs are compared by."""
    size = int(font.size)
    image = Image.new("L", (3 * size, 2 * size))  # room for wide glyphs and overhanging marks
    ImageDraw.Draw(image).text((size, size // 2), char, font=font, fill=255)
    return image.tobytes()


@lru_cache(maxsize=4096)
def _has_glyph(path: str, char: str) -> bool:
    font, missing = _probe(path)
    pixels = glyph_pixels(font, char)
    return pixels != missing and (any(pixels) or char.isspace())


def has_glyph(font_path: Path, char: str) -> bool:
    """Whether the font has a glyph of its own for ``char``: one that is not the .notdef
    box it draws for a code point it lacks (Pillow gives no cmap, so the drawings are
    compared). A space counts as drawn; an invisible glyph that is not a space does not."""
    return _has_glyph(str(font_path), char)


def _extends(cluster: str, char: str) -> bool:
    """Whether ``char`` belongs to the user-perceived character ``cluster`` ends with:
    combining marks, variation selectors, emoji skin tones and tags, the character after a
    zero-width joiner, the second regional indicator of a flag."""
    code = ord(char)
    if unicodedata.category(char) in ("Mn", "Me", "Mc") or char == _ZWJ:
        return True
    if 0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F:
        return True
    if cluster.endswith(_ZWJ):
        return True
    regional = 0x1F1E6 <= code <= 0x1F1FF
    return regional and len(cluster) == 1 and 0x1F1E6 <= ord(cluster) <= 0x1F1FF


def _clusters(text: str) -> list[str]:
    """``text`` as the characters a reader sees, near enough for choosing glyphs: an emoji
    sequence or a flag is one character, and becomes one mark when the font lacks it."""
    clusters: list[str] = []
    for char in text:
        if clusters and _extends(clusters[-1], char):
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters


def _mark(cluster: str, font_path: Path) -> str:
    """The mark drawn for a character the font lacks: one of _MARKS the font has, chosen by
    the character (crc32: stable across runs, unlike ``hash``)."""
    marks = [m for m in _MARKS if has_glyph(font_path, m)] or ["*"]
    return marks[zlib.crc32(cluster.encode("utf-8")) % len(marks)]


def drawable(text: str, font_path: Path) -> str:
    """``text`` as the cover draws it in ``font_path``: white space collapsed, invisible
    format characters dropped, a character the font has no glyph for replaced by a mark (an
    accent or keycap it lacks on a letter it has: left off), so no box ("tofu") is drawn."""
    out: list[str] = []
    for cluster in _clusters(unicodedata.normalize("NFC", " ".join(text.split()))):
        visible = _IGNORABLE.sub("", cluster)
        if not visible:
            continue
        if has_glyph(font_path, visible[0]):  # a mark or keycap it lacks is left off
            out.append("".join(char for char in visible if has_glyph(font_path, char)))
        else:
            out.append(_mark(cluster, font_path))
    return "".join(out)


def _rgb(hue: float, saturation: float, value: float) -> RGB:
    red, green, blue = colorsys.hsv_to_rgb(hue % 1.0, saturation, value)
    return round(red * 255), round(green * 255), round(blue * 255)


def palette_for(title: str) -> CoverPalette:
    """The cover's colours and motif from a hash of the title (NFC, trimmed): the same title
    always gets the same cover, two titles almost surely different ones. The background is
    dark and the text light in every palette, so every cover is legible."""
    digest = hashlib.sha256(unicodedata.normalize("NFC", title.strip()).encode("utf-8")).digest()
    hue = int.from_bytes(digest[:2], "big") / 65536
    saturation = 0.38 + digest[2] / 255 * 0.22
    value = 0.24 + digest[3] / 255 * 0.1
    return CoverPalette(
        background=_rgb(hue, saturation, value),
        pattern=_rgb(hue, saturation, value + 0.06),
        title=_rgb(hue, 0.05, 0.97),
        text=_rgb(hue, 0.12, 0.84),
        accent=_rgb(hue + 0.42 + digest[4] / 255 * 0.16, 0.55, 0.86),
        motif=_MOTIFS[digest[5] % len(_MOTIFS)],
        seed=digest[6:],
    )


def _stripes(draw: ImageDraw.ImageDraw, seed: bytes, fill: RGB) -> None:
    """Diagonal bands across the whole cover."""
    width, height = COVER_SIZE
    step, band = 90 + seed[0] % 90, 24 + seed[1] % 40
    slant = height if seed[2] % 2 else -height
    for x in range(-height, width + height, step):
        draw.polygon([(x, 0), (x + band, 0), (x + band + slant, height), (x + slant, height)],
                     fill=fill)


def _rings(draw: ImageDraw.ImageDraw, seed: bytes, fill: RGB) -> None:
    """Concentric rings around a point near one of the lower corners."""
    width, height = COVER_SIZE
    cx = (seed[0] % 2) * width + (seed[1] % 200) - 100
    cy = height - 200 - seed[2] % 500
    step, ring = 70 + seed[3] % 60, 14 + seed[4] % 20
    for radius in range(step, 2 * height, step):
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), outline=fill,
                     width=ring)


def _dots(draw: ImageDraw.ImageDraw, seed: bytes, fill: RGB) -> None:
    """A grid of dots, every other row shifted by half a step."""
    width, height = COVER_SIZE
    step, radius = 56 + seed[0] % 50, 5 + seed[1] % 12
    for row, y in enumerate(range(step // 2, height, step)):
        for x in range(step // 2 + (row % 2) * step // 2, width, step):
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill)


def _bars(draw: ImageDraw.ImageDraw, seed: bytes, fill: RGB) -> None:
    """Horizontal bars of the seed's heights across the lower half."""
    width, height = COVER_SIZE
    y = height // 2
    for byte in seed[:12]:
        bar = 12 + byte % 70
        draw.rectangle((0, y, width, y + bar), fill=fill)
        y += bar + 20 + byte // 4
        if y >= height:
            return


_DRAW_MOTIF: dict[str, Callable[[ImageDraw.ImageDraw, bytes, RGB], None]] = {
    "stripes": _stripes, "rings": _rings, "dots": _dots, "bars": _bars,
}


def _wrap(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy line breaking: CJK characters break anywhere, other words at spaces."""
    lines: list[str] = []
    line = ""
    for token in _TOKEN.findall(text):
        trial = line + token
        if line and font.getlength(trial.rstrip()) > width:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line = trial
        while font.getlength(line.rstrip()) > width and len(line) > 1:  # one very long word
            cut = len(line)
            while cut > 1 and font.getlength(line[:cut]) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _at_most(lines: list[str], count: int) -> list[str]:
    """The first ``count`` lines, the last ending in "…" when some were left out."""
    if len(lines) <= count:
        return lines
    last = lines[count - 1]
    return lines[: count - 1] + [last[: max(1, len(last) - 1)] + "…"]


def _title_lines(title: str, font_path: Path) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The title's font and lines: as large as five lines allow (112 px down to 48 px)."""
    width = COVER_SIZE[0] - 2 * _MARGIN
    size = 112
    font = _font(font_path, size)
    lines = _wrap(title, font, width)
    while len(lines) > _TITLE_LINES and size > 48:
        size -= 12
        font = _font(font_path, size)
        lines = _wrap(title, font, width)
    return font, _at_most(lines, _TITLE_LINES)


def cover_image(title: str, details: Sequence[str], font_path: Path) -> Image.Image:
    """The cover as an image: the title large (at most five lines), then each detail (at
    most two lines each) above the footer, on the title's palette and motif."""
    width, height = COVER_SIZE
    palette = palette_for(title)
    image = Image.new("RGB", COVER_SIZE, palette.background)
    draw = ImageDraw.Draw(image)
    _DRAW_MOTIF[palette.motif](draw, palette.seed, palette.pattern)
    title_font, lines = _title_lines(drawable(title, font_path), font_path)
    y = _TITLE_TOP
    draw.rectangle((_MARGIN, y - 70, _MARGIN + 160, y - 58), fill=palette.accent)
    for line in lines:
        draw.text((_MARGIN, y), line, font=title_font, fill=palette.title)
        y += int(title_font.size * 1.3)
    detail_font = _font(font_path, _DETAIL_SIZE)
    blocks = [_at_most(_wrap(drawable(d, font_path), detail_font, width - 2 * _MARGIN),
                       _DETAIL_LINES) for d in details]
    bottom = height - _FOOTER_GAP
    y = max(y + 90, bottom - sum(_DETAIL_LEADING * len(b) + 12 for b in blocks))
    for block in blocks:
        for line in block:
            if y + _DETAIL_LEADING > bottom:  # a title of five lines and many details
                break
            draw.text((_MARGIN, y), line, font=detail_font, fill=palette.text)
            y += _DETAIL_LEADING
        y += 12
    draw.text((_MARGIN, height - 120), "Kuaibu", font=detail_font, fill=palette.accent)
    return image


def render_cover(title: str, details: Sequence[str], font_path: Path) -> bytes:
    """The cover as the JPEG the book holds (``cover_image``, encoded the same way each
    time, so an unchanged book gets an unchanged cover)."""
    out = io.BytesIO()
    cover_image(title, details, font_path).save(out, "JPEG", quality=88, optimize=True)
    return out.getvalue()
