"""Issue 15 item 8: covers that tell books apart, draw every title without boxes and come out
the same each time, checked on the images and in real EPUBs."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

import pipeline.book
from pipeline.book import build_books
from pipeline.book.cover import (
    NOT_A_CHARACTER,
    CoverPalette,
    cover_image,
    drawable,
    find_cjk_font,
    palette_for,
    render_cover,
)
from pipeline.book.epub import COVER_IMAGE
from pipeline.book.labels import labels_for
from pipeline.book.pages import render_lines
from pipeline.records.settings import Settings
from pipeline.store.archive import Archive
from pipeline.text.templating import environment
from tests.pipeline.book.synthetic import add_article
from tests.pipeline.book.validator import assert_valid

TITLE_SIZE = 112  # the cover's largest title size, at which a one-character title is drawn


@pytest.fixture(scope="module")
def font() -> Path:
    return find_cjk_font()


def ink(image: Image.Image, colour: tuple[int, int, int], region: tuple[int, int, int, int],
        tolerance: int = 40) -> Image.Image:
    """A mask (255 or 0) of the pixels in ``region`` near ``colour``: where that colour drew."""
    crop = image.convert("RGB").crop(region)
    data = crop.tobytes()
    return Image.frombytes("L", crop.size, bytes(
        255 if max(abs(data[i + k] - colour[k]) for k in range(3)) <= tolerance else 0
        for i in range(0, len(data), 3)))


def shape(mask: Image.Image) -> Image.Image:
    """The mask cropped to its ink and scaled to 64×64, so two glyphs compare by shape."""
    box = mask.getbbox()
    assert box is not None, "nothing was drawn"
    return mask.crop(box).resize((64, 64), Image.Resampling.NEAREST)


def overlap(a: Image.Image, b: Image.Image) -> float:
    """Intersection over union of two 64×64 shapes: 1.0 is the same shape."""
    pairs = list(zip(a.tobytes(), b.tobytes(), strict=True))
    both = sum(1 for x, y in pairs if x and y)
    either = sum(1 for x, y in pairs if x or y)
    return both / either if either else 1.0


def tofu(font_path: Path) -> Image.Image:
    """The shape of the font's .notdef box: what a missing glyph would look like."""
    font = ImageFont.truetype(str(font_path), TITLE_SIZE, layout_engine=ImageFont.Layout.BASIC)
    image = Image.new("RGB", (3 * TITLE_SIZE, 2 * TITLE_SIZE))
    ImageDraw.Draw(image).text((10, 10), NOT_A_CHARACTER, font=font, fill=(255, 255, 255))
    return shape(ink(image, (255, 255, 255), (0, 0, *image.size)))


def title_shape(image: Image.Image, palette: CoverPalette) -> Image.Image:
    """The shape drawn in the title's colour in the title's band (the details are left out
    and the footer is in the accent colour, so only the title is in it)."""
    return shape(ink(image, palette.title, (0, 240, image.width, 900)))


def is_tofu(font_path: Path, char: str) -> bool:
    """Whether ``char`` at the title's size draws exactly as the known-missing code point."""
    font = ImageFont.truetype(str(font_path), TITLE_SIZE, layout_engine=ImageFont.Layout.BASIC)

    def pixels(c: str) -> bytes:
        image = Image.new("L", (3 * TITLE_SIZE, 2 * TITLE_SIZE))
        ImageDraw.Draw(image).text((TITLE_SIZE, 10), c, font=font, fill=255)
        return image.tobytes()

    return pixels(char) == pixels(NOT_A_CHARACTER)


def dominant(jpeg: bytes) -> tuple[int, int, int]:
    """The commonest colour of a cover (its background), read from a small copy."""
    image = Image.open(io.BytesIO(jpeg)).convert("RGB").resize((60, 90), Image.Resampling.BOX)
    colours = image.quantize(8).convert("RGB").getcolors(64) or []
    colour = max(colours)[1]
    assert isinstance(colour, tuple)
    return int(colour[0]), int(colour[1]), int(colour[2])


