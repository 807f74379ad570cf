"""The cover: title, date range and article count drawn with Pillow in a font with CJK glyphs.

Pillow's built-in font has no Chinese, so a system font is required; a missing one is a clear
error naming what to install, never a cover of empty boxes.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pipeline.errors import BookError

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
_BACKGROUND = (38, 52, 71)
_TITLE_COLOR = (246, 241, 228)
_TEXT_COLOR = (200, 208, 216)
_ACCENT = (196, 146, 74)
_TOKEN = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|\S+\s*|\s+")


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
        font = ImageFont.truetype(str(path), 32)
    except OSError:
        return False
    han, missing = _glyph(font, "汉"), _glyph(font, "\U0010fffd")  # a private-use code point
    return han != missing and any(han)


def _glyph(font: ImageFont.FreeTypeFont, char: str) -> bytes:
    image = Image.new("L", (48, 48))
    ImageDraw.Draw(image).text((4, 4), char, font=font, fill=255)
    return image.tobytes()


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


def render_cover(title: str, details: Sequence[str], font_path: Path) -> bytes:
    """A JPEG cover: the title large (at most five lines), then one line per detail."""
    width, height = COVER_SIZE
    margin = 110
    image = Image.new("RGB", COVER_SIZE, _BACKGROUND)
    draw = ImageDraw.Draw(image)
    size = 112
    title_font = ImageFont.truetype(str(font_path), size)
    lines = _wrap(title, title_font, width - 2 * margin)
    while len(lines) > 5 and size > 48:
        size -= 12
        title_font = ImageFont.truetype(str(font_path), size)
        lines = _wrap(title, title_font, width - 2 * margin)
    if len(lines) > 5:
        lines = lines[:4] + [lines[4][: max(1, len(lines[4]) - 1)] + "…"]
    y = 330
    draw.rectangle((margin, y - 70, margin + 160, y - 58), fill=_ACCENT)
    for line in lines:
        draw.text((margin, y), line, font=title_font, fill=_TITLE_COLOR)
        y += int(size * 1.3)
    detail_font = ImageFont.truetype(str(font_path), 48)
    y = max(y + 90, height - 160 - 76 * len(details))
    for detail in details:
        for line in _wrap(detail, detail_font, width - 2 * margin)[:2]:
            draw.text((margin, y), line, font=detail_font, fill=_TEXT_COLOR)
            y += 64
        y += 12
    draw.text((margin, height - 120), "Kuaibu", font=detail_font, fill=_ACCENT)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=88, optimize=True)
    return out.getvalue()
