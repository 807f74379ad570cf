"""The demo site's pictures through fetch, extract and localize: what a first run does."""

from __future__ import annotations

import dataclasses
import io

from PIL import Image

from pipeline.demo_site.server import DemoSite
from pipeline.extract import extract
from pipeline.net.fetch import fetch_page
from pipeline.net.fetcher import Fetcher
from pipeline.records.article import Article
from pipeline.records.task import Task
from pipeline.rules.model import SiteRules
from pipeline.run.localize import localize_stage
from pipeline.text.decode import decode_html
from pipeline.web.addresses import AddressPolicy


def test_demo_articles_bring_every_picture_home(ctx):
    """Lazy images, srcset, <picture>, an EXIF-rotated photo and a 2400 px original."""
    paths = ["/blog/2019/02/20/patching-a-tube/", "/news/2024/05/night-market.html",
             "/news/2024/06/canal-cleanup.html"]
    with DemoSite() as site:
        results = {}
        for n, path in enumerate(paths, 1):
            raw = fetch_page(Fetcher(ctx.session, ctx.settings, ctx.rules), site.url(path))
            article = extract(decode_html(raw.body, raw.headers.get("Content-Type")).text,
                              raw.final_url, SiteRules())
            results[path] = localize_stage(ctx, Task(n, raw.final_url), article, None).assets
        requested = {r.path for r in site.request_log}
        tube = results[paths[0]].entries[site.url("/img/blog/tube-patch.jpg")]
    assert all(a.ok == a.total > 0 for a in results.values())
    stored = Image.open(io.BytesIO((ctx.archive.root / str(tube.path)).read_bytes()))
    assert stored.size == (tube.width, tube.height) == (720, 480)  # upright, as EXIF says
    assert "/img/blank.gif" not in requested and "/img/news/canal-2400.jpg" not in requested


def test_demo_hotlink_protection_lets_the_page_itself_in(ctx):
    with DemoSite() as site:
        image = site.url("/protected/press.jpg")
        page = site.url("/photo/letterpress-workshop.html")
        at_home = localize_stage(ctx, Task(1, page), _article(page, image), None).assets
        # a public page's images on the demo's loopback server: let through by the setting
        public = dataclasses.replace(ctx, addresses=AddressPolicy.from_setting(["loopback"]))
        elsewhere = localize_stage(public, Task(2, "https://elsewhere.test/"),
                                   _article("https://elsewhere.test/", image), None).assets
    assert at_home.ok == 1
    assert elsewhere.entries[image].error == "HTTP 403 Forbidden"


def _article(page: str, image: str) -> Article:
    return Article(url=page, title="t", content_html=f'<p><img src="{image}" alt=""/></p>',
                   text="", images=[image])
