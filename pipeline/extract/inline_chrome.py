"""Chrome that sits inside a sentence: what a pop-up adds goes, the words it hangs on stay.

A hover card (``<span class="rollover-people"><a>Ilhan Omar</a><span>…photo, six
links…</span></span>``), a tooltip (``<span class="tooltip">term<span>explanation</span></span>``)
and their kin carry a chrome word in their class, so chrome removal took them whole, and the
paragraph read "threatened to kill Rep. (D-Minn.)" (issue 27). A paragraph that is kept keeps
every word of its running text: an inline element with a chrome class inside running text keeps
its trigger (the words a reader sees in the sentence) and loses what follows them (the card).
An inline element that stands alone in its block (a byline, a "Share" label) is chrome like
any other, and goes whole.
"""

from __future__ import annotations

import re

from lxml import etree

from pipeline.extract.dom import BLOCK_TAGS, tag_of
from pipeline.extract.options import DEFAULT, ExtractOptions

_WORD = re.compile(r"\w")


def cut_to_trigger(el: etree._Element, opts: ExtractOptions = DEFAULT) -> bool:
    """Cut an inline chrome element that sits in running text to its trigger; False (nothing
    done) when it stands alone in its block or shows no words. Called in document order, an
    outer card is cut before the cards it holds are looked at."""
    if not _chars("".join(el.itertext())) or not _in_running_text(el, opts):
        return False
    children = list(el)
    if (el.text or "").strip():
        cut = children  # its own words are the trigger, its children the card
    else:  # the trigger: the first child showing words (a link, a name), with its tail
        first = next((i for i, child in enumerate(children)
                      if "".join(child.itertext()).strip() or (child.tail or "").strip()),
                     len(children))
        cut = children[first + 1:]
    for child in cut:
        el.remove(child)  # lxml removes the tail with the element: the card's own words
    return True


def _in_running_text(el: etree._Element, opts: ExtractOptions) -> bool:
    """Whether the inline ``el`` sits in a sentence: words right before or right after it (a
    name's "Rep. " and " (D-Minn.)"), and its block's own line holding at least
    ``inline_context_chars`` characters (white space not counted) beside ``el``'s. A label
    beside a picture or a list of tags has elements or commas around it, not words."""
    block = next((a for a in el.iterancestors() if tag_of(a) in BLOCK_TAGS), None)
    if block is None or not (_WORD.search(_beside(el, before=True))
                             or _WORD.search(_beside(el, before=False))):
        return False
    return _line_chars(block) - _chars("".join(el.itertext())) >= opts.inline_context_chars


def _beside(el: etree._Element, before: bool) -> str:
    """The text right before (or after) ``el`` in its line, looking through the inline
    wrappers it begins (or ends)."""
    while True:
        parent = el.getparent()
        if parent is None:
            return ""
        sibling = el.getprevious() if before else el.getnext()
        text = ((sibling.tail if sibling is not None else parent.text) if before
                else el.tail) or ""
        if text.strip() or sibling is not None or tag_of(parent) in BLOCK_TAGS:
            return text
        el = parent


def _line_chars(block: etree._Element) -> int:
    """Characters of a block's own line: its text and its inline children's, not its blocks'."""
    parts = [block.text or ""]
    for child in block:
        if tag_of(child) not in BLOCK_TAGS:
            parts.extend(child.itertext())
        parts.append(child.tail or "")
    return _chars("".join(parts))


def _chars(text: str) -> int:
    return len("".join(text.split()))
