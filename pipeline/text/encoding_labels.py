"""The WHATWG Encoding Standard's labels, and the Python codec that reads each one like a browser.

A page's charset label means what browsers make of it, not what Python's codec registry does:
the Standard (https://encoding.spec.whatwg.org/, ``encodings.json``) maps about 220 labels to
40 encodings and widens several of them — ``big5`` is Big5-HKSCS, ``euc-kr`` is Windows-949,
``shift_jis`` is Windows-31J, ``gb2312``/``gbk`` are GBK, ``iso-8859-1``/``ascii`` are
windows-1252 — because that is what the pages that carry those labels actually contain.
Only these labels are accepted: Python also knows ``punycode``, ``rot13``, ``zlib``, ``idna``,
``utf-7``…, which no browser reads and which cost minutes of CPU or crash when a page names them.

Decisions where Python has no exact equivalent (documented so nobody "fixes" them by accident):

- ``GBK`` is read as ``gb18030``: a superset that decodes every GBK page the same way and also
  the characters sites use beyond it.
- ``replacement`` (``iso-2022-kr``, ``iso-2022-cn``, ``hz-gb-2312``…: labels the Standard keeps
  only so that browsers refuse them) and ``x-user-defined`` have no codec here: a label naming
  them is unusable and is ignored like a missing label, so detection decides instead.
- ``windows-1252`` is ``cp1252``, whose five undefined bytes (0x81 0x8D 0x8F 0x90 0x9D) decode to
  U+FFFD where browsers give C1 controls; ``EUC-JP`` is ``euc_jp`` (without the NEC/IBM rows
  browsers add); ``KOI8-U`` is ``koi8_u`` (the Standard's is KOI8-RU, two letters more).
"""

from __future__ import annotations

import codecs
from functools import cache

# The Standard's encodings.json, as encoding name → labels (labels are ASCII-lowercase).
WHATWG_LABELS: dict[str, tuple[str, ...]] = {
    "UTF-8": ("unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8",
              "x-unicode20utf8"),
    "IBM866": ("866", "cp866", "csibm866", "ibm866"),
    "ISO-8859-2": ("csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592",
                   "iso_8859-2", "iso_8859-2:1987", "l2", "latin2"),
    "ISO-8859-3": ("csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593",
                   "iso_8859-3", "iso_8859-3:1988", "l3", "latin3"),
    "ISO-8859-4": ("csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594",
                   "iso_8859-4", "iso_8859-4:1988", "l4", "latin4"),
    "ISO-8859-5": ("csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5",
                   "iso88595", "iso_8859-5", "iso_8859-5:1988"),
    "ISO-8859-6": ("arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic",
                   "ecma-114", "iso-8859-6", "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127",
                   "iso8859-6", "iso88596", "iso_8859-6", "iso_8859-6:1987"),
    "ISO-8859-7": ("csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7",
                   "iso-ir-126", "iso8859-7", "iso88597", "iso_8859-7", "iso_8859-7:1987",
                   "sun_eu_greek"),
    "ISO-8859-8": ("csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e",
                   "iso-ir-138", "iso8859-8", "iso88598", "iso_8859-8", "iso_8859-8:1988",
                   "visual"),
    "ISO-8859-8-I": ("csiso88598i", "iso-8859-8-i", "logical"),
    "ISO-8859-10": ("csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910",
                    "l6", "latin6"),
    "ISO-8859-13": ("iso-8859-13", "iso8859-13", "iso885913"),
    "ISO-8859-14": ("iso-8859-14", "iso8859-14", "iso885914"),
    "ISO-8859-15": ("csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15",
                    "l9"),
    "ISO-8859-16": ("iso-8859-16",),
    "KOI8-R": ("cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"),
    "KOI8-U": ("koi8-ru", "koi8-u"),
    "macintosh": ("csmacintosh", "mac", "macintosh", "x-mac-roman"),
    "windows-874": ("dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620",
                    "windows-874"),
    "windows-1250": ("cp1250", "windows-1250", "x-cp1250"),
    "windows-1251": ("cp1251", "windows-1251", "x-cp1251"),
    "windows-1252": ("ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819",
                     "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1",
                     "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252"),
    "windows-1253": ("cp1253", "windows-1253", "x-cp1253"),
    "windows-1254": ("cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9",
                     "iso88599", "iso_8859-9", "iso_8859-9:1989", "l5", "latin5",
                     "windows-1254", "x-cp1254"),
    "windows-1255": ("cp1255", "windows-1255", "x-cp1255"),
    "windows-1256": ("cp1256", "windows-1256", "x-cp1256"),
    "windows-1257": ("cp1257", "windows-1257", "x-cp1257"),
    "windows-1258": ("cp1258", "windows-1258", "x-cp1258"),
    "x-mac-cyrillic": ("x-mac-cyrillic", "x-mac-ukrainian"),
    "GBK": ("chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk",
            "iso-ir-58", "x-gbk"),
    "gb18030": ("gb18030",),
    "Big5": ("big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"),
    "EUC-JP": ("cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"),
    "ISO-2022-JP": ("csiso2022jp", "iso-2022-jp"),
    "Shift_JIS": ("csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis",
                  "windows-31j", "x-sjis"),
    "EUC-KR": ("cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987",
               "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949"),
    "replacement": ("csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr",
                    "replacement"),
    "UTF-16BE": ("unicodefffe", "utf-16be"),
    "UTF-16LE": ("csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16",
                 "utf-16le"),
    "x-user-defined": ("x-user-defined",),
}

