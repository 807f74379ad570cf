"""A page that scripts fill in fails as "needs JavaScript", with how to have it rendered; a
page that merely mentions JavaScript does not (issue 19)."""

from __future__ import annotations

import pytest

from pipeline.extract import extract
from pipeline.extract.scripted import shell_signal
from pipeline.records.errors import ErrorKind, ExtractError, NeedsJavaScript
from tests.pipeline.extract.pages import PROSE, article_page

URL = "https://app.example.com/p/42"
BUNDLE = "<script>" + "window.__a=function(){return 1};" * 1000 + "</script>"


def page(body: str, head: str = "") -> str:
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Example App</title>{head}</head><body>{body}</body></html>"""


def needs_js(html: str, url: str = URL) -> NeedsJavaScript:
    with pytest.raises(NeedsJavaScript) as failure:
        extract(html, url)
    assert failure.value.kind is ErrorKind.NEEDS_JS
    return failure.value


def test_an_empty_root_with_a_bundle_needs_javascript_and_says_how_to_render() -> None:
    e = needs_js(page('<div id="root"></div><script src="/static/js/main.4c1d.js"></script>'
                      + BUNDLE))
    assert e.signal == "an empty #root beside scripts (1 file, 32 KB inline)"
    message = str(e)
    assert message.startswith("needs JavaScript: an empty #root")
    for advice in ("render: browser", "the app.example.com: section", "rules.yaml",
                   "Render with browser", "pip install -e '.[browser]'", "apt install chromium"):
        assert advice in message
    assert isinstance(e, ExtractError)  # every caller of extract already handles it


@pytest.mark.parametrize("mount, name", [
    ('<div id="__next"></div>', "#__next"), ('<div id="app"> </div>', "#app"),
    ('<div id="__nuxt"><div class="spinner"></div></div>', "#__nuxt"),
    ("<app-root></app-root>", "<app-root>"), ('<div data-reactroot=""></div>', "[data-reactroot]"),
])
def test_each_framework_s_mount_point(mount: str, name: str) -> None:
    html = page(f'{mount}<script type="module" src="/assets/index-9a8b.js"></script>')
    assert needs_js(html).signal.startswith(f"an empty {name} beside scripts (1 file")


def test_an_empty_mount_point_without_scripts_is_only_an_empty_page() -> None:
    assert shell_signal(page('<div id="root"></div>')) is None
    with pytest.raises(ExtractError) as failure:
        extract(page('<div id="root"></div>'), URL)
    assert failure.value.kind is ErrorKind.NO_ARTICLE


@pytest.mark.parametrize("plea", [
    "You need to enable JavaScript to run this app.",
    "We're sorry but this site doesn't work properly without JavaScript enabled.",
    "JavaScript is required to view this page.",
    "Please turn on JavaScript in your browser settings.",
    "本网站需要 JavaScript 才能正常显示。",
    "请启用 JavaScript 后刷新页面",
    "请在浏览器中开启JavaScript",
    "您的浏览器已禁用JS，请开启后重试",
    "このサイトを表示するにはJavaScriptを有効にしてください。",
])
def test_a_noscript_asking_for_javascript(plea: str) -> None:
    e = needs_js(page(f"<noscript>{plea}</noscript><main></main>"))
    assert e.signal == f'a <noscript> asks for JavaScript ("{plea}")'


def test_a_plea_in_the_page_itself() -> None:
    e = needs_js(page('<div class="warn">Please enable JavaScript to continue.</div>'))
    assert e.signal.startswith("the page asks for JavaScript")


@pytest.mark.parametrize("placeholder", ["Loading…", "Loading, please wait", "加载中...",
                                         "正在加载", "載入中"])
def test_a_loading_placeholder(placeholder: str) -> None:
    e = needs_js(page(f'<div class="boot"><span>{placeholder}</span></div>'))
    assert e.signal == f'a "{placeholder}" placeholder'


def test_scripts_that_outweigh_a_few_words() -> None:
    e = needs_js(page(f"<p>Example App</p>{BUNDLE}{BUNDLE}"))
    assert e.signal == "scripts (64 KB inline) and only 10 characters of text"


def test_an_article_with_a_noscript_for_its_comments_is_archived() -> None:
    after = ('<div id="comments"><noscript>Please enable JavaScript to view the comments '
             'powered by Disqus.</noscript><div id="disqus_thread"></div></div>'
             '<noscript>JavaScript is required for the site search.</noscript>'
             '<div id="app"></div><script src="/analytics.js"></script>' + BUNDLE)
    a = extract(article_page(after=after), URL)
    assert all(p in a.text for p in PROSE) and "JavaScript" not in a.text


def test_a_short_note_that_mentions_javascript_is_kept() -> None:
    """A tiny article is judged too, but a plea for one part of a page is not a shell's."""
    note = ("<p>The office is closed on Friday, and the video of the talk is online.</p>"
            "<noscript>The video player requires JavaScript.</noscript>"
            "<noscript>请启用 JavaScript 查看评论。</noscript>")
    a = extract(page(note), URL)
    assert a.text == "The office is closed on Friday, and the video of the talk is online."


def test_a_list_page_with_a_plea_stays_no_article() -> None:
    """Lots of text besides the plea: a page whose article is not there, not a shell."""
    teasers = "".join(f'<li><a href="/n/{n}">Story {n}</a> {PROSE[n % 4]}</li>'
                      for n in range(12))
    html = page(f"<noscript>Please enable JavaScript.</noscript><ul>{teasers}</ul>")
    assert shell_signal(html) is None


def test_a_site_rendered_already_is_not_told_to_render() -> None:
    html = page('<div id="root"></div><script src="/main.js"></script>')
    with pytest.raises(NeedsJavaScript) as failure:
        extract(html, URL, rendered=True)
    assert "even rendered with a browser" in str(failure.value)
    assert "pip install" not in str(failure.value)


def test_a_page_without_an_address_still_gets_advice() -> None:
    assert "the <host>: section" in str(needs_js(page("<noscript>Enable JavaScript</noscript>"),
                                              url=""))
