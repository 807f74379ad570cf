"""Issue 27 §10: the language detector's model is unpacked once into the user's cache and
memory-mapped after; the detector so loaded gives py3langid's own answers, number for number,
and a cache that cannot hold the copy costs speed, never an answer."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

from pipeline.text.detector import load_detector

TEXTS = [
    "The harbour master closed the north pier on Tuesday after a storm loosened its piles.",
    "Der Hafenmeister sperrte am Dienstag den Nordpier, nachdem ein Sturm die Pfähle lockerte.",
    "Le capitaine du port a fermé la jetée nord mardi après une tempête.",
    "Начальник порта закрыл северный причал во вторник после шторма.",
    "Hello world",
]


@cache
def shipped() -> LanguageIdentifier:
    return LanguageIdentifier.from_model_file(MODEL_DIR / MODEL_FILE, norm_probs=True)


def assert_same_answers(detector: LanguageIdentifier) -> None:
    for text in TEXTS:
        assert detector.rank(text) == shipped().rank(text), text


def copies(cache_dir: Path) -> list[Path]:
    return [p for p in cache_dir.iterdir() if p.name.startswith("langid-")]


def test_the_unpacked_model_answers_as_the_shipped_one_and_is_unpacked_once(tmp_path: Path) -> None:
    assert_same_answers(load_detector(tmp_path))
    [copy] = copies(tmp_path)
    stamps = {p.name: p.stat().st_mtime_ns for p in copy.iterdir()}
    assert {"nextmove.npy", "rowbase.npy"} <= set(stamps)
    # the weights widened once, not by every text's product
    assert np.load(copy / "ptc.npy", mmap_mode="r").dtype == np.float32
    assert_same_answers(load_detector(tmp_path))
    assert copies(tmp_path) == [copy]  # nothing left aside, nothing written again
    assert {p.name: p.stat().st_mtime_ns for p in copy.iterdir()} == stamps


def test_a_cache_that_cannot_hold_the_copy_gives_the_same_answers(tmp_path: Path) -> None:
    blocked = tmp_path / "kuaibu"
    blocked.write_text("a file where the cache folder should be")
    assert_same_answers(load_detector(blocked))
    assert_same_answers(load_detector(None))


def test_a_damaged_copy_is_not_read(tmp_path: Path) -> None:
    load_detector(tmp_path)
    [copy] = copies(tmp_path)
    table = copy / "nextmove.npy"
    table.write_bytes(table.read_bytes()[:4096])  # cut short, as by a full disk
    assert_same_answers(load_detector(tmp_path))
