"""The demo site serves what its catalog promises, over real HTTP on 127.0.0.1."""

from __future__ import annotations

import base64
import difflib
import http.client
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import requests
from bs4 import BeautifulSoup, Tag

from pipeline.demo_site import catalog
from pipeline.demo_site.server import SITE_ROOT, DemoSite, respond
from tests.waiting import PATIENCE

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def site() -> Iterator[DemoSite]:
    with DemoSite() as s:
        yield s


def get(url: str, **headers: str) -> requests.Response:
    return requests.get(url, headers=headers, timeout=PATIENCE, allow_redirects=False)


def raw_request(site: DemoSite, method: str, path: str) -> tuple[int, bytes]:
    """Send ``path`` byte for byte: requests and urllib would resolve dot segments first."""
    conn = http.client.HTTPConnection(urlsplit(site.base_url).netloc, timeout=PATIENCE)
    try:
        conn.request(method, path)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def placeholder_bytes(src: str) -> bytes:
    """The bytes of a lazy image's placeholder: inline ``data:`` or fetched from the site."""
    if src.startswith("data:"):
        return base64.b64decode(src.split(",", 1)[1])
    return get(src).content


def attr(tag: Tag, name: str) -> str:
    """A single-valued attribute as text ("" when absent)."""
    value = tag.get(name)
    return value if isinstance(value, str) else ""


def image_urls(page_url: str, html: str) -> set[str]:
    """Every image URL a page names: src, lazy attributes, srcset and <source srcset>."""
    soup = BeautifulSoup(html, "lxml")
    found: set[str] = set()
    for tag in soup.find_all(["img", "source"]):
        found.update(filter(None, (attr(tag, a) for a in ("src", "data-src", "data-original"))))
        for name in ("srcset", "data-srcset"):
            for candidate in attr(tag, name).split(","):
                if candidate.strip():
                    found.add(candidate.split()[0])
    return {urljoin(page_url, u) for u in found if not u.startswith("data:")}


def test_articles_are_many_varied_and_served_as_html(site: DemoSite) -> None:
    urls = site.article_urls
    assert len(urls) >= 12 and len(set(urls)) == len(urls)
    assert len({a.layout for a in catalog.ARTICLES}) >= 5
    assert sum(a.lang == "zh" for a in catalog.ARTICLES) * 2 >= len(catalog.ARTICLES)
    for article, url in zip(catalog.ARTICLES, urls, strict=True):
        resp = get(url)
        assert resp.status_code == 200, url
        assert resp.headers["Content-Type"].startswith("text/html"), url
        text = resp.content.decode("gb18030" if article.layout == "portal" else "utf-8")
        assert article.title in text, url
        cjk = len(CJK.findall(BeautifulSoup(text, "lxml").get_text()))
        assert (cjk > 300) == (article.lang == "zh"), (url, cjk)


def test_gbk_portal_page_declares_no_charset(site: DemoSite) -> None:
    portal = next(a for a in catalog.ARTICLES if a.layout == "portal")
    resp = get(site.url(portal.path))
    assert resp.headers["Content-Type"] == "text/html"
    assert b"charset" not in resp.content.lower()
    with pytest.raises(UnicodeDecodeError):
        resp.content.decode("utf-8")
    text = resp.content.decode("gb18030")
    assert f"<title>{portal.title}_山川茶讯网</title>" in text
    assert "发布时间：2019年2月20日 02:26" in text
    assert "<center>" in text and "<font" in text and text.count("<table") >= 4


def test_hotlinked_image_needs_the_sites_own_referer(site: DemoSite) -> None:
    page = next(a for a in catalog.ARTICLES if a.layout == "hotlink")
    page_url = site.url(page.path)
    protected = [u for u in image_urls(page_url, get(page_url).text)
                 if urlsplit(u).path.startswith(catalog.HOTLINK_PROTECTED_PREFIX)]
    assert protected
    image = protected[0]
    assert get(image).status_code == 403
    assert get(image, Referer="http://elsewhere.example/page").status_code == 403
    # a Referer that merely starts with the same characters is another origin
    assert get(image, Referer=site.base_url + "0.evil.example/").status_code == 403
    ok = get(image, Referer=page_url)
    assert ok.status_code == 200
    assert ok.headers["Content-Type"].startswith("image/")
    assert len(ok.content) > 1000


def test_lazy_images_point_at_served_images(site: DemoSite) -> None:
    for article in (a for a in catalog.ARTICLES if a.layout == "news"):
        url = site.url(article.path)
        soup = BeautifulSoup(get(url).text, "lxml")
        lazy = [img for img in soup.find_all("img")
                if attr(img, "data-src") or attr(img, "data-original")]
        assert lazy, url
        for img in lazy:
            placeholder = placeholder_bytes(urljoin(url, attr(img, "src")))
            assert placeholder[:6] == b"GIF89a" and placeholder[6:10] == b"\x01\x00\x01\x00"
            real = get(urljoin(url, attr(img, "data-src") or attr(img, "data-original")))
            assert real.status_code == 200 and real.headers["Content-Type"].startswith("image/")
        assert soup.find("img", srcset=True) is not None
    night = BeautifulSoup(get(site.article_urls[8]).text, "lxml")
    assert night.select_one("picture > source[type='image/webp'][srcset]") is not None


def test_every_image_an_article_names_is_served(site: DemoSite) -> None:
    kinds = set()
    for article, url in zip(catalog.ARTICLES, site.article_urls, strict=True):
        text = get(url).content.decode("gb18030" if article.layout == "portal" else "utf-8")
        for image in image_urls(url, text):
            got = get(image, Referer=url)
            assert got.status_code == 200, (url, image)
            kinds.add(got.headers["Content-Type"])
    assert kinds == {"image/jpeg", "image/png", "image/gif", "image/webp"}


