"""Bytes → text for a fetched page, with the decision recorded (seed 003 §2.1, §4.1).

The order is the seed's: a charset forced by rules.yaml → the Content-Type header → a BOM →
``<meta charset>`` / ``http-equiv`` in the first 1024 bytes → detection.

Labels mean what they mean to browsers (``pipeline.text.encoding_labels``): only the WHATWG Encoding
Standard's labels count, widened as browsers widen them (``big5`` is Big5-HKSCS, ``euc-kr`` is
cp949, ``shift_jis`` is cp932, ``gb2312``/``gbk`` are read as GB18030, ``iso-8859-1`` is
cp1252). Any other name (``punycode``, ``rot13``, ``utf-7``…) is ignored like a missing label,
and so are the Standard's ``replacement`` labels (``iso-2022-kr``…) and ``x-user-defined``, which
no codec here reads as browsers do. rules.yaml may also use Python's name of a codec browsers
use (``big5hkscs``). The ``<meta>`` is found the way the HTML Standard's prescan finds it:
comments are skipped, only real ``<meta>`` attributes count, an unusable label does not end the
search, and a UTF-16 label there means UTF-8.

Detection: strict UTF-8, or UTF-8 with a few stray bytes; then strict GB18030 that reads as
Chinese (before any detector: charset-normalizer guesses cp1251, cp949 or Big5 for short GBK
pages); then charset-normalizer's first answer that browsers could have used (not ptcp154 or
cp775; not a CJK codec for a few stray high bytes on an ASCII page), except that windows-1252 is
preferred over another Latin codepage when the bytes read as Western text (a short Western page
gives the detector too little to tell cp1252 from cp1250, and it picks the latter), and that a
Latin or Cyrillic answer (or none) loses to a CJK codec whose reading is its common characters
with a few U+FFFD: a single-byte codepage reads every byte, so a GB2312 forum page with a few
invalid bytes, which no strict CJK decoding accepts, otherwise comes out as "ЦчМв: Ўѕ2005ДкЦР".
The same test overrules a declared windows-1252 (ISO-8859-1, a server's or template's default),
and a declared GBK or Big5 whose reading is rare characters loses to the other's common ones.

Declarations lie often on Chinese sites (a UTF-8 header on a GBK body, a stale meta on a UTF-8
page), so every result is checked: more than ``replacement_ratio`` U+FFFD characters and the page
is decoded again as UTF-8 and as the other codecs its declaration may really mean, keeping the one
with the fewest replacements. Only the labels that servers send without knowing (UTF-8,
windows-1252) may turn into GB18030: GB18030 accepts almost any byte pair, so a Big5 or Korean page
with a few bad bytes would otherwise become fluent nonsense. A page that mixes encodings is decoded
with replacement, never dropped.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from pipeline.records.settings import Settings
from pipeline.text.encoding_labels import CODECS, codec_for_label, encoding_name, web_codec

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE: its BOM starts the same way
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_PRESCAN_BYTES = 1024  # HTML Standard: the prescan looks at the first 1024 bytes
_DETECT_BYTES = 200_000  # what the detectors and the Latin check look at
# Other codecs a declaration may really mean when its own leaves too many U+FFFD (UTF-8 is always
# tried as well). Only the labels servers send by default say nothing about a page's language.
_ALTERNATIVES: dict[str, tuple[str, ...]] = {"utf-8": ("gb18030",), "cp1252": ("gb18030",)}
_DETECTED_ALTERNATIVES = ("gb18030", "utf-8")
# The CJK codecs a detector may answer: they need CJK text, not a few stray high bytes.
_MULTIBYTE_CODECS = frozenset(("big5hkscs", "cp932", "cp949", "euc_jp", "gb18030", "iso2022_jp"))

# "Reads as Chinese" (strict GB18030 before the detector). GB18030 decodes almost any byte pair,
# so strictness alone proves little: Latin-1 accents followed by letters decode too, as rare
# hanzi. Chinese text is nearly all GB2312 level-1 hanzi (lead bytes 0xB0–0xD7, the 3755 common
# characters) and rows 0xA1–0xA3 (full-width punctuation): 95–100% of non-ASCII characters on
# the bench's Chinese pages.
_MIN_CJK_CHARS = 4  # fewer is "a few scattered high bytes", not Chinese text
_MIN_CJK_SHARE = 0.8
# EUC-KR's Hangul block (lead 0xB0–0xC8, trail 0xA1–0xFE) is byte for byte the first part of
# GB2312 level 1, so Korean "reads as" common hanzi too. Chinese puts 40–50% of its characters
# outside that block (pinyin s–z, full-width punctuation), Hangul-only Korean none.
_MIN_OUTSIDE_HANGUL = 0.15
# A CJK reading with U+FFFD beats a Latin or Cyrillic one only with at most this many per common
# character (and no more than ``replacement_ratio`` of the text). Russian in KOI8-R reads as
# 86–95% common hanzi, but every odd-length word leaves a lone byte: 0.21–0.29 U+FFFD per hanzi.
_FEW_REPLACEMENTS = 0.05
# Read one byte a character, CJK text is runs of letters: a character is two bytes, and the
# characters stand side by side. Western text's accents mostly stand alone inside words (the
# ’ of "it’s" is one byte, and cp932 reads "’s" as the kanji 痴).
_MIN_HIGH_BYTES_IN_RUNS = 0.5

# Chinese sites name the wrong one of the two Chinese encodings (a Big5 template's meta on a GBK
# page, or the reverse): each reads the other's bytes with hardly an error, as rare characters.
_CHINESE_TWINS = {"gb18030": "big5hkscs", "big5hkscs": "gb18030"}

# The Latin codepages a detector answers where windows-1252 may be meant.
# (Each in Python's own spelling, as ``encoding_labels.CODECS``: written out, not looked up.)
_LATIN_CODECS = frozenset((
    "cp1250", "cp1254", "cp1257", "cp1258", "iso8859-2", "iso8859-3", "iso8859-4", "iso8859-10",
    "iso8859-13", "iso8859-14", "iso8859-15", "iso8859-16", "mac-roman"))
# The codepages whose reading of CJK bytes is runs of accented Latin or Cyrillic letters. Thai,
# Greek, Hebrew and Arabic answers are left alone: Thai has no spaces between words, so its bytes
# pair up as common hanzi with no U+FFFD at all.
_LETTER_CODECS = _LATIN_CODECS | frozenset((
    "cp1252", "cp1251", "koi8-r", "koi8-u", "iso8859-5", "cp866", "mac-cyrillic"))
# The letters beyond ASCII of the languages windows-1252 serves (fr de es pt it ca nl da/no sv fi,
# lowercase), and of those the other Latin codepages serve (cs sk pl hu sl/hr ro tr lt lv et).
# Icelandic is left out of the first: its þ ð are what Turkish ş ğ become in windows-1252.
_WESTERN_ALPHABETS = tuple(frozenset(a) for a in (
    "àâæçèéêëîïôœùûüÿ", "äöüßé", "áéíñóúü", "àáâãçéêíóôõú", "àèéìíîòóù", "àçèéíïòóúü",
    "áèéëíïóöúü", "åæøéèóô", "åäöé", "åäöšž"))
_WESTERN_LETTERS: frozenset[str] = frozenset().union(*_WESTERN_ALPHABETS)
_OTHER_LATIN_ALPHABETS = tuple(frozenset(a) for a in (
    "áčďéěíňóřšťúůýž", "áäčďéíĺľňóôŕšťúýž", "ąćęłńóśźż", "áéíóöőúüű", "čćđšž", "ăâîșşțţ",
    "çğıöşüâî", "ąčęėįšųūž", "āčēģīķļņōŗšūž", "äõöüšž"))
# When both readings spell a language, a detector that saw fewer bytes than this decoded
# differently has too little to go on: windows-1252, the web's most common legacy encoding, wins.
_FEW_LATIN_BYTES = 8

# Made once: checking every setting's bounds costs some forty microseconds, paid on every page
# of a batch otherwise (Settings is frozen, so one instance serves every call).
_DEFAULT_SETTINGS = Settings()
_SPACE = b"\t\n\x0c\r "
_ATTRIBUTE_END = _SPACE + b">"
_TAG_START = re.compile(rb"</?[A-Za-z]")


@dataclass(frozen=True)
class Decoded:
    """A decoded page: its text, the codec that produced it, and why that codec was chosen."""

    text: str
    encoding: str
    reason: str


def decode_html(
    body: bytes,
    content_type: str | None = None,
    forced: str | None = None,
    settings: Settings | None = None,
) -> Decoded:
    """Decode a page's bytes; see the module docstring for the order and the U+FFFD check."""
    settings = settings or _DEFAULT_SETTINGS
    declared = _declared(body, content_type, forced)
    alternatives: tuple[str, ...]
    if declared is None:
        encoding, reason = _detect(body, settings.replacement_ratio)
        alternatives = _DETECTED_ALTERNATIVES
    else:
        encoding, reason = declared
        alternatives = (*_ALTERNATIVES.get(encoding, ()), "utf-8")
        if encoding != "utf-8" and not reason.startswith("rules") and _is_utf8(body):
            # Text in another encoding is almost never also valid UTF-8 with multibyte
            # sequences: a stale or copied declaration on a UTF-8 page is far more likely.
            encoding, reason = "utf-8", f"{reason} but bytes are UTF-8: utf-8"
        elif encoding == "cp1252" and not reason.startswith("rules") and (
            cjk := _cjk_despite_errors(body[:_DETECT_BYTES], settings.replacement_ratio)
        ):
            # ISO-8859-1 is what a server or template says when nobody chose: a Chinese page
            # under it reads as runs of accented letters with almost no U+FFFD to give it away.
            encoding, reason = cjk, f"{reason} but the bytes read as {cjk}: {cjk}"
        elif (twin := _CHINESE_TWINS.get(encoding)) and not reason.startswith("rules") and (
            _twin_reads_chinese(body[:_DETECT_BYTES], encoding, twin)
        ):
            encoding, reason = twin, f"{reason} but the bytes read as {twin}: {twin}"
    text = _decode(body, encoding)
    ratio = _fffd_ratio(text)
    if ratio <= settings.replacement_ratio:
        return Decoded(text, encoding, reason)
    best = (ratio, encoding, text)
    tried = [f"{reason} gave {ratio:.0%} U+FFFD"]
    for alt in alternatives:
        if alt == encoding:
            continue
        alt_text = _decode(body, alt)
        alt_ratio = _fffd_ratio(alt_text)
        tried.append(f"{alt} gave {alt_ratio:.0%}")
        if alt_ratio < best[0]:
            best = (alt_ratio, alt, alt_text)
    return Decoded(best[2], best[1], "; ".join(tried) + f" → {best[1]}")


