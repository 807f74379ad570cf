"""Types come from magic bytes, whatever the name or the server says."""

from __future__ import annotations

import pytest

from pipeline.assets.sniff import describe_non_image, sniff_image
from tests.sites.images import encoded, jpeg_bytes, picture


@pytest.mark.parametrize(
    ("fmt", "kind"),
    [("JPEG", "jpeg"), ("PNG", "png"), ("GIF", "gif"), ("WEBP", "webp"), ("AVIF", "avif"),
     ("BMP", "bmp"), ("TIFF", "tiff")],
)
def test_each_format_is_known_by_its_bytes(fmt, kind):
    assert sniff_image(encoded(picture((40, 30)), fmt)) == kind


def test_a_file_that_is_only_named_like_an_image_is_not_one():
    assert sniff_image(b"<!DOCTYPE html><html><body>404</body></html>") is None
    assert describe_non_image(b"\n<!doctype html><title>x</title>") == "an HTML page, not an image"
    assert describe_non_image(b"") == "empty response"
    assert describe_non_image(b"%PDF-1.4") == "not an image (unknown bytes)"


def test_svg_is_recognised_and_refused_by_name():
    svg = b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>'
    assert sniff_image(svg) is None
    assert describe_non_image(svg).startswith("an SVG image")


def test_an_mp4_is_not_mistaken_for_avif():
    mp4 = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + b"\0" * 32
    assert sniff_image(mp4) is None
    assert sniff_image(jpeg_bytes()[:3]) == "jpeg"  # three bytes are enough to tell JPEG


def test_avif_with_a_compatible_brand_only():
    """Some encoders write major brand 'mif1' and list 'avif' among the compatible brands."""
    header = b"\x00\x00\x00\x1cftypmif1\x00\x00\x00\x00mif1avifmiaf" + b"\0" * 16
    assert sniff_image(header) == "avif"
