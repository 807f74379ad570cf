"""localize_stage against a real image host on 127.0.0.1 (issue 5's test list)."""

from __future__ import annotations

import base64
import csv
import io
import re
from html import escape
from types import MappingProxyType

import pytest
from lxml import html
from PIL import Image

from pipeline.assets.sources import document_base, image_source
from pipeline.net.cookies import load_cookies
from pipeline.net.fetch import fetch_page
from pipeline.net.fetcher import Fetcher
from pipeline.records.article import Article
from pipeline.records.errors import StopRequested
from pipeline.records.settings import MB
from pipeline.records.task import Task
from pipeline.rules.model import Rules, SiteRules
from pipeline.run.localize import localize_stage
from pipeline.run.stages import StageContext
from pipeline.store.asset_map import AssetEntry, AssetMap
from tests.sites.images import (
    Resource,
    animated_gif_bytes,
    encoded,
    jpeg_bytes,
    picture,
    png_alpha_bytes,
    png_header_only,
)

CONTENT_ADDRESS = re.compile(r"02_assets/([0-9a-f]{2})/\1[0-9a-f]{62}\.(jpg|png|gif)")


def article_with(page_url: str, images: list[str]) -> Article:
    body = "".join(f'<p>Text {i}.<img src="{escape(u)}" alt="picture {i}"/></p>'
                   for i, u in enumerate(images))
    return Article(url=page_url, title="A page", content_html=body, text="Text.",
                   lang="en", images=images)


def localize(ctx: StageContext, page_url: str, images: list[str], task_id: int = 1,
             previous: AssetMap | None = None) -> AssetMap:
    return localize_stage(ctx, Task(task_id, page_url), article_with(page_url, images),
                          previous).assets


def stored(ctx: StageContext, assets: AssetMap, url: str) -> Image.Image:
    path = assets.entries[url].path
    assert path is not None, assets.entries[url].error
    return Image.open(io.BytesIO((ctx.archive.root / path).read_bytes()))


def error_of(assets: AssetMap, url: str) -> str:
    return assets.entries[url].error or ""


# --- finding the real image on a served page ------------------------------------------------


def test_real_sources_of_a_served_page_are_the_ones_downloaded(ctx, server):
    """Lazy attributes, srcset, <picture>, <noscript> and <base href> with ../ paths."""
    sizes = {"/a/img/lazy.jpg": (300, 200), "/a/img/orig.jpg": (310, 200),
             "/hi/custom.jpg": (320, 200), "/a/img/w1200.jpg": (1200, 800),
             "/a/img/pic.webp": (900, 600), "/a/img/ns.jpg": (330, 200), "/up.jpg": (340, 200)}
    for path, size in sizes.items():
        server.put(path, jpeg_bytes(size), "image/jpeg")
    for loser in ("/img/blank.gif", "/a/img/w480.jpg", "/a/img/w2400.jpg", "/a/img/phone.jpg",
                  "/a/img/pic.jpg", "/a/img/spinner.gif"):
        server.put(loser, jpeg_bytes((10, 10)), "image/jpeg")
    page = server.put("/a/b/c/page.html", b"""<!DOCTYPE html><html><head>
        <base href="/a/b/c/"></head><body><article>
        <img src="/img/blank.gif" data-src="../../img/lazy.jpg">
        <img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
             data-original="../../img/orig.jpg">
        <img src="/img/blank.gif" data-hi-res="/hi/custom.jpg">
        <img src="../../img/w480.jpg"
             srcset="../../img/w480.jpg 480w, ../../img/w1200.jpg 1200w,
                     ../../img/w2400.jpg 2400w">
        <picture><source media="(max-width: 600px)" srcset="../../img/phone.jpg">
          <source type="image/webp" srcset="../../img/pic.webp"><img src="../../img/pic.jpg">
        </picture>
        <p><img class="lazy" src="../../img/spinner.gif"></p>
        <noscript><img src="../../img/ns.jpg"></noscript>
        <img src="../../../../../up.jpg">
        </article></body></html>""", "text/html; charset=utf-8")
    site = SiteRules(lazy_attrs=("data-hi-res",))
    raw = fetch_page(Fetcher(ctx.session, ctx.settings, Rules(site)), page)
    root = html.fromstring(raw.body)
    base = document_base(root, raw.final_url)
    urls = [image_source(img, base, site.lazy_attrs, ctx.settings.image_max_edge)
            for img in root.iter("img") if next(img.iterancestors("noscript"), None) is None]
    assert urls == [server.url(p) for p in sizes]

    assets = localize(ctx, page, urls)  # type: ignore[arg-type]
    assert assets.ok == assets.total == len(sizes)
    for path, size in sizes.items():
        assert stored(ctx, assets, server.url(path)).size == size
    requested = {h.path for h in server.hits}
    assert requested == set(sizes) | {"/a/b/c/page.html"}  # no placeholder, no loser