def _declared(body: bytes, content_type: str | None, forced: str | None) -> tuple[str, str] | None:
    """The codec that something declares, and what declared it; None when nothing usable does."""
    if forced and (name := codec_for_label(forced) or web_codec(forced)):
        # rules.yaml is written by people: Python's spelling of a web codec (big5hkscs) is fine.
        return name, f"rules encoding {name}"
    header = None
    if content_type and (label := _charset_in_content(content_type)) is not None:
        header = codec_for_label(label)
        # ISO-8859-1 is what servers (Tomcat, old Apache set-ups) send when nobody configured a
        # charset: on its own it is believed, but a page's own declaration outranks it.
        if header and header != "cp1252":
            return header, f"header charset {header}"
    for bom, name in _BOMS:
        if body.startswith(bom):
            return name, f"BOM {name}"
    if meta := _prescan(body[:_PRESCAN_BYTES]):
        name, label = meta
        source = "meta charset"
        if encoding_name(label) in ("UTF-16BE", "UTF-16LE"):
            # A UTF-16 meta read as ASCII bytes cannot be true; the Standard reads it as UTF-8.
            source = f"meta charset {label.strip()} (read as UTF-8)"
        if header and name != header:
            return name, f"{source} (over the default header {header}) {name}"
        return name, f"{source} {name}"
    if header:
        return header, f"header charset {header}"
    return None


