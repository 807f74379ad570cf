"""The scripts written without spaces between words (Chinese, Japanese, Korean), where a
character counts as a word: one definition for diffs, fingerprints, search terms, reading
lengths, a harvest's anchor texts and a book's language.

The link finder's own class (``urls``) is another on purpose: it also ends a link at
full-width punctuation, which is no word at all.
"""

from __future__ import annotations

import re

# a regex character class's inside
CJK_CHARS = ("\u2e80-\u2fff\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
             "\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003ffff")
CJK_CHAR = re.compile(f"[{CJK_CHARS}]")
# a word of a spaced script: letters and digits, no CJK character among them
SPACED_WORD = re.compile(rf"[^\W_{CJK_CHARS}]+")
