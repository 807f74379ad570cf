"""What each of a site's rules does on a page: how many elements a selector matches and how
much text it takes, so the rules editor can say "content selector matched 1 element (2,431
characters)" or "matched nothing: automatic extraction used" instead of leaving a person to
guess why the article looks as it does."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from pipeline.extract.dom import parse, remove, text_of
from pipeline.rules.findings import RuleEffect, RuleKey
from pipeline.rules.model import SiteRules
from pipeline.rules.selectors import selector


def rule_effects(html: str, rules: SiteRules) -> list[RuleEffect]:
    """Each selector's effect, in the order extraction applies them: the title selector on
    the whole page (the headline is read before anything is cut), the strip selectors one
    after another (what one removed, the next does not find), the content selector on what
    is left."""
    root = parse(html)
    effects = [_effect(root, RuleKey.TITLE, rules.title_selector)] if rules.title_selector else []
    for css in rules.strip_all:
        effects.append(effect := _effect(root, RuleKey.STRIP, css))
        for el in effect.elements:
            remove(el)
    if rules.content_selector:
        effects.append(_effect(root, RuleKey.CONTENT, rules.content_selector))
    return [RuleEffect(e.key, e.css, len(e.elements), _chars(e.elements)) for e in effects]


@dataclass(frozen=True)
class _Found:
    key: RuleKey
    css: str
    elements: list[etree._Element]


def _effect(root: etree._Element, key: RuleKey, css: str) -> _Found:
    return _Found(key, css, _outer(selector(css)(root)))


def _outer(found: list[etree._Element]) -> list[etree._Element]:
    matched = set(found)
    return [el for el in found if not any(a in matched for a in el.iterancestors())]


def _chars(found: list[etree._Element]) -> int:
    return sum(len("".join(text_of(el).split())) for el in found)
