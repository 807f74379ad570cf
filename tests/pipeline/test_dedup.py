import json
import random
import subprocess
import sys
from pathlib import Path

from pipeline.records.task import Status, Task
from pipeline.text.dedup import (
    NEAR_DUPLICATE_BITS,
    SimIndex,
    content_hash,
    edition_marker,
    fingerprint_text,
    hamming,
    near_duplicate_pairs,
    settle_exact,
    simhash,
    words_of,
)
from tests.waiting import PATIENCE

REPO = Path(__file__).resolve().parents[2]
ARTICLE = (
    "去年秋天，我在山里的一个村子住了三个月，跟着一位七十岁的老木匠修一座廊桥。"
    "桥不大，一孔跨过溪水，桥面上盖着瓦顶的长廊，两边是可以坐人的木凳。"
    "村里人赶集、放学、躲雨都从这里过，谁也说不清它建于哪一年。"
) * 6
_M64 = (1 << 64) - 1


def simhash_by_definition(text: str) -> int:
    """The SimHash as pipeline.text.dedup defines it, one feature at a time."""
    core = words_of(text) or "\0"
    features = [ord(a) << 21 | ord(b) for a, b in {core[i : i + 2] for i in range(len(core) - 1)}]
    features += [1 << 42 | ord(word) for word in set(core)]
    weights = [0] * 64
    for value in features:
        z = value + 0x9E3779B97F4A7C15 & _M64
        z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9 & _M64
        z = (z ^ z >> 27) * 0x94D049BB133111EB & _M64
        z ^= z >> 31
        for bit in range(64):
            weights[bit] += 1 if z >> bit & 1 else -1
    return sum(1 << bit for bit in range(64) if weights[bit] > 0)


def test_words_are_cjk_characters_and_spaced_words() -> None:
    words = words_of("Ｈello, world! 你好，世界 2024年")
    assert len(words) == 2 + 4 + 2  # hello world | 你 好 世 界 | 2024 年
    assert words[2:6] == "你好世界" and words[7] == "年"
    assert words[0] == words_of("HELLO")  # case and width folded
    assert words_of("hello world") != words_of("helloworld")


def test_content_hash_ignores_space_punctuation_and_width() -> None:
    reformatted = ARTICLE.replace("，", ", ").replace("。", ".\n\n")
    assert content_hash(reformatted) == content_hash(ARTICLE)
    assert content_hash("ＡＢＣ１２３") == content_hash("abc 123")
    assert content_hash(ARTICLE.replace("七十岁", "八十岁")) != content_hash(ARTICLE)


def test_fingerprint_text_keeps_what_nfkc_makes_letters() -> None:
    assert fingerprint_text("Brand™ 25℃ ㈱，。「」") == "brandtm25°c株".replace("°", "")


def test_simhash_is_its_definition() -> None:
    rng = random.Random(7)
    alphabet = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年" + \
        "abcdefghij  ,.;!？，。😀\U0010ffffＡ１"
    texts = ["", "a", "ab", "abc", ARTICLE, ARTICLE[:5000]]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 3000)))
              for _ in range(30)]
    for text in texts:
        assert simhash(text) == simhash_by_definition(text), text[:30]


def test_simhash_is_the_same_in_every_process() -> None:
    """No hash seed, no platform: another interpreter with another PYTHONHASHSEED agrees."""
    code = ("import json, sys; from pipeline.text.dedup import simhash;"
            "print(json.dumps([simhash(t) for t in json.load(sys.stdin)]))")
    texts = [ARTICLE, "Ownership is Rust's most unusual feature.", "混合 mixed テキスト"]
    results = set()
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], input=json.dumps(texts), text=True,
                             capture_output=True, check=True, cwd=REPO, timeout=PATIENCE,
                             env={"PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO)})
        results.add(out.stdout)
    assert results == {json.dumps([simhash(t) for t in texts]) + "\n"}


def test_simhash_near_for_an_edit_far_for_another_text() -> None:
    edited = ARTICLE.replace("瓦顶的长廊", "青瓦的长廊", 1)
    other = "Ownership is Rust's most unusual feature; it lets Rust make memory safety " * 8
    assert hamming(simhash(ARTICLE), simhash(edited)) <= NEAR_DUPLICATE_BITS
    assert hamming(simhash(ARTICLE), simhash(other)) > 10


def test_index_finds_every_hash_within_the_threshold() -> None:
    rng = random.Random(3)
    values = [rng.getrandbits(64) for _ in range(300)]
    for _ in range(300):  # planted neighbours at every distance up to the threshold and beyond
        base = rng.choice(values)
        flips = rng.sample(range(64), rng.randrange(NEAR_DUPLICATE_BITS + 3))
        values.append(base ^ sum(1 << b for b in flips))
    index = SimIndex()
    for key, value in enumerate(values):
        index.add(key, value)
    for value in values:
        brute = {k: hamming(value, v) for k, v in enumerate(values)
                 if hamming(value, v) <= NEAR_DUPLICATE_BITS}
        assert dict(index.near(value)) == brute


def test_pairs_report_distance() -> None:
    pairs = near_duplicate_pairs([2, 1, 3], [0b0011, 0b1011, 1 << 60 | 0xFFFF])
    assert pairs == [(1, 2, 1)]


def test_editions_differ_by_a_marker() -> None:
    cases = {
        ("https://d.io/docs/v1/a", "https://d.io/docs/v2/a"): "version /v1/ vs /v2/",
        ("https://d.io/1.2/a", "https://d.io/1.3/a"): "version /1.2/ vs /1.3/",
        ("https://d.io/latest/a", "https://d.io/v3.1/a"): "version /latest/ vs /v3.1/",
        ("https://d.io/en/a", "https://d.io/zh-cn/a"): "language /en/ vs /zh-cn/",
        ("https://d.io/a?version=2", "https://d.io/a"): "?version=2 vs ?version=",
        ("https://d.io/a?v=1&x=1", "https://d.io/a?x=1&v=2"): "?v=1 vs ?v=2",
        ("https://d.io/a?lang=en", "https://d.io/a?lang=zh"): "?lang=en vs ?lang=zh",
    }
    for (a, b), marker in cases.items():
        assert edition_marker(a, b) == marker
    for a, b in (("https://a.com/2023/05/x.html", "https://b.com/2024/06/x.html"),
                 ("https://a.com/news/1", "https://a.com/news/2"),
                 ("https://a.com/p?id=1", "https://a.com/p?id=2")):
        assert edition_marker(a, b) is None


def task(task_id: int, status: Status, digest: str, duplicate_of: int | None = None,
         deleted: bool = False) -> Task:
    return Task(task_id, f"https://x/{task_id}", status=status, content_hash=digest,
                duplicate_of=duplicate_of, deleted_at="2026-01-01T00:00:00Z" if deleted else "")


def test_settle_makes_the_lowest_id_the_original() -> None:
    tasks = [task(5, Status.LOCALIZED, "h"), task(3, Status.DUPLICATE, "h", 5),
             task(4, Status.DUPLICATE, "h", 5), task(9, Status.LOCALIZED, "g")]
    assert settle_exact(tasks) == [(3, None), (4, 3), (5, 3)]


def test_settle_leaves_chosen_and_intake_duplicates_and_promotes_an_orphan() -> None:
    tasks = [task(1, Status.LOCALIZED, "a"), task(2, Status.DUPLICATE, "b", 1),  # a person's
             task(3, Status.DUPLICATE, "", 1),  # the same link added twice
             task(4, Status.LOCALIZED, "c", deleted=True), task(6, Status.DUPLICATE, "c", 4)]
    assert settle_exact(tasks) == [(6, None)]
