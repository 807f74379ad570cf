"""process_image: small, oriented, EPUB-readable output; bombs and broken files refused."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pipeline.assets.images import process_image
from pipeline.records.errors import AssetError
from pipeline.records.settings import Settings
from tests.sites.images import (
    animated_gif_bytes,
    encoded,
    jpeg_bytes,
    picture,
    png_alpha_bytes,
    png_header_only,
)

SETTINGS = Settings()


def opened(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_a_large_photo_is_shrunk_to_1600_px_jpeg_at_q82():
    source = jpeg_bytes((2400, 1500))
    out = process_image(source, SETTINGS)
    assert (out.ext, out.width, out.height) == ("jpg", 1600, 1000)
    img = opened(out.data)
    assert img.format == "JPEG" and img.size == (1600, 1000)
    # the quantization tables Pillow writes for q82 are those of libjpeg's quality scaling
    reference = opened(encoded(picture((64, 64)), "JPEG", quality=82))
    assert img.quantization == reference.quantization  # type: ignore[attr-defined]


def test_settings_decide_edge_and_quality():
    out = process_image(jpeg_bytes((900, 600)), Settings().with_overrides(image_max_edge=300))
    assert (out.width, out.height) == (300, 200)


def test_a_small_jpeg_that_would_only_grow_is_kept_as_sent():
    source = encoded(picture((300, 200)), "JPEG", quality=40)
    assert process_image(source, SETTINGS).data == source


def test_exif_orientation_is_applied():
    """Stored 200 wide and 100 high with "rotate 90° clockwise": a reader sees 100×200."""
    exif = Image.Exif()
    exif[0x0112] = 6
    stored = picture((200, 100))
    stored.putpixel((0, 0), (255, 0, 0))
    out = process_image(encoded(stored, "JPEG", quality=95, exif=exif), SETTINGS)
    img = opened(out.data)
    assert (out.width, out.height) == img.size == (100, 200)
    assert img.getexif().get(0x0112) in (None, 1)


def test_transparency_keeps_png():
    source = png_alpha_bytes()
    out = process_image(source, SETTINGS)
    assert out.ext == "png" and out.data == source  # nothing to change: kept as sent


def test_line_art_png_stays_png_and_a_photo_png_becomes_jpeg():
    diagram = Image.new("RGB", (2000, 500), "white")
    diagram.paste((0, 0, 200), (100, 100, 1900, 140))
    line_art = process_image(encoded(diagram, "PNG"), SETTINGS)
    assert (line_art.ext, line_art.width) == ("png", 1600)
    photo = process_image(encoded(picture((400, 300)), "PNG"), SETTINGS)
    assert photo.ext == "jpg" and opened(photo.data).format == "JPEG"
    # a grey photograph has no more than 256 colours, but no background either
    grey = process_image(encoded(picture((400, 300)).convert("L"), "PNG"), SETTINGS)
    assert grey.ext == "jpg"


def test_animated_gif_keeps_its_animation_under_the_cap():
    source = animated_gif_bytes()
    out = process_image(source, SETTINGS)
    assert out.ext == "gif" and out.data == source
    assert getattr(opened(out.data), "n_frames", 1) == 3


def test_a_gif_over_the_cap_becomes_a_shrunk_still():
    out = process_image(animated_gif_bytes((2000, 400)), SETTINGS)
    assert (out.ext, out.width, out.height) == ("png", 1600, 320)


@pytest.mark.parametrize("fmt", ["WEBP", "AVIF", "BMP", "TIFF"])
def test_formats_readers_lack_are_converted(fmt):
    out = process_image(encoded(picture((640, 400)), fmt), SETTINGS)
    assert out.ext == "jpg" and opened(out.data).format == "JPEG"
    assert (out.width, out.height) == (640, 400)


def test_webp_with_alpha_becomes_png():
    rgba = Image.new("RGBA", (100, 100), (0, 0, 0, 0))
    rgba.paste((10, 200, 10, 255), (20, 20, 80, 80))
    out = process_image(encoded(rgba, "WEBP", lossless=True), SETTINGS)
    assert out.ext == "png" and opened(out.data).mode == "RGBA"


def test_a_decompression_bomb_raises_before_decoding():
    """64 million pixels in a few hundred bytes: over the 50 M limit, refused from the header."""
    with pytest.raises(AssetError, match="decompression bomb: 8000×8000 pixels"):
        process_image(png_header_only(8000, 8000), SETTINGS)


def test_a_bomb_beyond_pillows_own_limit_raises_too():
    with pytest.raises(AssetError, match="decompression bomb"):
        process_image(png_header_only(40000, 40000), SETTINGS.with_overrides(
            max_image_pixels=2_000_000_000))


def test_a_corrupt_image_is_an_asset_error():
    broken = jpeg_bytes((400, 300))[:600]
    with pytest.raises(AssetError, match="corrupt JPEG image"):
        process_image(broken, SETTINGS)
    with pytest.raises(AssetError, match="corrupt PNG image"):
        process_image(b"\x89PNG\r\n\x1a\n" + b"garbage" * 10, SETTINGS)
    with pytest.raises(AssetError, match="corrupt GIF image"):  # even one kept as sent
        gif = encoded(picture((200, 150)).quantize(64), "GIF")
        process_image(gif[: len(gif) // 2], SETTINGS)


def test_html_is_not_an_image():
    with pytest.raises(AssetError, match="an HTML page, not an image"):
        process_image(b"<html><body>Forbidden</body></html>", SETTINGS)


def test_the_same_input_gives_the_same_bytes():
    """Content addressing relies on it: one picture on two pages is one file."""
    source = jpeg_bytes((2000, 1000), seed=3)
    assert process_image(source, SETTINGS).data == process_image(source, SETTINGS).data
