"""The text helpers both halves of the metadata share: the walk that gathers candidates
(``gather``, ``headlines``) and the vote that weighs them (``title``, ``declared_titles``).

Apart so that each of those modules reads one title's text the same way (its key, its
marks stripped, its length as a reader sees it) without importing the others."""

from __future__ import annotations

import re
from functools import lru_cache

from lxml import etree

from pipeline.text.cjk import HAN_CHAR

# Paginated articles: "(第2页)", "(页 1)", "(1/3)", "- Page 2" belong to the page, not the story.
_PAGE_MARK = re.compile(
    r"\s*(?:[(（\[【]\s*(?:第?\s*[\d一二三四五六七八九十]+\s*页|页\s*\d+|\d+\s*/\s*\d+|"
    r"page\s*\d+(?:\s*of\s*\d+)?)\s*[)）\]】]|"
    r"(?:\s+|\s*[-_|:：,，]\s*)(?:第\s*[\d一二三四五六七八九十]+\s*页|page\s+\d+(?:\s+of\s+\d+)?))\s*$",
    re.I,
)
# Documentation generators (Sphinx, MkDocs, Docusaurus) end headings in a permalink mark.
_PERMALINK = re.compile(r"\s*[¶#§]\s*$")
# A separator left at the end once a template's site name went missing ("标题 - -", "标题_");
# an underscore that ends an identifier ("__init__") is none.
_SEPARATORS = "-–—|｜_·•»«/>›~"
_TRAILING_SEPARATORS = re.compile(
    r"(?:\s*(?:[-–—|｜·•»«/>›~]|(?<![A-Za-z0-9_])_+))+\s*$")
_NON_WORD = re.compile(r"[\W_]+")
# The same characters within ASCII (all but letters and digits), deleted from an ASCII text's
# bytes by bytes.translate: it runs on every link and text of the page (issue 27 §10), and on
# the ASCII texts most link and heading texts are it is several times faster than the pattern,
# and than str.translate, which looks each character up in a table of code points.
_ASCII_NON_WORD = bytes(c for c in range(128) if not chr(c).isalnum())


def word_chars(text: str) -> str:
    """The text's letters and digits, nothing else (no white space, punctuation or "_")."""
    if text.isascii():
        return text.encode("ascii").translate(None, _ASCII_NON_WORD).decode("ascii")
    return _NON_WORD.sub("", text)


@lru_cache(maxsize=8192)
def text_key(text: str) -> str:
    """What two spellings of one title share: letters and digits, case folded (curly or straight
    quotes, "And"/"and", a dropped apostrophe all compare equal)."""
    return word_chars(text.casefold())


@lru_cache(maxsize=8192)
def strip_marks(text: str) -> str:
    """A candidate's text without the separators, page marker and permalink mark left around
    the headline. Each pattern runs only when the text ends (white space aside) as a match of
    it must: in a separator, in ¶, # or §, and in a bracket, 页 or a digit."""
    if (end := text.rstrip()[-1:]) and end in _SEPARATORS:
        text = _TRAILING_SEPARATORS.sub("", text)
    if (end := text.rstrip()[-1:]) and end in "¶#§":
        text = _PERMALINK.sub("", text)
    if (end := text.rstrip()[-1:]) and (end in ")）]】页" or end.isdigit()):
        text = _PAGE_MARK.sub("", text)
    return text.strip()


def reads_as_name(text: str) -> bool:
    """Short enough to be a site's, channel's or section's name rather than a story's
    headline: at most five CJK characters or fifteen others ("艺术教育", "网易娱乐", "BBC
    Sport")."""
    return visual_len(text) <= 15


def visual_len(text: str) -> int:
    """Length as a reader sees it: a CJK character weighs about as much as a short word."""
    return len(text) if text.isascii() else len(text) + 2 * len(HAN_CHAR.findall(text))


# XPath's string() of an element is its text and its descendants' texts and tails, comments
# and processing instructions left out: "".join(el.itertext()), read in one C call (about
# twice as fast on a link or heading as the iterator, issue 27 §10).
_ALL_TEXT = etree.XPath("string()", smart_strings=False)


def raw_text(el: etree._Element) -> str:
    """All text under an element as written (``"".join(el.itertext())``)."""
    if len(el):
        return _ALL_TEXT(el)  # type: ignore[no-any-return]
    return el.text or ""


def element_text(el: etree._Element) -> str:
    """``text_of``: all text under an element, white space collapsed."""
    return " ".join(raw_text(el).split())
