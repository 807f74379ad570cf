"""Tests of a class or id against an alternation of words (``density``'s chrome, layout and
content words), kept fast because every class and id token a page has not shown before is read
by several of them (about 130 tokens a page; issue 27 §10).

An ASCII value, nearly all of them, is lower-cased and read without IGNORECASE: the same answer,
several times faster (sre folds case one character at a time). Then sre is given what it reads
fast: the plain words as one trie (``a(?:gegate|i2html)|b(?:anner|…)``, where 45 words side by
side had it try each word at each character), with the words that are patterns but start with
letters (``most-?read``, ``comment(?!ary)``) beside it; a word that starts with an assertion
(``\\brail``, ``(?<![a-z])hot(?![a-z])``) is one sre tries at every character, so it is
read alone and only when the letters it must match are in the value. Only whether the value
holds a word is asked, so the answer is the alternation's: the trie finds a word or one it
begins with (a longer word that holds a shorter one at its start is found by the shorter), and
a word can only match where its letters are. The IGNORECASE alternation, for the other values,
is compiled when the first one comes: folding the case of these alternations costs 8 ms of
compiling in every process, and most pages have no class or id outside ASCII.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

# What makes a word of an alternation a pattern of its own; any other word is plain letters.
_SYNTAX = frozenset("\\()[]{}?*+.^$|")
# How a pattern that sre tries at every character starts: with an assertion.
_ASSERTED = ("\\b", "(?<", "(?=", "(?!")
_QUANTIFIERS = frozenset("?*{")
# Zero-width parts before or around a pattern's letters: \b and lookarounds without groups.
_ASSERTIONS = re.compile(r"\\b|\(\?<?[!=][^()]*\)")


def words_in(words: str) -> Callable[[str], bool]:
    """A test of a value for any word of ``words`` (an alternation, in lower case), ignoring
    case."""
    ascii_test = _ascii_test(words)
    folded = cache(lambda: re.compile(words, re.I).search)

    def test(value: str) -> bool:
        return ascii_test(value.lower()) if value.isascii() else folded()(value) is not None

    return test


def _ascii_test(words: str) -> Callable[[str], bool]:
    """Whether a lower-case ASCII value holds a word of ``words`` (see the module's docstring)."""
    plain: list[str] = []
    other: list[str] = []
    asserted: list[str] = []
    for word in words.split("|"):
        if word.startswith(_ASSERTED):
            asserted.append(word)
        else:
            (other if _SYNTAX.intersection(word) else plain).append(word)
    search = re.compile("|".join(([_trie(plain)] if plain else []) + other) or "(?!)").search
    hinted = tuple((_letters(word), re.compile(word).search) for word in asserted)
    if not hinted:
        return lambda value: search(value) is not None

    def test(value: str) -> bool:
        if search(value) is not None:
            return True
        for letters, search_word in hinted:
            if letters in value and search_word(value) is not None:
                return True
        return False

    return test


def _trie(words: list[str]) -> str:
    """The words as one pattern that shares their beginnings; a word that holds another at its
    start is left out (the shorter one finds it)."""
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: dict[str, dict]) -> str:
        if "" in node:
            return ""
        branches = [re.escape(char) + pattern(node[char]) for char in sorted(node)]
        return branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"

    return pattern(root)


def _letters(word: str) -> str:
    """Letters a match of the pattern ``word`` must hold in a row: those it starts with once
    its assertions are set aside, up to its first other syntax (a letter a quantifier follows
    may be absent)."""
    bare = _ASSERTIONS.sub("", word)
    end = next((i for i, char in enumerate(bare) if char in _SYNTAX), len(bare))
    if end < len(bare) and bare[end] in _QUANTIFIERS:
        end -= 1
    if end < 1:
        raise ValueError(f"no letters to look for in {word!r}")
    return bare[:end]