# --- downloading -----------------------------------------------------------------------------


def test_hotlink_protected_image_is_asked_for_with_the_page_as_referer(ctx, server):
    image = server.put("/protected/sign.jpg", jpeg_bytes(), "image/jpeg", protected=True)
    page = server.url("/photo/essay.html")
    assets = localize(ctx, page, [image])
    assert assets.ok == 1
    assert server.requests_for("/protected/sign.jpg")[0].headers["Referer"] == page


def test_a_wrong_referer_from_the_rules_gets_403(ctx, server):
    """rules.yaml's referer overrides the page; here it names another site, so the host
    refuses — and the image is logged, not the article failed."""
    image = server.put("/protected/sign.jpg", jpeg_bytes(), "image/jpeg", protected=True)
    ctx.rules = Rules(domains=MappingProxyType({"127.0.0.1": {"referer": "https://x.test/"}}))
    assets = localize(ctx, server.url("/photo/essay.html"), [image])
    assert error_of(assets, image) == "HTTP 403 Forbidden"
    assert server.requests_for("/protected/sign.jpg")[0].headers["Referer"] == "https://x.test/"


def test_image_requests_accept_images_and_carry_the_configured_cookies(ctx, server):
    image = server.put("/img/a.jpg", jpeg_bytes(), "image/jpeg")
    ctx.rules = Rules(domains=MappingProxyType({"127.0.0.1": {"cookies": "sid=42"}}))
    ctx.cookies = load_cookies(ctx.settings, ctx.rules)
    localize(ctx, server.url("/page.html"), [image])
    sent = server.requests_for("/img/a.jpg")[0].headers
    assert sent["Accept"].startswith("image/") and sent["Cookie"] == "sid=42"


@pytest.mark.parametrize(
    ("body", "content_type", "reason"),
    [
        (jpeg_bytes((400, 300))[:700], "image/jpeg", "corrupt JPEG image"),
        (b"<!DOCTYPE html><html><body>Please log in</body></html>", "image/jpeg",
         "an HTML page, not an image"),
        (png_header_only(9000, 9000), "image/png", "decompression bomb: 9000×9000 pixels"),
        (b"", "image/png", "empty response"),
    ],
    ids=["corrupt", "html-as-image", "bomb", "empty"],
)
def test_bad_images_fail_alone_with_a_reason(ctx, server, body, content_type, reason):
    bad = server.put("/img/bad", body, content_type)
    good = server.put("/img/good.jpg", jpeg_bytes(), "image/jpeg")
    assets = localize(ctx, server.url("/page.html"), [bad, good])
    assert error_of(assets, bad).startswith(reason)
    assert (assets.total, assets.ok) == (2, 1)


def test_only_http_and_https_images_are_fetched(ctx, server):
    urls = ["javascript:alert(1)", "file:///etc/passwd", "ftp://127.0.0.1/a.jpg"]
    assets = localize(ctx, server.url("/page.html"), urls)
    assert [error_of(assets, u).split(":")[0] for u in urls] == ["unsupported URL scheme"] * 3
    assert not server.hits