# WHATWG encoding name → the Python codec that decodes what browsers decode (None: unusable),
# in Python's own spelling (``codecs.lookup(c).name``), so reasons and comparisons use one name
# per codec. Written out rather than looked up: a lookup imports the codec's module, and a page
# needs one codec, not forty (issue 27 §10: the import is in every ``extract`` process).
CODECS: dict[str, str | None] = {
    "UTF-8": "utf-8",
    "IBM866": "cp866",
    **{f"ISO-8859-{n}": f"iso8859-{n}" for n in (2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16)},
    "ISO-8859-8-I": "iso8859-8",  # "logical" order only changes how Hebrew is displayed
    "KOI8-R": "koi8-r",
    "KOI8-U": "koi8-u",
    "macintosh": "mac-roman",
    "windows-874": "cp874",
    **{f"windows-{n}": f"cp{n}" for n in range(1250, 1259)},
    "x-mac-cyrillic": "mac-cyrillic",
    "GBK": "gb18030",
    "gb18030": "gb18030",
    "Big5": "big5hkscs",
    "EUC-JP": "euc_jp",
    "ISO-2022-JP": "iso2022_jp",
    "Shift_JIS": "cp932",
    "EUC-KR": "cp949",
    "UTF-16BE": "utf-16-be",
    "UTF-16LE": "utf-16-le",
    "replacement": None,
    "x-user-defined": None,
}
_NAME_OF_LABEL: dict[str, str] = {
    label: name for name, labels in WHATWG_LABELS.items() for label in labels
}
# Every codec a label can lead to: the only codecs the decoder ever uses.
WEB_CODECS: frozenset[str] = frozenset(c for c in CODECS.values() if c)
_ASCII_WHITESPACE = "\t\n\x0c\r "


def encoding_name(label: str) -> str | None:
    """The Standard's "get an encoding": the encoding a label names, or None for no label."""
    return _NAME_OF_LABEL.get(label.strip(_ASCII_WHITESPACE).lower())


def codec_for_label(label: str) -> str | None:
    """The Python codec for a WHATWG label; None for unknown and unusable labels alike."""
    name = encoding_name(label)
    return CODECS[name] if name else None


@cache
def _python_spellings() -> dict[str, str]:
    """Python codec name → web codec, for names Python and the Standard share (``big5``,
    ``euc_kr``, ``latin_1``…) and for the web codecs themselves (``cp949``, ``big5hkscs``).
    Made when first asked for: looking up every label imports a hundred codec modules, and
    only a detector's answer or a rules file needs this."""
    out = {codec: codec for codec in WEB_CODECS}
    for label, name in _NAME_OF_LABEL.items():
        codec = CODECS[name]
        if codec is None:
            continue
        try:
            python_name = codecs.lookup(label).name
        except LookupError:
            continue
        out.setdefault(python_name, codec)
    return out



def web_codec(python_name: str) -> str | None:
    """The web codec for a Python codec name (a detector's answer, a rules.yaml entry), widened
    as browsers widen it (``big5`` → ``big5hkscs``); None for codecs no browser reads."""
    try:
        name = codecs.lookup(python_name.strip()).name
    except LookupError:
        return None
    return _python_spellings().get(name)