def test_images_stay_small() -> None:
    images = [p for p in SITE_ROOT.rglob("*") if p.suffix in {".jpg", ".png", ".gif", ".webp"}]
    assert len(images) >= 20
    assert sum(p.stat().st_size for p in images) < 300_000


def test_pages_carry_their_own_origin(site: DemoSite) -> None:
    html = get(site.article_urls[0]).text
    assert f'<link rel="canonical" href="{site.base_url}/articles/' in html
    assert "__ORIGIN__" not in html


def test_tracking_variant_serves_the_same_page(site: DemoSite) -> None:
    variant = site.tracking_variant_url
    query = urlsplit(variant).query
    assert "utm_source=" in query and "spm=" in query
    plain = variant.split("?", 1)[0]
    assert plain in site.article_urls
    assert get(variant).content == get(plain).content


def test_near_duplicate_differs_by_one_sentence_and_the_footer(site: DemoSite) -> None:
    original = get(site.url(catalog.NEAR_DUPLICATE_OF)).text
    copy = get(site.near_duplicate_url).text
    assert copy != original
    assert difflib.SequenceMatcher(None, original, copy).ratio() > 0.97
    changed = [line for line in difflib.ndiff(original.splitlines(), copy.splitlines())
               if line.startswith("+ ")]
    assert len(changed) == 2
    assert "修到第三个月" in changed[0] and "转载" in changed[1]


def test_interstitial_is_a_short_please_wait_page(site: DemoSite) -> None:
    resp = get(site.interstitial_url)
    assert resp.status_code == 200
    soup = BeautifulSoup(resp.text, "lxml")
    assert "正在验证" in resp.text and "请稍候" in resp.text
    assert soup.find("meta", attrs={"http-equiv": "refresh"}) is not None
    for tag in soup(["script", "style"]):
        tag.decompose()
    assert len(soup.get_text(strip=True)) < 200


def test_list_page_links_every_article_with_little_prose(site: DemoSite) -> None:
    soup = BeautifulSoup(get(site.list_url).text, "lxml")
    links = {urljoin(site.list_url, attr(a, "href")).split("?", 1)[0]
             for a in soup.find_all("a", href=True)}
    assert set(site.article_urls) <= links
    prose = sum(len(p.get_text(strip=True)) for p in soup.find_all("p"))
    assert prose < 200


def test_paste_text_mixes_links_and_junk(site: DemoSite) -> None:
    text = site.paste_text()
    for url in site.article_urls:
        assert url in text
    assert site.tracking_variant_url in text and site.near_duplicate_url in text
    assert "mailto:" in text and "javascript:" in text
    assert re.search(r"\[[^\]]+\]\(http://127\.0\.0\.1:\d+/", text)


def test_request_log_records_path_and_headers(site: DemoSite) -> None:
    before = len(site.request_log)
    get(site.list_url + "?probe=1", **{"X-Probe": "demo-test", "User-Agent": "KuaibuTest/1"})
    records = site.request_log[before:]
    mine = [r for r in records if r.path == "/?probe=1"]
    assert len(mine) == 1
    assert mine[0].method == "GET"
    assert mine[0].header("x-probe") == "demo-test"
    assert mine[0].header("USER-AGENT") == "KuaibuTest/1"
    assert mine[0].header("Referer") is None
    log = site.request_log
    assert all(a.time <= b.time for a, b in zip(log, log[1:], strict=False))


def test_head_answers_headers_only(site: DemoSite) -> None:
    url = site.article_urls[0]
    full = get(url)
    head = requests.head(url, timeout=PATIENCE)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["Content-Length"] == str(len(full.content))
    assert head.headers["Content-Type"] == full.headers["Content-Type"]


def test_unknown_paths_and_directory_redirects(site: DemoSite) -> None:
    assert get(site.url("/no/such/page.html")).status_code == 404
    assert get(site.url("/server.py")).status_code == 404
    blog = next(a for a in catalog.ARTICLES if a.layout == "blog")
    bare = site.url(blog.path.rstrip("/"))
    resp = get(bare)
    assert resp.status_code == 301 and resp.headers["Location"] == blog.path


@pytest.mark.parametrize("path", [
    "/../server.py",
    "/%2e%2e/server.py",
    "/img/%2E%2E/%2e%2e/catalog.py",
    "/img/..%2f..%2fserver.py",
    "/img/..\\..\\server.py",
    "/./index.html",
])
def test_path_traversal_is_refused(site: DemoSite, path: str) -> None:
    status, body = raw_request(site, "GET", path)
    assert status in (400, 404)
    assert b"DemoSite" not in body and b"ARTICLES" not in body


@pytest.mark.parametrize("path", [
    "/../secret.html",
    "/%2e%2e/secret.html",
    "/sub/%2E%2E/%2e%2e/secret.html",
    "/sub/..%2f..%2fsecret.html",
    "/sub/..\\..\\secret.html",
    "/link/secret.html",
])
def test_no_path_leaves_the_root(tmp_path: Path, path: str) -> None:
    """Against a root with a servable file just outside it, and a symlink pointing there."""
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "ok.html").write_text("inside")
    (tmp_path / "secret.html").write_text("SECRET")
    (root / "link").symlink_to(tmp_path, target_is_directory=True)
    assert respond(root, "http://127.0.0.1:1", "/sub/ok.html", None).body == b"inside"
    resp = respond(root, "http://127.0.0.1:1", path, None)
    assert resp.status in (400, 404)
    assert b"SECRET" not in resp.body