def _prescan(head: bytes) -> tuple[str, str] | None:
    """The first usable ``<meta>`` declaration, as (codec, label), the way the HTML Standard's
    "prescan a byte stream to determine its encoding" finds it (§13.2.3.2)."""
    pos, end = 0, len(head)
    while pos < end:
        # Every step below starts at a "<"; any other byte is stepped over, so jump to the next.
        if (pos := head.find(b"<", pos)) < 0:
            return None
        if head.startswith(b"<!--", pos):
            close = head.find(b"-->", pos + 2)  # "<!-->" is a whole comment
            if close < 0:
                return None
            pos = close + 3
            continue
        if head[pos : pos + 5].lower() == b"<meta" and _is_one_of(head, pos + 5, _SPACE + b"/"):
            attributes, pos = _attributes(head, pos + 6)
            if found := _meta_charset(attributes):
                return found
        elif _TAG_START.match(head, pos):
            while pos < end and head[pos] not in _ATTRIBUTE_END:
                pos += 1
            _, pos = _attributes(head, pos)
        elif head[pos : pos + 2] in (b"<!", b"</", b"<?"):
            pos = head.find(b">", pos + 2)
            if pos < 0:
                return None
        pos += 1
    return None


def _is_one_of(data: bytes, pos: int, choices: bytes) -> bool:
    return pos < len(data) and data[pos] in choices


