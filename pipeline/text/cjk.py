"""The scripts written without spaces between words (Chinese, Japanese, Korean), where a
character counts as a word: one definition for diffs, fingerprints, search terms, reading
lengths, a harvest's anchor texts, the extractor's title and author scores, and the script
shares an article's language is decided by (``language``).

The link finder's own class (``urls``) is another on purpose: it also ends a link at
full-width punctuation, which is no word at all.
"""

from __future__ import annotations

import re

from pipeline.text.lazy_patterns import compiled

# Regex character classes' insides, by script. HAN is the unified ideographs block that
# everyday Chinese and Japanese text is written in; CJK_CHARS adds the radicals, the extension
# blocks, the compatibility ideographs, bopomofo and the other historic and rare ranges.
KANA = "\u3040-\u30ff"  # hiragana and katakana
HANGUL = "\uac00-\ud7af"  # Hangul syllables
HAN = "\u4e00-\u9fff"
CJK_CHARS = ("\u2e80-\u2fff" + KANA + "\u3100-\u31ff\u3400-\u4dbf" + HAN + HANGUL
             + "\uf900-\ufaff\U00020000-\U0003ffff")
HAN_CHAR = re.compile(f"[{HAN}]")
KANA_CHAR = re.compile(f"[{KANA}]")
HANGUL_CHAR = re.compile(f"[{HANGUL}]")
HAN_OR_KANA = re.compile(f"[{HAN}{KANA}]")


# The two patterns over every CJK range are compiled when first asked for (``compiled``): each
# costs milliseconds to compile, and ``extract`` (timed as a whole process, issue 27 §10) uses
# neither.
_CJK_CHAR = f"[{CJK_CHARS}]"
_SPACED_WORD = rf"[^\W_{CJK_CHARS}]+"


def cjk_char() -> re.Pattern[str]:
    """One CJK character of any block."""
    return compiled(_CJK_CHAR)


def spaced_word() -> re.Pattern[str]:
    """A word of a spaced script: letters and digits, no CJK character among them."""
    return compiled(_SPACED_WORD)
