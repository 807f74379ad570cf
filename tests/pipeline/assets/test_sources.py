"""Finding the real image of an <img>: lazy attributes, srcset, <picture>, placeholders."""

from __future__ import annotations

import base64

import pytest
from lxml import html

from pipeline.assets.sources import (
    Candidate,
    background_image,
    choose_candidate,
    decode_data_uri,
    document_base,
    image_source,
    is_placeholder,
    parse_srcset,
)
from pipeline.records.errors import AssetError

BASE = "https://example.com/news/2024/story.html"
GIF_1X1 = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"


def source_of(fragment: str, lazy: tuple[str, ...] = (), max_edge: int = 1600) -> str | None:
    root = html.fromstring(f"<div>{fragment}</div>")
    return image_source(root.find(".//img"), BASE, lazy, max_edge)


@pytest.mark.parametrize("attr", ["data-src", "data-original", "data-lazy-src",
                                  "data-actualsrc", "data-echo", "data-url"])
def test_lazy_attributes_beat_a_placeholder_src(attr):
    assert source_of(f'<img src="/img/blank.gif" {attr}="real.jpg">') == (
        "https://example.com/news/2024/real.jpg")
    assert source_of(f'<img src="{GIF_1X1}" {attr}="//cdn.example.com/r.jpg">') == (
        "https://cdn.example.com/r.jpg")


def test_rules_can_name_more_lazy_attributes():
    fragment = '<img src="/spinner.gif" data-hi-res="/big.jpg">'
    assert source_of(fragment) == "https://example.com/spinner.gif"  # nothing better known
    assert source_of(fragment, lazy=("data-hi-res",)) == "https://example.com/big.jpg"


def test_srcset_gives_the_largest_candidate_within_the_cap():
    fragment = '<img src="s.jpg" srcset="s.jpg 480w, m.jpg 1200w, l.jpg 2400w">'
    assert source_of(fragment).endswith("/m.jpg")
    assert source_of(fragment, max_edge=3000).endswith("/l.jpg")
    assert source_of(fragment, max_edge=300).endswith("/s.jpg")  # all wider: the narrowest
    assert source_of('<img data-srcset="a.jpg 1x, b.jpg 2x" src="/blank.gif">').endswith("/b.jpg")


def test_srcset_urls_may_contain_commas():
    value = ("https://img.example.com/w_400,h_300/a.jpg 400w,"
             "https://img.example.com/w_800,h_600/a.jpg 800w")
    assert parse_srcset(value) == [
        Candidate("https://img.example.com/w_400,h_300/a.jpg", width=400),
        Candidate("https://img.example.com/w_800,h_600/a.jpg", width=800),
    ]
    assert parse_srcset("a.jpg, b.jpg 2x, c.jpg bogus") == [Candidate("a.jpg"),
                                                            Candidate("b.jpg", density=2.0)]
    # the spec reads "a.jpg,b.jpg" with no space as one URL; a trailing comma ends one
    assert parse_srcset("a.jpg,b.jpg 2x") == [Candidate("a.jpg,b.jpg", density=2.0)]
    assert parse_srcset("a.jpg, b.jpg,") == [Candidate("a.jpg"), Candidate("b.jpg")]
    assert choose_candidate([], 1600) is None


def test_picture_sources_come_first_skipping_unreadable_types_and_small_screens():
    fragment = """<picture>
      <source type="image/svg+xml" srcset="vector.svg">
      <source media="(max-width: 600px)" srcset="phone.jpg">
      <source type="image/webp" data-srcset="wide.webp 1400w, huge.webp 3000w">
      <img src="/img/blank.gif" data-src="fallback.jpg">
    </picture>"""
    assert source_of(fragment).endswith("/wide.webp")


def test_noscript_copy_when_only_a_placeholder_is_left():
    fragment = ('<p><img class="lazy" src="/img/loading.gif"></p>'
                '<noscript><img src="/img/real.jpg"></noscript>')
    assert source_of(fragment) == "https://example.com/img/real.jpg"


def test_tiny_data_uris_are_placeholders_and_real_ones_are_kept():
    assert source_of(f'<img src="{GIF_1X1}">') is None
    real = "data:image/png;base64," + "A" * 2000
    assert source_of(f'<img src="{real}">') == real
    assert is_placeholder("data:image/svg+xml;charset=utf-8,%3Csvg%20width='800'%3E")
    assert is_placeholder("/static/img/lazyload.png") and is_placeholder("/a/spacer.gif?v=2")
    assert is_placeholder("/img/loading-spinner@2x.gif") and is_placeholder("grey_1x1.png")
    assert not is_placeholder("/photos/lazy-river.jpg") and not is_placeholder("/a/dog.jpg")
    assert not is_placeholder("/img/blank") and not is_placeholder("/img/default.png")


def test_base_href_with_dot_segments():
    root = html.fromstring('<html><head><base href="/a/b/c/"></head>'
                           '<body><img src="../../img/x.jpg"><img src="../../../../y.jpg">'
                           '</body></html>')
    base = document_base(root, BASE)
    assert base == "https://example.com/a/b/c/"
    assert [image_source(i, base) for i in root.iter("img")] == [
        "https://example.com/a/img/x.jpg", "https://example.com/y.jpg"]


def test_background_images_inline_and_lazy():
    root = html.fromstring(
        '<div><div style="color:red; background-image: url(&quot;/hero.jpg&quot;)"></div>'
        '<div style="background:#fff url(/bg.png) no-repeat"></div>'
        '<div data-bg="/lazy-bg.jpg" style="background-image:url(/img/blank.gif)"></div>'
        '<div style="background:url(data:image/gif;base64,R0lGOD)"></div></div>')
    assert [background_image(d, BASE) for d in root.findall("div")] == [
        "https://example.com/hero.jpg", "https://example.com/bg.png",
        "https://example.com/lazy-bg.jpg", None]


def test_data_uris_decode():
    payload = b"\x89PNG\r\n\x1a\nbytes"
    assert decode_data_uri("data:image/png;base64," + base64.b64encode(payload).decode()) == (
        payload)
    assert decode_data_uri("data:image/svg+xml,%3Csvg%3E") == b"<svg>"
    with pytest.raises(AssetError, match="bad base64"):
        decode_data_uri("data:image/png;base64,@@@@")
    with pytest.raises(AssetError):
        decode_data_uri("data:image/png;base64")
