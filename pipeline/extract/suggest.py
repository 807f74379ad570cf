""""Pick content": the extractor's choice written as a selector a person can keep in rules.yaml."""

from __future__ import annotations

import re

from lxml import etree

from pipeline.extract.dom import parse, selector, tag_of, text_of


def _compact(text: str) -> str:
    return "".join(text.split())


def _unique(root: etree._Element, css: str, el: etree._Element) -> bool:
    try:
        found = selector(css)(root)
    except Exception:  # cssselect refuses odd class names; that candidate is simply unusable
        return False
    return len(found) == 1 and found[0] is el


def _own_selectors(el: etree._Element) -> list[str]:
    tag = tag_of(el)
    out = []
    if el.get("id") and re.fullmatch(r"[A-Za-z][\w-]*", el.get("id") or ""):
        out.append(f"#{el.get('id')}")
    classes = [c for c in (el.get("class") or "").split() if re.fullmatch(r"[A-Za-z_][\w-]*", c)]
    out += [f"{tag}.{c}" for c in classes]
    if len(classes) > 1:
        out.append(tag + "".join(f".{c}" for c in classes))
    out.append(tag)
    return out


def suggest_selector(page_html: str, article_text: str) -> str | None:
    """A CSS selector for the smallest element of the page holding the whole article text.

    The extractor's own choice, expressed as a rule a person can keep ("Pick content").
    """
    compact = _compact(article_text)
    if len(compact) < 20:
        return None
    head, tail = compact[:40], compact[-40:]
    root = parse(page_html)
    best: etree._Element | None = None
    best_len = 0
    for el in root.iter():
        if not tag_of(el) or tag_of(el) in ("html", "body"):
            continue
        text = _compact(text_of(el))
        if head in text and tail in text and (best is None or len(text) <= best_len):
            best, best_len = el, len(text)
    if best is None:
        return None
    for css in _own_selectors(best):
        if _unique(root, css, best):
            return css
    for ancestor in best.iterancestors():
        if tag_of(ancestor) in ("html", "body"):
            break
        for outer in _own_selectors(ancestor)[:-1]:  # an id or class, not a bare tag
            for inner in _own_selectors(best):
                css = f"{outer} {inner}"
                if _unique(root, css, best):
                    return css
    return None
