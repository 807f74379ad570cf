"""Telling a page that scripts build from a page without an article (issue 19).

Kuaibu fetches without running scripts, so a single-page app arrives as its shell: a mount
point for the app, a bundle of scripts, a "Loading…" or a ``<noscript>`` asking for JavaScript.
Such a page needs a browser, not a content_selector, and its failure should say so. The
judgement runs only on a page where no article came out (or a tiny one): a real article beside
a ``<noscript>`` for its comments or analytics never reaches it.
"""

from __future__ import annotations

import re

from lxml import etree

from pipeline.extract.dom import parse, text_of
from pipeline.extract.options import DEFAULT, ExtractOptions
from pipeline.text.lazy_patterns import compiled
from pipeline.text.markup import drop_never_read

_JS = r"(?:java\s?script|(?<![a-z])js(?![a-z]))"
# …for a part of the page only: "enable JavaScript to view the comments powered by Disqus",
# "Media requires JavaScript to play" (on the dev sets, most of the pleas are of these two).
_FOR_A_PART = re.compile(r"comment|disqus|评论|評論|留言|コメント|media|video|player|flash|"
                         r"视频|視頻|播放", re.I)
_LOADING = re.compile(r"\bloading\b|加载中|正在加载|載入中|加載中|読み込み中", re.I)
# Where single-page app frameworks mount (React, Vue, Next.js, Nuxt, Gatsby, Angular, …).
_MOUNT_IDS = frozenset(("root", "app", "__next", "__nuxt", "___gatsby", "app-root",
                        "react-root", "svelte", "q-app"))
_MOUNT_ATTRS = ("data-reactroot", "ng-app", "ng-version")
_MOUNT_TAGS = frozenset(("app-root",))
# Scripts a browser runs (not JSON-LD, not a template): no type, a JavaScript one, a module.
_SCRIPT_TYPE = re.compile(r"\s*(?:$|module\s*$|(?:text|application)/(?:x-)?(?:java|ecma)script)",
                          re.I)
_QUOTE_CHARS = 80  # how much of the page's own words a message quotes


# Compiled when first asked for (``compiled``): only a page with little or no article is read
# for it, and the pattern costs milliseconds to compile in every ``extract`` process (issue 27
# §10).
_ASKS_FOR_JS = (
    rf"(?:enable|turn\s+on|switch\s+on|activate|allow)\s+(?:your\s+|the\s+)?"
    rf"(?:browser'?s?\s+)?{_JS}"
    rf"|{_JS}\s+(?:is\s+|must\s+be\s+|to\s+be\s+)?(?:required|needed|disabled|"
    rf"turned\s+off|switched\s+off|not\s+enabled)"
    rf"|(?:requires?|needs?)\s+{_JS}|without\s+{_JS}"
    rf"|(?:启用|啟用|开启|開啟|打开|打開|允许|允許|支持|支援|需要|激活|禁用)[^。.!！]{{0,8}}?{_JS}"
    rf"|{_JS}[^。.!！]{{0,6}}?(?:已?被?禁用|未启用|未啟用|未开启|未開啟|关闭|關閉|停用)"
    rf"|{_JS}\s*を\s*(?:有効|オン)"
)


def _asks_for_js() -> re.Pattern[str]:
    """A request to turn scripts on, in the words pages use (English, Chinese, Japanese)."""
    return compiled(_ASKS_FOR_JS, re.I)


def shell_signal(page_html: str, options: ExtractOptions = DEFAULT) -> str | None:
    """What gives the page away as a shell a script fills in, in words for the task's error
    column; None for a page that simply holds no article (a list, a picture, an error page).

    A shell shows little text of its own outside links (a server-drawn menu is links), and
    then one of: a ``<noscript>`` (or the text itself) asking for JavaScript, an empty mount
    point beside script bundles, a loading placeholder, or scripts that outweigh the text."""
    root = parse(page_html)
    body = root.find("body")
    assert body is not None  # parse() always gives a body
    scripts = [s for s in root.iter("script") if _SCRIPT_TYPE.match(s.get("type") or "")]
    external = sum(1 for s in scripts if s.get("src"))
    inline = sum(len(s.text or "") for s in scripts if not s.get("src"))
    noscripts = [text_of(n) for n in root.iter("noscript")]
    mounts = [el for el in body.iter() if isinstance(el.tag, str) and _mount_name(el)]
    drop_never_read(root)
    text = text_of(body)
    shown = _chars(text)
    if shown - sum(_chars(text_of(a)) for a in body.iter("a")) >= options.shell_max_text_chars:
        return None
    asking = [("a <noscript>", words) for words in noscripts]
    if shown < options.shell_max_text_chars:  # in more text, a plea is a footer's aside
        asking.append(("the page", text))
    for where, words in asking:
        if _asks_for_js().search(words) and not _FOR_A_PART.search(words):
            return f'{where} asks for JavaScript ("{_quote(words)}")'
    bundle = external or inline >= options.shell_script_chars
    for el in mounts:
        if bundle and _chars(text_of(el)) < options.shell_mount_max_chars:
            return f"an empty {_mount_name(el)} beside {_scripts(external, inline)}"
    if shown <= options.shell_loading_max_chars and _LOADING.search(text):
        return f'a "{_quote(text)}" placeholder'
    # the weakest signal: it counts a menu's links as the text they are
    if shown < options.shell_max_text_chars and inline >= options.shell_script_chars and (
            inline >= options.shell_script_share * (inline + shown)):
        return f"{_scripts(external, inline)} and only {shown} characters of text"
    return None


def _mount_name(el: etree._Element) -> str | None:
    """How a message names an app's mount point (``#root``, ``<app-root>``), or None."""
    if (ident := el.get("id")) in _MOUNT_IDS:
        return f"#{ident}"
    if el.tag in _MOUNT_TAGS:
        return f"<{el.tag}>"
    return next((f"[{a}]" for a in _MOUNT_ATTRS if el.get(a) is not None), None)


def _scripts(external: int, inline: int) -> str:
    """"scripts (3 files, 45 KB inline)"."""
    parts = [f"{external} file{'s' * (external != 1)}"] if external else []
    if inline:
        parts.append(f"{max(1, round(inline / 1000))} KB inline")
    return f"scripts ({', '.join(parts)})"


def _chars(text: str) -> int:
    return len("".join(text.split()))


def _quote(text: str) -> str:
    return text if len(text) <= _QUOTE_CHARS else text[:_QUOTE_CHARS - 1].rstrip() + "…"
