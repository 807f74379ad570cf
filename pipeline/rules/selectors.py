"""CSS selectors of rules.yaml, compiled once: the one reader of a selector, for the rules
check (a selector no page can be cut with fails the file when it is read) and for every
extraction step that applies one. Outside ``pipeline.extract`` so that reading the rules does
not import the extractor, which imports the rules.

cssselect is imported by the first selector read, not with this module: most pages are cut
with no selector at all, and its import (a dozen patterns compiled) costs ``main.py extract``
about 10 ms in every process (issue 27 §10)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from pipeline.records.errors import BadSelectorError
from pipeline.records.failures import Code, failure

if TYPE_CHECKING:
    from lxml.cssselect import CSSSelector


@lru_cache(maxsize=256)
def selector(css: str) -> CSSSelector:
    """A compiled CSS selector (rules.yaml selectors repeat for every page of a site).
    A selector cssselect cannot read fails the page with a message naming it."""
    from cssselect import ExpressionError, SelectorError
    from lxml.cssselect import CSSSelector

    try:
        return CSSSelector(css)
    except (SelectorError, ExpressionError) as e:
        raise BadSelectorError(failure(Code.BAD_SELECTOR, repr(css), e)) from None
