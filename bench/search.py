"""Full-text search over 10,000 articles: how long a query takes (target < 100 ms).

    .venv/bin/python -m bench.search [--articles 10000] [--seed 1]

Synthetic articles of about 2,000 characters, two in three Chinese (words drawn from a pool of
common two- and three-character words), one in three English, go into a fresh index; then each
query kind (a two-character Chinese word, a rarer three-character one, an English word, two
words, one character) is run 20 times. Prints the build time, the index size, the median and
the slowest time per query kind with its hit count, and the core count.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from pipeline.records.article import Article
from pipeline.store.search import SearchIndex

ZH = ("文章 网页 保存 离线 阅读 图片 目录 索引 分类 标题 作者 日期 修缮 廊桥 工匠 木材 屋顶 咖啡"
      " 水温 研磨 电子 书籍 编辑 出版 城市 历史 文化 旅行 记录 笔记 天气 山区 河流 学校 老师"
      " 学生 音乐 电影 新闻 报道 科学 技术 电脑 手机 网络 数据 模型 算法 设计 建筑 博物馆"
      " 图书馆 火车站 自行车 冰淇淋").split()
EN = ("article page archive offline reading image index category title author date repair"
      " bridge craftsman timber roof coffee water grind electronic book editor publish city"
      " history culture travel note weather mountain river school teacher student music film"
      " news report science technology computer phone network data model design").split()
QUERIES = {"two-character word": "廊桥", "three-character word": "博物馆", "English word": "timber",
           "two words": "咖啡 水温", "one character": "桥"}


def article(rng: random.Random, n: int) -> Article:
    if n % 3:
        text = "".join(rng.choice(ZH) + ("。" if rng.random() < 0.1 else "")
                       for _ in range(900))
        title = "".join(rng.choice(ZH) for _ in range(5))
    else:
        text = " ".join(rng.choice(EN) for _ in range(330))
        title = " ".join(rng.choice(EN) for _ in range(5))
    return Article(url=f"https://example.com/{n}", title=title, content_html="", text=text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        index = SearchIndex(Path(tmp) / "search.db")
        started = time.perf_counter()
        index.rebuild((n, article(rng, n)) for n in range(1, args.articles + 1))
        built = time.perf_counter() - started
        size = (Path(tmp) / "search.db").stat().st_size
        print(f"index             {args.articles:,} articles in {built:.1f} s,"
              f" {size / 2**20:.0f} MB")
        for kind, query in QUERIES.items():
            times, hits = [], 0
            for _ in range(20):
                t = time.perf_counter()
                hits = len(index.search(query, limit=50))
                times.append((time.perf_counter() - t) * 1000)
            print(f"{kind:<22}{query!r:<10} median {statistics.median(times):6.1f} ms,"
                  f" slowest {max(times):6.1f} ms  ({hits} hits shown of a limit of 50)")
        index.close()
    print("target            < 100 ms a query")
    print(f"cores             {os.cpu_count()}")


if __name__ == "__main__":
    main()
