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


def test_a_noscript_picture_no_image_shows_is_kept() -> None:
    """A lazy <div> a script fills in, and the <noscript> after it with the only <img> of
    the picture: the picture is the article's (issue 27)."""
    fig = ('<figure><div class="lazy-image" data-src="/img/bridge-480.jpg"></div>'
           '<noscript><img src="/img/bridge-480.jpg" alt="Bridge"></noscript>'
           '<figcaption>The old bridge</figcaption></figure>')
    assert images_of(fig) == ["https://news.example.com/img/bridge-480.jpg"]


def test_a_noscript_picture_beside_a_placeholder_that_names_no_source_is_kept() -> None:
    fig = ('<figure><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Bridge">'
           '<noscript><img srcset="/img/bridge-800.jpg 800w, /img/bridge-400.jpg 400w" '
           'alt="Bridge"></noscript></figure>')
    assert images_of(fig) == ["https://news.example.com/img/bridge-800.jpg"]


def test_a_noscript_copy_of_the_lazy_image_is_not_kept_twice() -> None:
    """The copy may name another size of the same picture: it stands for the image before it."""
    fig = ('<figure><img src="/img/blank.gif" data-src="/img/bridge-1024.jpg" alt="Bridge">'
           '<noscript><img src="/img/bridge-300.jpg" alt="Bridge"></noscript></figure>'
           '<p><img src="/img/map.png" alt="Map"></p>'
           '<noscript><img src="/img/map.png" alt="Map"></noscript>')
    assert images_of(fig) == ["https://news.example.com/img/bridge-1024.jpg",
                              "https://news.example.com/img/map.png"]


def test_a_noscript_beacon_is_not_a_picture() -> None:
    fig = ('<noscript><img src="https://stats.example.net/p?c=42" width="1" height="1">'
           '</noscript>')
    assert images_of(fig) == []


def test_a_script_s_or_an_ad_s_noscript_image_is_not_a_picture() -> None:
    """After a script (a counter, an ad tag) the <noscript> is the script's fallback; an image
    in a link there is an ad's click-through."""
    fig = ('<script>count()</script><noscript><img src="https://stats.example.net/c.gif">'
           '</noscript><noscript><a href="https://ads.example.net/jump/1">'
           '<img src="https://ads.example.net/ad/1.jpg"></a></noscript>')
    assert images_of(fig) == []
