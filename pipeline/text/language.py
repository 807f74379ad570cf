"""The language of an article, decided from its own text (issue 27 §9): the one policy the
extractor's ``Article.lang``, the book's chapters and the book's own language all follow.

The text decides because what pages declare is often wrong: an English article under a
site-wide ``<html lang="zh">``, ``Content-Language: utf-8`` (a charset, not a language), no
declaration at all. First the script shares: a text whose letters are mostly Han, kana or
Hangul is Chinese, Japanese or Korean by their *shares* (two kana in a corrupt Chinese
sentence do not make it Japanese). Any other text goes to py3langid (a naive Bayes model over
byte n-grams, 97 languages; chosen by measurement over lingua, see the commit that added it).

A declared tag is taken only when it is a well-formed BCP 47 tag (RFC 5646) whose language
is the one the text shows; then its region and script subtags are kept too (``zh-TW``,
``zh-Hant``, ``en-GB``, ``pt-BR``): the text says which language, the site says which
variety, and a declared ``zh-TW`` on Chinese text chooses the book's traditional-Chinese
faces. When the text is too short to be sure, a declared tag of the same script wins (a
kanji-only Japanese headline under ``lang="ja"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from pipeline.records.language_tag import NO_LANGUAGE, language_tag
from pipeline.text.cjk import HAN_OR_KANA, HANGUL_CHAR, KANA_CHAR
from pipeline.text.detector import load_detector, user_cache

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier


@dataclass(frozen=True)
class LanguageOptions:
    # How much of a text is read: on the dev sets 1,000 characters decide as well as 2,000
    # (1,574 of 1,584 pages right either way) in two thirds of the time.
    sample_chars: int = 1000
    # One Han, kana or Hangul character stands for a syllable: about this many letters of an
    # alphabet. CJK text wins when its characters, so weighed, outnumber the other letters.
    cjk_letter_weight: int = 3
    # Kana per Han-or-kana character that makes a text Japanese: Japanese prose has 0.3–0.8
    # (dev pages: 0.63, 0.83), Chinese none but a stray quote or a mis-decoded byte pair.
    kana_share: float = 0.1
    # Below these a text's language is a guess a same-script declared tag may overrule: CJK
    # characters read, and the detector's probability (normalised; the dev sets' wrong
    # guesses were all under 0.05, on texts of 14–131 characters).
    sure_cjk_chars: int = 20
    sure_probability: float = 0.5
    # A short text's best guess among 97 languages is often a rare one ("Hello world" reads as
    # Fula): unsure, the detector chooses among the languages most of the web is written in
    # (W3Techs' content languages, the alphabetic ones).
    common_languages: frozenset[str] = frozenset((
        "en", "es", "de", "ru", "fr", "pt", "tr", "it", "fa", "nl", "pl", "vi", "id", "cs",
        "uk", "ar", "el", "hu", "sv", "ro", "da", "he", "th", "fi", "sk", "no", "bg"))


DEFAULT_LANGUAGE = LanguageOptions()


@dataclass(frozen=True)
class Guess:
    """A text's language, the script it is written in, and whether the text was enough."""

    lang: str | None
    script: str
    sure: bool


# RFC 5646 §2.1 ``langtag``, with the primary language limited to the 2–3 letter ISO 639 codes
# (4–8 letter ones are reserved or unused): ``utf-8`` fails, as "8" is no subtag.
# The tag of a text with no letters to tell its language by (RFC 5646 §4.1).
UNDETERMINED = "und"
# Deprecated codes and the individual languages a text detector reports under another code,
# for comparing a declared tag with the text's language (the declared tag is kept as given).
_SAME_AS = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro", "nb": "no", "nn": "no",
            "fil": "tl", "cmn": "zh", "wuu": "zh", "yue": "zh", "lzh": "zh"}
