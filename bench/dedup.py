"""Near duplicates over 100,000 articles: SimHash speed, index time and memory, planted recall.

    .venv/bin/python -m bench.dedup [--articles 100000] [--chars 5000] [--pairs 1000]
                                    [--sample 2000] [--runs 3] [--seed 1] [--quick]

Synthetic articles, two in three Chinese (the 256 commonest characters, fullwidth
punctuation, a dateline and years), one in three English (words of a 10,000-word vocabulary
with Zipf frequencies, so unrelated articles share their common grams as real ones do). Each
article is a pure function of (seed, its number): the pool's workers generate, fingerprint and drop
it, and only the 64-bit fingerprints come back, so the corpus is never in memory at once.

Among them ``--pairs`` planted near duplicates: a copy of another article with one small
edit of four kinds (a word or character changed, a year changed, a sentence replaced, a
paragraph appended), a quarter of each. Prints:

* the single-core SimHash speed (``simhash`` alone, perf_counter per article, a sample in
  this process) and the whole corpus's wall time in a Pool of os.cpu_count() processes;
* the time of ``near_duplicate_pairs`` over all fingerprints (median of ``--runs``, untraced,
  since tracemalloc slows every allocation) and its tracemalloc peak (one more run, traced);
* recall of the planted pairs whose fingerprints are within NEAR_DUPLICATE_BITS (must be
  100 %, else exit status 1), the planted pairs the edit moved beyond it by kind, and the
  false pairs (found, not planted);
* the resident memory high-water mark of this process and of the workers.

The pool's wall time wants an idle machine; the workers' CPU time, the share of the sample's
wall time this process had a CPU for and the load average are printed to tell when it was not.

``--quick`` is 5,000 articles, 100 pairs, a sample of 500: a check in well under a minute.
"""

from __future__ import annotations

import argparse
import codecs
import multiprocessing
import os
import random
import re
import resource
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Iterator

from pipeline.text.dedup import (
    NEAR_DUPLICATE_BITS,
    SimIndex,
    hamming,
    near_duplicate_pairs,
    simhash,
)

# The 256 most common characters of modern Chinese, in frequency order (a list's head): one
# random byte a character, decoded through this table in C (see _zh_text).
ZH_CHARS = tuple(
    "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就"
    "那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起"
    "还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老"
    "从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声"
    "全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走"
    "电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产"
    "入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活"
    "难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王")
ZH_SET = frozenset(ZH_CHARS)

# The head of an English frequency list; the tail is made of syllables (below).
EN_HEAD = (
    "the of and to a in is it that was for on are as with his they at be this from have or by"
    " one had not but what all were when we there can an your which their said if do will each"
    " about how up out them then she many some so these would other into has more her two like"
    " him see time could no make than first been its who now people my made over did down only"
    " way find use may water long little very after words called just where most know get"
    " through back much before go good new write our used me man too any day same right look"
    " think also around another came come work three word must because does part even place"
    " well such here take why things help put years different away again off went old number"
    " great tell men say small every found still between name should home big give air line"
    " set own under read last never us left end along while might next sound below saw"
    " something thought both few those always looked show large often together asked house"
    " world going want school important until form food keep children feet land side without"
    " boy once animals life enough took sometimes four head above kind began almost live page"
    " got earth need far hand high year mother light parts country father let night following"
    " picture being study second eyes soon times story boys since white days ever paper hard"
    " near sentence better best across during today others however sure means knew try told"
    " young miles sun ways thing whole hear example heard several change answer room sea"
    " against top turned learn point city play toward five using himself usually money seen"
    " car morning bridge timber roof coffee archive offline reading article editor").split()
_SYLLABLES = [c + v for c in "bcdfghjklmnprstvwz" for v in ("a", "e", "i", "o", "u", "ai",
                                                              "ou", "ea", "io")]


def _vocabulary(size: int = 10_000) -> tuple[list[str], list[float]]:
    """Words ranked by frequency, weight 1/rank (Zipf): a few hundred real words at the head,
    made-up two- to four-syllable words (some with a final consonant) for the tail. Fixed,
    not seeded, so every process and every run builds the same one."""
    rng = random.Random(0)
    words = list(dict.fromkeys(EN_HEAD))
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choices(_SYLLABLES, k=rng.randint(2, 4)))
        word += rng.choice(("", "", "n", "r", "s", "t", "ng", "ed"))
        if word not in seen:
            seen.add(word)
            words.append(word)
    cum, total = [], 0.0
    for rank in range(1, size + 1):
        total += 1 / rank
        cum.append(total)
    return words, cum


