"""Hard-wrapped lines joined back into paragraphs (issue 27 item 8).

Some pages hold an article as a fixed-width text file or an old editor wrapped it: every line of
about 40 characters is its own ``<p>`` (or ends with ``<br>``), and an empty ``<p>`` (a blank
line) marks where a paragraph really ends. Cleaned as they stand they make a chapter of one-line
paragraphs, many beginning with "，". Wrapping leaves a mark on its lines that nothing written
by hand has:

- a wrapped line is full: the next line's first word would not have fit on it (the greedy wrap's
  own rule), counted in display columns (a hanzi is two, as in GB bytes) or in characters;
- it stops wherever the width ran out, so most wrapped lines end inside a sentence;
- the width is that of prose (a poem's, an address's or a list's lines are short or ragged);
- in a Latin script, most wrapped lines go on with a small letter (a list's items start with a
  capital).

Where a run of lines has all three, its lines are joined into paragraphs. A paragraph ends at an
empty line, and at a line the next word would have fit on: wrapping never leaves a short line
inside a paragraph, so that is where its writer ended one (pages that mark paragraphs only that
way are joined the same). Lines of CJK text join with nothing between them, Latin ones with a
space.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence

from lxml import etree

from pipeline.extract.dom import append_text
from pipeline.extract.options import WrapOptions

# What ends a sentence, once closing quotes and brackets are set aside.
_SENTENCE_END = frozenset("。！？!?.…；;：:")
_CLOSERS = "”’\"'」』）)】]》"
# What a line of a wrapped run may hold besides text (a picture or a block is no line).
_LINE_TAGS = frozenset(("a", "em", "strong", "sub", "sup", "code", "s", "u"))


def paragraphs(lines: Sequence[str | None], options: WrapOptions) -> list[list[int]] | None:
    """The paragraphs that hard-wrapped lines make, as lists of indices into ``lines`` (None or
    a blank string is an empty line), or None when the lines are not hard-wrapped prose."""
    texts = [" ".join(line.split()) if line else "" for line in lines]
    # Each line that another line follows, with that line, unless it ends a sentence (a
    # paragraph's last line may): where the wrap shows.
    inner = [(text, texts[i + 1]) for i, text in enumerate(texts[:-1])
             if text and texts[i + 1] and not _ends_sentence(text)]
    if len(inner) < options.min_lines:
        return None
    # A list's items start with a capital; wrapped English mostly goes on with a small letter.
    cased = [after[0].islower() for _, after in inner if after[0].isupper() or after[0].islower()]
    if sum(cased) < options.lowercase_share * len(cased):
        return None
    columns = max(_columns(text) for text, _ in inner)
    chars = max(len(text) for text, _ in inner)
    if columns < options.min_columns:
        return None
    if sum(1 for text, after in inner if _full(text, after, columns, chars)) < (
            options.full_share * len(inner)):
        return None
    followed = [text for i, text in enumerate(texts[:-1]) if text and texts[i + 1]]
    if sum(1 for text in followed if _ends_sentence(text)) > (
            options.sentence_end_share * len(followed)):
        return None
    groups: list[list[int]] = []
    current: list[int] = []
    for i, text in enumerate(texts):
        if text:
            current.append(i)
        after = texts[i + 1] if i + 1 < len(texts) else ""
        if current and not (text and after and _full(text, after, columns, chars)):
            groups.append(current)
            current = []
    return groups


def join_seam(before: str, after: str) -> str:
    """What goes between two joined lines: a space between Latin words, nothing after a hyphen
    that broke a word or where either side is CJK."""
    if not before or not after or _wide(before[-1]) or _wide(after[0]):
        return ""
    if before[-1] == "-" and len(before) > 1 and before[-2].isalpha():
        return ""
    return " "


def rewrap(root: etree._Element, options: WrapOptions) -> None:
    """Join the hard-wrapped lines under ``root`` (cleaned output, before empty blocks are
    pruned) into paragraphs: a run of sibling ``<p>``, each a line or several split by
    ``<br>``."""
    for parent in list(root.iter()):
        for run in list(_runs(parent)):
            _rewrap_run(run, options)


# A line: the text before its first element, then its elements (each with its tail).
_Line = tuple[str, list[etree._Element]]


def _runs(parent: etree._Element) -> Iterator[list[etree._Element]]:
    """The runs of sibling ``<p>`` that hold only text, inline markup and ``<br>``."""
    run: list[etree._Element] = []
    for child in parent:
        if child.tag == "p" and child.get("id") is None and all(
                el.tag in _LINE_TAGS or el.tag == "br" for el in child.iterdescendants()):
            run.append(child)
            if not (child.tail or "").strip():
                continue
        if run:
            yield run
        run = []
    if run:
        yield run


def _rewrap_run(run: list[etree._Element], options: WrapOptions) -> None:
    # ``paragraphs`` needs min_lines lines that another line follows, and a <p> holds at most a
    # line more than it has children: a run with fewer is left before any text is read.
    if sum(len(p) + 1 for p in run) <= options.min_lines:
        return
    lines: list[_Line | None] = []
    texts: list[str | None] = []
    for p in run:
        own = _lines(p)
        if sum(1 for line, _ in own if line is not None) > 1:
            # a paragraph of <br>-ended lines: its edges are paragraph breaks
            lines.extend((None, *(line for line, _ in own), None))
            texts.extend((None, *(text for _, text in own), None))
        else:
            kept: list[tuple[_Line | None, str | None]] = [
                (line, text) for line, text in own if line is not None] or [(None, None)]
            lines.extend(line for line, _ in kept)
            texts.extend(text for _, text in kept)
    groups = paragraphs(texts, options)
    if groups is None:
        return
    anchor = run[0]
    for group in groups:
        new = etree.Element("p", dict(anchor.attrib))
        seam = ""
        for line in filter(None, (lines[i] for i in group)):
            head, elements = line
            text = _text(line)
            if seam:
                _strip_end(new)
                head = head.lstrip()
                append_text(new, join_seam(seam, text))
            append_text(new, head)
            for el in elements:
                new.append(el)
            seam = text
        anchor.addprevious(new)
    for p in run:
        p.getparent().remove(p)


def _lines(p: etree._Element) -> list[tuple[_Line | None, str | None]]:
    """A ``<p>``'s lines, split at its ``<br>``, each with its text; an empty line
    (``<br><br>``) is None, and so is its text."""
    lines: list[_Line] = []
    head = p.text or ""
    elements: list[etree._Element] = []
    for child in list(p):
        if child.tag == "br":
            lines.append((head, elements))
            head, elements = child.tail or "", []
        else:
            elements.append(child)
    lines.append((head, elements))
    return [(line, text) if (text := _text(line)) else (None, None) for line in lines]


def _text(line: _Line) -> str:
    head, elements = line
    return " ".join((head + "".join("".join(el.itertext()) + (el.tail or "")
                                    for el in elements)).split())


def _strip_end(p: etree._Element) -> None:
    """Drop the white space at the end of ``p``'s content (a seam's source line ending)."""
    if len(p):
        last = p[-1]
        last.tail = (last.tail or "").rstrip() or None
    else:
        p.text = (p.text or "").rstrip() or None


def _full(text: str, after: str, columns: int, chars: int) -> bool:
    """Whether the next line's first word would not have fit on this line, in display columns
    or in characters (pages wrap by either)."""
    word = _first_word(after)
    gap = len(join_seam(text, after))
    return (_columns(text) + gap + _columns(word) > columns
            or len(text) + gap + len(word) > chars)


def _first_word(text: str) -> str:
    """A line's first word: one character of CJK text, else up to a space or a CJK character."""
    if _wide(text[0]):
        return text[0]
    match = re.match(r"[^\s]+", text)
    word = match.group() if match else text[0]
    for i, char in enumerate(word):
        if _wide(char):
            return word[:i]
    return word


def _ends_sentence(text: str) -> bool:
    stripped = text.rstrip(_CLOSERS)
    return bool(stripped) and stripped[-1] in _SENTENCE_END


def _columns(text: str) -> int:
    return sum(2 if _wide(char) else 1 for char in text)


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in "WF"