def test_404_is_not_retried(ctx, server):
    missing = server.url("/img/gone.jpg")
    assets = localize(ctx, server.url("/page.html"), [missing])
    assert error_of(assets, missing) == "HTTP 404 Not Found"
    assert len(server.requests_for("/img/gone.jpg")) == 1


@pytest.mark.parametrize("announced", [True, False], ids=["content-length", "streamed"])
def test_a_30_mb_image_is_refused_at_the_20_mb_cap(ctx, server, announced):
    huge = jpeg_bytes() + b"\0" * (30 * MB)
    url = server.put("/img/huge.jpg", huge, "image/jpeg", announce_length=announced)
    assets = localize(ctx, server.url("/page.html"), [url])
    assert error_of(assets, url) == "image larger than 20 MB"


@pytest.mark.parametrize("fmt", ["WEBP", "AVIF"])
def test_webp_and_avif_come_home_as_jpeg(ctx, server, fmt):
    url = server.put(f"/img/photo.{fmt.lower()}", encoded(picture((500, 300)), fmt),
                     f"image/{fmt.lower()}")
    assets = localize(ctx, server.url("/page.html"), [url])
    assert assets.entries[url].path.endswith(".jpg")  # type: ignore[union-attr]
    assert stored(ctx, assets, url).format == "JPEG"


def test_extension_less_and_mislabelled_urls_are_typed_by_their_bytes(ctx, server):
    """A proxy URL with no extension, and a PNG served as text/plain under a .jpg name."""
    proxy = server.put("/image?id=42&w=640", png_alpha_bytes(), "application/octet-stream")
    liar = server.put("/mmbiz_jpg/abc/640.jpg?wx_fmt=jpeg", animated_gif_bytes(), "text/plain")
    assets = localize(ctx, server.url("/page.html"), [proxy, liar])
    assert assets.entries[proxy].path.endswith(".png")  # type: ignore[union-attr]
    assert assets.entries[liar].path.endswith(".gif")  # type: ignore[union-attr]


def test_the_same_image_on_two_pages_is_stored_once(ctx, server):
    first = server.put("/a/shared.jpg", jpeg_bytes((2000, 1000)), "image/jpeg")
    second = server.put("/b/same-bytes-other-name.jpg", jpeg_bytes((2000, 1000)), "image/jpeg")
    one = localize(ctx, server.url("/one.html"), [first], task_id=1)
    two = localize(ctx, server.url("/two.html"), [second], task_id=2)
    assert one.entries[first].path == two.entries[second].path
    assert len([p for p in ctx.archive.assets_dir.rglob("*") if p.is_file()]) == 1


def test_a_data_uri_is_decoded_and_stored(ctx):
    uri = "data:image/png;base64," + base64.b64encode(png_alpha_bytes()).decode()
    assets = localize(ctx, "https://example.com/page.html", [uri])
    assert stored(ctx, assets, uri).size == (200, 120)


@pytest.mark.parametrize("path", [
    "/img/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/img/%2e%2e%2f%2e%2e%2fescape.png",
    "/img/..\\..\\..\\escape.jpg",
    "/img/%5c..%5c..%5cwin.ini",
    "/..%252f..%252fdouble.gif",
])
def test_traversal_in_the_url_never_leaves_02_assets(ctx, server, tmp_path, path):
    server.fallback = Resource(jpeg_bytes(), "image/jpeg")
    url = server.origin + path
    assets = localize(ctx, server.url("/page.html"), [url])
    assert CONTENT_ADDRESS.fullmatch(assets.entries[url].path or "")
    assert [p.name for p in tmp_path.iterdir()] == ["archive"]
    written = [p.relative_to(ctx.archive.root).as_posix()
               for p in ctx.archive.root.rglob("*") if p.is_file()]
    assert [p for p in written if p.startswith("02_assets")] == [assets.entries[url].path]
    assert set(written) - {assets.entries[url].path} <= {
        "01_clean/1.html", "01_clean/1.assets.json", "01_clean/style.css", "rules.yaml",
        "archive.json", ".archive.json.lock", "entries.db",  # entries.db: what a build needs
        ".clean_changes", ".clean_changes.lock"}  # the clean journal index.html reads