def _meta_charset(attributes: list[tuple[str, str]]) -> tuple[str, str] | None:
    """A ``<meta>``'s usable charset as (codec, label): its ``charset`` attribute, or its
    ``content`` when ``http-equiv="content-type"`` is there too; None when it declares none."""
    seen: set[str] = set()
    got_pragma = False
    need_pragma: bool | None = None
    label: str | None = None
    for name, value in attributes:
        if name in seen:
            continue
        seen.add(name)
        if name == "http-equiv" and value == "content-type":
            got_pragma = True
        elif name == "content" and label is None:
            if (found := _charset_in_content(value)) is not None and encoding_name(found):
                label, need_pragma = found, True
        elif name == "charset":
            label, need_pragma = value, False
    if need_pragma is None or (need_pragma and not got_pragma) or label is None:
        return None
    whatwg = encoding_name(label)
    if whatwg in ("UTF-16BE", "UTF-16LE"):
        return "utf-8", label
    codec = CODECS.get(whatwg) if whatwg else None
    # replacement and x-user-defined are unusable here: keep looking, as for an unknown label.
    return (codec, label) if codec else None


def _attributes(head: bytes, pos: int) -> tuple[list[tuple[str, str]], int]:
    """The HTML Standard's "get an attribute", repeated from ``pos`` to the end of the tag: the
    (name, value) pairs, bytes read as Latin-1 and lowercased, and the position of the tag's
    ``>`` — or ``len(head)`` when the input ends inside the tag, which ends the prescan."""
    end = len(head)
    found: list[tuple[str, str]] = []
    while True:
        while pos < end and head[pos] in _SPACE + b"/":
            pos += 1
        if pos >= end or head[pos] == 0x3E:  # ">"
            return found, pos
        name = bytearray()
        while pos < end:
            byte = head[pos]
            if (byte == 0x3D and name) or byte in _ATTRIBUTE_END or byte == 0x2F:
                break  # "=" ends a non-empty name; an empty name takes it as a character
            name.append(byte)
            pos += 1
        while pos < end and head[pos] in _SPACE:
            pos += 1
        if pos >= end:
            return found, end
        if head[pos] != 0x3D:  # no value: the next attribute starts here
            found.append((_text(name), ""))
            continue
        pos += 1
        while pos < end and head[pos] in _SPACE:
            pos += 1
        if pos >= end:
            return found, end
        value = bytearray()
        quote = head[pos]
        if quote in b"\"'":
            close = head.find(bytes([quote]), pos + 1)
            if close < 0:
                return found, end
            value += head[pos + 1 : close]
            pos = close + 1
        elif quote != 0x3E:
            while pos < end and head[pos] not in _ATTRIBUTE_END:
                value.append(head[pos])
                pos += 1
        found.append((_text(name), _text(value)))


def _text(raw: bytes | bytearray) -> str:
    return raw.decode("latin-1").lower()


