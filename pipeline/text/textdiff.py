"""Where two versions of a text differ, word by word: what a person reads to judge a near
duplicate, and the one-line summary of an article a refresh found changed.

A word is a run of letters or digits in space-separated scripts and one character in CJK
scripts (which write no spaces), so "修缮笔记" → "修复笔记" is one changed character, not one
changed sentence. Texts are aligned by paragraph first and word by word only inside the
paragraphs that differ: difflib's matcher is quadratic in the worst case, and a 5,000-character
Chinese article repeats its commonest characters hundreds of times.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from pipeline.text.cjk import CJK_CHARS, cjk_char, spaced_word

# a word with the white space before it (kept for showing, not compared)
_WORD = re.compile(rf"(\s*)([{CJK_CHARS}]|[^\W_{CJK_CHARS}]+|\S)", re.UNICODE)
CONTEXT_WORDS = 8
QUOTE_CHARS = 40  # the most of a change the one-line summary quotes, each side


@dataclass(frozen=True)
class Hunk:
    """One place where the texts differ: a few words of context either side, and what the
    first text has there (``removed``) and the second (``added``); either may be empty."""

    before: str
    removed: str
    added: str
    after: str


class _Words:
    def __init__(self, text: str) -> None:
        self.keys: list[str] = []
        self.shown: list[str] = []
        self.ends: list[int] = []  # where each word ends in ``text``
        self.paragraph_starts: list[int] = []
        offset = 0
        for paragraph in text.split("\n"):
            self.paragraph_starts.append(len(self.keys))
            start = len(self.keys)
            for match in _WORD.finditer(paragraph):
                space, word = match.groups()
                self.shown.append(("\n" if self.keys and len(self.keys) == start
                                   else " " if space else "") + word)
                self.keys.append(word)
                self.ends.append(offset + match.end())
            offset += len(paragraph) + 1
        self.paragraph_starts.append(len(self.keys))

    def paragraphs(self) -> list[tuple[str, ...]]:
        s = self.paragraph_starts
        return [tuple(self.keys[s[i]:s[i + 1]]) for i in range(len(s) - 1)]

    def text(self, start: int, end: int) -> str:
        return "".join(self.shown[start:end]).strip()


def _opcodes(a: _Words, b: _Words) -> list[tuple[str, int, int, int, int]]:
    """(tag, a start, a end, b start, b end) over word positions, as difflib's opcodes."""
    out: list[tuple[str, int, int, int, int]] = []
    pa, pb = a.paragraph_starts, b.paragraph_starts
    lines = SequenceMatcher(None, a.paragraphs(), b.paragraphs(), autojunk=False)
    for tag, i1, i2, j1, j2 in lines.get_opcodes():
        a1, a2, b1, b2 = pa[i1], pa[i2], pb[j1], pb[j2]
        if tag == "equal" or a1 == a2 or b1 == b2:
            out.append((tag if tag == "equal" else "replace", a1, a2, b1, b2))
            continue
        words = SequenceMatcher(None, a.keys[a1:a2], b.keys[b1:b2], autojunk=False)
        out.extend((t, a1 + x1, a1 + x2, b1 + y1, b1 + y2)
                   for t, x1, x2, y1, y2 in words.get_opcodes())
    return [op for op in out if op[1] != op[2] or op[3] != op[4]]


def hunks(old: str, new: str, context: int = CONTEXT_WORDS) -> list[Hunk]:
    """Every place ``new`` differs from ``old``, in order; changes closer than twice the
    context are one hunk."""
    a, b = _Words(old), _Words(new)
    changed = [op for op in _opcodes(a, b) if op[0] != "equal"]
    merged: list[list[int]] = []
    for _, a1, a2, b1, b2 in changed:
        if merged and a1 - merged[-1][1] <= 2 * context and b1 - merged[-1][3] <= 2 * context:
            merged[-1][1], merged[-1][3] = a2, b2
        else:
            merged.append([a1, a2, b1, b2])
    return [Hunk(before=a.text(max(0, a1 - context), a1), removed=a.text(a1, a2),
                 added=b.text(b1, b2), after=a.text(a2, a2 + context))
            for a1, a2, b1, b2 in merged]


def kept_and_cut(whole: str, kept: str) -> list[tuple[str, bool]]:
    """``whole`` cut into runs that join back into it, each True where its words are the
    ones ``kept`` has there and False where ``kept`` has none of them: what an extraction
    kept of a page's text (``kept`` its article) and what it cut. The white space before a
    word goes with the word."""
    a = _Words(whole)
    in_kept = [False] * len(a.keys)
    for tag, a1, a2, _b1, _b2 in _opcodes(a, _Words(kept)):
        if tag == "equal":
            in_kept[a1:a2] = [True] * (a2 - a1)
    runs: list[tuple[str, bool]] = []
    start = 0
    for end, flag in zip(a.ends, in_kept, strict=True):
        if runs and runs[-1][1] == flag:
            runs[-1] = (runs[-1][0] + whole[start:end], flag)
        else:
            runs.append((whole[start:end], flag))
        start = end
    if start < len(whole):  # white space after the last word goes with it
        runs[-1:] = [(runs[-1][0] + whole[start:], runs[-1][1])] if runs else [(whole, False)]
    return runs


def reading_length(text: str) -> tuple[int, str]:
    """How long a text is as its readers count: ``(n, "chars")`` for CJK text (each
    character one, each word of a spaced script in it one more, as 字数 is counted), else
    ``(n, "words")``. A 478-word English article is 478 words, not 1,858 characters."""
    cjk = len(cjk_char().findall(text))
    words = len(spaced_word().findall(text))
    return (cjk + words, "chars") if cjk >= words else (words, "words")


def _chars(text: str) -> int:
    return len("".join(text.split()))


def quote(text: str) -> str:
    """A piece of text as a one-line summary quotes it: one line, at most QUOTE_CHARS."""
    text = " ".join(text.split())
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"


def summary(old: str, new: str) -> str:
    """One line: how many places changed, characters added and removed, and the first
    change quoted ("2 places changed, +12/−3 characters: “三月” → “五月”")."""
    found = hunks(old, new)
    if not found:
        return "no change in the text"
    added = sum(_chars(h.added) for h in found)
    removed = sum(_chars(h.removed) for h in found)
    first = found[0]
    places = "1 place" if len(found) == 1 else f"{len(found)} places"
    return (f"{places} changed, +{added}/−{removed} characters:"
            f" “{quote(first.removed)}” → “{quote(first.added)}”")
