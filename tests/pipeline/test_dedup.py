import random

from pipeline.dedup import (
    NEAR_DUPLICATE_BITS,
    SimIndex,
    content_hash,
    hamming,
    near_duplicate_pairs,
    simhash,
)

ARTICLE = (
    "去年秋天，我在山里的一个村子住了三个月，跟着一位七十岁的老木匠修一座廊桥。"
    "桥不大，一孔跨过溪水，桥面上盖着瓦顶的长廊，两边是可以坐人的木凳。"
    "村里人赶集、放学、躲雨都从这里过，谁也说不清它建于哪一年。"
) * 6


def test_content_hash_ignores_space_punctuation_and_width() -> None:
    reformatted = ARTICLE.replace("，", ", ").replace("。", ".\n\n")
    assert content_hash(reformatted) == content_hash(ARTICLE)
    assert content_hash(ARTICLE.replace("七十岁", "八十岁")) != content_hash(ARTICLE)


def test_simhash_near_for_an_edit_far_for_another_text() -> None:
    edited = ARTICLE.replace("瓦顶的长廊", "青瓦的长廊", 1)
    other = "Ownership is Rust's most unusual feature; it lets Rust make memory safety " * 8
    assert hamming(simhash(ARTICLE), simhash(edited)) <= NEAR_DUPLICATE_BITS
    assert hamming(simhash(ARTICLE), simhash(other)) > 10


def test_index_finds_every_hash_within_three_bits() -> None:
    rng = random.Random(3)
    base = rng.getrandbits(64)
    index = SimIndex()
    near = [base ^ (1 << rng.randrange(64)) ^ (1 << rng.randrange(64)) for _ in range(20)]
    far = [rng.getrandbits(64) for _ in range(200)]
    for key, value in enumerate(near + far):
        index.add(key, value)
    found = dict(index.near(base))
    assert set(found) == set(range(20))
    assert all(found[k] == hamming(base, near[k]) for k in found)


def test_pairs_report_distance() -> None:
    pairs = near_duplicate_pairs([(1, 0b1011), (2, 0b0011), (3, 1 << 60 | 0xFFFF)])
    assert pairs == [(1, 2, 1)]