# --- what the stage writes -------------------------------------------------------------------


def test_outputs_clean_page_map_and_failure_log(ctx, server):
    good = server.put("/img/good.jpg", jpeg_bytes(), "image/jpeg")
    missing = server.url("/img/missing.jpg")
    page = server.url("/story.html")
    clean_json = ctx.archive.clean_meta(1)
    clean_json.write_text("{\"kept\": true}", encoding="utf-8")
    assets = localize(ctx, page, [good, missing])

    saved = AssetMap.from_json(ctx.archive.assets_map(1).read_text(encoding="utf-8"))
    assert saved.entries == assets.entries and (saved.total, saved.ok) == (2, 1)
    clean = ctx.archive.clean_html(1).read_text(encoding="utf-8")
    assert f'<img src="../{assets.entries[good].path}" alt="picture 0"' in clean
    assert (ctx.archive.clean_dir / f"../{assets.entries[good].path}").resolve().is_file()
    assert 'class="missing-image"' in clean and f'href="{missing}"' in clean
    assert "picture 1" in clean  # the alt text of the missing image
    assert clean_json.read_text(encoding="utf-8") == "{\"kept\": true}"  # untouched

    rows = list(csv.reader(io.StringIO(
        (ctx.archive.logs_dir / "assets.csv").read_text(encoding="utf-8-sig"))))
    assert rows[0] == ["time", "task", "page", "image", "reason"]
    assert [r[1:] for r in rows[1:]] == [["1", page, missing, "HTTP 404 Not Found"]]


def test_a_retry_fetches_only_the_images_that_failed(ctx, server):
    good = server.put("/img/good.jpg", jpeg_bytes(), "image/jpeg")
    late = server.url("/img/late.jpg")
    first = localize(ctx, server.url("/page.html"), [good, late])
    assert first.ok == 1
    server.put("/img/late.jpg", jpeg_bytes(seed=5), "image/jpeg")
    second = localize(ctx, server.url("/page.html"), [good, late], previous=first)
    assert second.ok == 2 and second.entries[good] == first.entries[good]
    assert len(server.requests_for("/img/good.jpg")) == 1
    assert len(server.requests_for("/img/late.jpg")) == 2


def test_a_previous_entry_is_reused_only_for_a_stored_content_address(ctx, server, tmp_path):
    url = server.put("/img/a.jpg", jpeg_bytes(), "image/jpeg")
    first = localize(ctx, server.url("/page.html"), [url])
    outside = tmp_path / "secret.jpg"
    outside.write_bytes(b"not yours")
    for path in ("../secret.jpg", "02_assets/../../secret.jpg", "02_assets/ab/missing.jpg"):
        edited = AssetMap({url: AssetEntry(url, path=path)})
        again = localize(ctx, server.url("/page.html"), [url], previous=edited)
        assert again.entries[url] == first.entries[url]  # fetched and stored again
    assert len(server.requests_for("/img/a.jpg")) == 4


def test_no_more_than_the_per_article_cap_is_downloaded(ctx, server):
    ctx.settings = ctx.settings.with_overrides(max_images_per_article=2)
    urls = [server.put(f"/img/{i}.jpg", jpeg_bytes(seed=i), "image/jpeg") for i in range(3)]
    assets = localize(ctx, server.url("/page.html"), urls)
    assert assets.ok == 2 and error_of(assets, urls[2]) == "more than 2 images in the article"
    assert not server.requests_for("/img/2.jpg")


def test_a_stop_raises_and_marks_nothing_localized(ctx, server):
    url = server.put("/img/a.jpg", jpeg_bytes(), "image/jpeg")
    ctx.cancel.set()
    with pytest.raises(StopRequested):
        localize(ctx, server.url("/page.html"), [url])
    assert not ctx.archive.has_assets(1) and not server.hits