def _charset_in_content(content: str) -> str | None:
    """The HTML Standard's "extract a character encoding from a meta element": the label after
    ``charset=`` in a ``content`` value (also used for the Content-Type header), or None."""
    pos = 0
    lower = content.lower()
    while (at := lower.find("charset", pos)) >= 0:
        pos = at + len("charset")
        rest = content[pos:].lstrip("\t\n\x0c\r ")
        if not rest.startswith("="):
            continue
        rest = rest[1:].lstrip("\t\n\x0c\r ")
        if rest[:1] in ("'", '"'):
            close = rest.find(rest[0], 1)
            return rest[1:close] if close > 0 else None
        return re.split(r"[\t\n\x0c\r ;]", rest, maxsplit=1)[0] or None
    return None


def _is_utf8(body: bytes) -> bool:
    """True when the bytes are strict UTF-8 and not plain ASCII (which any codec would read)."""
    return not body.isascii() and _decodes(body, "utf-8")


def _detect(body: bytes, replacement_ratio: float) -> tuple[str, str]:
    """Guess an undeclared encoding: the codec and why it was chosen."""
    if body.isascii() or _is_utf8(body):
        return "utf-8", "detected utf-8"  # cheap, and never wrong when it passes
    if _mostly_utf8(body, replacement_ratio):
        return "utf-8", "detected utf-8 (a few invalid bytes)"
    gb = _gb_reading(body)
    if gb == "chinese":
        return "gb18030", "detected gb18030 (strict GB18030 reading as Chinese)"
    import charset_normalizer  # here: most pages declare or are UTF-8, and it costs an import

    sample = body[:_DETECT_BYTES]
    for match in charset_normalizer.from_bytes(sample):
        codec = web_codec(match.encoding)
        if codec is None or codec.startswith("utf-16"):
            # ptcp154, cp775, mac-iceland…: codecs no browser would have used; and browsers
            # never guess UTF-16 without a BOM (the BOM was checked before).
            continue
        if codec in _MULTIBYTE_CODECS and _too_few_wide_chars(sample, codec):
            continue  # a few stray high bytes on an ASCII page are no CJK text
        if gb == "chinese or korean" and codec != "cp949":
            return "gb18030", f"detected {codec}, but the bytes read as Chinese or Korean: gb18030"
        if codec in _LETTER_CODECS and (cjk := _cjk_despite_errors(sample, replacement_ratio)):
            return cjk, f"detected {codec}, but the bytes read as {cjk} with a few errors: {cjk}"
        if codec in _LATIN_CODECS and _reads_as_western(sample, codec):
            return "cp1252", f"detected {codec}, but the bytes read as Western text: cp1252"
        return codec, f"detected {codec}"
    if gb == "chinese or korean":
        return "gb18030", "detected nothing, but the bytes read as Chinese or Korean: gb18030"
    if cjk := _cjk_despite_errors(sample, replacement_ratio):
        return cjk, f"detected nothing, but the bytes read as {cjk} with a few errors: {cjk}"
    if _decodes(body, "cp1252"):
        return "cp1252", "detected nothing: cp1252 (every byte decodes)"
    return "gb18030", "detected nothing: gb18030"


def _too_few_wide_chars(sample: bytes, codec: str) -> bool:
    return _wide_chars(sample.decode(codec, errors="replace")) < _MIN_CJK_CHARS


def _mostly_utf8(body: bytes, replacement_ratio: float) -> bool:
    """UTF-8 with a few invalid bytes (a stray Latin-1 snippet in a UTF-8 template): at most
    ``replacement_ratio`` U+FFFD, and more real multibyte characters than replacements."""
    text = body.decode("utf-8", errors="replace")
    bad = text.count("\ufffd")
    return bad <= replacement_ratio * len(text) and _wide_chars(text) - bad > bad


def _wide_chars(text: str) -> int:
    return len(text) - len(text.encode("ascii", errors="ignore"))


def _decodes(body: bytes, codec: str) -> bool:
    try:
        body.decode(codec)
    except UnicodeDecodeError:
        return False
    return True


