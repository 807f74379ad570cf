"""The article text a page carries for machines, not in its markup (issue 19).

Pages that scripts fill in often ship the article inside a script: schema.org JSON-LD
(``articleBody``) for search engines, or Next.js's ``__NEXT_DATA__`` (the page's props, from
which the browser builds the page). Reading it costs a JSON parse, no browser.

The scripts are read from the raw HTML, not from a tree: when the markup's result is known,
every tree of the cascade has lost its scripts to noise removal, and a scan costs less than
another parse. A script ends at ``</script``, as the HTML Standard says (a JSON string may hold
``</p>`` unescaped). What is parsed is bounded (``ExtractOptions.embedded_json_max_chars``) and
walked without recursion, so a hostile page cannot make it explode.
"""

from __future__ import annotations

import html as html_lib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from lxml import etree

from pipeline.extract.dom import parse, split_br_runs
from pipeline.extract.images import mark_images
from pipeline.extract.options import DEFAULT, ExtractOptions
from pipeline.records.article import Method

_HINT = re.compile(r"application/ld\+json|__NEXT_DATA__", re.I)
_SCRIPT_OPEN = re.compile(r"<script\b", re.I)
_SCRIPT_END = re.compile(r"</script", re.I)
_LD_TYPE = re.compile(r"""\btype\s*=\s*["']?\s*application/ld\+json""", re.I)
_NEXT_ID = re.compile(r"""\bid\s*=\s*["']?__NEXT_DATA__\b""", re.I)
# A script's JSON wrapped for old parsers: <!-- … -->, <![CDATA[ … ]]>, //<![CDATA[ … //]]>
_WRAPPER = re.compile(r"^\s*(?://\s*)?(?:<!--|<!\[CDATA\[)|(?://\s*)?(?:-->|\]\]>)\s*$")
# Markup a body written as HTML has; a plain-text body is written as paragraphs instead.
_MARKUP = re.compile(
    r"</?(?:p|br|div|h[1-6]|ul|ol|li|blockquote|figure|img|a|em|strong|b|i|span|section|"
    r"table|pre)\b[^>]*>", re.I)
_TAG = re.compile(r"<[^>]*>")
_SENTENCE_END = re.compile(r"[.!?](?=[\s\"'”’)\]]|$)|[。！？]")
_CODE_CHARS = frozenset("{}<>=;\\|$")
# Article types by name: schema.org's (NewsArticle, BlogPosting, DiscussionForumPosting, …)
# and the many a site makes up end so; two of the standard ones do not.
_ARTICLE_TYPE = re.compile(r"(?:Article|Posting|^Report|^APIReference)$")


@dataclass(frozen=True)
class EmbeddedBody:
    """An article body found in a script: where (the Article's method), and as HTML."""

    source: Method
    html: str
    chars: int  # characters of its text, white space not counted (as ``Article.chars``)


def find_body(page_html: str, options: ExtractOptions = DEFAULT) -> EmbeddedBody | None:
    """The page's embedded article body, or None. JSON-LD's ``articleBody`` is the site's own
    statement; ``__NEXT_DATA__`` has no fixed key, so its body is the prose string that stands
    out in the page's props. The longer of the two wins (a JSON-LD teaser beside full props)."""
    if not _HINT.search(page_html):
        return None
    ld: list[Any] = []
    next_data: Any = None
    budget = options.embedded_json_max_chars
    for attrs, raw in _scripts(page_html):
        is_ld, is_next = bool(_LD_TYPE.search(attrs)), bool(_NEXT_ID.search(attrs))
        if not (is_ld or is_next) or len(raw) > budget:
            continue
        budget -= len(raw)
        data = _load(raw)
        if is_next:
            next_data = data
        elif data is not None:
            ld.append(data)
    found = [b for b in (_ld_body(ld, options), _next_body(next_data, options)) if b]
    return max(found, key=lambda b: b.chars) if found else None


def body_tree(body: EmbeddedBody, base_url: str,
              lazy_attrs: tuple[str, ...] = ()) -> etree._Element:
    """The body as a tree the clean stage can cut: parsed like a page (its images resolved,
    ``<br>`` runs made paragraphs), so the one whitelist decides what of it a reader sees."""
    root = parse(f"<html><body>{body.html}</body></html>")
    mark_images(root, base_url, lazy_attrs)
    split_br_runs(root)
    return root.find("body")


def _scripts(page_html: str) -> Iterator[tuple[str, str]]:
    """Each script's attributes and content, in page order. Every search goes on from where
    the last one ended, so a page of a thousand unclosed "<script" costs one pass."""
    pos = 0
    while opened := _SCRIPT_OPEN.search(page_html, pos):
        tag_end = page_html.find(">", opened.end())
        closed = _SCRIPT_END.search(page_html, tag_end + 1) if tag_end >= 0 else None
        if closed is None:
            return  # no later script can end either
        yield page_html[opened.end():tag_end], page_html[tag_end + 1:closed.start()]
        pos = closed.end()