# The script of each language not written in the Latin alphabet (the detector's languages and
# the CJK ones); any other language is Latin-script.
_SCRIPTS = {
    "Han": ("zh", "ja", "wuu", "yue", "cmn", "lzh"), "Hangul": ("ko",),
    "Cyrillic": ("ru", "uk", "bg", "be", "mk", "sr", "kk", "ky", "mn", "tg", "tt", "ba"),
    "Arabic": ("ar", "fa", "ur", "ps", "ug", "ku", "sdh", "ary", "arz"),
    "Hebrew": ("he", "yi", "hbo"), "Greek": ("el", "grc"),
    "Devanagari": ("hi", "mr", "ne", "sa", "gom"), "Bengali": ("bn", "as"), "Thai": ("th",),
    "Georgian": ("ka",), "Armenian": ("hy",), "Ethiopic": ("am",), "Tamil": ("ta",),
    "Telugu": ("te",), "Kannada": ("kn",), "Malayalam": ("ml",), "Gujarati": ("gu",),
    "Gurmukhi": ("pa",), "Oriya": ("or",), "Sinhala": ("si",), "Khmer": ("km",), "Lao": ("lo",),
    "Myanmar": ("my",), "Tibetan": ("dz",),
}
_SCRIPT_OF = {lang: script for script, langs in _SCRIPTS.items() for lang in langs}
# The detector's answers that a text the shares did not call CJK cannot have.
_NOT_FOR_ALPHABETS = frozenset(_SCRIPTS["Han"] + _SCRIPTS["Hangul"]) | NO_LANGUAGE


def primary_subtag(tag: str) -> str:
    """The language a tag names, for comparing tags (``zh-Hant-TW`` → ``zh``, ``iw`` → ``he``)."""
    primary = tag.split("-", 1)[0].lower()
    return _SAME_AS.get(primary, primary)


def script_of(lang: str) -> str:
    return _SCRIPT_OF.get(primary_subtag(lang), "Latin")


def article_language(text: str, declared: Iterable[str | None] = (),
                     options: LanguageOptions = DEFAULT_LANGUAGE) -> str | None:
    """The language of ``text``, as a BCP 47 tag: the first well-formed ``declared`` tag
    (in the page's order: ``<html lang>``, Content-Language, og:locale) that agrees with the
    text, else the text's own language; a declared tag alone when the text has no letters.
    None when neither says anything."""
    tags = [t for t in map(language_tag, declared) if t]
    guess = text_language(text, options)
    if guess.lang is None:
        return tags[0] if tags else None
    for tag in tags:
        if primary_subtag(tag) == guess.lang:
            return tag
    if not guess.sure:
        for tag in tags:
            if script_of(tag) == guess.script:
                return tag
    return guess.lang


def text_language(text: str, options: LanguageOptions = DEFAULT_LANGUAGE) -> Guess:
    """The language the text's own letters show (see the module's docstring)."""
    sample = text[:options.sample_chars]
    han_or_kana = len(HAN_OR_KANA.findall(sample))
    hangul = len(HANGUL_CHAR.findall(sample))
    cjk = han_or_kana + hangul
    others = sum(map(str.isalpha, sample)) - cjk  # a C-level loop, not a generator's
    if cjk == 0 and others == 0:
        return Guess(None, "", sure=False)
    if cjk * options.cjk_letter_weight >= others:
        sure = cjk >= options.sure_cjk_chars
        if hangul > han_or_kana:
            return Guess("ko", "Hangul", sure)
        kana = len(KANA_CHAR.findall(sample))
        return Guess("ja" if kana >= options.kana_share * han_or_kana else "zh", "Han", sure)
    if sum(map(str.isupper, sample)) * 2 > others:  # a headline in capitals reads as words
        sample = sample.lower()
    ranked = [(lang, p) for lang, p in _identifier().rank(sample)
              if lang not in _NOT_FOR_ALPHABETS]
    lang, probability = ranked[0]
    if probability < options.sure_probability:
        lang = next((lang for lang, _ in ranked if lang in options.common_languages), lang)
        return Guess(lang, script_of(lang), sure=False)
    return Guess(lang, script_of(lang), sure=True)


@cache
def _identifier() -> LanguageIdentifier:
    """The detector, loaded on first use, once per process (see ``detector``)."""
    return load_detector(user_cache())