@cache
def _pairs(codec: str, leads: tuple[int, ...], trails: tuple[int, ...]) -> frozenset[str]:
    """The characters ``codec`` makes of these lead and trail bytes, made when first asked
    for: most pages never ask, and making every table is 30 ms of CPU at each start."""
    chars: set[str] = set()
    for lead in leads:
        for trail in trails:
            try:
                chars.add(bytes((lead, trail)).decode(codec))
            except UnicodeDecodeError:
                continue
    return frozenset(chars)


_HIGH_TRAILS = tuple(range(0xA1, 0xFF))
_ALL_TRAILS = (*range(0x40, 0x7F), *range(0x80, 0xFF))
# What each CJK codec's text is nearly all made of: its standard's punctuation and kana rows and
# its first level of characters (GB2312 level 1, KS X 1001 Hangul, JIS X 0208 level 1, Big5's
# common hanzi). Text in another encoding read through the codec lands in these rows only by
# chance, except where one codec's rows are another's: each codec comes before those that read
# its text as common characters too (Korean Hangul is JIS level 1 in EUC-JP and common Big5
# hanzi, EUC-JP's kana rows are common Big5 hanzi; GB2312 is told from Korean by ``_gb_shape``).
_COMMON: dict[str, tuple[str, tuple[int, ...], tuple[int, ...]]] = {  # codec: _pairs of its rows
    "gb18030": ("gb2312", (*range(0xA1, 0xA4), *range(0xB0, 0xD8)), _HIGH_TRAILS),
    "cp949": ("euc_kr", (*range(0xA1, 0xA4), *range(0xB0, 0xC9)), _HIGH_TRAILS),
    "euc_jp": ("euc_jp", (*range(0xA1, 0xA6), *range(0xB0, 0xD0)), _HIGH_TRAILS),
    "cp932": ("shift_jis", (*range(0x81, 0x84), *range(0x88, 0x99)), _ALL_TRAILS),
    "big5hkscs": ("big5", tuple(range(0xA1, 0xC7)), _ALL_TRAILS),
}
# GB2312 characters whose bytes are also EUC-KR Hangul (lead 0xB0–0xC8).
_GB_HANGUL_SHAPED = ("gb2312", tuple(range(0xB0, 0xC9)), _HIGH_TRAILS)


def _common_chars(text: str, codec: str) -> tuple[int, str]:
    """How many of the text's characters beyond ASCII (U+FFFD aside) are ``codec``'s common
    ones, and those characters."""
    wide = re.sub(r"[\x00-\x7f\ufffd]+", "", text[:_DETECT_BYTES])
    common = _pairs(*_COMMON[codec])
    return sum(1 for char in wide if char in common), wide


def _gb_shape(text: str) -> str:
    """How a GB18030 reading reads: "chinese" (mostly common Chinese characters, with enough
    outside EUC-KR's Hangul block), "chinese or korean" (common Chinese characters that are all
    also Hangul), or "" (not Chinese: rare hanzi, or a few scattered bytes)."""
    common, wide = _common_chars(text, "gb18030")
    if common < _MIN_CJK_CHARS or common < _MIN_CJK_SHARE * len(wide):
        return ""
    shaped = _pairs(*_GB_HANGUL_SHAPED)
    hangul_shaped = sum(1 for char in wide if char in shaped)
    if len(wide) - hangul_shaped >= _MIN_OUTSIDE_HANGUL * len(wide):
        return "chinese"
    return "chinese or korean"


def _gb_reading(body: bytes) -> str:
    """How strict GB18030 reads the bytes (``_gb_shape``); "" when they are not GB18030."""
    try:
        return _gb_shape(body.decode("gb18030"))
    except UnicodeDecodeError:
        return ""


def _cjk_despite_errors(sample: bytes, replacement_ratio: float) -> str | None:
    """The first CJK codec (in ``_COMMON``'s order) whose reading is its common characters with
    a few U+FFFD (a truncated character, a stray byte), or None."""
    if _share_in_runs(sample) < _MIN_HIGH_BYTES_IN_RUNS:
        return None
    for codec in _COMMON:
        text = sample.decode(codec, errors="replace")
        bad = text.count("\ufffd")
        common, wide = _common_chars(text, codec)
        if (common < _MIN_CJK_CHARS or common < _MIN_CJK_SHARE * len(wide)
                or bad > _FEW_REPLACEMENTS * common or bad > replacement_ratio * len(text)):
            continue
        if codec == "gb18030" and _gb_shape(text) != "chinese":
            continue  # Hangul-shaped only: Korean, which cp949 reads as well
        return codec
    return None