def _load(raw: str) -> Any:
    """A script's JSON, or None when it is not JSON (a comment, a template, a syntax error,
    nesting deeper than the decoder allows). Raw control characters in strings are common."""
    try:
        return json.loads(_WRAPPER.sub("", raw.strip()), strict=False)
    except (ValueError, RecursionError):
        return None


def _ld_body(items: list[Any], options: ExtractOptions) -> EmbeddedBody | None:
    """The longest article body of the JSON-LD objects (arrays, ``@graph`` and nested objects
    included): ``articleBody``, which only articles have, or an article type's ``text``."""
    best: EmbeddedBody | None = None
    for node in _walk(items, options.embedded_json_max_nodes):
        if not isinstance(node, dict):
            continue
        value = node.get("articleBody")
        if not isinstance(value, str) and _is_article(node.get("@type")):
            value = node.get("text")
        if isinstance(value, str) and (body := _body(Method.JSON_LD, value, options,
                                                     brief=True)):
            if best is None or body.chars > best.chars:
                best = body
    return best


def _is_article(types: Any) -> bool:
    names = types if isinstance(types, list) else [types]
    # "schema:NewsArticle", "https://schema.org/NewsArticle": the name is the last part
    return any(isinstance(t, str) and _ARTICLE_TYPE.search(re.split(r"[:/#]", t)[-1])
               for t in names)


def _next_body(data: Any, options: ExtractOptions) -> EmbeddedBody | None:
    """The prose string that stands out in ``props.pageProps``: the longest, when the runner-up
    is well shorter. A list page's props hold several bodies of a like length; an article's
    body stands alone beside its teasers and related links."""
    if not isinstance(data, dict):
        return None
    props = data.get("props")
    if isinstance(props, dict) and isinstance(props.get("pageProps"), dict):
        props = props["pageProps"]
    bodies: dict[str, EmbeddedBody] = {}  # by text: a body given as text and as HTML is one
    for node in _walk([props], options.embedded_json_max_nodes):
        if isinstance(node, str) and len(node) >= options.embedded_min_chars:
            if body := _body(Method.NEXT_DATA, node, options, prose_only=True):
                bodies.setdefault(" ".join(_text(node).split()), body)
    ranked = sorted(bodies.values(), key=lambda b: b.chars, reverse=True)
    if not ranked:
        return None
    if len(ranked) > 1 and ranked[1].chars >= options.next_data_runner_up * ranked[0].chars:
        return None
    return ranked[0]


def _walk(roots: list[Any], max_nodes: int) -> Iterator[Any]:
    """Every value under the roots, depth first, at most ``max_nodes`` of them; a stack, not
    recursion, so depth costs nothing."""
    stack = list(reversed(roots))
    for _ in range(max_nodes):
        if not stack:
            return
        node = stack.pop()
        yield node
        if isinstance(node, dict):
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))


def _body(source: Method, value: str, options: ExtractOptions,
          prose_only: bool = False, brief: bool = False) -> EmbeddedBody | None:
    """The value as a body when it is long enough (and, where any string could be the body,
    reads as prose); plain text becomes a paragraph a line. Where the site names its body
    (``brief``: JSON-LD's ``articleBody``) a shorter one is a body too when it reads as prose:
    a news brief, a 快讯 (``extract`` lets it stand in only where the markup holds no article)."""
    text = _text(value)
    chars = len("".join(text.split()))
    short = chars < options.embedded_min_chars
    if not chars or short and not brief or (
            (prose_only or short) and not reads_as_prose(text, options)):
        return None
    if _MARKUP.search(value):
        return EmbeddedBody(source, value, chars)
    lines = (" ".join(line.split()) for line in html_lib.unescape(value).splitlines())
    paragraphs = "".join(f"<p>{html_lib.escape(line)}</p>" for line in lines if line)
    return EmbeddedBody(source, paragraphs, chars)


def _text(value: str) -> str:
    """What a reader would read of the value: tags out, entities decoded."""
    return html_lib.unescape(_TAG.sub(" ", value) if _MARKUP.search(value) else value)


def reads_as_prose(text: str, options: ExtractOptions = DEFAULT) -> bool:
    """Running text, not a URL list, a token, code or CSS: mostly letters, sentences that end,
    hardly any of the characters code is made of (one at least is allowed: a brief of a
    hundred characters may hold a semicolon)."""
    dense = "".join(text.split())
    if not dense:
        return False
    letters = sum(c.isalnum() for c in dense)
    code = sum(c in _CODE_CHARS for c in dense)
    sentences = len(_SENTENCE_END.findall(text))
    return (letters >= options.prose_letter_share * len(dense)
            and code <= max(1.0, options.prose_code_share * len(dense))
            and sentences * options.prose_sentence_chars >= len(dense))