EN_WORDS, EN_CUM = _vocabulary()
MONTHS = ("January February March April May June July August September October November"
          " December").split()
EDIT_KINDS = ("word", "year", "sentence", "paragraph")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_ZH_SENTENCE = re.compile(r"[^。！？\n]+[。！？]")
_EN_SENTENCE = re.compile(r"[A-Z][^.!?\n]*[.!?]")
_EN_WORD = re.compile(r"\b[a-z]{2,}\b")


# -- the corpus: article n is a function of (seed, n) -------------------------------------------


def _rng(seed: int, n: int) -> random.Random:
    return random.Random(seed << 32 | n)


def language(seed: int, n: int) -> str:
    """The language article ``n`` is written in: the first draw of its generator."""
    return "zh" if _rng(seed, n).random() < 2 / 3 else "en"


# Generating an article must cost well under fingerprinting it, or the pool measures the
# generator: a call of the random module a clause or a word made a Chinese text 2.4 ms. So
# the characters, words and choices are drawn in bulk (random bytes through lookup tables,
# one ``choices`` call for all the words) and the loops only cut and join.
_ZH_TABLE = "".join(ZH_CHARS)  # byte → character, for codecs.charmap_decode
# A byte → the mark after a clause: about 3 in 8 end a sentence, 1 in 13 a paragraph too.
_ZH_MARKS = (("，",) * 120 + ("、",) * 20 + ("；",) * 20 + ("。",) * 60 + ("！",) * 8
             + ("？",) * 8 + ("。\n",) * 20)
_EN_ENDS = (". ",) * 10 + ("? ", "! ") + (".\n\n",) * 3
_ZH_END = re.compile(r"[。！？]")
_EN_END = re.compile(r"[.!?]")


def _zh_text(rng: random.Random, chars: int) -> str:
    """At least ``chars`` characters of Chinese: clauses of 4–12 characters, each followed
    by a mark; 6 % begin with a year (年), 5 % are in quotes."""
    pieces: list[str] = []
    length = 0
    while length < chars:
        clauses = (chars - length) // 8 + 4
        draws = rng.randbytes(4 * clauses)
        body = codecs.charmap_decode(rng.randbytes(12 * clauses), "strict", _ZH_TABLE)[0]
        at = 0
        chunk = []
        for i in range(clauses):
            size = 4 + draws[i] % 9
            clause = body[at:at + size]
            at += size
            extra = draws[2 * clauses + i]
            if extra < 15:
                clause = f"{1990 + draws[3 * clauses + i] % 36}年{clause}"
            elif extra < 28:
                clause = f"“{clause}”"
            chunk.append(clause)
            chunk.append(_ZH_MARKS[draws[clauses + i]])
        pieces.append("".join(chunk))
        length += len(pieces[-1])
    return "".join(pieces)