def _twin_reads_chinese(sample: bytes, declared: str, twin: str) -> bool:
    """Whether a page declared in one Chinese encoding is in the other: the declared reading is
    not its common characters (each reads about half of the other's bytes as common ones), the
    other's is, with a few U+FFFD at most."""
    common, wide = _common_chars(sample.decode(declared, errors="replace"), declared)
    if len(wide) < _MIN_CJK_CHARS or common >= _MIN_CJK_SHARE * len(wide):
        return False
    text = sample.decode(twin, errors="replace")
    common, wide = _common_chars(text, twin)
    return (common >= _MIN_CJK_CHARS and common >= _MIN_CJK_SHARE * len(wide)
            and text.count("\ufffd") <= _FEW_REPLACEMENTS * common)


def _share_in_runs(sample: bytes) -> float:
    """The share of the bytes beyond ASCII that stand next to another such byte."""
    runs = [len(run) for run in re.findall(rb"[\x80-\xff]+", sample)]
    return sum(n for n in runs if n > 1) / sum(runs) if runs else 0.0


def _reads_as_western(sample: bytes, codec: str) -> bool:
    """Whether windows-1252 beats a detector's answer of another Latin ``codec``.

    Only the bytes the two readings decode differently matter (none: same text, browsers' name).
    In windows-1252 they must look Western: letters Western languages use, symbols not wedged
    inside words (Polish ł read as ³ is). Then windows-1252 wins unless the detector's reading
    spells a language (letters inside words, all from one alphabet: Czech ř ě č, not the crčme
    brűlée naďve of French loanwords or the Ł3,000 of a pound sign) while windows-1252's letters
    fit no single Western alphabet (Czech read as cp1252: ø è ì); when both readings spell one,
    windows-1252 wins only on a few bytes (an "El Niño" against a "Nińo").
    """
    try:
        western = sample.decode("cp1252")
    except UnicodeDecodeError:
        return False
    other = sample.decode(codec, errors="replace")  # single-byte: one character per byte
    differ = [i for i in _high_bytes(sample) if western[i] != other[i]]
    if not differ:
        return True  # the same text either way: name it as browsers would
    for i in differ:
        char = western[i]
        if char.isalpha() and char.lower() not in _WESTERN_LETTERS:
            return False
        if unicodedata.category(char)[0] in "NS" and _between_letters(western, i):
            return False  # ³ ¹ £ ¤ inside a word; punctuation (’ – ·) and spaces may be there
    other_is_language = all(other[i].isalpha() and _in_word(other, i) for i in differ) and (
        _one_alphabet({other[i] for i in differ}, _OTHER_LATIN_ALPHABETS))
    if not other_is_language:
        return True
    western_letters = {western[i] for i in differ if western[i].isalpha()}
    if not _one_alphabet(western_letters, _WESTERN_ALPHABETS):
        return False
    return len(differ) <= _FEW_LATIN_BYTES


def _one_alphabet(chars: set[str], alphabets: tuple[frozenset[str], ...]) -> bool:
    """Whether the letters all belong to one of the alphabets (case aside)."""
    lower = {char.lower() for char in chars}
    return any(lower <= alphabet for alphabet in alphabets)


def _in_word(text: str, i: int) -> bool:
    return (i > 0 and text[i - 1].isalpha()) or (i + 1 < len(text) and text[i + 1].isalpha())


def _between_letters(text: str, i: int) -> bool:
    return 0 < i < len(text) - 1 and text[i - 1].isalpha() and text[i + 1].isalpha()


def _high_bytes(data: bytes) -> list[int]:
    return [m.start() for m in re.finditer(rb"[\x80-\xff]", data)]


def _decode(body: bytes, encoding: str) -> str:
    text = body.decode(encoding, errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


def _fffd_ratio(text: str) -> float:
    # Looking for one is a fifth of counting them (memchr's speed), and nearly no page has one.
    return text.count("\ufffd") / len(text) if text and "\ufffd" in text else 0.0
