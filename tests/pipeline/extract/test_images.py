"""extract() resolves each image on the whole page, before noise removal cuts context."""

from __future__ import annotations

from pipeline.extract import extract
from pipeline.rules.model import SiteRules
from tests.pipeline.extract.pages import PROSE, article_page

URL = "https://news.example.com/2019/02/river-rises.html"


def images_of(figure: str, rules: SiteRules | None = None) -> list[str]:
    body = f"<p>{PROSE[0]}</p>{figure}<p>{PROSE[1]}</p><p>{PROSE[2]}</p>"
    return extract(article_page(body), URL, rules).images


def test_noscript_copy_beats_a_placeholder() -> None:
    fig = ('<figure><img src="/img/blank.gif" class="lazyload" alt="Bridge">'
           '<noscript><img src="/img/bridge-real.jpg" alt="Bridge"></noscript></figure>')
    assert images_of(fig) == ["https://news.example.com/img/bridge-real.jpg"]


def test_picture_source_within_the_size_cap() -> None:
    fig = ('<picture><source type="image/webp" srcset="/a-800.webp 800w, /a-3000.webp 3000w">'
           '<img src="/a-400.jpg" alt="A"></picture>')
    assert images_of(fig) == ["https://news.example.com/a-800.webp"]


def test_rules_lazy_attribute_and_base_href() -> None:
    page = article_page(f'<p>{PROSE[0]}</p><img src="x.gif" data-hi-res="pics/a.jpg">'
                        f"<p>{PROSE[1]}</p><p>{PROSE[2]}</p>",
                        head='<base href="https://cdn.example.com/news/">')
    a = extract(page, URL, SiteRules(lazy_attrs=("data-hi-res",)))
    assert a.images == ["https://cdn.example.com/news/pics/a.jpg"]


def test_background_image_becomes_an_img_and_data_uri_is_kept() -> None:
    pixel = "data:image/png;base64," + "iVBORw0KGgo" * 60  # a real-sized inline image
    fig = (f'<div class="hero" style="background-image: url(\'/img/hero.jpg\')"></div>'
           f'<p><img src="{pixel}" alt="inline"></p>')
    assert images_of(fig) == ["https://news.example.com/img/hero.jpg", pixel]


def test_a_lazy_background_without_a_style_becomes_an_img() -> None:
    """Lazy-loading themes name the picture in data-bg and set the style from a script: the
    element has no style attribute at all, and is found all the same."""
    fig = '<div class="hero lazy" data-bg="/img/hero-lazy.jpg"></div>'
    assert images_of(fig) == ["https://news.example.com/img/hero-lazy.jpg"]
