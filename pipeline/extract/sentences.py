"""Sentences in extracted text: how many a text ends, Western or Chinese.

A count of sentence ends tells running text from a label, a heading, a poll or a list of
names ("Worth reading?", "The official source for …"), which end one sentence at most.
"""

from __future__ import annotations

import re

# A Western stop counts when a space, a closing quote or bracket, or the end follows it (so
# "3.5", "e.g" inside a word and "example.com" do not); Chinese stops always count.
SENTENCE_END = re.compile(r"[.!?…]+(?=[\s\"'”’)\]]|$)|[。！？]+")


def count_sentences(text: str) -> int:
    """The sentence ends in ``text`` (a run of stops, "?!" or "...", is one)."""
    return len(SENTENCE_END.findall(text))
