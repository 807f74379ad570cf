"""Exact and near duplicates (seed 000 "精确去重" / SimHash; seed 003 §3.5).

The content hash is taken over the text with white space and punctuation removed, so a page
whose markup, ads or time-stamp comments change is not mistaken for a changed article.
SimHash (64 bits over character 3-grams, which suits Chinese and Western text alike) finds
near-duplicates: Hamming distance ≤ 3. Near-duplicates are reported, never merged: a v1 and a
v2 of an article are both worth keeping.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable

NEAR_DUPLICATE_BITS = 3
_SKIP = re.compile(r"[\s\W_]+", re.UNICODE)


def fingerprint_text(text: str) -> str:
    """Text reduced to what a reader would call the same words: no space, no punctuation."""
    return _SKIP.sub("", unicodedata.normalize("NFKC", text)).lower()


def content_hash(text: str) -> str:
    return hashlib.sha256(fingerprint_text(text).encode("utf-8")).hexdigest()


def simhash(text: str) -> int:
    """64-bit SimHash over character 3-grams of the fingerprint text."""
    core = fingerprint_text(text)
    grams = [core[i : i + 3] for i in range(max(1, len(core) - 2))]
    weights = [0] * 64
    for gram in grams:
        h = int.from_bytes(hashlib.blake2b(gram.encode("utf-8"), digest_size=8).digest(), "big")
        for bit in range(64):
            weights[bit] += 1 if h >> bit & 1 else -1
    return sum(1 << bit for bit in range(64) if weights[bit] > 0)


def hamming(a: int, b: int) -> int:
    return (a ^ b).bit_count()


class SimIndex:
    """Near-duplicate lookup: four 16-bit bands, so any two hashes within 3 bits share a band."""

    def __init__(self) -> None:
        self._bands: list[dict[int, list[tuple[int, int]]]] = [{} for _ in range(4)]

    def add(self, key: int, value: int) -> None:
        for i, band in enumerate(self._bands):
            band.setdefault(value >> (16 * i) & 0xFFFF, []).append((key, value))

    def near(self, value: int, max_bits: int = NEAR_DUPLICATE_BITS) -> list[tuple[int, int]]:
        """(key, distance) of every stored hash within ``max_bits`` of ``value``."""
        found: dict[int, int] = {}
        for i, band in enumerate(self._bands):
            for key, other in band.get(value >> (16 * i) & 0xFFFF, ()):
                distance = hamming(value, other)
                if distance <= max_bits:
                    found[key] = distance
        return sorted(found.items())


def near_duplicate_pairs(items: Iterable[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(id a, id b, distance) for every pair within NEAR_DUPLICATE_BITS, a < b."""
    index = SimIndex()
    pairs: list[tuple[int, int, int]] = []
    for key, value in items:
        pairs.extend((other, key, distance) for other, distance in index.near(value))
        index.add(key, value)
    return pairs