def near(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def test_a_title_has_one_palette_and_two_titles_two() -> None:
    assert palette_for("技术") == palette_for("技术") == palette_for(" 技术 ")
    assert palette_for("技术").background != palette_for("生活").background
    assert palette_for("archive") != palette_for("Archive")
    # legible whatever the hash: a dark background under light text
    for title in ("技术", "生活", "archive", "🎉", ""):
        palette = palette_for(title)
        assert sum(palette.background) < 300 and min(palette.title) > 200


def test_the_same_cover_twice_is_the_same_jpeg(font: Path) -> None:
    details = ["技术、生活", "2019-02-20 – 2021-05-01", "12 篇文章"]
    assert render_cover("快捕 🎉 精选", details, font) == render_cover("快捕 🎉 精选", details,
                                                                     font)
    assert render_cover("快捕", details, font) != render_cover("快捕精选", details, font)


@pytest.mark.parametrize("title", ["🎉🚀", "❤️👨‍👩‍👧🇨🇳", "汉字标题", "Python 🐍 入门 2024"])
def test_what_the_cover_draws_has_a_glyph_for_every_character(font: Path, title: str) -> None:
    drawn = drawable(title, font)
    assert drawn.strip(), "the title vanished"
    assert not [c for c in drawn if is_tofu(font, c)]
    assert "\ufe0f" not in drawn and "\u200d" not in drawn  # invisible, never a box


def test_cjk_titles_are_drawn_as_written(font: Path) -> None:
    assert drawable("汉字标题：第 1 卷", font) == "汉字标题：第 1 卷"
    assert drawable("  two\u2028 lines ", font) == "two lines"
    assert drawable("1\ufe0f\u20e3", font) == "1"  # a keycap the font lacks: the digit


@pytest.mark.parametrize("title", ["🎉", "汉", NOT_A_CHARACTER])
def test_no_title_glyph_on_a_cover_is_the_notdef_box(font: Path, title: str) -> None:
    box = tofu(font)
    image = cover_image(title, [], font)
    assert overlap(title_shape(image, palette_for(title)), box) < 0.5
    # the check sees tofu when there is some: a box drawn where the title goes
    font_112 = ImageFont.truetype(str(font), TITLE_SIZE, layout_engine=ImageFont.Layout.BASIC)
    with_box = Image.new("RGB", image.size, palette_for(title).background)
    ImageDraw.Draw(with_box).text((110, 330), NOT_A_CHARACTER, font=font_112,
                                  fill=palette_for(title).title)
    assert overlap(title_shape(with_box, palette_for(title)), box) > 0.9


def test_the_cover_names_the_categories_the_title_does_not(font: Path) -> None:
    env = environment()

    def lines(title: str, categories: list[str], lang: str) -> list[str]:
        return render_lines(env, "cover.txt.j2", title=title, volume="", date_range="",
                            count=3, labels=labels_for(lang), categories=categories)

    assert lines("快捕", ["技术", "生活"], "zh") == ["快捕", "技术、生活", "3 篇文章"]
    assert lines("Shelf", ["Tech", "Life"], "en") == ["Shelf", "Tech, Life", "3 articles"]
    assert lines("快捕 · 技术", ["技术"], "zh") == ["快捕 · 技术", "3 篇文章"]


def test_books_of_two_categories_have_two_covers_each_the_same_when_built_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[str, list[str]]] = []
    real = pipeline.book.render_cover

    def spy(title: str, details: Any, font_path: Path) -> bytes:
        drawn.append((title, list(details)))
        return real(title, details, font_path)

    monkeypatch.setattr(pipeline.book, "render_cover", spy)
    archive = Archive.open(tmp_path / "archive")
    tasks = [add_article(archive, i, url=f"https://a.example/{i}", title=f"第 {i} 篇",
                         cat1=cat1, lang="zh", content_html=f"<p>正文 {i}</p>",
                         published=f"2023-0{i}-01T08:00:00+08:00")
             for i, cat1 in ((1, "01_技术"), (2, "01_技术"), (3, "02_生活"))]
    books = build_books(archive, tasks, Settings(), split_by="cat1").epubs
    covers = {}
    for book in books:
        with zipfile.ZipFile(book) as z:
            covers[book.name] = z.read(f"EPUB/{COVER_IMAGE}")
    titles = [title for title, _ in drawn]
    assert len(covers) == 2 and len(set(covers.values())) == 2
    for (title, _), jpeg in zip(drawn, covers.values(), strict=True):
        assert near(dominant(jpeg), palette_for(title).background)
    assert not near(dominant(covers[books[0].name]), dominant(covers[books[1].name]))
    assert ["2023-01-01 – 2023-02-01", "2 篇文章"] == drawn[0][1]  # the category is the title
    assert_valid(*books)
    # built again: the same covers, byte for byte
    again = build_books(archive, tasks, Settings(), split_by="cat1").epubs
    for book in again:
        with zipfile.ZipFile(book) as z:
            assert z.read(f"EPUB/{COVER_IMAGE}") == covers[book.name]
    assert [title for title, _ in drawn[2:]] == titles

    drawn.clear()
    [whole] = build_books(archive, tasks, Settings()).epubs
    assert drawn[0][1] == ["技术、生活", "2023-01-01 – 2023-03-01", "3 篇文章"]
    assert_valid(whole)