def _en_text(rng: random.Random, chars: int) -> str:
    """At least ``chars`` characters of English: sentences of 6–24 Zipf-drawn words, most
    with a comma, 8 % with a year ("in 2019"); 1 in 5 ends a paragraph."""
    sentences: list[str] = []
    length = 0
    while length < chars:
        words = rng.choices(EN_WORDS, cum_weights=EN_CUM, k=(chars - length) // 5 + 30)
        at = 0
        while at + 24 <= len(words):
            size = 6 + int(19 * rng.random())
            sentence = words[at:at + size]
            at += size
            if rng.random() < 0.6:
                sentence[int(1 + (size - 2) * rng.random())] += ","
            if rng.random() < 0.08:
                sentence.insert(int(1 + size * rng.random()), f"in {1990 + int(36 * rng.random())}")
            sentence[0] = sentence[0].capitalize()
            sentences.append(" ".join(sentence) + _EN_ENDS[int(15 * rng.random())])
            length += len(sentences[-1])
    return "".join(sentences)


def _sentence(rng: random.Random, lang: str) -> str:
    text = _zh_text(rng, 400) if lang == "zh" else _en_text(rng, 400)
    end = (_ZH_END if lang == "zh" else _EN_END).search(text)
    return text[:end.end()] if end else text


def _paragraph(rng: random.Random, lang: str) -> str:
    text = _zh_text(rng, 3000) if lang == "zh" else _en_text(rng, 3000)
    return text.split("\n", 1)[0].strip()


def article_text(seed: int, n: int, chars: int) -> str:
    """Article ``n``: a dateline, then text to exactly ``chars`` characters."""
    rng = _rng(seed, n)
    lang = "zh" if rng.random() < 2 / 3 else "en"
    year, month, day = rng.randint(1995, 2025), rng.randint(1, 12), rng.randint(1, 28)
    if lang == "zh":
        head = f"{year}年{month}月{day}日\u3000"
        return (head + _zh_text(rng, chars - len(head)))[:chars]
    head = f"{MONTHS[month - 1]} {day}, {year} — "
    return (head + _en_text(rng, chars - len(head)))[:chars]


def edit(text: str, kind: str, lang: str, rng: random.Random) -> str:
    """``text`` with one small edit of ``kind`` (see EDIT_KINDS), the kind a republished or
    re-fetched page shows: a typo fixed, a footer year moved on, a sentence rewritten, an
    update or comment appended."""
    if kind == "word":
        if lang == "zh":
            while text[i := rng.randrange(len(text))] not in ZH_SET:
                pass
            new = rng.choice([c for c in ZH_CHARS if c != text[i]])
            return text[:i] + new + text[i + 1:]
        match = rng.choice(list(_EN_WORD.finditer(text)))
        while (word := rng.choices(EN_WORDS, cum_weights=EN_CUM)[0]) == match[0]:
            pass
        return text[:match.start()] + word + text[match.end():]
    if kind == "year":
        match = rng.choice(list(_YEAR.finditer(text)))  # the dateline has one at least
        year = rng.choice([y for y in range(1990, 2026) if y != int(match[0])])
        return text[:match.start()] + str(year) + text[match.end():]
    if kind == "sentence":
        pattern = _ZH_SENTENCE if lang == "zh" else _EN_SENTENCE
        match = rng.choice(list(pattern.finditer(text)))
        return text[:match.start()] + _sentence(rng, lang) + text[match.end():]
    if kind == "paragraph":
        return text + ("\n" if lang == "zh" else "\n\n") + _paragraph(rng, lang)
    raise ValueError(kind)


Plan = dict[int, tuple[int, str]]  # copy's number → (its original's number, edit kind)


def text_of(seed: int, n: int, chars: int, plan: Plan) -> str:
    """Article ``n`` as the corpus holds it: its own text, or for a planted copy its
    original's text with the edit (drawn from the copy's own generator)."""
    if n not in plan:
        return article_text(seed, n, chars)
    original, kind = plan[n]
    return edit(article_text(seed, original, chars), kind, language(seed, original),
                _rng(seed, n))


def make_plan(seed: int, articles: int, pairs: int) -> tuple[Plan, list[tuple[int, int, str]]]:
    """Which articles are planted copies of which: 2 × ``pairs`` distinct numbers, so no
    article is copied twice and no copy is copied (either would plant pairs unrecorded)."""
    if 2 * pairs > articles:
        raise SystemExit(f"--pairs {pairs} needs at least {2 * pairs} articles")
    rng = random.Random(seed)
    chosen = rng.sample(range(articles), 2 * pairs)
    kinds = [EDIT_KINDS[i % len(EDIT_KINDS)] for i in range(pairs)]
    rng.shuffle(kinds)
    plan: Plan = {}
    planted = []
    for i, kind in enumerate(kinds):
        original, copy = chosen[2 * i], chosen[2 * i + 1]
        plan[copy] = (original, kind)
        planted.append((min(original, copy), max(original, copy), kind))
    return plan, planted


# -- the pool's side ----------------------------------------------------------------------------

_WORKER: tuple[int, int, Plan] = (0, 0, {})


def _init_worker(seed: int, chars: int, plan: Plan) -> None:
    global _WORKER
    _WORKER = (seed, chars, plan)


def _fingerprint(n: int) -> tuple[int, int]:
    """A pool task: generate article ``n``, fingerprint it, drop it."""
    seed, chars, plan = _WORKER
    return n, simhash(text_of(seed, n, chars, plan))


def fingerprint_corpus(seed: int, articles: int, chars: int,
                       plan: Plan) -> tuple[list[int], float, float]:
    """All fingerprints, by article number; the wall time it took and the workers' CPU time
    (seconds), which a busy machine does not inflate as it does the wall time."""
    fingerprints = [0] * articles
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    step = max(1, articles // 10)
    pool = multiprocessing.Pool(os.cpu_count(), _init_worker, (seed, chars, plan))
    done: Iterator[tuple[int, int]] = pool.imap_unordered(_fingerprint, range(articles),
                                                          chunksize=64)
    for count, (n, value) in enumerate(done, 1):
        fingerprints[n] = value
        if count % step == 0 or count == articles:
            log(started, f"fingerprinted {count:,} / {articles:,}")
    pool.close()
    pool.join()  # reaped, so RUSAGE_CHILDREN counts the workers
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return fingerprints, wall, cpu


def log(started: float, message: str) -> None:
    print(f"[{time.perf_counter() - started:5.0f} s] {message}", file=sys.stderr, flush=True)


# -- the figures --------------------------------------------------------------------------------


def single_core(seed: int, sample: int, chars: int,
                plan: Plan) -> tuple[dict[str, list[float]], float]:
    """ms per article of ``simhash`` alone, by language, over articles 0 … sample-1 in this
    process (generating each text is timed apart); and the share of the loop's wall time
    this process had a CPU for, below 1 when the machine was busy with something else."""
    simhash(article_text(seed, 0, chars))  # first call: imports, regex and mask caches
    times: dict[str, list[float]] = {"zh": [], "en": [], "generate": []}
    cpu, wall = time.process_time(), time.perf_counter()
    for n in range(sample):
        t = time.perf_counter()
        text = text_of(seed, n, chars, plan)
        t1 = time.perf_counter()
        simhash(text)
        t2 = time.perf_counter()
        times["generate"].append((t1 - t) * 1000)
        times[language(seed, plan.get(n, (n, ""))[0])].append((t2 - t1) * 1000)
    return times, (time.process_time() - cpu) / (time.perf_counter() - wall)


def index_and_query(fingerprints: list[int], runs: int) -> tuple[list[tuple[int, int, int]],
                                                                 list[float], float]:
    """near_duplicate_pairs over every fingerprint: its pairs, the seconds of each untraced
    run, and the tracemalloc peak (bytes) of one traced run."""
    ids = list(range(len(fingerprints)))
    seconds = []
    pairs: list[tuple[int, int, int]] = []
    for _ in range(runs):
        t = time.perf_counter()
        pairs = near_duplicate_pairs(ids, fingerprints, NEAR_DUPLICATE_BITS)
        seconds.append(time.perf_counter() - t)
    tracemalloc.start()
    traced = near_duplicate_pairs(ids, fingerprints, NEAR_DUPLICATE_BITS)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert traced == pairs
    return pairs, seconds, peak


def index_then_query(fingerprints: list[int]) -> tuple[float, float]:
    """SimIndex filled first, then asked about every fingerprint (each query sees all
    the others, as a new article checked against a full archive would): seconds of each."""
    index = SimIndex(NEAR_DUPLICATE_BITS)
    t = time.perf_counter()
    for key, value in enumerate(fingerprints):
        index.add(key, value)
    added = time.perf_counter() - t
    t = time.perf_counter()
    for value in fingerprints:
        index.near(value)
    return added, time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, help="default 100,000 (--quick 5,000)")
    ap.add_argument("--chars", type=int, default=5_000, help="characters an article")
    ap.add_argument("--pairs", type=int, help="planted near duplicates; default 1,000 (100)")
    ap.add_argument("--sample", type=int, help="articles timed in one process; 2,000 (500)")
    ap.add_argument("--runs", type=int, default=3, help="runs of the index step, median")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="5,000 articles, 100 pairs")
    args = ap.parse_args(argv)
    articles = args.articles or (5_000 if args.quick else 100_000)
    pairs = args.pairs if args.pairs is not None else (100 if args.quick else 1_000)
    sample = min(articles, args.sample or (500 if args.quick else 2_000))
    cores = os.cpu_count() or 1
    plan, planted = make_plan(args.seed, articles, pairs)
    print(f"near duplicates: {articles:,} articles of {args.chars:,} characters"
          f" (2/3 Chinese, 1/3 English), {pairs:,} planted pairs, seed {args.seed},"
          f" threshold {NEAR_DUPLICATE_BITS} bits, cores {cores}, load average"
          f" {os.getloadavg()[0]:.1f}", flush=True)

    started = time.perf_counter()
    log(started, f"timing simhash on {sample:,} articles in one process…")
    times, share = single_core(args.seed, sample, args.chars, plan)
    fingerprints, wall, cpu = fingerprint_corpus(args.seed, articles, args.chars, plan)
    both = times["zh"] + times["en"]
    print(f"simhash, 1 core   {len(both) / (sum(both) / 1000):7,.0f} articles/s;"
          f" median {statistics.median(both):.2f} ms per {args.chars:,}-character article"
          f" (sample of {len(both):,})")
    for lang, name in (("zh", "Chinese"), ("en", "English")):
        if times[lang]:
            print(f"  {name:<16}median {statistics.median(times[lang]):.2f} ms,"
                  f" slowest {max(times[lang]):.2f} ms  ({len(times[lang]):,} articles)")
    print(f"  (generating a text, not counted: median {statistics.median(times['generate']):.2f}"
          f" ms; this process had a CPU {100 * share:.0f} % of the sample's wall time)")
    print(f"corpus, {cores} procs  {articles:,} articles generated and fingerprinted in"
          f" {wall:.1f} s: {articles / wall:,.0f} articles/s"
          f" ({articles / wall / cores:,.0f} a process); the workers' CPU time {cpu:.1f} s,"
          f" {1000 * cpu / articles:.2f} ms an article with its generation")
    # the pool's fingerprints are the ones this process computes
    for n in range(min(sample, 200)):
        assert simhash(text_of(args.seed, n, args.chars, plan)) == fingerprints[n], n

    log(started, f"near_duplicate_pairs over {articles:,} fingerprints, {args.runs} + 1 runs…")
    found, seconds, peak = index_and_query(fingerprints, args.runs)
    added, queried = index_then_query(fingerprints)
    print(f"index + query     near_duplicate_pairs over {articles:,}: median"
          f" {statistics.median(seconds):.2f} s of {args.runs} (slowest {max(seconds):.2f} s),"
          f" {len(found):,} pairs; tracemalloc peak {peak / 2**20:.1f} MB")
    print(f"  SimIndex        add all {added:.2f} s, then query all {queried:.2f} s"
          f" ({queried / articles * 1e6:.0f} µs a query against all {articles:,})")

    # recall: every planted pair the edit left within the threshold must be found
    found_pairs = {(a, b): d for a, b, d in found}
    planted_pairs = {(a, b) for a, b, _ in planted}
    by_kind: dict[str, Counter[str]] = {kind: Counter() for kind in EDIT_KINDS}
    distances: dict[str, list[int]] = {kind: [] for kind in EDIT_KINDS}
    missed = []
    for a, b, kind in planted:
        distance = hamming(fingerprints[a], fingerprints[b])
        distances[kind].append(distance)
        lang = language(args.seed, plan[b][0] if b in plan else plan[a][0])
        if distance <= NEAR_DUPLICATE_BITS:
            by_kind[kind]["within"] += 1
            if (a, b) in found_pairs:
                by_kind[kind]["found"] += 1
            else:
                missed.append((a, b, kind, distance))
        else:
            by_kind[kind]["beyond"] += 1
            by_kind[kind][f"beyond {lang}"] += 1
    within = sum(c["within"] for c in by_kind.values())
    hits = sum(c["found"] for c in by_kind.values())
    recall = hits / within if within else 1.0
    print(f"recall            {hits:,} of the {within:,} planted pairs within"
          f" {NEAR_DUPLICATE_BITS} bits found: {100 * recall:.1f} %  (must be 100 %)")
    beyond = sum(c["beyond"] for c in by_kind.values())
    print(f"beyond threshold  {beyond:,} of {pairs:,} planted pairs were moved more than"
          f" {NEAR_DUPLICATE_BITS} bits by their edit:")
    for kind in EDIT_KINDS:
        c, d = by_kind[kind], distances[kind]
        if not d:
            continue
        print(f"  {kind:<16}{c['beyond']:4,} of {len(d):4,} ({100 * c['beyond'] / len(d):4.1f} %;"
              f" Chinese {c['beyond zh']}, English {c['beyond en']})   distance median"
              f" {statistics.median(d):g}, max {max(d)}")
    false = sorted((d, a, b) for (a, b), d in found_pairs.items() if (a, b) not in planted_pairs)
    langs = Counter("–".join(sorted((language(args.seed, a), language(args.seed, b))))
                    for _, a, b in false)
    print(f"false pairs       {len(false):,} found pairs were not planted"
          + (" (" + ", ".join(f"{k} {v:,}" for k, v in sorted(langs.items())) + "; by distance "
             + ", ".join(f"{k} bits {v:,}" for k, v in sorted(Counter(d for d, _, _ in false)
                                                              .items())) + ")"
             if false else ""))
    if false:
        print("  nearest         " + ", ".join(f"#{a}–#{b} {d} bits" for d, a, b in false[:4]))
    self_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"resident memory   this process peak {self_mb:.0f} MB (maxrss), the largest pool"
          f" worker {child_mb:.0f} MB")
    print(f"cores             {cores}; load average at the end"
          f" {', '.join(f'{x:.1f}' for x in os.getloadavg())} (1, 5, 15 min)")
    if missed:
        for a, b, kind, distance in missed[:10]:
            print(f"MISSED #{a}–#{b} ({kind}) at {distance} bits", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
