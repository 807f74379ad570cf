"""Exact and near duplicates (seed 000 "精确去重" / SimHash; seed 003 §3.5).

The content hash is taken over the text with white space and punctuation removed, so a page
whose markup, ads or time-stamp comments change is not mistaken for a changed article. Of
tasks with one hash the lowest id is the original, whatever order a run finished them in.

SimHash (64 bits over words and pairs of neighbouring words, a CJK character being a word) finds
near-duplicates: Hamming distance ≤ NEAR_DUPLICATE_BITS. They are proposed to a person, never merged
by themselves, and pairs that are two editions of one page (``/v1/`` and ``/v2/``, ``/en/``
and ``/zh/``, pages stating different versions) are never proposed.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
import zlib
from collections.abc import Collection, Iterable, Sequence
from functools import lru_cache
from itertools import compress
from urllib.parse import parse_qsl, unquote, urlsplit

from pipeline.records.task import HAS_ARTICLE, Status, Task
from pipeline.text.cjk import CJK_CHARS, spaced_word

# Two texts this many bits apart or fewer are proposed as near duplicates. Measured on the
# 1,540 human-annotated article bodies of six dev sets (1.2 million pairs): every pair within
# 8 bits shares at least 80% of its word pairs (the sets' own reposts and Lorem-ipsum tests),
# so 6 proposes nothing unrelated; a changed year or word moved an article of 1,000–3,000
# characters more than 6 bits in under 2% of cases, a longer one almost never, one under
# 1,000 characters in 7–10%.
NEAR_DUPLICATE_BITS = 6
_SKIP = re.compile(r"[\s\W_]+", re.UNICODE)


def _punctuation_first() -> re.Pattern[str]:
    """The white space, and the punctuation of the blocks CJK and typeset text use (ideographic
    and fullwidth forms, general punctuation), whose NFKC forms are punctuation too: removed
    before normalizing, which gives the same text, since ``_SKIP`` removes them after. NFKC is
    slow on text that needs it (fullwidth "，" does), and the rest rarely does: 0.3 ms instead
    of 1 ms for 5,000 characters of Chinese."""
    chars = [chr(cp) for lo, hi in ((0x2000, 0x206F), (0x3000, 0x303F), (0xFE30, 0xFE6F),
                                    (0xFF00, 0xFFEF))
             for cp in range(lo, hi + 1)
             if _SKIP.fullmatch(chr(cp))
             and _SKIP.fullmatch(unicodedata.normalize("NFKC", chr(cp)) or " ")]
    return re.compile("[" + "".join(map(re.escape, chars)) + r"\s]+")


_PUNCTUATION_FIRST = _punctuation_first()


def fingerprint_text(text: str) -> str:
    """Text reduced to what a reader would call the same words: no space, no punctuation,
    NFKC (fullwidth letters and digits as their plain forms), lower case."""
    text = _PUNCTUATION_FIRST.sub("", text)
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    return _SKIP.sub("", text).lower()


def content_hash(text: str) -> str:
    return hashlib.sha256(fingerprint_text(text).encode("utf-8")).hexdigest()


# -- SimHash -------------------------------------------------------------------------------------
# The features: the distinct words of the text and the distinct pairs of neighbouring words,
# a word being a character in CJK scripts (which write no spaces) and a run of letters or
# digits in the others (standing for itself as one code point of the supplementary private
# use planes, from its CRC-32). A pair takes the 42-bit value a << 21 | b, a word 1 << 42 | a;
# each goes through SplitMix64's finalizer (Steele et al., 2014: every input bit moves every
# output bit) and votes +1/-1 on each of the 64 output bits; a bit of the SimHash is set when
# more features vote for it than against. Integer arithmetic and CRC-32 only: the same text
# gives the same fingerprint on every machine and Python version.
#
# Why these (measured on the human-annotated bodies of six dev sets, 1.2 million pairs of
# articles, and the edits a repost makes): character 3-grams over English are shared by every
# English text ("the", "ing", "and"), so unrelated English articles sat 4–6 bits apart, and
# a synthetic 100,000-article archive (bench/dedup.py) gave 4,000 false pairs. Word pairs are
# the text's own: every pair within 8 bits is a real repost (80% or more of its word pairs in
# common). The single words add features, so a short text's small edit moves fewer bits
# (a changed word in an article under 1,000 characters: beyond 6 bits in 4% of cases with
# them, 9% without). Each feature votes once, however often the text repeats it.
#
# Done a feature at a time in Python that is ~10 ms for 5,000 characters. Instead every
# feature sits in its own 128-bit lane of one big integer and each step of the finalizer is
# one big-integer operation over all lanes (a product of two 64-bit values fits its lane, so
# lanes never carry into each other; the masks drop what a shift moves across). The votes are
# counted a byte column at a time with ``int.bit_count`` over a mask. About 2 ms for 5,000
# characters, no compiled dependency (tests/pipeline/test_dedup.py checks it against the
# definition, one feature at a time).
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_LANE_BYTES = 16
_LANE_BITS = 8 * _LANE_BYTES
_WORD_SPACE = 0x1FFFE  # words are told apart by CRC-32 modulo this…
_WORD_BASE = 0xF0000  # …as code points from here (private use, never in the text itself)
_NOT_WORD = re.compile(rf"[^{CJK_CHARS}\U000F0000-\U0010FFFD]+")


def _word_char(match: re.Match[str]) -> str:
    return chr(_WORD_BASE + zlib.crc32(match.group().encode("utf-8")) % _WORD_SPACE)


def words_of(text: str) -> str:
    """The text's words, one character each, in order (see above): CJK characters as they
    are, every other word as one private-use character, punctuation and space dropped."""
    text = _PUNCTUATION_FIRST.sub(" ", text)
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    return _NOT_WORD.sub("", spaced_word().sub(_word_char, text.lower()))


@lru_cache(maxsize=64)
def _lane_masks(lanes: int) -> tuple[int, int]:
    """(the low 64 bits of every lane, 1 in every lane) for ``lanes`` features; the same
    counts recur (every short text), so they are kept."""
    return (int.from_bytes((b"\xff" * 8 + b"\0" * 8) * lanes, "little"),
            int.from_bytes((b"\x01" + b"\0" * (_LANE_BYTES - 1)) * lanes, "little"))


@lru_cache(maxsize=64)
def _bit_masks(lanes: int) -> tuple[int, ...]:
    """For a byte column of ``lanes`` bytes: one mask per bit, that bit set in every byte."""
    return tuple(int.from_bytes(bytes([1 << j]) * lanes, "little") for j in range(8))


def _lanes_of(points: bytes, word: int, size: int, lanes: int) -> int:
    """Word ``word`` of every feature, each in its own lane: ``points`` holds the features'
    code points in UTF-32, ``size`` words (4 bytes each) a feature; a code point needs 21
    bits, three bytes."""
    packed = bytearray(_LANE_BYTES * lanes)
    for byte in range(3):
        packed[byte::_LANE_BYTES] = points[4 * word + byte::4 * size]
    return int.from_bytes(packed, "little")


def simhash(text: str) -> int:
    """64-bit SimHash over the distinct words and pairs of neighbouring words (see above)."""
    core = words_of(text) or "\0"
    singles = set(core)
    pairs = {core[i : i + 2] for i in range(len(core) - 1)}
    lanes = len(singles) + len(pairs)
    mask, ones = _lane_masks(lanes)
    points = "".join(pairs).encode("utf-32-le")
    x = _lanes_of(points, 0, 2, len(pairs)) << 21 | _lanes_of(points, 1, 2, len(pairs))
    lone = _lanes_of("".join(singles).encode("utf-32-le"), 0, 1, len(singles))
    x |= (lone | ones >> (_LANE_BITS * len(pairs)) << 42) << (_LANE_BITS * len(pairs))
    x = (x + _GOLDEN * ones) & mask
    x = ((x ^ x >> 30) & mask) * _MIX1 & mask
    x = ((x ^ x >> 27) & mask) * _MIX2 & mask
    x = (x ^ x >> 31) & mask
    data = x.to_bytes(_LANE_BYTES * lanes, "little")
    bits = _bit_masks(lanes)
    out = 0
    for k in range(8):
        column = int.from_bytes(data[k::_LANE_BYTES], "little")
        for j, bit in enumerate(bits):
            if 2 * (column & bit).bit_count() > lanes:
                out |= 1 << (8 * k + j)
    return out


def hamming(a: int, b: int) -> int:
    return (a ^ b).bit_count()


class SimIndex:
    """Near-duplicate lookup without comparing every pair. The 64 bits are cut into four
    16-bit blocks; two hashes within ``max_bits`` differ in at most ``max_bits // 4`` bits of
    some block (pigeonhole), so a query looks each block up with every variant of its value
    with that many bits flipped (17 variants a block for up to 7 bits) and compares only what
    those buckets hold. Every pair within ``max_bits`` is found (tests/pipeline/test_dedup.py;
    bench/dedup.py over 100,000 fingerprints)."""

    _BLOCKS = ((0, 16), (16, 16), (32, 16), (48, 16))  # (shift, width)

    def __init__(self, max_bits: int = NEAR_DUPLICATE_BITS) -> None:
        self.max_bits = max_bits
        flips = max_bits // len(self._BLOCKS)
        self._variants = [_masks_within(width, flips) for _, width in self._BLOCKS]
        self._tables: list[dict[int, list[tuple[int, int]]]] = [{} for _ in self._BLOCKS]

    def add(self, key: int, value: int) -> None:
        for (shift, width), table in zip(self._BLOCKS, self._tables, strict=True):
            table.setdefault(value >> shift & ((1 << width) - 1), []).append((key, value))

    def probes(self, value: int) -> list[tuple[int, int]]:
        """The buckets a lookup of ``value`` reads: (block, a variant of its value there).
        Every hash within ``max_bits`` of ``value`` is in one of them (the tasks.csv mirror
        looks one article's up in its indexed blocks the same way)."""
        return [(block, value >> shift & ((1 << width) - 1) ^ flipped)
                for block, ((shift, width), variants)
                in enumerate(zip(self._BLOCKS, self._variants, strict=True))
                for flipped in variants]

    def near(self, value: int) -> list[tuple[int, int]]:
        """(key, distance) of every stored hash within ``max_bits`` of ``value``."""
        found: dict[int, int] = {}
        for block, part in self.probes(value):
            for key, other in self._tables[block].get(part, ()):
                distance = hamming(value, other)
                if distance <= self.max_bits:
                    found[key] = distance
        return sorted(found.items())


def _masks_within(width: int, flips: int) -> list[int]:
    """Every ``width``-bit mask with at most ``flips`` bits set."""
    masks = [0]
    for _ in range(flips):
        masks = sorted({m | 1 << bit for m in masks for bit in range(width)} | set(masks))
    return masks


# Up to this many tasks asked about (``involving``) are each compared with every hash; more, and
# all the pairs are found and kept where they are in
_ASKED_ONE_BY_ONE = 64
# Up to this many (a one-article build asks of one), without numpy: its import takes longer
# than comparing a few hashes with 100,000 in builtins (8 ms each)
_ASKED_WITHOUT_NUMPY = 8


def near_duplicate_pairs(ids: Sequence[int], hashes: Sequence[int],
                         max_bits: int = NEAR_DUPLICATE_BITS,
                         involving: Collection[int] | None = None
                         ) -> list[tuple[int, int, int]]:
    """(id a, id b, distance) for every pair within ``max_bits``, a < b, of the ``ids`` whose
    SimHashes are ``hashes`` (in the same order); with ``involving``, only the pairs one of
    those ids is in (a build of one article asks of one).

    SimIndex's lookup done for every hash at once in numpy (100,000 hashes in well under a
    second where a query each took 8 s): for each 16-bit block and each variant of it with
    up to ``max_bits // 4`` bits flipped, every hash is matched with the hashes whose block
    is that variant (a counting sort of the block's values gives each value's run), and
    the candidates within ``max_bits`` are kept. Asked about ``_ASKED_WITHOUT_NUMPY`` ids or
    fewer, each is compared with every hash in builtins (``_pairs_of_few``), numpy unloaded."""
    if involving is not None and len(wanted := set(involving)) <= _ASKED_WITHOUT_NUMPY:
        return _pairs_of_few(ids, hashes, wanted, max_bits)
    import numpy as np

    count = len(ids)
    keys = np.fromiter(ids, dtype=np.int64, count=count)
    values = np.fromiter(hashes, dtype=np.uint64, count=count)
    if involving is not None:
        wanted = set(involving)
        asked = [i for i, key in enumerate(ids) if key in wanted]
        if len(asked) <= _ASKED_ONE_BY_ONE:  # a few: each compared with every hash at once
            close: set[tuple[int, int, int]] = set()
            for i in asked:
                distances = np.bitwise_count(values ^ values[i])
                for j in np.flatnonzero(distances <= max_bits).tolist():
                    if j != i:
                        mine, other = int(keys[i]), int(keys[j])
                        close.add((min(mine, other), max(mine, other), int(distances[j])))
            return sorted(close)
    if count < 2:
        return []
    rows = np.arange(count)
    flips = max_bits // len(SimIndex._BLOCKS)
    found = []
    for shift, width in SimIndex._BLOCKS:
        block = ((values >> np.uint64(shift)) & np.uint64((1 << width) - 1)).astype(np.int64)
        order = np.argsort(block, kind="stable")
        counts = np.bincount(block, minlength=1 << width)
        starts = np.cumsum(counts) - counts
        for flipped in _masks_within(width, flips):
            target = block ^ flipped
            n = counts[target]
            total = int(n.sum())
            if not total:
                continue
            a = np.repeat(rows, n)
            b = order[np.repeat(starts[target] - (np.cumsum(n) - n), n) + np.arange(total)]
            keep = a < b
            a, b = a[keep], b[keep]
            near = np.bitwise_count(values[a] ^ values[b]) <= max_bits
            found.append(a[near] * count + b[near])
    if not found:
        return []
    pairs = np.unique(np.concatenate(found))
    a, b = pairs // count, pairs % count
    distances = np.bitwise_count(values[a] ^ values[b])
    out = []
    for x, y, distance in zip(keys[a].tolist(), keys[b].tolist(), distances.tolist(),
                              strict=True):
        if involving is None or x in wanted or y in wanted:
            out.append((min(x, y), max(x, y), distance))
    return sorted(out)


def _pairs_of_few(ids: Sequence[int], hashes: Sequence[int], wanted: set[int],
                  max_bits: int) -> list[tuple[int, int, int]]:
    """``near_duplicate_pairs`` of the few ``wanted`` ids: each one's hash compared with every
    hash in builtins that loop in C (xor, bit count, compress), none of them a Python step
    per hash."""
    close: set[tuple[int, int, int]] = set()
    for at in compress(range(len(ids)), map(wanted.__contains__, ids)):
        mine = ids[at]
        distances = list(map(int.bit_count, map(hashes[at].__xor__, hashes)))
        for near in compress(range(len(ids)), map(max_bits.__ge__, distances)):
            other = ids[near]
            if other != mine:
                close.add((min(mine, other), max(mine, other), distances[near]))
    return sorted(close)


# -- exact duplicates: the lower id is the original ---------------------------------------------


def settle_exact(tasks: Iterable[Task]) -> list[tuple[int, int | None]]:
    """The tasks whose standing as exact duplicates must change: (id, the original it now
    duplicates), or (id, None) for a duplicate that is an original again (its original went
    to the trash, or failed). Among the tasks with one content hash the lowest id is the
    original. A duplicate a person chose (a near duplicate, another hash) and one found at
    intake (the same link, no hash) are not this function's to change."""
    by_id = {t.id: t for t in tasks}
    groups: dict[str, list[Task]] = {}
    for t in by_id.values():
        if not t.content_hash:
            continue
        if t.status == Status.DUPLICATE:
            of = by_id.get(t.duplicate_of) if t.duplicate_of is not None else None
            if of is None or of.content_hash != t.content_hash:
                continue
        elif t.status not in HAS_ARTICLE or t.deleted:
            continue
        groups.setdefault(t.content_hash, []).append(t)
    changes: list[tuple[int, int | None]] = []
    for group in groups.values():
        standing = [t for t in group if not t.deleted]
        if not standing:
            continue
        first = min(t.id for t in standing)
        for t in standing:
            if t.id == first:
                if t.status == Status.DUPLICATE:
                    changes.append((t.id, None))
            elif t.status != Status.DUPLICATE or t.duplicate_of != first:
                changes.append((t.id, first))
    return sorted(changes)


# -- editions: never proposed as near duplicates ------------------------------------------------
# A path segment that names a version: v2, v1.4, 1.2, 3.x, and the channel names docs sites
# publish beside numbered versions.
_VERSION_SEGMENT = re.compile(
    r"v\d+(?:\.\d+)*|\d+(?:\.\d+)+|\d+\.x|latest|stable|dev|devel|nightly|next|current|master")
# A path segment that names a language (en, zh, zh-cn, zh_hans, pt-br, es-419).
_LANGUAGE_SEGMENT = re.compile(r"[a-z]{2}(?:[-_](?:[a-z]{2}|[a-z]{4}|\d{3}))?")
_EDITION_PARAMS = frozenset(("version", "ver", "v", "lang", "language", "hl", "locale"))


def edition_marker(url_a: str, url_b: str) -> str | None:
    """What makes two URLs two editions of one page: a version or language folder that
    differs between them (``/v1/`` vs ``/v2/``), or a version or language parameter
    (``?version=``, ``?v=``, ``?lang=``); None when nothing does."""
    a, b = urlsplit(url_a), urlsplit(url_b)
    path_a = [unquote(s).lower() for s in a.path.split("/")]
    path_b = [unquote(s).lower() for s in b.path.split("/")]
    if len(path_a) == len(path_b):
        for x, y in zip(path_a, path_b, strict=True):
            if x == y:
                continue
            for kind, pattern in (("version", _VERSION_SEGMENT), ("language", _LANGUAGE_SEGMENT)):
                if pattern.fullmatch(x) and pattern.fullmatch(y):
                    return f"{kind} /{x}/ vs /{y}/"
    query_a = {k.lower(): v for k, v in parse_qsl(a.query) if k.lower() in _EDITION_PARAMS}
    query_b = {k.lower(): v for k, v in parse_qsl(b.query) if k.lower() in _EDITION_PARAMS}
    for key in sorted(query_a.keys() | query_b.keys()):
        if query_a.get(key) != query_b.get(key):
            return f"?{key}={query_a.get(key, '')} vs ?{key}={query_b.get(key, '')}"
    return None
